import type { CellPosition, CellRange } from '../grid/address'
import { cellAddress, forEachCell, MAX_COLUMNS, parseCellAddress, parseRangeAddress, rangeAddress } from '../grid/address'
import { MergeIndex, NO_MERGES } from '../grid/merges'
import type { CellStyle, GridCell, GridDataSource } from '../grid/types'
import type { CalcEngine, EngineValue } from './calc-engine'
import { isEngineError } from './calc-engine'
import type { CellChange, WorkbookCommand } from './commands'
import { describeCommand } from './commands'

/** Spec 1 §2: the grid shows at least 100 rows and 50 columns, more when the sheet has more. */
export const DISPLAY_ROWS = 100
export const DISPLAY_COLUMNS = 50

export type CellInputValue = string | number | boolean | null

export interface SheetSnapshot {
  name: string
  /** keyed by A1 address */
  cells: Record<string, { input?: string; style?: CellStyle; format?: string }>
  /** a dense block of inputs from A1, row by row: the fast way to open a large sheet */
  rows?: readonly (readonly (CellInputValue | undefined)[])[]
  /** keyed by zero-based column index */
  columnWidths?: Record<string, number>
  /** merged ranges such as 'A1:C1' */
  merges?: string[]
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
const positionOf = (k: number): CellPosition => ({ col: k % MAX_COLUMNS, row: Math.floor(k / MAX_COLUMNS) })

interface ServerValue {
  text: string
  kind: Pick<GridCell, 'align' | 'error' | 'numeric'>
  /** what the local engine showed when the server's answer came; a later local change wins */
  localText: string
}

/** One sheet's presentation: styles, number formats, widths. Inputs and values live in the engine. */
export class SheetModel {
  name: string
  readonly styles = new Map<number, CellStyle>()
  readonly formats = new Map<number, string>()
  /** replaced, not mutated, on every change so views can tell widths changed */
  columnWidths: ReadonlyMap<number, number> = new Map()
  merges: MergeIndex = NO_MERGES
  declaredRows: number
  declaredColumns: number
  /** rows and columns up to the furthest cell ever written: the grid grows to show them */
  usedRows = 0
  usedColumns = 0
  /** what the grid drew last, by cell key; cleared whenever values may have changed */
  readonly views = new Map<number, GridCell | null>()
  readonly serverValues = new Map<number, ServerValue>()
  /** while rows stream in: how far they have come, and the cells edited meanwhile (not to be overwritten) */
  loading: { loadedRows: number; totalRows: number; edited: Set<number> } | null = null
  readonly source: GridDataSource

  constructor(name: string, rows: number, columns: number, view: (sheet: SheetModel, col: number, row: number) => GridCell | undefined) {
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

  /** extends the used area to cover a cell that now holds something */
  touch(pos: CellPosition): void {
    if (pos.row + 1 > this.usedRows) this.usedRows = pos.row + 1
    if (pos.col + 1 > this.usedColumns) this.usedColumns = pos.col + 1
  }
}

/** The grid's view of one sheet: it grows with what the sheet holds, never below 100 × 50. */
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

  get merges(): MergeIndex {
    return this.sheet.merges
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
 * A workbook in the browser: the engine holds the sheets' inputs and computes their values at
 * once; this store adds styles, number formats and widths, the undo history, and is the grid's
 * data source. Everything changes through `dispatch(command)`; the server's answers come in
 * through `applyServerChanges`, and its values win over the local engine's.
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
    // every sheet exists before any cell loads, so cross-sheet formulas resolve
    const models = sheets.map((sheet) => this.addSheetModel(sheet))
    const batch: { sheet: string; address: string; input: string }[] = []
    sheets.forEach((sheet, i) => this.loadSheetContent(models[i], sheet, batch))
    if (batch.length > 0) this.engine.loadCells(batch)
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
    return this.sheet(sheet) ? this.engine.getInput(sheet, cellAddress(pos)) : ''
  }

  getStyle(sheet: string, pos: CellPosition): CellStyle | undefined {
    return this.sheet(sheet)?.styles.get(key(pos.col, pos.row))
  }

  getFormat(sheet: string, pos: CellPosition): string | undefined {
    return this.sheet(sheet)?.formats.get(key(pos.col, pos.row))
  }

  getValue(sheet: string, pos: CellPosition): EngineValue {
    return this.sheet(sheet) ? this.engine.getValue(sheet, cellAddress(pos)) : null
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
    return this.getInput(sheet, pos) !== ''
  }

  /** The bottom-right corner of the used area (Ctrl+End). */
  lastUsedCell(sheet: string): CellPosition {
    let maxRow = 0
    let maxCol = 0
    if (!this.sheet(sheet)) return { col: 0, row: 0 }
    this.engine.forEachCell(sheet, (cell) => {
      if (cell.input === '') return
      if (cell.row > maxRow) maxRow = cell.row
      if (cell.col > maxCol) maxCol = cell.col
    })
    return { col: maxCol, row: maxRow }
  }

  /** The inputs of a block, row by row, for copying. */
  inputsOf(sheet: string, range: CellRange): string[][] {
    return this.mapRange(range, (pos) => this.getInput(sheet, pos))
  }

  /** The shown texts of a block, row by row, for copying to other programs. */
  displaysOf(sheet: string, range: CellRange): string[][] {
    return this.mapRange(range, (pos) => this.getDisplay(sheet, pos))
  }

  private mapRange<T>(range: CellRange, read: (pos: CellPosition) => T): T[][] {
    const rows: T[][] = []
    for (let row = range.startRow; row <= range.endRow; row++) {
      const line: T[] = []
      for (let col = range.startCol; col <= range.endCol; col++) line.push(read({ col, row }))
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
   * Applies a command. Throws, changing nothing, when it names a sheet that does not exist or an
   * address that is not one. User commands go on the undo history.
   */
  dispatch(command: WorkbookCommand, origin: ChangeOrigin = 'user'): void {
    this.validate(command)
    const inverse = this.apply(command)
    if (origin === 'user') {
      this.undoStack.push({ command, inverse })
      if (this.undoStack.length > HISTORY_LIMIT) this.undoStack.shift()
      this.redoStack.length = 0
    }
    this.changed({ command, inverse, origin })
  }

  undo(): boolean {
    const entry = this.undoStack.pop()
    if (!entry) return false
    const redoInverse = this.apply(entry.inverse)
    this.redoStack.push({ command: redoInverse, inverse: entry.inverse })
    this.changed({ command: entry.inverse, inverse: redoInverse, origin: 'undo' })
    return true
  }

  redo(): boolean {
    const entry = this.redoStack.pop()
    if (!entry) return false
    const inverse = this.apply(entry.command)
    this.undoStack.push({ command: entry.command, inverse })
    this.changed({ command: entry.command, inverse, origin: 'redo' })
    return true
  }

  /**
   * Starts streaming a large sheet in: the grid takes the final size at once and shows the rows
   * as they arrive through `loadRows`. Edits made meanwhile win over the rows that arrive later.
   */
  beginLoading(sheet: string, totalRows: number, totalColumns: number): void {
    const model = this.requireSheet(sheet)
    model.declaredRows = Math.max(model.declaredRows, totalRows)
    model.declaredColumns = Math.max(model.declaredColumns, totalColumns)
    model.loading = { loadedRows: 0, totalRows, edited: new Set() }
    this.notify()
  }

  /** Loads a block of inputs (rows from `startRow`) through the engine's bulk path; no undo, no save. */
  loadRows(sheet: string, startRow: number, rows: readonly (readonly (CellInputValue | undefined)[])[]): void {
    const model = this.requireSheet(sheet)
    const edited = model.loading?.edited
    const block =
      edited && edited.size > 0
        ? rows.map((cells, r) => cells.map((input, c) => (edited.has(key(c, startRow + r)) ? undefined : input)))
        : rows
    this.engine.loadSheet(sheet, block, cellAddress({ col: 0, row: startRow }))
    if (rows.length > 0) {
      model.usedRows = Math.max(model.usedRows, startRow + rows.length)
      model.usedColumns = Math.max(model.usedColumns, rows[0].length, rows[rows.length - 1].length)
    }
    if (model.loading) model.loading.loadedRows = Math.max(model.loading.loadedRows, startRow + rows.length)
    this.clearViews()
    this.notify()
  }

  endLoading(sheet: string): void {
    const model = this.requireSheet(sheet)
    model.loading = null
    this.notify()
  }

  /**
   * The server's answer to an edit: the cells whose inputs or values changed. Inputs it reports
   * replace ours (another tab or the assistant may have written them) and its values are shown in
   * place of the local engine's until a local change moves that cell's value again.
   */
  applyServerChanges(changes: readonly ServerCellChange[]): void {
    const bySheet = new Map<string, CellChange[]>()
    for (const change of changes) {
      const model = this.sheet(change.sheet)
      const pos = parseCellAddress(change.address)
      if (!model || !pos) continue
      const k = key(pos.col, pos.row)
      const cellChange: CellChange = { address: cellAddress(pos) }
      let differs = false
      if (change.input !== undefined && change.input !== this.engine.getInput(model.name, cellChange.address)) {
        cellChange.input = change.input
        differs = true
      }
      if (change.style !== undefined) {
        cellChange.style = change.style
        differs = true
      }
      if (change.format !== undefined && (change.format ?? undefined) !== model.formats.get(k)) {
        cellChange.format = change.format
        differs = true
      }
      if (differs) bySheet.set(model.name, [...(bySheet.get(model.name) ?? []), cellChange])
    }
    for (const [sheet, cells] of bySheet) this.applySetCells(sheet, cells)

    for (const change of changes) {
      const model = this.sheet(change.sheet)
      const pos = parseCellAddress(change.address)
      if (!model || !pos || change.value === undefined) continue
      const k = key(pos.col, pos.row)
      model.views.delete(k)
      model.serverValues.delete(k)
      const localText = this.computeView(model, pos.col, pos.row)?.text ?? ''
      const text = change.display ?? (isEngineError(change.value) ? change.value.code : localText)
      if (text !== localText) model.serverValues.set(k, { text, kind: kindOfValue(change.value), localText })
    }
    this.clearViews()
    this.notify()
  }

  snapshot(): WorkbookSnapshot {
    return {
      id: this.id,
      name: this.name,
      sheets: this.sheetList.map((model) => {
        const cells: SheetSnapshot['cells'] = {}
        this.engine.forEachCell(model.name, (cell) => {
          if (cell.input !== '') cells[cell.address] = { input: cell.input }
        })
        for (const [k, style] of model.styles) (cells[cellAddress(positionOf(k))] ??= {}).style = style
        for (const [k, format] of model.formats) (cells[cellAddress(positionOf(k))] ??= {}).format = format
        const columnWidths: Record<string, number> = {}
        for (const [col, width] of model.columnWidths) columnWidths[String(col)] = width
        const merges = model.merges.ranges.map(rangeAddress)
        return { name: model.name, cells, columnWidths, merges, rowCount: model.declaredRows, columnCount: model.declaredColumns }
      }),
    }
  }

  /** a change the views must show but nobody needs to save */
  private notify(): void {
    this.revisionCounter++
    for (const listener of this.listeners) listener()
  }

  private changed(change: AppliedChange): void {
    this.notify()
    for (const listener of this.changeListeners) listener(change)
  }

  private addSheetModel(snapshot: SheetSnapshot, index?: number): SheetModel {
    const model = new SheetModel(snapshot.name, snapshot.rowCount ?? 0, snapshot.columnCount ?? 0, (sheet, col, row) =>
      this.view(sheet, col, row),
    )
    this.engine.addSheet(snapshot.name)
    if (index === undefined) this.sheetList.push(model)
    else this.sheetList.splice(index, 0, model)
    return model
  }

  private loadSheetContent(model: SheetModel, snapshot: SheetSnapshot, batch: { sheet: string; address: string; input: string }[]): void {
    if (snapshot.rows && snapshot.rows.length > 0) {
      this.engine.loadSheet(model.name, snapshot.rows)
      model.usedRows = Math.max(model.usedRows, snapshot.rows.length)
      model.usedColumns = Math.max(model.usedColumns, ...snapshot.rows.slice(0, 1000).map((r) => r.length))
    }
    for (const [address, cell] of Object.entries(snapshot.cells)) {
      const pos = parseCellAddress(address)
      if (!pos) continue
      const k = key(pos.col, pos.row)
      if (cell.style) model.styles.set(k, cell.style)
      if (cell.format) model.formats.set(k, cell.format)
      if (cell.input) batch.push({ sheet: model.name, address: cellAddress(pos), input: cell.input })
      model.touch(pos)
    }
    const widths = new Map<number, number>()
    for (const [col, width] of Object.entries(snapshot.columnWidths ?? {})) widths.set(Number(col), width)
    model.columnWidths = widths
    const merges = (snapshot.merges ?? []).map((text) => parseRangeAddress(text)).filter((r): r is CellRange => r !== null)
    if (merges.length > 0) model.merges = new MergeIndex(merges)
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
        this.requireSheet(command.sheet)
        if (command.width !== null && !(command.width > 0)) throw new Error('A column width must be positive')
        return
      case 'insert-rows':
      case 'delete-rows':
      case 'insert-columns':
      case 'delete-columns':
        this.requireSheet(command.sheet)
        if (!Number.isInteger(command.at) || command.at < 0 || !Number.isInteger(command.count) || command.count < 1) {
          throw new Error(`${command.type} needs a position and a count of at least 1`)
        }
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
      case 'move-sheet':
        this.requireSheet(command.name)
        if (!Number.isInteger(command.index) || command.index < 0) throw new Error('A sheet position must be 0 or more')
        return
      case 'merge-cells':
      case 'unmerge-cells': {
        const model = this.requireSheet(command.sheet)
        const range = parseRangeAddress(command.range)
        if (!range) throw new Error(`${command.range} is not a range`)
        if (command.type === 'merge-cells' && model.merges.overlaps(range)) throw new Error('Cells that are already merged cannot be merged again')
        return
      }
      case 'batch':
        // each step is validated as the batch applies; a failing step rolls the batch back
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
          // whole columns or rows style the used part and the displayed grid, not a million cells
          const endRow = Math.min(range.endRow, Math.max(model.usedRows - 1, range.startRow, DISPLAY_ROWS - 1))
          const endCol = Math.min(range.endCol, Math.max(model.usedColumns - 1, range.startCol, DISPLAY_COLUMNS - 1))
          for (let row = range.startRow; row <= endRow; row++) {
            for (let col = range.startCol; col <= endCol; col++) {
              const change: CellChange = { address: cellAddress({ col, row }) }
              if (command.style) change.style = mergeStyle(model.styles.get(key(col, row)), command.style)
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
      case 'insert-rows':
      case 'insert-columns':
        return this.applyInsert(command.sheet, command.type === 'insert-rows' ? 'rows' : 'columns', command.at, command.count)
      case 'delete-rows':
      case 'delete-columns':
        return this.applyDelete(command.sheet, command.type === 'delete-rows' ? 'rows' : 'columns', command.at, command.count)
      case 'add-sheet': {
        this.addSheetModel({ name: command.name, cells: {} }, command.index ?? this.sheetList.length)
        this.clearViews()
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
        const formulasBefore = this.allFormulas()
        this.engine.removeSheet(command.name)
        this.sheetList.splice(index, 1)
        this.clearViews()
        const commands: WorkbookCommand[] = [{ type: 'add-sheet', name: command.name, index }]
        const cells = Object.entries(restore.cells).map(([address, cell]) => ({
          address,
          input: cell.input ?? '',
          style: cell.style ?? null,
          format: cell.format ?? null,
        }))
        if (cells.length > 0) commands.push({ type: 'set-cells', sheet: command.name, cells })
        for (const [col, width] of Object.entries(restore.columnWidths ?? {})) {
          commands.push({ type: 'resize-column', sheet: command.name, column: Number(col), width })
        }
        commands.push(...this.formulaRestores(formulasBefore, command.name))
        return { type: 'batch', label: `restore ${command.name}`, commands }
      }
      case 'move-sheet': {
        const model = this.requireSheet(command.name)
        const from = this.sheetList.indexOf(model)
        const to = Math.min(command.index, this.sheetList.length - 1)
        this.sheetList.splice(from, 1)
        this.sheetList.splice(to, 0, model)
        return { type: 'move-sheet', name: command.name, index: from }
      }
      case 'merge-cells': {
        const model = this.requireSheet(command.sheet)
        const range = parseRangeAddress(command.range)!
        // as Excel does, only the top-left cell's content survives a merge
        const cleared: CellChange[] = []
        forEachCell(range, (pos) => {
          if ((pos.col !== range.startCol || pos.row !== range.startRow) && this.isFilled(command.sheet, pos)) {
            cleared.push({ address: cellAddress(pos), input: '' })
          }
        })
        const restore = cleared.length > 0 ? this.applySetCells(command.sheet, cleared) : null
        model.merges = new MergeIndex([...model.merges.ranges, range])
        model.touch({ col: range.endCol, row: range.endRow })
        this.clearViews()
        const unmerge: WorkbookCommand = { type: 'unmerge-cells', sheet: command.sheet, range: command.range }
        return restore ? { type: 'batch', label: `unmerge ${command.range}`, commands: [unmerge, restore] } : unmerge
      }
      case 'unmerge-cells': {
        const model = this.requireSheet(command.sheet)
        const range = parseRangeAddress(command.range)!
        const removed = model.merges.ranges.filter((r) => r.startCol >= range.startCol && r.endCol <= range.endCol && r.startRow >= range.startRow && r.endRow <= range.endRow)
        model.merges = new MergeIndex(model.merges.ranges.filter((r) => !removed.includes(r)))
        this.clearViews()
        const remerge: WorkbookCommand[] = removed.map((r) => ({ type: 'merge-cells', sheet: command.sheet, range: rangeAddress(r) }))
        return remerge.length === 1 ? remerge[0] : { type: 'batch', label: `merge ${command.range}`, commands: remerge }
      }
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
      const address = cellAddress(pos)
      const undo: CellChange = { address }
      if (change.input !== undefined) {
        model.loading?.edited.add(k)
        const before = this.engine.getInput(sheet, address)
        undo.input = before
        if (change.input !== before) engineBatch.push({ sheet, address, input: change.input })
        if (change.input !== '') model.touch(pos)
      }
      if (change.style !== undefined) {
        undo.style = model.styles.get(k) ?? null
        if (change.style === null || Object.keys(change.style).length === 0) model.styles.delete(k)
        else {
          model.styles.set(k, change.style)
          model.touch(pos)
        }
      }
      if (change.format !== undefined) {
        undo.format = model.formats.get(k) ?? null
        if (change.format === null || change.format === '') model.formats.delete(k)
        else model.formats.set(k, change.format)
      }
      inverse.push(undo)
    }
    if (engineBatch.length > 0) this.engine.setCells(engineBatch)
    this.clearViews()
    return { type: 'set-cells', sheet, cells: inverse }
  }

  private applyInsert(sheet: string, axis: 'rows' | 'columns', at: number, count: number): WorkbookCommand {
    const model = this.requireSheet(sheet)
    if (axis === 'rows') this.engine.insertRows(sheet, at, count)
    else this.engine.insertColumns(sheet, at, count)
    shiftKeys(model.styles, axis, at, count)
    shiftKeys(model.formats, axis, at, count)
    if (axis === 'columns') model.columnWidths = shiftWidths(model.columnWidths, at, count)
    if (model.merges.size > 0) model.merges = new MergeIndex(shiftMerges(model.merges.ranges, axis, at, count))
    if (axis === 'rows' && model.usedRows > at) model.usedRows += count
    if (axis === 'columns' && model.usedColumns > at) model.usedColumns += count
    this.clearViews()
    return { type: axis === 'rows' ? 'delete-rows' : 'delete-columns', sheet, at, count }
  }

  private applyDelete(sheet: string, axis: 'rows' | 'columns', at: number, count: number): WorkbookCommand {
    const model = this.requireSheet(sheet)
    const removed: CellChange[] = []
    const inBand = (pos: CellPosition) => (axis === 'rows' ? pos.row >= at && pos.row < at + count : pos.col >= at && pos.col < at + count)
    this.engine.forEachCell(sheet, (cell) => {
      if (cell.input !== '' && inBand(cell)) removed.push({ address: cell.address, input: cell.input })
    })
    for (const [k, style] of model.styles) if (inBand(positionOf(k))) removed.push({ address: cellAddress(positionOf(k)), style })
    for (const [k, format] of model.formats) if (inBand(positionOf(k))) removed.push({ address: cellAddress(positionOf(k)), format })
    const widths = model.columnWidths
    const mergesBefore = model.merges.ranges
    const formulasBefore = this.allFormulas()
    if (axis === 'rows') this.engine.deleteRows(sheet, at, count)
    else this.engine.deleteColumns(sheet, at, count)
    shiftKeys(model.styles, axis, at, -count)
    shiftKeys(model.formats, axis, at, -count)
    if (axis === 'columns') model.columnWidths = shiftWidths(model.columnWidths, at, -count)
    if (model.merges.size > 0) model.merges = new MergeIndex(shiftMerges(model.merges.ranges, axis, at, -count))
    if (axis === 'rows') model.usedRows = Math.max(at, model.usedRows - count)
    else model.usedColumns = Math.max(at, model.usedColumns - count)
    this.clearViews()
    const commands: WorkbookCommand[] = [{ type: axis === 'rows' ? 'insert-rows' : 'insert-columns', sheet, at, count }]
    if (removed.length > 0) commands.push({ type: 'set-cells', sheet, cells: removed })
    if (axis === 'columns') {
      for (let col = at; col < at + count; col++) {
        const width = widths.get(col)
        if (width !== undefined) commands.push({ type: 'resize-column', sheet, column: col, width })
      }
    }
    commands.push(...this.formulaRestores(formulasBefore, null))
    if (mergesBefore.length > 0) {
      // put the merges back exactly as they were, whatever the deletion cut
      commands.push({ type: 'unmerge-cells', sheet, range: 'A1:XFD1048576' })
      for (const merge of mergesBefore) commands.push({ type: 'merge-cells', sheet, range: rangeAddress(merge) })
    }
    return { type: 'batch', label: `restore ${axis}`, commands }
  }

  /** Every formula of the workbook by sheet and address, to restore references a deletion broke. */
  private allFormulas(): Map<string, Map<string, string>> {
    const all = new Map<string, Map<string, string>>()
    for (const model of this.sheetList) {
      const formulas = new Map<string, string>()
      this.engine.forEachCell(model.name, (cell) => {
        if (cell.input.startsWith('=')) formulas.set(cell.address, cell.input)
      })
      all.set(model.name, formulas)
    }
    return all
  }

  /**
   * The set-cells that put back formulas a deletion rewrote. `before` was read before the
   * deletion; once the inverse has re-inserted what was deleted, the original addresses hold again.
   */
  private formulaRestores(before: Map<string, Map<string, string>>, skipSheet: string | null): WorkbookCommand[] {
    const commands: WorkbookCommand[] = []
    for (const [sheet, formulas] of before) {
      if (sheet === skipSheet) continue
      const after = new Map<string, string>()
      if (this.sheet(sheet)) {
        this.engine.forEachCell(sheet, (cell) => {
          if (cell.input.startsWith('=')) after.set(cell.address, cell.input)
        })
      }
      const cells: CellChange[] = []
      for (const [address, input] of formulas) if (after.get(address) !== input) cells.push({ address, input })
      if (cells.length > 0) commands.push({ type: 'set-cells', sheet, cells })
    }
    return commands
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
    const k = key(col, row)
    const style = model.styles.get(k)
    const address = cellAddress({ col, row })
    const value = this.engine.getValue(model.name, address)
    if (value === null && this.engine.getInput(model.name, address) === '') {
      return style ? { text: '', align: 'left', numeric: false, error: false, style } : undefined
    }
    const text = this.engine.getDisplay(model.name, address, model.formats.get(k))
    let view: GridCell = { ...kindOfValue(value), text }
    const server = model.serverValues.get(k)
    if (server) {
      if (server.localText === text) view = { ...server.kind, text: server.text }
      else model.serverValues.delete(k)
    }
    if (style) view.style = style
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

/** Moves per-cell entries after a row or column insert (count > 0) or delete (count < 0) at `at`. */
function shiftKeys<T>(map: Map<number, T>, axis: 'rows' | 'columns', at: number, count: number): void {
  const moved: [number, T][] = []
  for (const [k, value] of map) {
    const pos = positionOf(k)
    const index = axis === 'rows' ? pos.row : pos.col
    if (index < at) continue
    map.delete(k)
    if (count < 0 && index < at - count) continue
    const next = axis === 'rows' ? { ...pos, row: pos.row + count } : { ...pos, col: pos.col + count }
    moved.push([key(next.col, next.row), value])
  }
  for (const [k, value] of moved) map.set(k, value)
}

function shiftWidths(widths: ReadonlyMap<number, number>, at: number, count: number): Map<number, number> {
  const next = new Map<number, number>()
  for (const [col, width] of widths) {
    if (col < at) next.set(col, width)
    else if (count > 0) next.set(col + count, width)
    else if (col >= at - count) next.set(col + count, width)
  }
  return next
}

/** Merged ranges after inserting (count > 0) or deleting (count < 0) rows or columns at `at`. */
function shiftMerges(ranges: readonly CellRange[], axis: 'rows' | 'columns', at: number, count: number): CellRange[] {
  const out: CellRange[] = []
  for (const range of ranges) {
    let start = axis === 'rows' ? range.startRow : range.startCol
    let end = axis === 'rows' ? range.endRow : range.endCol
    if (count > 0) {
      if (start >= at) start += count
      if (end >= at) end += count
    } else {
      const removedEnd = at - count - 1
      start = start < at ? start : start > removedEnd ? start + count : at
      end = end < at ? end : end > removedEnd ? end + count : at - 1
      if (end < start) continue
    }
    const next = axis === 'rows' ? { ...range, startRow: start, endRow: end } : { ...range, startCol: start, endCol: end }
    if (next.endCol > next.startCol || next.endRow > next.startRow) out.push(next)
  }
  return out
}
