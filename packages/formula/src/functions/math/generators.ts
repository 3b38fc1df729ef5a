/**
 * Functions that make numbers rather than read them: random numbers and sequences.
 */
import { reserveCells } from '../../evaluator/budget.js'
import { ArrayValue, CellError } from '../../values.js'
import type { Scalar } from '../../values.js'
import type { FunctionDefinition } from '../types.js'
import { optional } from './numeric.js'

/** An array a formula makes fits in the grid (1,048,576 rows, 16,384 columns). */
const MAX_ROWS = 1_048_576
const MAX_COLUMNS = 16_384

/**
 * #VALUE! for an array larger than the grid; undefined when it fits. An array that fits the grid but
 * not the formula's budget stops the formula with #NUM! (see evaluator/budget.ts) before it is built.
 */
export function arraySizeError(rows: number, columns: number): CellError | undefined {
  if (rows > MAX_ROWS || columns > MAX_COLUMNS) return CellError.VALUE
  reserveCells(rows, columns)
  return undefined
}

export const RAND: FunctionDefinition = {
  name: 'RAND',
  category: 'math',
  minArgs: 0,
  maxArgs: 0,
  volatile: true,
  args: [],
  syntax: 'RAND()',
  description: 'Returns a random number greater than or equal to 0 and less than 1, new on every recalculation.',
  example: 'RAND()',
  impl: () => Math.random(),
}

export const RANDBETWEEN: FunctionDefinition = {
  name: 'RANDBETWEEN',
  category: 'math',
  minArgs: 2,
  maxArgs: 2,
  volatile: true,
  args: ['number', 'number'],
  syntax: 'RANDBETWEEN(bottom, top)',
  description: 'Returns a random integer between bottom and top inclusive, new on every recalculation.',
  example: 'RANDBETWEEN(1, 100)',
  impl: ([bottomArg, topArg]) => {
    const bottom = Math.ceil(bottomArg as number)
    const top = Math.floor(topArg as number)
    if (bottom > top) return CellError.NUM
    return bottom + Math.floor(Math.random() * (top - bottom + 1))
  },
}

export const RANDARRAY: FunctionDefinition = {
  name: 'RANDARRAY',
  category: 'math',
  minArgs: 0,
  maxArgs: 5,
  volatile: true,
  args: ['number', 'number', 'number', 'number', 'boolean'],
  syntax: 'RANDARRAY([rows], [columns], [min], [max], [whole_number])',
  description: 'Returns an array of random numbers between min and max, whole numbers if asked.',
  example: 'RANDARRAY(5, 2, 1, 100, TRUE)',
  impl: (args) => {
    const rows = Math.trunc(optional(args[0], 1))
    const columns = Math.trunc(optional(args[1], 1))
    const min = optional(args[2], 0)
    const max = optional(args[3], 1)
    const whole = args[4] === true
    if (rows < 1 || columns < 1) return CellError.CALC
    const tooLarge = arraySizeError(rows, columns)
    if (tooLarge) return tooLarge
    if (min > max) return CellError.VALUE
    const low = whole ? Math.ceil(min) : min
    const high = whole ? Math.floor(max) : max
    if (whole && low > high) return CellError.VALUE
    const data: Scalar[] = new Array(rows * columns)
    for (let i = 0; i < data.length; i++) {
      data[i] = whole ? low + Math.floor(Math.random() * (high - low + 1)) : min + Math.random() * (max - min)
    }
    return new ArrayValue(rows, columns, data)
  },
}

export const SEQUENCE: FunctionDefinition = {
  name: 'SEQUENCE',
  category: 'math',
  minArgs: 1,
  maxArgs: 4,
  args: ['number', 'number', 'number', 'number'],
  syntax: 'SEQUENCE(rows, [columns], [start], [step])',
  description: 'Returns an array of sequential numbers, row by row, from start by step.',
  example: 'SEQUENCE(4, 3, 10, 5)',
  readsEmptyArguments: true,
  impl: (args) => {
    const rows = Math.trunc(optional(args[0], 1))
    const columns = Math.trunc(optional(args[1], 1))
    const start = optional(args[2], 1)
    const step = optional(args[3], 1)
    if (rows < 0 || columns < 0) return CellError.VALUE
    if (rows === 0 || columns === 0) return CellError.CALC
    const tooLarge = arraySizeError(rows, columns)
    if (tooLarge) return tooLarge
    const data: Scalar[] = new Array(rows * columns)
    for (let i = 0; i < data.length; i++) data[i] = start + i * step
    return new ArrayValue(rows, columns, data)
  },
}

export const functions: readonly FunctionDefinition[] = [RAND, RANDBETWEEN, RANDARRAY, SEQUENCE]
