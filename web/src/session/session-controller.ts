import type {
  CreateWorkbookResponse,
  DefaultWorkbookResponse,
  DeleteWorkbookResponse,
  ImportSheet,
  InputsLine,
  ListWorkbooksResponse,
  SaveSessionResponse,
  SessionResponse,
  UserSession,
  WorkbookCommand,
  WorkbookMetadata,
  WorkbookMetadataResponse,
  WindowResponse,
} from '@finsheet/contracts'
import { INPUTS_LINES_CONTENT_TYPE } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'
import { errorStatus, isPassingFailure } from '../api/api-client'
import type { CurrentUser } from '../auth/auth-service'
import type { Workspace } from '../spreadsheet/workspace'
import { toast } from '../toasts/toast-store'
import { pendingEditsFor } from '../workbook/pending-edits'
import type { ServerWorkbook } from '../workbook/server-sync'
import { loadServerWorkbook, ServerWorkbookSync } from '../workbook/server-sync'
import { assembleFromLines, firstScreenOf, firstScreenRows, opensStreamed } from '../workbook/streamed-open'
import { jsonLines } from '../api/json-lines'
import { WorkbookStore } from '../workbook/workbook-store'
import { forgetLegacySession, readLegacySession } from './legacy-session'
import type { SaveState } from './save-state'
import { saveStateOf } from './save-state'
import { DEFAULT_WORKBOOK_ID, hasRealWorkbook, homeWorkbookId, legacyDefaultSheets, withOpenedWorkbook, withoutWorkbook, workbookEntry } from './session-workbook'

/** Edits are saved after 3,000 ms without further edits; the latest wins. */
export const SAVE_DEBOUNCE_MS = 3000
/** Clearing everything reloads the page half a second later. */
export const CLEAR_RELOAD_DELAY_MS = 500
/** A workbook's cells load about 300 ms after it is asked for. */
export const CELL_LOAD_DELAY_MS = 300
/** A save that failed for a passing reason (network, 5xx, 429) is tried again after this, doubling up to SAVE_RETRY_MAX_MS. */
export const SAVE_RETRY_FIRST_MS = 2000
export const SAVE_RETRY_MAX_MS = 60_000
/** The workbooks read for the home screen and the workbooks list: the service's largest page. */
export const WORKBOOK_LIST_PAGE = 100

export type { SaveState } from './save-state'

export interface SessionControllerState {
  status: 'idle' | 'loading' | 'ready' | 'error'
  session: UserSession | null
  saveState: SaveState
  /** the welcome screen was passed (Start Blank or Continue) */
  showGrid: boolean
  /** the user's workbooks as the service listed them last, most recently changed first; null until read */
  workbooks: WorkbookMetadata[] | null
}

/** Where the app shows a workbook: its address names it and the sheet the user is on. */
export type WorkbookNavigator = (workbookId: string, options?: { sheet?: string; replace?: boolean }) => void

const SAVE_ERROR_MESSAGE = 'Error saving cell edit - changes may not persist after refresh'

/**
 * The signed-in user's spreadsheet session and the workbook open in the workspace. Every workbook,
 * the user's first one included, lives in the spreadsheet service, which recalculates every edit and
 * keeps its history and versions; the session keeps only where the user was (the active workbook, the
 * active sheet of each, the recently opened ones), never cells.
 *
 * Nothing the user does waits on a save. Edits are applied at once and saved with the 3 s debounce,
 * and at once (in the background) on a sheet switch, when the page is hidden and on sign-out. Where
 * the user is (the active sheet) is saved in the session the same way, but it is not an edit: the
 * save indicator speaks of edits only.
 */
export class SessionController {
  private current: SessionControllerState = { status: 'idle', session: null, saveState: 'saved', showGrid: false, workbooks: null }
  private readonly listeners = new Set<() => void>()
  private readonly api: ApiClient
  private readonly workspace: Workspace
  private user: CurrentUser | null = null
  private started: Promise<void> = Promise.resolve()
  private navigator: WorkbookNavigator | null = null
  private saveTimer: ReturnType<typeof setTimeout> | null = null
  private retryTimer: ReturnType<typeof setTimeout> | null = null
  /** the wait before the next retry of a failed save; 0 while saves succeed */
  private retryDelay = 0
  /** where the user is changed since the session was last saved */
  private viewDirty = false
  /** session saves go one after another, so an older answer never lands after a newer one */
  private sessionTail: Promise<void> = Promise.resolve()
  private detachStore: (() => void) | null = null
  private sync: ServerWorkbookSync | null = null
  /** bumped whenever another workbook (or another copy of it) is being opened: a late load is dropped */
  private loading = 0
  /** the workbook being opened and its load, so that a second request for it waits for the same one */
  private opening: { id: string; done: Promise<void> } | null = null
  /** bumped by every workbook asked for, so that the home screen's late answer does not overrule it */
  private asked = 0
  private readonly historyListeners = new Set<(kind: 'undo' | 'redo', changeId: string) => void>()
  /** The sheets whose first screen was read, of a workbook opened by its first screen that is still loading. */
  private readonly firstScreens = new WeakMap<WorkbookStore, Set<string>>()

  constructor(api: ApiClient, workspace: Workspace) {
    this.api = api
    this.workspace = workspace
    // the active sheet is part of the session: a switch saves in the background, at once
    let seen = { store: workspace.state.store, sheet: workspace.state.sheet }
    workspace.subscribe(() => {
      const { store, sheet } = workspace.state
      if (store && store === seen.store && sheet !== seen.sheet) {
        this.viewChanged()
        this.showFirstScreenOf(store, sheet)
      }
      seen = { store, sheet }
    })
  }

  get state(): SessionControllerState {
    return this.current
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** How the controller shows a workbook it opens: the router puts its id in the address. */
  setNavigator(navigator: WorkbookNavigator | null): void {
    this.navigator = navigator
  }

  /** Whether the user has a workbook worth opening (the welcome screen shows otherwise). */
  get hasRealWorkbook(): boolean {
    return hasRealWorkbook(this.current.workbooks)
  }

  /** The id of the workbook open in the workspace, if any. */
  get openWorkbookId(): string | null {
    return this.workspace.state.store?.id ?? null
  }

  /** The signed-in user's id, once the session has started. */
  get userId(): string | null {
    return this.user?.uid ?? null
  }

  /** Whether a workbook is open (every workbook is kept by the spreadsheet service). */
  get isServerWorkbookOpen(): boolean {
    return this.sync !== null
  }

  /** Hears every undo and redo the spreadsheet service made for this page, with the change concerned. */
  onHistory(listener: (kind: 'undo' | 'redo', changeId: string) => void): () => void {
    this.historyListeners.add(listener)
    return () => this.historyListeners.delete(listener)
  }

  /**
   * Loads the open workbook again as the service has it, after something other than this page changed
   * it (an assistant changeset applied): the user stays where they are, and edits not accepted yet are
   * made again on top. `history` is what the service's undo and redo can do now.
   */
  async reloadFromServer(history?: { canUndo: boolean; canRedo: boolean }): Promise<void> {
    const sync = this.sync
    const store = this.workspace.state.store
    if (!sync || !store) return
    const attempt = ++this.loading
    const loaded = await loadServerWorkbook(this.api, store.id)
    if (attempt !== this.loading || this.sync !== sync) return
    const known = sync.current
    this.attachServerWorkbook(loaded, null, history ?? { canUndo: known.canUndo, canRedo: known.canRedo }, sync.takeUnaccepted())
    this.scheduleSave()
  }

  /** Undoes the latest change of the open workbook, as Ctrl+Z does, and waits for the service's answer. */
  async undoLatestChange(): Promise<void> {
    const sync = this.sync
    if (!sync) throw new Error('No workbook of the spreadsheet service is open')
    await sync.undo()
    this.saveSucceeded()
  }

  /**
   * For the assistant, when no workbook is open: the user's first workbook, which lives in the
   * spreadsheet service like every other (created on first use), opened. Nothing needs copying any
   * more; `name` is kept for the callers that still pass one. Returns its id.
   */
  async copyDefaultWorkbook(_name: string): Promise<string | null> {
    if (!this.current.session) return null
    await this.flush()
    const answer = await this.api.post<DefaultWorkbookResponse>('/spreadsheet/workbooks/default', {})
    await this.openWorkbook(answer.workbookId, answer.workbook.name)
    return answer.workbookId
  }

  /**
   * Loads (or creates) the session of the signed-in user. Cells the session still holds for the
   * default workbook, from before every workbook lived in the spreadsheet service, go into the user's
   * first workbook there, once.
   */
  start(user: CurrentUser): Promise<void> {
    if (this.user?.uid === user.uid && this.current.status !== 'error') return this.started
    this.user = user
    this.update({ status: 'loading' })
    this.started = this.load(user)
    return this.started
  }

  private async load(user: CurrentUser): Promise<void> {
    try {
      const answer = await this.api.post<SessionResponse>('/users/spreadsheet-session/load-or-create', {
        uid: user.uid,
        name: user.displayName,
        email: user.email,
      })
      let session = answer.session
      const legacy = readLegacySession(user.uid)
      const sheets = legacyDefaultSheets(legacy) ?? legacyDefaultSheets(session)
      if (sheets) session = await this.moveLegacyCells(session, sheets)
      forgetLegacySession(user.uid)
      // The list decides between the welcome screen and a workbook: read before the session is ready.
      // One update for both, so that the screen renders once for them, not once between the two reads.
      const workbooks = await this.listWorkbooks().catch((error: unknown) => {
        console.warn('Failed to list the workbooks', error)
        return this.current.workbooks
      })
      this.update({ session, workbooks, status: 'ready' })
    } catch (error) {
      console.error('Failed to load the session', error)
      this.update({ status: 'error' })
      this.workspace.close()
      toast({ title: 'Error', description: 'Failed to load existing session. Please try again.', variant: 'destructive' })
    }
  }

  /** The user's first workbook made from the cells the session kept, and the session without them. */
  private async moveLegacyCells(session: UserSession, sheets: ImportSheet[]): Promise<UserSession> {
    const answer = await this.api.post<DefaultWorkbookResponse>('/spreadsheet/workbooks/default', { sheets })
    const legacy = session.workbooks[DEFAULT_WORKBOOK_ID]
    const entry = workbookEntry(undefined, answer.workbook.sheets, legacy && answer.workbook.sheets.includes(legacy.activeSheet) ? legacy.activeSheet : answer.workbook.sheets[0], answer.workbook.name)
    const moved = withOpenedWorkbook(session, answer.workbookId, entry)
    const next = session.activeWorkbook === DEFAULT_WORKBOOK_ID ? moved : { ...moved, activeWorkbook: session.activeWorkbook }
    await this.saveSession(next)
    return this.current.session ?? next
  }

  /** Reads the user's workbooks again (newest first), for the home screen and the workbooks list. */
  async refreshWorkbooks(): Promise<WorkbookMetadata[]> {
    const workbooks = await this.listWorkbooks()
    this.update({ workbooks })
    return workbooks
  }

  private async listWorkbooks(): Promise<WorkbookMetadata[]> {
    const answer = await this.api.get<ListWorkbooksResponse>('/spreadsheet/workbooks', { query: { limit: WORKBOOK_LIST_PAGE, offset: 0 } })
    return answer.workbooks
  }

  /**
   * The workbook `/` opens: the active or most recent one, or null for the welcome screen. Undefined
   * when another workbook was asked for meanwhile: that one wins.
   */
  async homeWorkbook(): Promise<string | null | undefined> {
    const asked = this.asked
    await this.started
    // read again: what the user typed since decides between the welcome screen and a workbook
    const workbooks = await this.refreshWorkbooks().catch(() => this.current.workbooks ?? [])
    const exists = (candidate: string) =>
      this.api.get<WorkbookMetadataResponse>(`/spreadsheet/workbooks/${encodeURIComponent(candidate)}`).then(
        () => true,
        () => false,
      )
    let id = await homeWorkbookId(this.current.session, workbooks, exists)
    // past the welcome screen once (Start Blank), the user stays in the workbook while the page lives
    if (id === null && this.current.showGrid && workbooks.length > 0) id = await homeWorkbookId(this.current.session, workbooks, exists, { evenEmpty: true })
    return asked === this.asked ? id : undefined
  }

  /** Start Blank: the user's first workbook (one empty Sheet1), created in the service and opened. */
  async startBlank(): Promise<void> {
    try {
      const answer = await this.api.post<DefaultWorkbookResponse>('/spreadsheet/workbooks/default', {})
      this.update({ showGrid: true })
      await this.openWorkbook(answer.workbookId, answer.workbook.name)
      void this.refreshWorkbooks().catch(() => undefined)
    } catch (error) {
      console.error('Failed to create the workbook', error)
      toast({ title: 'Error', description: 'Failed to create workbook. Please try again.', variant: 'destructive' })
    }
  }

  /** 'Continue with existing workbook' on the welcome screen: the active or most recent one, else the first. */
  async continueWithWorkbook(): Promise<void> {
    this.update({ showGrid: true })
    const home = await this.homeWorkbook().catch(() => null)
    if (home === undefined) return
    await this.openWorkbook(home ?? DEFAULT_WORKBOOK_ID)
  }

  /** File → New: a blank workbook in the spreadsheet service, opened at once. */
  async createWorkbook(name = 'Untitled workbook'): Promise<void> {
    try {
      const answer = await this.api.post<CreateWorkbookResponse>('/spreadsheet/workbooks', { name })
      await this.openWorkbook(answer.workbookId, answer.workbook.name)
      void this.refreshWorkbooks().catch(() => undefined)
    } catch (error) {
      console.error('Failed to create a workbook', error)
      toast({ title: 'Error', description: 'Failed to create workbook. Please try again.', variant: 'destructive' })
    }
  }

  /**
   * Opens a workbook of the spreadsheet service (created, imported, generated, picked from the list):
   * its address becomes the page's, it becomes the session's active workbook, and the session gets
   * role admin. `defaultWorkbook` opens the user's first workbook.
   */
  async openWorkbook(id: string, name?: string): Promise<void> {
    this.asked++
    this.update({ showGrid: true })
    if (id !== DEFAULT_WORKBOOK_ID) this.navigator?.(id)
    await this.show(id, undefined, { name, role: 'admin' })
  }

  /**
   * Shows the workbook the address names, on `sheet` when given (else where the user last was in it).
   * A workbook already open is not loaded again; only its sheet follows the address.
   */
  async show(id: string, sheet?: string, options: { name?: string; role?: UserSession['role'] } = {}): Promise<void> {
    this.asked++
    await this.started
    if (!this.current.session || !this.user) return
    if (id === DEFAULT_WORKBOOK_ID) {
      try {
        const answer = await this.api.post<DefaultWorkbookResponse>('/spreadsheet/workbooks/default', {})
        id = answer.workbookId
        this.navigator?.(id, { sheet, replace: true })
      } catch (error) {
        console.error('Failed to open the default workbook', error)
        toast({ title: 'Error', description: 'Failed to load the workbook. Please try again.', variant: 'destructive' })
        return
      }
    }
    const open = this.workspace.state.store
    if (open?.id === id && this.sync) {
      if (sheet && open.sheet(sheet)) this.workspace.switchSheet(sheet)
      if (options.role) this.remember(open, options)
      return
    }
    if (this.opening?.id === id) return this.opening.done
    const done = this.loadWorkbook(id, sheet, options)
    this.opening = { id, done }
    try {
      await done
    } finally {
      if (this.opening?.done === done) this.opening = null
    }
  }

  private async loadWorkbook(id: string, sheet: string | undefined, options: { name?: string; role?: UserSession['role'] }): Promise<void> {
    const attempt = ++this.loading
    await this.flush()
    this.detach()
    this.workspace.setLoading()
    try {
      // The cells show CELL_LOAD_DELAY_MS after they are asked for; they are read meanwhile (a large
      // workbook's first screen, a smaller one whole) and their store built, so that they paint then,
      // not round trips and a calculation later.
      const reading = this.sizeOf(id).then(async (size) => {
        if (size && opensStreamed(size.cells)) {
          const screen = prepareFirstScreen(await this.readFirstScreen(id, this.sheetToOpen(id, size.sheets, sheet)))
          // the whole workbook is read from now on, behind the first screen (see openByFirstScreen)
          return { screen, inputs: { body: this.readInputs(id), cells: size.cells } }
        }
        const whole = await loadServerWorkbook(this.api, id)
        return { whole, store: new WorkbookStore(whole.snapshot) }
      })
      // a failure is met below, when the answer is awaited
      reading.catch(() => undefined)
      await new Promise((resolve) => setTimeout(resolve, CELL_LOAD_DELAY_MS))
      const read = await reading
      if (attempt !== this.loading) return
      if (read.screen) {
        await this.openByFirstScreen(id, read.screen, read.inputs, options)
        return
      }
      const loaded = read.whole
      // another workbook was asked for meanwhile: this one must not replace it
      if (attempt !== this.loading) return
      const store = this.attachServerWorkbook(loaded, { sheet: this.sheetToOpen(id, loaded.sheetOrder, sheet), store: read.store })
      this.remember(store, options)
      markOpened(['finsheet:first-screen', 'finsheet:workbook-ready'])
    } catch (error) {
      if (attempt !== this.loading) return
      console.error('Failed to load the workbook', error)
      const missing = errorStatus(error) === 404
      toast({ title: 'Error', description: missing ? 'Workbook not found' : 'Failed to load the workbook. Please try again.', variant: 'destructive' })
      this.workspace.close()
      if (missing) await this.forgetWorkbook(id)
    }
  }

  /** The sheet a workbook opens on: the one asked for, else where the user last was in it, else its first. */
  private sheetToOpen(id: string, sheets: readonly string[], asked: string | undefined): string {
    const entry = this.current.session?.workbooks[id]
    return asked && sheets.includes(asked) ? asked : entry && sheets.includes(entry.activeSheet) ? entry.activeSheet : sheets[0]
  }

  /** How many cells a workbook holds and its sheets: from the workbooks list when it is there, else asked. */
  private async sizeOf(id: string): Promise<{ cells: number; sheets: string[] } | null> {
    const listed = this.current.workbooks?.find((workbook) => workbook.id === id)
    if (listed) return { cells: listed.totalCells, sheets: listed.sheets }
    const answer = await this.api.get<WorkbookMetadataResponse>(`/spreadsheet/workbooks/${encodeURIComponent(id)}`)
    return { cells: answer.workbook.totalCells, sheets: answer.workbook.sheets }
  }

  /**
   * Opens a large workbook by its first screen: the rows in view of the sheet, read with the values the
   * service stored, paint at once; the whole workbook is read and loaded into the engine in the
   * background, between frames, and takes over when it is ready. Edits made meanwhile are applied at
   * once, kept, made again on the whole workbook and sent in order once it has been read.
   */
  private async readFirstScreen(id: string, sheet: string): Promise<{ sheet: string; answer: WindowResponse }> {
    const rows = firstScreenRows(typeof window === 'undefined' ? 900 : window.innerHeight)
    const answer = await this.api.get<WindowResponse>(`/spreadsheet/workbook/${encodeURIComponent(id)}/window?sheet=${encodeURIComponent(sheet)}&startRow=1&endRow=${rows}`)
    return { sheet, answer }
  }

  /**
   * The whole workbook's inputs, asked for now as lines of JSON: the answer's body, once the service has
   * answered (it has read the workbook by then); a failure is left for whoever awaits it.
   */
  private readInputs(id: string): Promise<ReadableStream<Uint8Array>> {
    const whole = this.api.stream(`/spreadsheet/workbook/${encodeURIComponent(id)}/inputs`, INPUTS_LINES_CONTENT_TYPE)
    // read whatever happens, so that a failure is handled where it is awaited and never left unheard
    whole.catch(() => undefined)
    return whole
  }

  private async openByFirstScreen(
    id: string,
    { sheet, workbook, store: built }: PreparedFirstScreen,
    { body, cells }: { body: Promise<ReadableStream<Uint8Array>>; cells: number },
    options: { name?: string; role?: UserSession['role'] },
  ): Promise<void> {
    // Edits wait for the service's answer, which it gives once it has read the workbook: the whole
    // workbook never holds an edit made on the first screen (it is made again on it).
    const store = this.attachServerWorkbook(workbook, { sheet, store: built }, undefined, undefined, { hold: body })
    this.firstScreens.set(store, new Set([sheet]))
    this.remember(store, options)
    markOpened(['finsheet:first-screen'])
    const sync = this.sync
    try {
      const stream = await body
      const stillOpen = () => this.workspace.state.store === store && this.sync === sync
      if (!stillOpen()) {
        await stream.cancel()
        return
      }
      const loaded = await assembleFromLines(jsonLines<InputsLine>(stream), {
        expectedCells: cells,
        onProgress: throttled((fraction) => store.reportStreamedProgress(sheet, fraction)),
        stillWanted: stillOpen,
      })
      if (!loaded || !stillOpen()) return
      store.adoptLoaded(loaded)
      markOpened(['finsheet:workbook-ready'])
    } catch (error) {
      if (!sync || this.sync !== sync) return
      console.error('Failed to load the whole workbook', error)
      // the first screen stays usable; the workbook is read again whole, with the edits made meanwhile
      this.reloadServerWorkbook(sync)
    }
  }

  /**
   * The user went to another sheet of a workbook still loading behind its first screen: that sheet's
   * rows in view are read and shown the same way, once.
   */
  private showFirstScreenOf(store: WorkbookStore, sheet: string): void {
    const read = this.firstScreens.get(store)
    if (!read || read.has(sheet) || !store.isStreaming) return
    read.add(sheet)
    this.readFirstScreen(store.id, sheet)
      .then(({ answer }) => {
        if (this.workspace.state.store !== store || !store.isStreaming) return
        const screen = firstScreenOf(answer.workbook)
        const shown = screen.workbook.snapshot.sheets.find((candidate) => candidate.name === answer.workbook.sheet.name)
        if (shown) store.showFirstScreen(sheet, { cells: shown.cells, values: screen.values, rowCount: answer.workbook.sheet.rowCount, columnCount: answer.workbook.sheet.columnCount })
      })
      // the sheet shows when the whole workbook has loaded
      .catch((error: unknown) => console.warn(`Could not read the first screen of ${sheet}`, error))
  }

  /** The session with the open workbook active and the most recent, saved in the background. */
  private remember(store: WorkbookStore, options: { name?: string; role?: UserSession['role'] }): void {
    const session = this.current.session
    if (!session) return
    const entry = workbookEntry(session.workbooks[store.id], store.sheetNames, this.workspace.state.sheet, store.name ?? options.name)
    const next = withOpenedWorkbook({ ...session, ...(options.role ? { role: options.role } : {}) }, store.id, entry)
    this.update({ session: next })
    this.saveSession(next).catch((error: unknown) => console.warn('Failed to save the session', error))
  }

  /** File → Make a copy, and Duplicate in the workbooks list: the copy, listed. */
  async duplicateWorkbook(id: string): Promise<WorkbookMetadata> {
    if (id === this.openWorkbookId) await this.flush()
    const answer = await this.api.post<CreateWorkbookResponse>(`/spreadsheet/workbooks/${encodeURIComponent(id)}/duplicate`, {})
    await this.refreshWorkbooks().catch(() => undefined)
    return answer.workbook
  }

  /** Renames a workbook; the top bar, the list, Version Control and downloads all take the new name. */
  async renameWorkbook(id: string, name: string): Promise<WorkbookMetadata> {
    const answer = await this.api.request<WorkbookMetadataResponse>('PATCH', `/spreadsheet/workbooks/${encodeURIComponent(id)}`, { body: { name } })
    const store = this.workspace.state.store
    if (store?.id === id) {
      store.name = answer.workbook.name
      this.workspace.refresh()
    }
    const session = this.current.session
    const entry = session?.workbooks[id]
    if (session && entry) this.update({ session: { ...session, workbooks: { ...session.workbooks, [id]: { ...entry, name: answer.workbook.name } } } })
    await this.refreshWorkbooks().catch(() => undefined)
    return answer.workbook
  }

  /**
   * Deletes a workbook: it goes to the service's trash, from where `restoreWorkbook` brings it back.
   * The open workbook closes first, its edits saved.
   */
  async deleteWorkbook(id: string): Promise<DeleteWorkbookResponse> {
    if (id === this.openWorkbookId) {
      await this.flush()
      this.loading++
      this.detach()
      this.workspace.close()
    }
    const answer = await this.api.delete<DeleteWorkbookResponse>(`/spreadsheet/workbook/${encodeURIComponent(id)}`)
    const session = this.current.session
    if (session && (session.workbooks[id] || session.activeWorkbook === id)) {
      const next = withoutWorkbook(session, id)
      this.update({ session: next })
      this.saveSession(next).catch((error: unknown) => console.warn('Failed to save the session', error))
    }
    await this.refreshWorkbooks().catch(() => undefined)
    return answer
  }

  /** Undo of a deletion: the workbook back from the trash, as it was. */
  async restoreWorkbook(id: string): Promise<WorkbookMetadata> {
    const answer = await this.api.post<WorkbookMetadataResponse>(`/spreadsheet/workbooks/${encodeURIComponent(id)}/restore`, {})
    await this.refreshWorkbooks().catch(() => undefined)
    return answer.workbook
  }

  /**
   * Clear everything: saves an empty session (role kept, default workbook), wipes local storage and
   * reloads the page after 0.5 s. Edits on their way are saved first; when they cannot be, nothing is
   * cleared. Workbooks live in the spreadsheet service and are not erased: only the session's memory
   * of them is.
   */
  async clearEverything(reload: () => void = () => window.location.reload()): Promise<boolean> {
    const session = this.current.session
    try {
      await this.flush()
      // edits the service could not take would be wiped with this browser's data
      if (this.current.saveState !== 'saved') throw new Error('Edits are not saved yet')
      this.cancelPendingSave()
      if (session) await this.saveSession({ ...session, activeWorkbook: DEFAULT_WORKBOOK_ID, workbooks: {} })
      localStorage.clear()
      setTimeout(() => {
        // again, in case something wrote a flag in the half second before the reload
        localStorage.clear()
        reload()
      }, CLEAR_RELOAD_DELAY_MS)
      return true
    } catch (error) {
      console.error('Failed to clear data', error)
      toast({ title: 'Error', description: 'Failed to clear data. Please try again.', variant: 'destructive' })
      return false
    }
  }

  /**
   * Saves anything pending now (page hide, sign-out, before an export). `leavingPage` lets the request
   * outlive the page, as a reload or a closed tab would otherwise cancel it.
   */
  async flush(leavingPage = false): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer)
      this.saveTimer = null
    }
    await this.saveNow(leavingPage)
  }

  /** Sign-out: flush what is pending, then forget the session and close the workbook. */
  async stop(): Promise<void> {
    await this.flush().catch(() => undefined)
    this.loading++
    this.detach()
    this.user = null
    this.started = Promise.resolve()
    this.workspace.close()
    this.update({ status: 'idle', session: null, showGrid: false, workbooks: null })
    this.refreshSaveState()
  }

  private detach(): void {
    this.stopRetrying()
    this.detachStore?.()
    this.detachStore = null
    this.sync = null
    this.workspace.setRemoteHistory(null)
    this.refreshSaveState()
  }

  /**
   * Opens a workbook of the service in the workspace with its sync. `at.sheet` opens it there;
   * without it the workbook replaces the open copy of itself and the user stays where they are.
   * `replay` are the user's edits the service has not accepted yet, made again on top (else those the
   * browser kept from an earlier page).
   */
  private attachServerWorkbook(
    loaded: ServerWorkbook,
    /** the sheet to show, and the store when it was built from `loaded` beforehand */
    at: { sheet: string; store?: WorkbookStore } | null,
    history?: { canUndo: boolean; canRedo: boolean },
    replay?: WorkbookCommand[],
    firstScreen?: { hold: Promise<unknown> },
  ): WorkbookStore {
    this.detachStore?.()
    const store = at ? this.workspace.open(at.store ?? loaded.snapshot, at.sheet) : this.workspace.reopen(loaded.snapshot)
    const journal = this.user ? pendingEditsFor(this.user.uid, store.id) : null
    const unsaved = replay ?? journal?.load() ?? []
    const sync = new ServerWorkbookSync(this.api, store, loaded.revision, () => this.onSyncStatus(sync), history, journal, firstScreen?.hold ?? null)
    sync.onReload = () => this.reloadServerWorkbook(sync)
    sync.onHistory = (kind, changeId) => {
      for (const listener of this.historyListeners) listener(kind, changeId)
    }
    this.sync = sync
    this.watch(store)
    // Edits the service never accepted (the page was closed or reloaded while it could not be
    // reached, or they were on their way when the workbook had to be reopened) are made again, as the
    // user made them, and saved like any edit.
    for (const command of unsaved) {
      try {
        store.dispatch(command, 'user')
      } catch (error) {
        console.warn('An unsaved edit no longer applies to this workbook', command, error)
      }
    }
    this.workspace.setRemoteHistory({
      get canUndo() {
        return sync.current.canUndo
      },
      get canRedo() {
        return sync.current.canRedo
      },
      undo: () => this.serverHistory(sync, 'undo'),
      redo: () => this.serverHistory(sync, 'redo'),
    })
    this.refreshSaveState()
    return store
  }

  /**
   * The sync cannot follow what the service did (an undo of a change this page did not make, an edit
   * it refused): the workbook is loaded again and replaces the open copy, the user staying on the same
   * sheet and selection, an edit in progress kept, and every edit not yet accepted made again on top.
   */
  private reloadServerWorkbook(sync: ServerWorkbookSync, delay = 0): void {
    const store = this.workspace.state.store
    if (this.sync !== sync || !store) return
    const attempt = ++this.loading
    void (async () => {
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
      try {
        const loaded = await loadServerWorkbook(this.api, store.id)
        if (attempt !== this.loading || this.sync !== sync) return
        const history = sync.current
        this.attachServerWorkbook(loaded, null, { canUndo: history.canUndo, canRedo: history.canRedo }, sync.takeUnaccepted())
        this.scheduleSave()
      } catch (error) {
        if (attempt !== this.loading || this.sync !== sync) return
        console.error('Failed to reload the workbook', error)
        // the open copy stays usable; its edits are kept until the workbook can be loaded again
        this.reloadServerWorkbook(sync, Math.min(Math.max(delay * 2, SAVE_RETRY_FIRST_MS), SAVE_RETRY_MAX_MS))
      }
    })()
  }

  /** A workbook the service no longer has leaves the session. */
  private async forgetWorkbook(id: string): Promise<void> {
    const session = this.current.session
    if (!session) return
    const next = withoutWorkbook(session, id)
    this.update({ session: next })
    await this.saveSession(next).catch(() => undefined)
  }

  /** Undo and redo: applied here at once by the sync, then on the server. */
  private async serverHistory(sync: ServerWorkbookSync, action: 'undo' | 'redo'): Promise<void> {
    try {
      await (action === 'undo' ? sync.undo() : sync.redo())
      this.saveSucceeded()
    } catch (error) {
      console.error(`Failed to ${action}`, error)
      this.saveFailed(error)
    }
  }

  private onSyncStatus(sync: ServerWorkbookSync): void {
    if (sync !== this.sync) return
    this.refreshSaveState()
    this.workspace.refresh()
  }

  private watch(store: WorkbookStore): void {
    this.detachStore?.()
    this.detachStore = store.onChange((change) => {
      this.sync?.record(change)
      if (change.origin === 'remote') return
      this.refreshSaveState()
      this.scheduleSave()
    })
  }

  /** The active sheet changed: saved at once in the background with any pending edits. */
  private viewChanged(): void {
    this.viewDirty = true
    if (this.saveTimer) {
      clearTimeout(this.saveTimer)
      this.saveTimer = null
    }
    void this.saveNow()
  }

  private scheduleSave(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer)
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null
      void this.saveNow()
    }, SAVE_DEBOUNCE_MS)
  }

  private cancelPendingSave(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer)
    this.saveTimer = null
    this.viewDirty = false
    this.stopRetrying()
  }

  private stopRetrying(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = null
    this.retryDelay = 0
  }

  /** Sends the edits to the spreadsheet service, and where the user is to the session. */
  private async saveNow(leavingPage = false): Promise<void> {
    const session = this.current.session
    const { store, status } = this.workspace.state
    const sync = this.sync
    // nothing is saved while a workbook is loading, nor without a signed-in user
    if (!session || !store || !sync || status === 'loading' || !this.user) return
    const saving = sync.flush(leavingPage).then(
      () => this.saveSucceeded(),
      (error: unknown) => {
        console.error('Failed to save cell edits', error)
        this.saveFailed(error, leavingPage)
      },
    )
    if (this.viewDirty) {
      this.viewDirty = false
      const entry = workbookEntry(session.workbooks[store.id], store.sheetNames, this.workspace.state.sheet, store.name)
      const next = withOpenedWorkbook(session, store.id, entry)
      this.update({ session: next })
      this.saveSession(next, leavingPage).catch((error: unknown) => {
        // only where the user was is lost; it is sent again with the next save
        this.viewDirty = true
        console.warn('Failed to save the active sheet', error)
      })
    }
    await saving
  }

  private saveSucceeded(): void {
    this.retryDelay = 0
    this.refreshSaveState()
  }

  /**
   * Said once per run of failures (a toast); the edits are kept and tried again, with a doubling
   * wait, while the cause may pass.
   */
  private saveFailed(error: unknown, leavingPage = false): void {
    this.refreshSaveState()
    if (this.retryDelay === 0) this.reportSaveError(error)
    if (leavingPage || !isPassingFailure(error)) {
      this.retryDelay = Math.max(this.retryDelay, SAVE_RETRY_FIRST_MS)
      return
    }
    this.retryDelay = this.retryDelay === 0 ? SAVE_RETRY_FIRST_MS : Math.min(this.retryDelay * 2, SAVE_RETRY_MAX_MS)
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null
      if (!this.saveTimer) void this.saveNow()
    }, this.retryDelay)
  }

  /** The save error, except when the server was only asking to slow down (429). */
  private reportSaveError(error: unknown): void {
    const status = errorStatus(error)
    if (status === 429 || String(error).includes('429')) return
    toast({ title: 'Error', description: SAVE_ERROR_MESSAGE, variant: 'destructive' })
  }

  private refreshSaveState(): void {
    const saveState = this.sync ? saveStateOf(this.sync.current) : 'saved'
    if (saveState !== this.current.saveState) this.update({ saveState })
  }

  private saveSession(session: UserSession, keepalive = false): Promise<void> {
    const run = this.sessionTail.catch(() => undefined).then(() => this.sendSession(session, keepalive))
    this.sessionTail = run
    return run
  }

  private async sendSession(session: UserSession, keepalive: boolean): Promise<void> {
    if (!this.user) return
    const body = { session, userId: this.user.uid }
    // keepalive requests are limited to 64 KB; a bigger session is sent normally and may be cut off
    const fits = keepalive && JSON.stringify(body).length < 60_000
    const answer = await this.api.post<SaveSessionResponse>('/users/spreadsheet-session', body, { keepalive: fits })
    // the workbooks as they are now: the user may have moved on while this save was on its way
    this.update({ session: { ...answer.session, activeWorkbook: this.current.session?.activeWorkbook ?? answer.session.activeWorkbook, workbooks: this.current.session?.workbooks ?? session.workbooks } })
  }

  private update(patch: Partial<SessionControllerState>): void {
    this.current = { ...this.current, ...patch }
    for (const listener of this.listeners) listener()
  }
}

/** A large workbook's first screen as read, with its store built: the service's values shown, the rest to load. */
interface PreparedFirstScreen {
  sheet: string
  workbook: ServerWorkbook
  store: WorkbookStore
}

function prepareFirstScreen({ sheet, answer }: { sheet: string; answer: WindowResponse }): PreparedFirstScreen {
  const first = firstScreenOf(answer.workbook)
  const store = new WorkbookStore(first.workbook.snapshot)
  store.beginStreamedOpen()
  store.showServerValues(first.values)
  const shown = store.sheet(sheet)
  store.beginLoading(sheet, shown?.declaredRows ?? 0, shown?.declaredColumns ?? 0)
  return { sheet, workbook: first.workbook, store }
}

/**
 * Marks, in the page's performance timeline, when an opened workbook first paints and when its engine
 * holds the whole of it, for whoever measures opening times: at the frame after the one that draws
 * the change, so that the mark never comes before the paint.
 */
function markOpened(names: readonly string[]): void {
  if (typeof performance === 'undefined' || typeof requestAnimationFrame === 'undefined') return
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      for (const name of names) performance.mark(name)
    }),
  )
}

/** Calls `report` at most every 100 ms, and always for the end (1). */
function throttled(report: (fraction: number) => void): (fraction: number) => void {
  let last = 0
  return (fraction) => {
    const now = performance.now()
    if (fraction < 1 && now - last < 100) return
    last = now
    report(fraction)
  }
}
