/**
 * Reshaping functions of dynamic arrays: HSTACK, VSTACK, TOCOL, TOROW, WRAPCOLS, WRAPROWS, TAKE, DROP,
 * EXPAND, CHOOSECOLS, CHOOSEROWS and TRIMRANGE. An empty result is #CALC!, as in Excel.
 */
import { reserveCells } from '../../evaluator/budget.js'
import { ArrayValue, CellError, RangeRef, ReferenceList } from '../../values.js'
import type { Scalar } from '../../values.js'
import { toNumber } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'

/**
 * An argument as an array of its cells (empty cells null); a scalar or an error is a 1×1 array.
 * Whole columns and rows stop at the used part of the sheet unless `wholeSheet`: Excel would carry a
 * million rows, nearly all empty, through SORT(B:B) or CHOOSECOLS(A:C, 2) and spill them as zeros, which
 * no browser tab should hold for a formula meant to show the data. Functions whose answer depends on
 * every row read them whole: FILTER pairs B:B with a condition computed for every row, UNIQUE lists the
 * empty cell among its values.
 */
export function readArray(value: Arg, wholeSheet = false): ArrayValue | CellError {
  if (value === MISSING) return ArrayValue.filled(1, 1, null)
  if (value instanceof ArrayValue) return value
  if (value instanceof ReferenceList) {
    if (value.areas.length !== 1) return CellError.VALUE
    value = value.areas[0]
  }
  if (value instanceof RangeRef) return wholeSheet ? value.cells() : value.toArray()
  return ArrayValue.filled(1, 1, value)
}

/**
 * Whether an array runs (nearly) the length of a whole column or row, as a condition computed over `B:B`
 * or `B2:B1048576` does.
 */
export function spansWholeSheet(array: ArrayValue): boolean {
  return array.height > 1_000_000 || array.width > 16_000
}

/** A result array as it spills: empty cells of the source show as 0. */
export function spilled(height: number, width: number, data: Scalar[]): ArrayValue | CellError {
  if (height === 0 || width === 0) return CellError.CALC
  for (let i = 0; i < data.length; i++) if (data[i] === null) data[i] = 0
  return new ArrayValue(height, width, data)
}

/** A whole-number argument (truncated); booleans and numeric text are coerced. */
export function integerArg(arg: Arg | undefined): number | CellError | undefined {
  if (arg === undefined || arg === MISSING) return undefined
  if (typeof arg === 'object' && arg !== null && !(arg instanceof CellError)) {
    if (arg instanceof ArrayValue && arg.height === 1 && arg.width === 1) return integerArg(arg.data[0])
    if (arg instanceof RangeRef && arg.isSingleCell) return integerArg(arg.get(0, 0))
    return CellError.VALUE
  }
  const number = toNumber(arg)
  return number instanceof CellError ? number : Math.trunc(number)
}

function stack(args: Arg[], horizontal: boolean): ArrayValue | CellError {
  const arrays: ArrayValue[] = []
  for (const arg of args) {
    const array = readArray(arg)
    if (array instanceof CellError) return array
    arrays.push(array)
  }
  let height = 0
  let width = 0
  for (const array of arrays) {
    height = horizontal ? Math.max(height, array.height) : height + array.height
    width = horizontal ? width + array.width : Math.max(width, array.width)
  }
  reserveCells(height, width)
  const data = new Array<Scalar>(height * width).fill(CellError.NA)
  let offset = 0
  for (const array of arrays) {
    for (let r = 0; r < array.height; r++) {
      for (let c = 0; c < array.width; c++) {
        const row = horizontal ? r : offset + r
        const col = horizontal ? offset + c : c
        data[row * width + col] = array.get(r, c)
      }
    }
    offset += horizontal ? array.width : array.height
  }
  return spilled(height, width, data)
}

export const HSTACK: FunctionDefinition = {
  name: 'HSTACK',
  category: 'lookup',
  minArgs: 1,
  maxArgs: 254,
  args: ['any'],
  syntax: 'HSTACK(array1, [array2], ...)',
  description: 'Joins arrays side by side into one array; shorter arrays are padded with #N/A.',
  example: 'HSTACK(A1:A5, C1:C5)',
  impl: (args) => stack(args, true),
}

export const VSTACK: FunctionDefinition = {
  name: 'VSTACK',
  category: 'lookup',
  minArgs: 1,
  maxArgs: 254,
  args: ['any'],
  syntax: 'VSTACK(array1, [array2], ...)',
  description: 'Stacks arrays one below the other into one array; narrower arrays are padded with #N/A.',
  example: 'VSTACK(A1:C1, A5:C9)',
  impl: (args) => stack(args, false),
}

/** TOCOL and TOROW: the cells in order, optionally without blanks (1), errors (2) or both (3). */
function flatten(args: Arg[], asColumn: boolean): ArrayValue | CellError {
  const array = readArray(args[0])
  if (array instanceof CellError) return array
  const ignore = integerArg(args[1]) ?? 0
  if (ignore instanceof CellError) return ignore
  if (ignore < 0 || ignore > 3) return CellError.VALUE
  let byColumn = false
  if (args[2] !== undefined && args[2] !== MISSING) {
    const flag = integerArg(args[2])
    if (flag instanceof CellError) return flag
    byColumn = flag !== 0
  }
  const items: Scalar[] = []
  const outer = byColumn ? array.width : array.height
  const inner = byColumn ? array.height : array.width
  for (let i = 0; i < outer; i++) {
    for (let j = 0; j < inner; j++) {
      const item = byColumn ? array.get(j, i) : array.get(i, j)
      if (item === null && (ignore & 1) !== 0) continue
      if (item instanceof CellError && (ignore & 2) !== 0) continue
      items.push(item)
    }
  }
  return asColumn ? spilled(items.length, 1, items) : spilled(1, items.length, items)
}

export const TOCOL: FunctionDefinition = {
  name: 'TOCOL',
  category: 'lookup',
  minArgs: 1,
  maxArgs: 3,
  args: ['any', 'any', 'any'],
  syntax: 'TOCOL(array, [ignore], [scan_by_column])',
  description:
    'Returns the cells of an array as one column, row by row (or column by column); ignore 1 skips blanks, 2 errors, 3 both.',
  example: 'TOCOL(A1:C3, 1)',
  impl: (args) => flatten(args, true),
}

export const TOROW: FunctionDefinition = {
  name: 'TOROW',
  category: 'lookup',
  minArgs: 1,
  maxArgs: 3,
  args: ['any', 'any', 'any'],
  syntax: 'TOROW(array, [ignore], [scan_by_column])',
  description:
    'Returns the cells of an array as one row, row by row (or column by column); ignore 1 skips blanks, 2 errors, 3 both.',
  example: 'TOROW(A1:C3, 1)',
  impl: (args) => flatten(args, false),
}

/** WRAPCOLS and WRAPROWS: a row or column folded into columns (rows) of wrap_count cells. */
function wrap(args: Arg[], intoColumns: boolean): ArrayValue | CellError {
  const array = readArray(args[0])
  if (array instanceof CellError) return array
  if (array.height !== 1 && array.width !== 1) return CellError.VALUE
  const count = integerArg(args[1])
  if (count instanceof CellError) return count
  if (count === undefined || count < 1) return CellError.NUM
  const pad: Scalar = args[2] === undefined || args[2] === MISSING ? CellError.NA : scalarOf(args[2])
  const items = array.data
  const lines = Math.ceil(items.length / count)
  const span = Math.min(count, items.length)
  const height = intoColumns ? span : lines
  const width = intoColumns ? lines : span
  reserveCells(height, width)
  const data = new Array<Scalar>(height * width)
  for (let line = 0; line < lines; line++) {
    for (let k = 0; k < span; k++) {
      const index = line * count + k
      const value = index < items.length ? items[index] : pad
      if (intoColumns) data[k * width + line] = value
      else data[line * width + k] = value
    }
  }
  return spilled(height, width, data)
}

function scalarOf(arg: Arg): Scalar {
  if (arg === MISSING) return null
  if (arg instanceof ArrayValue) return arg.data[0] ?? null
  if (arg instanceof RangeRef) return arg.get(0, 0)
  if (arg instanceof ReferenceList) return CellError.VALUE
  return arg
}

export const WRAPCOLS: FunctionDefinition = {
  name: 'WRAPCOLS',
  category: 'lookup',
  minArgs: 2,
  maxArgs: 3,
  args: ['any', 'any', 'any'],
  syntax: 'WRAPCOLS(vector, wrap_count, [pad_with])',
  description: 'Folds a row or column into columns of wrap_count cells, padding the last with pad_with (default #N/A).',
  example: 'WRAPCOLS(A1:L1, 3)',
  impl: (args) => wrap(args, true),
}

export const WRAPROWS: FunctionDefinition = {
  name: 'WRAPROWS',
  category: 'lookup',
  minArgs: 2,
  maxArgs: 3,
  args: ['any', 'any', 'any'],
  syntax: 'WRAPROWS(vector, wrap_count, [pad_with])',
  description: 'Folds a row or column into rows of wrap_count cells, padding the last with pad_with (default #N/A).',
  example: 'WRAPROWS(A1:L1, 4)',
  impl: (args) => wrap(args, false),
}

/** The rows or columns [start, end) that TAKE keeps or DROP leaves, for a count along a dimension. */
function span(size: number, count: number | undefined, take: boolean): [number, number] {
  if (count === undefined) return [0, size]
  const n = Math.min(Math.abs(count), size)
  if (take) return count >= 0 ? [0, n] : [size - n, size]
  return count >= 0 ? [n, size] : [0, size - n]
}

function takeOrDrop(args: Arg[], take: boolean): ArrayValue | CellError {
  const array = readArray(args[0])
  if (array instanceof CellError) return array
  const rows = integerArg(args[1])
  if (rows instanceof CellError) return rows
  const cols = integerArg(args[2])
  if (cols instanceof CellError) return cols
  if (take && (rows === 0 || cols === 0)) return CellError.CALC
  const [top, bottom] = span(array.height, rows, take)
  const [left, right] = span(array.width, cols, take)
  return subArray(array, top, bottom, left, right)
}

function subArray(array: ArrayValue, top: number, bottom: number, left: number, right: number): ArrayValue | CellError {
  const height = Math.max(0, bottom - top)
  const width = Math.max(0, right - left)
  const data: Scalar[] = []
  for (let r = top; r < bottom; r++) for (let c = left; c < right; c++) data.push(array.get(r, c))
  return spilled(height, width, data)
}

export const TAKE: FunctionDefinition = {
  name: 'TAKE',
  category: 'lookup',
  minArgs: 2,
  maxArgs: 3,
  args: ['any', 'any', 'any'],
  syntax: 'TAKE(array, rows, [columns])',
  description: 'Returns the first rows and columns of an array (the last ones for negative counts).',
  example: 'TAKE(A1:D10, 3)',
  impl: (args) => takeOrDrop(args, true),
}

export const DROP: FunctionDefinition = {
  name: 'DROP',
  category: 'lookup',
  minArgs: 2,
  maxArgs: 3,
  args: ['any', 'any', 'any'],
  syntax: 'DROP(array, rows, [columns])',
  description: 'Returns an array without its first rows and columns (the last ones for negative counts).',
  example: 'DROP(A1:D10, 1)',
  impl: (args) => takeOrDrop(args, false),
}

export const EXPAND: FunctionDefinition = {
  name: 'EXPAND',
  category: 'lookup',
  minArgs: 2,
  maxArgs: 4,
  args: ['any', 'any', 'any', 'any'],
  syntax: 'EXPAND(array, rows, [columns], [pad_with])',
  description: 'Enlarges an array to the given number of rows and columns, filling the new cells with pad_with (default #N/A).',
  example: 'EXPAND(A1:B2, 4, 3, 0)',
  impl: (args) => {
    const array = readArray(args[0])
    if (array instanceof CellError) return array
    const rows = integerArg(args[1]) ?? array.height
    if (rows instanceof CellError) return rows
    const cols = integerArg(args[2]) ?? array.width
    if (cols instanceof CellError) return cols
    if (rows < array.height || cols < array.width) return CellError.VALUE
    const pad: Scalar = args[3] === undefined || args[3] === MISSING ? CellError.NA : scalarOf(args[3])
    reserveCells(rows, cols)
    const data = new Array<Scalar>(rows * cols).fill(pad)
    for (let r = 0; r < array.height; r++) {
      for (let c = 0; c < array.width; c++) data[r * cols + c] = array.get(r, c) ?? 0
    }
    return rows * cols === 0 ? CellError.CALC : new ArrayValue(rows, cols, data)
  },
}

/** CHOOSECOLS and CHOOSEROWS: the listed columns (rows), counted from the end when negative. */
function choose(args: Arg[], columns: boolean): ArrayValue | CellError {
  const array = readArray(args[0])
  if (array instanceof CellError) return array
  const size = columns ? array.width : array.height
  const picks: number[] = []
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]
    const numbers = arg instanceof ArrayValue || arg instanceof RangeRef ? readArray(arg) : undefined
    const items = numbers instanceof ArrayValue ? numbers.data : [arg === MISSING ? CellError.VALUE : scalarOf(arg)]
    for (const item of items) {
      const n = integerArg(item)
      if (n instanceof CellError) return n
      if (n === undefined || n === 0 || Math.abs(n) > size) return CellError.VALUE
      picks.push(n > 0 ? n - 1 : size + n)
    }
  }
  const height = columns ? array.height : picks.length
  const width = columns ? picks.length : array.width
  reserveCells(height, width)
  const data: Scalar[] = new Array(height * width)
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) data[r * width + c] = columns ? array.get(r, picks[c]) : array.get(picks[r], c)
  }
  return spilled(height, width, data)
}

export const CHOOSECOLS: FunctionDefinition = {
  name: 'CHOOSECOLS',
  category: 'lookup',
  minArgs: 2,
  maxArgs: 254,
  args: ['any'],
  syntax: 'CHOOSECOLS(array, col_num1, [col_num2], ...)',
  description: 'Returns the given columns of an array, in the order listed; negative numbers count from the right.',
  example: 'CHOOSECOLS(A1:D10, 1, 3)',
  impl: (args) => choose(args, true),
}

export const CHOOSEROWS: FunctionDefinition = {
  name: 'CHOOSEROWS',
  category: 'lookup',
  minArgs: 2,
  maxArgs: 254,
  args: ['any'],
  syntax: 'CHOOSEROWS(array, row_num1, [row_num2], ...)',
  description: 'Returns the given rows of an array, in the order listed; negative numbers count from the bottom.',
  example: 'CHOOSEROWS(A1:D10, 1, -1)',
  impl: (args) => choose(args, false),
}

export const TRIMRANGE: FunctionDefinition = {
  name: 'TRIMRANGE',
  category: 'lookup',
  minArgs: 1,
  maxArgs: 3,
  args: ['reference', 'any', 'any'],
  syntax: 'TRIMRANGE(range, [trim_rows], [trim_cols])',
  description:
    'Returns a range without its empty outer rows and columns: trim 0 none, 1 leading, 2 trailing, 3 both (default).',
  example: 'TRIMRANGE(A:C)',
  impl: (args) => {
    const source = args[0]
    if (!(source instanceof RangeRef)) return CellError.VALUE
    const trimRows = integerArg(args[1]) ?? 3
    if (trimRows instanceof CellError) return trimRows
    const trimCols = integerArg(args[2]) ?? 3
    if (trimCols instanceof CellError) return trimCols
    if (trimRows < 0 || trimRows > 3 || trimCols < 0 || trimCols > 3) return CellError.VALUE
    let top = Infinity
    let bottom = -1
    let left = Infinity
    let right = -1
    source.sheet.forEachInBlock(source.top, source.left, source.bottom, source.right, (_value, row, col) => {
      top = Math.min(top, row)
      bottom = Math.max(bottom, row)
      left = Math.min(left, col)
      right = Math.max(right, col)
    })
    if (bottom < 0) return CellError.REF
    return new RangeRef(
      source.sheet,
      trimRows & 1 ? top : source.top,
      trimCols & 1 ? left : source.left,
      trimRows & 2 ? bottom : source.bottom,
      trimCols & 2 ? right : source.right,
    )
  },
}

export const functions: readonly FunctionDefinition[] = [
  HSTACK,
  VSTACK,
  TOCOL,
  TOROW,
  WRAPCOLS,
  WRAPROWS,
  TAKE,
  DROP,
  EXPAND,
  CHOOSECOLS,
  CHOOSEROWS,
  TRIMRANGE,
]
