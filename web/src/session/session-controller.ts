import type { CreateWorkbookResponse, ImportWorkbookResponse, SaveSessionResponse, SessionResponse, UserSession, WorkbookEntry } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'
import { errorStatus, isPassingFailure, isUnreachable } from '../api/api-client'
import type { CurrentUser } from '../auth/auth-service'
import { parseCellAddress } from '../grid/address'
import type { Workspace } from '../spreadsheet/workspace'
import { toast } from '../toasts/toast-store'
import { isEngineError } from '../workbook/calc-engine'
import type { WorkbookCommand } from '@finsheet/contracts'
import type { ServerWorkbook, SyncFailure } from '../workbook/server-sync'
import { pendingEditsFor } from '../workbook/pending-edits'
import { loadServerWorkbook, ServerWorkbookSync } from '../workbook/server-sync'
import type { WorkbookStore } from '../workbook/workbook-store'
import type { SaveState } from './save-state'
import { saveStateOf } from './save-state'
import { DEFAULT_SHEET_NAME, DEFAULT_WORKBOOK_ID, hasRealWorkbook, sessionWorkbookSnapshot, updateSessionWorkbook } from './session-workbook'
import { UnsavedSession } from './unsaved-session'

/** Edits are saved after 3,000 ms without further edits; the latest wins. */
export const SAVE_DEBOUNCE_MS = 3000
/** Clearing everything reloads the page half a second later. */
export const CLEAR_RELOAD_DELAY_MS = 500
/** A saved workbook's cells load about 300 ms after the session is ready. */
export const CELL_LOAD_DELAY_MS = 300
/** A save that failed for a passing reason (network, 5xx, 429) is tried again after this, doubling up to SAVE_RETRY_MAX_MS. */
export const SAVE_RETRY_FIRST_MS = 2000
export const SAVE_RETRY_MAX_MS = 60_000

export type { SaveState } from './save-state'

export interface SessionControllerState {
  status: 'idle' | 'loading' | 'ready' | 'error'
  session: UserSession | null
  saveState: SaveState
  /** the welcome screen was passed (Start Blank or Continue) for an empty default workbook */
  showGrid: boolean
}

const SAVE_ERROR_MESSAGE = 'Error saving cell edit - changes may not persist after refresh'

/** What Clear everything did before it erased anything, so that it can be told and undone. */
export interface ClearedBackup {
  /** the copy of the default workbook's cells, kept as a workbook of the spreadsheet service */
  workbookId: string | null
}

/**
 * The signed-in user's spreadsheet session: loads or creates it and opens its active workbook in the
 * workspace. The default workbook lives in the session itself; any other workbook lives in the
 * spreadsheet service, which recalculates every edit and answers with the changed cells.
 *
 * Nothing the user does waits on a save. Edits are applied at once and saved with the 3 s debounce,
 * and at once (in the background) on a sheet switch, when the page is hidden and on sign-out. Where
 * the user is (the active sheet) is part of the session and saved the same way, but it is not an edit:
 * the save indicator speaks of edits only.
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
  /** edits of the session-kept workbook not yet sent, and how their last save went */
  private sessionEdits = { dirty: false, saving: false, failure: null as SyncFailure | null }
  /** where the user is changed since the session was last saved */
  private viewDirty = false
  /** session saves go one after another, so an older answer never lands after a newer one */
  private sessionTail: Promise<void> = Promise.resolve()
  private detachStore: (() => void) | null = null
  private sync: ServerWorkbookSync | null = null
  /** bumped whenever another workbook (or another copy of it) is being opened: a late load is dropped */
  private loading = 0
  /** the workbook being opened, so a second request for it does not load it again */
  private opening: string | null = null
  private readonly historyListeners = new Set<(kind: 'undo' | 'redo', changeId: string) => void>()

  constructor(api: ApiClient, workspace: Workspace) {
    this.api = api
    this.workspace = workspace
    // the active sheet is part of the session: a switch saves in the background, at once
    let seen = { store: workspace.state.store, sheet: workspace.state.sheet }
    workspace.subscribe(() => {
      const { store, sheet } = workspace.state
      if (store && store === seen.store && sheet !== seen.sheet) this.viewChanged()
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

  /** The signed-in user's id, once the session has started. */
  get userId(): string | null {
    return this.user?.uid ?? null
  }

  /** Whether the open workbook is kept by the spreadsheet service (not the session's default workbook). */
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
   * Copies the session's default workbook into a new workbook of the spreadsheet service and opens it
   * (the assistant's agent changes only those). Returns its id, or null when there was nothing to copy.
   */
  async copyDefaultWorkbook(name: string): Promise<string | null> {
    const session = this.current.session
    if (!session) return null
    await this.flush()
    const copy = await this.keepDefaultWorkbook(session, name, true)
    if (!copy.workbookId) return null
    await this.openWorkbook(copy.workbookId, name)
    return copy.workbookId
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
      if (unsaved) {
        // the session held the default workbook's cells, or only where the user was
        if (this.sync) this.viewDirty = true
        else this.sessionEdits.dirty = true
        this.refreshSaveState()
        this.scheduleSave()
      }
    } catch (error) {
      console.error('Failed to load the session', error)
      this.update({ status: 'error' })
      this.workspace.close()
      toast({ title: 'Error', description: 'Failed to load existing session. Please try again.', variant: 'destructive' })
    }
  }

  /** Start Blank: the default workbook with one empty Sheet1, saved to the session. */
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
   * active one and opens it; the session gets role admin.
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
   * Clear everything: saves an empty session (role kept, default workbook), wipes local storage and
   * reloads the page after 0.5 s. Before anything is erased, edits on their way are saved and the
   * default workbook's cells, when it has any, are kept as a workbook of the spreadsheet service (with
   * its first version), so that what was cleared can be opened and restored from Version Control.
   * Workbooks of the spreadsheet service are not erased: only the session's list of them is.
   */
  async clearEverything(reload: () => void = () => window.location.reload()): Promise<ClearedBackup | null> {
    const session = this.current.session
    try {
      await this.flush()
      // edits the service could not take would be wiped with this browser's data
      if (this.current.saveState !== 'saved') throw new Error('Edits are not saved yet')
      this.cancelPendingSave()
      const backup = session ? await this.keepDefaultWorkbook(session) : { workbookId: null }
      if (session) await this.saveSession({ ...session, activeWorkbook: DEFAULT_WORKBOOK_ID, workbooks: { [DEFAULT_WORKBOOK_ID]: blankDefaultEntry() } })
      localStorage.clear()
      setTimeout(() => {
        // again, in case something wrote a flag in the half second before the reload
        localStorage.clear()
        reload()
      }, CLEAR_RELOAD_DELAY_MS)
      return backup
    } catch (error) {
      console.error('Failed to clear data', error)
      toast({ title: 'Error', description: 'Failed to clear data. Please try again.', variant: 'destructive' })
      return null
    }
  }

  /**
   * The default workbook's cells as a workbook of the spreadsheet service (before they are cleared,
   * or for the assistant); an empty one is copied only when `evenEmpty`.
   */
  private async keepDefaultWorkbook(session: UserSession, name = clearedWorkbookName(new Date()), evenEmpty = false): Promise<ClearedBackup> {
    const entry = session.workbooks[DEFAULT_WORKBOOK_ID]
    if (!entry) return { workbookId: null }
    const open = this.workspace.state.store
    const snapshot = open?.id === DEFAULT_WORKBOOK_ID ? open.snapshot() : sessionWorkbookSnapshot(DEFAULT_WORKBOOK_ID, entry)
    const sheets = snapshot.sheets.map((sheet) => ({
      name: sheet.name,
      cells: Object.entries(sheet.cells).map(([address, cell]) => ({
        address,
        input: cell.input ?? '',
        ...(cell.style ? { style: cell.style } : {}),
        ...(cell.format ? { format: cell.format } : {}),
      })),
      ...(sheet.columnWidths && Object.keys(sheet.columnWidths).length > 0 ? { columnWidths: sheet.columnWidths } : {}),
      ...(sheet.merges && sheet.merges.length > 0 ? { merges: sheet.merges } : {}),
    }))
    if (!evenEmpty && sheets.every((sheet) => sheet.cells.length === 0)) return { workbookId: null }
    const answer = await this.api.post<ImportWorkbookResponse>('/spreadsheet/workbooks/import', { name, sheets })
    return { workbookId: answer.workbookId }
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
    this.detach()
    this.user = null
    this.unsavedSession = null
    this.workspace.close()
    this.update({ status: 'idle', session: null, showGrid: false })
    this.sessionEdits = { dirty: false, saving: false, failure: null }
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

  private async openActiveWorkbook(): Promise<void> {
    const session = this.current.session
    if (!session) return
    const id = session.activeWorkbook in session.workbooks ? session.activeWorkbook : DEFAULT_WORKBOOK_ID
    const entry = session.workbooks[id]
    if (!entry) {
      this.loading++
      this.detach()
      this.workspace.close()
      return
    }
    if (id === DEFAULT_WORKBOOK_ID) {
      this.loading++
      this.detach()
      const store = this.workspace.open(sessionWorkbookSnapshot(id, entry), entry.activeSheet)
      this.watch(store)
      return
    }
    // a saved workbook loads once, not again while it is open
    if (this.opening === id || (this.workspace.state.store?.id === id && this.sync)) return
    const attempt = ++this.loading
    this.opening = id
    this.detach()
    this.workspace.setLoading()
    try {
      await new Promise((resolve) => setTimeout(resolve, CELL_LOAD_DELAY_MS))
      const loaded = await loadServerWorkbook(this.api, id)
      // another workbook was asked for meanwhile: this one must not replace it
      if (attempt !== this.loading) return
      this.attachServerWorkbook(loaded, { sheet: entry.activeSheet || loaded.sheetOrder[0] })
    } catch (error) {
      if (attempt !== this.loading) return
      console.error('Failed to load the workbook', error)
      const missing = errorStatus(error) === 404
      toast({ title: 'Error', description: missing ? 'Workbook not found' : 'Failed to load the workbook. Please try again.', variant: 'destructive' })
      this.workspace.close()
      if (missing) await this.forgetWorkbook(id)
    } finally {
      if (this.opening === id) this.opening = null
    }
  }

  /**
   * Opens a workbook of the service in the workspace with its sync. `at.sheet` opens it there;
   * without it the workbook replaces the open copy of itself and the user stays where they are.
   * `replay` are the user's edits the service has not accepted yet, made again on top (else those the
   * browser kept from an earlier page).
   */
  private attachServerWorkbook(
    loaded: ServerWorkbook,
    at: { sheet: string } | null,
    history?: { canUndo: boolean; canRedo: boolean },
    replay?: WorkbookCommand[],
  ): void {
    this.detachStore?.()
    const store = at ? this.workspace.open(loaded.snapshot, at.sheet) : this.workspace.reopen(loaded.snapshot)
    const journal = this.user ? pendingEditsFor(this.user.uid, store.id) : null
    const unsaved = replay ?? journal?.load() ?? []
    const sync = new ServerWorkbookSync(this.api, store, loaded.revision, () => this.onSyncStatus(sync), history, journal)
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

  /** Undo and redo of a service-kept workbook: applied here at once by the sync, then on the server. */
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
      if (this.sync) this.sync.record(change)
      else if (change.origin !== 'remote') this.sessionEdits.dirty = true
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
    this.sessionEdits.dirty = false
    this.viewDirty = false
    this.stopRetrying()
  }

  private stopRetrying(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = null
    this.retryDelay = 0
  }

  /** Sends the edits (to the spreadsheet service, or in the session) and where the user is. */
  private async saveNow(leavingPage = false): Promise<void> {
    const session = this.current.session
    const { store, status } = this.workspace.state
    // nothing is saved while a workbook is loading, nor without a signed-in user
    if (!session || !store || status === 'loading' || !this.user) return
    const sync = this.sync
    if (sync) {
      const saving = sync.flush(leavingPage).then(
        () => this.saveSucceeded(),
        (error: unknown) => {
          console.error('Failed to save cell edits', error)
          this.saveFailed(error, leavingPage)
        },
      )
      if (this.viewDirty) {
        this.viewDirty = false
        this.saveSession(this.sessionWith(store), leavingPage).catch((error: unknown) => {
          // only where the user was is lost; it is sent again with the next save
          this.viewDirty = true
          console.warn('Failed to save the active sheet', error)
        })
      }
      await saving
      return
    }
    const edits = this.sessionEdits.dirty
    if (!edits && !this.viewDirty) return
    this.sessionEdits.dirty = false
    this.viewDirty = false
    if (edits) {
      this.sessionEdits.saving = true
      this.refreshSaveState()
    }
    try {
      await this.saveSession(this.sessionWith(store), leavingPage)
      if (edits) {
        this.sessionEdits.saving = false
        this.saveSucceeded()
      }
    } catch (error) {
      if (!edits) {
        this.viewDirty = true
        console.warn('Failed to save the active sheet', error)
        return
      }
      this.sessionEdits = { dirty: true, saving: false, failure: this.sessionEdits.failure }
      console.error('Failed to save cell edits', error)
      this.saveFailed(error, leavingPage)
    }
  }

  /** The session with the open workbook's entry as it is now. */
  private sessionWith(store: WorkbookStore): UserSession {
    const session = this.current.session!
    const sheet = this.workspace.state.sheet
    const entry = this.sync
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
    this.update({ session: next })
    return next
  }

  private saveSucceeded(): void {
    this.retryDelay = 0
    this.sessionEdits.failure = null
    this.refreshSaveState()
  }

  /**
   * Said once per run of failures (a toast); the edits are kept and tried again, with a doubling
   * wait, while the cause may pass.
   */
  private saveFailed(error: unknown, leavingPage = false): void {
    if (!this.sync) this.sessionEdits.failure = isPassingFailure(error) ? (isUnreachable(error) ? 'offline' : 'unavailable') : 'refused'
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
    const progress = this.sync?.current ?? { pending: this.sessionEdits.dirty ? 1 : 0, sending: this.sessionEdits.saving, failure: this.sessionEdits.failure }
    const saveState = saveStateOf(progress)
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
    const unsaved = this.unsavedSession
    const write = unsaved?.keep(session)
    const answer = await this.api.post<SaveSessionResponse>('/users/spreadsheet-session', body, { keepalive: fits })
    if (unsaved && write !== undefined) unsaved.saved(write)
    // the workbooks as they are now: the user may have moved on while this save was on its way
    this.update({ session: { ...answer.session, workbooks: this.current.session?.workbooks ?? session.workbooks } })
  }

  private update(patch: Partial<SessionControllerState>): void {
    this.current = { ...this.current, ...patch }
    for (const listener of this.listeners) listener()
  }
}

/** The name of the workbook that keeps the default workbook's cells when everything is cleared. */
export function clearedWorkbookName(when: Date): string {
  return `Default Workbook (cleared ${when.toISOString().slice(0, 16).replace('T', ' ')})`
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
