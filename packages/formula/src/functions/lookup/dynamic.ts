/**
 * FILTER, SORT, SORTBY and UNIQUE: the dynamic-array functions that select and order rows.
 */
import { compareText } from '../../coerce.js'
import { work } from '../../evaluator/budget.js'
import { CellError } from '../../values.js'
import type { ArrayValue, Scalar, Value } from '../../values.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { integerArg, readArray, spansWholeSheet, spilled } from './arrays.js'

/**
 * The rows (or, by column, the columns) of an array, addressed by index rather than copied into lists:
 * a whole column is a million rows.
 */
class Lines {
  readonly count: number
  /** Cells per line. */
  readonly length: number

  constructor(
    readonly array: ArrayValue,
    readonly byColumn: boolean,
  ) {
    this.count = byColumn ? array.width : array.height
    this.length = byColumn ? array.height : array.width
  }

  /** The cell at `position` of line `line`. */
  cell(line: number, position: number): Scalar {
    const { array } = this
    return this.byColumn ? array.data[position * array.width + line] : array.data[line * array.width + position]
  }

  /** One cell of every line, such as the sort key column. */
  column(position: number): Scalar[] {
    const values: Scalar[] = new Array(this.count)
    for (let i = 0; i < this.count; i++) values[i] = this.cell(i, position)
    return values
  }

  /** The chosen lines, in the order given, as the result array (empty cells show as 0). */
  pick(chosen: readonly number[]): ArrayValue | CellError {
    const count = chosen.length
    const height = this.byColumn ? this.length : count
    const width = this.byColumn ? count : this.length
    const data: Scalar[] = new Array(height * width)
    for (let i = 0; i < count; i++) {
      for (let j = 0; j < this.length; j++) {
        const value = this.cell(chosen[i], j)
        if (this.byColumn) data[j * width + i] = value
        else data[i * width + j] = value
      }
    }
    return spilled(height, width, data)
  }
}

export const FILTER: FunctionDefinition = {
  name: 'FILTER',
  category: 'lookup',
  minArgs: 2,
  maxArgs: 3,
  args: ['any', 'any', 'any'],
  syntax: 'FILTER(array, include, [if_empty])',
  description:
    'Returns the rows (or columns) of an array whose include value is TRUE; if_empty is returned when none is (default #CALC!).',
  example: 'FILTER(A2:C100, B2:B100 > 10, "None")',
  impl: (args) => {
    const include = readArray(args[1], true)
    if (include instanceof CellError) return include
    // A whole column pairs with a condition over the whole column; a result of a million empty rows is
    // still possible (FILTER(B:B, A:A<>"x")) and is Excel's answer.
    const array = readArray(args[0], spansWholeSheet(include))
    if (array instanceof CellError) return array
    let byColumn: boolean
    if (include.width === 1 && include.height === array.height) byColumn = false
    else if (include.height === 1 && include.width === array.width) byColumn = true
    else return CellError.VALUE
    const selected: number[] = []
    const all = new Lines(array, byColumn)
    for (let i = 0; i < all.count; i++) {
      const flag = include.data[i]
      if (flag instanceof CellError) return flag
      if (typeof flag === 'string') return CellError.VALUE
      if (flag === true || (typeof flag === 'number' && flag !== 0)) selected.push(i)
    }
    if (selected.length === 0) {
      const fallback = args[2]
      if (fallback === undefined) return CellError.CALC
      return fallback === MISSING ? 0 : (fallback as Value)
    }
    return all.pick(selected)
  },
}

/** Sort order of cell values: numbers, text, FALSE, TRUE, errors; empty cells always last. */
function rank(value: Scalar): number {
  switch (typeof value) {
    case 'number':
      return 0
    case 'string':
      return 1
    case 'boolean':
      return 2
    default:
      return value === null ? 4 : 3
  }
}

function compareForSort(a: Scalar, b: Scalar, descending: boolean): number {
  const ra = rank(a)
  const rb = rank(b)
  if (ra === 4 || rb === 4) return ra - rb
  let order: number
  if (ra !== rb) order = ra - rb
  else if (typeof a === 'string') order = compareText(a, b as string)
  else if (typeof a === 'number' || typeof a === 'boolean') order = a === b ? 0 : a < (b as number | boolean) ? -1 : 1
  else order = 0
  return descending ? -order : order
}

interface SortKey {
  values: readonly Scalar[]
  descending: boolean
}

/** Positions 0..count-1 ordered by the keys, stably. */
function sortedOrder(count: number, keys: readonly SortKey[]): number[] {
  const compare = (i: number, j: number): number => {
    // Sorting millions of rows takes long: each comparison counts against the time budget.
    work(1)
    for (const key of keys) {
      const result = compareForSort(key.values[i], key.values[j], key.descending)
      if (result !== 0) return result
    }
    return i - j
  }
  // Empty first keys go last in either direction, so only the rest needs sorting: a whole column is
  // mostly empty rows.
  const filled: number[] = []
  const empty: number[] = []
  const first = keys[0].values
  for (let i = 0; i < count; i++) (first[i] === null ? empty : filled).push(i)
  filled.sort(compare)
  if (keys.length > 1) empty.sort(compare)
  for (const index of empty) filled.push(index)
  return filled
}

/** A sort order argument: 1 ascending, -1 descending, anything else #VALUE!. */
function readOrder(arg: Arg | undefined): boolean | CellError {
  const order = integerArg(arg) ?? 1
  if (order instanceof CellError) return order
  if (order !== 1 && order !== -1) return CellError.VALUE
  return order === -1
}

/** The numbers of a scalar or array argument (SORT's sort_index and sort_order may be arrays). */
function integerList(arg: Arg | undefined, fallback: number): number[] | CellError {
  if (arg === undefined || arg === MISSING) return [fallback]
  const array = readArray(arg)
  if (array instanceof CellError) return array
  const numbers: number[] = []
  for (const item of array.data) {
    const n = integerArg(item)
    if (n instanceof CellError) return n
    numbers.push(n ?? fallback)
  }
  return numbers
}

export const SORT: FunctionDefinition = {
  name: 'SORT',
  category: 'lookup',
  minArgs: 1,
  maxArgs: 4,
  args: ['any', 'any', 'any', 'any'],
  syntax: 'SORT(array, [sort_index], [sort_order], [by_col])',
  description:
    'Returns the rows of an array sorted by one of its columns (sort_index), ascending (1) or descending (-1); by_col TRUE sorts columns by a row.',
  example: 'SORT(A2:C100, 2, -1)',
  impl: (args) => {
    const array = readArray(args[0])
    if (array instanceof CellError) return array
    const byColumnArg = integerArg(args[3]) ?? 0
    if (byColumnArg instanceof CellError) return byColumnArg
    const byColumn = byColumnArg !== 0
    const indexes = integerList(args[1], 1)
    if (indexes instanceof CellError) return indexes
    const orders = integerList(args[2], 1)
    if (orders instanceof CellError) return orders
    const all = new Lines(array, byColumn)
    const keys: SortKey[] = []
    for (let k = 0; k < indexes.length; k++) {
      const index = indexes[k]
      if (index < 1 || index > all.length) return CellError.VALUE
      const order = orders[Math.min(k, orders.length - 1)]
      if (order !== 1 && order !== -1) return CellError.VALUE
      keys.push({ values: all.column(index - 1), descending: order === -1 })
    }
    return all.pick(sortedOrder(all.count, keys))
  },
}

export const SORTBY: FunctionDefinition = {
  name: 'SORTBY',
  category: 'lookup',
  minArgs: 2,
  maxArgs: 253,
  args: ['any'],
  syntax: 'SORTBY(array, by_array1, [sort_order1], [by_array2, sort_order2], ...)',
  description: 'Returns the rows (or columns) of an array sorted by the values of other rows or columns.',
  example: 'SORTBY(A2:A100, B2:B100, -1)',
  impl: (args) => {
    const byArrays: ArrayValue[] = []
    for (let i = 1; i < args.length; i += 2) {
      const by = readArray(args[i])
      if (by instanceof CellError) return by
      byArrays.push(by)
    }
    // Keys computed over a whole column (SORTBY(C:C, -B:B)) sort the whole column.
    const array = readArray(args[0], byArrays.some(spansWholeSheet))
    if (array instanceof CellError) return array
    const keys: SortKey[] = []
    let byColumn: boolean | undefined
    for (let i = 1; i < args.length; i += 2) {
      const by = byArrays[(i - 1) / 2]
      let keyByColumn: boolean
      if (by.width === 1 && by.height === array.height) keyByColumn = false
      else if (by.height === 1 && by.width === array.width) keyByColumn = true
      else return CellError.VALUE
      if (byColumn !== undefined && byColumn !== keyByColumn) return CellError.VALUE
      byColumn = keyByColumn
      const descending = readOrder(args[i + 1])
      if (descending instanceof CellError) return descending
      keys.push({ values: by.data, descending })
    }
    const all = new Lines(array, byColumn === true)
    return all.pick(sortedOrder(all.count, keys))
  },
}

/** A key that is equal for rows Excel's UNIQUE treats as duplicates (text compared case-insensitively). */
function lineKey(lines: Lines, line: number): string {
  if (lines.length === 1) return valueKey(lines.cell(line, 0))
  const parts: string[] = new Array(lines.length)
  for (let j = 0; j < lines.length; j++) parts[j] = valueKey(lines.cell(line, j))
  return parts.join('\u0000')
}

function valueKey(value: Scalar): string {
  if (value === null) return 'e'
  if (typeof value === 'string') return `s${value.toLowerCase()}`
  if (typeof value === 'number') return `n${value === 0 ? 0 : value}`
  if (typeof value === 'boolean') return `b${value}`
  return `x${value.code}`
}

export const UNIQUE: FunctionDefinition = {
  name: 'UNIQUE',
  category: 'lookup',
  minArgs: 1,
  maxArgs: 3,
  args: ['any', 'any', 'any'],
  syntax: 'UNIQUE(array, [by_col], [exactly_once])',
  description:
    'Returns the distinct rows (or columns) of an array in order of first appearance; exactly_once TRUE keeps only those that occur once.',
  example: 'UNIQUE(A2:A100)',
  impl: (args) => {
    const array = readArray(args[0], true)
    if (array instanceof CellError) return array
    const byColumnArg = integerArg(args[1]) ?? 0
    if (byColumnArg instanceof CellError) return byColumnArg
    const onceArg = integerArg(args[2]) ?? 0
    if (onceArg instanceof CellError) return onceArg
    const byColumn = byColumnArg !== 0
    const all = new Lines(array, byColumn)
    const counts = new Map<string, { line: number; count: number }>()
    for (let line = 0; line < all.count; line++) {
      const key = lineKey(all, line)
      const entry = counts.get(key)
      if (entry) entry.count++
      else counts.set(key, { line, count: 1 })
    }
    const selected = [...counts.values()].filter((entry) => onceArg === 0 || entry.count === 1).map((entry) => entry.line)
    return all.pick(selected)
  },
}

export const functions: readonly FunctionDefinition[] = [FILTER, SORT, SORTBY, UNIQUE]
