/**
 * The value model of the engine.
 *
 * A formula evaluates to a {@link Value}: a {@link Scalar}, a {@link RangeRef} (a reference to cells,
 * read lazily), a {@link ReferenceList} (several areas, from the union operator) or an
 * {@link ArrayValue} (a computed 2-D array). A cell holds only scalars; an array result spills.
 */
import type { FunctionContext } from './functions/types.js'
import { chargeCells, reserveCells } from './evaluator/budget.js'

/** The error values a cell can hold, as Excel writes them. */
export type ErrorCode =
  | '#NULL!'
  | '#DIV/0!'
  | '#VALUE!'
  | '#REF!'
  | '#NAME?'
  | '#NUM!'
  | '#N/A'
  | '#ERROR!'
  | '#CIRC!'
  | '#SPILL!'
  | '#CALC!'

export const ERROR_CODES: readonly ErrorCode[] = [
  '#NULL!',
  '#DIV/0!',
  '#VALUE!',
  '#REF!',
  '#NAME?',
  '#NUM!',
  '#N/A',
  '#ERROR!',
  '#CIRC!',
  '#SPILL!',
  '#CALC!',
]

/** A spreadsheet error as a value: it flows through formulas like any other value. */
export class CellError {
  constructor(
    readonly code: ErrorCode,
    /** Why the error arose, for tooltips; never compared. */
    readonly message?: string,
  ) {}

  toString(): string {
    return this.code
  }

  toJSON(): string {
    return this.code
  }

  static readonly NULL = new CellError('#NULL!')
  static readonly DIV0 = new CellError('#DIV/0!')
  static readonly VALUE = new CellError('#VALUE!')
  static readonly REF = new CellError('#REF!')
  static readonly NAME = new CellError('#NAME?')
  static readonly NUM = new CellError('#NUM!')
  static readonly NA = new CellError('#N/A')
  static readonly ERROR = new CellError('#ERROR!')
  static readonly CIRC = new CellError('#CIRC!')
  static readonly SPILL = new CellError('#SPILL!')
  static readonly CALC = new CellError('#CALC!')

  /** The shared instance for a code; error codes typed by users or read from files map here. */
  static of(code: ErrorCode): CellError {
    return ERROR_BY_CODE.get(code) as CellError
  }
}

const ERROR_BY_CODE = new Map<string, CellError>([
  ['#NULL!', CellError.NULL],
  ['#DIV/0!', CellError.DIV0],
  ['#VALUE!', CellError.VALUE],
  ['#REF!', CellError.REF],
  ['#NAME?', CellError.NAME],
  ['#NUM!', CellError.NUM],
  ['#N/A', CellError.NA],
  ['#ERROR!', CellError.ERROR],
  ['#CIRC!', CellError.CIRC],
  ['#SPILL!', CellError.SPILL],
  ['#CALC!', CellError.CALC],
])

/**
 * The error of a formula its budget stopped (an array too large, a calculation too long, a spill too
 * large): #NUM!, #CALC! or #SPILL! as Excel shows them, with a message saying which limit and why, for
 * the API to show.
 */
export class BudgetError extends CellError {
  constructor(code: '#NUM!' | '#CALC!' | '#SPILL!', override readonly message: string) {
    super(code, message)
  }
}

export function isBudgetError(value: unknown): value is BudgetError {
  return value instanceof BudgetError
}

/** Looks an error literal up case-insensitively ('#n/a' → #N/A); undefined when it is not one. */
export function errorFromText(text: string): CellError | undefined {
  return ERROR_BY_CODE.get(text.toUpperCase())
}

/** What a cell holds after calculation. `null` is an empty cell. */
export type Scalar = number | string | boolean | null | CellError

/** A rectangular block of scalars, read by position (0-based, row first). */
export interface Matrix {
  readonly height: number
  readonly width: number
  /** The scalar at (row, col) of the block; positions outside the block are an error of the caller. */
  get(row: number, col: number): Scalar
}

/** A computed array (from an array constant, an operator over ranges, or a function). */
export class ArrayValue implements Matrix {
  /** Row-major data; `data.length === height * width`. */
  readonly data: Scalar[]

  constructor(
    readonly height: number,
    readonly width: number,
    data: Scalar[],
  ) {
    // Every array a formula builds counts against its budget (see evaluator/budget.ts).
    chargeCells(height * width)
    this.data = data
  }

  static fromRows(rows: readonly (readonly Scalar[])[]): ArrayValue {
    const height = rows.length
    const width = height === 0 ? 0 : rows[0].length
    const data: Scalar[] = new Array(height * width)
    for (let r = 0; r < height; r++) {
      const row = rows[r]
      for (let c = 0; c < width; c++) data[r * width + c] = c < row.length ? row[c] : CellError.NA
    }
    return new ArrayValue(height, width, data)
  }

  static filled(height: number, width: number, value: Scalar): ArrayValue {
    reserveCells(height, width)
    return new ArrayValue(height, width, new Array<Scalar>(height * width).fill(value))
  }

  get(row: number, col: number): Scalar {
    return this.data[row * this.width + col]
  }

  toRows(): Scalar[][] {
    const rows: Scalar[][] = []
    for (let r = 0; r < this.height; r++) rows.push(this.data.slice(r * this.width, (r + 1) * this.width))
    return rows
  }
}

/**
 * The engine-side view of a sheet that references read through. Reading a cell whose formula has not
 * been calculated yet makes the engine calculate it first, so functions always see current values.
 */
export interface SheetView {
  /** Stable identity of the sheet for the engine's lifetime (survives renames). */
  readonly id: number
  readonly name: string
  /** The calculated value at a 0-based position; empty cells are null. */
  read(row: number, col: number): Scalar
  /**
   * Calls `visit` for each non-empty cell of the block, column by column, top to bottom; returning
   * `false` from `visit` stops the walk.
   */
  forEachInBlock(
    top: number,
    left: number,
    bottom: number,
    right: number,
    visit: (value: Scalar, row: number, col: number) => boolean | void,
  ): void
  /** One past the last row that holds anything in the given columns (for whole-column references). */
  usedRowEnd(left: number, right: number): number
  /** One past the last column that holds anything in the given rows (for whole-row references). */
  usedColEnd(top: number, bottom: number): number
  /** Whether the cell holds a formula whose outermost function is SUBTOTAL or AGGREGATE. */
  isSubtotalCell(row: number, col: number): boolean
  /**
   * How each row is hidden, as flags by row (HIDDEN_BY_USER, HIDDEN_BY_FILTER; rows past the end are
   * shown), or null when no row is: SUBTOTAL and AGGREGATE skip hidden rows by it. Optional for test doubles.
   */
  hiddenRows?(): Uint8Array | null
  /**
   * Sum and count of the numbers in a block and its first error — what SUM, COUNT and AVERAGE need
   * from a range — computed by the engine without a callback per cell. Optional for test doubles.
   */
  aggregateNumbers?(
    top: number,
    left: number,
    bottom: number,
    right: number,
  ): { sum: number; count: number; error: CellError | null }
  /**
   * Whether each row of the one-column block from `top` to `bottom` meets a criteria, as 1 or 0, up to
   * the last row that holds a value (rows below are empty); `criteria` names the test, so that the
   * engine can share one pass among formulas. Optional for test doubles.
   */
  matchMask?(top: number, col: number, bottom: number, criteria: string, matches: (value: Scalar) => boolean): Uint8Array
  /**
   * The position (from `top`) of the first or last cell of a one-column block equal to `lookup` as exact
   * lookups compare, -1 when none is, or undefined when the caller should scan instead. Optional for
   * test doubles.
   */
  exactPosition?(top: number, col: number, bottom: number, lookup: Scalar, reverse: boolean): number | undefined
  /**
   * A one-column block's cells as a read-only array (empty cells null) that the engine may share among
   * formulas, or undefined when it does not keep one. Optional for test doubles.
   */
  columnCells?(top: number, col: number, bottom: number): readonly Scalar[] | undefined
  /** Whether the cell holds a formula. */
  hasFormula(row: number, col: number): boolean
  /** The formula text of the cell (with '='), or undefined. */
  formulaText(row: number, col: number): string | undefined
}

/** The largest row and column index of a sheet (0-based), as in Excel: 1,048,576 rows, 16,384 columns. */
export const MAX_ROW = 1_048_575
export const MAX_COL = 16_383

/**
 * A reference to a rectangle of cells of one sheet (0-based, inclusive). It is read lazily: a function
 * that only looks at a few cells of `A:A` reads only those.
 */
export class RangeRef implements Matrix {
  constructor(
    readonly sheet: SheetView,
    readonly top: number,
    readonly left: number,
    readonly bottom: number,
    readonly right: number,
  ) {}

  get height(): number {
    return this.bottom - this.top + 1
  }

  get width(): number {
    return this.right - this.left + 1
  }

  get isSingleCell(): boolean {
    return this.top === this.bottom && this.left === this.right
  }

  /** The value at (row, col) relative to the top-left corner. */
  get(row: number, col: number): Scalar {
    return this.sheet.read(this.top + row, this.left + col)
  }

  /**
   * Visits the non-empty cells only (with positions relative to the top-left corner), which is what
   * aggregate functions need and what keeps `SUM(A:A)` cheap.
   */
  forEachValue(visit: (value: Scalar, row: number, col: number) => boolean | void): void {
    const { top, left } = this
    this.sheet.forEachInBlock(top, left, this.bottom, this.right, (value, row, col) =>
      visit(value, row - top, col - left),
    )
  }

  /**
   * Whole columns (down to the last row) cut at the last used row, whole rows at the last used column,
   * so that `A:A` reads as tall as the data. Other references keep their size. Positions relative to
   * the reference stay the same (the top-left corner does not move).
   */
  trimmed(): RangeRef {
    let bottom = this.bottom
    let right = this.right
    if (bottom === MAX_ROW) bottom = Math.max(this.top, Math.min(bottom, this.sheet.usedRowEnd(this.left, this.right) - 1))
    if (right === MAX_COL) right = Math.max(this.left, Math.min(right, this.sheet.usedColEnd(this.top, this.bottom) - 1))
    if (bottom === this.bottom && right === this.right) return this
    return new RangeRef(this.sheet, this.top, this.left, bottom, right)
  }

  /** Reads the whole block into an array (whole columns and rows are trimmed to the used part first). */
  toArray(): ArrayValue {
    return this.trimmed().cells()
  }

  /** Reads every cell of the block, whole columns to the last row, into an array (empty cells null). */
  cells(): ArrayValue {
    const { height, width } = this
    reserveCells(height, width)
    const data: Scalar[] = new Array<Scalar>(height * width).fill(null)
    this.forEachValue((value, row, col) => {
      data[row * width + col] = value
    })
    return new ArrayValue(height, width, data)
  }
}

/** Several references at once, from the union operator: `SUM((A1:A3,C1:C3))`. */
export class ReferenceList {
  constructor(readonly areas: readonly RangeRef[]) {}
}

/**
 * A value that can be called with arguments: a LAMBDA. It travels through formulas as an error value
 * (#CALC! where it is left uncalled), with a `call` method that the engine uses for `f(1, 2)` and for
 * names bound to a LAMBDA.
 */
export interface CallableValue extends CellError {
  call(args: readonly Value[], ctx: FunctionContext): Value
}

export function isCallable(value: unknown): value is CallableValue {
  return value instanceof CellError && typeof (value as { call?: unknown }).call === 'function'
}

/** Anything a formula or a part of one can evaluate to. */
export type Value = Scalar | RangeRef | ReferenceList | ArrayValue

export function isCellError(value: unknown): value is CellError {
  return value instanceof CellError
}

