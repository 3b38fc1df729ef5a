import type { SaveSessionResponse, SessionResponse, UserSession } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'
import { errorStatus } from '../api/api-client'
import type { CurrentUser } from '../auth/auth-service'
import { parseCellAddress } from '../grid/address'
import type { Workspace } from '../spreadsheet/workspace'
import { toast } from '../toasts/toast-store'
import { isEngineError } from '../workbook/calc-engine'
import type { WorkbookStore } from '../workbook/workbook-store'
import { DEFAULT_SHEET_NAME, DEFAULT_WORKBOOK_ID, hasRealWorkbook, sessionWorkbookSnapshot, updateSessionWorkbook } from './session-workbook'

/** Spec 1 §4 and §9: edits are saved after 3,000 ms without further edits; the latest wins. */
export const SAVE_DEBOUNCE_MS = 3000
/** Spec 1 §4: clearing everything reloads the page half a second later. */
export const CLEAR_RELOAD_DELAY_MS = 500

export type SaveState = 'saved' | 'saving' | 'unsaved' | 'error'

export interface SessionControllerState {
  status: 'idle' | 'loading' | 'ready' | 'error'
  session: UserSession | null
  saveState: SaveState
  /** the welcome screen was passed (Start Blank or Continue) for an empty default workbook */
  showGrid: boolean
}

/**
 * The signed-in user's spreadsheet session (spec 1 §3, §4): loads or creates it, opens its active
 * workbook in the workspace, and saves edits back with the 3 s debounce — flushed at once on a
 * sheet switch, when the page is hidden and on sign-out so nothing typed is lost.
 */
export class SessionController {
  private current: SessionControllerState = { status: 'idle', session: null, saveState: 'saved', showGrid: false }
  private readonly listeners = new Set<() => void>()
  private readonly api: ApiClient
  private readonly workspace: Workspace
  private user: CurrentUser | null = null
  private saveTimer: ReturnType<typeof setTimeout> | null = null
  private pendingSave: Promise<void> | null = null
  private dirty = false
  private detachStore: (() => void) | null = null

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
    this.update({ status: 'loading' })
    this.workspace.setLoading()
    try {
      const answer = await this.api.post<SessionResponse>('/users/spreadsheet-session/load-or-create', {
        uid: user.uid,
        name: user.displayName,
        email: user.email,
      })
      this.update({ status: 'ready', session: answer.session })
      this.openActiveWorkbook()
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
    const now = new Date().toISOString()
    const next: UserSession = {
      ...session,
      activeWorkbook: DEFAULT_WORKBOOK_ID,
      workbooks: {
        ...session.workbooks,
        [DEFAULT_WORKBOOK_ID]: updateSessionWorkbook(undefined, { id: DEFAULT_WORKBOOK_ID, sheets: [{ name: DEFAULT_SHEET_NAME, cells: {} }] }, DEFAULT_SHEET_NAME, () => null, now),
      },
    }
    next.workbooks[DEFAULT_WORKBOOK_ID].name = DEFAULT_WORKBOOK_ID
    this.update({ session: next, showGrid: true })
    this.openActiveWorkbook()
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
    if (!this.workspace.state.store) this.openActiveWorkbook()
  }

  /**
   * Spec 1 §4: saves an empty session (role kept, default workbook), wipes local storage and
   * reloads the page after 0.5 s.
   */
  async clearEverything(reload: () => void = () => window.location.reload()): Promise<void> {
    const session = this.current.session
    this.cancelPendingSave()
    try {
      if (session) {
        const now = new Date().toISOString()
        const entry = updateSessionWorkbook(undefined, { id: DEFAULT_WORKBOOK_ID, sheets: [{ name: DEFAULT_SHEET_NAME, cells: {} }] }, DEFAULT_SHEET_NAME, () => null, now)
        entry.name = DEFAULT_WORKBOOK_ID
        await this.saveSession({ ...session, activeWorkbook: DEFAULT_WORKBOOK_ID, workbooks: { [DEFAULT_WORKBOOK_ID]: entry } })
      }
      localStorage.clear()
      setTimeout(reload, CLEAR_RELOAD_DELAY_MS)
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
    this.detachStore?.()
    this.detachStore = null
    this.user = null
    this.workspace.close()
    this.update({ status: 'idle', session: null, saveState: 'saved', showGrid: false })
  }

  private openActiveWorkbook(): void {
    const session = this.current.session
    if (!session) return
    const id = session.activeWorkbook in session.workbooks ? session.activeWorkbook : DEFAULT_WORKBOOK_ID
    const entry = session.workbooks[id]
    if (!entry) {
      this.workspace.close()
      return
    }
    const store = this.workspace.open(sessionWorkbookSnapshot(id, entry), entry.activeSheet)
    this.watch(store)
  }

  private watch(store: WorkbookStore): void {
    this.detachStore?.()
    this.detachStore = store.onChange(() => this.scheduleSave())
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
  }

  private async saveNow(leavingPage = false): Promise<void> {
    const session = this.current.session
    const { store, sheet, status } = this.workspace.state
    // spec 1 §4: nothing is saved while a workbook is loading, nor without a signed-in user
    if (!session || !store || status === 'loading' || !this.user) return
    this.dirty = false
    const entry = updateSessionWorkbook(session.workbooks[store.id], store.snapshot(), sheet, (sheetName, address) => {
      const pos = parseCellAddress(address)
      if (!pos) return null
      const value = store.getValue(sheetName, pos)
      return isEngineError(value) ? value.code : value
    }, new Date().toISOString())
    const next: UserSession = { ...session, activeWorkbook: store.id, workbooks: { ...session.workbooks, [store.id]: entry } }
    this.update({ session: next, saveState: 'saving' })
    const saving = this.saveSession(next, leavingPage)
      .then(() => {
        if (!this.dirty) this.update({ saveState: 'saved' })
      })
      .catch((error: unknown) => {
        this.dirty = true
        this.update({ saveState: 'error' })
        console.error('Failed to save cell edits', error)
        if (errorStatus(error) !== 429 && !String(error).includes('429')) {
          toast({ title: 'Error', description: 'Error saving cell edit - changes may not persist after refresh', variant: 'destructive' })
        }
      })
    this.pendingSave = saving
    await saving
    if (this.pendingSave === saving) this.pendingSave = null
  }

  private async saveSession(session: UserSession, keepalive = false): Promise<void> {
    if (!this.user) return
    const body = { session, userId: this.user.uid }
    // keepalive requests are limited to 64 KB; a bigger session is sent normally and may be cut off
    const fits = keepalive && JSON.stringify(body).length < 60_000
    const answer = await this.api.post<SaveSessionResponse>('/users/spreadsheet-session', body, { keepalive: fits })
    this.update({ session: { ...answer.session, workbooks: session.workbooks } })
  }

  private update(patch: Partial<SessionControllerState>): void {
    this.current = { ...this.current, ...patch }
    for (const listener of this.listeners) listener()
  }
}
