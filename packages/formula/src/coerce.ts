/**
 * Excel's coercion and comparison rules for scalars, shared by the operators and the functions.
 */
import { readNumber } from './input/parse-input.js'
import { CellError } from './values.js'
import type { Scalar } from './values.js'

/** A scalar as a number: TRUE → 1, empty → 0, numeric text → its number, other text → #VALUE!. */
export function toNumber(value: Scalar): number | CellError {
  switch (typeof value) {
    case 'number':
      return value
    case 'boolean':
      return value ? 1 : 0
    case 'string': {
      const reading = readNumber(value)
      return reading === undefined ? CellError.VALUE : reading.value
    }
    default:
      return value === null ? 0 : value
  }
}

/** A scalar as text: numbers as Excel's General format writes them, TRUE → "TRUE", empty → "". */
export function toText(value: Scalar): string | CellError {
  switch (typeof value) {
    case 'string':
      return value
    case 'number':
      return numberToText(value)
    case 'boolean':
      return value ? 'TRUE' : 'FALSE'
    default:
      return value === null ? '' : value
  }
}

/** A scalar as a boolean: numbers are TRUE unless 0, "TRUE"/"FALSE" in any case, empty → FALSE. */
export function toBoolean(value: Scalar): boolean | CellError {
  switch (typeof value) {
    case 'boolean':
      return value
    case 'number':
      return value !== 0
    case 'string': {
      const upper = value.toUpperCase()
      if (upper === 'TRUE') return true
      if (upper === 'FALSE') return false
      return CellError.VALUE
    }
    default:
      return value === null ? false : value
  }
}

/**
 * A number written as Excel converts it to text (`=1/3&""`): at most 15 significant digits, no
 * trailing zeros, scientific notation only for very large or very small magnitudes.
 */
export function numberToText(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value)
  if (value === 0) return '0'
  const rounded = Number(value.toPrecision(15))
  const magnitude = Math.abs(rounded)
  // Beyond 15 integer digits Excel cannot write every digit, so it switches to scientific form.
  if (magnitude >= 1e15 || magnitude < 1e-9) {
    const [mantissa, exponent] = rounded.toExponential(14).split('e')
    const trimmedMantissa = mantissa.replace(/\.?0+$/, '')
    const exponentNumber = Number(exponent)
    const sign = exponentNumber < 0 ? '-' : '+'
    const digits = String(Math.abs(exponentNumber)).padStart(2, '0')
    return `${trimmedMantissa}E${sign}${digits}`
  }
  if (magnitude < 1e-6) {
    // JavaScript would write 1e-7; Excel writes the digits out.
    const decimals = Math.min(100, 15 - Math.floor(Math.log10(magnitude)) - 1)
    return rounded.toFixed(decimals).replace(/\.?0+$/, '')
  }
  return String(rounded)
}

/** Equality of two numbers to Excel's 15 significant digits (`=0.1+0.2=0.3` is TRUE). */
export function numbersEqual(a: number, b: number): boolean {
  if (a === b) return true
  const scale = Math.max(Math.abs(a), Math.abs(b))
  return Math.abs(a - b) <= scale * 1e-15
}

function typeRank(value: Exclude<Scalar, null | CellError>): number {
  switch (typeof value) {
    case 'number':
      return 0
    case 'string':
      return 1
    default:
      return 2
  }
}

/**
 * Compares two non-error scalars as Excel's comparison operators do: numbers < text < booleans, text
 * case-insensitively, an empty cell as 0, "" or FALSE according to the other side. Returns -1, 0 or 1.
 */
export function compareScalars(a: Exclude<Scalar, CellError>, b: Exclude<Scalar, CellError>): number {
  if (a === null) a = b === null ? 0 : emptyLike(b)
  if (b === null) b = emptyLike(a)
  if (typeof a === 'number' && typeof b === 'number') {
    if (numbersEqual(a, b)) return 0
    return a < b ? -1 : 1
  }
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b)
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1
  return typeRank(a) < typeRank(b) ? -1 : 1
}

function emptyLike(other: Exclude<Scalar, CellError | null>): number | string | boolean {
  switch (typeof other) {
    case 'number':
      return 0
    case 'string':
      return ''
    default:
      return false
  }
}

export type ComparisonOperator = '=' | '<>' | '<' | '>' | '<=' | '>='

/** Whether an order (negative, zero or positive, as compareScalars gives it) satisfies the operator. */
export function comparisonHolds(operator: ComparisonOperator, order: number): boolean {
  switch (operator) {
    case '=':
      return order === 0
    case '<>':
      return order !== 0
    case '<':
      return order < 0
    case '>':
      return order > 0
    case '<=':
      return order <= 0
    default:
      return order >= 0
  }
}

/** Case-insensitive text order as Excel sorts and compares. */
export function compareText(a: string, b: string): number {
  if (a === b) return 0
  const la = a.toLowerCase()
  const lb = b.toLowerCase()
  if (la === lb) return 0
  return la < lb ? -1 : 1
}
