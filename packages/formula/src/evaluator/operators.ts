/**
 * Excel's operators over values: arithmetic and comparison coerce text and booleans, errors propagate
 * (the left operand's first), and ranges or arrays broadcast element by element.
 */
import { comparisonHolds, compareScalars, toNumber, toText } from '../coerce.js'
import { broadcast, isMatrix, numberResult } from '../functions/helpers.js'
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
  if (isMatrix(a) || isMatrix(b)) return broadcast([a, b], ([x, y]) => scalarBinary(operator, x, y))
  return scalarBinary(operator, a, b)
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
