import type { AgentStep, ApprovalReason, Changeset, ChangesetConflictBody, ChartData, Highlight, ListWorkbooksResponse, ProcessActionResponse } from '@finsheet/contracts'
import { assistantErrorText, ASSISTANT_ERROR_TIPS, MAX_ASSISTANT_MESSAGE_LENGTH } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'
import { ApiError, errorStatus } from '../api/api-client'
import { cellAddress, parseCellAddress } from '../grid/address'
import { singleCellSelection } from '../grid/selection'
import { DEFAULT_WORKBOOK_ID } from '../session/session-workbook'
import type { Workspace } from '../spreadsheet/workspace'
import { browserStorage } from '../storage/browser-storage'
import type { ModelList } from './assistant-api'
import { applyChangeset, changesSince, discardChangeset, failureOf, generateFormulas, getChangeset, loadModels, streamAction, streamChat } from './assistant-api'
import { contextOf, historyOf, rangeOn } from './assistant-context'
import type { AssistantMessage, ChangesetBlock, ConversationStore, Message, ModelBlock, StepLine } from './conversation'
import { conversationStore } from './conversation'
import type { EventStreamOptions } from './event-stream'
import type { SendRoute } from './routing'
import { asksForFormula, routeOf } from './routing'
import type { AssistantMode } from './texts'
import {
  AGENT_NEEDS_SAVED_WORKBOOK,
  DEFAULT_ASSISTANT_MODE,
  DOCUMENT_FOLLOW_UPS,
  documentSuggestionsText,
  HIGHLIGHT_CLEAR_MS,
  MODEL_CELL_LOAD_DELAY_MS,
  MODEL_CREATED_TITLE,
  MODEL_CREATION_STEPS,
  MODEL_LIST_ATTEMPTS,
  MODEL_LIST_RETRY_MS,
  MODEL_NO_CELLS,
  MODEL_NO_WORKBOOK_ID,
  UPLOAD_FOLLOW_UPS,
  uploadSuggestionsText,
  WORKBOOK_SWITCHED_TITLE,
} from './texts'

/** What the assistant needs of the open workbook and the session that keeps it. */
export interface AssistantWorkbooks {
  readonly userId: string | null
  /** whether the open workbook is kept by the spreadsheet service (the agent changes only those) */
  readonly isServerWorkbookOpen: boolean
  /** sends edits not saved yet, so the agent sees what the user sees */
  flush(): Promise<void>
  /** loads the open workbook again as the service has it */
  reloadFromServer(history?: { canUndo: boolean; canRedo: boolean }): Promise<void>
  /** Ctrl+Z, waiting for the service */
  undoLatestChange(): Promise<void>
  openWorkbook(id: string, name?: string): Promise<void>
  copyDefaultWorkbook(name: string): Promise<string | null>
  onHistory(listener: (kind: 'undo' | 'redo', changeId: string) => void): () => void
}

export interface AssistantDependencies {
  api: ApiClient
  stream: EventStreamOptions
  workspace: Workspace
  workbooks: AssistantWorkbooks
  notify(notice: { title: string; description?: string; variant?: 'default' | 'success' | 'destructive' }): void
  storage?: Storage
  sleep?: (ms: number) => Promise<void>
}

export const PANEL_WIDTH = { min: 300, default: 400, max: 760 } as const

export interface AssistantState {
  open: boolean
  width: number
  mode: AssistantMode
  /** null while the list loads */
  models: ModelList | null
  /** the chosen model's value */
  model: string | null
  /** the workbook whose conversation is shown */
  workbookId: string
  messages: readonly Message[]
  sending: boolean
  /** 'Apply agent changes without asking' */
  autoApply: boolean
  /** text put into the input from outside (a suggestion button); `seq` tells two equal texts apart */
  draft: { text: string; seq: number } | null
}

interface Preferences {
  open: boolean
  width: number
  mode: AssistantMode
  model: string | null
  autoApply: boolean
}

const PREFERENCES_KEY = 'finsheet:assistant-preferences'
/** Cells a preview outlines one by one, at most, when the changeset names no ranges. */
const MAX_OUTLINED_CELLS = 500

let messageCounter = 0
function newId(): string {
  messageCounter++
  return `${Date.now().toString(36)}-${messageCounter}-${Math.random().toString(36).slice(2, 8)}`
}

const now = () => new Date().toISOString()

function readPreferences(storage: Storage | undefined): Partial<Preferences> {
  try {
    const text = storage?.getItem(PREFERENCES_KEY)
    const parsed: unknown = text ? JSON.parse(text) : null
    return parsed && typeof parsed === 'object' ? (parsed as Partial<Preferences>) : {}
  } catch {
    return {}
  }
}

function changesetState(changeset: Changeset): ChangesetBlock['state'] {
  return changeset.status === 'applied' ? 'applied' : changeset.status === 'discarded' ? 'discarded' : 'draft'
}

/** The 409 body of a refused apply, when that is what the error is. */
function conflictOf(error: unknown): ChangesetConflictBody['error'] | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null
  const body = error.body as Partial<ChangesetConflictBody> | null
  return body && typeof body === 'object' && body.error && typeof body.error.code === 'string' ? body.error : null
}

/**
 * The assistant panel's state and everything it does: sending (chat, agent actions, model creation)
 * with streamed answers and a Stop that cancels, the changesets an answer carries (apply, discard,
 * undo, run again after a conflict), formula cards, and one conversation per workbook kept in the
 * browser. Views read `state` and call its methods; it talks to the services and to the workbook.
 */
export class AssistantController {
  private current: AssistantState
  private readonly listeners = new Set<() => void>()
  private readonly deps: AssistantDependencies
  private readonly storage: Storage | undefined
  private readonly sleep: (ms: number) => Promise<void>
  private store: ConversationStore | null = null
  private storeUser: string | null = null
  /** conversations read so far, by workbook id */
  private readonly conversations = new Map<string, Message[]>()
  private abort: AbortController | null = null
  private appliedTimer: ReturnType<typeof setTimeout> | null = null
  private modelsRequested = false
  private draftSeq = 0
  private readonly unsubscribers: (() => void)[] = []

  constructor(deps: AssistantDependencies) {
    this.deps = deps
    this.storage = deps.storage ?? browserStorage()
    this.sleep = deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
    const saved = readPreferences(this.storage)
    this.current = {
      open: saved.open === true,
      width: typeof saved.width === 'number' ? clampWidth(saved.width) : PANEL_WIDTH.default,
      mode: saved.mode === 'chat' || saved.mode === 'agent' ? saved.mode : DEFAULT_ASSISTANT_MODE,
      models: null,
      model: typeof saved.model === 'string' ? saved.model : null,
      workbookId: DEFAULT_WORKBOOK_ID,
      messages: [],
      sending: false,
      autoApply: saved.autoApply === true,
      draft: null,
    }
  }

  get state(): AssistantState {
    return this.current
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Follows the open workbook (its conversation is shown) and the service's undo and redo. */
  start(): () => void {
    const { workspace, workbooks } = this.deps
    let seen = workspace.state.store?.id
    this.followWorkbook()
    this.unsubscribers.push(
      workspace.subscribe(() => {
        const id = workspace.state.store?.id
        if (id !== seen) {
          seen = id
          this.followWorkbook()
        }
      }),
      workbooks.onHistory((kind, changeId) => this.heardHistory(kind, changeId)),
    )
    if (this.current.open) this.loadModels()
    return () => {
      for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe()
    }
  }

  // ---- the panel ----------------------------------------------------------------------------------

  setOpen(open: boolean): void {
    if (open) this.loadModels()
    this.update({ open }, true)
  }

  toggle(): void {
    this.setOpen(!this.current.open)
  }

  setWidth(width: number): void {
    this.update({ width: clampWidth(width) }, true)
  }

  setMode(mode: AssistantMode): void {
    this.update({ mode }, true)
  }

  setModel(model: string): void {
    this.update({ model }, true)
  }

  setAutoApply(autoApply: boolean): void {
    this.update({ autoApply }, true)
  }

  /** Puts a prompt into the input for the user to send or change. */
  suggest(text: string): void {
    this.update({ draft: { text, seq: ++this.draftSeq } })
  }

  /** The input took the suggested prompt: a panel opened later starts empty. */
  takeDraft(): void {
    if (this.current.draft) this.update({ draft: null })
  }

  /** The last message the user sent in this conversation (Up in an empty input). */
  lastUserMessage(): string | null {
    const last = this.current.messages.findLast((message) => message.role === 'user')
    return last ? last.text : null
  }

  /** Loads the model list once; the built-in list stands in when it cannot be read. */
  loadModels(): void {
    if (this.modelsRequested) return
    this.modelsRequested = true
    void loadModels(this.deps.api).then((models) => {
      const chosen = this.current.model
      const usable = (value: string | null) => value !== null && models.models.some((model) => model.value === value && model.available)
      const model = usable(chosen) ? chosen : usable(models.defaultModel) ? models.defaultModel : (models.models.find((option) => option.available)?.value ?? null)
      this.update({ models, model })
    })
  }

  /** After an upload: the panel opens on the new workbook's conversation with what can be asked next. */
  afterUpload(workbookId: string, name: string): void {
    this.append(workbookId, {
      id: newId(),
      role: 'assistant',
      at: now(),
      route: 'notice',
      text: uploadSuggestionsText(name),
      status: 'done',
      steps: [],
      followUps: UPLOAD_FOLLOW_UPS,
    })
    this.setOpen(true)
  }

  /**
   * After a PDF was read: the panel opens in Chat mode with what can be asked, and later questions in
   * this conversation are about its figures until the user lets the document go.
   */
  afterDocument(fileId: string, fileName: string, figures: number): void {
    this.append(this.current.workbookId, {
      id: newId(),
      role: 'assistant',
      at: now(),
      route: 'notice',
      text: documentSuggestionsText(fileName, figures),
      status: 'done',
      steps: [],
      followUps: DOCUMENT_FOLLOW_UPS,
      document: { fileId, name: fileName },
    })
    this.update({ mode: 'chat' }, true)
    this.setOpen(true)
  }

  /** The uploaded document chat questions are about now, if any. */
  activeDocument(): { fileId: string; name: string } | null {
    const message = this.current.messages.findLast((m) => m.role === 'assistant' && m.document !== undefined)
    return message?.role === 'assistant' && message.document ? message.document : null
  }

  /** Questions stop being about the uploaded document. */
  forgetDocument(): void {
    const message = this.current.messages.findLast((m) => m.role === 'assistant' && m.document !== undefined)
    if (message) this.patch(message.id, (m) => ({ ...m, document: undefined }))
  }

  // ---- sending ------------------------------------------------------------------------------------

  /** Sends a message; empty text, or a send while one is in flight, is ignored. */
  async send(raw: string): Promise<void> {
    const text = raw.trim()
    if (text === '' || this.current.sending) return
    const route = routeOf(this.current.mode, text)
    const workbookId = this.current.workbookId
    const earlier = this.current.messages
    this.append(workbookId, { id: newId(), role: 'user', text, at: now() })
    const answer: AssistantMessage = { id: newId(), role: 'assistant', at: now(), route, text: '', status: 'streaming', command: text, steps: [], modelLabel: this.modelLabel() }
    this.append(workbookId, answer)
    await this.run(answer.id, route, text, earlier)
  }

  /** Runs a message's command again (after a conflict, or a command that stopped); the old changeset is dropped. */
  async rerun(messageId: string): Promise<void> {
    const message = this.find(messageId)
    if (!message?.command || this.current.sending) return
    if (message.offer === 'rerun') this.patch(messageId, (m) => ({ ...m, offer: undefined }))
    const block = message.changeset
    if (block && block.state === 'draft') {
      this.patch(messageId, (m) => ({ ...m, changeset: { ...block, state: 'discarding', notice: undefined } }))
      await discardChangeset(this.deps.api, block.changeset.id).catch(() => undefined)
      this.patch(messageId, (m) => ({ ...m, changeset: m.changeset && { ...m.changeset, state: 'discarded', conflict: undefined } }))
    }
    await this.send(message.command)
  }

  /** Stop: cancels the request in flight; what arrived so far stays. */
  stop(): void {
    this.abort?.abort()
  }

  private async run(messageId: string, route: SendRoute, text: string, earlier: readonly Message[]): Promise<void> {
    const abort = new AbortController()
    this.abort = abort
    this.update({ sending: true })
    try {
      if (route === 'chat') await this.runChat(messageId, text, earlier, abort.signal)
      else if (route === 'create_model') await this.runAction(messageId, text, earlier, abort.signal, false)
      else await this.runAction(messageId, text, earlier, abort.signal, true)
    } catch (error) {
      if (abort.signal.aborted) {
        this.patch(messageId, (m) => ({ ...m, status: 'stopped', steps: m.steps.map((step) => (step.state === 'running' ? { ...step, state: 'failed', error: 'Stopped' } : step)) }))
      } else {
        console.error('The assistant request failed', error)
        const failure = failureOf(error)
        this.patch(messageId, (m) => ({ ...m, status: 'error', error: assistantErrorText(failure), steps: m.steps.map((step) => (step.state === 'running' ? { ...step, state: 'failed' } : step)) }))
      }
    } finally {
      if (this.abort === abort) this.abort = null
      this.update({ sending: false })
    }
  }

  private modelLabel(): string | undefined {
    const { models, model } = this.current
    return models?.models.find((option) => option.value === model)?.label
  }

  private async runChat(messageId: string, text: string, earlier: readonly Message[], signal: AbortSignal): Promise<void> {
    const { workspace, workbooks } = this.deps
    const document = this.activeDocument()
    const context = { ...contextOf(workspace.state), ...(document ? { fileId: document.fileId } : {}) }
    const workbookId = workbooks.isServerWorkbookOpen ? workspace.state.store?.id : undefined
    const model = this.current.model ?? undefined
    const answer = await streamChat(
      { message: text, history: historyOf(earlier), ...(model ? { model } : {}), ...(workbookId ? { workbookId } : {}), context },
      {
        delta: (piece) => this.patch(messageId, (m) => ({ ...m, text: m.text + piece })),
        toolCall: (call) => this.patch(messageId, (m) => ({ ...m, steps: [...m.steps, { id: call.id, description: toolDescription(call.name), state: 'running' }] })),
        toolResult: (result) =>
          this.patch(messageId, (m) => ({ ...m, steps: m.steps.map((step) => (step.id === result.id ? { ...step, state: result.isError ? 'failed' : 'ok' } : step)) })),
      },
      { ...this.deps.stream, signal },
    )
    this.patch(messageId, (m) => ({ ...m, text: answer.response || m.text, status: 'done', steps: m.steps.map((step) => (step.state === 'running' ? { ...step, state: 'ok' } : step)) }))
    if (!asksForFormula(text)) return
    try {
      const formulas = await generateFormulas(this.deps.api, { description: text.slice(0, 2000), ...(workbookId ? { workbookId } : {}), context, ...(model ? { model } : {}) }, signal)
      if (formulas.length > 0) this.patch(messageId, (m) => ({ ...m, formulas }))
    } catch (error) {
      // the answer stands without cards
      console.warn('No formula cards for this answer', error)
    }
  }

  /** The action path: a command on the open workbook, or (`onWorkbook` false) a new model. */
  private async runAction(messageId: string, text: string, earlier: readonly Message[], signal: AbortSignal, onWorkbook: boolean): Promise<void> {
    const { workspace, workbooks } = this.deps
    if (onWorkbook && !workbooks.isServerWorkbookOpen) {
      this.patch(messageId, (m) => ({ ...m, route: 'notice', status: 'done', text: AGENT_NEEDS_SAVED_WORKBOOK, offer: 'copy-default-workbook' }))
      return
    }
    if (onWorkbook) await workbooks.flush()
    const workbookId = onWorkbook ? workspace.state.store?.id : undefined
    const model = this.current.model ?? undefined
    const preview = !this.current.autoApply
    const response = await streamAction(
      {
        command: text.slice(0, MAX_ASSISTANT_MESSAGE_LENGTH + 1),
        ...(workbookId ? { workbookId, context: contextOf(workspace.state) } : {}),
        ...(model ? { preferredModel: model } : {}),
        preview,
        history: historyOf(earlier),
      },
      {
        delta: (piece) => this.patch(messageId, (m) => ({ ...m, text: m.text + piece })),
        toolCall: (call) => this.patch(messageId, (m) => ({ ...m, steps: [...m.steps.filter((step) => step.id !== call.id), { id: call.id, description: call.description, state: 'running' }] })),
        toolResult: (step) => this.patch(messageId, (m) => ({ ...m, steps: withStep(m.steps, step) })),
        changeset: (brief) => this.patch(messageId, (m) => ({ ...m, brief })),
        progress: (progress) => this.patch(messageId, (m) => ({ ...m, progress })),
      },
      { ...this.deps.stream, signal },
    )
    await this.finishAction(messageId, response)
  }

  private async finishAction(messageId: string, response: ProcessActionResponse): Promise<void> {
    const changeset = response.result.changeset
    this.patch(messageId, (m) => {
      let steps = m.steps
      for (const step of response.steps) steps = withStep(steps, step)
      const failed = !response.success
      return {
        ...m,
        // a command that did not finish says why in its error, not as an answer
        text: failed ? '' : response.message || m.text,
        status: failed ? 'error' : 'done',
        ...(failed ? { error: { text: commandFailureText(response), tips: ASSISTANT_ERROR_TIPS }, offer: 'rerun' as const } : {}),
        steps: steps.map((step) => (step.state === 'running' ? { ...step, state: 'ok' } : step)),
        brief: undefined,
        progress: undefined,
        changeset: changeset ? { changeset, state: changesetState(changeset), appliedAtOnce: changeset.applied } : undefined,
      }
    })
    if (response.action.type === 'create_model' || response.result.model) {
      await this.openCreatedModel(messageId, response)
      return
    }
    if (changeset?.applied) {
      await this.deps.workbooks.reloadFromServer({ canUndo: true, canRedo: false })
      this.flashApplied(response.visualFeedback.highlights.length > 0 ? response.visualFeedback.highlights : changeset.highlights, changeset)
    }
  }

  // ---- a created model ----------------------------------------------------------------------------

  /**
   * A new model: the workbook list is read until it lists it (up to 3 times), the session saves,
   * the new workbook becomes the active one, its cells load a second later, and the notices say so.
   */
  private async openCreatedModel(messageId: string, response: ProcessActionResponse): Promise<void> {
    const result = response.result.model
    if (!result?.workbookId) {
      this.patch(messageId, (m) => ({ ...m, status: 'error', error: { text: MODEL_NO_WORKBOOK_ID, tips: ASSISTANT_ERROR_TIPS } }))
      return
    }
    const block: ModelBlock = {
      workbookId: result.workbookId,
      name: result.model.name,
      company: result.model.company,
      modelType: result.model.modelType,
      sheets: result.model.sheets,
      cellsCreated: result.cellsCreated,
      steps: MODEL_CREATION_STEPS.map((label) => ({ label, state: 'pending' })),
      switched: false,
      ...(result.cellsCreated === 0 ? { warning: MODEL_NO_CELLS } : {}),
    }
    this.patch(messageId, (m) => ({ ...m, model: block }))
    // the new workbook's conversation begins with the request and this answer
    const source = this.conversationOf(this.current.workbookId)
    const index = source.findIndex((message) => message.id === messageId)
    const carried = source.slice(Math.max(0, index - 1), index + 1)
    if (!this.conversationOf(result.workbookId).some((message) => message.id === messageId)) this.setConversation(result.workbookId, [...this.conversationOf(result.workbookId), ...carried])

    const step = (index: number, state: 'running' | 'done' | 'failed') =>
      this.patch(messageId, (m) => (m.model ? { ...m, model: { ...m.model, steps: m.model.steps.map((s, i) => (i === index ? { ...s, state } : s)) } } : m))
    const { api, workbooks } = this.deps

    step(0, 'running')
    let listed = false
    for (let attempt = 1; attempt <= MODEL_LIST_ATTEMPTS && !listed; attempt++) {
      try {
        const list = await api.get<ListWorkbooksResponse>('/spreadsheet/workbooks', { query: { limit: 10, offset: 0 } })
        listed = list.workbooks.some((workbook) => workbook.id === result.workbookId)
      } catch (error) {
        console.warn('The workbook list could not be read', error)
      }
      if (!listed && attempt < MODEL_LIST_ATTEMPTS) await this.sleep(MODEL_LIST_RETRY_MS)
    }
    // the workbook exists (the service said so); an unlisted one is still opened
    step(0, 'done')
    step(1, 'running')
    await workbooks.flush().catch(() => undefined)
    step(1, 'done')
    step(2, 'running')
    await this.sleep(MODEL_CELL_LOAD_DELAY_MS)
    step(2, 'done')
    step(3, 'running')
    try {
      await workbooks.openWorkbook(result.workbookId, result.model.name)
    } catch (error) {
      console.error('The new model could not be opened', error)
      step(3, 'failed')
      this.patch(messageId, (m) => ({ ...m, model: m.model && { ...m.model, warning: MODEL_NO_CELLS } }))
      return
    }
    step(3, 'done')
    const switched = this.deps.workspace.state.store?.id === result.workbookId
    this.patch(messageId, (m) => ({ ...m, model: m.model && { ...m.model, switched } }))
    // over the spreadsheet one notice shows at a time, the newest first: the success, then the switch
    if (switched) this.deps.notify({ title: WORKBOOK_SWITCHED_TITLE, description: `Now showing ${result.model.name}` })
    this.deps.notify({ title: MODEL_CREATED_TITLE, description: `${result.model.name}: ${result.model.sheets.join(', ')}`, variant: 'success' })
  }

  // ---- changesets ---------------------------------------------------------------------------------

  /** Apply: the changeset lands as one change (one undo reverts it); its cells light up for 3 s. */
  async applyChangeset(messageId: string, approve = false): Promise<void> {
    const message = this.find(messageId)
    const block = message?.changeset
    if (!message || !block || block.state !== 'draft') return
    this.patchChangeset(messageId, { state: 'applying', notice: undefined, conflict: undefined })
    try {
      await this.deps.workbooks.flush()
      const answer = await applyChangeset(this.deps.api, block.changeset.id, { summary: message.text.slice(0, 4000) || block.changeset.description, ...(approve ? { approve: true } : {}) })
      this.patchChangeset(messageId, { state: 'applied', changeset: answer.changeset, approval: undefined })
      await this.deps.workbooks.reloadFromServer({ canUndo: true, canRedo: false })
      this.flashApplied(answer.changeset.highlights, answer.changeset)
    } catch (error) {
      const refusal = conflictOf(error)
      if (refusal?.code === 'CHANGESET_CONFLICT') {
        const cells = refusal.cells ?? []
        this.patchChangeset(messageId, { state: 'draft', conflict: { message: refusal.message, cells } })
      } else if (refusal?.code === 'APPROVAL_REQUIRED') {
        this.patchChangeset(messageId, { state: 'draft', approval: refusal.approvalReasons ?? block.changeset.approvalReasons })
      } else if (refusal?.code === 'CHANGESET_CLOSED') {
        await this.refreshChangeset(messageId, 'This change was already applied or discarded.')
      } else {
        console.error('The changeset could not be applied', error)
        this.patchChangeset(messageId, { state: 'draft', notice: assistantErrorText(failureOf(error)).text })
      }
    }
  }

  /** Discard: the changeset is dropped and the workbook stays as it was. */
  async discardChangeset(messageId: string): Promise<void> {
    const block = this.find(messageId)?.changeset
    if (!block || block.state !== 'draft') return
    this.patchChangeset(messageId, { state: 'discarding', notice: undefined })
    try {
      const changeset = await discardChangeset(this.deps.api, block.changeset.id)
      this.patchChangeset(messageId, { state: 'discarded', changeset, conflict: undefined, approval: undefined })
    } catch (error) {
      if (conflictOf(error)?.code === 'CHANGESET_CLOSED' || errorStatus(error) === 409) {
        await this.refreshChangeset(messageId, 'This change was already applied or discarded.')
        return
      }
      console.error('The changeset could not be discarded', error)
      this.patchChangeset(messageId, { state: 'draft', notice: assistantErrorText(failureOf(error)).text })
    }
  }

  /**
   * Undo on the message: reverts the whole changeset as Ctrl+Z does, when it is still the latest
   * change of the workbook; otherwise says what came after it.
   */
  async undoChangeset(messageId: string): Promise<void> {
    const block = this.find(messageId)?.changeset
    if (!block || block.state !== 'applied' || !block.changeset.changeId || block.changeset.appliedRevision === null) return
    const { changeId, appliedRevision, workbookId } = block.changeset
    if (this.deps.workspace.state.store?.id !== workbookId) return
    this.patchChangeset(messageId, { state: 'undoing', notice: undefined })
    try {
      await this.deps.workbooks.flush()
      const log = await changesSince(this.deps.api, workbookId, Math.max(0, appliedRevision - 1))
      const own = log.changes.find((change) => change.id === changeId)
      if (own?.undone) {
        this.patchChangeset(messageId, { state: 'undone' })
        return
      }
      const later = log.changes.filter((change) => change.revision > appliedRevision && (change.kind === 'edit' || change.kind === 'restore' || change.kind === 'redo') && !change.undone)
      if (later.length > 0) {
        this.patchChangeset(messageId, {
          state: 'applied',
          notice: `${later.length === 1 ? 'A change was' : `${later.length} changes were`} made after this one (${later.at(-1)!.label}). Undo ${later.length === 1 ? 'it' : 'them'} first with Ctrl+Z.`,
        })
        return
      }
      await this.deps.workbooks.undoLatestChange()
      // the history listener marks it undone when the service reverted this very change
      const after = this.find(messageId)?.changeset
      if (after?.state === 'undoing') this.patchChangeset(messageId, { state: 'applied', notice: 'The change could not be undone. Please try again.' })
    } catch (error) {
      console.error('The changeset could not be undone', error)
      this.patchChangeset(messageId, { state: 'applied', notice: assistantErrorText(failureOf(error)).text })
    }
  }

  /** The user's Ctrl+Z (or the message's Undo) reverted or redid a change: its message follows. */
  private heardHistory(kind: 'undo' | 'redo', changeId: string): void {
    const message = this.current.messages.find((m) => m.role === 'assistant' && m.changeset?.changeset.changeId === changeId)
    if (!message || message.role !== 'assistant' || !message.changeset) return
    if (kind === 'undo') this.patchChangeset(message.id, { state: 'undone', notice: undefined })
    else this.patchChangeset(message.id, { state: 'applied', notice: undefined })
  }

  private async refreshChangeset(messageId: string, notice: string): Promise<void> {
    const block = this.find(messageId)?.changeset
    if (!block) return
    try {
      const changeset = await getChangeset(this.deps.api, block.changeset.id)
      this.patchChangeset(messageId, { changeset, state: changesetState(changeset), notice })
    } catch {
      this.patchChangeset(messageId, { state: 'discarded', notice })
    }
  }

  private clearApplied(): void {
    if (this.appliedTimer) clearTimeout(this.appliedTimer)
    this.appliedTimer = null
    this.deps.workspace.setAssistantHighlights('applied', [])
  }

  /** Outlines the cells an applied changeset changed, for HIGHLIGHT_CLEAR_MS. */
  private flashApplied(highlights: readonly Highlight[], changeset: Changeset): void {
    const marks = outlinesOf(highlights, changeset, this.deps.workspace.state.sheet)
    if (this.appliedTimer) clearTimeout(this.appliedTimer)
    this.deps.workspace.setAssistantHighlights('applied', marks)
    this.appliedTimer = setTimeout(() => {
      this.appliedTimer = null
      this.deps.workspace.setAssistantHighlights('applied', [])
    }, HIGHLIGHT_CLEAR_MS)
  }

  // ---- other answers' actions ---------------------------------------------------------------------

  /** Insert Formula: the formula goes into the selected cell, as if typed there. */
  insertFormula(formula: string): string | null {
    const { workspace } = this.deps
    const { store, sheet, selection } = workspace.state
    if (!store) return null
    const address = cellAddress(selection.active)
    workspace.dispatch({ type: 'set-cells', sheet, cells: [{ address, input: formula }] })
    return `${sheet}!${address}`
  }

  /** What a chart of a range of the open workbook draws. */
  chartData(sheet: string, range: string): ChartData | null {
    return this.deps.workspace.state.store?.chartData(sheet, range) ?? null
  }

  /** Selects a cell the answer names (a changed cell, an error it made) on its sheet. */
  selectCell(sheet: string, address: string): void {
    const { workspace } = this.deps
    const pos = parseCellAddress(address.replace(/\$/g, ''))
    if (!pos || !workspace.state.store?.sheet(sheet)) return
    if (workspace.state.sheet !== sheet) workspace.switchSheet(sheet, singleCellSelection(pos))
    else workspace.setSelection(singleCellSelection(pos))
  }

  /** The default workbook copied into a workbook of the service, then the command sent there. */
  async copyDefaultWorkbookAndContinue(messageId: string): Promise<void> {
    const message = this.find(messageId)
    if (!message || this.current.sending) return
    const command = message.command
    this.patch(messageId, (m) => ({ ...m, offer: undefined, text: `${m.text}\n\nCopying the workbook…` }))
    try {
      const id = await this.deps.workbooks.copyDefaultWorkbook('Untitled workbook')
      if (!id) throw new Error('The workbook could not be copied')
      this.patch(messageId, (m) => ({ ...m, text: m.text.replace('Copying the workbook…', 'Copied into **Untitled workbook**, which is open now.') }))
      if (command) await this.send(command)
    } catch (error) {
      console.error('The default workbook could not be copied', error)
      this.patch(messageId, (m) => ({ ...m, status: 'error', error: assistantErrorText(failureOf(error)) }))
    }
  }

  /** Starts a new conversation for this workbook. */
  clearConversation(): void {
    if (this.current.sending) return
    this.setConversation(this.current.workbookId, [])
  }

  // ---- conversations ------------------------------------------------------------------------------

  private conversationStore(): ConversationStore {
    const user = this.deps.workbooks.userId ?? 'anonymous'
    if (!this.store || this.storeUser !== user) {
      this.store = conversationStore(user, this.storage)
      this.storeUser = user
      this.conversations.clear()
    }
    return this.store
  }

  private conversationOf(workbookId: string): Message[] {
    const store = this.conversationStore()
    let messages = this.conversations.get(workbookId)
    if (!messages) {
      messages = store.load(workbookId)
      this.conversations.set(workbookId, messages)
    }
    return messages
  }

  private setConversation(workbookId: string, messages: Message[]): void {
    this.conversationStore().save(workbookId, messages)
    this.conversations.set(workbookId, messages)
    if (workbookId === this.current.workbookId) {
      this.update({ messages })
      this.outlinePreview()
    }
  }

  private followWorkbook(): void {
    const workbookId = this.deps.workspace.state.store?.id ?? DEFAULT_WORKBOOK_ID
    if (workbookId !== this.current.workbookId) this.clearApplied()
    const messages = this.conversationOf(workbookId)
    this.update({ workbookId, messages })
    this.outlinePreview()
  }

  private append(workbookId: string, message: Message): void {
    this.setConversation(workbookId, [...this.conversationOf(workbookId), message])
  }

  private find(messageId: string): AssistantMessage | undefined {
    const message = this.current.messages.find((m) => m.id === messageId)
    if (message?.role === 'assistant') return message
    for (const messages of this.conversations.values()) {
      const found = messages.find((m) => m.id === messageId)
      if (found?.role === 'assistant') return found
    }
    return undefined
  }

  /** Changes an assistant message wherever it is kept (a created model's answer is in two conversations). */
  private patch(messageId: string, change: (message: AssistantMessage) => AssistantMessage): void {
    for (const [workbookId, messages] of [...this.conversations]) {
      const index = messages.findIndex((m) => m.id === messageId)
      if (index < 0) continue
      const message = messages[index]
      if (message.role !== 'assistant') continue
      const next = [...messages]
      next[index] = change(message)
      this.setConversation(workbookId, next)
    }
  }

  private patchChangeset(messageId: string, patch: Partial<ChangesetBlock>): void {
    this.patch(messageId, (m) => (m.changeset ? { ...m, changeset: { ...m.changeset, ...patch } } : m))
  }

  /** The cells of every changeset being previewed in this conversation, outlined on the grid. */
  private outlinePreview(): void {
    const { workspace } = this.deps
    const marks: { sheet: string; range: NonNullable<ReturnType<typeof rangeOn>>['range'] }[] = []
    for (const message of this.current.messages) {
      if (message.role !== 'assistant' || !message.changeset) continue
      const { state, changeset } = message.changeset
      if (state !== 'draft' && state !== 'applying' && state !== 'discarding') continue
      if (changeset.workbookId !== this.current.workbookId) continue
      marks.push(...outlinesOf(changeset.highlights, changeset, workspace.state.sheet))
    }
    workspace.setAssistantHighlights('preview', marks)
  }

  private update(patch: Partial<AssistantState>, savePreferences = false): void {
    this.current = { ...this.current, ...patch }
    if (savePreferences) this.savePreferences()
    for (const listener of this.listeners) listener()
  }

  private savePreferences(): void {
    const { open, width, mode, model, autoApply } = this.current
    try {
      this.storage?.setItem(PREFERENCES_KEY, JSON.stringify({ open, width, mode, model, autoApply } satisfies Preferences))
    } catch {
      // preferences are a convenience: without storage they last as long as the page
    }
  }
}

export function clampWidth(width: number): number {
  return Math.round(Math.min(PANEL_WIDTH.max, Math.max(PANEL_WIDTH.min, width)))
}

/** 'Error: …' for a command that stopped before finishing (nothing was written). */
function commandFailureText(response: ProcessActionResponse): string {
  const text = response.error?.message ?? response.message.replace(/^Error:\s*/, '')
  return `Error: ${text}`
}

/** A tool's step as the agent's contract words it, updated with how the call ended. */
function withStep(steps: readonly StepLine[], step: AgentStep): StepLine[] {
  const line: StepLine = { id: step.id, description: step.description, state: step.ok ? 'ok' : 'failed', ...(step.error ? { error: step.error } : {}), ms: step.ms }
  return steps.some((s) => s.id === step.id) ? steps.map((s) => (s.id === step.id ? line : s)) : [...steps, line]
}

/** A chat tool call's line: chat only reads. */
function toolDescription(name: string): string {
  const words: Record<string, string> = {
    get_workbook_overview: 'Looking over the workbook',
    read_range: 'Reading cells',
    search_workbook: 'Searching the workbook',
    trace_dependencies: 'Tracing dependencies',
    explain_formula: 'Explaining a formula',
    validate_formula: 'Checking a formula',
  }
  return words[name] ?? `Running ${name}`
}

/** The ranges to outline for a changeset: its highlights, else each cell it writes (up to a bound). */
function outlinesOf(highlights: readonly Highlight[], changeset: Changeset, activeSheet: string): { sheet: string; range: NonNullable<ReturnType<typeof rangeOn>>['range'] }[] {
  const marks = highlights.map((highlight) => rangeOn(highlight.range, highlight.sheet || activeSheet)).filter((mark) => mark !== null)
  if (marks.length > 0) return marks
  return changeset.changes
    .slice(0, MAX_OUTLINED_CELLS)
    .map((change) => rangeOn(change.address, change.sheet))
    .filter((mark) => mark !== null)
}

export type { ApprovalReason }
