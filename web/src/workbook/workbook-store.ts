import type { CellPosition, CellRange } from '../grid/address'
import { cellAddress, MAX_COLUMNS, parseCellAddress, parseRangeAddress } from '../grid/address'
import type { CellStyle, GridCell, GridDataSource } from '../grid/types'
import type { CalcEngine, EngineValue } from './calc-engine'
import { isEngineError } from './calc-engine'
import type { CellChange, WorkbookCommand } from './commands'
import { describeCommand, nextSheetName } from './commands'

/** Spec 1 §2: the grid shows at least 100 rows and 50 columns, more when the sheet has more. */
export const DISPLAY_ROWS = 100
export const DISPLAY_COLUMNS = 50

export interface CellRecord {
  input: string
  style?: CellStyle
  format?: string
}

export interface SheetSnapshot {
  name: string
  /** keyed by A1 address */
  cells: Record<string, { input?: string; style?: CellStyle; format?: string }>
  /** keyed by zero-based column index */
  columnWidths?: Record<string, number>
  rowCount?: number
  columnCount?: number
}

export interface WorkbookSnapshot {
  id: string
  name?: string
  sheets: SheetSnapshot[]
}

/** A cell the server reports after recalculating: its input and its authoritative value. */
export interface ServerCellChange {
  sheet: string
  address: string
  input?: string
  value?: EngineValue
  /** the text the server shows for it, when it sends one */
  display?: string
  style?: CellStyle | null
  format?: string | null
}

export type ChangeOrigin = 'user' | 'undo' | 'redo' | 'remote'

export interface AppliedChange {
  command: WorkbookCommand
  inverse: WorkbookCommand
  origin: ChangeOrigin
}

const key = (col: number, row: number) => row * MAX_COLUMNS + col

export class SheetModel {
  name: string
  readonly cells = new Map<number, CellRecord>()
  /** replaced, not mutated, on every change so views can tell widths changed */
  columnWidths: ReadonlyMap<number, number> = new Map()
  declaredRows: number
  declaredColumns: number
  /** the furthest used row and column, for Ctrl+End and the grid's size */
  usedRows = 0
  usedColumns = 0
  /** what the grid drew last, by cell key; cleared whenever values may have changed */
  readonly views = new Map<number, GridCell | null>()
  /** values the server sent, kept while the local engine still agrees on the cell's inputs */
  readonly serverValues = new Map<number, { display: string; align: GridCell['align']; error: boolean; numeric: boolean; localDisplay: string }>()
  readonly source: GridDataSource

  constructor(name: string, rows = 0, columns = 0, view: (sheet: SheetModel, col: number, row: number) => GridCell | undefined) {
    this.name = name
    this.declaredRows = rows
    this.declaredColumns = columns
    this.source = new SheetSource(this, view)
  }

  get rowCount(): number {
    return this.source.rowCount
  }

  get columnCount(): number {
    return this.source.columnCount
  }

  record(pos: CellPosition): CellRecord | undefined {
    return this.cells.get(key(pos.col, pos.row))
  }

  /** extends the used area to cover a cell that now holds something */
  touch(pos: CellPosition): void {
    if (pos.row + 1 > this.usedRows) this.usedRows = pos.row + 1
    if (pos.col + 1 > this.usedColumns) this.usedColumns = pos.col + 1
  }
}

/** The grid's view of one sheet: its size grows with what it holds, never below 100 × 50. */
class SheetSource implements GridDataSource {
  private readonly sheet: SheetModel
  private readonly view: (sheet: SheetModel, col: number, row: number) => GridCell | undefined

  constructor(sheet: SheetModel, view: (sheet: SheetModel, col: number, row: number) => GridCell | undefined) {
    this.sheet = sheet
    this.view = view
  }

  get rowCount(): number {
    return Math.max(DISPLAY_ROWS, this.sheet.declaredRows, this.sheet.usedRows + 1)
  }

  get columnCount(): number {
    return Math.min(MAX_COLUMNS, Math.max(DISPLAY_COLUMNS, this.sheet.declaredColumns, this.sheet.usedColumns + 1))
  }

  get columnWidths(): ReadonlyMap<number, number> {
    return this.sheet.columnWidths
  }

  getCell(col: number, row: number): GridCell | undefined {
    return this.view(this.sheet, col, row)
  }
}

interface HistoryEntry {
  command: WorkbookCommand
  inverse: WorkbookCommand
}

const HISTORY_LIMIT = 200
const VIEW_CACHE_LIMIT = 20_000

/**
 * A workbook in the browser: the sheets' inputs, styles and formats, an engine that computes
 * their values at once, and the undo history. It is the grid's data source. Everything changes
 * through `dispatch(command)`; the server's answers come in through `applyServerChanges`, and
 * its values win over the local engine's.
 */
export class WorkbookStore {
  readonly id: string
  name: string | undefined
  private readonly engine: CalcEngine
  private readonly sheetList: SheetModel[] = []
  private readonly listeners = new Set<() => void>()
  private readonly changeListeners = new Set<(change: AppliedChange) => void>()
  private readonly undoStack: HistoryEntry[] = []
  private readonly redoStack: HistoryEntry[] = []
  private revisionCounter = 0

  constructor(engine: CalcEngine, snapshot: WorkbookSnapshot) {
    this.engine = engine
    this.id = snapshot.id
    this.name = snapshot.name
    const sheets = snapshot.sheets.length > 0 ? snapshot.sheets : [{ name: 'Sheet1', cells: {} }]
    for (const sheet of sheets) this.loadSheet(sheet)
  }

  /** Bumps on every change; the grid repaints when it moves. */
  get revision(): number {
    return this.revisionCounter
  }

  get sheetNames(): string[] {
    return this.sheetList.map((s) => s.name)
  }

  sheet(name: string): SheetModel | undefined {
    return this.sheetList.find((s) => s.name === name)
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Hears every applied command with its inverse; the saver sends them to the server. */
  onChange(listener: (change: AppliedChange) => void): () => void {
    this.changeListeners.add(listener)
    return () => this.changeListeners.delete(listener)
  }

  getInput(sheet: string, pos: CellPosition): string {
    return this.sheet(sheet)?.record(pos)?.input ?? ''
  }

  getStyle(sheet: string, pos: CellPosition): CellStyle | undefined {
    return this.sheet(sheet)?.record(pos)?.style
  }

  getFormat(sheet: string, pos: CellPosition): string | undefined {
    return this.sheet(sheet)?.record(pos)?.format
  }

  getValue(sheet: string, pos: CellPosition): EngineValue {
    return this.engine.getValue(sheet, cellAddress(pos))
  }

  /** The text a cell shows, as the grid draws it. */
  getDisplay(sheet: string, pos: CellPosition): string {
    const model = this.sheet(sheet)
    return model ? (this.view(model, pos.col, pos.row)?.text ?? '') : ''
  }

  dataSource(sheet: string): GridDataSource | undefined {
    return this.sheet(sheet)?.source
  }

  isFilled(sheet: string, pos: CellPosition): boolean {
    const input = this.sheet(sheet)?.record(pos)?.input
    return input !== undefined && input !== ''
  }

  /** The bottom-right corner of the used area (Ctrl+End). */
  lastUsedCell(sheet: string): CellPosition {
    const model = this.sheet(sheet)
    if (!model) return { col: 0, row: 0 }
    let maxRow = 0
    let maxCol = 0
    for (const [k, record] of model.cells) {
      if (record.input === '') continue
      const row = Math.floor(k / MAX_COLUMNS)
      const col = k % MAX_COLUMNS
      if (row > maxRow) maxRow = row
      if (col > maxCol) maxCol = col
    }
    return { col: maxCol, row: maxRow }
  }

  /** The inputs of a block, row by row, for copying. */
  inputsOf(sheet: string, range: CellRange): string[][] {
    const rows: string[][] = []
    for (let row = range.startRow; row <= range.endRow; row++) {
      const line: string[] = []
      for (let col = range.startCol; col <= range.endCol; col++) line.push(this.getInput(sheet, { col, row }))
      rows.push(line)
    }
    return rows
  }

  /** The shown texts of a block, row by row, for copying to other programs. */
  displaysOf(sheet: string, range: CellRange): string[][] {
    const rows: string[][] = []
    for (let row = range.startRow; row <= range.endRow; row++) {
      const line: string[] = []
      for (let col = range.startCol; col <= range.endCol; col++) line.push(this.getDisplay(sheet, { col, row }))
      rows.push(line)
    }
    return rows
  }

  get canUndo(): boolean {
    return this.undoStack.length > 0
  }

  get canRedo(): boolean {
    return this.redoStack.length > 0
  }

  get undoLabel(): string | null {
    const top = this.undoStack.at(-1)
    return top ? describeCommand(top.command) : null
  }

  get redoLabel(): string | null {
    const top = this.redoStack.at(-1)
    return top ? describeCommand(top.command) : null
  }

  /**
   * Applies a command. Throws (changing nothing) when it names a sheet that does not exist or
   * an address that is not one. User commands go on the undo history.
   */
  dispatch(command: WorkbookCommand, origin: ChangeOrigin = 'user'): void {
    this.validate(command)
    const inverse = this.apply(command)
    if (origin === 'user') {
      this.undoStack.push({ command, inverse })
      if (this.undoStack.length > HISTORY_LIMIT) this.undoStack.shift()
      this.redoStack.length = 0
    }
    this.changed()
    for (const listener of this.changeListeners) listener({ command, inverse, origin })
  }

  undo(): boolean {
    const entry = this.undoStack.pop()
    if (!entry) return false
    const inverse = this.apply(entry.inverse)
    this.redoStack.push({ command: entry.command, inverse: entry.inverse })
    this.changed()
    for (const listener of this.changeListeners) listener({ command: entry.inverse, inverse, origin: 'undo' })
    return true
  }

  redo(): boolean {
    const entry = this.redoStack.pop()
    if (!entry) return false
    const inverse = this.apply(entry.command)
    this.undoStack.push({ command: entry.command, inverse })
    this.changed()
    for (const listener of this.changeListeners) listener({ command: entry.command, inverse, origin: 'redo' })
    return true
  }

  /**
   * The server's answer to an edit: the cells whose inputs or values changed. Inputs it reports
   * replace ours (another tab or the assistant may have written them) and its values are shown
   * in place of the local engine's until our own inputs change those cells again.
   */
  applyServerChanges(changes: readonly ServerCellChange[]): void {
    const bySheet = new Map<string, CellChange[]>()
    for (const change of changes) {
      const model = this.sheet(change.sheet)
      const pos = parseCellAddress(change.address)
      if (!model || !pos) continue
      const current = model.record(pos)
      const cellChange: CellChange = { address: cellAddress(pos) }
      let differs = false
      if (change.input !== undefined && change.input !== (current?.input ?? '')) {
        cellChange.input = change.input
        differs = true
      }
      if (change.style !== undefined) {
        cellChange.style = change.style
        differs = true
      }
      if (change.format !== undefined && (change.format ?? undefined) !== current?.format) {
        cellChange.format = change.format
        differs = true
      }
      if (differs) {
        const list = bySheet.get(model.name) ?? []
        list.push(cellChange)
        bySheet.set(model.name, list)
      }
    }
    for (const [sheet, cells] of bySheet) this.apply({ type: 'set-cells', sheet, cells })

    for (const change of changes) {
      const model = this.sheet(change.sheet)
      const pos = parseCellAddress(change.address)
      if (!model || !pos || change.value === undefined) continue
      const k = key(pos.col, pos.row)
      model.views.delete(k)
      model.serverValues.delete(k)
      const localDisplay = this.computeView(model, pos.col, pos.row)?.text ?? ''
      const value = change.value
      const display = change.display ?? (isEngineError(value) ? value.code : localDisplay)
      if (display !== localDisplay) model.serverValues.set(k, { ...kindOfValue(value), display, localDisplay })
    }
    this.changed()
  }

  snapshot(): WorkbookSnapshot {
    return {
      id: this.id,
      name: this.name,
      sheets: this.sheetList.map((model) => {
        const cells: SheetSnapshot['cells'] = {}
        for (const [k, record] of model.cells) {
          const address = cellAddress({ col: k % MAX_COLUMNS, row: Math.floor(k / MAX_COLUMNS) })
          const entry: SheetSnapshot['cells'][string] = {}
          if (record.input !== '') entry.input = record.input
          if (record.style) entry.style = record.style
          if (record.format) entry.format = record.format
          cells[address] = entry
        }
        const columnWidths: Record<string, number> = {}
        for (const [col, width] of model.columnWidths) columnWidths[String(col)] = width
        return { name: model.name, cells, columnWidths, rowCount: model.declaredRows, columnCount: model.declaredColumns }
      }),
    }
  }

  private changed(): void {
    this.revisionCounter++
    for (const listener of this.listeners) listener()
  }

  private loadSheet(snapshot: SheetSnapshot, index?: number): SheetModel {
    const model = new SheetModel(snapshot.name, snapshot.rowCount ?? 0, snapshot.columnCount ?? 0, (sheet, col, row) =>
      this.view(sheet, col, row),
    )
    this.engine.addSheet(snapshot.name)
    if (index === undefined) this.sheetList.push(model)
    else this.sheetList.splice(index, 0, model)
    const batch: { sheet: string; address: string; input: string }[] = []
    for (const [address, cell] of Object.entries(snapshot.cells)) {
      const pos = parseCellAddress(address)
      if (!pos) continue
      const record: CellRecord = { input: cell.input ?? '' }
      if (cell.style) record.style = cell.style
      if (cell.format) record.format = cell.format
      model.cells.set(key(pos.col, pos.row), record)
      model.touch(pos)
      if (record.input !== '') batch.push({ sheet: snapshot.name, address: cellAddress(pos), input: record.input })
    }
    const widths = new Map<number, number>()
    for (const [col, width] of Object.entries(snapshot.columnWidths ?? {})) widths.set(Number(col), width)
    model.columnWidths = widths
    if (batch.length > 0) this.engine.setCells(batch)
    return model
  }

  private requireSheet(name: string): SheetModel {
    const model = this.sheet(name)
    if (!model) throw new Error(`There is no sheet named ${name}`)
    return model
  }

  private validate(command: WorkbookCommand): void {
    switch (command.type) {
      case 'set-cells':
        this.requireSheet(command.sheet)
        for (const cell of command.cells) {
          if (!parseCellAddress(cell.address)) throw new Error(`${cell.address} is not a cell address`)
        }
        return
      case 'format-cells':
        this.requireSheet(command.sheet)
        for (const range of command.ranges) if (!parseRangeAddress(range)) throw new Error(`${range} is not a range`)
        return
      case 'resize-column':
      case 'insert-rows':
      case 'delete-rows':
      case 'insert-columns':
      case 'delete-columns':
        this.requireSheet(command.sheet)
        return
      case 'add-sheet':
        if (this.sheet(command.name)) throw new Error(`There is already a sheet named ${command.name}`)
        return
      case 'rename-sheet':
        this.requireSheet(command.from)
        if (command.from !== command.to && this.sheet(command.to)) throw new Error(`There is already a sheet named ${command.to}`)
        return
      case 'delete-sheet':
        this.requireSheet(command.name)
        if (this.sheetList.length === 1) throw new Error('A workbook keeps at least one sheet')
        return
      case 'batch':
        // a batch is validated step by step as it applies; a failing step rolls the batch back
        return
    }
  }

  /** Applies a command and returns the command that undoes it. */
  private apply(command: WorkbookCommand): WorkbookCommand {
    switch (command.type) {
      case 'set-cells':
        return this.applySetCells(command.sheet, command.cells)
      case 'format-cells': {
        const model = this.requireSheet(command.sheet)
        const changes: CellChange[] = []
        for (const text of command.ranges) {
          const range = parseRangeAddress(text)!
          // whole columns or rows style only the used part; the grid has no per-column styles
          const endRow = Math.min(range.endRow, Math.max(model.usedRows - 1, range.startRow, DISPLAY_ROWS - 1))
          const endCol = Math.min(range.endCol, Math.max(model.usedColumns - 1, range.startCol, DISPLAY_COLUMNS - 1))
          for (let row = range.startRow; row <= endRow; row++) {
            for (let col = range.startCol; col <= endCol; col++) {
              const record = model.record({ col, row })
              const change: CellChange = { address: cellAddress({ col, row }) }
              if (command.style) change.style = mergeStyle(record?.style, command.style)
              if (command.format !== undefined) change.format = command.format
              changes.push(change)
            }
          }
        }
        return this.applySetCells(command.sheet, changes)
      }
      case 'resize-column': {
        const model = this.requireSheet(command.sheet)
        const previous = model.columnWidths.get(command.column) ?? null
        const widths = new Map(model.columnWidths)
        if (command.width === null) widths.delete(command.column)
        else widths.set(command.column, command.width)
        model.columnWidths = widths
        return { type: 'resize-column', sheet: command.sheet, column: command.column, width: previous }
      }
      case 'add-sheet': {
        const index = command.index ?? this.sheetList.length
        this.loadSheet({ name: command.name, cells: {} }, index)
        return { type: 'delete-sheet', name: command.name }
      }
      case 'rename-sheet': {
        const model = this.requireSheet(command.from)
        this.engine.renameSheet(command.from, command.to)
        model.name = command.to
        this.clearViews()
        return { type: 'rename-sheet', from: command.to, to: command.from }
      }
      case 'delete-sheet': {
        const model = this.requireSheet(command.name)
        const index = this.sheetList.indexOf(model)
        const restore = this.snapshot().sheets[index]
        this.engine.removeSheet(command.name)
        this.sheetList.splice(index, 1)
        this.clearViews()
        const cells = Object.entries(restore.cells).map(([address, cell]) => ({
          address,
          input: cell.input ?? '',
          style: cell.style ?? null,
          format: cell.format ?? null,
        }))
        const commands: WorkbookCommand[] = [{ type: 'add-sheet', name: command.name, index }]
        if (cells.length > 0) commands.push({ type: 'set-cells', sheet: command.name, cells })
        for (const [col, width] of Object.entries(restore.columnWidths ?? {})) {
          commands.push({ type: 'resize-column', sheet: command.name, column: Number(col), width })
        }
        return { type: 'batch', label: `restore ${command.name}`, commands }
      }
      case 'insert-rows':
      case 'delete-rows':
      case 'insert-columns':
      case 'delete-columns':
        throw new Error(`${command.type} is not available in this version`)
      case 'batch': {
        const inverses: WorkbookCommand[] = []
        try {
          for (const step of command.commands) {
            this.validate(step)
            inverses.unshift(this.apply(step))
          }
        } catch (error) {
          for (const inverse of inverses) this.apply(inverse)
          throw error
        }
        return { type: 'batch', label: command.label, commands: inverses }
      }
    }
  }

  private applySetCells(sheet: string, changes: readonly CellChange[]): WorkbookCommand {
    const model = this.requireSheet(sheet)
    const inverse: CellChange[] = []
    const engineBatch: { sheet: string; address: string; input: string }[] = []
    for (const change of changes) {
      const pos = parseCellAddress(change.address)!
      const k = key(pos.col, pos.row)
      const before = model.cells.get(k)
      const undo: CellChange = { address: cellAddress(pos) }
      const after: CellRecord = { input: before?.input ?? '' }
      if (before?.style) after.style = before.style
      if (before?.format) after.format = before.format
      if (change.input !== undefined) {
        undo.input = before?.input ?? ''
        after.input = change.input
        if (change.input !== (before?.input ?? '')) engineBatch.push({ sheet, address: undo.address, input: change.input })
      }
      if (change.style !== undefined) {
        undo.style = before?.style ?? null
        if (change.style === null || Object.keys(change.style).length === 0) delete after.style
        else after.style = change.style
      }
      if (change.format !== undefined) {
        undo.format = before?.format ?? null
        if (change.format === null || change.format === '') delete after.format
        else after.format = change.format
      }
      inverse.push(undo)
      if (after.input === '' && !after.style && !after.format) model.cells.delete(k)
      else {
        model.cells.set(k, after)
        model.touch(pos)
      }
    }
    if (engineBatch.length > 0) this.engine.setCells(engineBatch)
    this.clearViews()
    return { type: 'set-cells', sheet, cells: inverse }
  }

  private clearViews(): void {
    for (const model of this.sheetList) model.views.clear()
  }

  private view(model: SheetModel, col: number, row: number): GridCell | undefined {
    const k = key(col, row)
    const cached = model.views.get(k)
    if (cached !== undefined) return cached ?? undefined
    const computed = this.computeView(model, col, row)
    if (model.views.size > VIEW_CACHE_LIMIT) model.views.clear()
    model.views.set(k, computed ?? null)
    return computed
  }

  private computeView(model: SheetModel, col: number, row: number): GridCell | undefined {
    const record = model.cells.get(key(col, row))
    if (!record) return undefined
    let view: GridCell
    if (record.input === '') {
      view = { text: '', align: 'left', numeric: false, error: false }
    } else {
      const address = cellAddress({ col, row })
      const value = this.engine.getValue(model.name, address)
      const display = this.engine.getDisplay(model.name, address, record.format)
      view = { ...kindOfValue(value), text: display }
      const server = model.serverValues.get(key(col, row))
      if (server) {
        if (server.localDisplay === display) view = { text: server.display, align: server.align, numeric: server.numeric, error: server.error }
        else model.serverValues.delete(key(col, row))
      }
    }
    if (record.style) view.style = record.style
    return view
  }
}

/** How a value sits in its cell, as in Excel: numbers right, errors and booleans centred, text left. */
function kindOfValue(value: EngineValue): Pick<GridCell, 'align' | 'error' | 'numeric'> {
  if (isEngineError(value)) return { align: 'center', error: true, numeric: false }
  if (typeof value === 'number') return { align: 'right', error: false, numeric: true }
  if (typeof value === 'boolean') return { align: 'center', error: false, numeric: false }
  return { align: 'left', error: false, numeric: false }
}

function mergeStyle(base: CellStyle | undefined, patch: Partial<CellStyle>): CellStyle | null {
  const merged: CellStyle = { ...base }
  for (const [name, value] of Object.entries(patch) as [keyof CellStyle, CellStyle[keyof CellStyle]][]) {
    if (value === undefined || value === null || value === false || value === '') delete merged[name]
    else (merged as Record<string, unknown>)[name] = value
  }
  return Object.keys(merged).length === 0 ? null : merged
}

export { nextSheetName }
