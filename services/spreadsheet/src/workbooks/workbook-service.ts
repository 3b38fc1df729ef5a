/**
 * Workbooks and their changes. Every change runs under the workbook's lock: the open engine applies
 * it and recalculates, then the changed inputs and values, the change log entry, the cells' history
 * and the new revision are stored in one transaction that only succeeds on the revision the engine
 * was at. A replica whose engine is behind reloads it; a failed write drops the engine.
 */
import { DuplicateKeyError, type AuthUser, type DocumentTransaction, type Logger } from '@finsheet/platform'
import type { CellEdit, CellRef, ChangeKind, ChangeSource, ChangedCell, ImportRecalculation, WorkbookCommand, WorkbookFont } from '@finsheet/contracts'
import {
  clearedCell,
  CommandError,
  formatAddress,
  mapSheetRefs,
  mayRestructure,
  newSheetId,
  rebaseCommands,
  type LayoutStep,
  moveAddress,
  parseAddress,
  sameAfterMove,
  sameRecord,
  sameStyle,
  sortedCells,
  toChangedCell,
  type CellRecord,
  type SheetSnapshot,
  type StreamedSnapshot,
  type StructuralEdit,
  type WorkbookSnapshot,
} from '@finsheet/workbook'
import { MAX_UPDATES_PER_CHANGE } from '@finsheet/contracts'
import { isBudgetError, type CellChange } from '@finsheet/formula'
import { spreadsheetErrors } from '../errors.js'
import { describeLogged, fromStoredCommand, isReplacement, type LoggedCommand } from '../engine/commands.js'
import type { EngineCache } from '../engine/engine-cache.js'
import { newWorkbookId } from '../engine/ids.js'
import { KeyedLock } from '../engine/keyed-lock.js'
import { checkChange } from '../engine/translate.js'
import { calculationOptions, cellKey, splitKey, WorkbookState, type ApplyResult } from '../engine/workbook-state.js'
import type { StructureMove } from '@finsheet/workbook'
import type { PerformanceMetrics } from '../metrics/performance-metrics.js'
import { BLOCK_ROWS, BlockBuilder, rowMajorCells, type CellBlockDoc, type CellPut, type StoredRecord } from '../storage/cell-blocks.js'
import { deleteFrom, identityLayout, insertInto, INSERTED_COLUMNS_FROM, INSERTED_ROWS_FROM, isIdentityLayout, needsRewrite, type SheetLayout } from '../storage/sheet-layout.js'
import type { CellHistoryDoc, ChangeDoc, ImportDoc, KeptDrawingRecord, SheetStats, TrashedWorkbookDoc, WorkbookDoc } from '../storage/documents.js'
import { GroupCommitter, RevisionConflict } from '../storage/group-commit.js'
import type { SnapshotStore } from '../storage/snapshot-store.js'
import { changeId, historyDocId, importDocId, type SpreadsheetRepository } from '../storage/spreadsheet-repository.js'

/** Per-cell history is kept for changes up to this size; larger ones (a restore, a huge paste) are in the change log only. */
const HISTORY_CELL_LIMIT = 10_000
/** A stale edit is merged cell by cell over at most this many newer changes; further behind, the client is told to reload. */
const MERGE_WINDOW = 1000
const DELETE_CHUNK = 500
/** Blocks a new workbook writes per transaction; one that needs more is stored in several, made visible by the last. */
const BLOCKS_PER_TRANSACTION = 400
/**
 * Blocks a new workbook hands the store at once. Small: blocks written soon after they are built die
 * young, where a whole transaction's worth held meanwhile would be promoted to the old generation
 * (hundreds of MB of garbage on a million-cell import).
 */
const BLOCKS_PER_WRITE = 32
/** A new workbook larger than this gets its first version after the answer. */
const BACKGROUND_AFTER_CELLS = 20_000
const WRITE_ATTEMPTS = 4
/** Formulas stopped by their budget that a change's message names, with why. */
const MAX_LISTED_BUDGET_ERRORS = 3


export interface ChangeOutcome {
  workbook: WorkbookDoc
  state: WorkbookState
  revision: number
  baseRevision: number
  changeId: string
  changedCells: ChangedCell[]
  structureChanged: boolean
  merged: boolean
  conflicts: CellRef[]
  concurrentChanges: ChangedCell[]
  message: string
  /** Cells an undo or redo left alone. */
  skipped: CellRef[]
  label: string
  kind: ChangeKind
  source: ChangeSource
  target: ChangeTarget | null
}

/** What a change does, prepared against the open workbook under the lock. */
interface PreparedChange {
  kind: ChangeKind
  source: ChangeSource
  label?: string
  summary?: string | null
  clientId?: string | null
  /** Applies the change to the state; throws on bad input, having applied nothing. */
  apply(state: WorkbookState): LoggedResult
  fullDiff: boolean
  /**
   * The change starts with an insertion or deletion of rows or columns and nothing after it moves
   * cells or sheets: it is stored through the sheet's layout, without comparing every cell.
   */
  layoutMove?: boolean
  /** An undo marks its target undone; a redo marks its undo redone. */
  mark?: { changeId: string; field: 'undone' | 'redone' }
  /** The change an undo or redo acts on. */
  target?: ChangeTarget
  skipped?: CellRef[]
}

export interface ChangeTarget {
  changeId: string
  label: string
  revision: number
}

export interface ChangeRequest {
  /** The API's commands, or a function building them from the open workbook (to default a sheet name). */
  commands: WorkbookCommand[] | ((state: WorkbookState) => WorkbookCommand[])
  revision?: number
  label?: string
  source?: ChangeSource
  summary?: string
  /** The client (browser tab) making the change, so that its undo reverts its own changes. */
  clientId?: string
}

/** Something to run after a change is stored, still under the workbook's lock (a version). */
export type AfterCommit = (outcome: ChangeOutcome) => Promise<void>

/** Whoever wants to hear about stored changes (the auto-save scheduler, the search index). */
export interface ChangeListener {
  changed(workbook: WorkbookDoc, user: AuthUser, outcome: ChangeOutcome): void
  /** A new workbook was stored: created, imported or copied. */
  created?(workbook: WorkbookDoc, user: AuthUser): void
  deleted?(workbookId: string, user: AuthUser): void
}

export type NewWorkbook = ({ snapshot: WorkbookSnapshot } | { state: WorkbookState }) & {
  name: string
  templateId?: string | null
  isAIGenerated?: boolean
  /** Iterate circular references instead of showing #CIRC!; a `state` given must already be built so. */
  iterativeCalculation?: boolean
  storageUrl?: string | null
  kind: 'create' | 'import'
  label: string
  /** Names an import so that a repeated request answers with the first one's workbook. */
  importId?: string
  /** The import's check against the file's cached values, kept for a repeated request. */
  recalculation?: ImportRecalculation
  /** Makes it the user's first workbook: creating it fails with DuplicateKeyError when they have one. */
  isDefault?: boolean
  /** Charts and pictures kept from an imported file (stored already), by the ids of the sheets they sit on. */
  keptDrawings?: KeptDrawingRecord[]
  /** The font of cells that state none, from an imported file. */
  defaultFont?: WorkbookFont
}

export interface CreatedWorkbook {
  workbook: WorkbookDoc
  /** An earlier request with the same import id stored it. */
  repeated: boolean
  recalculation: ImportRecalculation | null
}

/** A new workbook's default font: the import's, or the one of the workbook it copies. */
function defaultFontOf(input: NewWorkbook): { defaultFont?: WorkbookFont } {
  const font = input.defaultFont ?? ('snapshot' in input ? input.snapshot.defaultFont : undefined)
  return font ? { defaultFont: { family: font.family, size: font.size } } : {}
}

const emptyRecalculation = (): ImportRecalculation => ({ checked: 0, matched: 0, mismatchCount: 0, mismatches: [] })

/** A change as the log keeps it: the model's result, or a whole stored workbook put in place. */
interface LoggedResult extends Omit<ApplyResult, 'applied' | 'inverse'> {
  applied: LoggedCommand[]
  inverse: LoggedCommand[]
}

/** The sheet (by id) a logged command acts on; none for a sheet it adds or a whole workbook. */
function sheetOf(command: LoggedCommand): string | undefined {
  switch (command.type) {
    case 'replace-workbook':
    case 'add-sheet':
    case 'batch':
    case 'set-calculation':
      return undefined
    case 'rename-sheet':
      return command.from
    case 'delete-sheet':
    case 'move-sheet':
      return command.name
    default:
      return command.sheet
  }
}

export function displayName(user: AuthUser): string {
  return user.name ?? user.email ?? (user.anonymous ? 'Anonymous user' : user.uid)
}

function cellPut(sheetId: string, address: string, record: CellRecord | null): CellPut {
  if (record) return { sheetId, address, row: record.row, col: record.col, record }
  const { row, col } = parseAddress(address)
  return { sheetId, address, row, col, record: null }
}

/** A sheet's layout after a row or column edit: the inserted rows (columns) take new stored ones, the deleted ones leave it. */
function movedLayout(layout: SheetLayout, move: StructureMove): { layout: SheetLayout } {
  const { edit } = move
  if (edit.axis === 'rows') {
    if (edit.kind === 'insert') return { layout: { ...layout, rows: insertInto(layout.rows, edit.at, edit.count, layout.nextRow), nextRow: layout.nextRow + edit.count } }
    return { layout: { ...layout, rows: deleteFrom(layout.rows, edit.at, edit.count).map } }
  }
  if (edit.kind === 'insert') return { layout: { ...layout, columns: insertInto(layout.columns, edit.at, edit.count, layout.nextColumn), nextColumn: layout.nextColumn + edit.count } }
  return { layout: { ...layout, columns: deleteFrom(layout.columns, edit.at, edit.count).map } }
}

/** The row and column insertions and deletions among applied commands, in order, by sheet. */
function structuralEdits(commands: LoggedCommand[]): Map<string, StructuralEdit[]> {
  const edits = new Map<string, StructuralEdit[]>()
  for (const command of commands) {
    if (command.type !== 'insert-rows' && command.type !== 'delete-rows' && command.type !== 'insert-columns' && command.type !== 'delete-columns') continue
    let list = edits.get(command.sheet)
    if (!list) edits.set(command.sheet, (list = []))
    list.push({
      axis: command.type.endsWith('rows') ? 'rows' : 'columns',
      kind: command.type.startsWith('insert') ? 'insert' : 'delete',
      at: command.at,
      count: command.count,
    })
  }
  return edits
}

/** The records by the keys of where the sheets' row and column edits moved them (deleted ones gone). */
function recordsAfterMoves(before: Map<string, CellRecord>, moves: Map<string, StructuralEdit[]>): Map<string, CellRecord> {
  const moved = new Map<string, CellRecord>()
  for (const [key, record] of before) {
    const { sheetId } = splitKey(key)
    const edits = moves.get(sheetId)
    if (!edits) {
      moved.set(key, record)
      continue
    }
    let position: { row: number; col: number } | undefined = { row: record.row, col: record.col }
    for (const edit of edits) {
      position = moveAddress(position.row, position.col, edit)
      if (!position) break
    }
    // Kept as it was (its address is the old one); the key says where it is now.
    if (position) moved.set(cellKey(sheetId, formatAddress(position.row, position.col)), record)
  }
  return moved
}

/**
 * What happened to the layout of a workbook in changes after a revision: row, column and sheet edits
 * in order, with each sheet's name at the revision; 'replaced' when a version was restored meanwhile.
 */
function layoutSince(newer: readonly ChangeDoc[], sheetsNow: readonly { id: string; name: string }[]): { steps: LayoutStep[]; namesAtBase: Map<string, string> } | 'replaced' {
  const names = new Map(sheetsNow.map((sheet) => [sheet.id, sheet.name]))
  // Back from now to the revision: undo each change's renames, additions and deletions.
  for (const change of [...newer].reverse()) {
    const commands = readLogged(change.commands)
    if (commands.some(isReplacement)) return 'replaced'
    const inverse = readLogged(change.inverse ?? [])
    for (const command of [...commands].reverse()) {
      if (command.type === 'rename-sheet') {
        const back = inverse.find((step): step is Extract<WorkbookCommand, { type: 'rename-sheet' }> => step.type === 'rename-sheet' && step.from === command.from)
        if (back) names.set(command.from, back.to)
      } else if (command.type === 'add-sheet' && command.id !== undefined) names.delete(command.id)
      else if (command.type === 'delete-sheet') {
        const readd = inverse.find((step): step is Extract<WorkbookCommand, { type: 'add-sheet' }> => step.type === 'add-sheet' && step.id === command.name)
        if (readd) names.set(command.name, readd.name)
      }
    }
  }
  const namesAtBase = new Map(names)
  const steps: LayoutStep[] = []
  for (const change of newer) {
    for (const command of readLogged(change.commands)) {
      switch (command.type) {
        case 'insert-rows':
        case 'delete-rows':
        case 'insert-columns':
        case 'delete-columns':
          steps.push({
            type: 'structure',
            sheetId: command.sheet,
            sheetName: names.get(command.sheet) ?? command.sheet,
            edit: { axis: command.type.endsWith('rows') ? 'rows' : 'columns', kind: command.type.startsWith('insert') ? 'insert' : 'delete', at: command.at, count: command.count },
          })
          break
        case 'rename-sheet':
          steps.push({ type: 'rename', sheetId: command.from, from: names.get(command.from) ?? command.from, to: command.to })
          names.set(command.from, command.to)
          break
        case 'delete-sheet':
          steps.push({ type: 'delete-sheet', sheetId: command.name, sheetName: names.get(command.name) ?? command.name })
          names.delete(command.name)
          break
        case 'add-sheet':
          if (command.id !== undefined) names.set(command.id, command.name)
          break
        default:
          break
      }
    }
  }
  return { steps, namesAtBase }
}

/** A command whose sheets added within the same change get ids now, so later commands can name them by id. */
function withNewSheetIds(command: WorkbookCommand, ids: Map<string, string>): WorkbookCommand {
  if (command.type === 'add-sheet') {
    const id = command.id ?? newSheetId()
    ids.set(command.name.trim().toUpperCase(), id)
    return { ...command, id }
  }
  if (command.type === 'rename-sheet') {
    const id = ids.get(command.from.toUpperCase())
    if (id !== undefined) ids.set(command.to.trim().toUpperCase(), id)
    return command
  }
  if (command.type === 'batch') return { ...command, commands: command.commands.map((inner) => withNewSheetIds(inner, ids) as typeof inner) }
  return command
}

/** Commands as the log stored them, in today's form whatever version stored them. */
function readLogged(commands: readonly LoggedCommand[]): LoggedCommand[] {
  return commands.flatMap((command) => fromStoredCommand(command))
}

/** Whether replaying commands may move cells, so that cells are compared in full. */
const isReplacementOrRestructure = (command: LoggedCommand) => isReplacement(command) || mayRestructure(command)

const isRowColumnEdit = (command: LoggedCommand) =>
  command.type === 'insert-rows' || command.type === 'delete-rows' || command.type === 'insert-columns' || command.type === 'delete-columns'

/** Commands that start with a row or column edit and move nothing else (an insertion, or a deletion's undo). */
const startsWithLoneMove = (commands: readonly LoggedCommand[]) =>
  commands.length > 0 && isRowColumnEdit(commands[0]) && !commands.slice(1).some(isReplacementOrRestructure)

/** A stored cell without where it lives. */
/** A stored workbook's snapshot but its sheets. */
function snapshotHead(workbook: WorkbookDoc): Omit<WorkbookSnapshot, 'sheets'> {
  return {
    format: 'finsheet-workbook',
    formatVersion: 1,
    name: workbook.name,
    revision: workbook.revision,
    definedNames: workbook.definedNames,
    ...(workbook.tables && workbook.tables.length > 0 ? { tables: workbook.tables } : {}),
    charts: workbook.charts,
    ...(workbook.externalLinks && workbook.externalLinks.length > 0 ? { externalLinks: workbook.externalLinks } : {}),
    ...(workbook.defaultFont ? { defaultFont: workbook.defaultFont } : {}),
  }
}

function fromStored(stored: StoredRecord): CellRecord {
  const { sheetId: _sheetId, revision: _revision, ...record } = stored
  return record
}

export class WorkbookService {
  readonly lock = new KeyedLock()
  /** One creation of a user's first workbook at a time in this process. */
  private readonly defaultLock = new KeyedLock()
  private listeners: ChangeListener[] = []
  private readonly committer: GroupCommitter
  /** The newest change of each workbook that is applied but not durable yet. */
  private readonly pending = new Map<string, { revision: number; durable: Promise<void> }>()

  constructor(
    private readonly repo: SpreadsheetRepository,
    private readonly snapshots: SnapshotStore,
    private readonly cache: EngineCache,
    private readonly metrics: PerformanceMetrics,
    private readonly logger?: Pick<Logger, 'error'>,
  ) {
    this.committer = new GroupCommitter(repo.store)
  }

  /** Transactions the group committer flushed, and the changes they carried. */
  commitStats(): { commits: number; writes: number; refused: number } {
    return { ...this.committer.stats }
  }

  onChange(listener: ChangeListener): void {
    this.listeners.push(listener)
  }

  // ---- reading --------------------------------------------------------------------------------------

  /** The user's workbook, or 404 for one that is missing or someone else's. */
  async requireWorkbook(id: string, user: AuthUser): Promise<WorkbookDoc> {
    const workbook = await this.repo.ownedWorkbook(id, user.uid)
    if (!workbook) throw spreadsheetErrors.workbookNotFound()
    return workbook
  }

  /** One sheet's records, read from the store alone (other sheets are not touched). */
  async sheetRecords(workbook: WorkbookDoc, sheetId: string): Promise<CellRecord[]> {
    return sortedCells((await this.repo.sheetCells(workbook.id, sheetId, workbook.layouts?.[sheetId])).map(fromStored))
  }

  /**
   * Reads a workbook's stored cells through its sheets' row and column maps, and again through the maps
   * stored now when a change moved rows or columns meanwhile (at most WRITE_ATTEMPTS times, and not once
   * `sheetId`, when given, is gone). Answers what was read and the workbook whose maps it was read through.
   */
  async readThroughLayouts<T>(workbook: WorkbookDoc, read: (layouts: WorkbookDoc['layouts']) => Promise<T>, sheetId?: string): Promise<{ workbook: WorkbookDoc; read: T }> {
    let result = await read(workbook.layouts)
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const now = await this.repo.workbooks().get(workbook.id)
      if (!now || (sheetId !== undefined && !now.sheets.some((sheet) => sheet.id === sheetId))) break
      if (JSON.stringify(now.layouts ?? {}) === JSON.stringify(workbook.layouts ?? {})) break
      workbook = now
      result = await read(workbook.layouts)
    }
    return { workbook, read: result }
  }

  /** The stored workbook as a snapshot (export, compare, versions of a workbook not open here). */
  async storedSnapshot(workbook: WorkbookDoc, onlySheetId?: string): Promise<WorkbookSnapshot> {
    const held = await this.readThroughLayouts(
      workbook,
      (layouts) => (onlySheetId ? this.repo.sheetCells(workbook.id, onlySheetId, layouts?.[onlySheetId]) : this.repo.workbookCells(workbook.id, layouts)),
      onlySheetId,
    )
    workbook = held.workbook
    const docs = held.read
    const bySheet = new Map<string, CellRecord[]>()
    for (const doc of docs) {
      let list = bySheet.get(doc.sheetId)
      if (!list) bySheet.set(doc.sheetId, (list = []))
      list.push(fromStored(doc))
    }
    const sheets: SheetSnapshot[] = workbook.sheets
      .filter((sheet) => onlySheetId === undefined || sheet.id === onlySheetId)
      .map((sheet) => ({ ...sheet, cells: sortedCells(bySheet.get(sheet.id) ?? []) }))
    return { ...snapshotHead(workbook), sheets }
  }

  /**
   * The stored workbook as a snapshot whose sheets' cells are decoded as they are iterated, in row-major
   * order a band of rows at a time (see rowMajorCells), as the stored records themselves: for a reader
   * that writes each cell out as it comes (the inputs route), which then never holds a million decoded
   * cells. Only `sheets[].cells` differs from storedSnapshot's.
   */
  async storedSnapshotInBands(workbook: WorkbookDoc, onlySheetId?: string): Promise<StreamedSnapshot> {
    const { workbook: read, read: blocks } = await this.readThroughLayouts(workbook, () => this.repo.cellBlocks(workbook.id, onlySheetId), onlySheetId)
    const sheets = read.sheets
      .filter((sheet) => onlySheetId === undefined || sheet.id === onlySheetId)
      .map((sheet) => ({ ...sheet, cells: rowMajorCells(sheet.id, blocks, read.layouts?.[sheet.id]) }))
    return { ...snapshotHead(read), sheets }
  }

  /** The open workbook at the stored revision: from the cache, or loaded from the store. */
  private async open(workbook: WorkbookDoc, revision = workbook.revision): Promise<WorkbookState> {
    const cached = this.cache.get(workbook.id, revision)
    if (cached) return cached
    let doc = workbook
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const started = performance.now()
      const cells = await this.repo.workbookCells(doc.id, doc.layouts)
      // Another replica may have written between reading the document and its cells: load again then.
      const again = await this.repo.workbooks().get(doc.id)
      if (!again) throw spreadsheetErrors.workbookNotFound()
      if (again.revision !== doc.revision) {
        doc = again
        continue
      }
      const state = WorkbookState.load(doc, cells)
      this.metrics.recordLoad(performance.now() - started)
      this.cache.set(doc.id, state)
      return state
    }
    throw spreadsheetErrors.busy()
  }

  /** Runs `work` on the open workbook under its lock, for reads that need the engine and metadata writes. */
  withOpenWorkbook<T>(id: string, user: AuthUser, work: (workbook: WorkbookDoc, state: WorkbookState) => Promise<T>): Promise<T> {
    return this.lock.run(id, async () => {
      await this.settle(id)
      const workbook = await this.requireWorkbook(id, user)
      const state = await this.open(workbook)
      return work(workbook, state)
    })
  }

  /**
   * Forgets the open workbook, so that the next request loads it from the store: for work under the
   * lock that applied commands nobody stores and could not undo them.
   */
  discardOpenWorkbook(id: string): void {
    this.cache.drop(id)
  }

  /**
   * Changes workbook fields that are not cells (charts) under the lock, without a new revision. The
   * write only succeeds on the revision the state is at; otherwise the state is reloaded and `mutate`
   * runs again.
   */
  async updateMetadata<T>(id: string, user: AuthUser, mutate: (state: WorkbookState, workbook: WorkbookDoc) => T): Promise<T> {
    return this.lock.run(id, async () => {
      await this.settle(id)
      for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
        const workbook = await this.requireWorkbook(id, user)
        const state = await this.open(workbook)
        const result = mutate(state, workbook)
        const updated = await this.repo.workbooks().update({ id, revision: workbook.revision }, { charts: state.charts, updatedAt: new Date().toISOString() })
        if (updated === 1) return result
        this.cache.drop(id)
      }
      throw spreadsheetErrors.busy()
    })
  }

  // ---- creating ---------------------------------------------------------------------------------------

  /**
   * Stores a new workbook (blank, a template, an import), then runs `afterCreate` (its first version)
   * under the workbook's lock: at once for a small workbook, after answering for a large one, so that
   * edits queue behind it either way. A small workbook is one transaction; a large one writes its
   * blocks in several and becomes visible with the last, which stores the workbook document: no reader
   * ever sees part of it. An import with an id already stored answers with that workbook instead.
   */
  async createWorkbook(user: AuthUser, input: NewWorkbook, afterCreate?: (workbook: WorkbookDoc, state: WorkbookState) => Promise<void>): Promise<CreatedWorkbook> {
    if (input.importId !== undefined) {
      const earlier = await this.findImport(user, input.importId)
      if (earlier) return earlier
    }
    const id = newWorkbookId()
    let state: WorkbookState
    if ('state' in input) state = input.state
    else {
      const started = performance.now()
      state = WorkbookState.fromSnapshot(input.snapshot, 1, calculationOptions(input.iterativeCalculation))
      this.metrics.recordRecalculation(performance.now() - started, 0)
    }
    state.revision = 1
    const now = new Date().toISOString()
    const writeStarted = performance.now()
    const importDoc: ImportDoc | undefined =
      input.importId === undefined
        ? undefined
        : { id: importDocId(user.uid, input.importId), ownerId: user.uid, importId: input.importId, workbookId: id, at: now, recalculation: input.recalculation ?? emptyRecalculation() }
    const written = { cells: 0 }
    let workbook: WorkbookDoc | undefined
    let pending = false
    try {
      const chunks = this.newBlocks(id, state, written)
      let chunk = chunks.next()
      let documents: { workbook: WorkbookDoc; change: ChangeDoc } | undefined
      while (!documents) {
        await this.repo.store.transaction(async (tx) => {
          // Blocks go out a few at a time as they are built, so that no cell's parts outlive a young
          // collection; a transaction holds up to BLOCKS_PER_TRANSACTION of them.
          let blocks = 0
          while (!chunk.done && blocks < BLOCKS_PER_TRANSACTION) {
            await this.repo.blocks(tx).putMany(chunk.value)
            blocks += chunk.value.length
            chunk = chunks.next()
          }
          if (!chunk.done) {
            // Noted with the first of several transactions: should this process die before the
            // workbook is visible, its blocks are swept later.
            if (!pending) await this.repo.pendingWorkbooks(tx).put({ id, ownerId: user.uid, startedAt: now })
            pending = true
            return
          }
          // The last transaction makes the workbook visible, with every block stored and counted.
          const last = this.newWorkbookDocuments(id, user, input, state, now, written.cells)
          // The import's record first: a concurrent run of the same import fails here and stores nothing.
          if (importDoc) await this.repo.imports(tx).insert(importDoc)
          await this.repo.workbooks(tx).insert(last.workbook)
          await this.repo.changes(tx).insert(last.change)
          if (pending) await this.repo.pendingWorkbooks(tx).delete(id)
          documents = last
        })
      }
      workbook = (documents as { workbook: WorkbookDoc }).workbook
    } catch (error) {
      // Blocks stored by earlier transactions belong to no visible workbook; remove them.
      if (pending) await this.repo.removeUnfinishedWorkbook(id).catch(() => undefined)
      if (error instanceof DuplicateKeyError && input.importId !== undefined) {
        const earlier = await this.findImport(user, input.importId)
        if (earlier) return earlier
      }
      throw error
    }
    this.metrics.recordWrite(performance.now() - writeStarted)
    this.cache.set(id, state)
    const created = workbook as WorkbookDoc
    if (afterCreate) {
      const done = this.lock.run(id, () => afterCreate(created, state))
      if (written.cells <= BACKGROUND_AFTER_CELLS) await done
      else done.catch((error: unknown) => this.logger?.error({ err: error, workbookId: id }, 'first version of a new workbook failed'))
    }
    for (const listener of this.listeners) listener.created?.(created, user)
    return { workbook: created, repeated: false, recalculation: input.recalculation ?? null }
  }

  private newWorkbookDocuments(id: string, user: AuthUser, input: NewWorkbook, state: WorkbookState, now: string, cellCount: number): { workbook: WorkbookDoc; change: ChangeDoc } {
    const externalLinks = state.externalLinks
    const workbook: WorkbookDoc = {
      id,
      ownerId: user.uid,
      name: input.name,
      revision: 1,
      sheets: state.sheets,
      sheetStats: state.sheetStats(),
      definedNames: state.definedNames,
      ...(state.tables.length > 0 ? { tables: state.tables } : {}),
      charts: state.charts,
      createdAt: now,
      updatedAt: now,
      isAIGenerated: input.isAIGenerated ?? false,
      ...(input.iterativeCalculation ? { iterativeCalculation: true } : {}),
      ...(externalLinks.length > 0 ? { externalLinks } : {}),
      storageUrl: input.storageUrl ?? null,
      templateId: input.templateId ?? null,
      versionedRevision: 0,
      versionCount: 0,
      ...(input.isDefault ? { defaultOf: user.uid } : {}),
      ...(input.keptDrawings && input.keptDrawings.length > 0 ? { keptDrawings: input.keptDrawings } : {}),
      ...defaultFontOf(input),
    }
    const change: ChangeDoc = {
      id: changeId(id, 1),
      workbookId: id,
      revision: 1,
      baseRevision: 0,
      userId: user.uid,
      userName: displayName(user),
      at: now,
      kind: input.kind,
      source: input.kind === 'import' ? 'import' : 'user',
      label: input.label,
      commands: [],
      inverse: null,
      undoable: false,
      undone: false,
      redone: false,
      target: null,
      touched: [],
      structural: false,
      cellCount,
      summary: null,
    }
    return { workbook, change }
  }

  /** The workbook an earlier import with this id stored, if it still exists. */
  async findImport(user: AuthUser, importId: string): Promise<CreatedWorkbook | null> {
    const earlier = await this.repo.imports().get(importDocId(user.uid, importId))
    if (!earlier) return null
    const workbook = await this.repo.ownedWorkbook(earlier.workbookId, user.uid)
    return workbook ? { workbook, repeated: true, recalculation: earlier.recalculation } : null
  }

  /**
   * A new workbook's blocks, a few at a time (at least BLOCKS_PER_WRITE unless the workbook has fewer),
   * sheet by sheet, row band by row band, counting what they hold into the state.
   */
  private *newBlocks(workbookId: string, state: WorkbookState, written: { cells: number }): Generator<CellBlockDoc[]> {
    const stats: Record<string, SheetStats> = {}
    let batch: CellBlockDoc[] = []
    for (const sheet of state.sheets) {
      const builder = new BlockBuilder(workbookId, 1)
      let band = -1
      for (const cell of state.cellPartsRowMajor(sheet.id)) {
        const cellBand = Math.floor(cell.row / BLOCK_ROWS)
        if (cellBand !== band) {
          // Rows come in order: the blocks of the bands passed are complete.
          band = cellBand
          for (const block of builder.flush()) batch.push(block)
          if (batch.length >= BLOCKS_PER_WRITE) {
            yield batch
            batch = []
          }
        }
        builder.addParts(sheet.id, cell.row, cell.col, cell.input, cell.value, cell.extras)
      }
      for (const block of builder.flush()) batch.push(block)
      written.cells += builder.count
      stats[sheet.id] = builder.counts.get(sheet.id) ?? { cells: 0, formulas: 0 }
      state.setStats(stats)
    }
    if (batch.length > 0) yield batch
  }

  /**
   * Deletes a workbook: it goes to the trash with everything stored with it, out of every list and
   * route at once, and can be restored until `restorableUntil`. Trash whose time is up is erased first.
   */
  async deleteWorkbook(id: string, user: AuthUser, retentionMs: number): Promise<TrashedWorkbookDoc> {
    await this.purgeExpiredTrash()
    const trashed = await this.lock.run(id, async () => {
      await this.settle(id)
      const workbook = await this.requireWorkbook(id, user)
      const moved = await this.repo.trashWorkbook(workbook, new Date(), retentionMs)
      this.cache.drop(id)
      return moved
    })
    for (const listener of this.listeners) listener.deleted?.(id, user)
    return trashed
  }

  /** Brings a deleted workbook back from the trash, as it was; 404 when it is not there. */
  async restoreWorkbook(id: string, user: AuthUser): Promise<WorkbookDoc> {
    const restored = await this.lock.run(id, async () => {
      const trashed = await this.repo.trashedWorkbook(id, user.uid)
      if (!trashed) throw spreadsheetErrors.workbookNotFound()
      return this.repo.restoreWorkbook(trashed, new Date().toISOString())
    })
    for (const listener of this.listeners) listener.created?.(restored, user)
    return restored
  }

  /** Erases for good the trashed workbooks whose time is up; answers how many. */
  async purgeExpiredTrash(now = new Date()): Promise<number> {
    let purged = 0
    for (;;) {
      const expired = await this.repo.expiredTrash(now.toISOString(), DELETE_CHUNK)
      for (const workbook of expired) {
        await this.lock.run(workbook.id, () => this.repo.deleteWorkbook(workbook.id))
        await this.snapshots.deleteWorkbook(workbook.id)
        purged++
      }
      if (expired.length < DELETE_CHUNK) return purged
    }
  }

  /**
   * The user's first workbook, created on first use: blank with Sheet1, or holding `initial` (cells a
   * browser kept for it before). Two requests at once make one workbook: the loser's is removed and
   * the winner's answered.
   */
  async ensureDefaultWorkbook(
    user: AuthUser,
    create: () => NewWorkbook,
    afterCreate?: (workbook: WorkbookDoc, state: WorkbookState) => Promise<void>,
  ): Promise<{ workbook: WorkbookDoc; created: boolean }> {
    return this.defaultLock.run(user.uid, async () => {
      const existing = await this.repo.defaultWorkbook(user.uid)
      if (existing) return { workbook: existing, created: false }
      try {
        const { workbook } = await this.createWorkbook(user, { ...create(), isDefault: true }, afterCreate)
        return { workbook, created: true }
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error
        // another replica created it between the look and the write
        const winner = await this.repo.defaultWorkbook(user.uid)
        if (!winner) throw error
        return { workbook: winner, created: false }
      }
    })
  }

  /** A new workbook holding what `id` holds now (sheets, cells, styles, names, charts), named by `nameOf`. */
  async duplicateWorkbook(
    id: string,
    user: AuthUser,
    nameOf: (source: WorkbookDoc) => string,
    afterCreate?: (copy: WorkbookDoc, state: WorkbookState, source: WorkbookDoc) => Promise<void>,
  ): Promise<WorkbookDoc> {
    const { source, snapshot } = await this.lock.run(id, async () => {
      await this.settle(id)
      const found = await this.requireWorkbook(id, user)
      return { source: found, snapshot: await this.storedSnapshot(found) }
    })
    const name = nameOf(source)
    const { workbook } = await this.createWorkbook(
      user,
      { snapshot: { ...snapshot, name }, name, kind: 'create', label: `Copy of ${source.name}`, ...(source.keptDrawings ? { keptDrawings: source.keptDrawings } : {}) },
      afterCreate ? (copy, state) => afterCreate(copy, state, source) : undefined,
    )
    return workbook
  }

  async renameWorkbook(id: string, user: AuthUser, name: string): Promise<WorkbookDoc> {
    return this.lock.run(id, async () => {
      await this.settle(id)
      const workbook = await this.requireWorkbook(id, user)
      const updatedAt = new Date().toISOString()
      await this.repo.workbooks().update({ id }, { name, updatedAt })
      return { ...workbook, name, updatedAt }
    })
  }

  // ---- changing ---------------------------------------------------------------------------------------

  /**
   * Applies API commands as one atomic, undoable change. Commands made on an older revision are first
   * moved over the rows, columns and sheets changed since, or refused (409) when what they write is gone.
   */
  change(id: string, user: AuthUser, request: ChangeRequest, afterCommit?: AfterCommit): Promise<ChangeOutcome> {
    return this.commit(id, user, request.revision, async (state, _workbook, { base, head }) => {
      const commands = typeof request.commands === 'function' ? request.commands(state) : request.commands
      checkChange(commands)
      const moved = base < head ? await this.movedOverNewerLayout(id, state, base, commands) : null
      return {
        kind: 'edit',
        source: request.source ?? 'user',
        label: request.label,
        summary: request.summary ?? null,
        clientId: request.clientId ?? null,
        fullDiff: commands.some(mayRestructure),
        layoutMove: !moved && startsWithLoneMove(commands),
        apply: (target) => (moved ? target.apply(moved, { refs: 'id' }) : target.apply(commands, { refs: 'name' })),
      }
    }, afterCommit)
  }

  /** Undoes the latest change of the user (of that client of theirs, when named) that is not undone yet. */
  undo(id: string, user: AuthUser, revision?: number, clientId?: string): Promise<ChangeOutcome> {
    return this.commit(id, user, revision, async (state, workbook) => {
      const target = await this.repo.lastUndoable(id, user.uid, clientId)
      if (!target || !target.inverse) throw spreadsheetErrors.nothingToUndo()
      const { commands, skipped } = this.withoutConflicts(state, readLogged(target.inverse), readLogged(target.commands))
      return {
        kind: 'undo',
        source: target.source,
        clientId: clientId ?? null,
        label: `Undo: ${target.label}`,
        fullDiff: commands.some(isReplacementOrRestructure),
        layoutMove: startsWithLoneMove(commands),
        target: { changeId: target.id, label: target.label, revision: target.revision },
        mark: { changeId: target.id, field: 'undone' },
        skipped,
        ...(await this.replacing(commands, state, workbook)),
      }
    }, undefined, { readsLog: true })
  }

  /** Redoes the latest undo of the user (of that client of theirs, when named), unless they made a new change since. */
  redo(id: string, user: AuthUser, revision?: number, clientId?: string): Promise<ChangeOutcome> {
    return this.commit(id, user, revision, async (state, workbook) => {
      const undo = await this.repo.lastRedoable(id, user.uid, clientId)
      const original = undo?.target ? await this.repo.changes().get(undo.target) : null
      if (!undo || !original) throw spreadsheetErrors.nothingToRedo()
      const { commands, skipped } = this.withoutConflicts(state, readLogged(original.commands), readLogged(undo.commands))
      return {
        kind: 'redo',
        source: original.source,
        clientId: clientId ?? null,
        label: `Redo: ${original.label}`,
        fullDiff: commands.some(isReplacementOrRestructure),
        layoutMove: startsWithLoneMove(commands),
        target: { changeId: original.id, label: original.label, revision: original.revision },
        mark: { changeId: undo.id, field: 'redone' },
        skipped,
        ...(await this.replacing(commands, state, workbook)),
      }
    }, undefined, { readsLog: true })
  }

  /** Puts a stored snapshot (a version) in place as one undoable change. */
  restoreSnapshot(id: string, user: AuthUser, snapshotKey: string, label: string, revision: number | undefined, afterCommit: AfterCommit): Promise<ChangeOutcome> {
    return this.commit(
      id,
      user,
      revision,
      async (state, workbook) => ({
        kind: 'restore',
        source: 'user',
        label,
        fullDiff: true,
        ...(await this.replacing([{ type: 'replace-workbook', snapshotKey }], state, workbook)),
      }),
      afterCommit,
      { readsLog: true },
    )
  }

  /**
   * The apply step of commands that may hold replace-workbook: their snapshots are fetched and the
   * state they replace is saved first, so that the change can be undone.
   */
  private async replacing(commands: LoggedCommand[], state: WorkbookState, workbook: WorkbookDoc): Promise<Pick<PreparedChange, 'apply'>> {
    const replacement = commands.find(isReplacement)
    if (!replacement) return { apply: (target) => target.apply(commands as WorkbookCommand[], { refs: 'id' }) }
    // A restore is a change of its own: the stored workbook alone, never beside other commands.
    const snapshot = await this.snapshots.get(replacement.snapshotKey)
    const replacedKey = this.snapshots.restoreKey(workbook.id, workbook.revision)
    await this.snapshots.put(replacedKey, state.snapshot(workbook.name))
    return {
      apply: (target) => {
        target.replaceContents(snapshot)
        return {
          applied: [replacement],
          inverse: [{ type: 'replace-workbook', snapshotKey: replacedKey }],
          touched: new Set(),
          engineChanges: [],
          structural: true,
          inputChanges: [],
        }
      },
    }
  }

  /**
   * For commands made on revision `base` (sheets by name as they were then): when rows, columns or
   * sheets changed since, the commands with sheets by id, moved over those changes; null when nothing
   * moved, so they apply as sent. Refuses (409) commands whose cells are gone.
   */
  private async movedOverNewerLayout(id: string, state: WorkbookState, base: number, commands: WorkbookCommand[]): Promise<WorkbookCommand[] | null> {
    const newer = await this.repo.changesAfter(id, base)
    const history = layoutSince(newer, state.sheets)
    if (history === 'replaced') throw spreadsheetErrors.staleEdit('The workbook was restored to a version after this edit was made; reload it and make the edit again')
    if (history.steps.length === 0) return null
    const idsAtBase = new Map([...history.namesAtBase].map(([sheetId, name]) => [name.toUpperCase(), sheetId]))
    const current = new Map(state.sheets.map((sheet) => [sheet.name.toUpperCase(), sheet.id]))
    // Sheets named as they were at `base`; sheets added in the same change get their ids now.
    const byId: WorkbookCommand[] = []
    for (const command of commands) {
      const withIds = mapSheetRefs(withNewSheetIds(command, idsAtBase), (name) => idsAtBase.get(name.toUpperCase()) ?? current.get(name.toUpperCase()) ?? name)
      byId.push(withIds)
    }
    const rebased = rebaseCommands(byId, history.steps, history.namesAtBase)
    if ('refused' in rebased) throw spreadsheetErrors.staleEdit(rebased.refused.reason)
    return rebased.commands
  }

  /**
   * Drops from `commands` the cell writes to cells someone changed after `expected` set them (so an
   * undo or redo never overwrites a newer edit), and commands on sheets that no longer exist.
   */
  private withoutConflicts(state: WorkbookState, commands: LoggedCommand[], expected: LoggedCommand[]): { commands: LoggedCommand[]; skipped: CellRef[] } {
    const expectedWrites = new Map<string, CellEdit>()
    for (const command of expected) {
      if (command.type !== 'set-cells') continue
      for (const write of command.cells) {
        const key = cellKey(command.sheet, write.address)
        expectedWrites.set(key, { ...expectedWrites.get(key), ...write })
      }
    }
    const skipped: CellRef[] = []
    const kept: LoggedCommand[] = []
    const existing = new Set(state.sheets.map((sheet) => sheet.id))
    // Sheets the commands themselves add back (an undone deletion) take their writes unchecked.
    const readded = new Set<string>()
    for (const command of commands) {
      if (command.type === 'add-sheet') {
        if (command.id !== undefined) readded.add(command.id)
        kept.push(command)
        continue
      }
      const sheetId = sheetOf(command)
      if (sheetId !== undefined && !existing.has(sheetId) && !readded.has(sheetId)) {
        if (command.type === 'set-cells') for (const write of command.cells) skipped.push({ sheet: sheetId, address: write.address })
        continue
      }
      if (command.type !== 'set-cells' || readded.has(command.sheet)) {
        kept.push(command)
        continue
      }
      const sheet = state.sheetById(command.sheet)
      const cells = command.cells.filter((write) => {
        const wanted = expectedWrites.get(cellKey(command.sheet, write.address))
        if (!wanted) return true
        const intact =
          (wanted.input === undefined || state.engine.getInput(sheet.name, write.address) === String(wanted.input ?? '')) &&
          (wanted.style === undefined || sameStyle(state.styleAt(command.sheet, write.address), wanted.style)) &&
          (wanted.format === undefined || (state.record(command.sheet, write.address)?.userFormat ?? null) === (wanted.format ?? null))
        if (!intact) skipped.push({ sheet: sheet.name, address: write.address })
        return intact
      })
      if (cells.length > 0) kept.push({ ...command, cells })
    }
    return { commands: kept, skipped }
  }

  /** Waits until every change submitted for the workbook is durable (or failed), so the store is current. */
  async settle(id: string): Promise<void> {
    for (let pending = this.pending.get(id); pending; pending = this.pending.get(id)) {
      await pending.durable.catch(() => undefined)
      if (this.pending.get(id) === pending) this.pending.delete(id)
    }
  }

  /**
   * The heart of every change. Under the workbook's lock: apply to the open engine, recalculate, and
   * hand the writes to the group committer, whose transaction stores them only on the revision they were
   * made on. The lock is released before the flush to disk, so the next edit of a busy workbook is
   * applied meanwhile and committed in the same or the next flush; each caller is answered once its own
   * change is durable. Changes that read the change log (undo, redo, a restore, a stale merge) first wait
   * for the workbook's pending writes.
   */
  private async commit(
    id: string,
    user: AuthUser,
    baseRevision: number | undefined,
    prepare: (state: WorkbookState, workbook: WorkbookDoc, revisions: { base: number; head: number }) => Promise<PreparedChange>,
    afterCommit?: AfterCommit,
    options: { readsLog?: boolean } = {},
  ): Promise<ChangeOutcome> {
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const lockedAt = performance.now()
      let staged: { outcome: ChangeOutcome; durable: Promise<void> }
      try {
        staged = await this.lock.run(id, async () => {
          let workbook = await this.requireWorkbook(id, user)
          let head = this.pending.get(id)?.revision ?? workbook.revision
          const stale = baseRevision !== undefined && baseRevision < head
          if (options.readsLog || afterCommit || stale || !this.cache.peek(id, head)) {
            await this.settle(id)
            workbook = await this.requireWorkbook(id, user)
            head = workbook.revision
          }
          if (baseRevision !== undefined && baseRevision > head) throw spreadsheetErrors.revisionAhead(baseRevision, head)
          const base = baseRevision ?? head
          const state = await this.open(workbook, head)
          const prepared = await prepare(state, workbook, { base, head })
          const before = prepared.fullDiff && !prepared.layoutMove ? state.allRecords() : undefined
          const layoutsBefore = state.layouts

          const calculationStarted = performance.now()
          let result: LoggedResult
          try {
            result = prepared.apply(state)
          } catch (error) {
            // A refused command was rolled back by the model; anything else may have left the engine half-changed.
            if (!(error instanceof CommandError)) this.cache.drop(id)
            throw error
          }
          const structural = result.structural || before !== undefined || prepared.layoutMove === true
          const revision = head + 1
          const { writes, changed, layouts, rewrite, removed } = this.persistencePlan(state, result, before, prepared.layoutMove === true)
          // The open workbook keeps the layouts it is stored with; the write below stores them.
          if (layouts !== layoutsBefore) state.layouts = layouts
          this.metrics.recordRecalculation(performance.now() - calculationStarted, changed.length)

          const merge = base < head ? await this.newerChanges(workbook, base, result.touched, state) : undefined
          const now = new Date().toISOString()
          const label = prepared.label ?? describeLogged(result.applied, state.sheetName)
          const change: ChangeDoc = {
            id: changeId(id, revision),
            workbookId: id,
            revision,
            baseRevision: base,
            userId: user.uid,
            userName: displayName(user),
            clientId: prepared.clientId ?? null,
            at: now,
            kind: prepared.kind,
            source: prepared.source,
            label,
            commands: result.applied,
            inverse: result.inverse,
            undoable: prepared.kind !== 'undo',
            undone: false,
            redone: false,
            target: prepared.target?.changeId ?? null,
            touched: result.touched.size <= MAX_UPDATES_PER_CHANGE * 2 ? [...result.touched] : [],
            structural,
            cellCount: changed.length,
            summary: prepared.summary ?? null,
          }
          const history: CellHistoryDoc[] =
            result.inputChanges.length <= HISTORY_CELL_LIMIT
              ? result.inputChanges.map((entry) => ({
                  id: historyDocId(id, entry.sheetId, entry.address, revision),
                  workbookId: id,
                  sheetId: entry.sheetId,
                  address: entry.address,
                  revision,
                  changeId: change.id,
                  kind: prepared.kind,
                  oldInput: entry.oldInput,
                  newInput: entry.newInput,
                  userId: user.uid,
                  userName: change.userName,
                  at: now,
                }))
              : []
          const patch: Partial<WorkbookDoc> = {
            revision,
            updatedAt: now,
            sheets: state.sheets.map((sheet) => ({ ...sheet, columnWidths: { ...sheet.columnWidths }, merges: [...sheet.merges] })),
            definedNames: state.definedNames.map((definition) => ({ ...definition })),
            // Rows inserted or deleted in a table, or a header typed over, change it.
            ...(state.tables.length > 0 || workbook.tables !== undefined ? { tables: state.tables } : {}),
            charts: state.charts.map((chart) => ({ ...chart })),
            iterativeCalculation: state.calculation.iterate,
            iterationLimits: { maxIterations: state.calculation.maxIterations, maxChange: state.calculation.maxChange },
            // Only a restored workbook (or its undo) brings other links; edits keep them as they are.
            ...(result.applied.some(isReplacement) ? { externalLinks: state.externalLinks } : {}),
            ...(layouts !== layoutsBefore ? { layouts } : {}),
          }
          const sheetIds = state.sheets.map((sheet) => sheet.id)
          // The workbook as this change leaves it; its counts are known once the write has read the blocks.
          const changedWorkbook = { ...workbook, ...patch } as WorkbookDoc
          const mark = prepared.mark
          const moves = structuralEdits(result.applied)
          const durable = this.committer.submit({
            write: async (tx) => {
              if (mark && !(await this.repo.changes(tx).findOne({ id: mark.changeId, [mark.field]: false }))) return false
              const stored = await this.repo.workbooks(tx).get(id)
              if (!stored || stored.revision !== head) return false
              const sheetStats: Record<string, SheetStats> = {}
              if (rewrite) {
                // Every cell written afresh where it stands: the counts are the new blocks' own.
                const builder = new BlockBuilder(id, revision)
                for (const { sheetId, record } of rewrite) builder.add(sheetId, record.row, record.col, { ...record, error: record.type === 'error' })
                await this.repo.rewriteCells(tx, id, builder.flush())
                for (const sheetId of sheetIds) sheetStats[sheetId] = { ...(builder.counts.get(sheetId) ?? { cells: 0, formulas: 0 }) }
              } else {
                // The counts follow what the blocks held before and hold now, less what deleted rows and columns held.
                const delta = await this.repo.writeCells(tx, id, revision, writes, layouts)
                for (const sheetId of sheetIds) {
                  const before = stored.sheetStats[sheetId] ?? { cells: 0, formulas: 0 }
                  const change = delta.get(sheetId)
                  const gone = removed.get(sheetId)
                  sheetStats[sheetId] = {
                    cells: before.cells + (change?.cells ?? 0) - (gone?.cells ?? 0),
                    formulas: before.formulas + (change?.formulas ?? 0) - (gone?.formulas ?? 0),
                  }
                }
              }
              if ((await this.repo.workbooks(tx).update({ id, revision: head }, { ...patch, sheetStats })) !== 1) return false
              changedWorkbook.sheetStats = sheetStats
              state.setStats(sheetStats)
              await this.repo.changes(tx).insert(change)
              for (const [sheetId, edits] of moves) await this.moveHistory(tx, id, sheetId, edits)
              if (history.length > 8) await this.repo.history(tx).putMany(history)
              else for (const entry of history) await this.repo.history(tx).put(entry)
              if (mark) await this.repo.changes(tx).update({ id: mark.changeId }, { [mark.field]: true })
              return true
            },
          })
          // The engine is ahead of the store until the write is durable; if it fails, the engine is dropped.
          state.revision = revision
          this.cache.set(id, state)
          const entry = { revision, durable }
          this.pending.set(id, entry)
          durable.then(
            () => {
              if (this.pending.get(id) === entry) this.pending.delete(id)
            },
            () => {
              this.cache.drop(id)
              if (this.pending.get(id) === entry) this.pending.delete(id)
            },
          )

          const outcome: ChangeOutcome = {
            workbook: changedWorkbook,
            state,
            revision,
            baseRevision: base,
            changeId: change.id,
            changedCells: changed,
            structureChanged: structural || (merge?.structural ?? false),
            merged: merge !== undefined,
            conflicts: merge?.conflicts ?? [],
            concurrentChanges: merge?.cells ?? [],
            message: this.message(changed.length, merge, prepared.skipped ?? [], result.engineChanges),
            skipped: prepared.skipped ?? [],
            label,
            kind: prepared.kind,
            source: prepared.source,
            target: prepared.target ?? null,
          }
          if (afterCommit) {
            // A version of this change must show this revision exactly: wait for it, still under the lock.
            await durable
            await afterCommit(outcome)
          }
          return { outcome, durable }
        })
        await staged.durable
      } catch (error) {
        if (error instanceof RevisionConflict) continue
        throw error
      }
      this.metrics.recordWrite(performance.now() - lockedAt)
      for (const listener of this.listeners) listener.changed(staged.outcome.workbook, user, staged.outcome)
      return staged.outcome
    }
    throw spreadsheetErrors.busy()
  }

  /** Moves a sheet's cell history with its inserted and deleted rows and columns; history of deleted cells goes. */
  private async moveHistory(tx: DocumentTransaction, workbookId: string, sheetId: string, edits: StructuralEdit[]): Promise<void> {
    const entries = await this.repo.history(tx).find({ workbookId, sheetId })
    const removed: string[] = []
    const moved: CellHistoryDoc[] = []
    for (const entry of entries) {
      let position: { row: number; col: number } | undefined = parseAddress(entry.address)
      for (const edit of edits) position = position && moveAddress(position.row, position.col, edit)
      const address = position && formatAddress(position.row, position.col)
      if (address === entry.address) continue
      removed.push(entry.id)
      if (address) moved.push({ ...entry, address, id: historyDocId(workbookId, sheetId, address, entry.revision) })
    }
    for (let i = 0; i < removed.length; i += DELETE_CHUNK) await this.repo.history(tx).deleteMany({ id: { $in: removed.slice(i, i + DELETE_CHUNK) } })
    if (moved.length > 0) await this.repo.history(tx).putMany(moved)
  }

  private message(
    changed: number,
    stale: { conflicts: CellRef[]; behind: number; structural: boolean } | undefined,
    skipped: CellRef[],
    engineChanges: readonly CellChange[],
  ): string {
    const parts = [`${changed.toLocaleString('en-US')} cell${changed === 1 ? '' : 's'} changed`]
    // A formula its budget stopped shows #NUM! or #CALC!; the answer says why, for the first few.
    let stopped = 0
    for (const change of engineChanges) {
      if (!isBudgetError(change.value)) continue
      if (stopped++ < MAX_LISTED_BUDGET_ERRORS) parts.push(`${change.sheet}!${change.address} is ${change.value.code}: ${change.value.message}`)
    }
    if (stopped > MAX_LISTED_BUDGET_ERRORS) parts.push(`${stopped - MAX_LISTED_BUDGET_ERRORS} more formulas were stopped by their budget`)
    if (stale) {
      parts.push(
        `merged over ${stale.behind} newer change${stale.behind === 1 ? '' : 's'}` +
          (stale.conflicts.length > 0 ? `; ${stale.conflicts.length} cell${stale.conflicts.length === 1 ? ' was' : 's were'} also changed there and the latest write won` : ''),
      )
      if (stale.structural) parts.push('the sheets changed meanwhile: reload the workbook')
    }
    if (skipped.length > 0) parts.push(`${skipped.length} cell${skipped.length === 1 ? '' : 's'} left as they are because they changed since`)
    return parts.join('; ')
  }

  /**
   * Which stored cells to write (or clear), and what the client repaints; with the layouts the cells
   * are stored through after the change, or every cell to write afresh (`rewrite`) when the change
   * moved rows, columns or sheets in a way a layout does not follow, and how much the rows and columns
   * it deleted held (their cells stay behind in the blocks, unseen).
   */
  private persistencePlan(
    state: WorkbookState,
    result: LoggedResult,
    before: Map<string, CellRecord> | undefined,
    layoutMove: boolean,
  ): { writes: CellPut[]; changed: ChangedCell[]; layouts: Record<string, SheetLayout>; rewrite?: { sheetId: string; record: CellRecord }[]; removed: Map<string, SheetStats> } {
    const writes: CellPut[] = []
    const changed: ChangedCell[] = []
    const removed = new Map<string, SheetStats>()
    let layouts = state.layouts
    const everyCell = (): { sheetId: string; record: CellRecord }[] => {
      const cells: { sheetId: string; record: CellRecord }[] = []
      for (const [key, record] of state.allRecords()) cells.push({ sheetId: splitKey(key).sheetId, record })
      return cells
    }
    if (before) {
      const after = state.allRecords()
      // Rows and columns inserted or deleted move cells; the client moves them as well (it applies the
      // same commands with the same engine, and structureChanged tells any other to reload), so the
      // answer compares each cell with what its moved self held and lists only what differs, where
      // listing every moved cell would answer an inserted row of a large model with megabytes. The
      // store is still written wherever a position's content changed.
      const moves = structuralEdits(result.applied)
      const movedBefore = moves.size === 0 ? before : recordsAfterMoves(before, moves)
      // A layout other than the identity does not follow sheets deleted and added back, nor moves it
      // did not make: the cells are written afresh where they stand, every layout folded away.
      const fresh = moves.size > 0 || Object.values(layouts).some((layout) => !isIdentityLayout(layout) || layout.nextRow !== INSERTED_ROWS_FROM || layout.nextColumn !== INSERTED_COLUMNS_FROM)
      for (const [key, record] of after) {
        const stored = sameRecord(before.get(key), record)
        const shown = moves.size === 0 ? stored : sameAfterMove(movedBefore.get(key), record)
        if (stored && shown) continue
        const { sheetId } = splitKey(key)
        if (!stored && !fresh) writes.push(cellPut(sheetId, record.address, record))
        if (!shown) changed.push(toChangedCell(state.sheetName(sheetId), record))
      }
      if (!fresh) {
        for (const key of before.keys()) {
          if (after.has(key)) continue
          const { sheetId, address } = splitKey(key)
          writes.push(cellPut(sheetId, address, null))
        }
      }
      for (const key of movedBefore.keys()) {
        if (after.has(key)) continue
        const { sheetId, address } = splitKey(key)
        const sheet = state.sheets.find((candidate) => candidate.id === sheetId)
        if (sheet) changed.push(clearedCell(sheet.name, address))
      }
      if (fresh) return { writes, changed, layouts: {}, rewrite: [...after].map(([key, record]) => ({ sheetId: splitKey(key).sheetId, record })), removed }
      return { writes, changed, layouts, removed }
    }
    const keys = new Set(result.touched)
    for (const change of result.engineChanges) {
      const sheet = state.findSheet(change.sheet)
      if (sheet) keys.add(cellKey(sheet.id, change.address))
    }
    if (layoutMove) {
      // Cells that only moved stay where they are stored: the sheet's layout moves instead. Formulas
      // the move rewrote are written again, where they stand now.
      const move = result.moves?.length === 1 ? result.moves[0] : undefined
      const layout = move && move.inPlace ? movedLayout(layouts[move.sheetId] ?? identityLayout(), move) : undefined
      if (!move || !layout || needsRewrite(layout.layout)) {
        // The engine rebuilt every formula, or the layout grew too long: every cell is written afresh.
        for (const key of keys) {
          const { sheetId, address } = splitKey(key)
          const sheet = state.sheets.find((candidate) => candidate.id === sheetId)
          const record = sheet && state.record(sheetId, address)
          if (sheet) changed.push(record ? toChangedCell(sheet.name, record) : clearedCell(sheet.name, address))
        }
        return { writes, changed, layouts: {}, rewrite: everyCell(), removed }
      }
      layouts = { ...layouts, [move.sheetId]: layout.layout }
      // The client rewrites these formulas itself (it applies the same commands): they are only stored.
      for (const formula of move.rewritten) {
        const address = formatAddress(formula.row, formula.col)
        if (keys.has(cellKey(formula.sheetId, address))) continue
        writes.push(cellPut(formula.sheetId, address, state.record(formula.sheetId, address) ?? null))
      }
      const gone = { cells: 0, formulas: 0 }
      for (const cell of move.removed) {
        if (cell.input !== '' || cell.value !== null) gone.cells++
        if (cell.input.startsWith('=')) gone.formulas++
      }
      removed.set(move.sheetId, gone)
    }
    for (const key of keys) {
      const { sheetId, address } = splitKey(key)
      const sheet = state.sheets.find((candidate) => candidate.id === sheetId)
      if (!sheet) continue
      // An empty cell is written as a removal: its block forgets it, if it held it.
      const record = state.record(sheetId, address)
      writes.push(cellPut(sheetId, address, record ?? null))
      changed.push(record ? toChangedCell(sheet.name, record) : clearedCell(sheet.name, address))
    }
    return { writes, changed, layouts, removed }
  }

  /** For an edit made on an older revision: the cells changed since, and which of them it overwrites. */
  private async newerChanges(
    workbook: WorkbookDoc,
    base: number,
    touched: Set<string>,
    state: WorkbookState,
  ): Promise<{ conflicts: CellRef[]; cells: ChangedCell[]; behind: number; structural: boolean }> {
    const behind = workbook.revision - base
    if (behind > MERGE_WINDOW) return { conflicts: [], cells: [], behind, structural: true }
    const newer = await this.repo.changesAfter(workbook.id, base)
    const theirs = new Set<string>()
    let structural = false
    for (const change of newer) {
      structural ||= change.structural
      for (const key of change.touched) theirs.add(key)
    }
    const conflicts: CellRef[] = []
    for (const key of touched) {
      if (!theirs.has(key)) continue
      const { sheetId, address } = splitKey(key)
      conflicts.push({ sheet: state.sheetName(sheetId), address })
    }
    const cells: ChangedCell[] = []
    const reported = new Set<string>()
    for (const doc of await this.repo.cellsWrittenAfter(workbook.id, base, workbook.layouts)) {
      const key = cellKey(doc.sheetId, doc.address)
      if (touched.has(key)) continue
      reported.add(key)
      cells.push(toChangedCell(state.sheetName(doc.sheetId), fromStored(doc)))
    }
    for (const key of theirs) {
      if (reported.has(key) || touched.has(key)) continue
      const { sheetId, address } = splitKey(key)
      if (state.sheets.some((sheet) => sheet.id === sheetId) && !state.record(sheetId, address)) cells.push(clearedCell(state.sheetName(sheetId), address))
    }
    return { conflicts, cells, behind, structural }
  }

  /** Whether the user has something to undo and to redo. */
  async undoRedoState(id: string, user: AuthUser, clientId?: string): Promise<{ canUndo: boolean; canRedo: boolean }> {
    const [undo, redo] = await Promise.all([this.repo.lastUndoable(id, user.uid, clientId), this.repo.lastRedoable(id, user.uid, clientId)])
    return { canUndo: Boolean(undo?.inverse), canRedo: redo !== null }
  }
}
