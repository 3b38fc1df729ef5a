import type { ApprovalReason, CellRef, Changeset, ChangesetBrief, FormulaSuggestion, ModelGenerationProgress } from '@finsheet/contracts'
import { browserStorage } from '../storage/browser-storage'

/**
 * The panel's conversation with the assistant: the user's messages and the assistant's answers with
 * what they carry (tool-call lines, a changeset, formula cards, a created model, an error). Each
 * workbook has its own conversation, kept in the browser's storage so that it survives a reload.
 */

/** One tool call of the agent, as a line of the answer: "Reading Revenue!A1:H40". */
export interface StepLine {
  id: string
  description: string
  state: 'running' | 'ok' | 'failed'
  error?: string
  ms?: number
}

export type ChangesetState = 'draft' | 'applying' | 'applied' | 'discarding' | 'discarded' | 'undoing' | 'undone'

export interface ChangesetBlock {
  changeset: Changeset
  state: ChangesetState
  /** applied by the agent at once ('Apply agent changes without asking'), shown after the fact */
  appliedAtOnce: boolean
  /** apply was refused because cells it writes changed since it was worked out */
  conflict?: { message: string; cells: CellRef[] }
  /** apply needs the user's approval of formulas that could reach the network */
  approval?: ApprovalReason[]
  /** why the last thing asked of it could not be done */
  notice?: string
}

export type ModelStepState = 'pending' | 'running' | 'done' | 'failed'

/** A model the agent created, and the steps of opening it. */
export interface ModelBlock {
  workbookId: string | null
  name: string
  company: string
  modelType: string
  sheets: string[]
  cellsCreated: number
  steps: { label: string; state: ModelStepState }[]
  /** the new workbook is open */
  switched: boolean
  warning?: string
}

export interface ErrorBlock {
  text: string
  hint?: string
  tips: readonly string[]
}

export interface UserMessage {
  id: string
  role: 'user'
  text: string
  at: string
}

export type AssistantRoute = 'chat' | 'action' | 'create_model' | 'notice'

export interface AssistantMessage {
  id: string
  role: 'assistant'
  at: string
  route: AssistantRoute
  /** the answer, markdown */
  text: string
  status: 'streaming' | 'done' | 'stopped' | 'error'
  /** what the user asked, to run it again */
  command?: string
  steps: StepLine[]
  /** where the changeset stands while the agent works; the whole changeset replaces it when it is done */
  brief?: ChangesetBrief
  changeset?: ChangesetBlock
  /** how far the generation of a new model has come, while it runs */
  progress?: ModelGenerationProgress
  formulas?: FormulaSuggestion[]
  model?: ModelBlock
  error?: ErrorBlock
  /** prompts offered as buttons under the answer */
  followUps?: readonly string[]
  /** a button that runs a panel action */
  offer?: 'copy-default-workbook' | 'rerun'
  /** the model that answered */
  modelLabel?: string
  /** an uploaded PDF whose figures later chat questions are about, until the user lets it go */
  document?: { fileId: string; name: string }
}

export type Message = UserMessage | AssistantMessage

/** Messages kept per workbook; older ones are dropped first. */
export const MAX_KEPT_MESSAGES = 100
/** A kept changeset lists this many of its cells and downstream effects (the service keeps them all). */
export const MAX_KEPT_CHANGES = 200
export const MAX_KEPT_DOWNSTREAM = 50

const KEY_PREFIX = 'finsheet:assistant:'

export function conversationKey(userId: string, workbookId: string): string {
  return `${KEY_PREFIX}${userId}:${workbookId}`
}

/** States a reload cannot resume: the request or call died with the page. */
const SETTLED_STATE: Partial<Record<ChangesetState, ChangesetState>> = { applying: 'draft', discarding: 'draft', undoing: 'applied' }

/** A message as it is read back after a reload. */
function settle(message: Message): Message {
  if (message.role === 'user') return message
  let next = message
  if (next.status === 'streaming') next = { ...next, status: 'stopped', steps: next.steps.map((step) => (step.state === 'running' ? { ...step, state: 'failed' as const, error: 'Stopped' } : step)) }
  const settled = next.changeset && SETTLED_STATE[next.changeset.state]
  if (next.changeset && settled) next = { ...next, changeset: { ...next.changeset, state: settled } }
  return next
}

/** A message made small enough to keep: long cell lists are cut (the changeset's counts stay whole). */
function compact(message: Message): Message {
  if (message.role === 'user' || !message.changeset) return message
  const { changeset } = message.changeset
  if (changeset.changes.length <= MAX_KEPT_CHANGES && changeset.downstream.length <= MAX_KEPT_DOWNSTREAM) return message
  return {
    ...message,
    changeset: {
      ...message.changeset,
      changeset: { ...changeset, changes: changeset.changes.slice(0, MAX_KEPT_CHANGES), downstream: changeset.downstream.slice(0, MAX_KEPT_DOWNSTREAM) },
    },
  }
}

function isMessage(value: unknown): value is Message {
  if (!value || typeof value !== 'object') return false
  const message = value as Partial<Message>
  if (typeof message.id !== 'string' || typeof message.text !== 'string') return false
  if (message.role === 'user') return true
  return message.role === 'assistant' && Array.isArray((message as Partial<AssistantMessage>).steps)
}

export interface ConversationStore {
  load(workbookId: string): Message[]
  save(workbookId: string, messages: readonly Message[]): void
}

/** The conversations of one user in the browser's storage; without storage they last as long as the page. */
export function conversationStore(userId: string, storage: Storage | undefined = browserStorage()): ConversationStore {
  const memory = new Map<string, Message[]>()
  return {
    load(workbookId) {
      const key = conversationKey(userId, workbookId)
      if (!storage) return memory.get(key) ?? []
      const text = storage.getItem(key)
      if (text === null) return []
      try {
        const parsed: unknown = JSON.parse(text)
        if (Array.isArray(parsed)) return parsed.filter(isMessage).map(settle)
      } catch {
        // unreadable: written by something else
      }
      storage.removeItem(key)
      return []
    },
    save(workbookId, messages) {
      const key = conversationKey(userId, workbookId)
      const kept = messages.slice(-MAX_KEPT_MESSAGES).map(compact)
      if (!storage) {
        memory.set(key, kept)
        return
      }
      try {
        if (kept.length === 0) storage.removeItem(key)
        else storage.setItem(key, JSON.stringify(kept))
      } catch (error) {
        // full storage: the conversation stays on screen, only a reload would lose it
        console.warn('The conversation could not be kept in the browser', error)
      }
    },
  }
}
