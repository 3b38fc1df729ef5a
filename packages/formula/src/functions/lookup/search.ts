/**
 * The searches behind MATCH, XMATCH, VLOOKUP, HLOOKUP, LOOKUP and XLOOKUP.
 *
 * Exact searches compare values of the same type only (the number 13 never finds the text "13"), text
 * case-insensitively. Approximate searches on sorted data are binary searches that, as Excel's, look
 * only at values of the lookup value's type (text, errors and blanks among numbers are stepped over,
 * which is what makes `LOOKUP(2, 1/(A:A<>""), A:A)` find the last filled row) and land on the last of
 * equal values.
 */
import { compareText } from '../../coerce.js'
import { ArrayValue, CellError, RangeRef, ReferenceList } from '../../values.js'
import type { Matrix, Scalar } from '../../values.js'
import { toText, wildcardPattern } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg } from '../types.js'

/** A one-dimensional run of cells of a matrix (a row or a column). */
export interface Vector {
  readonly length: number
  get(index: number): Scalar
}

/** A matrix of an argument: a range (whole columns trimmed to the data) or an array; scalars are 1×1. */
export function matrixOf(value: Arg): Matrix | CellError {
  if (value === MISSING) return CellError.VALUE
  if (value instanceof RangeRef) return value.trimmed()
  if (value instanceof ArrayValue) return value
  if (value instanceof ReferenceList) return value.areas.length === 1 ? value.areas[0].trimmed() : CellError.NA
  if (value instanceof CellError) return value
  return ArrayValue.filled(1, 1, value)
}

export function rowOf(matrix: Matrix, row: number): Vector {
  return { length: matrix.width, get: (index) => matrix.get(row, index) }
}

export function columnOf(matrix: Matrix, col: number): Vector {
  return { length: matrix.height, get: (index) => matrix.get(index, col) }
}

/** A one-row or one-column matrix as a vector; undefined when it is two-dimensional. */
export function vectorOf(matrix: Matrix): Vector | undefined {
  if (matrix.width === 1) return columnOf(matrix, 0)
  if (matrix.height === 1) return rowOf(matrix, 0)
  return undefined
}

type Kind = 'number' | 'text' | 'boolean'

function kindOf(value: Scalar): Kind | undefined {
  switch (typeof value) {
    case 'number':
      return 'number'
    case 'string':
      return 'text'
    case 'boolean':
      return 'boolean'
    default:
      return undefined
  }
}

/** Orders two values of the same kind. */
function compareSameKind(a: number | string | boolean, b: number | string | boolean): number {
  if (typeof a === 'string') return compareText(a, b as string)
  if (a === b) return 0
  return a < b ? -1 : 1
}

/** A test for exact equality with a lookup value, with `*`, `?` and `~` wildcards when asked. */
export function exactMatcher(lookup: Scalar, wildcards: boolean): (value: Scalar) => boolean {
  if (typeof lookup === 'string') {
    const pattern = wildcards ? wildcardPattern(lookup) : undefined
    if (pattern) return (value) => typeof value === 'string' && pattern.test(value)
    const lower = lookup.toLowerCase()
    return (value) => typeof value === 'string' && (value === lookup || value.toLowerCase() === lower)
  }
  return (value) => value === lookup
}

/** The first (or last) position equal to the lookup value, or -1. */
export function findExact(vector: Vector, lookup: Scalar, options: { wildcards: boolean; reverse?: boolean }): number {
  const matches = exactMatcher(lookup, options.wildcards)
  if (options.reverse) {
    for (let i = vector.length - 1; i >= 0; i--) if (matches(vector.get(i))) return i
  } else {
    for (let i = 0; i < vector.length; i++) if (matches(vector.get(i))) return i
  }
  return -1
}

/** Positions of the values of the lookup value's kind, in order. */
function sameKindPositions(vector: Vector, kind: Kind): number[] {
  const positions: number[] = []
  for (let i = 0; i < vector.length; i++) if (kindOf(vector.get(i)) === kind) positions.push(i)
  return positions
}

/**
 * Binary search of data sorted ascending (or descending): the last position whose value is at most
 * (at least, when descending) the lookup value, or -1 when there is none.
 */
export function findSorted(vector: Vector, lookup: Scalar, descending = false): number {
  const kind = kindOf(lookup)
  if (kind === undefined) return -1
  const target = lookup as number | string | boolean
  const positions = sameKindPositions(vector, kind)
  let low = 0
  let high = positions.length - 1
  while (low <= high) {
    const middle = (low + high) >> 1
    const order = compareSameKind(vector.get(positions[middle]) as number | string | boolean, target)
    if (descending ? order >= 0 : order <= 0) low = middle + 1
    else high = middle - 1
  }
  return high >= 0 ? positions[high] : -1
}

/**
 * XMATCH and XLOOKUP: match_mode 0 exact, -1 exact or next smaller, 1 exact or next larger, 2 wildcard,
 * 3 regular expression; search_mode 1 first to last, -1 last to first, 2 binary ascending, -2 binary
 * descending. Returns the position, -1 when not found, or #VALUE! for an invalid pattern.
 */
export function findExtended(vector: Vector, lookup: Scalar, matchMode: number, searchMode: number): number | CellError {
  if (searchMode === 2 || searchMode === -2) return binaryExtended(vector, lookup, matchMode, searchMode === -2)
  const reverse = searchMode === -1
  if (matchMode === 0 || matchMode === 2) return findExact(vector, lookup, { wildcards: matchMode === 2, reverse })
  if (matchMode === 3) {
    let pattern: RegExp
    try {
      pattern = new RegExp(toText(lookup) as string, 'u')
    } catch {
      return CellError.VALUE
    }
    const test = (value: Scalar) => typeof value === 'string' && pattern.test(value)
    if (reverse) {
      for (let i = vector.length - 1; i >= 0; i--) if (test(vector.get(i))) return i
    } else {
      for (let i = 0; i < vector.length; i++) if (test(vector.get(i))) return i
    }
    return -1
  }
  const kind = kindOf(lookup)
  if (kind === undefined) return -1
  const target = lookup as number | string | boolean
  let best = -1
  let bestValue: number | string | boolean | undefined
  for (let step = 0; step < vector.length; step++) {
    const i = reverse ? vector.length - 1 - step : step
    const value = vector.get(i)
    if (kindOf(value) !== kind) continue
    const candidate = value as number | string | boolean
    const order = compareSameKind(candidate, target)
    if (order === 0) return i
    if ((matchMode < 0 && order > 0) || (matchMode > 0 && order < 0)) continue
    // Keep the closest candidate; the first one found wins a tie.
    const closer = bestValue === undefined || compareSameKind(candidate, bestValue) * matchMode < 0
    if (closer) {
      best = i
      bestValue = candidate
    }
  }
  return best
}

function binaryExtended(vector: Vector, lookup: Scalar, matchMode: number, descending: boolean): number {
  const kind = kindOf(lookup)
  if (kind === undefined) return -1
  const target = lookup as number | string | boolean
  const positions = sameKindPositions(vector, kind)
  const orderAt = (k: number) => {
    const order = compareSameKind(vector.get(positions[k]) as number | string | boolean, target)
    return descending ? -order : order
  }
  // The first position (in search order) whose value is not below the target.
  let low = 0
  let high = positions.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (orderAt(middle) < 0) low = middle + 1
    else high = middle
  }
  if (low < positions.length && orderAt(low) === 0) return positions[low]
  if (matchMode === 0 || matchMode === 2) return -1
  // Next smaller sits before that position in ascending data, next larger in descending data.
  const before = descending ? matchMode > 0 : matchMode < 0
  const k = before ? low - 1 : low
  return k >= 0 && k < positions.length ? positions[k] : -1
}
