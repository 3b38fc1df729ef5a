import { CellError, RangeRef, ReferenceList } from '../../values.js'
import type { Scalar } from '../../values.js'
import { numberResult, sumAndCount } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'

export const SUM: FunctionDefinition = {
  name: 'SUM',
  category: 'math',
  minArgs: 1,
  maxArgs: Infinity,
  args: ['any'],
  syntax: 'SUM(number1, [number2], ...)',
  description: 'Adds all the numbers in a range of cells.',
  example: 'SUM(A1:A10)',
  impl: (args) => {
    const result = sumAndCount(args)
    return result instanceof CellError ? result : numberResult(result.sum)
  },
}

/** The aggregate each SUBTOTAL function number stands for (1–11, and 101–111 which also skip hidden rows). */
const SUBTOTAL_AGGREGATES: Record<number, (numbers: number[], nonEmpty: number) => number | CellError> = {
  1: (n) => (n.length === 0 ? CellError.DIV0 : sum(n) / n.length),
  2: (n) => n.length,
  3: (_n, nonEmpty) => nonEmpty,
  4: (n) => (n.length === 0 ? 0 : Math.max(...n)),
  5: (n) => (n.length === 0 ? 0 : Math.min(...n)),
  6: (n) => (n.length === 0 ? 0 : n.reduce((product, x) => product * x, 1)),
  7: (n) => (n.length < 2 ? CellError.DIV0 : Math.sqrt(variance(n, n.length - 1))),
  8: (n) => (n.length < 1 ? CellError.DIV0 : Math.sqrt(variance(n, n.length))),
  9: (n) => sum(n),
  10: (n) => (n.length < 2 ? CellError.DIV0 : variance(n, n.length - 1)),
  11: (n) => (n.length < 1 ? CellError.DIV0 : variance(n, n.length)),
}

function sum(numbers: number[]): number {
  let total = 0
  for (const n of numbers) total += n
  return total
}

function variance(numbers: number[], divisor: number): number {
  const mean = sum(numbers) / numbers.length
  let squares = 0
  for (const n of numbers) squares += (n - mean) * (n - mean)
  return squares / divisor
}

export const SUBTOTAL: FunctionDefinition = {
  name: 'SUBTOTAL',
  category: 'math',
  minArgs: 2,
  maxArgs: Infinity,
  args: ['number', 'any'],
  syntax: 'SUBTOTAL(function_num, ref1, [ref2], ...)',
  description:
    'Returns an aggregate (1 AVERAGE, 2 COUNT, 3 COUNTA, 4 MAX, 5 MIN, 6 PRODUCT, 7 STDEV, 8 STDEVP, 9 SUM, 10 VAR, 11 VARP; add 100 to skip hidden rows) of references, ignoring other SUBTOTALs in them.',
  example: 'SUBTOTAL(9, A1:A10)',
  impl: (args) => {
    const functionNumber = Math.trunc(args[0] as number)
    const aggregate = SUBTOTAL_AGGREGATES[functionNumber > 100 ? functionNumber - 100 : functionNumber]
    if (!aggregate) return CellError.VALUE
    const numbers: number[] = []
    let nonEmpty = 0
    for (let i = 1; i < args.length; i++) {
      const arg: Arg = args[i]
      if (arg === MISSING) continue
      const areas = arg instanceof RangeRef ? [arg] : arg instanceof ReferenceList ? arg.areas : undefined
      if (!areas) return arg instanceof CellError ? arg : CellError.VALUE
      for (const area of areas) {
        let error: CellError | undefined
        area.sheet.forEachInBlock(area.top, area.left, area.bottom, area.right, (value: Scalar, row, col) => {
          if (area.sheet.isSubtotalCell(row, col)) return
          if (value instanceof CellError) {
            error = value
            return false
          }
          nonEmpty++
          if (typeof value === 'number') numbers.push(value)
        })
        if (error) return error
      }
    }
    const result = aggregate(numbers, nonEmpty)
    return numberResult(result)
  },
}

export const functions: readonly FunctionDefinition[] = [SUM, SUBTOTAL]

