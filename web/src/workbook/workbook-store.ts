import type { CellEdit, Chart, ChartData, ConditionalFormatRule, DataValidationRule, IterationLimits, SetCellsCommand, SheetChart, SheetViewState, WorkbookCommand } from '@finsheet/contracts'
import type { ExternalLinkInfo, FormulaEvaluation } from '@finsheet/formula'
import { chartData, chartRecordOf, chartSpecOf, ConditionalFormatEvaluator, describeCommands, filterColumnValues, sortRangeCommand, storedIterationOptions, WorkbookModel, type CellRecord, type ChartRecord, type DefinedNameRecord, type ExternalLinkRecord, type FilterValue, type SheetRecord, type SortRequest, type TableRecord } from '@finsheet/workbook/model'
import type { CellPosition, CellRange } from '../grid/address'
import { cellAddress, MAX_COLUMNS, parseCellAddress, parseRangeAddress } from '../grid/address'
import { sheetPrefix } from '../grid/formula-editing'
import { MergeIndex, NO_MERGES } from '../grid/merges'
import type { CellStyle, GridCell, GridDataSource, GridFilterButtons, GridOutline } from '../grid/types'
import { filterButtonsOf } from '../spreadsheet/data-tools'
import { outlineGroups } from '../spreadsheet/sheet-layout'
import { isLinkCell } from '../spreadsheet/cell-annotations'
import { withConditionalLook } from '../grid/conditional-looks'
import type { ConditionalLook } from '@finsheet/workbook/model'
import type { EngineValue } from './calc-engine'
import { isEngineError } from './calc-engine'
import { makesRowTaller, TextHeights } from './text-heights'
import { autoFitHeight, measureWithCanvas, type FittedCell } from '../grid/autofit'
import { DEFAULT_COLUMN_WIDTH, ROW_HEIGHT } from '../grid/geometry'

/** Style fields that change how tall a cell's text stands. */
const TEXT_SIZE_STYLES = ['wrap', 'fontSize', 'fontFamily', 'indent', 'bold', 'italic'] as const

/** The grid shows at least 100 rows and 50 columns, more when the sheet has more. */
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
  /** frozen panes, hidden rows, columns and sheet, row heights and outline groups */
  view?: SheetViewState
  /** data-validation rules */
  validations?: DataValidationRule[]
  /** conditional-format rules in priority order */
  conditionalFormats?: ConditionalFormatRule[]
  rowCount?: number
  columnCount?: number
}

export interface WorkbookSnapshot {
  id: string
  name?: string
  sheets: SheetSnapshot[]
  /** Iterate circular references as Excel does (the workbook's setting) instead of leaving them uncalculated. */
  iterativeCalculation?: boolean
  /** The iteration limits, when not Excel's defaults. */
  iterationLimits?: IterationLimits
  /** Other workbooks the formulas refer to (`[1]` is the first), with the values the file kept of them. */
  externalLinks?: ExternalLinkRecord[]
  /** Names the formulas use (sheet-scoped ones name their sheet). */
  definedNames?: DefinedNameRecord[]
  /** Excel tables, by sheet name. */
  tables?: TableRecord[]
  /** Charts, by sheet name. */
  charts?: SheetChart[]
  /** The font of cells that state none, when the workbook came with its own (an imported file's). */
  defaultFont?: { family: string; size: number }
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

interface ServerValue {
  text: string
  kind: Pick<GridCell, 'align' | 'error' | 'numeric'>
  /** what the local engine showed when the server's answer came; a later local change wins */
  localText: string
}

/**
 * The grid's view of one sheet of the workbook model: how far it extends, what it drew last, the
 * server's values shown over the local engine's, and the rows still streaming in. Its contents
 * (inputs, values, styles, formats, widths, merges) are the model's.
 */
export class SheetView {
  /** the model's sheet, whose id stays the same through renames */
  readonly record: SheetRecord
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
  private widthsOf: Record<string, number> | null = null
  private widths: ReadonlyMap<number, number> = new Map()
  private mergesOf: readonly string[] | null = null
  private mergeIndex: MergeIndex = NO_MERGES
  private layoutOf: { widths: Record<string, number>; view: SheetViewState | undefined; text: number } | null = null
  private shownWidths: ReadonlyMap<number, number> = new Map()
  private heights: ReadonlyMap<number, number> = new Map()
  private groups: GridOutline | undefined
  /** rows whose height follows their wrapped text or large fonts */
  readonly textHeights = new TextHeights()
  private filterHeaders: GridFilterButtons | undefined
  private annotationsOf: SheetViewState | undefined | null = null
  private notePositions: readonly CellPosition[] = []
  /** The sheet's conditional formats evaluated against its values; made again after every change. */
  private evaluator: ConditionalFormatEvaluator | null = null

  constructor(record: SheetRecord, rows: number, columns: number, view: (sheet: SheetView, col: number, row: number) => GridCell | undefined) {
    this.record = record
    this.declaredRows = rows
    this.declaredColumns = columns
    this.source = new SheetSource(this, view)
  }

  get name(): string {
    return this.record.name
  }

  get id(): string {
    return this.record.id
  }

  get rowCount(): number {
    return this.source.rowCount
  }

  get columnCount(): number {
    return this.source.columnCount
  }

  /** Column widths in pixels; a new map whenever they change, so views can tell. */
  get columnWidths(): ReadonlyMap<number, number> {
    if (this.widthsOf !== this.record.columnWidths) {
      this.widthsOf = this.record.columnWidths
      this.widths = new Map(Object.entries(this.record.columnWidths).map(([col, width]) => [Number(col), width]))
    }
    return this.widths
  }

  /** The sheet's layout: frozen panes, hidden rows and columns, row heights, outline groups. */
  get layout(): SheetViewState | undefined {
    return this.record.view
  }

  /** Column widths as the grid draws them: a hidden column has none. New whenever they change. */
  get shownColumnWidths(): ReadonlyMap<number, number> {
    this.refreshLayout()
    return this.shownWidths
  }

  /** Heights of rows not of the default height: a hidden row has none. New whenever they change. */
  get rowHeights(): ReadonlyMap<number, number> {
    this.refreshLayout()
    return this.heights
  }

  private refreshLayout(): void {
    const widths = this.record.columnWidths
    const view = this.record.view
    const text = this.textHeights.version
    if (this.layoutOf && this.layoutOf.widths === widths && this.layoutOf.view === view && this.layoutOf.text === text) return
    this.layoutOf = { widths, view, text }
    const columns = new Map(this.columnWidths)
    for (const [index, entry] of Object.entries(view?.columns ?? {})) if (entry.hidden) columns.set(Number(index), 0)
    this.shownWidths = columns
    // a row's own height wins over the height of its text
    const rows = new Map<number, number>(this.textHeights.heights)
    for (const [index, entry] of Object.entries(view?.rows ?? {})) {
      // Rows the filter hides are hidden as the user's are, and kept apart in the layout.
      if (entry.hidden || entry.filtered) rows.set(Number(index), 0)
      else if (entry.height !== undefined) rows.set(Number(index), entry.height)
    }
    this.heights = rows
    const outline = { rows: outlineGroups(view, 'rows'), columns: outlineGroups(view, 'columns') }
    this.groups = outline.rows.length > 0 || outline.columns.length > 0 ? outline : undefined
    this.filterHeaders = filterButtonsOf(view)
  }

  /** The sheet filter's header cells, for their dropdown buttons; undefined without a filter. */
  get filterButtons(): GridFilterButtons | undefined {
    this.refreshLayout()
    return this.filterHeaders
  }

  /**
   * Cells with a note, for the grid's markers. A new view of the sheet may bring new links too, so the
   * cells drawn before are drawn again.
   */
  get notes(): readonly CellPosition[] {
    this.refreshAnnotations()
    return this.notePositions
  }

  /** Clears what the grid drew when the notes or links may have changed. */
  refreshAnnotations(): void {
    const view = this.record.view
    if (this.annotationsOf === view) return
    const linksBefore = this.annotationsOf?.links
    this.annotationsOf = view
    this.notePositions = Object.keys(view?.notes ?? {}).flatMap((address) => {
      const range = parseRangeAddress(address)
      return range ? [{ col: range.startCol, row: range.startRow }] : []
    })
    if (linksBefore !== view?.links) this.views.clear()
  }

  /** Grouped rows and columns, for the headers' +/− buttons; undefined without groups. */
  get outline(): GridOutline | undefined {
    this.refreshLayout()
    return this.groups
  }

  get merges(): MergeIndex {
    if (this.mergesOf !== this.record.merges) {
      this.mergesOf = this.record.merges
      const ranges = this.record.merges.map((text) => parseRangeAddress(text)).filter((range): range is CellRange => range !== null)
      this.mergeIndex = ranges.length > 0 ? new MergeIndex(ranges) : NO_MERGES
    }
    return this.mergeIndex
  }

  /** Conditional-format rules in priority order (the model's). */
  get conditionalFormats(): readonly ConditionalFormatRule[] {
    return this.record.conditionalFormats ?? []
  }

  /**
   * The sheet's rules evaluated against its current values, or null without rules. Values may have
   * changed after every change: `forgetConditionalLooks` drops it, and the next cell drawn makes a new one.
   */
  conditionalEvaluator(engine: ConstructorParameters<typeof ConditionalFormatEvaluator>[0]): ConditionalFormatEvaluator | null {
    const rules = this.record.conditionalFormats
    if (!rules || rules.length === 0) return null
    this.evaluator ??= new ConditionalFormatEvaluator(engine, this.name, rules)
    return this.evaluator
  }

  forgetConditionalLooks(): void {
    this.evaluator = null
  }

  /** extends the used area to cover a cell that now holds something */
  touch(pos: CellPosition): void {
    if (pos.row + 1 > this.usedRows) this.usedRows = pos.row + 1
    if (pos.col + 1 > this.usedColumns) this.usedColumns = pos.col + 1
  }
}

/** The grid's view of one sheet: it grows with what the sheet holds, never below 100 × 50. */
class SheetSource implements GridDataSource {
  private readonly sheet: SheetView
  private readonly view: (sheet: SheetView, col: number, row: number) => GridCell | undefined

  constructor(sheet: SheetView, view: (sheet: SheetView, col: number, row: number) => GridCell | undefined) {
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
    return this.sheet.shownColumnWidths
  }

  get rowHeights(): ReadonlyMap<number, number> {
    return this.sheet.rowHeights
  }

  get frozenRows(): number {
    return this.sheet.layout?.frozenRows ?? 0
  }

  get outline(): GridOutline | undefined {
    return this.sheet.outline
  }

  get frozenColumns(): number {
    return this.sheet.layout?.frozenColumns ?? 0
  }

  get merges(): MergeIndex {
    return this.sheet.merges
  }

  get filterButtons(): GridFilterButtons | undefined {
    return this.sheet.filterButtons
  }

  get showGridLines(): boolean {
    return this.sheet.layout?.showGridLines !== false
  }

  get notes(): readonly CellPosition[] {
    return this.sheet.notes
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
 * A workbook in the browser: the shared workbook model (the same interpreter of commands the
 * spreadsheet service runs) computes values at once; this store adds what only the browser needs: the
 * grid's views of each sheet, the server's values shown over the local ones, rows streaming in and a
 * local undo history. Everything changes through `dispatch(command)`; the server's answers come in
 * through `applyServerChanges`, and its values win over the local engine's.
 */
export class WorkbookStore {
  readonly id: string
  name: string | undefined
  /** The font of cells that state none, when the workbook came with its own (an imported file's): the grid shows them in it. */
  readonly defaultFont: { family: string; size: number } | undefined
  private model: WorkbookModel
  private readonly views = new Map<string, SheetView>()
  private readonly listeners = new Set<() => void>()
  private readonly changeListeners = new Set<(change: AppliedChange) => void>()
  private readonly undoStack: HistoryEntry[] = []
  private readonly redoStack: HistoryEntry[] = []
  private revisionCounter = 0
  /** rows to fit to their text after the change being applied, by sheet id */
  private readonly refits = new Map<string, Set<number> | 'all'>()
  /**
   * While the whole workbook loads behind a first screen (`beginStreamedOpen`): every command applied
   * since, in order, with the inverse it was given, to be made again on the whole workbook.
   */
  private streamed: { command: WorkbookCommand; inverse: WorkbookCommand }[] | null = null

  /**
   * A store of the snapshot's workbook; with `built`, of that model instead (assembled in slices by
   * `assembleFromLines` from the same snapshot's sheets), the snapshot giving the sheets' sizes.
   */
  constructor(snapshot: WorkbookSnapshot, built?: WorkbookModel) {
    this.id = snapshot.id
    this.name = snapshot.name
    this.defaultFont = snapshot.defaultFont ? { ...snapshot.defaultFont } : undefined
    const sheets = snapshot.sheets.length > 0 ? snapshot.sheets : [{ name: 'Sheet1', cells: {} }]
    const records = sheetRecordsOf(sheets)
    // every sheet exists before any cell loads, so cross-sheet formulas resolve
    this.model = built ?? WorkbookModel.build({
      revision: 0,
      sheets: records,
      definedNames: snapshot.definedNames ?? [],
      ...(snapshot.tables && snapshot.tables.length > 0 ? { tables: snapshot.tables } : {}),
      charts: (snapshot.charts ?? []).flatMap((chart) => {
        const sheet = records.find((record) => record.name === chart.sheet)
        if (!sheet) return []
        const { id, sheet: _sheet, ...spec } = chart
        return [chartRecordOf(id, sheet.id, spec)]
      }),
      // Before any cell loads, so external references calculate from the kept values as on the server.
      ...(snapshot.externalLinks && snapshot.externalLinks.length > 0 ? { externalLinks: snapshot.externalLinks } : {}),
      cells: sheets.flatMap((sheet, index) =>
        Object.entries(sheet.cells).flatMap(([address, cell]) => {
          const pos = parseCellAddress(address)
          if (!pos) return []
          return [{ sheetId: records[index].id, address: cellAddress(pos), input: cell.input ?? '', style: cell.style, userFormat: cell.format }]
        }),
      ),
    }, storedIterationOptions(snapshot.iterativeCalculation, snapshot.iterationLimits))
    sheets.forEach((sheet, index) => {
      const view = this.viewOf(this.model.sheets[index])
      view.declaredRows = sheet.rowCount ?? 0
      view.declaredColumns = sheet.columnCount ?? 0
      // an assembled model's cells are not in the snapshot: the sheet's size says how far they reach
      if (built) {
        view.usedRows = sheet.rowCount ?? 0
        view.usedColumns = sheet.columnCount ?? 0
      }
      if (sheet.rows && sheet.rows.length > 0) {
        this.model.engine.loadSheet(sheet.name, sheet.rows)
        view.usedRows = Math.max(view.usedRows, sheet.rows.length)
        view.usedColumns = Math.max(view.usedColumns, ...sheet.rows.slice(0, 1000).map((r) => r.length))
      }
      for (const address of Object.keys(sheet.cells)) {
        const pos = parseCellAddress(address)
        if (pos) view.touch(pos)
      }
      for (const range of view.merges.ranges) view.touch({ col: range.endCol, row: range.endRow })
    })
    for (const record of this.model.sheets) this.rescanTextHeights(this.viewOf(record))
  }

  /** Bumps on every change; the grid repaints when it moves. */
  get revision(): number {
    return this.revisionCounter
  }

  get sheetNames(): string[] {
    return this.model.sheets.map((sheet) => sheet.name)
  }

  /** The sheets whose tabs show, in order: hidden sheets are left out. */
  get visibleSheetNames(): string[] {
    return this.model.sheets.filter((sheet) => !sheet.view?.hidden).map((sheet) => sheet.name)
  }

  /** The hidden sheets, in order, for Unhide sheet. */
  get hiddenSheetNames(): string[] {
    return this.model.sheets.filter((sheet) => sheet.view?.hidden).map((sheet) => sheet.name)
  }

  /** The grid's view of a sheet by its exact name. */
  sheet(name: string): SheetView | undefined {
    const record = this.model.sheets.find((sheet) => sheet.name === name)
    return record && this.viewOf(record)
  }

  private viewOf(record: SheetRecord): SheetView {
    let view = this.views.get(record.id)
    if (!view || view.record !== record) {
      view = new SheetView(record, 0, 0, (sheet, col, row) => this.view(sheet, col, row))
      this.views.set(record.id, view)
    }
    return view
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
    return this.sheet(sheet) ? this.model.engine.getInputAt(sheet, pos.row, pos.col) : ''
  }

  getStyle(sheet: string, pos: CellPosition): CellStyle | undefined {
    const view = this.sheet(sheet)
    return view && this.model.styleAtPosition(view.id, pos.row, pos.col)
  }

  getFormat(sheet: string, pos: CellPosition): string | undefined {
    const view = this.sheet(sheet)
    return view && this.model.formatAtPosition(view.id, pos.row, pos.col)
  }

  /** The workbook's defined names, as the formulas read them. */
  get definedNames(): readonly DefinedNameRecord[] {
    return this.model.definedNames
  }

  /** Every formula of a sheet with its cell, for finding the cells that read a given one. */
  forEachFormula(sheet: string, visit: (pos: CellPosition, formula: string) => void): void {
    if (!this.sheet(sheet)) return
    this.model.engine.forEachCell(sheet, (cell) => {
      if (cell.formula) visit({ col: cell.col, row: cell.row }, cell.formula)
    })
  }

  getValue(sheet: string, pos: CellPosition): EngineValue {
    return this.sheet(sheet) ? this.model.engine.getValueAt(sheet, pos.row, pos.col) : null
  }

  /** How circular references calculate: iterated within the limits, or left uncalculated. */
  get calculation(): { iterate: boolean } & IterationLimits {
    const { iterate, maxIterations, maxChange } = this.model.calculation
    return { iterate, maxIterations, maxChange }
  }

  /** The other workbooks the formulas read, with how many formula cells read each. */
  externalLinks(): ExternalLinkInfo[] {
    return this.model.listExternalLinks()
  }

  /**
   * What a formula gives written at `address` on `sheet` (a name's value, a trial), without writing
   * it: the workbook stays as it is.
   */
  evaluate(sheet: string, formula: string, address = 'A1'): FormulaEvaluation {
    return this.model.engine.evaluateFormula(sheet, address, formula)
  }

  /**
   * Formula loops the workbook does not iterate, each as its cells (`Sheet!A1`): they are not
   * calculated and keep their last values, as in Excel, so the status bar warns of them.
   */
  circularReferences(): string[][] {
    return this.model.engine.getCircularReferences().map((cycle) => cycle.map((cell) => `${sheetPrefix(cell.sheet)}${cell.address}`))
  }

  /** The text a cell shows, as the grid draws it. */
  getDisplay(sheet: string, pos: CellPosition): string {
    const view = this.sheet(sheet)
    return view ? (this.view(view, pos.col, pos.row)?.text ?? '') : ''
  }

  /**
   * The set-cells command that sorts a range of a sheet by the values the model calculates, or null
   * when it is in order already. Throws a CommandError for a range that cannot be sorted.
   */
  sortCommand(sheet: string, request: SortRequest): SetCellsCommand | null {
    const view = this.sheet(sheet)
    return view ? sortRangeCommand(this.model, view.id, request) : null
  }

  /** The distinct values a column of a sheet's filter shows below its headers, in sort order, for its dropdown. */
  filterValues(sheet: string, column: number): FilterValue[] {
    const view = this.sheet(sheet)
    const filter = view?.layout?.filter
    return view && filter ? filterColumnValues(this.model, view.id, filter, column) : []
  }

  dataSource(sheet: string): GridDataSource | undefined {
    return this.sheet(sheet)?.source
  }

  isFilled(sheet: string, pos: CellPosition): boolean {
    return this.getInput(sheet, pos) !== ''
  }

  /** The bottom-right corner of the used area (Ctrl+End). */
  lastUsedCell(sheet: string): CellPosition {
    if (!this.sheet(sheet)) return { col: 0, row: 0 }
    const used = this.model.engine.getUsedRange(sheet)
    return used ? { col: used.right, row: used.bottom } : { col: 0, row: 0 }
  }

  /**
   * A range cut to what a sheet uses and the grid shows, for formatting a whole row or column: its
   * cells past both are empty and unstyled, and a format covers a bounded number of cells.
   */
  clampToUsed(sheet: string, range: CellRange): CellRange {
    const view = this.sheet(sheet)
    if (!view) return range
    return {
      startCol: range.startCol,
      startRow: range.startRow,
      endRow: Math.min(range.endRow, Math.max(view.usedRows - 1, range.startRow, DISPLAY_ROWS - 1)),
      endCol: Math.min(range.endCol, Math.max(view.usedColumns - 1, range.startCol, DISPLAY_COLUMNS - 1)),
    }
  }

  /** The inputs of a block, row by row, for copying. */
  inputsOf(sheet: string, range: CellRange): string[][] {
    return this.mapRange(range, (pos) => this.getInput(sheet, pos))
  }

  /** The shown texts of a block, row by row, for copying to other programs. */
  valuesOf(sheet: string, range: CellRange): EngineValue[][] {
    return this.mapRange(range, (pos) => this.getValue(sheet, pos))
  }

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

  /**
   * What a chart of `range` on `sheet` would draw (each column a series, the first one the labels),
   * as the spreadsheet service reads a stored chart; empty for a range that is not one.
   */
  chartData(sheet: string, range: string): ChartData {
    const view = this.sheet(sheet)
    const area = parseRangeAddress(range)
    if (!view || !area) return { labels: [], series: [] }
    const records: CellRecord[] = []
    for (let row = area.startRow; row <= area.endRow; row++) {
      for (let col = area.startCol; col <= area.endCol; col++) {
        const record = this.model.record(view.id, cellAddress({ col, row }))
        if (record) records.push(record)
      }
    }
    return chartData({ dataRange: range, seriesInColumns: true }, records)
  }

  /** The charts placed on a sheet over its cells, in drawing order; a new list whenever they change. */
  chartsOn(sheet: string): ChartRecord[] {
    const view = this.sheet(sheet)
    if (!view) return []
    return this.model.charts.filter((chart) => chart.sheetId === view.id && chart.anchor !== undefined)
  }

  /** Every chart of the workbook as the charts route lists them, its data read from this browser's values. */
  listCharts(): Chart[] {
    return this.model.charts.map((chart) => ({ id: chart.id, sheet: this.model.sheetName(chart.sheetId), ...chartSpecOf(chart), data: this.chartDataOf(chart) }))
  }

  /** Every chart's title, for naming a new one. */
  chartTitles(): string[] {
    return this.model.charts.map((chart) => chart.title)
  }

  chartById(id: string): ChartRecord | undefined {
    return this.model.charts.find((chart) => chart.id === id)
  }

  /** What a stored chart draws now, read from this browser's values, so it follows an edit in the same frame as the cells. */
  chartDataOf(chart: Pick<ChartRecord, 'sheetId' | 'dataRange' | 'seriesInColumns'>): ChartData {
    const area = parseRangeAddress(chart.dataRange)
    if (!area || !this.model.sheets.some((sheet) => sheet.id === chart.sheetId)) return { labels: [], series: [] }
    const records: CellRecord[] = []
    for (let row = area.startRow; row <= area.endRow; row++) {
      for (let col = area.startCol; col <= area.endCol; col++) {
        const record = this.model.record(chart.sheetId, cellAddress({ col, row }))
        if (record) records.push(record)
      }
    }
    return chartData(chart, records)
  }

  /** Walks a sheet's cells with content (the engine's cells: input and value). */
  forEachCell(sheet: string, visit: (cell: { address: string; row: number; col: number; input: string; value: EngineValue }) => void): void {
    if (!this.sheet(sheet)) return
    this.model.engine.forEachCell(sheet, visit)
  }

  get canUndo(): boolean {
    return this.undoStack.length > 0
  }

  get canRedo(): boolean {
    return this.redoStack.length > 0
  }

  get undoLabel(): string | null {
    const top = this.undoStack.at(-1)
    return top ? describeCommands([top.command]) : null
  }

  get redoLabel(): string | null {
    const top = this.redoStack.at(-1)
    return top ? describeCommands([top.command]) : null
  }

  /**
   * Applies a command. Throws a CommandError, changing nothing, when the workbook's rules refuse it
   * (a sheet that does not exist, an address that is not one, a merge over a merge…). User commands
   * go on the undo history.
   */
  dispatch(command: WorkbookCommand, origin: ChangeOrigin = 'user'): void {
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
    const view = this.requireSheet(sheet)
    view.declaredRows = Math.max(view.declaredRows, totalRows)
    view.declaredColumns = Math.max(view.declaredColumns, totalColumns)
    view.loading = { loadedRows: 0, totalRows, edited: new Set() }
    this.notify()
  }

  /** Loads a block of inputs (rows from `startRow`) through the engine's bulk path; no undo, no save. */
  loadRows(sheet: string, startRow: number, rows: readonly (readonly (CellInputValue | undefined)[])[]): void {
    const view = this.requireSheet(sheet)
    const edited = view.loading?.edited
    const block =
      edited && edited.size > 0
        ? rows.map((cells, r) => cells.map((input, c) => (edited.has(key(c, startRow + r)) ? undefined : input)))
        : rows
    this.model.engine.loadSheet(sheet, block, cellAddress({ col: 0, row: startRow }))
    if (rows.length > 0) {
      view.usedRows = Math.max(view.usedRows, startRow + rows.length)
      view.usedColumns = Math.max(view.usedColumns, rows[0].length, rows[rows.length - 1].length)
    }
    if (view.loading) view.loading.loadedRows = Math.max(view.loading.loadedRows, startRow + rows.length)
    this.clearViews()
    this.notify()
  }

  endLoading(sheet: string): void {
    const view = this.requireSheet(sheet)
    view.loading = null
    this.rescanTextHeights(view)
    this.notify()
  }

  /**
   * Starts a streamed open: this store holds the first screen of the workbook while the whole of it
   * loads elsewhere (`assembleFromLines`). Everything applied from now on (the user's edits, undo,
   * the server's answers) is kept, in order, for `adoptLoaded` to make again on the whole workbook.
   */
  beginStreamedOpen(): void {
    this.streamed = []
  }

  /** Whether the whole workbook is still loading behind the first screen. */
  get isStreaming(): boolean {
    return this.streamed !== null
  }

  /**
   * Shows the first screen of another sheet, read while the whole workbook loads (the user went to
   * it): its cells where nothing was typed meanwhile, the values the service stored for them, and the
   * sheet's size. It is what the whole workbook holds already, so nothing is kept to be made again,
   * undone or sent.
   */
  showFirstScreen(sheet: string, screen: { cells: SheetSnapshot['cells']; values: readonly Pick<ServerCellChange, 'sheet' | 'address' | 'value' | 'display'>[]; rowCount: number; columnCount: number }): void {
    const view = this.sheet(sheet)
    if (!view || !this.streamed) return
    const cells: CellEdit[] = []
    for (const [address, cell] of Object.entries(screen.cells)) {
      const pos = parseCellAddress(address)
      // a cell only a spilling formula fills is the engine's to show
      if (cell.input === undefined && !cell.style && !cell.format) continue
      if (!pos || this.getInput(sheet, pos) !== '' || this.getStyle(sheet, pos) || this.getFormat(sheet, pos)) continue
      cells.push({ address, ...(cell.input !== undefined ? { input: cell.input } : {}), ...(cell.style ? { style: cell.style } : {}), ...(cell.format ? { format: cell.format } : {}) })
    }
    const kept = this.streamed
    this.streamed = null
    try {
      if (cells.length > 0) this.apply({ type: 'set-cells', sheet, cells })
    } finally {
      this.streamed = kept
    }
    view.declaredRows = Math.max(view.declaredRows, screen.rowCount)
    view.declaredColumns = Math.max(view.declaredColumns, screen.columnCount)
    const shown = new Set(cells.map((cell) => cell.address))
    this.showServerValues(screen.values.filter((value) => shown.has(value.address)))
  }

  /** How far a streamed open has come (0 to 1), shown in the status bar as a sheet's loading does. */
  reportStreamedProgress(sheet: string, fraction: number): void {
    const view = this.sheet(sheet)
    if (!view?.loading) return
    view.loading.loadedRows = Math.min(view.loading.totalRows, Math.round(fraction * view.loading.totalRows))
    this.notify()
  }

  /**
   * Ends a streamed open: the whole workbook (`loaded`, a store of the same workbook built from the
   * service's inputs at the revision this one opened at) takes over. What was applied here since the
   * first screen is made again on it, in order; the inverses given then (kept by the undo history and
   * the sync) are set to what they are on the whole workbook, since a cell outside the first screen
   * was not known then. The engine's values replace the stored ones shown until now.
   */
  adoptLoaded(loaded: WorkbookStore): void {
    const replay = this.streamed ?? []
    this.streamed = null
    for (const { command, inverse } of replay) {
      try {
        rewriteCommand(inverse, loaded.apply(command))
      } catch (error) {
        console.warn('An edit made while the workbook loaded no longer applies to it', command, error)
      }
    }
    this.model = loaded.model
    this.views.clear()
    for (const record of this.model.sheets) {
      const view = this.viewOf(record)
      const whole = loaded.views.get(record.id)
      if (whole) {
        view.declaredRows = whole.declaredRows
        view.declaredColumns = whole.declaredColumns
        view.usedRows = whole.usedRows
        view.usedColumns = whole.usedColumns
      }
      this.rescanTextHeights(view)
    }
    this.clearViews()
    this.notify()
  }

  /**
   * The server's answer to an edit: the cells whose inputs or values changed. Inputs it reports
   * replace ours (another tab or the assistant may have written them) and its values are shown in
   * place of the local engine's until a local change moves that cell's value again.
   */
  applyServerChanges(changes: readonly ServerCellChange[]): void {
    const bySheet = new Map<string, CellEdit[]>()
    for (const change of changes) {
      const view = this.sheet(change.sheet)
      const pos = parseCellAddress(change.address)
      if (!view || !pos) continue
      const edit: CellEdit = { address: cellAddress(pos) }
      let differs = false
      if (change.input !== undefined && change.input !== this.getInput(view.name, pos)) {
        edit.input = change.input
        differs = true
      }
      if (change.style !== undefined) {
        edit.style = change.style
        differs = true
      }
      if (change.format !== undefined && (change.format ?? undefined) !== this.getFormat(view.name, pos)) {
        edit.format = change.format
        differs = true
      }
      if (differs) bySheet.set(view.name, [...(bySheet.get(view.name) ?? []), edit])
    }
    if (bySheet.size > 0) this.apply({ type: 'batch', label: 'server', commands: [...bySheet].map(([sheet, cells]) => ({ type: 'set-cells' as const, sheet, cells })) })
    this.showServerValues(changes)
  }

  /**
   * Shows values the service calculated over the local engine's, each until a local change moves
   * that cell's value: the first screen of a workbook still loading shows the stored values so.
   */
  showServerValues(changes: readonly Pick<ServerCellChange, 'sheet' | 'address' | 'value' | 'display'>[]): void {
    for (const change of changes) {
      const view = this.sheet(change.sheet)
      const pos = parseCellAddress(change.address)
      if (!view || !pos || change.value === undefined) continue
      const k = key(pos.col, pos.row)
      view.views.delete(k)
      view.serverValues.delete(k)
      const localText = this.computeView(view, pos.col, pos.row)?.text ?? ''
      const text = change.display ?? (isEngineError(change.value) ? change.value.code : localText)
      if (text !== localText) view.serverValues.set(k, { text, kind: kindOfValue(change.value), localText })
    }
    this.clearViews()
    this.notify()
  }

  snapshot(): WorkbookSnapshot {
    const externalLinks = this.model.externalLinks
    const definedNames = this.model.definedNames
    const tables = this.model.tables
    return {
      id: this.id,
      name: this.name,
      ...(externalLinks.length > 0 ? { externalLinks } : {}),
      ...(definedNames.length > 0 ? { definedNames: definedNames.map((name) => ({ ...name })) } : {}),
      ...(tables.length > 0 ? { tables: tables.map((table) => ({ ...table, columns: [...table.columns] })) } : {}),
      ...(this.model.charts.length > 0 ? { charts: this.model.charts.map((chart) => ({ id: chart.id, sheet: this.model.sheetName(chart.sheetId), ...chartSpecOf(chart) })) } : {}),
      sheets: this.model.sheets.map((record) => {
        const view = this.viewOf(record)
        const cells: SheetSnapshot['cells'] = {}
        for (const cell of this.model.sheetRecords(record.id)) {
          const entry: SheetSnapshot['cells'][string] = {}
          if (cell.input !== '') entry.input = cell.input
          if (cell.style) entry.style = cell.style
          if (cell.userFormat) entry.format = cell.userFormat
          if (Object.keys(entry).length > 0) cells[cell.address] = entry
        }
        return {
          name: record.name,
          cells,
          columnWidths: { ...record.columnWidths },
          merges: [...record.merges],
          ...(record.view ? { view: record.view } : {}),
          ...(record.conditionalFormats ? { conditionalFormats: record.conditionalFormats } : {}),
          rowCount: view.declaredRows,
          columnCount: view.declaredColumns,
        }
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

  private requireSheet(name: string): SheetView {
    const view = this.sheet(name)
    if (!view) throw new Error(`There is no sheet named ${name}`)
    return view
  }

  /** Applies a command through the model and returns the command that undoes it. */
  private apply(command: WorkbookCommand): WorkbookCommand {
    const result = this.model.apply([command])
    for (const applied of result.applied) this.follow(applied)
    this.clearViews()
    this.refitRows()
    const label = describeCommands([command])
    const inverse: WorkbookCommand = result.inverse.length === 1 ? result.inverse[0] : { type: 'batch', label, commands: result.inverse.map((inverse) => inverse as Exclude<WorkbookCommand, { type: 'batch' }>) }
    this.streamed?.push({ command, inverse })
    return inverse
  }

  /** Keeps each sheet's view in step with an applied command: the used area, cells edited while rows stream in. */
  private follow(command: WorkbookCommand): void {
    switch (command.type) {
      case 'set-cells': {
        const view = this.sheet(command.sheet)
        if (!view) return
        const rows = new Set<number>()
        for (const cell of command.cells) {
          const pos = parseCellAddress(cell.address)
          if (!pos) continue
          if (cell.input !== undefined) view.loading?.edited.add(key(pos.col, pos.row))
          if ((cell.input !== undefined && cell.input !== '') || (cell.style !== undefined && cell.style !== null)) view.touch(pos)
          view.textHeights.mark(pos.row, pos.col, makesRowTaller(this.model.styleAtPosition(view.id, pos.row, pos.col)))
          rows.add(pos.row)
        }
        this.refitLater(view, rows)
        return
      }
      case 'format-cells': {
        const view = this.sheet(command.sheet)
        const patch = command.style ?? {}
        if (view && TEXT_SIZE_STYLES.some((name) => name in patch)) this.refitLater(view, 'all')
        return
      }
      case 'resize-column': {
        const view = this.sheet(command.sheet)
        if (view) this.refitLater(view, view.textHeights.rowsWithColumn(command.column))
        return
      }
      case 'set-sheet-view':
      case 'add-sheet':
      case 'rename-sheet':
      case 'move-sheet':
      case 'define-name':
      case 'set-calculation':
        return
      case 'merge-cells': {
        const range = parseRangeAddress(command.range)
        const view = this.sheet(command.sheet)
        if (range && view) view.touch({ col: range.endCol, row: range.endRow })
        if (view) this.refitLater(view, 'all')
        return
      }
      case 'move-cells': {
        const from = parseRangeAddress(command.range)
        const anchor = parseCellAddress(command.target)
        const view = this.sheet(command.targetSheet ?? command.sheet)
        if (from && anchor && view) view.touch({ col: anchor.col + from.endCol - from.startCol, row: anchor.row + from.endRow - from.startRow })
        for (const moved of [this.sheet(command.sheet), view]) if (moved) this.refitLater(moved, 'all')
        return
      }
      case 'insert-rows':
      case 'insert-columns':
      case 'delete-rows':
      case 'delete-columns': {
        const view = this.sheet(command.sheet)
        if (!view) return
        const rows = command.type.endsWith('rows')
        const used = rows ? view.usedRows : view.usedColumns
        const next = command.type.startsWith('insert') ? (used > command.at ? used + command.count : used) : Math.max(command.at, used - command.count)
        if (rows) view.usedRows = next
        else view.usedColumns = next
        this.refitLater(view, 'all')
        return
      }
      case 'delete-sheet':
        for (const [id] of this.views) if (!this.model.sheets.some((sheet) => sheet.id === id)) this.views.delete(id)
        return
      default: {
        // a command this view does not know the shape of may move cells of its sheet: fit it again
        const sheet = 'sheet' in command && typeof command.sheet === 'string' ? this.sheet(command.sheet) : undefined
        if (sheet) this.refitLater(sheet, 'all')
        return
      }
    }
  }

  /** Notes rows to fit to their text once the change being applied has been calculated. */
  private refitLater(view: SheetView, rows: Iterable<number> | 'all'): void {
    const pending = this.refits.get(view.id)
    if (pending === 'all') return
    if (rows === 'all') return void this.refits.set(view.id, 'all')
    const set = pending ?? new Set<number>()
    for (const row of rows) set.add(row)
    this.refits.set(view.id, set)
  }

  private refitRows(): void {
    for (const [id, rows] of this.refits) {
      const view = this.views.get(id)
      if (!view) continue
      if (rows === 'all') this.rescanTextHeights(view)
      else this.fitRows(view, rows)
    }
    this.refits.clear()
  }

  /** Finds the cells of a sheet that can make their row taller, and fits those rows. */
  private rescanTextHeights(view: SheetView): void {
    view.textHeights.clear()
    this.model.forEachStyle(view.id, (row, col, style) => {
      if (makesRowTaller(style)) view.textHeights.mark(row, col, true)
    })
    this.fitRows(view, view.textHeights.rows())
  }

  private fitRows(view: SheetView, rows: Iterable<number>): void {
    if (view.textHeights.isEmpty && view.textHeights.heights.size === 0) return
    const widths = view.shownColumnWidths
    const merges = view.merges
    for (const row of rows) {
      view.textHeights.refit(row, (columns) => {
        const cells: FittedCell[] = []
        for (const col of columns) {
          // Excel does not fit rows to merged cells
          if (merges.at({ col, row })) continue
          const cell = this.view(view, col, row)
          if (cell) cells.push({ text: cell.text, style: cell.style, width: widths.get(col) ?? DEFAULT_COLUMN_WIDTH })
        }
        return autoFitHeight(cells, ROW_HEIGHT, measureWithCanvas)
      })
    }
  }

  private clearViews(): void {
    for (const view of this.views.values()) {
      view.views.clear()
      view.forgetConditionalLooks()
    }
  }

  /** How the sheet's conditional formats change a cell's look; undefined when no rule applies. */
  conditionalLook(sheet: string, pos: CellPosition): ConditionalLook | undefined {
    const view = this.sheet(sheet)
    const evaluator = view?.conditionalEvaluator(this.model.engine)
    return evaluator && evaluator.covers(pos.row, pos.col) ? evaluator.lookAt(pos.row, pos.col) : undefined
  }

  private view(sheet: SheetView, col: number, row: number): GridCell | undefined {
    sheet.refreshAnnotations()
    const k = key(col, row)
    const cached = sheet.views.get(k)
    if (cached !== undefined) return cached ?? undefined
    const computed = this.computeView(sheet, col, row)
    if (sheet.views.size > VIEW_CACHE_LIMIT) sheet.views.clear()
    sheet.views.set(k, computed ?? null)
    return computed
  }

  private computeView(sheet: SheetView, col: number, row: number): GridCell | undefined {
    const evaluator = sheet.conditionalEvaluator(this.model.engine)
    const plain = this.plainView(sheet, col, row)
    if (!evaluator || !evaluator.covers(row, col)) return plain
    const look = evaluator.lookAt(row, col)
    if (!look) return plain
    const format = look.style?.format
    const text = format !== undefined && plain ? this.model.engine.getDisplayAt(sheet.name, row, col, format) : undefined
    return withConditionalLook(plain, look, text)
  }

  /** A cell's look as the grid draws it: in the workbook's default font where the cell names none. */
  private shownStyle(style: CellStyle | undefined): CellStyle | undefined {
    const font = this.defaultFont
    if (!font || (style?.fontFamily && style.fontSize)) return style
    return { ...style, fontFamily: style?.fontFamily ?? font.family, fontSize: style?.fontSize ?? font.size }
  }

  private plainView(sheet: SheetView, col: number, row: number): GridCell | undefined {
    const k = key(col, row)
    const engine = this.model.engine
    const own = this.model.styleAtPosition(sheet.id, row, col)
    const style = this.shownStyle(own)
    const value = engine.getValueAt(sheet.name, row, col)
    if (value === null && engine.getInputAt(sheet.name, row, col) === '') {
      return own && style ? { text: '', align: 'left', numeric: false, error: false, style } : undefined
    }
    const text = engine.getDisplayAt(sheet.name, row, col, this.model.formatAtPosition(sheet.id, row, col))
    let view: GridCell = { ...kindOfValue(value), text }
    const server = sheet.serverValues.get(k)
    if (server) {
      if (server.localText === text) view = { ...server.kind, text: server.text }
      else sheet.serverValues.delete(k)
    }
    if (style) view.style = style
    if (isLinkCell(sheet.layout, engine.getInputAt(sheet.name, row, col), row, col)) view.link = true
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

/** The model's records of the snapshot's sheets (ids s1, s2, … in order), before any cell loads. */
export function sheetRecordsOf(sheets: readonly SheetSnapshot[]): SheetRecord[] {
  return sheets.map((sheet, index) => ({
    id: `s${index + 1}`,
    name: sheet.name,
    columnWidths: { ...(sheet.columnWidths ?? {}) },
    merges: [...(sheet.merges ?? [])],
    ...(sheet.view ? { view: sheet.view } : {}),
    ...(sheet.validations ? { validations: sheet.validations } : {}),
    ...(sheet.conditionalFormats && sheet.conditionalFormats.length > 0 ? { conditionalFormats: sheet.conditionalFormats } : {}),
  }))
}

/** Makes `target` the command `source` is, in place, for those who hold it. */
function rewriteCommand(target: WorkbookCommand, source: WorkbookCommand): void {
  if (target === source) return
  const fields = target as unknown as Record<string, unknown>
  for (const name of Object.keys(fields)) delete fields[name]
  Object.assign(fields, source)
}
