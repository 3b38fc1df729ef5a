/**
 * Excel's operators over values: arithmetic and comparison coerce text and booleans, errors propagate
 * (the left operand's first), and ranges or arrays broadcast element by element.
 */
import { comparisonHolds, compareScalars, toNumber, toText } from '../coerce.js'
import { broadcast, isMatrix, numberResult, scalarKey } from '../functions/helpers.js'
import { ArrayValue, CellError, RangeRef, ReferenceList } from '../values.js'
import type { Matrix, Scalar, Value } from '../values.js'
import type { BinaryOperator } from '../parser/ast.js'

/** A value as an operator operand: a single cell is read, several cells stay a matrix. */
export function operand(value: Value): Scalar | Matrix {
  if (typeof value !== 'object' || value === null || value instanceof CellError) return value
  if (value instanceof RangeRef) return value.isSingleCell ? value.get(0, 0) : value
  if (value instanceof ArrayValue) return value.height === 1 && value.width === 1 ? value.data[0] : value
  if (value instanceof ReferenceList) return value.areas.length === 1 ? operand(value.areas[0]) : CellError.VALUE
  return CellError.VALUE
}

export function power(base: number, exponent: number): number | CellError {
  if (base === 0) {
    if (exponent === 0) return CellError.NUM
    if (exponent < 0) return CellError.DIV0
  }
  if (base < 0 && !Number.isInteger(exponent)) {
    // Odd roots of negative numbers are real: (-8)^(1/3) is -2 in Excel.
    const inverse = 1 / exponent
    if (Number.isInteger(Math.round(inverse * 1e10) / 1e10) && Math.round(inverse) % 2 !== 0) {
      return numberResult(-Math.pow(-base, exponent))
    }
    return CellError.NUM
  }
  return numberResult(Math.pow(base, exponent))
}

/** A binary operator over two scalars. */
export function scalarBinary(operator: BinaryOperator, a: Scalar, b: Scalar): Scalar {
  switch (operator) {
    case '&': {
      const left = toText(a)
      if (left instanceof CellError) return left
      const right = toText(b)
      if (right instanceof CellError) return right
      return left + right
    }
    case '=':
    case '<>':
    case '<':
    case '>':
    case '<=':
    case '>=': {
      if (a instanceof CellError) return a
      if (b instanceof CellError) return b
      return comparisonHolds(operator, compareScalars(a, b))
    }
    default: {
      const x = toNumber(a)
      if (x instanceof CellError) return x
      const y = toNumber(b)
      if (y instanceof CellError) return y
      switch (operator) {
        case '+':
          return numberResult(x + y)
        case '-':
          return numberResult(x - y)
        case '*':
          return numberResult(x * y)
        case '/':
          return y === 0 ? CellError.DIV0 : numberResult(x / y)
        default:
          return power(x, y)
      }
    }
  }
}

/** A binary operator over any values, broadcasting over ranges and arrays. */
export function binary(operator: BinaryOperator, left: Value, right: Value): Value {
  const a = operand(left)
  const b = operand(right)
  if (isMatrix(a) || isMatrix(b)) return compareColumn(operator, a, b) ?? broadcast([a, b], elementwise(operator))
  return scalarBinary(operator, a, b)
}

/** A number as arithmetic reads it without conversion (empty is 0, TRUE 1), else undefined. */
function plainNumber(value: Scalar): number | undefined {
  if (typeof value === 'number') return value
  if (typeof value === 'boolean') return value ? 1 : 0
  return value === null ? 0 : undefined
}

/** The operator on one pair of elements, with numbers multiplied or added without the general coercion. */
function elementwise(operator: BinaryOperator): (pair: Scalar[]) => Scalar {
  const general = ([x, y]: Scalar[]) => scalarBinary(operator, x, y)
  if (operator !== '+' && operator !== '-' && operator !== '*') return general
  return (pair) => {
    const x = plainNumber(pair[0])
    const y = plainNumber(pair[1])
    if (x === undefined || y === undefined) return general(pair)
    return numberResult(operator === '+' ? x + y : operator === '-' ? x - y : x * y)
  }
}

const COMPARISONS = new Set<BinaryOperator>(['=', '<>', '<', '>', '<=', '>='])
/** Shorter columns gain nothing from sharing their comparisons. */
const SHARED_COMPARISON_ROWS = 32

/**
 * A column of a range compared with a scalar (`(A2:A20000="North")`, as SUMPRODUCT conditions are
 * written), from the rows the engine keeps for that column and comparison while the column is unchanged:
 * two hundred SUMPRODUCTs over one data table compare each column once per value, not once each.
 * Undefined where that does not apply; the caller broadcasts.
 */
function compareColumn(operator: BinaryOperator, a: Scalar | Matrix, b: Scalar | Matrix): ArrayValue | undefined {
  if (!COMPARISONS.has(operator)) return undefined
  const rangeFirst = a instanceof RangeRef
  const range = rangeFirst ? a : b
  const scalar = rangeFirst ? b : a
  if (!(range instanceof RangeRef) || isMatrix(scalar as Scalar | Matrix) || range.left !== range.right) return undefined
  const { sheet, top, left, bottom } = range
  if (range.height < SHARED_COMPARISON_ROWS || sheet.matchMask === undefined) return undefined
  const value = scalar as Scalar
  // An error compared with anything is that error: broadcasting says so without reading the column.
  if (value instanceof CellError) return undefined
  const name = scalarKey(value)
  const holds = rangeFirst
    ? (cell: Scalar) => scalarBinary(operator, cell, value) === true
    : (cell: Scalar) => scalarBinary(operator, value, cell) === true
  const mask = sheet.matchMask(top, left, bottom, `${rangeFirst ? 'l' : 'r'}${operator}${name}`, holds)
  // A comparison with an error cell is that error; the engine keeps where the column's errors are too.
  const errors = sheet.matchMask(top, left, bottom, 'error', (cell) => cell instanceof CellError)
  const empty = holds(null)
  const data: Scalar[] = new Array(range.height)
  for (let r = 0; r < data.length; r++) {
    if (r >= mask.length) data[r] = empty
    else if (mask[r] === 1) data[r] = true
    else data[r] = errors[r] === 1 ? range.get(r, 0) : false
  }
  return new ArrayValue(range.height, 1, data)
}

export function negate(value: Value): Value {
  const a = operand(value)
  if (isMatrix(a)) return broadcast([a], ([x]) => negateScalar(x))
  return negateScalar(a)
}

function negateScalar(value: Scalar): Scalar {
  const number = toNumber(value)
  return number instanceof CellError ? number : -number
}

export function percent(value: Value): Value {
  const a = operand(value)
  if (isMatrix(a)) return broadcast([a], ([x]) => percentScalar(x))
  return percentScalar(a)
}

function percentScalar(value: Scalar): Scalar {
  const number = toNumber(value)
  return number instanceof CellError ? number : number / 100
}

/** The bounding box of two references of the same sheet (the `:` operator between references). */
export function rangeBetween(left: Value, right: Value): Value {
  if (left instanceof CellError) return left
  if (right instanceof CellError) return right
  const a = singleArea(left)
  const b = singleArea(right)
  if (a === undefined || b === undefined) return CellError.VALUE
  if (a.sheet !== b.sheet) return CellError.VALUE
  return new RangeRef(
    a.sheet,
    Math.min(a.top, b.top),
    Math.min(a.left, b.left),
    Math.max(a.bottom, b.bottom),
    Math.max(a.right, b.right),
  )
}

function singleArea(value: Value): RangeRef | undefined {
  if (value instanceof RangeRef) return value
  if (value instanceof ReferenceList && value.areas.length === 1) return value.areas[0]
  return undefined
}

/** The intersection of two references (the space operator); #NULL! when they do not meet. */
export function intersect(left: Value, right: Value): Value {
  if (left instanceof CellError) return left
  if (right instanceof CellError) return right
  const leftAreas = left instanceof RangeRef ? [left] : left instanceof ReferenceList ? left.areas : undefined
  const rightAreas = right instanceof RangeRef ? [right] : right instanceof ReferenceList ? right.areas : undefined
  if (leftAreas === undefined || rightAreas === undefined) return CellError.VALUE
  const result: RangeRef[] = []
  for (const a of leftAreas) {
    for (const b of rightAreas) {
      if (a.sheet !== b.sheet) continue
      const top = Math.max(a.top, b.top)
      const bottom = Math.min(a.bottom, b.bottom)
      const leftCol = Math.max(a.left, b.left)
      const rightCol = Math.min(a.right, b.right)
      if (top <= bottom && leftCol <= rightCol) result.push(new RangeRef(a.sheet, top, leftCol, bottom, rightCol))
    }
  }
  if (result.length === 0) return CellError.NULL
  return result.length === 1 ? result[0] : new ReferenceList(result)
}

/** The union operator: several references as one argument. */
export function union(items: Value[]): Value {
  const areas: RangeRef[] = []
  for (const item of items) {
    if (item instanceof CellError) return item
    if (item instanceof RangeRef) areas.push(item)
    else if (item instanceof ReferenceList) areas.push(...item.areas)
    else return CellError.VALUE
  }
  return new ReferenceList(areas)
}
