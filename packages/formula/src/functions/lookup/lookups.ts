import { ArrayValue, CellError, RangeRef } from '../../values.js'
import type { Matrix, Scalar, Value } from '../../values.js'
import { toBoolean, toNumber } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { columnOf, findExact, findExtended, findSorted, matrixOf, rowOf, vectorOf } from './search.js'
import type { Vector } from './search.js'

/** An optional whole-number argument; absent or empty gives `fallback`. */
function optionalInteger(arg: Arg | undefined, fallback: number): number | CellError {
  if (arg === undefined || arg === MISSING) return fallback
  if (typeof arg === 'object' && arg !== null && !(arg instanceof CellError)) return CellError.VALUE
  const number = toNumber(arg as Scalar)
  return number instanceof CellError ? number : Math.trunc(number)
}

/** The row (or column) `index` of a range or array, kept a reference when it is one. */
function slice(source: Matrix, index: number, byRow: boolean): Value {
  if (source instanceof RangeRef) {
    return byRow
      ? new RangeRef(source.sheet, source.top + index, source.left, source.top + index, source.right)
      : new RangeRef(source.sheet, source.top, source.left + index, source.bottom, source.left + index)
  }
  if (byRow) {
    if (source.width === 1) return source.get(index, 0)
    const data: Scalar[] = []
    for (let c = 0; c < source.width; c++) data.push(source.get(index, c))
    return new ArrayValue(1, source.width, data)
  }
  if (source.height === 1) return source.get(0, index)
  const data: Scalar[] = []
  for (let r = 0; r < source.height; r++) data.push(source.get(r, index))
  return new ArrayValue(source.height, 1, data)
}

export const MATCH: FunctionDefinition = {
  name: 'MATCH',
  category: 'lookup',
  minArgs: 2,
  maxArgs: 3,
  args: ['scalar', 'any', 'scalar'],
  syntax: 'MATCH(lookup_value, lookup_array, [match_type])',
  description:
    'Returns the position of a value in a row or column: match_type 1 (default) finds the largest value at most lookup_value in ascending data, 0 the first equal value (wildcards allowed), -1 the smallest value at least lookup_value in descending data.',
  example: 'MATCH("b", A1:A10, 0)',
  impl: (args) => {
    const lookup = args[0] as Scalar
    const matrix = matrixOf(args[1])
    if (matrix instanceof CellError) return matrix
    // match_type left empty is 0, an exact match (=MATCH(x, r, )); omitted it is 1.
    const type = args[2] === MISSING ? 0 : optionalInteger(args[2], 1)
    if (type instanceof CellError) return type
    const vector = vectorOf(matrix)
    if (!vector || lookup === null) return CellError.NA
    const index =
      type === 0 ? findExact(vector, lookup, { wildcards: true }) : findSorted(vector, lookup, type < 0)
    return index < 0 ? CellError.NA : index + 1
  },
}

/** Reads the match and search modes of XMATCH and XLOOKUP; invalid values are #VALUE!. */
function readModes(matchArg: Arg | undefined, searchArg: Arg | undefined): [number, number] | CellError {
  const matchMode = optionalInteger(matchArg, 0)
  if (matchMode instanceof CellError) return matchMode
  const searchMode = optionalInteger(searchArg, 1)
  if (searchMode instanceof CellError) return searchMode
  if (![0, -1, 1, 2, 3].includes(matchMode)) return CellError.VALUE
  if (![1, -1, 2, -2].includes(searchMode)) return CellError.VALUE
  // Wildcards and patterns need a linear search.
  if (matchMode >= 2 && Math.abs(searchMode) === 2) return CellError.VALUE
  return [matchMode, searchMode]
}

export const XMATCH: FunctionDefinition = {
  name: 'XMATCH',
  category: 'lookup',
  minArgs: 2,
  maxArgs: 4,
  args: ['scalar', 'any', 'scalar', 'scalar'],
  syntax: 'XMATCH(lookup_value, lookup_array, [match_mode], [search_mode])',
  description:
    'Returns the position of a value in a row or column: match_mode 0 exact, -1 or next smaller, 1 or next larger, 2 wildcards, 3 regular expression; search_mode 1 first to last, -1 last to first, 2 and -2 binary search.',
  example: 'XMATCH("b", A1:A10)',
  impl: (args) => {
    const lookup = args[0] as Scalar
    const matrix = matrixOf(args[1])
    if (matrix instanceof CellError) return matrix
    const modes = readModes(args[2], args[3])
    if (modes instanceof CellError) return modes
    const vector = vectorOf(matrix)
    if (!vector) return CellError.VALUE
    if (lookup === null) return CellError.NA
    const index = findExtended(vector, lookup, modes[0], modes[1])
    if (index instanceof CellError) return index
    return index < 0 ? CellError.NA : index + 1
  },
}

export const XLOOKUP: FunctionDefinition = {
  name: 'XLOOKUP',
  category: 'lookup',
  minArgs: 3,
  maxArgs: 6,
  args: ['scalar', 'any', 'any', 'any', 'scalar', 'scalar'],
  syntax: 'XLOOKUP(lookup_value, lookup_array, return_array, [if_not_found], [match_mode], [search_mode])',
  description:
    'Searches a row or column for a value and returns the matching row or column of return_array, or if_not_found (default #N/A) when there is no match.',
  example: 'XLOOKUP(E2, A2:A100, C2:C100, "Not found")',
  impl: (args) => {
    const lookup = args[0] as Scalar
    // Sizes are compared untrimmed (A:A against C:C); the search reads only the used part.
    const lookupMatrix = returnMatrixOf(args[1])
    if (lookupMatrix instanceof CellError) return lookupMatrix
    const returnMatrix = returnMatrixOf(args[2])
    if (returnMatrix instanceof CellError) return returnMatrix
    const modes = readModes(args[4], args[5])
    if (modes instanceof CellError) return modes
    const vertical = lookupMatrix.width === 1 && (lookupMatrix.height > 1 || returnMatrix.height === 1)
    if (!vertical && lookupMatrix.height !== 1) return CellError.VALUE
    if ((vertical ? returnMatrix.height : returnMatrix.width) !== (vertical ? lookupMatrix.height : lookupMatrix.width)) {
      return CellError.VALUE
    }
    const vector = trimmedFirst(lookupMatrix, vertical)
    const index = lookup === null ? -1 : findExtended(vector, lookup, modes[0], modes[1])
    if (index instanceof CellError) return index
    if (index < 0) {
      const fallback = args[3]
      return fallback === undefined || fallback === MISSING ? CellError.NA : fallback
    }
    return slice(returnMatrix, index, vertical)
  },
}

/** The return array of XLOOKUP, untrimmed so that its size matches the lookup array's. */
function returnMatrixOf(value: Arg): Matrix | CellError {
  if (value instanceof RangeRef) return value
  return matrixOf(value)
}

/** VLOOKUP and HLOOKUP: search the first column (row) and return from column (row) `index`. */
function tableLookup(args: Arg[], byColumn: boolean): Value {
  const lookup = args[0] as Scalar
  const table = returnMatrixOf(args[1])
  if (table instanceof CellError) return table
  const index = optionalInteger(args[2], 0)
  if (index instanceof CellError) return index
  let approximate = true
  // range_lookup left empty is FALSE, an exact match (=VLOOKUP(x, t, 2, )); omitted it is TRUE.
  if (args[3] === MISSING) approximate = false
  else if (args[3] !== undefined) {
    const flag = toBoolean(args[3] as Scalar)
    if (flag instanceof CellError) return flag
    approximate = flag
  }
  if (index < 1) return CellError.VALUE
  if (index > (byColumn ? table.width : table.height)) return CellError.REF
  if (lookup === null) return CellError.NA
  const searched = trimmedFirst(table, byColumn)
  const position = approximate ? findSorted(searched, lookup) : findExact(searched, lookup, { wildcards: true })
  if (position < 0) return CellError.NA
  return byColumn ? table.get(position, index - 1) : table.get(index - 1, position)
}

/** The first column (or row) of a table, limited to the used part of a whole-column reference. */
function trimmedFirst(table: Matrix, byColumn: boolean): Vector {
  const searched = table instanceof RangeRef ? table.trimmed() : table
  return byColumn ? columnOf(searched, 0) : rowOf(searched, 0)
}

export const VLOOKUP: FunctionDefinition = {
  name: 'VLOOKUP',
  category: 'lookup',
  minArgs: 3,
  maxArgs: 4,
  args: ['scalar', 'any', 'scalar', 'scalar'],
  syntax: 'VLOOKUP(lookup_value, table_array, col_index_num, [range_lookup])',
  description:
    'Looks for a value in the first column of a table and returns the value in the same row of another column; range_lookup FALSE asks for an exact match.',
  example: 'VLOOKUP(E2, A2:C100, 3, FALSE)',
  impl: (args) => tableLookup(args, true),
}

export const HLOOKUP: FunctionDefinition = {
  name: 'HLOOKUP',
  category: 'lookup',
  minArgs: 3,
  maxArgs: 4,
  args: ['scalar', 'any', 'scalar', 'scalar'],
  syntax: 'HLOOKUP(lookup_value, table_array, row_index_num, [range_lookup])',
  description:
    'Looks for a value in the first row of a table and returns the value in the same column of another row; range_lookup FALSE asks for an exact match.',
  example: 'HLOOKUP("Q2", A1:E5, 3, FALSE)',
  impl: (args) => tableLookup(args, false),
}

export const LOOKUP: FunctionDefinition = {
  name: 'LOOKUP',
  category: 'lookup',
  minArgs: 2,
  maxArgs: 3,
  args: ['scalar', 'any', 'any'],
  syntax: 'LOOKUP(lookup_value, lookup_vector, [result_vector])',
  description:
    'Finds the largest value at most lookup_value in sorted data and returns the value in the same position of result_vector (or, for a table, of its last row or column).',
  example: 'LOOKUP(4.19, A2:A6, B2:B6)',
  impl: (args) => {
    const lookup = args[0] as Scalar
    const source = matrixOf(args[1])
    if (source instanceof CellError) return source
    if (lookup === null) return CellError.NA
    if (args[2] === undefined || args[2] === MISSING) {
      // Array form: search the first row of a wide table or the first column of a tall one.
      const wide = source.width > source.height
      const vector = wide ? rowOf(source, 0) : columnOf(source, 0)
      const position = findSorted(vector, lookup)
      if (position < 0) return CellError.NA
      return wide ? source.get(source.height - 1, position) : source.get(position, source.width - 1)
    }
    const vector = vectorOf(source)
    if (!vector) return CellError.NA
    const results = returnMatrixOf(args[2])
    if (results instanceof CellError) return results
    const position = findSorted(vector, lookup)
    if (position < 0) return CellError.NA
    const resultVector = results.width === 1 ? columnOf(results, 0) : results.height === 1 ? rowOf(results, 0) : undefined
    if (!resultVector) return CellError.NA
    if (position < resultVector.length) return resultVector.get(position)
    // A result range shorter than the lookup vector is extended in its direction, as Excel does.
    if (results instanceof RangeRef) {
      return results.width === 1
        ? results.sheet.read(results.top + position, results.left)
        : results.sheet.read(results.top, results.left + position)
    }
    return CellError.NA
  },
}

export const functions: readonly FunctionDefinition[] = [MATCH, XMATCH, XLOOKUP, VLOOKUP, HLOOKUP, LOOKUP]
