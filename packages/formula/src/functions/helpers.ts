/**
 * Helpers for Excel's argument rules, for function implementations.
 */
import { comparisonHolds, compareText, numbersEqual, toNumber } from '../coerce.js'
import type { ComparisonOperator } from '../coerce.js'
import { reserveCells, work } from '../evaluator/budget.js'
import { readNumber } from '../input/parse-input.js'
import { ArrayValue, CellError, RangeRef, ReferenceList } from '../values.js'
import type { Matrix, Scalar, Value } from '../values.js'
import { MISSING } from './types.js'
import type { Arg, FunctionContext } from './types.js'

export { toBoolean, toNumber, toText, compareScalars, compareText, numbersEqual, numberToText } from '../coerce.js'

/**
 * A value reduced to one scalar where a function needs one: a single cell is read; a multi-cell range
 * is implicitly intersected with the formula's row or column (Excel's `@`); an array gives its first
 * element. MISSING counts as empty.
 */
export function toScalar(value: Arg, ctx: FunctionContext): Scalar {
  if (value === MISSING) return null
  if (typeof value !== 'object' || value === null || value instanceof CellError) return value
  if (value instanceof ArrayValue) return value.height > 0 && value.width > 0 ? value.data[0] : CellError.VALUE
  if (value instanceof ReferenceList) {
    return value.areas.length === 1 ? toScalar(value.areas[0], ctx) : CellError.VALUE
  }
  return implicitIntersection(value, ctx)
}

/** Excel's implicit intersection of a reference with the formula's own row or column. */
export function implicitIntersection(ref: RangeRef, ctx: FunctionContext): Scalar {
  if (ref.isSingleCell) return ref.get(0, 0)
  if (ref.left === ref.right && ctx.row >= ref.top && ctx.row <= ref.bottom && ref.sheet === ctx.sheet) {
    return ref.get(ctx.row - ref.top, 0)
  }
  if (ref.top === ref.bottom && ctx.col >= ref.left && ctx.col <= ref.right && ref.sheet === ctx.sheet) {
    return ref.get(0, ctx.col - ref.left)
  }
  return CellError.VALUE
}

/** A value as a matrix to read by position: references are read lazily, scalars are 1×1. */
export function toMatrix(value: Arg): Matrix | CellError {
  if (value === MISSING) return ArrayValue.filled(1, 1, null)
  if (value instanceof RangeRef) return value
  if (value instanceof ArrayValue) return value
  if (value instanceof ReferenceList) return value.areas.length === 1 ? value.areas[0] : CellError.VALUE
  return ArrayValue.filled(1, 1, value)
}

/** A value as a computed array (ranges are read, whole columns trimmed to the used rows). */
export function toArray(value: Arg): ArrayValue | CellError {
  if (value === MISSING) return ArrayValue.filled(1, 1, null)
  if (value instanceof ArrayValue) return value
  if (value instanceof RangeRef) return value.toArray()
  if (value instanceof ReferenceList) return value.areas.length === 1 ? value.areas[0].toArray() : CellError.VALUE
  return ArrayValue.filled(1, 1, value)
}

/**
 * Calls `visit` for every cell of a range, union or array, in row-major order of each area, including
 * empty cells (as null). Return `false` from `visit` to stop. Whole columns are trimmed to the data.
 */
export function forEachCell(value: Arg, visit: (value: Scalar) => boolean | void): void {
  if (value === MISSING) return
  if (value instanceof ArrayValue) {
    for (const item of value.data) if (visit(item) === false) return
    return
  }
  const areas = value instanceof RangeRef ? [value] : value instanceof ReferenceList ? value.areas : undefined
  if (!areas) {
    visit(value as Scalar)
    return
  }
  for (const area of areas) {
    const block = area.trimmed()
    for (let r = 0; r < block.height; r++) {
      // A row of a sheet whose used part spans far can be long: each counts against the time budget.
      work(block.width)
      for (let c = 0; c < block.width; c++) if (visit(block.get(r, c)) === false) return
    }
  }
}

/**
 * Calls `visit` for each non-empty value of a range, union or array (arrays include their empties as
 * null is never stored there). Order within a range is column by column; use it where order does not
 * matter (sums, counts). Return `false` to stop.
 */
export function forEachValue(value: Arg, visit: (value: Scalar) => boolean | void): void {
  if (value === MISSING) return
  if (value instanceof ArrayValue) {
    for (const item of value.data) if (item !== null && visit(item) === false) return
    return
  }
  const areas = value instanceof RangeRef ? [value] : value instanceof ReferenceList ? value.areas : undefined
  if (!areas) {
    if (value !== null) visit(value as Scalar)
    return
  }
  let stopped = false
  for (const area of areas) {
    area.sheet.forEachInBlock(area.top, area.left, area.bottom, area.right, (item) => {
      if (visit(item) === false) stopped = true
      return !stopped
    })
    if (stopped) return
  }
}

/**
 * The numbers of a function's arguments as SUM, AVERAGE, MIN and MAX see them, or the first error:
 * - typed directly as an argument, numbers count, booleans count as 1/0, numeric text is converted,
 *   other text is #VALUE!, an empty argument counts as 0 (only when `countEmptyArgs`);
 * - inside a range or array, only numbers count; text, booleans and empty cells are skipped.
 * Errors anywhere are returned. `visit` is called once per number.
 */
export function forEachNumber(
  args: readonly Arg[],
  visit: (value: number) => void,
  options: { countEmptyArgs?: boolean } = {},
): CellError | undefined {
  for (const arg of args) {
    if (arg === MISSING) {
      if (options.countEmptyArgs) visit(0)
      continue
    }
    if (typeof arg === 'number') {
      visit(arg)
      continue
    }
    if (typeof arg !== 'object' || arg === null) {
      if (arg === null) {
        if (options.countEmptyArgs) visit(0)
        continue
      }
      const number = toNumber(arg)
      if (number instanceof CellError) return number
      visit(number)
      continue
    }
    if (arg instanceof CellError) return arg
    let error: CellError | undefined
    forEachValue(arg, (item) => {
      if (typeof item === 'number') visit(item)
      else if (item instanceof CellError) {
        error = item
        return false
      }
    })
    if (error) return error
  }
  return undefined
}

/**
 * The sum and count of the numbers of the arguments by SUM's rules (see {@link forEachNumber}), or the
 * first error. Ranges are summed by the engine in one pass (with prefix sums for running totals).
 */
export function sumAndCount(args: readonly Arg[]): { sum: number; count: number } | CellError {
  let sum = 0
  let count = 0
  for (const arg of args) {
    if (arg instanceof RangeRef && arg.sheet.aggregateNumbers !== undefined) {
      const part = arg.sheet.aggregateNumbers(arg.top, arg.left, arg.bottom, arg.right)
      if (part.error !== null) return part.error
      sum += part.sum
      count += part.count
      continue
    }
    const error = forEachNumber([arg], (n) => {
      sum += n
      count++
    })
    if (error) return error
  }
  return { sum, count }
}

/** All numbers of the arguments (see {@link forEachNumber}), or the first error. */
export function collectNumbers(
  args: readonly Arg[],
  options: { countEmptyArgs?: boolean } = {},
): number[] | CellError {
  const numbers: number[] = []
  const error = forEachNumber(args, (n) => numbers.push(n), options)
  return error ?? numbers
}

/** A result as a cell shows it: #NUM! for a number that overflowed or is not a number; errors pass through. */
export function numberResult(value: number | CellError): number | CellError {
  return typeof value !== 'number' || Number.isFinite(value) ? value : CellError.NUM
}

/**
 * A scalar as a key naming it exactly, type included (the number 1, the text "1" and TRUE differ), for
 * the engine's per-column masks of criteria and comparisons.
 */
export function scalarKey(value: Scalar): string {
  switch (typeof value) {
    case 'number':
      return `n${value}`
    case 'string':
      return `s${value}`
    case 'boolean':
      return `b${value}`
    default:
      return value === null ? 'z' : `e${value.code}`
  }
}

// ---------------------------------------------------------------------------------------------------------
// Criteria of SUMIF, COUNTIF, AVERAGEIF, *IFS, D-functions: "<5", ">=2024-01-01", "a*", "<>", 3, TRUE.
// ---------------------------------------------------------------------------------------------------------

export type CriteriaMatcher = (value: Scalar) => boolean

const criteriaCache = new Map<string, CriteriaMatcher>()

/** Compiles a criteria value into a matcher, as Excel's *IF functions read it. */
export function parseCriteria(criteria: Scalar): CriteriaMatcher {
  if (criteria === null) return (value) => value === null || value === ''
  if (typeof criteria === 'number') return numericMatcher('=', criteria)
  if (typeof criteria === 'boolean') return (value) => value === criteria
  if (criteria instanceof CellError) return (value) => value instanceof CellError && value.code === criteria.code
  const cached = criteriaCache.get(criteria)
  if (cached) return cached
  const matcher = textCriteria(criteria)
  if (criteriaCache.size > 1000) criteriaCache.clear()
  criteriaCache.set(criteria, matcher)
  return matcher
}

function textCriteria(criteria: string): CriteriaMatcher {
  const match = /^(<=|>=|<>|=|<|>)?(.*)$/s.exec(criteria) as RegExpExecArray
  const operator = (match[1] ?? '=') as ComparisonOperator
  const operand = match[2]
  const hasOperator = match[1] !== undefined
  if (operand === '') {
    if (operator === '=') return hasOperator ? (value) => value === null : (value) => value === null || value === ''
    // "<>" means "not an empty cell": a formula's empty text counts as a value (Excel's COUNTIF).
    if (operator === '<>') return (value) => value !== null
    return () => false
  }
  const reading = readNumber(operand)
  if (reading !== undefined) return numericMatcher(operator, reading.value)
  const upper = operand.toUpperCase()
  if (upper === 'TRUE' || upper === 'FALSE') {
    const wanted = upper === 'TRUE'
    return booleanMatcher(operator, wanted)
  }
  if (operand.startsWith('#')) {
    const code = upper
    if (operator === '=') return (value) => value instanceof CellError && value.code === code
    if (operator === '<>') return (value) => !(value instanceof CellError && value.code === code)
  }
  if (operator === '=' || operator === '<>') {
    const pattern = wildcardPattern(operand)
    const equals = pattern
      ? (value: Scalar) => typeof value === 'string' && pattern.test(value)
      : (value: Scalar) => typeof value === 'string' && compareText(value, operand) === 0
    return operator === '=' ? equals : (value) => !equals(value)
  }
  return (value) => {
    if (typeof value !== 'string') return false
    return comparisonHolds(operator, compareText(value, operand))
  }
}

function numericMatcher(operator: ComparisonOperator, wanted: number): CriteriaMatcher {
  return (value) => {
    let number: number
    if (typeof value === 'number') number = value
    else if (typeof value === 'string' && operator === '=') {
      // COUNTIF(A:A, 5) also counts the text "5", but COUNTIF(A:A, "<>5") counts it too: Excel only
      // reads text as a number for equality.
      const reading = readNumber(value)
      if (reading === undefined) return false
      number = reading.value
    } else return operator === '<>'
    const order = numbersEqual(number, wanted) ? 0 : number < wanted ? -1 : 1
    return comparisonHolds(operator, order)
  }
}

function booleanMatcher(operator: ComparisonOperator, wanted: boolean): CriteriaMatcher {
  return (value) => {
    if (typeof value !== 'boolean') return operator === '<>'
    const order = value === wanted ? 0 : value ? 1 : -1
    return comparisonHolds(operator, order)
  }
}

/** A case-insensitive regular expression for text with `*`, `?` and `~` escapes; undefined if none. */
export function wildcardPattern(text: string): RegExp | undefined {
  if (!/[*?~]/.test(text)) return undefined
  let source = ''
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === '~' && i + 1 < text.length && '*?~'.includes(text[i + 1])) {
      source += escapeRegExp(text[++i])
    } else if (ch === '*') source += '[\\s\\S]*'
    else if (ch === '?') source += '[\\s\\S]'
    else source += escapeRegExp(ch)
  }
  return new RegExp(`^${source}$`, 'i')
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

// ---------------------------------------------------------------------------------------------------------
// Broadcasting a scalar function over arrays (`=ABS(A1:A3)`, `=A1:A3*2`).
// ---------------------------------------------------------------------------------------------------------

/**
 * Applies `fn` element-wise over matrices and scalars. Sizes combine as Excel's: a 1-row or 1-column
 * operand is repeated along the other direction, and positions outside a smaller operand give #N/A.
 */
export function broadcast(operands: readonly (Matrix | Scalar)[], fn: (values: Scalar[]) => Scalar, pure = true): ArrayValue {
  let height = 1
  let width = 1
  for (const operand of operands) {
    if (isMatrix(operand)) {
      height = Math.max(height, operand.height)
      width = Math.max(width, operand.width)
    }
  }
  reserveCells(height, width)
  // Ranges are read once, cell by stored cell, rather than looked up position by position: a whole
  // column is a million positions, nearly all empty.
  const values: Scalar[] = new Array(operands.length)
  const matrixSlots: number[] = []
  const matrices: Matrix[] = []
  for (let i = 0; i < operands.length; i++) {
    const operand = operands[i]
    if (!isMatrix(operand)) values[i] = operand
    else {
      matrixSlots.push(i)
      matrices.push(operand instanceof RangeRef && !operand.isSingleCell ? denseCells(operand) : operand)
    }
  }
  const data: Scalar[] = new Array(height * width)
  // The result where every range or array holds an empty cell, computed once when `fn` is pure:
  // beyond the used part of a whole column that is every position.
  let blankResult: Scalar | undefined
  const sameShape = matrices.every((matrix) => matrix instanceof ArrayValue && matrix.height === height && matrix.width === width)
  if (sameShape) {
    const columns = matrices.map((matrix) => (matrix as ArrayValue).data)
    for (let k = 0; k < data.length; k++) {
      // Each element may call a function: the time budget counts them.
      work(1)
      let allBlank = true
      for (let j = 0; j < columns.length; j++) {
        const value = columns[j][k]
        values[matrixSlots[j]] = value
        if (value !== null) allBlank = false
      }
      data[k] = !allBlank || !pure ? fn(values) : blankResult === undefined ? (blankResult = fn(values)) : blankResult
    }
    return new ArrayValue(height, width, data)
  }
  for (let r = 0; r < height; r++) {
    work(width)
    for (let c = 0; c < width; c++) {
      let allBlank = true
      for (let j = 0; j < matrices.length; j++) {
        const operand = matrices[j]
        const rr = operand.height === 1 ? 0 : r
        const cc = operand.width === 1 ? 0 : c
        const value = rr < operand.height && cc < operand.width ? operand.get(rr, cc) : CellError.NA
        values[matrixSlots[j]] = value
        if (value !== null) allBlank = false
      }
      data[r * width + c] = !allBlank || !pure ? fn(values) : blankResult === undefined ? (blankResult = fn(values)) : blankResult
    }
  }
  return new ArrayValue(height, width, data)
}

/** A range's cells as an array, empty cells null (read-only: a column's may be shared among formulas). */
function denseCells(range: RangeRef): ArrayValue {
  const { height, width, top, left } = range
  if (width === 1) {
    const shared = range.sheet.columnCells?.(top, left, range.bottom)
    if (shared !== undefined) return new ArrayValue(height, 1, shared as Scalar[])
  }
  return range.cells()
}

/** Whether an operand holds several cells (a range or an array) rather than one scalar. */
export function isMatrix(value: Matrix | Scalar): value is Matrix {
  return typeof value === 'object' && value !== null && !(value instanceof CellError)
}

/** Maps a scalar function over a value: a scalar gives a scalar, a range or array an array. */
export function mapValue(value: Value, fn: (value: Scalar) => Scalar): Scalar | ArrayValue {
  if (typeof value !== 'object' || value === null || value instanceof CellError) return fn(value)
  const matrix = toMatrix(value)
  if (matrix instanceof CellError) return matrix
  if (matrix instanceof RangeRef && matrix.isSingleCell) return fn(matrix.get(0, 0))
  return broadcast([matrix], (values) => fn(values[0]))
}
