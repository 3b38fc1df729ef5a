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
  /** The engine's answer to an exact search of a column of a range, when it keeps one (see findExact). */
  exactPosition?(lookup: Scalar, reverse: boolean): number | undefined
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
  const vector: Vector = { length: matrix.height, get: (index) => matrix.get(index, col) }
  if (matrix instanceof RangeRef && matrix.sheet.exactPosition !== undefined) {
    const { sheet, top, bottom, left } = matrix
    return { ...vector, exactPosition: (lookup, reverse) => sheet.exactPosition?.(top, left + col, bottom, lookup, reverse) }
  }
  return vector
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
  // Many lookups into one column share the engine's index of it, unless wildcards need a pattern.
  const plain = !(options.wildcards && typeof lookup === 'string' && /[*?~]/.test(lookup))
  if (plain && vector.exactPosition !== undefined) {
    const position = vector.exactPosition(lookup, options.reverse === true)
    if (position !== undefined) return position
  }
  const matches = exactMatcher(lookup, options.wildcards)
  if (options.reverse) {
    for (let i = vector.length - 1; i >= 0; i--) if (matches(vector.get(i))) return i
  } else {
    for (let i = 0; i < vector.length; i++) if (matches(vector.get(i))) return i
  }
  return -1
}

/**
 * The position of a value of the given kind in [low, high] nearest `middle` (looking down first), or
 * -1: a binary search steps over cells of other kinds without reading the whole range.
 */
function nearestOfKind(vector: Vector, kind: Kind, middle: number, low: number, high: number): number {
  for (let i = middle; i >= low; i--) if (kindOf(vector.get(i)) === kind) return i
  for (let i = middle + 1; i <= high; i++) if (kindOf(vector.get(i)) === kind) return i
  return -1
}

/**
 * Binary search: the last position whose value is at most the lookup value (ascending data), or at
 * least it (`descending`), among values of the lookup value's kind; -1 when there is none.
 */
export function findSorted(vector: Vector, lookup: Scalar, descending = false): number {
  const kind = kindOf(lookup)
  if (kind === undefined) return -1
  const target = lookup as number | string | boolean
  let low = 0
  let high = vector.length - 1
  let found = -1
  while (low <= high) {
    const probe = nearestOfKind(vector, kind, (low + high) >> 1, low, high)
    if (probe < 0) break
    const order = compareSameKind(vector.get(probe) as number | string | boolean, target)
    if (descending ? order >= 0 : order <= 0) {
      found = probe
      low = probe + 1
    } else high = probe - 1
  }
  return found
}

/**
 * Binary search: the first position whose value is not before the lookup value in the data's order
 * (at least it when ascending, at most it when descending); -1 when there is none.
 */
function firstNotBefore(vector: Vector, kind: Kind, target: number | string | boolean, descending: boolean): number {
  let low = 0
  let high = vector.length - 1
  let found = -1
  while (low <= high) {
    const probe = nearestOfKind(vector, kind, (low + high) >> 1, low, high)
    if (probe < 0) break
    const order = compareSameKind(vector.get(probe) as number | string | boolean, target)
    if (descending ? order <= 0 : order >= 0) {
      found = probe
      high = probe - 1
    } else low = probe + 1
  }
  return found
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
  const first = firstNotBefore(vector, kind, target, descending)
  if (first >= 0 && compareSameKind(vector.get(first) as number | string | boolean, target) === 0) return first
  if (matchMode === 0 || matchMode === 2) return -1
  // Next larger is the first value past the target in ascending data; in descending data it is the last
  // value before it. Next smaller mirrors that.
  const wantsLarger = matchMode > 0
  if (wantsLarger !== descending) return first
  return findSorted(vector, lookup, descending)
}
