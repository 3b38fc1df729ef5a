/**
 * How the statistical functions read their arguments.
 */
import { CellError } from '../../values.js'
import type { Scalar } from '../../values.js'
import { collectNumbers, forEachValue, toNumber } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg } from '../types.js'

export { collectNumbers }

/**
 * The values of the "A" functions (AVERAGEA, MAXA, STDEVA...): inside ranges and arrays text counts as
 * 0 and booleans as 1 or 0, empty cells are skipped; typed directly, numbers, booleans and numeric
 * text count and other text is #VALUE!. Errors anywhere are returned.
 */
export function collectNumbersA(args: readonly Arg[]): number[] | CellError {
  const numbers: number[] = []
  for (const arg of args) {
    if (arg === MISSING) {
      numbers.push(0)
      continue
    }
    if (arg === null) continue
    if (typeof arg !== 'object' || arg instanceof CellError) {
      const number = toNumber(arg)
      if (number instanceof CellError) return number
      numbers.push(number)
      continue
    }
    let error: CellError | undefined
    forEachValue(arg, (value: Scalar) => {
      if (typeof value === 'number') numbers.push(value)
      else if (typeof value === 'boolean') numbers.push(value ? 1 : 0)
      else if (typeof value === 'string') numbers.push(0)
      else if (value instanceof CellError) {
        error = value
        return false
      }
    })
    if (error) return error
  }
  return numbers
}

/**
 * The numbers of one array argument as LARGE, PERCENTILE or MEDIAN's first argument read it: numbers
 * of ranges and arrays (text, booleans and empty cells skipped), a typed scalar coerced.
 */
export function numbersOf(arg: Arg): number[] | CellError {
  return collectNumbers([arg])
}

export function sum(numbers: readonly number[]): number {
  let total = 0
  for (const n of numbers) total += n
  return total
}

export function mean(numbers: readonly number[]): number {
  return sum(numbers) / numbers.length
}

/** The sum of squared deviations from the mean, in two passes for accuracy. */
export function sumOfSquaredDeviations(numbers: readonly number[]): number {
  const average = mean(numbers)
  let total = 0
  for (const n of numbers) total += (n - average) * (n - average)
  return total
}

/** Sample (`sample`) or population variance; #DIV/0! when there are too few numbers. */
export function variance(numbers: readonly number[], sample: boolean): number | CellError {
  const n = numbers.length
  if (n === 0 || (sample && n === 1)) return CellError.DIV0
  return sumOfSquaredDeviations(numbers) / (sample ? n - 1 : n)
}

export function sortedAscending(numbers: readonly number[]): number[] {
  return [...numbers].sort((a, b) => a - b)
}
