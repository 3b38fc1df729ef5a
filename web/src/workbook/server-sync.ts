import type { ChangedCell, ChangeResponse, InputsResponse, UndoRedoResponse } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'
import { errorStatus, isPassingFailure, isUnreachable } from '../api/api-client'
import { cellAddress, parseCellAddress } from '../grid/address'
import type { CellStyle } from '../grid/types'
import type { WorkbookCommand } from '@finsheet/contracts'
import type { PendingEdits } from './pending-edits'
import { CellFollower } from './position-map'
import type { AppliedChange, ServerCellChange, WorkbookSnapshot, WorkbookStore } from './workbook-store'

/** The most commands one change may carry (the spreadsheet service's limit). */
export const COMMANDS_PER_CHANGE = 1000
/**
 * Each user action is a change of its own, so that undo reverts one action, as in Excel; past this many
 * waiting at once (a long time offline) the rest are sent in blocks, each undone as one.
 */
export const SINGLE_CHANGES_PER_FLUSH = 100

/** A workbook kept by the spreadsheet service, as the store opens it, with its revision. */
export interface ServerWorkbook {
  snapshot: WorkbookSnapshot
  revision: number
  sheetOrder: string[]
}

/**
 * GET /api/spreadsheet/workbook/{id}/inputs, turned into a store snapshot: inputs, styles and formats
 * only, since the store's engine calculates the values (a fraction of the cells route on a large workbook).
 */
export async function loadServerWorkbook(api: ApiClient, id: string): Promise<ServerWorkbook> {
  const answer = await api.get<InputsResponse>(`/spreadsheet/workbook/${encodeURIComponent(id)}/inputs`)
  return serverWorkbookOf(answer.workbook, { withCells: true })
}

/**
 * The inputs route's workbook as the store opens it; without `withCells`, its sheets, names, layout
 * and sizes only, for a model whose cells are loaded otherwise (`assembleFromLines`).
 */
export function serverWorkbookOf(workbook: InputsResponse['workbook'], options: { withCells: boolean }): ServerWorkbook {
  const byName = new Map(workbook.sheets.map((sheet) => [sheet.name, sheet]))
  const order = [...workbook.sheetOrder.filter((name) => byName.has(name)), ...workbook.sheets.map((s) => s.name).filter((n) => !workbook.sheetOrder.includes(n))]
  return {
    revision: workbook.revision,
    sheetOrder: order,
    snapshot: {
      id: workbook.workbookId,
      name: workbook.name,
      iterativeCalculation: workbook.iterativeCalculation,
      iterationLimits: workbook.iterationLimits,
      ...(workbook.externalLinks && workbook.externalLinks.length > 0 ? { externalLinks: workbook.externalLinks } : {}),
      ...(workbook.definedNames && workbook.definedNames.length > 0 ? { definedNames: workbook.definedNames } : {}),
      ...(workbook.tables && workbook.tables.length > 0 ? { tables: workbook.tables } : {}),
      ...(workbook.charts && workbook.charts.length > 0 ? { charts: workbook.charts } : {}),
      ...(workbook.defaultFont ? { defaultFont: workbook.defaultFont } : {}),
      sheets: order.map((name) => {
        const sheet = byName.get(name)!
        const cells: WorkbookSnapshot['sheets'][number]['cells'] = {}
        if (options.withCells) {
          for (const [address, input, style, format] of sheet.cells) {
            const entry: WorkbookSnapshot['sheets'][number]['cells'][string] = {}
            if (input !== '') entry.input = input
            if (style >= 0) entry.style = workbook.styles[style] as CellStyle
            if (format !== '') entry.format = format
            cells[address] = entry
          }
        }
        return { name, cells, columnWidths: sheet.columnWidths, merges: sheet.merges, ...(sheet.view ? { view: sheet.view } : {}), ...(sheet.conditionalFormats ? { conditionalFormats: sheet.conditionalFormats } : {}), ...(sheet.validations ? { validations: sheet.validations } : {}), rowCount: sheet.rowCount, columnCount: sheet.columnCount }
      }),
    },
  }
}

/** A changed cell as the service reports it, in the store's terms. */
export function toServerCellChange(cell: ChangedCell): ServerCellChange {
  return {
    sheet: cell.sheet,
    address: cell.address,
    input: cell.input,
    value: cell.type === 'error' ? { code: String(cell.value) } : cell.value,
    display: cell.display,
    style: (cell.style as CellStyle | null) ?? null,
    format: cell.format,
  }
}

/** Why the last request failed, until one succeeds. */
export type SyncFailure =
  /** no answer at all: the edits are kept and sent again */
  | 'offline'
  /** the service was busy or failed (429, 5xx): the edits are kept and sent again */
  | 'unavailable'
  /** the service refused the edits: the workbook is reloaded as the service has it */
  | 'refused'

export interface SyncStatus {
  /** edits made and not yet accepted by the server (waiting or on their way) */
  pending: number
  /** a request is on its way */
  sending: boolean
  failure: SyncFailure | null
  canUndo: boolean
  canRedo: boolean
}

/** One command applied to the store, with the command that reverts it. */
interface Entry {
  command: WorkbookCommand
  inverse: WorkbookCommand
}

/** User commands sent as one change of the server, undone and redone as one. */
interface Group {
  entries: Entry[]
  /** the server's id of the change, once it has answered; undo and redo must name this change */
  changeId: string | null
  /** never sent: undone before it left the browser */
  local: boolean
}

type Request =
  | { kind: 'changes'; group: Group }
  /** `group` null: the server's own history, of changes this browser does not know */
  | { kind: 'undo' | 'redo'; group: Group | null }

/** An applied command not yet accepted by the server, and the request that carries it (null: not sent yet). */
interface LogItem {
  command: WorkbookCommand
  request: Request | null
}

/**
 * Keeps a workbook of the spreadsheet service in step with the store the user works in. Every edit
 * is applied to the store at once and queued; `flush` sends what is queued, one change per action, and
 * requests (changes, undo, redo) go to the server one at a time in the order the user made them, so
 * nothing the user does waits on the network. The server's answers are authoritative for values, but
 * they speak of the workbook as it was before the edits still on their way: each answered cell is
 * followed through those edits (rows inserted since move it, a cell typed over since keeps what was
 * typed) before it is shown.
 *
 * Undo and redo are the server's, so they undo whole changes (a paste, an AI changeset) the same way
 * for every client, and they are applied at once in the browser too: an edit not sent yet is simply
 * taken back; a change the server holds is reverted here with the inverse the store gave, and the
 * server's undo, checked to be of that very change, follows in order. When the browser cannot tell
 * what the server did (an undo of a change made before this page opened, a refused change), `onReload`
 * asks for the workbook to be reopened as the server has it, with the edits not yet accepted made
 * again on top of it (`takeUnaccepted`).
 *
 * With a `journal`, what the server has not accepted yet is also kept in the browser until it is.
 */
export class ServerWorkbookSync {
  private readonly api: ApiClient
  private readonly store: WorkbookStore
  private readonly onStatus: (status: SyncStatus) => void
  private readonly journal: PendingEdits | null
  private revision: number
  /** everything applied that the server has not accepted, in the order it was applied */
  private log: LogItem[] = []
  /** requests not answered yet, in order; the first is on its way or waits for the next flush */
  private requests: Request[] = []
  /** the user's changes (sent or not), newest last, and those undone, for redo */
  private done: Group[] = []
  private undone: Group[] = []
  /** what the server said of its history beyond what this browser did */
  private serverHistory: { canUndo: boolean; canRedo: boolean }
  private tail: Promise<void> = Promise.resolve()
  private sending = false
  private failure: SyncFailure | null = null
  /** inverses of the commands this sync applies itself (undo, redo), heard back from the store */
  private capturing: WorkbookCommand[] | null = null
  private closed = false
  /** called once, when the workbook must be reopened as the server has it */
  onReload: (() => void) | null = null
  /** hears each undo or redo the server made, with the change it reverted or made again */
  onHistory: ((kind: 'undo' | 'redo', changeId: string) => void) | null = null

  constructor(
    api: ApiClient,
    store: WorkbookStore,
    revision: number,
    onStatus: (status: SyncStatus) => void,
    history: { canUndo?: boolean; canRedo?: boolean } = {},
    journal: PendingEdits | null = null,
    /**
     * Nothing is sent before this settles: a workbook opened by its first screen sends no edit before
     * the whole workbook has been read, so that the whole never holds an edit made on the first screen.
     */
    hold: Promise<unknown> | null = null,
  ) {
    if (hold) this.tail = hold.then(
      () => undefined,
      () => undefined,
    )
    this.api = api
    this.store = store
    this.revision = revision
    this.onStatus = onStatus
    this.journal = journal
    this.serverHistory = { canUndo: history.canUndo ?? false, canRedo: history.canRedo ?? false }
  }

  get current(): SyncStatus {
    const queued = this.log.filter((item) => item.request === null || item.request.kind === 'changes').length
    return {
      pending: queued,
      sending: this.sending,
      failure: this.failure,
      canUndo: this.done.length > 0 || this.queued().length > 0 || this.serverHistory.canUndo,
      canRedo: this.undone.length > 0 || this.serverHistory.canRedo,
    }
  }

  /** Whether edits wait to be sent (not counting those on their way). */
  get hasPending(): boolean {
    return this.queued().length > 0
  }

  /** Takes a change applied to the store: the user's are queued; those of undo and redo are heard for their inverses. */
  record(change: AppliedChange): void {
    if (change.origin === 'remote') return
    if (change.origin !== 'user') {
      this.capturing?.push(change.inverse)
      return
    }
    this.log.push({ command: change.command, request: null })
    this.queueEntry({ command: change.command, inverse: change.inverse })
    // a new change ends what could be redone, here and on the server
    this.undone = []
    this.serverHistory.canRedo = false
    this.keepInJournal()
    this.changed()
  }

  /** The entries of the queue: applied, not sent. */
  private queued(): Entry[] {
    const last = this.done.at(-1)
    return last && last.local ? last.entries : []
  }

  /** The queue is the newest group while it is local; a flush makes it a change of the server. */
  private queueEntry(entry: Entry): void {
    const last = this.done.at(-1)
    if (last && last.local) last.entries.push(entry)
    else this.done.push({ entries: [entry], changeId: null, local: true })
  }

  /**
   * Sends what is queued, after the requests before it, and waits for every request so far. Throws
   * the error of a request that failed; one that failed for a passing reason (no network, 5xx, 429)
   * stays first in line for the next flush, with everything after it.
   */
  flush(keepalive = false): Promise<void> {
    if (this.closed) return Promise.resolve()
    const last = this.done.at(-1)
    if (last && last.local && last.entries.length > 0) {
      this.done.pop()
      const parts = last.entries.slice(0, SINGLE_CHANGES_PER_FLUSH).map((entry) => [entry])
      for (let i = SINGLE_CHANGES_PER_FLUSH; i < last.entries.length; i += COMMANDS_PER_CHANGE) parts.push(last.entries.slice(i, i + COMMANDS_PER_CHANGE))
      for (const entries of parts) {
        const group: Group = { entries, changeId: null, local: false }
        this.done.push(group)
        const request: Request = { kind: 'changes', group }
        this.requests.push(request)
        const commands = new Set(group.entries.map((entry) => entry.command))
        for (const item of this.log) if (item.request === null && commands.has(item.command)) item.request = request
      }
    }
    return this.pump(keepalive)
  }

  /**
   * Undoes the user's latest change at once in the store; a change the server holds is undone there
   * next, in order. Resolves when the server has answered.
   */
  undo(): Promise<void> {
    if (this.closed) return Promise.resolve()
    const queued = this.queued()
    if (queued.length > 0) {
      // not sent yet: taken back here, and never sent
      const entry = queued.pop()!
      this.applyHere([entry.inverse], 'undo')
      this.log.splice(this.log.findLastIndex((item) => item.command === entry.command), 1)
      if (queued.length === 0) this.done.pop()
      this.undone.push({ entries: [entry], changeId: null, local: true })
      this.keepInJournal()
      this.changed()
      return Promise.resolve()
    }
    const group = this.done.pop() ?? null
    if (!group && !this.serverHistory.canUndo) return Promise.resolve()
    const request: Request = { kind: 'undo', group }
    if (group) {
      const redo = this.applyHere(
        group.entries.map((entry) => entry.inverse).reverse(),
        'undo',
        request,
      )
      // the commands put back by redo are the group's own; their inverses are those heard now
      this.undone.push({ ...group, entries: group.entries.map((entry, i) => ({ command: entry.command, inverse: redo[group.entries.length - 1 - i] })) })
    }
    this.requests.push(request)
    this.changed()
    return this.pump(false)
  }

  /** Redoes the latest undone change at once in the store, and on the server next when it holds it. */
  redo(): Promise<void> {
    if (this.closed) return Promise.resolve()
    const group = this.undone.pop() ?? null
    if (group?.local) {
      const inverses = this.applyHere(
        group.entries.map((entry) => entry.command),
        'redo',
        null,
      )
      group.entries.forEach((entry, i) => this.queueEntry({ command: entry.command, inverse: inverses[i] }))
      this.keepInJournal()
      this.changed()
      return Promise.resolve()
    }
    if (!group && !this.serverHistory.canRedo) return Promise.resolve()
    const request: Request = { kind: 'redo', group }
    if (group) {
      const inverses = this.applyHere(
        group.entries.map((entry) => entry.command),
        'redo',
        request,
      )
      this.done.push({ ...group, entries: group.entries.map((entry, i) => ({ command: entry.command, inverse: inverses[i] })) })
    }
    this.requests.push(request)
    this.changed()
    return this.pump(false)
  }

  /**
   * The user's edits the server has not accepted, in order, for the workbook reopened after
   * `onReload`; this sync sends nothing more.
   */
  takeUnaccepted(): WorkbookCommand[] {
    this.closed = true
    const commands = this.log.filter((item) => item.request === null || item.request.kind === 'changes').map((item) => item.command)
    this.log = []
    this.requests = []
    return commands
  }

  /** Applies commands to the store for undo or redo, logged against `request`; returns their inverses. */
  private applyHere(commands: readonly WorkbookCommand[], origin: 'undo' | 'redo', request?: Request | null): WorkbookCommand[] {
    const inverses: WorkbookCommand[] = []
    this.capturing = inverses
    try {
      for (const command of commands) {
        this.store.dispatch(command, origin)
        if (request !== undefined) this.log.push({ command, request })
      }
    } catch (error) {
      // the workbook here changed under the history (another tab, the assistant): take the server's
      console.warn(`Could not ${origin} here`, error)
      this.reload()
    } finally {
      this.capturing = null
    }
    return inverses
  }

  private pump(keepalive: boolean): Promise<void> {
    const run = this.tail.catch(() => undefined).then(() => this.run(keepalive))
    this.tail = run
    return run
  }

  private async run(keepalive: boolean): Promise<void> {
    while (this.requests.length > 0 && !this.closed) {
      const request = this.requests[0]
      this.sending = true
      this.changed()
      try {
        await this.send(request, keepalive)
        this.failure = null
      } catch (error) {
        if (this.closed) return
        if (isPassingFailure(error)) {
          this.failure = isUnreachable(error) ? 'offline' : 'unavailable'
          throw error
        }
        // refused: the browser's workbook no longer matches the server's
        this.failure = 'refused'
        this.requests.shift()
        this.acknowledge(request)
        this.reload()
        throw error
      } finally {
        this.sending = false
        this.keepInJournal()
        this.changed()
      }
      this.requests.shift()
    }
  }

  private async send(request: Request, keepalive: boolean): Promise<void> {
    const path = `/spreadsheet/workbook/${encodeURIComponent(this.store.id)}`
    if (request.kind === 'changes') {
      const commands = request.group.entries.map((entry) => entry.command)
      const answer = await this.api.post<ChangeResponse>(`${path}/changes`, { commands, revision: this.revision }, { keepalive: keepalive && JSON.stringify(commands).length < 60_000 })
      if (this.closed) return
      this.revision = answer.revision
      request.group.changeId = answer.changeId
      this.serverHistory.canRedo = false
      this.acknowledge(request)
      this.applyAnswer([...answer.changedCells, ...answer.concurrentChanges])
      return
    }
    let answer: UndoRedoResponse
    try {
      answer = await this.api.post<UndoRedoResponse>(`${path}/${request.kind}`, { revision: this.revision })
    } catch (error) {
      // 409: the server has nothing to undo or redo
      if (errorStatus(error) !== 409 || this.closed) throw error
      this.serverHistory = request.kind === 'undo' ? { ...this.serverHistory, canUndo: false } : { ...this.serverHistory, canRedo: false }
      this.acknowledge(request)
      // what was undone here is not what the server holds
      if (request.group) this.reload()
      return
    }
    if (this.closed) return
    this.revision = answer.revision
    this.serverHistory = { canUndo: answer.canUndo, canRedo: answer.canRedo }
    this.acknowledge(request)
    this.onHistory?.(request.kind, answer.target.changeId)
    const same = request.group !== null && request.group.changeId !== null && answer.target.changeId === request.group.changeId && answer.skipped.length === 0
    if (request.group ? !same : answer.structureChanged) {
      // the server undid something else than this browser did, or moved rows and sheets it cannot follow
      this.reload()
      return
    }
    this.applyAnswer([...answer.changedCells, ...answer.concurrentChanges])
  }

  /** Forgets the logged commands a request carried: the server has them now, or never will. */
  private acknowledge(request: Request): void {
    this.log = this.log.filter((item) => item.request !== request)
  }

  private reload(): void {
    if (this.closed) return
    this.closed = true
    this.onReload?.()
  }

  /** Shows the server's cells, each followed through the edits it has not seen yet. */
  private applyAnswer(cells: readonly ChangedCell[]): void {
    if (cells.length === 0) return
    const follower = new CellFollower(this.log.map((item) => item.command))
    const changes: ServerCellChange[] = []
    for (const cell of cells) {
      const change = toServerCellChange(cell)
      if (follower.isEmpty) {
        changes.push(change)
        continue
      }
      const pos = parseCellAddress(cell.address)
      if (!pos) continue
      const followed = follower.follow({ sheet: cell.sheet, ...pos })
      // a cell deleted or typed over since keeps what the browser shows
      if (!followed.cell || followed.written) continue
      const moved = { ...change, sheet: followed.cell.sheet, address: cellAddress(followed.cell) }
      // a formula's text names cells as they were: the browser's engine has rewritten it for the rows
      // and sheets moved since, so only its value is taken
      if (follower.restructures && change.input?.startsWith('=')) delete moved.input
      changes.push(moved)
    }
    this.store.applyServerChanges(changes)
  }

  private keepInJournal(): void {
    if (!this.journal || this.closed) return
    const onTheirWay = this.sending && this.requests[0]?.kind === 'changes' ? this.requests[0] : null
    const unconfirmed = this.log.filter((item) => item.request !== null && item.request === onTheirWay).map((item) => item.command)
    const queued = this.log.filter((item) => item.request === null || (item.request.kind === 'changes' && item.request !== onTheirWay)).map((item) => item.command)
    this.journal.save(unconfirmed, queued)
  }

  private changed(): void {
    this.onStatus(this.current)
  }
}
