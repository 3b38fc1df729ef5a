/**
 * The calculation engine: sheets of cells, formulas, the dependency graph and recalculation.
 * See the package index for the public API in brief.
 */
import { formatAddress, formatRange, parseAddress, parseRange } from '../address/a1.js'
import type { CellAddress, RangeAddress } from '../address/a1.js'
import { sheetNameFormatProblem } from '../address/sheet-names.js'
import { serialFromJsDate } from '../dates.js'
import { EngineUsageError, InvalidAddressError, MESSAGES, SheetNotFoundError } from '../errors.js'
import { compileExpression, compileFormula } from '../evaluator/compiler.js'
import type { CompileHost } from '../evaluator/compiler.js'
import { DEFAULT_EVALUATION_LIMITS, EvaluationMeter } from '../evaluator/budget.js'
import type { EvaluationLimits } from '../evaluator/budget.js'
import { EvalContext } from '../evaluator/context.js'
import type { EvaluationHost } from '../evaluator/context.js'
import { formatValue } from '../format/number-format.js'
import { createBuiltinRegistry } from '../functions/index.js'
import type { FunctionRegistry } from '../functions/registry.js'
import type { FunctionCatalogueEntry } from '../functions/types.js'
import { DependencyGraph } from '../graph/dependency-graph.js'
import type { GraphHost, NameDependencies } from '../graph/dependency-graph.js'
import { parseCellInput, plainNumber } from '../input/parse-input.js'
import type { Node, RefCorner } from '../parser/ast.js'
import { TokenType, tokenize } from '../parser/lexer.js'
import { FormulaSyntaxError, parseTokens, shapeKey } from '../parser/parser.js'
import { ShapeScan } from '../parser/shape-key.js'
import { printFormula } from '../parser/printer.js'
import { ArrayValue, CellError, MAX_COL, MAX_ROW, RangeRef } from '../values.js'
import type { Scalar, Value } from '../values.js'
import { Calculator, finalize } from './calculator.js'
import type { CellChange, IterationSettings } from './calculator.js'
import { CellState, FormulaCell } from './formula-cell.js'
import type { CompiledFormula, Evaluator } from './formula-cell.js'
import { isValidName } from './names.js'
import type { DefinedName, NameInfo } from './names.js'
import { Sheet, formulaTextOf } from './sheet.js'
import type { Column } from './sheet.js'
import { collectSheetNames, dropSheetFromTree, movePosition, moveStorage, renameSheetInTree, shiftTree } from './structure.js'
import { r1c1ToA1 } from '../address/r1c1.js'
import type { StructuralChange } from './structure.js'
import { keptPositions, shapeReach } from './shape-reach.js'
import { PositionSet } from './position-set.js'
import type { KeptPositions } from './shape-reach.js'
import { insideBlock, moveTree } from './move.js'
import type { BlockMove, SheetRef } from './move.js'
import { DataTables, isTableFormula } from './data-tables.js'
import { columnIndex, dataBottom, dataTop, defaultColumnName, tableUseKey, uniqueColumnName } from './tables.js'
import type { Table, TableDefinition, TableInfo } from './tables.js'
import { mapTree, shiftInterval } from './structure.js'
import { ExternalSheet, findExternalSheet, findExternalWorkbook } from './external-links.js'
import { HIDDEN_BY_FILTER, HIDDEN_BY_USER, badRowIndex, hiddenRowFlags, sameHiddenRows, treeReadsHiddenRows } from './hidden-rows.js'
import type { HiddenRows } from './hidden-rows.js'
import type { ExternalLinkInfo, ExternalWorkbook } from './external-links.js'
import { fileNameOf, isExternalSheetName } from '../address/external.js'
import type { DataTableHost, TableInput } from './data-tables.js'

export type { CellChange, IterationSettings } from './calculator.js'
export type { ExternalWorkbook, ExternalWorkbookSheet, ExternalLinkInfo } from './external-links.js'
export type { HiddenRows } from './hidden-rows.js'

/** A value a cell can hold after calculation; `null` is empty. */
export type CellValue = Scalar

/** What can be written into a cell: text as typed (formulas start with '='), or a plain value. */
export type CellInputValue = string | number | boolean | null

export interface CellUpdate {
  sheet: string
  /** A1 address such as 'B3'. */
  address: string
  input: CellInputValue
  /**
   * For a legacy array formula (Ctrl+Shift+Enter, or an xlsx `<f t="array" ref="...">`): the range it
   * fills, whose top-left cell is `address`. The formula's result is fitted to exactly that range.
   */
  arrayRange?: string
  /**
   * The formula was saved without dynamic-array semantics (a plain `<f>` in an xlsx file): ranges where
   * one value is expected are implicitly intersected with the formula's row or column, and the formula
   * never spills — as Excel 365 shows such formulas with '@'.
   */
  legacy?: boolean
  /**
   * For a formula: the value it was saved with (the value a file cached). The cell holds it until it is
   * calculated, so a circular reference iterates from it, as Excel does on opening a file, and keeps it
   * when iteration is off, as Excel keeps a circular formula's last value.
   */
  saved?: CellValue
  /**
   * For a dynamic-array formula: every value of the array it was saved spilling, row by row. A formula
   * calling a function that reaches outside the workbook (STOCKHISTORY) keeps it whole while it keeps
   * its saved value.
   */
  savedArray?: CellValue[][]
}

export interface EngineOptions {
  /** Excel's iterative calculation for circular references (off by default, as in Excel). */
  iterative?: Partial<IterationSettings>
  /** The functions formulas may call; defaults to every built-in function. */
  functions?: FunctionRegistry
  /** The clock TODAY() and NOW() read; defaults to the system clock. */
  clock?: () => Date
  /**
   * The budget of each formula and recalculation: array sizes and time (see DEFAULT_EVALUATION_LIMITS).
   * A formula over it shows #NUM! (arrays) or #CALC! (time) with a message saying which limit.
   */
  limits?: Partial<EvaluationLimits>
  /** The clock, in milliseconds, the time budget reads; defaults to Date.now. */
  timer?: () => number
}

/** One non-empty cell, as listed by `cells()`. */
export interface CellSnapshot {
  address: string
  row: number
  col: number
  /** What the user typed ('' for a cell only filled by a spilling array). */
  input: string
  value: CellValue
  /** The formula with '=', for formula cells. */
  formula?: string
  /** The number format suggested by what was typed or by the formula's function. */
  format?: string
  /** Whether the value was spilled by an array formula in another cell. */
  spilled?: boolean
  /**
   * The value is the one the file was saved with, kept because the formula calls a function that
   * reaches outside the workbook (market data, a web service, a cube) and none of its inputs changed.
   */
  savedValue?: boolean
  /** The range a legacy array formula anchored here fills. */
  arrayRange?: string
}

/** A cell as `Engine.getStoredCellAt` reads it: what a store of every cell keeps. */
export interface StoredCell {
  /** What the user typed ('' for a cell only filled by a spilling array); formulas with '='. */
  input: string
  value: CellValue
  /** Whether the cell holds a formula. */
  formula: boolean
  /** The number format suggested by what was typed or by the formula's function. */
  format?: string
  /** The range a legacy array formula anchored here fills. */
  arrayRange?: string
}

/** A formula compiled once and calculated at many cells (`Engine.compileRelativeFormula`). */
export interface RelativeFormula {
  /** Why the formula cannot be read; it gives #ERROR! everywhere. */
  readonly error?: string
  /** The formula's value at a cell (0-based), its relative references moved from where it was written. */
  at(row: number, col: number): CellValue
}

/** A formula calculated without being written (`Engine.evaluateFormula`). */
export interface FormulaEvaluation {
  /** The value, or the top-left value of an array result. */
  value: CellValue
  /** The size of the result: 1 × 1 unless the formula returns an array. */
  rows: number
  columns: number
  /** The number format the formula's outermost function suggests (TODAY → a date format). */
  format: string | undefined
}

const DEFAULT_ITERATION: IterationSettings = { enabled: false, maxIterations: 100, maxChange: 0.001 }

/** A parse failure: the formula is kept as typed and its value is #ERROR!. */
function invalidFormula(message: string): CompiledFormula {
  const error = new CellError('#ERROR!', message)
  return {
    key: '',
    ast: { type: 'error', code: '#ERROR!' },
    evaluate: () => error,
    cells: [],
    ranges: [],
    names: [],
    spills: [],
    volatile: false,
    isSubtotal: false,
    missingSheets: [],
    sheets: [],
    resultFormat: undefined,
    invalid: true,
    legacy: false,
  }
}

/** Appends the closing parentheses a formula is missing, as Excel does on commit. */
function closeParentheses(text: string): string {
  let depth = 0
  let inString = false
  let inQuote = false
  for (let i = 1; i < text.length; i++) {
    const ch = text[i]
    if (inString) {
      if (ch === '"') inString = false
    } else if (inQuote) {
      if (ch === "'") inQuote = false
    } else if (ch === '"') inString = true
    else if (ch === "'") inQuote = true
    else if (ch === '(') depth++
    else if (ch === ')') depth--
  }
  return depth > 0 && !inString && !inQuote ? text + ')'.repeat(depth) : text
}

function canonicalText(value: Scalar): string {
  switch (typeof value) {
    case 'number':
      return String(value)
    case 'boolean':
      return value ? 'TRUE' : 'FALSE'
    case 'string':
      return value
    default:
      return value === null ? '' : value.code
  }
}

/** How a load calculates (`Engine.loadCells`, `Engine.beginLoad`). */
export interface LoadOptions {
  /**
   * Iterate circular references even where the values they were saved with are settled, as Excel
   * does for a file that asks for a full calculation when it opens. By default settled saved values
   * are kept, as Excel shows them until something recalculates them.
   */
  recalculateSaved?: boolean
}

/** A load in batches (`Engine.beginLoad`). */
export interface CellLoad {
  /** Writes cells into the sheets; they are calculated at `finish`. */
  add(updates: readonly CellUpdate[]): void
  /**
   * Writes cells of one sheet named by position (0-based `rows[i]`, `cols[i]` for `inputs[i]`), as `add`
   * does cells named by address: for a reader whose cells come with their rows and columns as numbers,
   * which would otherwise make an address of each only for the engine to read it back.
   */
  addAt(sheet: string, rows: ArrayLike<number>, cols: ArrayLike<number>, inputs: readonly CellInputValue[]): void
  /** Wires the loaded formulas into the graph and calculates once. */
  finish(): void
}

/** The quiet column (see quietColumn) of the last number a load wrote, while it wrote nothing else. */
interface QuietCursor {
  sheet: Sheet | undefined
  col: number
  column: Column | null
}

/** Columns a load fills at least this far down get their values array at its final length (see presizeColumns). */
const PRESIZED_COLUMN_ROWS = 1_024

/**
 * A batch in order editing at least this many cells (a paste, an import) keeps the numbers it writes in
 * one typed array rather than a record per cell, and makes its change list from them at the end.
 */
const LARGE_BATCH_CELLS = 4_096

/** The cells a batch (setCells) edits, in order. */
interface EditBatch {
  /**
   * The sheet of every cell when the batch names one only (no list of 100,000 times the same sheet);
   * otherwise null, and `sheets` lists each cell's.
   */
  sheet: Sheet | null
  sheets: Sheet[] | null
  rows: Int32Array
  cols: Int32Array
  /** The addresses as given; reported as they are where `canonical` says they print so. */
  updates: readonly CellUpdate[]
  canonical: Uint8Array
  /** Every cell after the first lies after the one before it, by row then column, on one sheet: none repeats. */
  ordered: boolean
  /**
   * For a large batch in order (see LARGE_BATCH_CELLS): the numbers written straight
   * into quiet columns, by index (a constant keeps its value through the recalculation), and the
   * indices of the other cells, whose values are read once the batch is calculated. Null otherwise.
   */
  written: { numbers: Float64Array; others: number[] } | null
}

/** The range an array formula at (row, col) fills, as the workbook stores it ('B2:D4'). */
function arrayRangeOf(formula: FormulaCell, row: number, col: number): string {
  return formatRange({ top: row, left: col, bottom: row + formula.arrayHeight - 1, right: col + formula.arrayWidth - 1 })
}

function sheetOf(batch: EditBatch, index: number): Sheet {
  return batch.sheet ?? (batch.sheets as Sheet[])[index]
}

/**
 * Reads an address that prints as it is written (1 to 3 upper-case column letters, then a row without
 * leading zeros, within the sheet) into rows[i] and cols[i]; false, writing nothing, for any other text.
 */
function readCanonicalAddress(text: string, rows: Int32Array, cols: Int32Array, index: number): boolean {
  const length = text.length
  let i = 0
  let col = 0
  while (i < length) {
    const code = text.charCodeAt(i)
    if (code < 65 || code > 90) break
    col = col * 26 + (code - 64)
    i++
  }
  if (i === 0 || i > 3 || i === length || text.charCodeAt(i) === 48 /* 0 */ || length - i > 7) return false
  let row = 0
  for (; i < length; i++) {
    const code = text.charCodeAt(i)
    if (code < 48 || code > 57) return false
    row = row * 10 + (code - 48)
  }
  if (col - 1 > MAX_COL || row - 1 > MAX_ROW) return false
  rows[index] = row - 1
  cols[index] = col - 1
  return true
}

/** What an edit touched: positions whose readers must recalculate, cells to report, new formulas. */
interface Edit {
  positions: { sheet: Sheet; row: number; col: number }[]
  edited: { sheet: Sheet; row: number; col: number }[]
  /** A batch's edited cells as arrays, in order (setCells): then `edited` stays empty. */
  batch?: EditBatch
  newCells: FormulaCell[]
  /** Whether the caller wants the change list (not when loading). */
  report: boolean
}


/** What a structural change needs to know of a formula shape, computed once per shape (see Engine.planInPlace). */
interface ShapeSummary extends KeptPositions {
  qualified: boolean
  /** A formula that does not parse: it moves, its text unchanged. */
  invalid: boolean
  /** Defined names may stand for cells relative to the formula: such formulas are wired again. */
  usesNames: boolean
  spills: boolean
}

const NO_SHAPE: ShapeSummary = { qualified: false, invalid: false, usesNames: false, spills: false, keptAbove: 0, keptBelow: 0, keptFrom: Infinity, keptTo: -Infinity }

function summarizeShape(compiled: CompiledFormula, change: StructuralChange): ShapeSummary {
  if (compiled.invalid) return { ...NO_SHAPE, invalid: true, keptFrom: 0, keptTo: Infinity }
  const reach = shapeReach(compiled.ast)
  const usesNames = compiled.names.length > 0
  const kept = usesNames ? NO_SHAPE : keptPositions(reach, change)
  return {
    qualified: reach.qualified,
    invalid: false,
    usesNames,
    spills: compiled.spills.length > 0,
    keptAbove: kept.keptAbove,
    keptBelow: kept.keptBelow,
    keptFrom: kept.keptFrom,
    keptTo: kept.keptTo,
  }
}

/** Whether a formula of the shape at this position (row or column, as the change goes) keeps its tree. */
function isKept(summary: ShapeSummary, position: number): boolean {
  return position >= summary.keptFrom ? position <= summary.keptTo : position < summary.keptBelow && position >= summary.keptAbove
}

/**
 * The first and last of rows top..bottom where a formula of the shape must be looked at for a change
 * of rows on its sheet (deleted, or its tree changes); first > last when none. Whether a row must be
 * looked at changes only at the bounds of the kept and deleted rows, so the search jumps from bound to bound.
 */
function visitedRows(summary: ShapeSummary, change: StructuralChange, top: number, bottom: number): [number, number] {
  const deleting = change.kind === 'delete'
  const after = deleting ? change.index + change.count : change.index
  const visited = (row: number) => (deleting && row >= change.index && row < after) || (!summary.invalid && !isKept(summary, row))
  const bounds = [summary.keptAbove, summary.keptBelow, summary.keptFrom, summary.keptTo + 1, change.index, after]
  let first = top
  while (first <= bottom && !visited(first)) {
    let next = Infinity
    for (const bound of bounds) if (bound > first && bound < next) next = bound
    first = next
  }
  if (first > bottom) return [1, 0]
  let last = bottom
  while (last > first && !visited(last)) {
    let previous = -Infinity
    for (const bound of bounds) if (bound <= last && bound > previous) previous = bound
    last = previous - 1
  }
  return [first, Math.max(first, last)]
}

/** Windows of rows (first, last) merged where they overlap or touch, in order, as a flat list of pairs. */
function mergeWindows(windows: [number, number][]): number[] {
  windows.sort((a, b) => a[0] - b[0])
  const merged: number[] = []
  for (const [first, last] of windows) {
    if (first > last) continue
    const end = merged.length - 1
    if (end > 0 && first <= merged[end] + 1) merged[end] = Math.max(merged[end], last)
    else merged.push(first, last)
  }
  return merged
}

/** What a structural change that keeps the dependency graph does to formulas (see Engine.planInPlace). */
interface InPlacePlan {
  /** Formulas in deleted rows or columns. */
  deleted: FormulaCell[]
  /** Formulas whose references follow their cells: only their trees change. */
  rewritten: { cell: FormulaCell; rewrite: Rewrite }[]
  /** Formulas whose references name other cells now (or that use defined names). */
  retargeted: { cell: FormulaCell; rewrite: Rewrite }[]
}

/**
 * A shape's new tree, shared by the cells of that shape at the same row (for rows inserted or deleted;
 * column for columns) of the same sheet: their references cross the change alike.
 */
interface Rewrite {
  ast: Node
  changed: boolean
  retargeted: boolean
  /** Every reference that names other cells is a range grown by inserted cells: the graph grows it in place. */
  onlyGrown: boolean
  /** Besides, every grown range is read by a function that skips empty cells: the value stays. */
  valueKept: boolean
  /** Compiled for the first cell that needed it; the others share it (their trees print alike). */
  compiled?: CompiledFormula
}

/** See Engine.structureReport. */
export interface StructureReport {
  inPlace: boolean
  rewritten: { sheet: string; row: number; col: number; before: string }[]
}

export class Engine {
  private lastStructure: StructureReport = { inPlace: true, rewritten: [] }
  private readonly sheets: Sheet[] = []
  private readonly sheetsByName = new Map<string, Sheet>()
  private nextSheetId = 1
  private readonly compileCache = new Map<string, CompiledFormula>()
  /** Compiled formulas by the hash of their canonical shape (see ShapeScan), for the fast path. */
  private readonly shapeCache = new Map<number, { shape: Int32Array; compiled: CompiledFormula; legacy: boolean }[]>()
  private readonly shapeScan = new ShapeScan()
  /** INDIRECT's reference texts, compiled. */
  private readonly referenceCache = new Map<string, Evaluator>()
  private readonly names = new Map<string, DefinedName>()
  /** Excel tables by upper-case name. */
  private readonly tables = new Map<string, Table>()
  private readonly functions: FunctionRegistry
  private readonly iteration: IterationSettings
  private readonly clock: () => Date
  private readonly graph: DependencyGraph
  private readonly calculator: Calculator
  private readonly ctx: EvalContext
  private readonly compileHost: CompileHost
  private readonly dataTables = new DataTables()
  private readonly dataTableHost: DataTableHost
  private nowSerial = 0
  private nameDepth = 0
  /** Other workbooks the formulas may refer to, with their cached values (see external-links.ts). */
  private externalWorkbooks: ExternalWorkbook[] = []
  /** The external sheets formulas have named, by upper-case name. */
  private readonly externalSheets = new Map<string, ExternalSheet>()

  constructor(options: EngineOptions = {}) {
    this.functions = options.functions ?? createBuiltinRegistry()
    this.iteration = { ...DEFAULT_ITERATION, ...options.iterative }
    this.validateIteration(this.iteration)
    this.clock = options.clock ?? (() => new Date())
    const graphHost: GraphHost = { nameDependencies: (name, sheet) => this.nameDependencies(name, sheet) }
    this.graph = new DependencyGraph(graphHost)
    this.calculator = new Calculator({
      graph: this.graph,
      iteration: this.iteration,
      meter: new EvaluationMeter(this.validateLimits({ ...DEFAULT_EVALUATION_LIMITS, ...options.limits }), options.timer ?? Date.now),
      nameDependencies: (name, sheet) => this.nameDependencies(name, sheet),
      sheetIndex: (sheet) => this.sheets.indexOf(sheet),
    })
    const evaluationHost: EvaluationHost = {
      now: () => this.nowSerial,
      sheetByName: (name) => this.sheetsByName.get(name.toUpperCase()),
      sheets: () => this.sheets,
      evaluateName: (name, qualifier, ctx) => this.evaluateName(name, qualifier, ctx),
      parseReference: (text, a1, ctx) => this.parseReferenceText(text, a1, ctx),
      spillRange: (sheet, row, col) => this.spillRange(sheet, row, col),
      readsRange: (range) => this.calculator.readsRange(range),
      dataTable: (sheet, row, col) => this.dataTables.resultsOf(sheet.formulaAt(row, col)),
    }
    this.dataTableHost = {
      valueAt: (sheet, row, col) => this.valueAt(sheet, row, col),
      isLive: (cell) => this.sheets.includes(cell.sheet) && cell.sheet.formulaAt(cell.row, cell.col) === cell,
      save: (sheet, row, col) => {
        const formula = sheet.formulaAt(row, col)
        const input: TableInput = { sheet, row, col, input: this.inputAt(sheet, row, col), legacy: formula?.compiled.legacy === true }
        return () => [input]
      },
      write: (inputs) => {
        this.mutate((edit) => {
          for (const { sheet, row, col, input, legacy } of inputs) this.applyInput(sheet, row, col, input, edit, undefined, legacy === true)
        }, false)
      },
    }
    this.ctx = new EvalContext(evaluationHost)
    this.calculator.ctx = this.ctx
    this.compileHost = {
      functions: this.functions,
      sheetByName: (name) => this.sheetsByName.get(name.toUpperCase()),
      table: (name) => this.tables.get(name.toUpperCase()),
      externalSheet: (name) => this.externalSheet(name),
    }
  }

  private validateLimits(limits: EvaluationLimits): EvaluationLimits {
    for (const [name, value] of Object.entries(limits)) {
      if (!(value > 0)) throw new EngineUsageError(MESSAGES.invalidOption(name, 'a number above 0'))
    }
    return limits
  }

  private validateIteration(settings: IterationSettings): void {
    if (!Number.isInteger(settings.maxIterations) || settings.maxIterations < 1 || settings.maxIterations > 32_767) {
      throw new EngineUsageError(MESSAGES.invalidOption('maxIterations', 'a whole number from 1 to 32767'))
    }
    if (!(settings.maxChange >= 0) || !Number.isFinite(settings.maxChange)) {
      throw new EngineUsageError(MESSAGES.invalidOption('maxChange', 'a number of 0 or more'))
    }
  }

  // -----------------------------------------------------------------------------------------------------
  // Sheets
  // -----------------------------------------------------------------------------------------------------

  /** Sheet names in workbook order. */
  getSheetNames(): string[] {
    return this.sheets.map((sheet) => sheet.name)
  }

  hasSheet(name: string): boolean {
    return this.sheetsByName.has(name.toUpperCase())
  }

  private lastSheetName = ''
  private lastSheet: Sheet | undefined

  private sheet(name: string): Sheet {
    // Loads name the same sheet for thousands of cells in a row (forgotten on renames and removals).
    if (name === this.lastSheetName && this.lastSheet !== undefined) return this.lastSheet
    const sheet = this.sheetsByName.get(name.toUpperCase())
    if (sheet === undefined) throw new SheetNotFoundError(name)
    this.lastSheetName = name
    this.lastSheet = sheet
    return sheet
  }

  private validateSheetName(name: string): void {
    if (sheetNameFormatProblem(name) !== null) {
      throw new EngineUsageError(MESSAGES.invalidSheetName(name))
    }
  }

  /** Adds an empty sheet at the end; formulas that named it while it was missing now read it. */
  addSheet(name: string): CellChange[] {
    this.validateSheetName(name)
    if (this.hasSheet(name)) throw new EngineUsageError(MESSAGES.sheetExists(name))
    const sheet = new Sheet(this.nextSheetId++, name, this.calculator)
    this.sheets.push(sheet)
    this.sheetsByName.set(name.toUpperCase(), sheet)
    return this.resolveMissingSheet(name)
  }

  private resolveMissingSheet(name: string): CellChange[] {
    this.clearCompiled()
    const users = this.graph.missingSheetUsers.get(name.toUpperCase())
    const namesUsingIt = [...this.names.values()].filter((definition) => definition.sheets.includes(name.toUpperCase()))
    if ((users === undefined || users.size === 0) && namesUsingIt.length === 0) {
      // SHEET and SHEETS count the tabs, so the volatile formulas see the new sheet.
      return this.graph.volatile.size === 0 ? [] : this.mutate(() => {})
    }
    return this.mutate(() => {
      for (const definition of namesUsingIt) this.recompileName(definition)
      const cells = new Set(users ?? [])
      for (const definition of namesUsingIt) for (const cell of this.graph.nameUsers.get(definition.name.toUpperCase()) ?? []) cells.add(cell)
      for (const cell of cells) this.recompileCell(cell, cell.compiled.ast)
    })
  }

  /** Renames a sheet; formulas and names that refer to it follow. */
  renameSheet(oldName: string, newName: string): CellChange[] {
    const sheet = this.sheet(oldName)
    this.validateSheetName(newName)
    const existing = this.sheetsByName.get(newName.toUpperCase())
    if (existing !== undefined && existing !== sheet) throw new EngineUsageError(MESSAGES.sheetExists(newName))
    const previous = sheet.name
    this.lastSheet = undefined
    this.sheetsByName.delete(previous.toUpperCase())
    sheet.name = newName
    this.sheetsByName.set(newName.toUpperCase(), sheet)
    this.clearCompiled()
    const upper = previous.toUpperCase()
    for (const definition of this.names.values()) {
      if (definition.sheets.includes(upper)) {
        definition.ast = renameSheetInTree(definition.ast, previous, newName)
        this.recompileNameTree(definition)
      }
    }
    this.forEachFormula((cell) => {
      if (cell.compiled.sheets.includes(upper)) {
        this.graph.unregister(cell)
        cell.compiled = this.compileTree(
          renameSheetInTree(cell.compiled.ast, previous, newName),
          cell.row,
          cell.col,
          cell.compiled.legacy,
        )
        cell.column.noteShape(cell.compiled, cell.row)
        cell.text = undefined
        this.graph.register(cell)
      }
    })
    return previous.toUpperCase() === newName.toUpperCase() ? [] : this.resolveMissingSheet(newName)
  }

  /** Removes a sheet; references to it become #REF!. */
  removeSheet(name: string): CellChange[] {
    const sheet = this.sheet(name)
    if (this.sheets.length === 1) throw new EngineUsageError(MESSAGES.lastSheet())
    const upper = sheet.name.toUpperCase()
    this.lastSheet = undefined
    return this.mutate(() => {
      const affected = new Set<FormulaCell>()
      this.forEachFormula((cell) => {
        if (cell.sheet === sheet) {
          this.graph.unregister(cell)
          if (cell.state !== CellState.Clean) cell.sheet.column(cell.col).pendingFormulas--
          cell.state = CellState.Clean
        }
      })
      for (const [key, definition] of this.names) {
        if (definition.scope !== sheet) continue
        for (const user of this.graph.nameUsers.get(definition.name.toUpperCase()) ?? []) affected.add(user)
        this.names.delete(key)
      }
      this.sheets.splice(this.sheets.indexOf(sheet), 1)
      this.sheetsByName.delete(upper)
      for (const [key, table] of this.tables) {
        if (table.sheet !== sheet) continue
        this.tables.delete(key)
        for (const name of [key, tableUseKey(key)]) for (const user of this.graph.nameUsers.get(name) ?? []) affected.add(user)
      }
      this.clearCompiled()
      for (const definition of this.names.values()) {
        if (!definition.sheets.includes(upper)) continue
        for (const user of this.graph.nameUsers.get(definition.name.toUpperCase()) ?? []) affected.add(user)
        definition.ast = dropSheetFromTree(definition.ast, upper)
        this.recompileName(definition)
      }
      this.forEachFormula((cell) => {
        if (cell.sheet !== sheet && cell.compiled.sheets.includes(upper)) affected.add(cell)
      })
      for (const cell of affected) {
        if (cell.sheet === sheet) continue
        const ast = cell.compiled.sheets.includes(upper) ? dropSheetFromTree(cell.compiled.ast, upper) : cell.compiled.ast
        if (ast !== cell.compiled.ast) cell.text = undefined
        this.recompileCell(cell, ast)
      }
    })
  }

  // -----------------------------------------------------------------------------------------------------
  // Cells
  // -----------------------------------------------------------------------------------------------------

  private address(text: string): CellAddress {
    return parseAddress(text)
  }

  /** Sets one cell from what a user typed ('' clears it). Returns every cell whose value changed. */
  setCell(sheet: string, address: string, input: CellInputValue): CellChange[] {
    return this.setCells([{ sheet, address, input }])
  }

  /**
   * Sets several cells in one batch with one recalculation. Returns every cell whose value changed.
   */
  setCells(updates: readonly CellUpdate[]): CellChange[] {
    // Every address is read before anything changes, so that a bad one leaves the workbook as it was.
    const batch = this.readBatch(updates)
    const edit = this.beginEdit(true)
    edit.batch = batch
    this.presizeBatchColumns(batch)
    this.writeBatch(batch, edit)
    const changes = this.finishEdit(edit)
    if (this.tables.size === 0) return changes
    // A header cell of a table is its column's name: typing over it renames the column.
    const { rows, cols } = batch
    for (let i = 0; i < rows.length; i++) {
      const sheet = sheetOf(batch, i)
      const row = rows[i]
      const col = cols[i]
      const table = this.tableAt(sheet, row, col)
      if (table === undefined || !table.headerRow || row !== table.top) continue
      const index = col - table.left
      const others = table.columns.filter((_, position) => position !== index)
      const value = this.valueAt(sheet, row, col)
      const text = value === null || value === '' ? defaultColumnName(others, index + 1) : String(value instanceof CellError ? value.code : value)
      const name = uniqueColumnName(text, others)
      if (name !== table.columns[index]) changes.push(...this.renameColumn(table, index, name))
    }
    return changes
  }

  /** Reads a batch's sheets and addresses (kept apart from writing so that each loop stays small for the compiler). */
  private readBatch(updates: readonly CellUpdate[]): EditBatch {
    const count = updates.length
    const rows = new Int32Array(count)
    const cols = new Int32Array(count)
    const canonical = new Uint8Array(count)
    let single: Sheet | null = null
    let sheets: Sheet[] | null = null
    let previous: Sheet | null = null
    let ordered = true
    // An array formula's result lands on the cells of its area, constants written there included.
    let filling = false
    for (let i = 0; i < count; i++) {
      const update = updates[i]
      const sheet = this.sheet(update.sheet)
      if (i === 0) single = sheet
      else if (sheets !== null) sheets.push(sheet)
      else if (sheet !== single) {
        // A second sheet: from here on each cell's sheet is listed.
        sheets = new Array<Sheet>(i).fill(single as Sheet)
        sheets.push(sheet)
      }
      const address = update.address
      // Addresses as they print (`B7`) are read in one pass; anything else (`$b$7`, spaces) by the parser.
      if (readCanonicalAddress(address, rows, cols, i)) canonical[i] = 1
      else {
        const { row, col } = this.address(address)
        rows[i] = row
        cols[i] = col
      }
      const row = rows[i]
      const col = cols[i]
      if (i > 0 && ordered && (sheet !== previous || row < rows[i - 1] || (row === rows[i - 1] && col <= cols[i - 1]))) ordered = false
      previous = sheet
      if (update.arrayRange !== undefined) {
        this.arrayArea(update)
        filling = true
      }
      if (update.savedArray !== undefined) filling = true
    }
    if (sheets !== null) single = null
    const written = ordered && !filling && count >= LARGE_BATCH_CELLS ? { numbers: new Float64Array(count), others: [] } : null
    return { sheet: single, sheets, rows, cols, updates, canonical, ordered, written }
  }

  /** As presizeColumns, for a batch on one sheet. */
  private presizeBatchColumns(batch: EditBatch): void {
    const { sheet, rows, cols } = batch
    if (sheet === null || rows.length < PRESIZED_COLUMN_ROWS) return
    const lastRows: number[] = []
    for (let i = 0; i < rows.length; i++) {
      const last = lastRows[cols[i]]
      if (last === undefined || rows[i] > last) lastRows[cols[i]] = rows[i]
    }
    for (let col = 0; col < lastRows.length; col++) {
      const last = lastRows[col]
      if (last === undefined || last < PRESIZED_COLUMN_ROWS) continue
      const column = sheet.column(col)
      if (column.values.length === 0) column.values = new Array<Scalar | undefined>(last + 1)
    }
  }

  /** Writes a batch's inputs in order: numbers (see plainNumber) into quiet columns directly, anything else through applyInput. */
  private writeBatch(batch: EditBatch, edit: Edit): void {
    const { rows, cols, updates } = batch
    const numbers = batch.written === null ? null : batch.written.numbers
    const others = batch.written === null ? null : batch.written.others
    // The quiet column (see quietColumn) of the last number written, while nothing else was written.
    let quietSheet: Sheet | undefined
    let quietCol = -1
    let quiet: Column | null = null
    for (let i = 0; i < updates.length; i++) {
      const update = updates[i]
      if (update.arrayRange === undefined && update.legacy !== true && update.saved === undefined && update.savedArray === undefined) {
        const input = update.input
        // A number, or a text that prints as the number it reads as ('42', as the workbook model sends them).
        const number = plainNumber(input)
        if (number !== undefined) {
          const sheet = sheetOf(batch, i)
          const row = rows[i]
          if (sheet !== quietSheet || cols[i] !== quietCol) {
            quietSheet = sheet
            quietCol = cols[i]
            quiet = this.quietColumn(sheet, quietCol)
          }
          if (quiet !== null && (quiet.formulas === null || quiet.formulas[row] === undefined)) {
            quiet.values[row] = number
            quiet.version++
            if (numbers !== null) numbers[i] = number
            continue
          }
        }
        // Anything else may give the column typed texts or formats: it is looked at again.
        quietSheet = undefined
        if (others !== null) others.push(i)
        this.applyInput(sheetOf(batch, i), rows[i], cols[i], input, edit)
      } else {
        quietSheet = undefined
        if (others !== null) others.push(i)
        this.applyInput(sheetOf(batch, i), rows[i], cols[i], update.input, edit, this.arrayArea(update), update.legacy === true, update.saved, update.savedArray)
      }
    }
  }

  /** Sets a legacy array formula (Ctrl+Shift+Enter) that fills `range` with its result. */
  setArrayFormula(sheet: string, range: string, formula: string): CellChange[] {
    const { top, left } = parseRange(range)
    return this.setCells([{ sheet, address: formatAddress(top, left), input: formula, arrayRange: range }])
  }

  private arrayArea(update: CellUpdate): { height: number; width: number } | undefined {
    if (update.arrayRange === undefined) return undefined
    const area = parseRange(update.arrayRange)
    const anchor = this.address(update.address)
    if (area.top !== anchor.row || area.left !== anchor.col) throw new InvalidAddressError(update.arrayRange)
    return { height: area.bottom - area.top + 1, width: area.right - area.left + 1 }
  }

  /**
   * Loads a block of inputs into a sheet (row-major, starting at `origin`, default A1) with one
   * recalculation and without building a change list — the fast path for opening a workbook.
   * `undefined` and `null` entries leave their cells as they are; empty strings clear them.
   */
  loadSheet(sheet: string, rows: readonly (readonly (CellInputValue | undefined)[])[], origin = 'A1'): void {
    const target = this.sheet(sheet)
    const start = this.address(origin)
    this.presizeColumns(target, start, rows)
    this.mutate((edit) => this.loadRows(target, start, rows, edit), false)
  }

  private loadRows(target: Sheet, start: CellAddress, rows: readonly (readonly (CellInputValue | undefined)[])[], edit: Edit): void {
    // Quiet columns by offset from the origin, found on their first number (null: not quiet).
    const quiet: (Column | null | undefined)[] = []
    for (let r = 0; r < rows.length; r++) {
      const cells = rows[r]
      const row = start.row + r
      for (let c = 0; c < cells.length; c++) {
        const input = cells[c]
        if (input === undefined || input === null) continue
        if (typeof input === 'number') {
          let column = quiet[c]
          if (column === undefined) column = quiet[c] = this.quietColumn(target, start.col + c)
          if (column !== null && Number.isFinite(input) && (column.formulas === null || column.formulas[row] === undefined)) {
            column.values[row] = input
            continue
          }
        }
        this.applyInput(target, row, start.col + c, input, edit)
      }
    }
    for (const column of quiet) if (column) column.version++
  }

  /**
   * The column when a number can be written straight into its values: nothing reads its cells yet (no
   * edges, ranges or spills on the sheet), and it keeps no typed texts, formats or sums to forget, as
   * in most columns of a workbook being opened; null otherwise. Its formulas are checked per cell.
   * The caller counts the write in the column's version.
   */
  private quietColumn(sheet: Sheet, col: number): Column | null {
    if (sheet.wideRanges.length > 0 || sheet.rowRanges.length > 0 || sheet.spillOwners.size > 0) return null
    const column = sheet.column(col)
    const quiet =
      column.dependents === null &&
      column.rangeDependents === null &&
      column.tallRanges === null &&
      column.spilledFrom === null &&
      column.inputs === null &&
      column.formats === null &&
      column.prefixes === null
    return quiet ? column : null
  }

  /**
   * Gives each empty column a block fills down far its values array at its final length, so that a
   * column of numbers costs the 8 bytes of each and nothing more: an array grown one row at a time keeps
   * spare room past its end.
   */
  private presizeColumns(sheet: Sheet, start: CellAddress, rows: readonly (readonly (CellInputValue | undefined)[])[]): void {
    if (rows.length < PRESIZED_COLUMN_ROWS) return
    const lastRows: number[] = []
    for (let r = 0; r < rows.length; r++) {
      const cells = rows[r]
      for (let c = 0; c < cells.length; c++) if (cells[c] !== undefined && cells[c] !== null) lastRows[c] = r
    }
    for (let c = 0; c < lastRows.length; c++) {
      const last = lastRows[c]
      if (last === undefined || last < PRESIZED_COLUMN_ROWS) continue
      const column = sheet.column(start.col + c)
      if (column.values.length === 0) column.values = new Array<Scalar | undefined>(start.row + last + 1)
    }
  }

  /** Loads many cells anywhere with one recalculation and without a change list. */
  loadCells(updates: readonly CellUpdate[], options: LoadOptions = {}): void {
    const load = this.beginLoad(options)
    load.add(updates)
    load.finish()
  }

  /**
   * Loads a workbook that arrives in pieces: each batch goes into the sheets as it is added, so the
   * caller need not hold the whole workbook's inputs, and `finish` wires the formulas into the graph
   * and calculates once, as `loadCells` does. The engine must not be used otherwise until `finish`.
   */
  beginLoad(options: LoadOptions = {}): CellLoad {
    const edit = this.beginEdit(false, options.recalculateSaved !== true)
    let finished = false
    return {
      add: (updates) => {
        if (finished) throw new Error('This load has finished')
        this.addToLoad(updates, edit)
      },
      addAt: (sheet, rows, cols, inputs) => {
        if (finished) throw new Error('This load has finished')
        if (rows.length !== inputs.length || cols.length !== inputs.length) throw new Error('A load names as many rows and columns as it has inputs')
        this.addToLoadAt(this.sheet(sheet), rows, cols, inputs, edit)
      },
      finish: () => {
        if (finished) throw new Error('This load has finished')
        finished = true
        this.finishEdit(edit)
      },
    }
  }

  /** One cell's position as readCanonicalAddress reads it (see addToLoad). */
  private readonly loadRow = new Int32Array(1)
  private readonly loadCol = new Int32Array(1)

  /**
   * Writes a load's cells (see beginLoad). A number, or a text that reads as that number and prints
   * the same ('42', '-3.5': nothing to remember of how it was typed), goes straight into a quiet
   * column's values, as in loadRows; anything else through applyInput.
   */
  private addToLoad(updates: readonly CellUpdate[], edit: Edit): void {
    const loadRow = this.loadRow
    const loadCol = this.loadCol
    const cursor: QuietCursor = { sheet: undefined, col: -1, column: null }
    for (let i = 0; i < updates.length; i++) {
      const update = updates[i]
      const sheet = this.sheet(update.sheet)
      let row: number
      let col: number
      if (readCanonicalAddress(update.address, loadRow, loadCol, 0)) {
        row = loadRow[0]
        col = loadCol[0]
      } else {
        ;({ row, col } = this.address(update.address))
      }
      if (update.arrayRange === undefined && update.legacy !== true && update.saved === undefined && update.savedArray === undefined) {
        const number = plainNumber(update.input)
        if (number !== undefined && this.loadNumber(cursor, sheet, row, col, number)) continue
      }
      // Anything else may give the column typed texts or formats: it is looked at again.
      cursor.sheet = undefined
      this.applyInput(sheet, row, col, update.input, edit, this.arrayArea(update), update.legacy === true, update.saved, update.savedArray)
    }
  }

  /** Writes a load's cells of one sheet named by position (see CellLoad.addAt), as addToLoad does. */
  private addToLoadAt(sheet: Sheet, rows: ArrayLike<number>, cols: ArrayLike<number>, inputs: readonly CellInputValue[], edit: Edit): void {
    const cursor: QuietCursor = { sheet: undefined, col: -1, column: null }
    for (let i = 0; i < inputs.length; i++) {
      const row = rows[i]
      const col = cols[i]
      if (!(row >= 0 && row <= MAX_ROW && col >= 0 && col <= MAX_COL && Number.isInteger(row) && Number.isInteger(col))) throw new InvalidAddressError(`R${row + 1}C${col + 1}`)
      const input = inputs[i]
      const number = plainNumber(input)
      if (number !== undefined && this.loadNumber(cursor, sheet, row, col, number)) continue
      cursor.sheet = undefined
      this.applyInput(sheet, row, col, input, edit, undefined, false, undefined, undefined)
    }
  }

  /**
   * Writes a load's plain number straight into its column's values when the column is quiet (see
   * quietColumn) and the cell holds no formula; false when the cell must go through applyInput.
   */
  private loadNumber(cursor: QuietCursor, sheet: Sheet, row: number, col: number, number: number): boolean {
    if (sheet !== cursor.sheet || col !== cursor.col) {
      cursor.sheet = sheet
      cursor.col = col
      cursor.column = this.quietColumn(sheet, col)
    }
    const quiet = cursor.column
    if (quiet === null || (quiet.formulas !== null && quiet.formulas[row] !== undefined)) return false
    quiet.values[row] = number
    quiet.version++
    return true
  }

  /** Recalculates every formula (as Excel's Ctrl+Alt+F9). */
  recalculateAll(): CellChange[] {
    return this.mutate(() => {
      this.forEachFormula((cell) => {
        if (cell.state === CellState.Clean) {
          cell.state = CellState.Dirty
          cell.sheet.column(cell.col).pendingFormulas++
        }
        this.calculator.logOld(cell)
        this.calculator.enqueue(cell)
      })
      this.calculator.forgetCycles()
    })
  }

  /**
   * Runs an edit: `work` applies changes and lists the changed positions and new formula cells; then
   * the new formulas are wired into the graph and everything downstream is recalculated once.
   */
  private mutate(work: (edit: Edit) => void, report = true): CellChange[] {
    const edit = this.beginEdit(report)
    work(edit)
    return this.finishEdit(edit)
  }

  private beginEdit(report: boolean, keepSettled = false): Edit {
    this.calculator.begin(report, keepSettled)
    return { positions: [], edited: [], newCells: [], report }
  }

  /** Wires an edit's new formulas into the graph and recalculates everything downstream once. */
  private finishEdit(edit: Edit): CellChange[] {
    const { positions, edited, newCells, report } = edit
    for (const cell of newCells) {
      if (cell.sheet.formulaAt(cell.row, cell.col) !== cell) continue // replaced later in the same batch
      this.graph.register(cell)
      this.calculator.enqueue(cell)
    }
    this.nowSerial = serialFromJsDate(this.clock())
    this.calculator.recalculate(positions, [...this.graph.volatile])
    if (!report) {
      // A load calculates its data tables once everything else is calculated.
      if (this.dataTables.size > 0 && !this.dataTables.refreshing) this.refreshDataTables([], false)
      return []
    }
    const batch = edit.batch
    const count = batch === undefined ? edited.length : batch.rows.length
    // A batch in order repeats no cell: the set of reported positions is built only if asked.
    const unique = batch !== undefined && batch.ordered
    let reported = unique ? undefined : new PositionSet(count)
    const live = this.sheets.length === 1 ? this.sheets[0] : undefined
    let changes: CellChange[]
    if (batch !== undefined && batch.written !== null) return this.withDataTables(this.largeBatchChanges(batch, batch.written, reported))
    if (unique) {
      // Each cell once, in order: the list is filled front to back at its final length.
      changes = new Array<CellChange>(count)
      let length = 0
      for (let i = 0; i < count; i++) {
        const sheet = sheetOf(batch, i)
        if (sheet !== live && !this.sheets.includes(sheet)) continue
        const row = batch.rows[i]
        const col = batch.cols[i]
        const address = batch.canonical[i] === 1 ? batch.updates[i].address : formatAddress(row, col)
        changes[length++] = { sheet: sheet.name, address, row, col, value: this.valueAt(sheet, row, col) }
      }
      changes.length = length
    } else {
      changes = []
      // Later edits of a cell win: walk back and keep each position's last.
      for (let i = count - 1; i >= 0; i--) {
        const sheet = batch === undefined ? edited[i].sheet : sheetOf(batch, i)
        const row = batch === undefined ? edited[i].row : batch.rows[i]
        const col = batch === undefined ? edited[i].col : batch.cols[i]
        if (sheet !== live && !this.sheets.includes(sheet)) continue
        if (reported !== undefined && !reported.add(sheet.id, row, col)) continue
        const address = batch !== undefined && batch.canonical[i] === 1 ? batch.updates[i].address : formatAddress(row, col)
        changes.push({ sheet: sheet.name, address, row, col, value: this.valueAt(sheet, row, col) })
      }
      changes.reverse()
    }
    // Edited cells are reported above; new formulas are never logged, so the calculator skips them.
    const calculated = this.calculator.changes((sheet, row, col) => {
      if (reported === undefined) {
        reported = new PositionSet(count)
        for (let i = 0; i < count; i++) reported.add(sheetOf(batch!, i).id, batch!.rows[i], batch!.cols[i])
      }
      return reported.has(sheet.id, row, col)
    })
    let all = calculated
    if (changes.length > 0) {
      all = changes
      for (const change of calculated) all.push(change)
    }
    return this.withDataTables(all)
  }

  /** Changes with those of the data tables they moved, unless a refresh of the tables is what made them. */
  private withDataTables(changes: CellChange[]): CellChange[] {
    return this.dataTables.size > 0 && !this.dataTables.refreshing && changes.length > 0 ? this.refreshDataTables(changes, true) : changes
  }

  /**
   * The change list of a large batch in order (see LARGE_BATCH_CELLS): the edited cells with the values
   * the batch left (the numbers from its typed array), then the cells the recalculation changed.
   */
  private largeBatchChanges(batch: EditBatch, written: NonNullable<EditBatch['written']>, reported: PositionSet | undefined): CellChange[] {
    const { rows, cols } = batch
    const count = rows.length
    const numbers = written.numbers
    // A batch in order is on one sheet: its name now (the list reports none if the batch removed it).
    const sheet = batch.sheet as Sheet
    const name = this.sheets.includes(sheet) ? sheet.name : undefined
    // Values other than the numbers written, by index (numbers go into `numbers`).
    let others: Map<number, CellValue> | null = null
    for (const i of written.others) {
      const value = this.valueAt(sheet, rows[i], cols[i])
      if (typeof value === 'number') numbers[i] = value
      else (others ??= new Map()).set(i, value)
    }
    // Edited cells are reported by the list itself; new formulas are never logged, so the calculator skips them.
    const calculated = this.calculator.changes((sheet, row, col) => {
      if (reported === undefined) {
        reported = new PositionSet(count)
        for (let i = 0; i < count; i++) reported.add(sheetOf(batch, i).id, rows[i], cols[i])
      }
      return reported.has(sheet.id, row, col)
    })
    // The list is filled front to back at its final length.
    const edited = name === undefined ? 0 : count
    const changes = new Array<CellChange>(edited + calculated.length)
    const { canonical, updates } = batch
    for (let i = 0; i < edited; i++) {
      const row = rows[i]
      const col = cols[i]
      const value = others !== null && others.has(i) ? (others.get(i) as CellValue) : numbers[i]
      // An address read as it prints is the caller's own string (strings do not change); others are printed.
      const address = canonical[i] === 1 ? updates[i].address : formatAddress(row, col)
      changes[i] = { sheet: name as string, address, row, col, value }
    }
    for (let i = 0; i < calculated.length; i++) changes[edited + i] = calculated[i]
    return changes
  }

  /**
   * Calculates the data tables again after a calculation that changed values (or loaded the workbook),
   * then the TABLE formulas whose results moved and what reads them. Answers `changes` with theirs.
   */
  private refreshDataTables(changes: CellChange[], report: boolean): CellChange[] {
    const moved = this.dataTables.refresh(this.dataTableHost)
    if (moved.length === 0) return changes
    this.dataTables.refreshing = true
    let after: CellChange[]
    try {
      after = this.mutate(() => {
        for (const anchor of moved) {
          if (anchor.state === CellState.Clean) {
            anchor.state = CellState.Dirty
            anchor.sheet.column(anchor.col).pendingFormulas++
          }
          this.calculator.logOld(anchor)
          this.calculator.enqueue(anchor)
        }
      }, report)
    } finally {
      this.dataTables.refreshing = false
    }
    if (!report) return changes
    // A cell reported before and again keeps its last value, in its first place.
    const last = new Map(after.map((change) => [`${change.sheet}!${change.address}`, change]))
    const merged = changes.map((change) => last.get(`${change.sheet}!${change.address}`) ?? change)
    const seen = new Set(changes.map((change) => `${change.sheet}!${change.address}`))
    for (const change of after) if (!seen.has(`${change.sheet}!${change.address}`)) merged.push(change)
    return merged
  }

  private applyInput(
    sheet: Sheet,
    row: number,
    col: number,
    input: CellInputValue,
    edit: Edit,
    arrayArea?: { height: number; width: number },
    legacy = false,
    saved?: CellValue,
    savedArray?: CellValue[][],
  ): void {
    const column = sheet.column(col)
    const existing = column.formulas === null ? undefined : column.formulas[row]
    if (existing !== undefined) this.removeFormula(existing)
    if (edit.report && edit.batch === undefined) edit.edited.push({ sheet, row, col })
    // Readers that existed before this edit must recalculate (formulas added by the edit are new and
    // dirty anyway); when nothing can read the cell, no position is recorded — the common case of a load.
    const read =
      (column.dependents !== null && column.dependents[row] !== undefined) ||
      column.isRangeRead(row) ||
      sheet.isReadAcross(row, col) ||
      sheet.wideRanges.length > 0 ||
      sheet.spillOwners.size > 0 ||
      column.spilledFrom !== null
    const spilledHere = column.spilledFrom === null ? undefined : column.spilledFrom.get(row)
    if (typeof input === 'number' && Number.isFinite(input)) {
      // The common case of loading numbers, without building an input description.
      this.writeConstant(sheet, column, row, col, input, undefined, undefined, spilledHere)
      if (read) edit.positions.push({ sheet, row, col })
      return
    }
    if (typeof input === 'string' && input.length > 1 && input.charCodeAt(0) === 61 /* = */) {
      if (spilledHere !== undefined) this.unspill(column, row)
      const text = this.qualifyTableReferences(closeParentheses(input), sheet, row, col)
      const compiled = this.compileText(text, row, col, legacy && arrayArea === undefined)
      const cell = new FormulaCell(sheet, column, row, col, compiled, text)
      if (arrayArea !== undefined) {
        cell.arrayHeight = arrayArea.height
        cell.arrayWidth = arrayArea.width
      }
      ;(column.formulas ??= [])[row] = cell
      column.noteShape(compiled, row)
      column.pendingFormulas++
      if (arrayArea !== undefined && isTableFormula(compiled.ast)) this.dataTables.add(cell)
      if (savedArray !== undefined && compiled.external === true && savedArray.length > 0 && savedArray[0].length > 0) {
        this.calculator.savedArrays.set(cell, ArrayValue.fromRows(savedArray))
      }
      // Until it is calculated the cell holds the value it was saved with, or none (not the constant it replaced).
      if (saved !== undefined && saved !== null) sheet.writeValue(row, col, saved)
      else if (column.values[row] !== undefined) sheet.writeValue(row, col, undefined)
      if (column.inputs !== null) column.inputs.delete(row)
      const format = cell.compiled.resultFormat
      if (format !== undefined) (column.formats ??= new Map()).set(row, format)
      else if (column.formats !== null) column.formats.delete(row)
      // Its readers are reached from the new cell itself when the graph marks what is dirty; an array
      // whose spill area it lands in must be told through the position.
      edit.newCells.push(cell)
      if (sheet.spillOwners.size > 0) edit.positions.push({ sheet, row, col })
      return
    }
    const parsed = parseCellInput(input)
    if (parsed.kind === 'empty') {
      // Clearing a cell that only shows a spilled value changes nothing.
      if (spilledHere === undefined) sheet.writeValue(row, col, undefined)
      column.inputs?.delete(row)
      column.formats?.delete(row)
      if (read) edit.positions.push({ sheet, row, col })
      return
    }
    if (parsed.kind === 'formula') return // unreachable: formulas are handled above
    const typed = typeof input === 'string' && input !== canonicalText(parsed.value) ? input : undefined
    this.writeConstant(sheet, column, row, col, parsed.value, typed, parsed.format, spilledHere)
    if (read) edit.positions.push({ sheet, row, col })
  }

  private writeConstant(
    sheet: Sheet,
    column: Column,
    row: number,
    col: number,
    value: Exclude<Scalar, null>,
    typed: string | undefined,
    format: string | undefined,
    spilledHere: FormulaCell | undefined,
  ): void {
    if (spilledHere !== undefined) this.unspill(column, row)
    sheet.writeValue(row, col, value)
    if (typed !== undefined) (column.inputs ??= new Map()).set(row, typed)
    else if (column.inputs !== null) column.inputs.delete(row)
    if (format !== undefined) (column.formats ??= new Map()).set(row, format)
    else if (column.formats !== null) column.formats.delete(row)
  }

  /** A cell typed over a spilled value stops being part of the spill (its owner will show #SPILL!). */
  private unspill(column: Column, row: number): void {
    this.graph.version++
    column.spilledFrom?.delete(row)
    if (column.spilledFrom?.size === 0) column.spilledFrom = null
  }

  private removeFormula(cell: FormulaCell): void {
    if (this.dataTables.size > 0) this.dataTables.delete(cell)
    if (this.calculator.savedValues.size > 0 || this.calculator.savedArrays.size > 0) {
      this.calculator.savedValues.delete(cell)
      this.calculator.savedArrays.delete(cell)
    }
    this.graph.unregister(cell)
    const column = cell.sheet.column(cell.col)
    if (cell.state !== CellState.Clean) column.pendingFormulas--
    cell.state = CellState.Clean
    if (cell.spills || cell.blockedHeight > 0) this.calculator.clearSpill(cell)
    cell.sheet.spillOwners.delete(cell)
    if (column.formulas !== null) column.formulas[cell.row] = undefined
  }

  private forEachFormula(visit: (cell: FormulaCell) => void): void {
    for (const sheet of this.sheets.slice()) {
      for (const column of sheet.columns.slice()) {
        if (column === undefined || column.formulas === null) continue
        const formulas = column.formulas.slice()
        for (const cell of formulas) if (cell !== undefined) visit(cell)
      }
    }
  }

  // -----------------------------------------------------------------------------------------------------
  // Compilation
  // -----------------------------------------------------------------------------------------------------

  private compileText(text: string, row: number, col: number, legacy = false): CompiledFormula {
    const scan = this.shapeScan
    const fast = scan.scan(text, row, col, text.charCodeAt(0) === 61 ? 1 : 0)
    const hash = legacy ? scan.hash ^ 0x5bd1e995 : scan.hash
    if (fast) {
      const bucket = this.shapeCache.get(hash)
      if (bucket !== undefined) {
        for (const entry of bucket) if (entry.legacy === legacy && scan.equals(entry.shape)) return entry.compiled
      }
    }
    const shape = fast ? scan.snapshot() : undefined
    const tokens = tokenize(text.charCodeAt(0) === 61 ? text.slice(1) : text)
    const last = tokens[tokens.length - 1]
    if (last.type === TokenType.Invalid) return invalidFormula(`Unexpected text: ${last.text.slice(0, 20)}`)
    const key = (legacy ? '\u0004' : '') + shapeKey(tokens, row, col)
    let compiled = this.compileCache.get(key)
    if (compiled === undefined) {
      try {
        compiled = compileFormula(parseTokens(tokens, row, col), key, this.compileHost, legacy)
      } catch (error) {
        if (error instanceof FormulaSyntaxError) return invalidFormula(error.message)
        // A formula too deep for the call stack is refused like any other that cannot be read.
        if (error instanceof RangeError) return invalidFormula('The formula is too complex')
        throw error
      }
      if (this.compileCache.size >= 100_000) this.clearCompiled()
      this.compileCache.set(key, compiled)
    }
    if (shape !== undefined) {
      let bucket = this.shapeCache.get(hash)
      if (bucket === undefined) this.shapeCache.set(hash, (bucket = []))
      bucket.push({ shape, compiled, legacy })
    }
    return compiled
  }

  /** Forgets compiled shapes and references, which hold sheets by identity. */
  private clearCompiled(): void {
    this.compileCache.clear()
    this.shapeCache.clear()
    this.referenceCache.clear()
  }

  /** Compiles a tree produced by a transformation (printing it for the cell gives its shape key). */
  private compileTree(ast: Node, row: number, col: number, legacy: boolean): CompiledFormula {
    return this.compileText(printFormula(ast, row, col), row, col, legacy)
  }

  /** Gives a cell a new tree (rename, sheet removal, name changes) and marks it for recalculation. */
  private recompileCell(cell: FormulaCell, ast: Node): void {
    this.graph.unregister(cell)
    if (!cell.compiled.invalid) cell.compiled = this.compileTree(ast, cell.row, cell.col, cell.compiled.legacy)
    else cell.compiled = this.compileText(cell.text ?? '', cell.row, cell.col)
    cell.column.noteShape(cell.compiled, cell.row)
    this.graph.register(cell)
    if (cell.state === CellState.Clean) {
      cell.state = CellState.Dirty
      cell.sheet.column(cell.col).pendingFormulas++
    }
    this.calculator.logOld(cell)
    this.calculator.enqueue(cell)
  }

  // -----------------------------------------------------------------------------------------------------
  // Reading
  // -----------------------------------------------------------------------------------------------------

  private valueAt(sheet: Sheet, row: number, col: number): CellValue {
    const value = sheet.columns[col]?.values[row]
    return value === undefined ? null : value
  }

  /**
   * A formula's text relative to its own cell (references as offsets, names upper-cased): the same for
   * every copy of a filled formula, so that copies can be grouped without parsing them. Undefined for a
   * cell without a formula or with one that does not parse.
   */
  getFormulaShapeAt(sheet: string, row: number, col: number): string | undefined {
    const cell = this.sheet(sheet).formulaAt(row, col)
    return cell === undefined || cell.compiled.invalid ? undefined : cell.compiled.key
  }

  /** The calculated value of a cell: number, text, boolean, CellError, or null when empty. */
  getValue(sheet: string, address: string): CellValue {
    const { row, col } = this.address(address)
    return this.valueAt(this.sheet(sheet), row, col)
  }

  /** `getValue` by 0-based position, for grids that address cells by [col, row]. */
  getValueAt(sheet: string, row: number, col: number): CellValue {
    return this.valueAt(this.sheet(sheet), row, col)
  }

  /** `getDisplay` by 0-based position. */
  getDisplayAt(sheet: string, row: number, col: number, numberFormat?: string): string {
    const target = this.sheet(sheet)
    return formatValue(this.valueAt(target, row, col), numberFormat ?? target.columns[col]?.formats?.get(row))
  }

  /** `getInput` by 0-based position. */
  getInputAt(sheet: string, row: number, col: number): string {
    return this.inputAt(this.sheet(sheet), row, col)
  }

  /** What the user typed into the cell ('' when empty); formulas with '='. */
  getInput(sheet: string, address: string): string {
    const { row, col } = this.address(address)
    return this.inputAt(this.sheet(sheet), row, col)
  }

  private inputAt(sheet: Sheet, row: number, col: number): string {
    const column = sheet.columns[col]
    if (column === undefined) return ''
    const formula = column.formulas?.[row]
    if (formula !== undefined) return formulaTextOf(formula)
    if (column.spilledFrom?.has(row)) return ''
    const typed = column.inputs?.get(row)
    if (typed !== undefined) return typed
    const value = column.values[row]
    return value === undefined ? '' : canonicalText(value)
  }

  /** The formula of a cell with '=', or undefined when it holds none. */
  getFormula(sheet: string, address: string): string | undefined {
    const { row, col } = this.address(address)
    const formula = this.sheet(sheet).formulaAt(row, col)
    return formula === undefined ? undefined : formulaTextOf(formula)
  }

  /** The number format suggested by what was typed ('15%' → '0%') or by the formula (TODAY → a date). */
  getSuggestedFormat(sheet: string, address: string): string | undefined {
    const { row, col } = this.address(address)
    return this.sheet(sheet).columns[col]?.formats?.get(row)
  }

  /**
   * The text a cell shows: formatted with `numberFormat` when given, else with the format its input
   * suggested, else General (as Excel shows it).
   */
  getDisplay(sheet: string, address: string, numberFormat?: string): string {
    const { row, col } = this.address(address)
    const target = this.sheet(sheet)
    const value = this.valueAt(target, row, col)
    const format = numberFormat ?? target.columns[col]?.formats?.get(row)
    return formatValue(value, format)
  }

  /**
   * Calculates `formula` as if it were typed into the cell at `address`, without writing it: relative
   * references read from that cell, the workbook and its recalculation stay as they are. An array
   * result gives its top-left value and its size.
   */
  evaluateFormula(sheet: string, address: string, formula: string): FormulaEvaluation {
    const { row, col } = this.address(address)
    const target = this.sheet(sheet)
    const text = this.qualifyTableReferences(closeParentheses(formula.startsWith('=') ? formula : '=' + formula), target, row, col)
    const compiled = this.compileText(text, row, col)
    // TODAY and NOW read the time of this evaluation; the next edit sets it again anyway.
    this.nowSerial = serialFromJsDate(this.clock())
    this.ctx.at(target, row, col)
    let result: Scalar | ArrayValue
    try {
      result = finalize(compiled.evaluate(this.ctx))
    } catch (error) {
      // Every cell is calculated between edits, so only a failing function lands here.
      result = new CellError('#ERROR!', error instanceof Error ? error.message : String(error))
    }
    if (result instanceof ArrayValue) {
      const first = result.data[0]
      return { value: first === undefined || first === null ? 0 : first, rows: result.height, columns: result.width, format: compiled.resultFormat }
    }
    return { value: result, rows: 1, columns: 1, format: compiled.resultFormat }
  }

  /**
   * Compiles `formula`, written for the cell at `address`, once, to be calculated at many cells with
   * its relative references moved along (a conditional format's formula over its range): `at(row, col)`
   * gives its value there, an array's top-left value. Nothing is written; `error` says why a formula
   * that cannot be read gives #ERROR! everywhere.
   */
  compileRelativeFormula(sheet: string, address: string, formula: string): RelativeFormula {
    const { row, col } = this.address(address)
    const target = this.sheet(sheet)
    const text = this.qualifyTableReferences(closeParentheses(formula.startsWith('=') ? formula : '=' + formula), target, row, col)
    const compiled = this.compileText(text, row, col)
    const error = compiled.invalid ? (compiled.evaluate(this.ctx) as CellError).message : undefined
    return {
      ...(error !== undefined ? { error } : {}),
      at: (atRow: number, atCol: number): CellValue => {
        this.ctx.at(target, atRow, atCol)
        let result: Scalar | ArrayValue
        try {
          result = finalize(compiled.evaluate(this.ctx))
        } catch (failure) {
          result = new CellError('#ERROR!', failure instanceof Error ? failure.message : String(failure))
        }
        if (result instanceof ArrayValue) {
          const first = result.data[0]
          return first === undefined || first === null ? 0 : first
        }
        return result
      },
    }
  }

  /** Everything about one cell. */
  getCell(sheet: string, address: string): CellSnapshot {
    const { row, col } = this.address(address)
    return this.snapshot(this.sheet(sheet), row, col)
  }

  /**
   * The cell at a 0-based position as a bulk writer stores it, or undefined when it holds nothing. A
   * writer of every cell calls this once per position: unlike `getCell` it builds no address and a
   * formula's text once.
   */
  getStoredCellAt(sheet: string, row: number, col: number): StoredCell | undefined {
    const target = this.sheet(sheet)
    const input = this.inputAt(target, row, col)
    const value = this.valueAt(target, row, col)
    if (input === '' && value === null) return undefined
    const column = target.columns[col]
    const formula = column?.formulas?.[row]
    const cell: StoredCell = { input, value, formula: formula !== undefined }
    if (formula !== undefined && formula.arrayHeight > 0) cell.arrayRange = arrayRangeOf(formula, row, col)
    const format = column?.formats?.get(row)
    if (format !== undefined) cell.format = format
    return cell
  }

  private snapshot(sheet: Sheet, row: number, col: number): CellSnapshot {
    const column = sheet.columns[col]
    const snapshot: CellSnapshot = {
      address: formatAddress(row, col),
      row,
      col,
      input: this.inputAt(sheet, row, col),
      value: this.valueAt(sheet, row, col),
    }
    const formula = column?.formulas?.[row]
    if (formula !== undefined) {
      snapshot.formula = formulaTextOf(formula)
      if (formula.arrayHeight > 0) snapshot.arrayRange = arrayRangeOf(formula, row, col)
    }
    const format = column?.formats?.get(row)
    if (format !== undefined) snapshot.format = format
    if (column?.spilledFrom?.has(row)) snapshot.spilled = true
    const owner = formula ?? column?.spilledFrom?.get(row)
    if (owner !== undefined && this.calculator.savedValues.has(owner)) snapshot.savedValue = true
    return snapshot
  }

  /** Calls `visit` for every non-empty cell of a sheet, column by column (no list is built). */
  forEachCell(sheet: string, visit: (cell: CellSnapshot) => void): void {
    const target = this.sheet(sheet)
    for (let col = 0; col < target.columns.length; col++) {
      const column = target.columns[col]
      if (column === undefined) continue
      const length = Math.max(column.values.length, column.formulas?.length ?? 0)
      for (let row = 0; row < length; row++) {
        if (column.values[row] !== undefined || column.formulas?.[row] !== undefined) visit(this.snapshot(target, row, col))
      }
    }
  }

  /** Every non-empty cell of a sheet, in row-major order. */
  cells(sheet: string): CellSnapshot[] {
    const list: CellSnapshot[] = []
    this.forEachCell(sheet, (cell) => list.push(cell))
    return list.sort((a, b) => a.row - b.row || a.col - b.col)
  }

  /** The smallest range holding every non-empty cell, or undefined for an empty sheet. */
  getUsedRange(sheet: string): RangeAddress | undefined {
    const target = this.sheet(sheet)
    let top = Infinity
    let left = Infinity
    let bottom = -1
    let right = -1
    for (let col = 0; col < target.columns.length; col++) {
      const column = target.columns[col]
      if (column === undefined) continue
      const length = Math.max(column.values.length, column.formulas?.length ?? 0)
      for (let row = 0; row < length; row++) {
        if (column.values[row] === undefined && column.formulas?.[row] === undefined) continue
        top = Math.min(top, row)
        bottom = Math.max(bottom, row)
        left = Math.min(left, col)
        right = Math.max(right, col)
      }
    }
    return bottom < 0 ? undefined : { top, left, bottom, right }
  }

  /** The values of a range, row by row (empty cells as null). */
  getRangeValues(sheet: string, range: string): CellValue[][] {
    const target = this.sheet(sheet)
    const { top, left, bottom, right } = parseRange(range)
    const rows: CellValue[][] = []
    for (let row = top; row <= Math.min(bottom, top + 1_000_000); row++) {
      const values: CellValue[] = []
      for (let col = left; col <= right; col++) values.push(this.valueAt(target, row, col))
      rows.push(values)
    }
    return rows
  }

  /**
   * Whether the cell shows the value its file was saved with, kept because its formula calls a function
   * that reaches outside the workbook and none of its inputs changed since (for a spilled cell: its
   * formula's).
   */
  isSavedValue(sheet: string, address: string): boolean {
    const { row, col } = this.address(address)
    const target = this.sheet(sheet)
    const owner = target.formulaAt(row, col) ?? target.columns[col]?.spilledFrom?.get(row)
    return owner !== undefined && this.calculator.savedValues.has(owner)
  }

  /**
   * Circular references that could not be calculated because iterative calculation is off, each as its
   * cells (Excel's circular-reference warning); those cells keep their last values, or show 0.
   */
  getCircularReferences(): { sheet: string; address: string }[][] {
    return this.calculator
      .currentCycles()
      .map((cycle) => cycle.map((cell) => ({ sheet: cell.sheet.name, address: formatAddress(cell.row, cell.col) })))
  }

  /** The function catalogue (name, syntax, description, category, example, argument counts). */
  getFunctionCatalogue(): FunctionCatalogueEntry[] {
    return this.functions.catalogue()
  }

  /** The iterative calculation settings in force. */
  getIterativeSettings(): IterationSettings {
    return { ...this.iteration }
  }

  /** Changes iterative calculation and recalculates everything. */
  setIterativeSettings(settings: Partial<IterationSettings>): CellChange[] {
    const next = { ...this.iteration, ...settings }
    this.validateIteration(next)
    Object.assign(this.iteration, next)
    return this.recalculateAll()
  }

  // -----------------------------------------------------------------------------------------------------
  // Hidden rows
  // -----------------------------------------------------------------------------------------------------

  /**
   * States which rows of a sheet are hidden, replacing what was stated before: `hidden` by the user
   * (collapsed outline groups included), `filtered` by the sheet's filter. SUBTOTAL and AGGREGATE skip
   * them by Excel's rules, and only the formulas calling them recalculate. Rows stated here do not move
   * with inserted or deleted rows: the caller states them again after such an edit.
   */
  setHiddenRows(sheet: string, rows: HiddenRows): CellChange[] {
    const target = this.sheet(sheet)
    const bad = badRowIndex(rows)
    if (bad !== undefined) throw new EngineUsageError(MESSAGES.invalidPosition('row', bad))
    const flags = hiddenRowFlags(rows)
    if (sameHiddenRows(target.hiddenRowFlags, flags)) return []
    target.hiddenRowFlags = flags
    const readers = this.graph.hiddenRowReaders
    const nameReaders = this.hiddenRowNameReaders()
    if (readers.size === 0 && nameReaders.length === 0) return []
    return this.mutate(() => {
      for (const cell of readers) {
        if (cell.state === CellState.Clean) {
          cell.state = CellState.Dirty
          cell.sheet.column(cell.col).pendingFormulas++
        }
        this.calculator.logOld(cell)
        this.calculator.enqueue(cell)
      }
      for (const cell of nameReaders) {
        if (cell.state !== CellState.Clean) continue
        cell.state = CellState.Dirty
        cell.sheet.column(cell.col).pendingFormulas++
        this.calculator.logOld(cell)
        this.calculator.enqueue(cell)
      }
    })
  }

  /** Formulas using a defined name whose formula calls SUBTOTAL or AGGREGATE, itself or through other names. */
  private hiddenRowNameReaders(): FormulaCell[] {
    if (this.names.size === 0) return []
    const reading = new Set<string>()
    const readsFunction = (name: string) => this.functions.get(name)?.readsHiddenRows === true
    const readingName = (name: string) => reading.has(name.toUpperCase())
    // Names may use names: grow the set until no other name joins it.
    for (let grew = true; grew; ) {
      grew = false
      for (const definition of this.names.values()) {
        const key = definition.name.toUpperCase()
        if (reading.has(key) || !treeReadsHiddenRows(definition.ast, readsFunction, readingName)) continue
        reading.add(key)
        grew = true
      }
    }
    const cells: FormulaCell[] = []
    for (const name of reading) for (const cell of this.graph.nameUsers.get(name) ?? []) cells.push(cell)
    return cells
  }

  /** The rows of a sheet stated hidden by `setHiddenRows`, each list ascending. */
  getHiddenRows(sheet: string): { hidden: number[]; filtered: number[] } {
    const flags = this.sheet(sheet).hiddenRowFlags
    const hidden: number[] = []
    const filtered: number[] = []
    if (flags !== null) {
      for (let row = 0; row < flags.length; row++) {
        if ((flags[row] & HIDDEN_BY_USER) !== 0) hidden.push(row)
        if ((flags[row] & HIDDEN_BY_FILTER) !== 0) filtered.push(row)
      }
    }
    return { hidden, filtered }
  }

  // -----------------------------------------------------------------------------------------------------
  // Other workbooks
  // -----------------------------------------------------------------------------------------------------

  private externalSheet(name: string): ExternalSheet {
    const key = name.toUpperCase()
    let sheet = this.externalSheets.get(key)
    if (sheet === undefined) {
      // Negative ids never meet the engine's own sheets' ids.
      sheet = new ExternalSheet(-1 - this.externalSheets.size, name)
      sheet.fill(findExternalSheet(this.externalWorkbooks, name))
      this.externalSheets.set(key, sheet)
    }
    return sheet
  }

  /**
   * Sets the other workbooks formulas may refer to, in the order of a file's links (`[1]` is the first),
   * with the values the file keeps of them, and recalculates the formulas that read them.
   */
  setExternalLinks(workbooks: readonly ExternalWorkbook[]): CellChange[] {
    for (const workbook of workbooks) {
      if (typeof workbook.target !== 'string' || workbook.target === '') throw new EngineUsageError(MESSAGES.externalWorkbookTarget())
      for (const sheet of workbook.sheets) {
        for (const address of Object.keys(sheet.cells)) this.address(address)
      }
    }
    this.externalWorkbooks = workbooks.map((workbook) => ({
      target: workbook.target,
      sheets: workbook.sheets.map((sheet) => ({ ...sheet, cells: { ...sheet.cells } })),
    }))
    for (const sheet of this.externalSheets.values()) sheet.fill(findExternalSheet(this.externalWorkbooks, sheet.name))
    return this.mutate(() => {
      this.forEachFormula((cell) => {
        if (cell.compiled.linksWorkbooks !== true) return
        if (cell.state === CellState.Clean) {
          cell.state = CellState.Dirty
          cell.sheet.column(cell.col).pendingFormulas++
        }
        this.calculator.logOld(cell)
        this.calculator.enqueue(cell)
      })
    })
  }

  /** The other workbooks as set by `setExternalLinks`, with their cached values. */
  getExternalWorkbooks(): ExternalWorkbook[] {
    return this.externalWorkbooks.map((workbook) => ({
      target: workbook.target,
      sheets: workbook.sheets.map((sheet) => ({ ...sheet, cells: { ...sheet.cells } })),
    }))
  }

  /** The linked workbooks, each with its sheets and how many formula cells refer to it. */
  getExternalLinks(): ExternalLinkInfo[] {
    const counts = new Array<number>(this.externalWorkbooks.length).fill(0)
    this.forEachFormula((cell) => {
      if (cell.compiled.linksWorkbooks !== true) return
      const linked = new Set<number>()
      for (const name of cell.compiled.sheets) {
        if (!isExternalSheetName(name)) continue
        const found = findExternalWorkbook(this.externalWorkbooks, name)
        if (found !== undefined) linked.add(found.index)
      }
      for (const index of linked) counts[index - 1]++
    })
    return this.externalWorkbooks.map((workbook, i) => ({
      index: i + 1,
      target: workbook.target,
      fileName: fileNameOf(workbook.target),
      sheets: workbook.sheets.map((sheet) => sheet.name),
      formulaCells: counts[i],
    }))
  }

  // -----------------------------------------------------------------------------------------------------
  // Defined names
  // -----------------------------------------------------------------------------------------------------

  private nameKey(name: string, scope: Sheet | null): string {
    return `${scope === null ? 0 : scope.id}|${name.toUpperCase()}`
  }

  private findName(name: string, sheet: Sheet): DefinedName | undefined {
    return this.names.get(this.nameKey(name, sheet)) ?? this.names.get(this.nameKey(name, null))
  }

  private nameDependencies(name: string, sheet: Sheet): NameDependencies | undefined {
    const definition = this.findName(name, sheet)
    if (definition !== undefined) return definition
    // `Table1` alone reads the table's data rows.
    const table = this.tables.get(name)
    if (table === undefined || dataTop(table) > dataBottom(table)) return undefined
    const corner = (row: number, col: number): RefCorner => ({ row, col, rowAbsolute: true, colAbsolute: true })
    return {
      cells: [],
      ranges: [{ sheet: table.sheet, kind: 'cells', start: corner(dataTop(table), table.left), end: corner(dataBottom(table), table.right) }],
      names: [],
    }
  }

  /**
   * Defines (or redefines) a name for a formula such as '=Sheet1!$B$2:$B$10' or '=0.21', workbook-wide
   * or local to the sheet `scope`. Formulas using the name recalculate.
   */
  defineName(name: string, formula: string, scope?: string): CellChange[] {
    if (!isValidName(name)) throw new EngineUsageError(MESSAGES.invalidName(name))
    if (this.tables.has(name.toUpperCase())) throw new EngineUsageError(MESSAGES.nameTaken(name))
    const scopeSheet = scope === undefined ? null : this.sheet(scope)
    const text = formula.startsWith('=') ? formula : '=' + formula
    const tokens = tokenize(text.slice(1))
    const ast = parseTokens(tokens, 0, 0)
    return this.changeName(name, () => {
      const key = this.nameKey(name, scopeSheet)
      const existing = this.names.get(key)
      const definition: DefinedName = {
        name: existing?.name ?? name,
        scope: scopeSheet,
        ast,
        evaluate: () => null,
        cells: [],
        ranges: [],
        names: [],
        sheets: [],
      }
      this.recompileNameTree(definition)
      this.names.set(key, definition)
    })
  }

  /** Removes a defined name; formulas using it show #NAME?. */
  removeName(name: string, scope?: string): CellChange[] {
    const scopeSheet = scope === undefined ? null : this.sheet(scope)
    const key = this.nameKey(name, scopeSheet)
    if (!this.names.has(key)) throw new EngineUsageError(MESSAGES.nameNotFound(name))
    return this.changeName(name, () => this.names.delete(key))
  }

  private changeName(name: string, change: () => void): CellChange[] {
    const users = [...(this.graph.nameUsers.get(name.toUpperCase()) ?? [])]
    // Edges follow the definition, so they are taken down before and rebuilt after the change.
    for (const cell of users) this.graph.unregister(cell)
    change()
    for (const cell of users) this.graph.register(cell)
    return this.mutate(() => {
      for (const cell of users) {
        if (cell.state === CellState.Clean) {
          cell.state = CellState.Dirty
          cell.sheet.column(cell.col).pendingFormulas++
        }
        this.calculator.logOld(cell)
        this.calculator.enqueue(cell)
      }
    })
  }

  private recompileName(definition: DefinedName): void {
    const users = [...(this.graph.nameUsers.get(definition.name.toUpperCase()) ?? [])]
    for (const cell of users) this.graph.unregister(cell)
    this.recompileNameTree(definition)
    for (const cell of users) this.graph.register(cell)
  }

  private recompileNameTree(definition: DefinedName): void {
    const compiled = compileExpression(definition.ast, this.compileHost)
    definition.evaluate = compiled.evaluate
    definition.cells = compiled.cells
    definition.ranges = compiled.ranges
    definition.names = compiled.names
    definition.sheets = collectSheetNames(definition.ast)
  }

  /** Every defined name with its formula. */
  getNames(): NameInfo[] {
    return [...this.names.values()].map((definition) => ({
      name: definition.name,
      ...(definition.scope === null ? {} : { scope: definition.scope.name }),
      formula: printFormula(definition.ast, 0, 0),
    }))
  }

  private evaluateName(name: string, qualifier: Sheet | undefined, ctx: EvalContext): Value {
    const definition = this.findName(name, qualifier ?? ctx.sheet)
    if (definition === undefined) {
      const table = qualifier === undefined ? this.tables.get(name) : undefined
      if (table !== undefined) {
        const top = dataTop(table)
        const bottom = dataBottom(table)
        return top > bottom ? CellError.REF : new RangeRef(table.sheet, top, table.left, bottom, table.right)
      }
      return new CellError('#NAME?', `Unknown name ${name}`)
    }
    if (this.nameDepth > 32) return new CellError('#CIRC!', `The name ${name} refers to itself`)
    this.nameDepth++
    try {
      return definition.evaluate(ctx)
    } finally {
      this.nameDepth--
    }
  }

  // -----------------------------------------------------------------------------------------------------
  // Tables
  // -----------------------------------------------------------------------------------------------------

  /**
   * Defines (or redefines) an Excel table over `range`, header and totals rows included. Structured
   * references to it (`Table1[Col]`) recalculate; formulas that named it before it existed show values.
   */
  defineTable(definition: TableDefinition): CellChange[] {
    const { name } = definition
    if (!isValidName(name)) throw new EngineUsageError(MESSAGES.invalidName(name))
    const key = name.toUpperCase()
    if ([...this.names.values()].some((defined) => defined.name.toUpperCase() === key)) {
      throw new EngineUsageError(MESSAGES.nameTaken(name))
    }
    const sheet = this.sheet(definition.sheet)
    const area = parseRange(definition.range)
    const headerRow = definition.headerRow ?? true
    const totalsRow = definition.totalsRow ?? false
    const width = area.right - area.left + 1
    const height = area.bottom - area.top + 1
    if (height - (headerRow ? 1 : 0) - (totalsRow ? 1 : 0) < 1) throw new EngineUsageError(MESSAGES.tableTooSmall(name))
    for (const other of this.tables.values()) {
      if (other.name.toUpperCase() === key || other.sheet !== sheet) continue
      const apart =
        other.bottom < area.top || other.top > area.bottom || other.right < area.left || other.left > area.right
      if (!apart) throw new EngineUsageError(MESSAGES.tableOverlaps(name, other.name))
    }
    let columns = definition.columns
    if (columns === undefined) {
      columns = []
      for (let i = 0; i < width; i++) {
        const value = headerRow ? this.valueAt(sheet, area.top, area.left + i) : null
        const text = value === null || value === '' ? defaultColumnName(columns, i + 1) : String(value instanceof CellError ? value.code : value)
        columns.push(uniqueColumnName(text, columns))
      }
    }
    if (columns.length !== width) throw new EngineUsageError(MESSAGES.tableColumns(name, width, columns.length))
    const upperColumns = new Set(columns.map((column) => column.toUpperCase()))
    if (upperColumns.size !== columns.length || columns.some((column) => column === '')) {
      throw new EngineUsageError(MESSAGES.tableColumnNames(name))
    }
    const existing = this.tables.get(key)
    const table: Table = {
      name: existing?.name ?? name,
      sheet,
      top: area.top,
      left: area.left,
      bottom: area.bottom,
      right: area.right,
      headerRow,
      totalsRow,
      columns: [...columns],
    }
    return this.changeTable(key, () => this.tables.set(key, table))
  }

  /** Removes a table; structured references to it show #REF!. */
  removeTable(name: string): CellChange[] {
    const key = name.toUpperCase()
    if (!this.tables.has(key)) throw new EngineUsageError(MESSAGES.tableNotFound(name))
    return this.changeTable(key, () => this.tables.delete(key))
  }

  /** Every table with its range (header and totals rows included) and column names. */
  getTables(): TableInfo[] {
    return [...this.tables.values()].map((table) => ({
      name: table.name,
      sheet: table.sheet.name,
      range: formatRange({ top: table.top, left: table.left, bottom: table.bottom, right: table.right }),
      headerRow: table.headerRow,
      totalsRow: table.totalsRow,
      columns: [...table.columns],
    }))
  }

  /**
   * Renames a table's column; structured references naming it follow. The header cell keeps its text:
   * typing a new header into the cell (setCell) renames the column the same way.
   */
  renameTableColumn(tableName: string, oldName: string, newName: string): CellChange[] {
    const table = this.tables.get(tableName.toUpperCase())
    if (table === undefined) throw new EngineUsageError(MESSAGES.tableNotFound(tableName))
    const index = columnIndex(table, oldName)
    if (index < 0) throw new EngineUsageError(MESSAGES.tableColumnNotFound(tableName, oldName))
    const others = table.columns.filter((_, i) => i !== index)
    if (newName === '' || others.some((other) => other.toUpperCase() === newName.toUpperCase())) {
      throw new EngineUsageError(MESSAGES.tableColumnNames(tableName))
    }
    return this.renameColumn(table, index, newName)
  }

  private renameColumn(table: Table, index: number, newName: string): CellChange[] {
    const key = table.name.toUpperCase()
    const old = table.columns[index].toUpperCase()
    const rename = (column: string | undefined) => (column !== undefined && column.toUpperCase() === old ? newName : column)
    const rewrite = (ast: Node): Node =>
      mapTree(ast, (node) => {
        if (node.type !== 'structured' || node.table.toUpperCase() !== key) return node
        const firstColumn = rename(node.firstColumn)
        const lastColumn = rename(node.lastColumn)
        if (firstColumn === node.firstColumn && lastColumn === node.lastColumn) return node
        return { ...node, firstColumn, lastColumn } as Node
      })
    return this.changeTable(key, () => {
      table.columns[index] = newName
    }, rewrite)
  }

  /** The table that holds the cell, if any. */
  private tableAt(sheet: Sheet, row: number, col: number): Table | undefined {
    for (const table of this.tables.values()) {
      if (table.sheet === sheet && row >= table.top && row <= table.bottom && col >= table.left && col <= table.right) return table
    }
    return undefined
  }

  /**
   * Gives structured references without a table name (`[@Price]`, typed inside a table) the name of the
   * table holding the cell, as Excel binds them; outside a table they stay as written and show #REF!.
   */
  private qualifyTableReferences(text: string, sheet: Sheet, row: number, col: number): string {
    if (this.tables.size === 0 || !text.includes('[')) return text
    const table = this.tableAt(sheet, row, col)
    if (table === undefined) return text
    const body = text.slice(1)
    let result = '='
    let last = 0
    for (const token of tokenize(body)) {
      if (token.type !== TokenType.Structured || !token.text.startsWith('[')) continue
      result += body.slice(last, token.start) + table.name
      last = token.start
    }
    return last === 0 ? text : result + body.slice(last)
  }

  /**
   * Applies a change to the table `key` (upper-case): formulas naming it are compiled again (structured
   * references resolve when compiled), with `rewrite` applied to their trees when columns are renamed.
   */
  private changeTable(key: string, change: () => void, rewrite?: (ast: Node) => Node): CellChange[] {
    const users = new Set<FormulaCell>()
    for (const name of [key, tableUseKey(key)]) for (const cell of this.graph.nameUsers.get(name) ?? []) users.add(cell)
    const definitions = [...this.names.values()].filter(
      (definition) => definition.names.includes(key) || definition.names.includes(tableUseKey(key)),
    )
    for (const definition of definitions) for (const cell of this.graph.nameUsers.get(definition.name.toUpperCase()) ?? []) users.add(cell)
    // Edges follow the table's geometry, so they are taken down before and rebuilt after the change.
    for (const cell of users) this.graph.unregister(cell)
    change()
    this.clearCompiled()
    for (const definition of definitions) {
      if (rewrite !== undefined) definition.ast = rewrite(definition.ast)
      this.recompileNameTree(definition)
    }
    return this.mutate(() => {
      for (const cell of users) {
        const ast = rewrite === undefined ? cell.compiled.ast : rewrite(cell.compiled.ast)
        if (ast !== cell.compiled.ast) cell.text = undefined
        if (!cell.compiled.invalid) cell.compiled = this.compileTree(ast, cell.row, cell.col, cell.compiled.legacy)
        cell.column.noteShape(cell.compiled, cell.row)
        this.graph.register(cell)
        if (cell.state === CellState.Clean) {
          cell.state = CellState.Dirty
          cell.sheet.column(cell.col).pendingFormulas++
        }
        this.calculator.logOld(cell)
        this.calculator.enqueue(cell)
      }
    })
  }

  /**
   * Tables follow inserted and deleted rows and columns as ranges do: rows or columns inserted inside a
   * table grow it (new columns are named `Column1`…), deleted ones shrink it; a table wholly deleted is
   * removed. Called while the graph is down; the caller compiles every formula naming a table again.
   */
  private moveTables(sheet: Sheet, change: StructuralChange): void {
    for (const [key, table] of this.tables) {
      if (table.sheet !== sheet) continue
      if (change.axis === 'rows') {
        const rows = shiftInterval(table.top, table.bottom, change, MAX_ROW)
        if (rows === undefined || rows[1] - rows[0] + 1 - (table.headerRow ? 1 : 0) - (table.totalsRow ? 1 : 0) < 1) {
          this.tables.delete(key)
          continue
        }
        ;[table.top, table.bottom] = rows
        continue
      }
      const cols = shiftInterval(table.left, table.right, change, MAX_COL)
      if (cols === undefined) {
        this.tables.delete(key)
        continue
      }
      const first = change.index - table.left
      if (change.kind === 'insert' && change.index > table.left && change.index <= table.right) {
        const added: string[] = []
        for (let i = 0; i < change.count; i++) added.push(defaultColumnName([...table.columns, ...added], 1))
        table.columns.splice(first, 0, ...added)
      } else if (change.kind === 'delete') {
        const start = Math.max(0, first)
        const end = Math.min(table.columns.length, change.index + change.count - table.left)
        if (end > start) table.columns.splice(start, end - start)
      }
      ;[table.left, table.right] = cols
    }
  }

  // -----------------------------------------------------------------------------------------------------
  // Dynamic references
  // -----------------------------------------------------------------------------------------------------

  private parseReferenceText(text: string, a1Style: boolean, ctx: EvalContext): RangeRef | CellError {
    let source = text.trim()
    if (source.startsWith('=')) source = source.slice(1)
    if (!a1Style) {
      const converted = r1c1ToA1(source, ctx.row, ctx.col)
      if (converted === undefined) return CellError.REF
      source = converted
    }
    let evaluate = this.referenceCache.get(source)
    if (evaluate === undefined) {
      evaluate = this.compileReferenceText(source)
      if (this.referenceCache.size >= 10_000) this.referenceCache.clear()
      this.referenceCache.set(source, evaluate)
    }
    const value = evaluate(ctx)
    return value instanceof RangeRef ? value : CellError.REF
  }

  /**
   * Compiles reference text for INDIRECT once. Its references name fixed cells, so they are made
   * absolute: the compiled reference is the same from any cell.
   */
  private compileReferenceText(source: string): Evaluator {
    const notAReference: Evaluator = () => CellError.REF
    const tokens = tokenize(source)
    if (tokens[tokens.length - 1].type === TokenType.Invalid) return notAReference
    let ast: Node
    try {
      ast = parseTokens(tokens, 0, 0)
    } catch {
      return notAReference
    }
    // INDIRECT reads another workbook only while it is open in Excel, and answers #REF! otherwise;
    // here the other workbook is never open.
    if ((ast.type === 'cell' || ast.type === 'range' || ast.type === 'name') && ast.sheet !== undefined && isExternalSheetName(ast.sheet)) return notAReference
    const absolute = (corner: RefCorner): RefCorner => ({ ...corner, rowAbsolute: true, colAbsolute: true })
    if (ast.type === 'cell') ast = { ...ast, ref: absolute(ast.ref) }
    else if (ast.type === 'range') ast = { ...ast, start: absolute(ast.start), end: absolute(ast.end) }
    else if (ast.type !== 'name' && ast.type !== 'structured') return notAReference
    return compileExpression(ast, this.compileHost).evaluate
  }



  private spillRange(sheet: Sheet, row: number, col: number): RangeRef | CellError {
    const owner = sheet.formulaAt(row, col)
    if (owner === undefined) return CellError.REF
    if (owner.state !== CellState.Clean && owner.state !== CellState.Iterating) this.calculator.need([owner])
    if (owner.spills) return new RangeRef(sheet, row, col, row + owner.spillHeight - 1, col + owner.spillWidth - 1)
    const value = sheet.columns[col]?.values[row]
    if (value instanceof CellError && value.code === '#SPILL!') return value
    // A formula whose result is one value spills into its own cell only.
    return new RangeRef(sheet, row, col, row, col)
  }

  // -----------------------------------------------------------------------------------------------------
  // Rows, columns, copy and fill
  // -----------------------------------------------------------------------------------------------------

  /** Inserts `count` empty rows before the 0-based row `index`; references below move down. */
  insertRows(sheet: string, index: number, count = 1): CellChange[] {
    return this.restructure({ sheet: this.sheet(sheet), axis: 'rows', index, count, kind: 'insert' })
  }

  /** Deletes `count` rows from the 0-based row `index`; references to them become #REF!. */
  deleteRows(sheet: string, index: number, count = 1): CellChange[] {
    return this.restructure({ sheet: this.sheet(sheet), axis: 'rows', index, count, kind: 'delete' })
  }

  /** Inserts `count` empty columns before the 0-based column `index`. */
  insertColumns(sheet: string, index: number, count = 1): CellChange[] {
    return this.restructure({ sheet: this.sheet(sheet), axis: 'columns', index, count, kind: 'insert' })
  }

  /** Deletes `count` columns from the 0-based column `index`; references to them become #REF!. */
  deleteColumns(sheet: string, index: number, count = 1): CellChange[] {
    return this.restructure({ sheet: this.sheet(sheet), axis: 'columns', index, count, kind: 'delete' })
  }

  private restructure(change: StructuralChange & { sheet: Sheet }): CellChange[] {
    const limit = change.axis === 'rows' ? MAX_ROW : MAX_COL
    if (!Number.isInteger(change.count) || change.count < 1) throw new EngineUsageError(MESSAGES.invalidCount(change.count))
    if (!Number.isInteger(change.index) || change.index < 0 || change.index > limit) {
      throw new EngineUsageError(MESSAGES.invalidPosition(change.axis === 'rows' ? 'row' : 'column', change.index))
    }
    const plan = this.planInPlace(change)
    if (plan !== undefined) {
      const rewritten: { cell: FormulaCell; before: string }[] = []
      for (const list of [plan.rewritten, plan.retargeted]) for (const { cell, rewrite } of list) if (rewrite.changed) rewritten.push({ cell, before: formulaTextOf(cell) })
      const changes = this.mutate(() => this.restructureInPlace(change, plan))
      this.lastStructure = { inPlace: true, rewritten: rewritten.map(({ cell, before }) => ({ sheet: cell.sheet.name, row: cell.row, col: cell.col, before })) }
      return changes
    }
    const target = change.sheet
    const upper = target.name.toUpperCase()
    // 1. New trees for every formula and name, computed before anything moves.
    const plans: { cell: FormulaCell; ast: Node; row: number; col: number; changed: boolean }[] = []
    this.forEachFormula((cell) => {
      const moved = cell.sheet === target ? movePosition(cell.row, cell.col, change) : { row: cell.row, col: cell.col }
      if (moved === undefined) {
        plans.push({ cell, ast: cell.compiled.ast, row: -1, col: -1, changed: true })
        return
      }
      const result = cell.compiled.invalid
        ? { ast: cell.compiled.ast, changed: false }
        : shiftTree(cell.compiled.ast, { row: cell.row, col: cell.col }, moved, cell.sheet === target, upper, change)
      plans.push({ cell, ast: result.ast, row: moved.row, col: moved.col, changed: result.changed })
    })
    const rewrittenBefore = new Map<FormulaCell, string>()
    for (const plan of plans) if (plan.changed && plan.row >= 0) rewrittenBefore.set(plan.cell, formulaTextOf(plan.cell))
    for (const definition of this.names.values()) {
      const result = shiftTree(definition.ast, { row: 0, col: 0 }, { row: 0, col: 0 }, false, upper, change)
      if (result.changed) definition.ast = result.ast
    }
    return this.mutate(() => {
      // 2. Take the graph down, move the storage, then rebuild everything and recalculate all formulas.
      this.graph.clear()
      for (const sheet of this.sheets) {
        sheet.wideRanges = []
        sheet.rowRanges = []
        for (const column of sheet.columns) {
          if (column === undefined) continue
          column.dependents = null
          column.rangeDependents = null
          column.tallRanges = null
          column.prefixes = null
        }
        for (const owner of sheet.spillOwners) this.calculator.clearSpill(owner)
        sheet.spillOwners.clear()
      }
      moveStorage(target, change)
      this.moveTables(target, change)
      this.clearCompiled()
      for (const definition of this.names.values()) this.recompileNameTree(definition)
      for (const plan of plans) {
        const cell = plan.cell
        if (plan.row < 0) continue
        const moved = cell.row !== plan.row || cell.col !== plan.col
        cell.row = plan.row
        cell.col = plan.col
        if (moved) cell.addressText = undefined
        // Structured references were resolved against the tables as they were.
        const usesTable = cell.compiled.names.some((name) => name.startsWith('['))
        if (plan.changed || usesTable) {
          cell.compiled = this.compileTree(plan.ast, cell.row, cell.col, cell.compiled.legacy)
          cell.column.noteShape(cell.compiled, cell.row)
        }
        // The typed text names absolute positions; once anything moved it is printed from the tree.
        if ((plan.changed || moved) && !cell.compiled.invalid) cell.text = undefined
      }
      for (const sheet of this.sheets) {
        for (const column of sheet.columns) {
          if (column === undefined) continue
          column.pendingFormulas = 0
        }
      }
      this.forEachFormula((cell) => {
        this.graph.register(cell)
        cell.state = CellState.Dirty
        cell.sheet.column(cell.col).pendingFormulas++
        this.calculator.logOld(cell)
        this.calculator.enqueue(cell)
      })
      this.calculator.forgetCycles()
      this.lastStructure = {
        inPlace: false,
        rewritten: [...rewrittenBefore].map(([cell, before]) => ({ sheet: cell.sheet.name, row: cell.row, col: cell.col, before })),
      }
    })
  }

  /**
   * What the last insertion or deletion of rows or columns did to formulas: the ones whose tree changed
   * (a reference that does not simply follow its cell: a range grown or shrunk, a cell deleted, an
   * absolute reference moved, a reference from another sheet), where they are now, with their text
   * before. Every other formula only moved with its cell, its references relative to it unchanged: its
   * text is its old text translated by the move. `inPlace` says whether the change kept the dependency
   * graph (otherwise every formula was rebuilt and recalculated).
   */
  structureReport(): StructureReport {
    return this.lastStructure
  }

  /**
   * Plans a structural change that keeps the dependency graph: formulas that only move keep their
   * compiled trees, edges and values; formulas whose references merely follow the moved cells get
   * their new tree without recalculation; only formulas whose references now name other cells (a range
   * grown or shrunk, a deleted cell) are wired again and recalculated, with what depends on them.
   * Undefined when the workbook holds what this path does not follow (spills, tables, data tables,
   * ranges known only when calculating, circular references, names that change, cells pushed off the
   * sheet): the caller then rebuilds everything.
   */
  private planInPlace(change: StructuralChange & { sheet: Sheet }): InPlacePlan | undefined {
    const target = change.sheet
    if (this.tables.size > 0 || this.dataTables.size > 0 || this.graph.dynamicRanges.size > 0) return undefined
    if (this.iteration.enabled || this.calculator.currentCycles().length > 0) return undefined
    if (this.calculator.savedArrays.size > 0) return undefined
    for (const sheet of this.sheets) if (sheet.spillOwners.size > 0) return undefined
    const upper = target.name.toUpperCase()
    for (const definition of this.names.values()) {
      if (shiftTree(definition.ast, { row: 0, col: 0 }, { row: 0, col: 0 }, false, upper, change).changed) return undefined
    }
    const rows = change.axis === 'rows'
    if (change.kind === 'insert') {
      const limit = (rows ? MAX_ROW : MAX_COL) + 1 - change.count
      if (!rows && target.columns.length > limit) return undefined
      if (rows) for (const column of target.columns) if (column !== undefined && column.values.length > limit) return undefined
    }
    const plan: InPlacePlan = { deleted: [], rewritten: [], retargeted: [] }
    const summaries = new Map<CompiledFormula, ShapeSummary>()
    const deleting = change.kind === 'delete'
    const after = deleting ? change.index + change.count : change.index
    // Cells filled down a column share their shape: the last one's summary is usually the next one's.
    let lastCompiled: CompiledFormula | undefined
    let summary: ShapeSummary = NO_SHAPE
    for (const sheet of this.sheets) {
      const onTarget = sheet === target
      const rewrites = new Map<CompiledFormula, Map<number, Rewrite>>()
      for (let col = 0; col < sheet.columns.length; col++) {
        const column = sheet.columns[col]
        const formulas = column?.formulas
        if (column === undefined || formulas === null || formulas === undefined) continue
        // Only the rows where some shape of the column is deleted or crosses the change are looked at:
        // windows of rows as first, last pairs, in order and apart.
        let windows = [0, formulas.length - 1]
        const spans = column.shapeRows
        if (spans !== null) {
          const found: [number, number][] = []
          for (const span of spans) {
            let known = summaries.get(span.compiled)
            if (known === undefined) summaries.set(span.compiled, (known = summarizeShape(span.compiled, change)))
            if (known.spills) return undefined
            let first = span.top
            let last = span.bottom
            if (!onTarget) {
              if (!known.qualified || known.invalid) continue
            } else if (!rows) {
              const deleted = deleting && col >= change.index && col < after
              if (!deleted && (known.invalid || isKept(known, col))) continue
            } else {
              ;[first, last] = visitedRows(known, change, first, last)
              if (first > last) continue
            }
            found.push([first, Math.min(last, formulas.length - 1)])
          }
          windows = mergeWindows(found)
        }
        for (let w = 0; w < windows.length; w += 2) {
          for (let row = windows[w]; row <= windows[w + 1]; row++) {
            const cell = formulas[row]
            if (cell === undefined) continue
            const compiled = cell.compiled
            if (compiled !== lastCompiled) {
              let known = summaries.get(compiled)
              if (known === undefined) summaries.set(compiled, (known = summarizeShape(compiled, change)))
              if (known.spills) return undefined
              lastCompiled = compiled
              summary = known
            }
            const position = rows ? row : col
            if (onTarget) {
              if (deleting && position >= change.index && position < after) {
                plan.deleted.push(cell)
                continue
              }
              if (isKept(summary, position)) continue
            } else if (!summary.qualified) continue // it cannot point at the restructured sheet
            if (summary.invalid) continue
            let byPosition = rewrites.get(compiled)
            if (byPosition === undefined) rewrites.set(compiled, (byPosition = new Map()))
            let rewrite = byPosition.get(position)
            if (rewrite === undefined) {
              const moved = onTarget ? movePosition(row, col, change) : { row, col }
              if (moved === undefined) return undefined
              rewrite = shiftTree(compiled.ast, { row, col }, moved, onTarget, upper, change)
              byPosition.set(position, rewrite)
            }
            // A range grown by empty cells under SUM and the like keeps the formula's value: a new tree only.
            if ((rewrite.retargeted && !rewrite.valueKept) || summary.usesNames) plan.retargeted.push({ cell, rewrite })
            else if (rewrite.changed) plan.rewritten.push({ cell, rewrite })
          }
        }
      }
    }
    return plan
  }

  private restructureInPlace(change: StructuralChange & { sheet: Sheet }, plan: InPlacePlan): void {
    const target = change.sheet
    // 1. Unwire what goes or changes meaning, where it stands now.
    for (const cell of plan.deleted) {
      if (this.calculator.savedValues.size > 0) this.calculator.savedValues.delete(cell)
      this.graph.unregister(cell)
      if (cell.state !== CellState.Clean) cell.column.pendingFormulas--
      cell.state = CellState.Clean
    }
    // Ranges that only grew stay wired: their nodes grow in place below.
    const rewired = (rewrite: Rewrite, cell: FormulaCell) => !rewrite.onlyGrown || cell.compiled.names.length > 0
    for (const { cell, rewrite } of plan.retargeted) if (rewired(rewrite, cell)) this.graph.unregister(cell)
    // 2. Move the cells with their edges, and the range nodes with them.
    moveStorage(target, change, true)
    this.graph.shiftRanges(target, change)
    this.graph.growRanges(target, change)
    // 3. Formulas learn their new places; the typed text named the old ones, so it is printed from the tree.
    if (change.axis === 'rows') {
      for (const column of target.columns) {
        const formulas = column?.formulas
        if (formulas === null || formulas === undefined) continue
        for (let row = change.index; row < formulas.length; row++) {
          const cell = formulas[row]
          if (cell === undefined || cell.row === row) continue
          cell.row = row
          cell.addressText = undefined
          if (!cell.compiled.invalid) cell.text = undefined
        }
      }
    } else {
      for (let col = change.index; col < target.columns.length; col++) {
        const formulas = target.columns[col]?.formulas
        if (formulas === null || formulas === undefined) continue
        for (const cell of formulas) {
          if (cell === undefined || cell.col === col) continue
          cell.col = col
          cell.addressText = undefined
          if (!cell.compiled.invalid) cell.text = undefined
        }
      }
    }
    // 4. References that follow their cells: a new tree, the same edges and value.
    for (const { cell, rewrite } of plan.rewritten) {
      cell.compiled = rewrite.compiled ??= this.compileTree(rewrite.ast, cell.row, cell.col, cell.compiled.legacy)
      cell.column.noteShape(cell.compiled, cell.row)
      cell.text = undefined
    }
    // 5. References that name other cells now: wired again and recalculated, with their dependents.
    for (const { cell, rewrite } of plan.retargeted) {
      const wire = rewired(rewrite, cell)
      if (rewrite.changed) {
        cell.compiled = rewrite.compiled ??= this.compileTree(rewrite.ast, cell.row, cell.col, cell.compiled.legacy)
        cell.column.noteShape(cell.compiled, cell.row)
        cell.text = undefined
      }
      if (wire) this.graph.register(cell)
      if (cell.state === CellState.Clean) {
        cell.state = CellState.Dirty
        cell.column.pendingFormulas++
      }
      this.calculator.logOld(cell)
      this.calculator.enqueue(cell)
    }
  }

  /**
   * Copies cells (inputs and formats) from a range to a target top-left cell, possibly on another sheet,
   * adjusting relative references as Excel's copy and paste does.
   */
  copyRange(sourceSheet: string, sourceRange: string, targetSheet: string, targetAddress: string): CellChange[] {
    const source = this.sheet(sourceSheet)
    const target = this.sheet(targetSheet)
    const from = parseRange(sourceRange)
    const to = this.address(targetAddress)
    return this.pasteBlock(source, from, target, {
      top: to.row,
      left: to.col,
      bottom: to.row + (from.bottom - from.top),
      right: to.col + (from.right - from.left),
    })
  }

  /**
   * Fills a target range by repeating a source range's cells (as the fill handle and Ctrl+D/Ctrl+R do),
   * adjusting relative references. The target's size must be a multiple of the source's.
   */
  fillRange(sheet: string, sourceRange: string, targetRange: string): CellChange[] {
    const target = this.sheet(sheet)
    return this.pasteBlock(target, parseRange(sourceRange), target, parseRange(targetRange))
  }

  /**
   * Moves cells (inputs and formats) from a range to a target top-left cell, possibly on another sheet,
   * as Excel's cut and paste does: the source is cleared; references anywhere in the workbook (defined
   * names included) to a moved cell, or to a range wholly inside the moved block, follow it; references
   * to cells the block lands on become #REF!; a moved formula keeps pointing at the cells outside the
   * block it pointed at. Returns every cell whose value changed.
   */
  moveRange(sourceSheet: string, sourceRange: string, targetSheet: string, targetAddress: string): CellChange[] {
    const source = this.sheet(sourceSheet)
    const target = this.sheet(targetSheet)
    const from = parseRange(sourceRange)
    const anchor = this.address(targetAddress)
    const to: RangeAddress = {
      top: anchor.row,
      left: anchor.col,
      bottom: anchor.row + (from.bottom - from.top),
      right: anchor.col + (from.right - from.left),
    }
    if (to.bottom > MAX_ROW || to.right > MAX_COL) throw new InvalidAddressError(formatAddress(to.bottom, to.right))
    if (source === target && from.top === to.top && from.left === to.left) return []
    this.requireWholeArrays(source, from, from)
    this.requireWholeArrays(target, to, source === target ? from : undefined)
    const move: BlockMove = {
      source: { upper: source.name.toUpperCase(), name: source.name },
      from,
      target: { upper: target.name.toUpperCase(), name: target.name },
      to,
    }
    const home = (sheet: Sheet): SheetRef => ({ upper: sheet.name.toUpperCase(), name: sheet.name })
    const rowOffset = to.top - from.top
    const colOffset = to.left - from.left

    // 1. Read the block and plan every rewrite before anything changes: the two areas may overlap.
    const block: { row: number; col: number; input: CellInputValue; format: string | undefined; legacy: boolean; area?: { height: number; width: number } }[] = []
    for (let row = from.top; row <= from.bottom; row++) {
      for (let col = from.left; col <= from.right; col++) {
        const formula = source.formulaAt(row, col)
        const spilled = formula === undefined && source.columns[col]?.spilledFrom?.has(row) === true
        let input: CellInputValue = spilled ? '' : this.inputAt(source, row, col)
        if (formula !== undefined && !formula.compiled.invalid) {
          const moved = moveTree(formula.compiled.ast, { row, col }, { row: row + rowOffset, col: col + colOffset }, home(source), home(target), move)
          input = printFormula(moved.ast, row + rowOffset, col + colOffset)
        }
        block.push({
          row: row + rowOffset,
          col: col + colOffset,
          input,
          format: source.columns[col]?.formats?.get(row),
          legacy: formula?.compiled.legacy === true,
          ...(formula !== undefined && formula.arrayHeight > 0 ? { area: { height: formula.arrayHeight, width: formula.arrayWidth } } : {}),
        })
      }
    }
    const rewrites: { cell: FormulaCell; text: string }[] = []
    this.forEachFormula((cell) => {
      if (cell.compiled.invalid) return
      if (cell.sheet === source && insideBlock(from, cell.row, cell.col)) return
      if (cell.sheet === target && insideBlock(to, cell.row, cell.col)) return
      const at = { row: cell.row, col: cell.col }
      const result = moveTree(cell.compiled.ast, at, at, home(cell.sheet), home(cell.sheet), move)
      if (result.changed) rewrites.push({ cell, text: printFormula(result.ast, cell.row, cell.col) })
    })
    const renamed: { definition: DefinedName; ast: Node }[] = []
    for (const definition of this.names.values()) {
      const scope = definition.scope === null ? null : home(definition.scope)
      const result = moveTree(definition.ast, { row: 0, col: 0 }, { row: 0, col: 0 }, scope, scope, move)
      if (result.changed) renamed.push({ definition, ast: result.ast })
    }

    // 2. Names first: the graph edges of the formulas using them follow their definitions.
    const nameUsers = new Set<FormulaCell>()
    for (const { definition } of renamed) for (const user of this.graph.nameUsers.get(definition.name.toUpperCase()) ?? []) nameUsers.add(user)
    for (const user of nameUsers) this.graph.unregister(user)
    for (const { definition, ast } of renamed) {
      definition.ast = ast
      this.recompileNameTree(definition)
    }
    for (const user of nameUsers) this.graph.register(user)

    // Tables wholly inside the block move with it, as Excel moves a table cut and pasted whole.
    const movingTables = [...this.tables.values()].filter(
      (table) => table.sheet === source && table.top >= from.top && table.bottom <= from.bottom && table.left >= from.left && table.right <= from.right,
    )

    // 3. Clear the source, write the block, rewrite the formulas that pointed at it.
    const changes = this.mutate((edit) => {
      for (let row = from.top; row <= from.bottom; row++) {
        for (let col = from.left; col <= from.right; col++) {
          if (source === target && insideBlock(to, row, col)) continue
          this.applyInput(source, row, col, '', edit)
          source.columns[col]?.formats?.delete(row)
        }
      }
      for (const item of block) {
        this.applyInput(target, item.row, item.col, item.input, edit, item.area, item.legacy)
        const column = target.column(item.col)
        if (item.format !== undefined) (column.formats ??= new Map()).set(item.row, item.format)
        else column.formats?.delete(item.row)
      }
      for (const { cell, text } of rewrites) {
        if (cell.sheet.formulaAt(cell.row, cell.col) !== cell) continue
        const area = cell.arrayHeight > 0 ? { height: cell.arrayHeight, width: cell.arrayWidth } : undefined
        this.applyInput(cell.sheet, cell.row, cell.col, text, edit, area, cell.compiled.legacy)
      }
      for (const user of nameUsers) {
        if (user.sheet.formulaAt(user.row, user.col) !== user) continue
        if (user.state === CellState.Clean) {
          user.state = CellState.Dirty
          user.sheet.column(user.col).pendingFormulas++
        }
        this.calculator.logOld(user)
        this.calculator.enqueue(user)
      }
    })
    for (const table of movingTables) {
      changes.push(
        ...this.changeTable(table.name.toUpperCase(), () => {
          table.sheet = target
          table.top += rowOffset
          table.bottom += rowOffset
          table.left += colOffset
          table.right += colOffset
        }),
      )
    }
    return changes
  }

  /**
   * Throws when the area cuts through a legacy array formula (Ctrl+Shift+Enter), which Excel only lets
   * move whole. Arrays anchored inside `moving` move along and may cover the area.
   */
  private requireWholeArrays(sheet: Sheet, area: RangeAddress, moving: RangeAddress | undefined): void {
    const check = (owner: FormulaCell) => {
      if (owner.arrayHeight === 0) return
      const top = owner.row
      const left = owner.col
      const bottom = top + owner.arrayHeight - 1
      const right = left + owner.arrayWidth - 1
      const overlaps = top <= area.bottom && bottom >= area.top && left <= area.right && right >= area.left
      const whole = top >= area.top && bottom <= area.bottom && left >= area.left && right <= area.right
      const moved = moving !== undefined && top >= moving.top && bottom <= moving.bottom && left >= moving.left && right <= moving.right
      if (overlaps && !whole && !moved) throw new EngineUsageError(MESSAGES.partOfArray())
    }
    for (let col = area.left; col <= area.right; col++) {
      const column = sheet.columns[col]
      if (column === undefined) continue
      for (let row = area.top; row <= area.bottom; row++) {
        const owner = column.formulas?.[row] ?? column.spilledFrom?.get(row)
        if (owner !== undefined) check(owner)
      }
    }
  }

  private pasteBlock(source: Sheet, from: RangeAddress, target: Sheet, to: RangeAddress): CellChange[] {
    const height = from.bottom - from.top + 1
    const width = from.right - from.left + 1
    const targetHeight = to.bottom - to.top + 1
    const targetWidth = to.right - to.left + 1
    if (targetHeight % height !== 0 || targetWidth % width !== 0) throw new EngineUsageError(MESSAGES.sizeMismatch())
    if (to.bottom > MAX_ROW || to.right > MAX_COL) throw new InvalidAddressError(formatAddress(to.bottom, to.right))
    // Read every source cell first: source and target may overlap.
    const block: { input: CellInputValue; format: string | undefined; formula: FormulaCell | undefined }[] = []
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        const row = from.top + r
        const col = from.left + c
        const formula = source.formulaAt(row, col)
        const spilled = source.columns[col]?.spilledFrom?.has(row) === true
        block.push({
          input: spilled ? '' : this.inputAt(source, row, col),
          format: source.columns[col]?.formats?.get(row),
          formula,
        })
      }
    }
    return this.mutate((edit) => {
      for (let r = 0; r < targetHeight; r++) {
        for (let c = 0; c < targetWidth; c++) {
          const item = block[(r % height) * width + (c % width)]
          const row = to.top + r
          const col = to.left + c
          let input = item.input
          if (item.formula !== undefined && !item.formula.compiled.invalid) {
            input = printFormula(item.formula.compiled.ast, row, col)
          }
          this.applyInput(target, row, col, input, edit, undefined, item.formula?.compiled.legacy === true)
          const column = target.column(col)
          if (item.format !== undefined) (column.formats ??= new Map()).set(row, item.format)
        }
      }
    })
  }

  /** The function registry the engine evaluates with. */
  getFunctions(): FunctionRegistry {
    return this.functions
  }
}
