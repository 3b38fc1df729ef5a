import type { ChangedCell, ChangeResponse, InputsResponse, UndoRedoResponse } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'
import { ApiError, isPassingFailure } from '../api/api-client'
import type { CellStyle } from '../grid/types'
import type { SetCellsCommand, WorkbookCommand } from '@finsheet/contracts'
import type { PendingEdits } from './pending-edits'
import type { AppliedChange, ServerCellChange, WorkbookSnapshot, WorkbookStore } from './workbook-store'

/** The most commands one change may carry (the spreadsheet service's limit). */
const COMMANDS_PER_CHANGE = 1000

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
  const { workbook } = answer
  const byName = new Map(workbook.sheets.map((sheet) => [sheet.name, sheet]))
  const order = [...workbook.sheetOrder.filter((name) => byName.has(name)), ...workbook.sheets.map((s) => s.name).filter((n) => !workbook.sheetOrder.includes(n))]
  return {
    revision: workbook.revision,
    sheetOrder: order,
    snapshot: {
      id: workbook.workbookId,
      name: workbook.name,
      sheets: order.map((name) => {
        const sheet = byName.get(name)!
        const cells: WorkbookSnapshot['sheets'][number]['cells'] = {}
        for (const [address, input, style, format] of sheet.cells) {
          const entry: WorkbookSnapshot['sheets'][number]['cells'][string] = {}
          if (input !== '') entry.input = input
          if (style >= 0) entry.style = workbook.styles[style] as CellStyle
          if (format !== '') entry.format = format
          cells[address] = entry
        }
        return { name, cells, columnWidths: sheet.columnWidths, merges: sheet.merges, rowCount: sheet.rowCount, columnCount: sheet.columnCount }
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

export interface SyncStatus {
  /** commands typed but not yet accepted by the server */
  pending: number
  saving: boolean
  canUndo: boolean
  canRedo: boolean
}

/** The outcome of a server undo or redo: whether rows, columns or sheets changed (the workbook must be reopened). */
export interface HistoryOutcome {
  applied: boolean
  structureChanged: boolean
}

/**
 * Keeps a workbook of the spreadsheet service in step with its store: the user's commands are
 * queued as they happen and sent as one change when `flush` is called (after the 3 s debounce,
 * on a sheet switch, page hide or sign-out); the server's answer — every cell whose value changed,
 * on every sheet — is authoritative. Undo and redo are the server's, so they undo whole changes
 * (a paste, an AI changeset) the same way for every client. With a `journal`, what the server has not
 * accepted yet (queued or on its way) is also kept in the browser until it is.
 */
export class ServerWorkbookSync {
  private readonly api: ApiClient
  private readonly store: WorkbookStore
  private readonly onStatus: (status: SyncStatus) => void
  private revision: number
  private queue: WorkbookCommand[] = []
  /** commands sent and not yet answered */
  private inFlight: WorkbookCommand[] = []
  private readonly journal: PendingEdits | null
  /** cells edited since the last send: the server's older inputs must not overwrite them */
  private unsent = new Map<string, Set<string>>()
  private sending: Promise<void> | null = null
  private status: SyncStatus = { pending: 0, saving: false, canUndo: false, canRedo: false }

  constructor(
    api: ApiClient,
    store: WorkbookStore,
    revision: number,
    onStatus: (status: SyncStatus) => void,
    history: Partial<SyncStatus> = {},
    journal: PendingEdits | null = null,
  ) {
    this.api = api
    this.store = store
    this.revision = revision
    this.onStatus = onStatus
    this.journal = journal
    this.status = { ...this.status, canUndo: history.canUndo ?? false, canRedo: history.canRedo ?? false }
  }

  get current(): SyncStatus {
    return this.status
  }

  get hasPending(): boolean {
    return this.queue.length > 0
  }

  /** Takes a change the user made in the store. */
  record(change: AppliedChange): void {
    if (change.origin !== 'user') return
    this.queue.push(change.command)
    this.markUnsent([change.command])
    this.keepInJournal()
    this.setStatus({ pending: this.queue.length, canUndo: true, canRedo: false })
  }

  private markUnsent(commands: readonly WorkbookCommand[]): void {
    for (const { sheet, address } of commands.flatMap(touchedCells)) {
      const set = this.unsent.get(sheet) ?? new Set<string>()
      set.add(address)
      this.unsent.set(sheet, set)
    }
  }

  private keepInJournal(): void {
    this.journal?.save(this.inFlight, this.queue)
  }

  /**
   * Sends everything queued as one change (or a few, past the service's per-change limit).
   * Throws the API error when the server refused; commands that failed for a passing reason
   * (network, 5xx, 429) stay queued for the next flush.
   */
  async flush(keepalive = false): Promise<void> {
    if (this.sending) await this.sending.catch(() => undefined)
    if (this.queue.length === 0) return
    const commands = this.queue
    this.queue = []
    this.inFlight = commands
    this.unsent = new Map()
    const send = async () => {
      this.setStatus({ saving: true, pending: 0 })
      let accepted = 0
      try {
        for (let i = 0; i < commands.length; i += COMMANDS_PER_CHANGE) {
          const part = commands.slice(i, i + COMMANDS_PER_CHANGE)
          const answer = await this.api.post<ChangeResponse>(
            `/spreadsheet/workbook/${encodeURIComponent(this.store.id)}/changes`,
            { commands: part, revision: this.revision },
            { keepalive: keepalive && JSON.stringify(part).length < 60_000 },
          )
          accepted = i + part.length
          this.inFlight = commands.slice(accepted)
          this.keepInJournal()
          this.revision = answer.revision
          this.applyAnswer([...answer.changedCells, ...answer.concurrentChanges])
        }
      } catch (error) {
        // Parts the server accepted are not sent twice; the rest waits for the next flush.
        if (isPassingFailure(error)) {
          const unaccepted = commands.slice(accepted)
          this.queue = [...unaccepted, ...this.queue]
          this.markUnsent(unaccepted)
        }
        throw error
      } finally {
        this.inFlight = []
        this.keepInJournal()
        this.setStatus({ saving: false, pending: this.queue.length })
      }
    }
    this.sending = send()
    try {
      await this.sending
    } finally {
      this.sending = null
    }
  }

  async undo(): Promise<HistoryOutcome> {
    return this.history('undo')
  }

  async redo(): Promise<HistoryOutcome> {
    return this.history('redo')
  }

  private async history(action: 'undo' | 'redo'): Promise<HistoryOutcome> {
    await this.flush()
    try {
      const answer = await this.api.post<UndoRedoResponse>(`/spreadsheet/workbook/${encodeURIComponent(this.store.id)}/${action}`, {
        revision: this.revision,
      })
      this.revision = answer.revision
      this.setStatus({ canUndo: answer.canUndo, canRedo: answer.canRedo })
      if (!answer.structureChanged) this.applyAnswer([...answer.changedCells, ...answer.concurrentChanges])
      return { applied: true, structureChanged: answer.structureChanged }
    } catch (error) {
      // 409: nothing left to undo or redo
      if (error instanceof ApiError && error.status === 409) {
        this.setStatus(action === 'undo' ? { canUndo: false } : { canRedo: false })
        return { applied: false, structureChanged: false }
      }
      throw error
    }
  }

  private applyAnswer(cells: readonly ChangedCell[]): void {
    if (cells.length === 0) return
    const changes = cells.map(toServerCellChange).map((change) => {
      // a cell edited again since this change was sent keeps its newer local input
      if (this.unsent.get(change.sheet)?.has(change.address)) return { sheet: change.sheet, address: change.address, value: undefined }
      return change
    })
    this.store.applyServerChanges(changes)
  }

  private setStatus(patch: Partial<SyncStatus>): void {
    this.status = { ...this.status, ...patch }
    this.onStatus(this.status)
  }
}

/** The cells a command writes, by sheet and address (structure commands touch none one by one). */
function touchedCells(command: WorkbookCommand): { sheet: string; address: string }[] {
  if (command.type === 'set-cells') return (command as SetCellsCommand).cells.map((cell) => ({ sheet: command.sheet, address: cell.address }))
  if (command.type === 'batch') return command.commands.flatMap(touchedCells)
  return []
}
