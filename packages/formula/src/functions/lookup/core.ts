import { ArrayValue, CellError, RangeRef, ReferenceList } from '../../values.js'
import type { Scalar, Value } from '../../values.js'
import { toArray, toNumber, toScalar } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'

export const CHOOSE: FunctionDefinition = {
  name: 'CHOOSE',
  category: 'lookup',
  minArgs: 2,
  maxArgs: 255,
  lazy: true,
  syntax: 'CHOOSE(index_num, value1, [value2], ...)',
  description: 'Returns the value at position index_num of its list of values.',
  example: 'CHOOSE(2, "Low", "Medium", "High")',
  impl: (args, ctx) => {
    const index = toNumber(toScalar(args[0].evaluate(ctx), ctx))
    if (index instanceof CellError) return index
    const position = Math.trunc(index)
    if (position < 1 || position >= args.length) return CellError.VALUE
    const chosen = args[position]
    return chosen.isMissing ? 0 : chosen.evaluate(ctx)
  },
}

/** An optional numeric argument: absent or empty gives `fallback`. */
function optionalNumber(arg: Arg | undefined, fallback: number): number | CellError {
  if (arg === undefined || arg === MISSING || arg === null) return fallback
  if (typeof arg === 'object' && !(arg instanceof CellError)) return CellError.VALUE
  const number = toNumber(arg)
  return number instanceof CellError ? number : Math.trunc(number)
}

/** OFFSET's height or width: truncated, except that a fraction of one row or column still counts as one. */
function optionalSize(arg: Arg | undefined, fallback: number): number | CellError {
  if (arg === undefined || arg === MISSING || arg === null) return fallback
  if (typeof arg === 'object' && !(arg instanceof CellError)) return CellError.VALUE
  const number = toNumber(arg)
  if (number instanceof CellError) return number
  if (number !== 0 && Math.abs(number) < 1) return Math.sign(number)
  return Math.trunc(number)
}

export const INDEX: FunctionDefinition = {
  name: 'INDEX',
  category: 'lookup',
  minArgs: 2,
  maxArgs: 4,
  args: ['any', 'scalar', 'scalar', 'scalar'],
  syntax: 'INDEX(array, row_num, [column_num], [area_num])',
  description:
    'Returns the value or reference at a row and column of a range or array; 0 for a row or column returns all of it.',
  example: 'INDEX(A1:C10, 2, 3)',
  impl: (args) => {
    let source = args[0]
    if (source instanceof CellError) return source
    const area = optionalNumber(args[3], 1)
    if (area instanceof CellError) return area
    if (source instanceof ReferenceList) {
      if (area < 1 || area > source.areas.length) return CellError.REF
      source = source.areas[area - 1]
    } else if (area !== 1) return CellError.REF
    const matrix: RangeRef | ArrayValue =
      source instanceof RangeRef ? source : source instanceof ArrayValue ? source : ArrayValue.filled(1, 1, source as Scalar)
    let row = optionalNumber(args[1], 0)
    let col = optionalNumber(args[2], 0)
    if (row instanceof CellError) return row
    if (col instanceof CellError) return col
    // A one-row range with only one index is indexed along its columns.
    if (matrix.height === 1 && args.length === 2 && matrix.width > 1) {
      col = row
      row = 1
    }
    if (row < 0 || col < 0) return CellError.VALUE
    if (row > matrix.height || col > matrix.width) return CellError.REF
    if (matrix instanceof RangeRef) {
      const top = row === 0 ? matrix.top : matrix.top + row - 1
      const bottom = row === 0 ? matrix.bottom : top
      const left = col === 0 ? matrix.left : matrix.left + col - 1
      const right = col === 0 ? matrix.right : left
      return new RangeRef(matrix.sheet, top, left, bottom, right)
    }
    if (row > 0 && col > 0) return matrix.get(row - 1, col - 1)
    if (row > 0) return new ArrayValue(1, matrix.width, matrix.data.slice((row - 1) * matrix.width, row * matrix.width))
    if (col > 0) {
      const column: Scalar[] = []
      for (let r = 0; r < matrix.height; r++) column.push(matrix.get(r, col - 1))
      return new ArrayValue(matrix.height, 1, column)
    }
    return matrix
  },
}

function firstArea(value: Arg): RangeRef | CellError {
  if (value instanceof RangeRef) return value
  if (value instanceof ReferenceList) return value.areas.length === 1 ? value.areas[0] : CellError.REF
  return value instanceof CellError ? value : CellError.VALUE
}

export const ROW: FunctionDefinition = {
  name: 'ROW',
  category: 'lookup',
  minArgs: 0,
  maxArgs: 1,
  args: ['reference'],
  syntax: 'ROW([reference])',
  description: 'Returns the row number of a reference, or of the cell the formula is in.',
  example: 'ROW(C5)',
  impl: (args, ctx) => {
    if (args.length === 0 || args[0] === MISSING) return ctx.row + 1
    const ref = firstArea(args[0])
    if (ref instanceof CellError) return ref
    if (ref.height === 1) return ref.top + 1
    const rows: Scalar[] = []
    for (let r = ref.top; r <= ref.bottom; r++) rows.push(r + 1)
    return new ArrayValue(rows.length, 1, rows)
  },
}

export const COLUMN: FunctionDefinition = {
  name: 'COLUMN',
  category: 'lookup',
  minArgs: 0,
  maxArgs: 1,
  args: ['reference'],
  syntax: 'COLUMN([reference])',
  description: 'Returns the column number of a reference, or of the cell the formula is in.',
  example: 'COLUMN(C5)',
  impl: (args, ctx) => {
    if (args.length === 0 || args[0] === MISSING) return ctx.col + 1
    const ref = firstArea(args[0])
    if (ref instanceof CellError) return ref
    if (ref.width === 1) return ref.left + 1
    const cols: Scalar[] = []
    for (let c = ref.left; c <= ref.right; c++) cols.push(c + 1)
    return new ArrayValue(1, cols.length, cols)
  },
}

export const OFFSET: FunctionDefinition = {
  name: 'OFFSET',
  category: 'lookup',
  minArgs: 3,
  maxArgs: 5,
  volatile: true,
  args: ['reference', 'scalar', 'scalar', 'scalar', 'scalar'],
  syntax: 'OFFSET(reference, rows, cols, [height], [width])',
  description: 'Returns a reference shifted by a number of rows and columns from a starting reference, with a given size.',
  example: 'OFFSET(A1, 2, 1, 3, 1)',
  impl: (args, ctx) => {
    const base = firstArea(args[0])
    if (base instanceof CellError) return base
    const rows = optionalNumber(args[1], 0)
    const cols = optionalNumber(args[2], 0)
    const height = optionalSize(args[3], base.height)
    const width = optionalSize(args[4], base.width)
    for (const n of [rows, cols, height, width]) if (n instanceof CellError) return n
    const [r, c, h, w] = [rows, cols, height, width] as number[]
    if (h === 0 || w === 0) return CellError.REF
    // A negative height or width extends up or left from the shifted corner.
    const top = base.top + r + (h < 0 ? h + 1 : 0)
    const left = base.left + c + (w < 0 ? w + 1 : 0)
    return ctx.reference(base.sheet, top, left, top + Math.abs(h) - 1, left + Math.abs(w) - 1)
  },
}

export const INDIRECT: FunctionDefinition = {
  name: 'INDIRECT',
  category: 'lookup',
  minArgs: 1,
  maxArgs: 2,
  volatile: true,
  args: ['text', 'boolean'],
  syntax: 'INDIRECT(ref_text, [a1])',
  description: 'Returns the reference named by a text, such as "B2" or "Sheet2!A1:C3" (R1C1 style when a1 is FALSE).',
  example: 'INDIRECT("B" & A1)',
  impl: (args, ctx) => {
    const a1 = args.length < 2 || args[1] === MISSING ? true : (args[1] as boolean)
    return ctx.parseReference(args[0] as string, a1)
  },
}

export const TRANSPOSE: FunctionDefinition = {
  name: 'TRANSPOSE',
  category: 'lookup',
  minArgs: 1,
  maxArgs: 1,
  args: ['any'],
  syntax: 'TRANSPOSE(array)',
  description: 'Returns the array or range with its rows turned into columns.',
  example: 'TRANSPOSE(A1:C2)',
  impl: ([value]) => {
    if (value instanceof CellError) return value
    const array = toArray(value)
    if (array instanceof CellError) return array
    const data: Scalar[] = new Array(array.height * array.width)
    for (let r = 0; r < array.height; r++) {
      for (let c = 0; c < array.width; c++) {
        const item = array.data[r * array.width + c]
        data[c * array.height + r] = item === null ? 0 : item
      }
    }
    return new ArrayValue(array.width, array.height, data) satisfies Value
  },
}

export const functions: readonly FunctionDefinition[] = [CHOOSE, INDEX, ROW, COLUMN, OFFSET, INDIRECT, TRANSPOSE]
