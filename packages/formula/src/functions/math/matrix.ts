/**
 * Functions of whole arrays: products and sums of pairs, matrix algebra.
 */
import { reserveCells, work } from '../../evaluator/budget.js'
import { ArrayValue, CellError } from '../../values.js'
import type { Scalar } from '../../values.js'
import { numberResult, toArray } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { arraySizeError } from './generators.js'

/** The numbers of a matrix argument; any cell that is not a number makes it #VALUE! (MMULT's rule). */
function numericMatrix(arg: Arg): number[][] | CellError {
  const array = toArray(arg)
  if (array instanceof CellError) return array
  const rows: number[][] = []
  for (let r = 0; r < array.height; r++) {
    const row: number[] = []
    for (let c = 0; c < array.width; c++) {
      const value = array.get(r, c)
      if (value instanceof CellError) return value
      if (typeof value !== 'number') return CellError.VALUE
      row.push(value)
    }
    rows.push(row)
  }
  return rows
}

function fromNumbers(rows: number[][]): ArrayValue | CellError {
  const data: Scalar[] = []
  for (const row of rows) {
    for (const value of row) {
      if (!Number.isFinite(value)) return CellError.NUM
      data.push(value)
    }
  }
  return new ArrayValue(rows.length, rows[0]?.length ?? 0, data)
}

export const SUMPRODUCT: FunctionDefinition = {
  name: 'SUMPRODUCT',
  category: 'math',
  minArgs: 1,
  maxArgs: 255,
  args: ['any'],
  syntax: 'SUMPRODUCT(array1, [array2], ...)',
  description: 'Multiplies corresponding entries of arrays of the same size and returns the sum of the products.',
  example: 'SUMPRODUCT(A1:A3, B1:B3)',
  impl: (args) => {
    const arrays: ArrayValue[] = []
    for (const arg of args) {
      if (arg === MISSING) return CellError.VALUE
      const array = toArray(arg)
      if (array instanceof CellError) return array
      if (arrays.length > 0 && (array.height !== arrays[0].height || array.width !== arrays[0].width)) {
        return CellError.VALUE
      }
      arrays.push(array)
    }
    const { height, width } = arrays[0]
    const columns = arrays.map((array) => array.data)
    let total = 0
    for (let i = 0; i < height * width; i++) {
      let product = 1
      for (let j = 0; j < columns.length; j++) {
        const value = columns[j][i]
        if (value instanceof CellError) return value
        // Text, booleans and empty cells count as zero.
        product *= typeof value === 'number' ? value : 0
      }
      total += product
    }
    return numberResult(total)
  },
}

/** Applies `term` to the pairs of two same-sized arrays where both entries are numbers, and sums. */
function pairSum(name: string, description: string, term: (x: number, y: number) => number): FunctionDefinition {
  return {
    name,
    category: 'math',
    minArgs: 2,
    maxArgs: 2,
    args: ['any', 'any'],
    syntax: `${name}(array_x, array_y)`,
    description,
    example: `${name}(A1:A5, B1:B5)`,
    impl: ([a, b]) => {
      const xs = toArray(a)
      if (xs instanceof CellError) return xs
      const ys = toArray(b)
      if (ys instanceof CellError) return ys
      if (xs.data.length !== ys.data.length) return CellError.NA
      let total = 0
      for (let i = 0; i < xs.data.length; i++) {
        const x = xs.data[i]
        const y = ys.data[i]
        if (x instanceof CellError) return x
        if (y instanceof CellError) return y
        if (typeof x === 'number' && typeof y === 'number') total += term(x, y)
      }
      return numberResult(total)
    },
  }
}

export const SUMX2MY2 = pairSum(
  'SUMX2MY2',
  'Returns the sum of the differences of squares of corresponding values in two arrays.',
  (x, y) => x * x - y * y,
)
export const SUMX2PY2 = pairSum(
  'SUMX2PY2',
  'Returns the sum of the sums of squares of corresponding values in two arrays.',
  (x, y) => x * x + y * y,
)
export const SUMXMY2 = pairSum(
  'SUMXMY2',
  'Returns the sum of squares of differences of corresponding values in two arrays.',
  (x, y) => (x - y) * (x - y),
)

export const MMULT: FunctionDefinition = {
  name: 'MMULT',
  category: 'math',
  minArgs: 2,
  maxArgs: 2,
  args: ['any', 'any'],
  syntax: 'MMULT(array1, array2)',
  description: 'Returns the matrix product of two arrays.',
  example: 'MMULT(A1:B2, D1:E2)',
  impl: ([a, b]) => {
    const left = numericMatrix(a)
    if (left instanceof CellError) return left
    const right = numericMatrix(b)
    if (right instanceof CellError) return right
    const inner = left[0]?.length ?? 0
    if (inner !== right.length || inner === 0) return CellError.VALUE
    const width = right[0].length
    reserveCells(left.length, width)
    const product = left.map((row) => {
      // Each row of the product costs inner × width multiplications: the time budget counts them.
      work(inner * width)
      const out = new Array<number>(width).fill(0)
      for (let k = 0; k < inner; k++) for (let c = 0; c < width; c++) out[c] += row[k] * right[k][c]
      return out
    })
    return fromNumbers(product)
  },
}

/** LU decomposition with partial pivoting; undefined for a singular matrix. */
function decompose(matrix: number[][]): { lu: number[][]; pivots: number[]; sign: number } | undefined {
  const n = matrix.length
  const lu = matrix.map((row) => [...row])
  const pivots = Array.from({ length: n }, (_, i) => i)
  let sign = 1
  for (let k = 0; k < n; k++) {
    work((n - k) * (n - k))
    let best = k
    for (let i = k + 1; i < n; i++) if (Math.abs(lu[i][k]) > Math.abs(lu[best][k])) best = i
    if (lu[best][k] === 0) return undefined
    if (best !== k) {
      ;[lu[best], lu[k]] = [lu[k], lu[best]]
      ;[pivots[best], pivots[k]] = [pivots[k], pivots[best]]
      sign = -sign
    }
    for (let i = k + 1; i < n; i++) {
      lu[i][k] /= lu[k][k]
      for (let j = k + 1; j < n; j++) lu[i][j] -= lu[i][k] * lu[k][j]
    }
  }
  return { lu, pivots, sign }
}

function squareMatrix(arg: Arg): number[][] | CellError {
  const matrix = numericMatrix(arg)
  if (matrix instanceof CellError) return matrix
  if (matrix.length === 0 || matrix.length !== matrix[0].length) return CellError.VALUE
  return matrix
}

export const MDETERM: FunctionDefinition = {
  name: 'MDETERM',
  category: 'math',
  minArgs: 1,
  maxArgs: 1,
  args: ['any'],
  syntax: 'MDETERM(array)',
  description: 'Returns the determinant of a square matrix.',
  example: 'MDETERM(A1:C3)',
  impl: ([a]) => {
    const matrix = squareMatrix(a)
    if (matrix instanceof CellError) return matrix
    const decomposition = decompose(matrix)
    if (!decomposition) return 0
    let determinant = decomposition.sign
    for (let i = 0; i < matrix.length; i++) determinant *= decomposition.lu[i][i]
    return numberResult(determinant)
  },
}

export const MINVERSE: FunctionDefinition = {
  name: 'MINVERSE',
  category: 'math',
  minArgs: 1,
  maxArgs: 1,
  args: ['any'],
  syntax: 'MINVERSE(array)',
  description: 'Returns the inverse of a square matrix.',
  example: 'MINVERSE(A1:B2)',
  impl: ([a]) => {
    const matrix = squareMatrix(a)
    if (matrix instanceof CellError) return matrix
    const decomposition = decompose(matrix)
    if (!decomposition) return CellError.NUM
    const { lu, pivots } = decomposition
    const n = matrix.length
    const inverse = Array.from({ length: n }, () => new Array<number>(n).fill(0))
    for (let column = 0; column < n; column++) {
      work(n * n)
      // Solve L·U·x = P·e(column) by forward then backward substitution.
      const x = pivots.map((p) => (p === column ? 1 : 0))
      for (let i = 0; i < n; i++) for (let k = 0; k < i; k++) x[i] -= lu[i][k] * x[k]
      for (let i = n - 1; i >= 0; i--) {
        for (let k = i + 1; k < n; k++) x[i] -= lu[i][k] * x[k]
        x[i] /= lu[i][i]
      }
      for (let i = 0; i < n; i++) inverse[i][column] = x[i]
    }
    return fromNumbers(inverse)
  },
}

export const MUNIT: FunctionDefinition = {
  name: 'MUNIT',
  category: 'math',
  minArgs: 1,
  maxArgs: 1,
  args: ['number'],
  syntax: 'MUNIT(dimension)',
  description: 'Returns the identity matrix of the given dimension.',
  example: 'MUNIT(3)',
  impl: ([d]) => {
    const n = Math.trunc(d as number)
    if (n < 1) return CellError.VALUE
    const tooLarge = arraySizeError(n, n)
    if (tooLarge) return tooLarge
    const data: Scalar[] = []
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) data.push(r === c ? 1 : 0)
    return new ArrayValue(n, n, data)
  },
}

export const functions: readonly FunctionDefinition[] = [
  SUMPRODUCT,
  SUMX2MY2,
  SUMX2PY2,
  SUMXMY2,
  MMULT,
  MDETERM,
  MINVERSE,
  MUNIT,
]
