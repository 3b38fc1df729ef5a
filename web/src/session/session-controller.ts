import type { CreateWorkbookResponse, SaveSessionResponse, SessionResponse, UserSession, WorkbookEntry } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'
import { errorStatus, isPassingFailure } from '../api/api-client'
import type { CurrentUser } from '../auth/auth-service'
import { parseCellAddress } from '../grid/address'
import type { Workspace } from '../spreadsheet/workspace'
import { toast } from '../toasts/toast-store'
import { isEngineError } from '../workbook/calc-engine'
import type { SyncStatus } from '../workbook/server-sync'
import type { ServerWorkbook } from '../workbook/server-sync'
import { pendingEditsFor } from '../workbook/pending-edits'
import { loadServerWorkbook, ServerWorkbookSync } from '../workbook/server-sync'
import type { WorkbookStore } from '../workbook/workbook-store'
import { DEFAULT_SHEET_NAME, DEFAULT_WORKBOOK_ID, hasRealWorkbook, sessionWorkbookSnapshot, updateSessionWorkbook } from './session-workbook'
import { UnsavedSession } from './unsaved-session'

/** Spec 1 §4 and §9: edits are saved after 3,000 ms without further edits; the latest wins. */
export const SAVE_DEBOUNCE_MS = 3000
/** Spec 1 §4: clearing everything reloads the page half a second later. */
export const CLEAR_RELOAD_DELAY_MS = 500
/** Spec 1 §9: a saved workbook's cells load about 300 ms after the session is ready. */
export const CELL_LOAD_DELAY_MS = 300
/** A save that failed for a passing reason (network, 5xx, 429) is tried again after this, doubling up to SAVE_RETRY_MAX_MS. */
export const SAVE_RETRY_FIRST_MS = 2000
export const SAVE_RETRY_MAX_MS = 60_000

export type SaveState = 'saved' | 'saving' | 'unsaved' | 'error'

export interface SessionControllerState {
  status: 'idle' | 'loading' | 'ready' | 'error'
  session: UserSession | null
  saveState: SaveState
  /** the welcome screen was passed (Start Blank or Continue) for an empty default workbook */
  showGrid: boolean
}

const SAVE_ERROR_MESSAGE = 'Error saving cell edit - changes may not persist after refresh'

/**
 * The signed-in user's spreadsheet session (spec 1 §3, §4): loads or creates it and opens its
 * active workbook in the workspace. The default workbook lives in the session itself; any other
 * workbook lives in the spreadsheet service, which recalculates every edit and answers with the
 * changed cells. Edits are saved with the 3 s debounce, and at once on a sheet switch, when the
 * page is hidden and on sign-out, so nothing typed is lost.
 */
export class SessionController {
  private current: SessionControllerState = { status: 'idle', session: null, saveState: 'saved', showGrid: false }
  private readonly listeners = new Set<() => void>()
  private readonly api: ApiClient
  private readonly workspace: Workspace
  private user: CurrentUser | null = null
  private unsavedSession: UnsavedSession | null = null
  private saveTimer: ReturnType<typeof setTimeout> | null = null
  private retryTimer: ReturnType<typeof setTimeout> | null = null
  /** the wait before the next retry of a failed save; 0 while saves succeed */
  private retryDelay = 0
  private pendingSave: Promise<void> | null = null
  private dirty = false
  private detachStore: (() => void) | null = null
  private sync: ServerWorkbookSync | null = null
  /** the workbook being opened, so a second request for it does not load it again */
  private opening: string | null = null

  constructor(api: ApiClient, workspace: Workspace) {
    this.api = api
    this.workspace = workspace
    workspace.beforeSheetSwitch = () => this.flush()
    // the active sheet is part of the session: switching sheets is saved like an edit
    let seen = { store: workspace.state.store, sheet: workspace.state.sheet }
    workspace.subscribe(() => {
      const { store, sheet } = workspace.state
      if (store && store === seen.store && sheet !== seen.sheet) this.scheduleSave()
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

  get hasRealWorkbook(): boolean {
    return hasRealWorkbook(this.current.session)
  }

  /** Loads (or creates) the session of the signed-in user and opens its active workbook. */
  async start(user: CurrentUser): Promise<void> {
    if (this.user?.uid === user.uid && this.current.status !== 'error') return
    this.user = user
    this.unsavedSession = new UnsavedSession(user.uid)
    this.update({ status: 'loading' })
    this.workspace.setLoading()
    try {
      const answer = await this.api.post<SessionResponse>('/users/spreadsheet-session/load-or-create', {
        uid: user.uid,
        name: user.displayName,
        email: user.email,
      })
      // A session whose save never reached the service (typed offline, then reloaded) is newer than
      // the service's; the role stays the service's.
      const unsaved = this.unsavedSession.pending()
      this.update({ status: 'ready', session: unsaved ? { ...unsaved, role: answer.session.role } : answer.session })
      await this.openActiveWorkbook()
      if (unsaved) this.scheduleSave()
    } catch (error) {
      console.error('Failed to load the session', error)
      this.update({ status: 'error' })
      this.workspace.close()
      toast({ title: 'Error', description: 'Failed to load existing session. Please try again.', variant: 'destructive' })
    }
  }

  /** Spec 1 §4: Start Blank — the default workbook with one empty Sheet1, saved to the session. */
  async startBlank(): Promise<void> {
    const session = this.current.session
    if (!session) return
    await this.flush()
    const next: UserSession = { ...session, activeWorkbook: DEFAULT_WORKBOOK_ID, workbooks: { ...session.workbooks, [DEFAULT_WORKBOOK_ID]: blankDefaultEntry() } }
    this.update({ session: next, showGrid: true })
    await this.openActiveWorkbook()
    try {
      await this.saveSession(next)
    } catch (error) {
      console.error('Failed to save the new workbook', error)
      toast({ title: 'Error', description: 'Failed to create workbook. Please try again.', variant: 'destructive' })
    }
  }

  /** 'Continue with existing workbook' on the welcome screen. */
  continueWithWorkbook(): void {
    this.update({ showGrid: true })
    if (!this.workspace.state.store) void this.openActiveWorkbook()
  }

  /** New Spreadsheet: a blank workbook in the spreadsheet service, opened at once. */
  async createWorkbook(name = 'Untitled workbook'): Promise<void> {
    try {
      const answer = await this.api.post<CreateWorkbookResponse>('/spreadsheet/workbooks', { name })
      await this.openWorkbook(answer.workbookId, answer.workbook.name)
    } catch (error) {
      console.error('Failed to create a workbook', error)
      toast({ title: 'Error', description: 'Failed to create workbook. Please try again.', variant: 'destructive' })
    }
  }

  /**
   * Makes a workbook of the spreadsheet service (created, imported, generated) the session's
   * active one and opens it; spec 2 §6: the session gets role admin.
   */
  async openWorkbook(id: string, name?: string): Promise<void> {
    const session = this.current.session
    if (!session) return
    await this.flush()
    const entry: WorkbookEntry = session.workbooks[id] ?? { name, activeSheet: '', recentlyOpened: [], sheetOrder: [], totalSheets: 0, sheets: {} }
    const next: UserSession = { ...session, role: 'admin', activeWorkbook: id, workbooks: { ...session.workbooks, [id]: entry } }
    this.update({ session: next, showGrid: true })
    await this.openActiveWorkbook()
    await this.saveSession(next).catch((error: unknown) => console.error('Failed to save the session', error))
  }

  /**
   * Spec 1 §4: saves an empty session (role kept, default workbook), wipes local storage and
   * reloads the page after 0.5 s.
   */
  async clearEverything(reload: () => void = () => window.location.reload()): Promise<void> {
    const session = this.current.session
    this.cancelPendingSave()
    try {
      if (session) await this.saveSession({ ...session, activeWorkbook: DEFAULT_WORKBOOK_ID, workbooks: { [DEFAULT_WORKBOOK_ID]: blankDefaultEntry() } })
      localStorage.clear()
      setTimeout(() => {
        // again, in case something wrote a flag in the half second before the reload
        localStorage.clear()
        reload()
      }, CLEAR_RELOAD_DELAY_MS)
    } catch (error) {
      console.error('Failed to clear data', error)
      toast({ title: 'Error', description: 'Failed to clear data. Please try again.', variant: 'destructive' })
    }
  }

  /**
   * Saves anything pending now (sheet switch, page hide, sign-out). `leavingPage` lets the request
   * outlive the page, as a reload or a closed tab would otherwise cancel it.
   */
  async flush(leavingPage = false): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer)
      this.saveTimer = null
    }
    if (this.pendingSave && !leavingPage) await this.pendingSave.catch(() => undefined)
    if (this.dirty) await this.saveNow(leavingPage)
  }

  /** Sign-out: flush what is pending, then forget the session and close the workbook. */
  async stop(): Promise<void> {
    await this.flush().catch(() => undefined)
    this.detach()
    this.user = null
    this.unsavedSession = null
    this.workspace.close()
    this.update({ status: 'idle', session: null, saveState: 'saved', showGrid: false })
  }

  private detach(): void {
    this.stopRetrying()
    this.detachStore?.()
    this.detachStore = null
    this.sync = null
    this.workspace.setRemoteHistory(null)
  }

  private async openActiveWorkbook(): Promise<void> {
    const session = this.current.session
    if (!session) return
    const id = session.activeWorkbook in session.workbooks ? session.activeWorkbook : DEFAULT_WORKBOOK_ID
    const entry = session.workbooks[id]
    if (!entry) {
      this.detach()
      this.workspace.close()
      return
    }
    if (id === DEFAULT_WORKBOOK_ID) {
      this.detach()
      const store = this.workspace.open(sessionWorkbookSnapshot(id, entry), entry.activeSheet)
      this.watch(store)
      return
    }
    // spec 1 §4: a saved workbook loads once, not again while it is open
    if (this.opening === id || (this.workspace.state.store?.id === id && this.sync)) return
    this.opening = id
    this.detach()
    this.workspace.setLoading()
    try {
      await new Promise((resolve) => setTimeout(resolve, CELL_LOAD_DELAY_MS))
      const loaded = await loadServerWorkbook(this.api, id)
      this.attachServerWorkbook(loaded, entry.activeSheet || loaded.sheetOrder[0])
    } catch (error) {
      console.error('Failed to load the workbook', error)
      const missing = errorStatus(error) === 404
      toast({ title: 'Error', description: missing ? 'Workbook not found' : 'Failed to load the workbook. Please try again.', variant: 'destructive' })
      this.workspace.close()
      if (missing) await this.forgetWorkbook(id)
    } finally {
      this.opening = null
    }
  }

  private attachServerWorkbook(loaded: ServerWorkbook, activeSheet: string, history?: Partial<SyncStatus>): void {
    const store = this.workspace.open(loaded.snapshot, activeSheet)
    const journal = this.user ? pendingEditsFor(this.user.uid, store.id) : null
    const unsaved = journal?.load() ?? []
    const sync = new ServerWorkbookSync(this.api, store, loaded.revision, (status) => this.onSyncStatus(status), history, journal)
    this.sync = sync
    this.watch(store)
    // Edits the service never accepted (the page was closed or reloaded while it could not be
    // reached) are made again, as the user made them, and saved like any edit.
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
      undo: () => this.serverHistory('undo'),
      redo: () => this.serverHistory('redo'),
    })
  }

  /** A workbook the service no longer has leaves the session; the default workbook takes its place. */
  private async forgetWorkbook(id: string): Promise<void> {
    const session = this.current.session
    if (!session) return
    const workbooks = { ...session.workbooks }
    delete workbooks[id]
    if (!workbooks[DEFAULT_WORKBOOK_ID]) workbooks[DEFAULT_WORKBOOK_ID] = blankDefaultEntry()
    const next = { ...session, activeWorkbook: DEFAULT_WORKBOOK_ID, workbooks }
    this.update({ session: next })
    await this.openActiveWorkbook()
    await this.saveSession(next).catch(() => undefined)
  }

  private async serverHistory(action: 'undo' | 'redo'): Promise<void> {
    const sync = this.sync
    const store = this.workspace.state.store
    if (!sync || !store) return
    if (this.saveTimer) {
      clearTimeout(this.saveTimer)
      this.saveTimer = null
    }
    try {
      const outcome = action === 'undo' ? await sync.undo() : await sync.redo()
      if (outcome.structureChanged) {
        // rows, columns or sheets came back or went: take the workbook as the server has it
        const { sheet, selection } = this.workspace.state
        const loaded = await loadServerWorkbook(this.api, store.id)
        this.attachServerWorkbook(loaded, sheet, { canUndo: sync.current.canUndo, canRedo: sync.current.canRedo })
        this.workspace.setSelection(selection)
      }
    } catch (error) {
      console.error(`Failed to ${action}`, error)
      this.reportSaveError(error)
    }
    this.workspace.refresh()
  }

  private onSyncStatus(status: SyncStatus): void {
    if (status.saving) this.update({ saveState: 'saving' })
    this.workspace.refresh()
  }

  private watch(store: WorkbookStore): void {
    this.detachStore?.()
    this.detachStore = store.onChange((change) => {
      this.sync?.record(change)
      this.scheduleSave()
    })
  }

  private scheduleSave(): void {
    this.dirty = true
    this.update({ saveState: 'unsaved' })
    if (this.saveTimer) clearTimeout(this.saveTimer)
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null
      void this.saveNow()
    }, SAVE_DEBOUNCE_MS)
  }

  private cancelPendingSave(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer)
    this.saveTimer = null
    this.dirty = false
    this.stopRetrying()
  }

  private stopRetrying(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = null
    this.retryDelay = 0
  }

  private async saveNow(leavingPage = false): Promise<void> {
    const session = this.current.session
    const { store, sheet, status } = this.workspace.state
    // spec 1 §4: nothing is saved while a workbook is loading, nor without a signed-in user
    if (!session || !store || status === 'loading' || !this.user) return
    this.dirty = false
    const sync = this.sync
    const entry = sync
      ? serverWorkbookEntry(session.workbooks[store.id], store, sheet)
      : updateSessionWorkbook(
          session.workbooks[store.id],
          store.snapshot(),
          sheet,
          (sheetName, address) => {
            const pos = parseCellAddress(address)
            if (!pos) return null
            const value = store.getValue(sheetName, pos)
            return isEngineError(value) ? value.code : value
          },
          new Date().toISOString(),
        )
    const next: UserSession = { ...session, activeWorkbook: store.id, workbooks: { ...session.workbooks, [store.id]: entry } }
    this.update({ session: next, saveState: 'saving' })
    const saving = (async () => {
      if (sync) await sync.flush(leavingPage)
      await this.saveSession(next, leavingPage)
    })()
      .then(() => {
        this.retryDelay = 0
        if (!this.dirty) this.update({ saveState: 'saved' })
      })
      .catch((error: unknown) => {
        this.dirty = true
        this.update({ saveState: 'error' })
        console.error('Failed to save cell edits', error)
        // Said once per run of failures; the edits are kept and tried again while the cause may pass.
        if (this.retryDelay === 0) this.reportSaveError(error)
        if (leavingPage || !isPassingFailure(error)) return
        this.retryDelay = this.retryDelay === 0 ? SAVE_RETRY_FIRST_MS : Math.min(this.retryDelay * 2, SAVE_RETRY_MAX_MS)
        if (this.retryTimer) clearTimeout(this.retryTimer)
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null
          if (this.dirty && !this.saveTimer) void this.saveNow()
        }, this.retryDelay)
      })
    this.pendingSave = saving
    await saving
    if (this.pendingSave === saving) this.pendingSave = null
  }

  /** Spec 1 §8: the save error, except when the server was only asking to slow down (429). */
  private reportSaveError(error: unknown): void {
    const status = errorStatus(error)
    if (status === 429 || String(error).includes('429')) return
    toast({ title: 'Error', description: SAVE_ERROR_MESSAGE, variant: 'destructive' })
  }

  private async saveSession(session: UserSession, keepalive = false): Promise<void> {
    if (!this.user) return
    const body = { session, userId: this.user.uid }
    // keepalive requests are limited to 64 KB; a bigger session is sent normally and may be cut off
    const fits = keepalive && JSON.stringify(body).length < 60_000
    const unsaved = this.unsavedSession
    const write = unsaved?.keep(session)
    const answer = await this.api.post<SaveSessionResponse>('/users/spreadsheet-session', body, { keepalive: fits })
    if (unsaved && write !== undefined) unsaved.saved(write)
    this.update({ session: { ...answer.session, workbooks: session.workbooks } })
  }

  private update(patch: Partial<SessionControllerState>): void {
    this.current = { ...this.current, ...patch }
    for (const listener of this.listeners) listener()
  }
}

function blankDefaultEntry(): WorkbookEntry {
  const entry = updateSessionWorkbook(
    undefined,
    { id: DEFAULT_WORKBOOK_ID, sheets: [{ name: DEFAULT_SHEET_NAME, cells: {} }] },
    DEFAULT_SHEET_NAME,
    () => null,
    new Date().toISOString(),
  )
  entry.name = DEFAULT_WORKBOOK_ID
  return entry
}

/** A service-kept workbook's session entry: where the user was, not the cells (the service has those). */
function serverWorkbookEntry(previous: WorkbookEntry | undefined, store: WorkbookStore, activeSheet: string): WorkbookEntry {
  const order = store.sheetNames
  return {
    ...(previous?.name !== undefined ? { name: previous.name } : store.name ? { name: store.name } : {}),
    activeSheet,
    recentlyOpened: [activeSheet, ...(previous?.recentlyOpened ?? []).filter((n) => n !== activeSheet && order.includes(n))].slice(0, 10),
    sheetOrder: order,
    totalSheets: order.length,
    sheets: {},
  }
}
