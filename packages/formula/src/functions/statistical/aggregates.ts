/**
 * Descriptive statistics: averages, counts, extremes, spread and shape.
 */
import { ArrayValue, CellError } from '../../values.js'
import type { Scalar } from '../../values.js'
import { forEachValue, numberResult, toNumber } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { collectNumbers, collectNumbersA, mean, sortedAscending, sum, sumOfSquaredDeviations, variance } from './collect.js'

export type Reduce = (numbers: number[]) => number | CellError

/** A function of all the numbers of its arguments (SUM-like reading, or the "A" reading). */
function numbersFunction(
  name: string,
  description: string,
  example: string,
  reduce: Reduce,
  options: { readA?: boolean; minArgs?: number } = {},
): FunctionDefinition {
  return {
    name,
    category: 'statistical',
    minArgs: options.minArgs ?? 1,
    maxArgs: 255,
    args: ['any'],
    syntax: `${name}(${options.readA ? 'value' : 'number'}1, [${options.readA ? 'value' : 'number'}2], ...)`,
    description,
    example,
    impl: (args) => {
      const numbers = options.readA ? collectNumbersA(args) : collectNumbers(args, { countEmptyArgs: true })
      if (numbers instanceof CellError) return numbers
      const result = reduce(numbers)
      return numberResult(result)
    },
  }
}

// The reductions of the functions below, shared with AGGREGATE and SUBTOTAL, which stand for them by number.
export const average: Reduce = (n) => (n.length === 0 ? CellError.DIV0 : mean(n))
export const maximum: Reduce = (n) => (n.length === 0 ? 0 : n.reduce((a, b) => (b > a ? b : a), -Infinity))
export const minimum: Reduce = (n) => (n.length === 0 ? 0 : n.reduce((a, b) => (b < a ? b : a), Infinity))
const standardDeviation = (n: number[], sample: boolean): number | CellError => {
  const v = variance(n, sample)
  return typeof v === 'number' ? Math.sqrt(v) : v
}
export const sampleStdev: Reduce = (n) => standardDeviation(n, true)
export const populationStdev: Reduce = (n) => standardDeviation(n, false)
export const sampleVariance: Reduce = (n) => variance(n, true)
export const populationVariance: Reduce = (n) => variance(n, false)
export const median: Reduce = (n) => {
  if (n.length === 0) return CellError.NUM
  const sorted = sortedAscending(n)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

export const AVERAGE = numbersFunction('AVERAGE', 'Returns the arithmetic mean of its arguments.', 'AVERAGE(A1:A10)', average)
export const AVERAGEA = numbersFunction(
  'AVERAGEA',
  'Returns the mean of its arguments, counting text as 0 and TRUE as 1.',
  'AVERAGEA(A1:A10)',
  average,
  { readA: true },
)
export const MAX = numbersFunction('MAX', 'Returns the largest number of its arguments.', 'MAX(A1:A10)', maximum)
export const MIN = numbersFunction('MIN', 'Returns the smallest number of its arguments.', 'MIN(A1:A10)', minimum)
export const MAXA = numbersFunction(
  'MAXA',
  'Returns the largest value of its arguments, counting text as 0 and TRUE as 1.',
  'MAXA(A1:A10)',
  maximum,
  { readA: true },
)
export const MINA = numbersFunction(
  'MINA',
  'Returns the smallest value of its arguments, counting text as 0 and TRUE as 1.',
  'MINA(A1:A10)',
  minimum,
  { readA: true },
)

export const STDEV_S = numbersFunction(
  'STDEV.S',
  'Estimates the standard deviation from a sample.',
  'STDEV.S(A1:A10)',
  sampleStdev,
)
export const STDEV = numbersFunction('STDEV', 'Estimates the standard deviation from a sample.', 'STDEV(A1:A10)', sampleStdev)
export const STDEV_P = numbersFunction(
  'STDEV.P',
  'Returns the standard deviation of an entire population.',
  'STDEV.P(A1:A10)',
  populationStdev,
)
export const STDEVP = numbersFunction(
  'STDEVP',
  'Returns the standard deviation of an entire population.',
  'STDEVP(A1:A10)',
  populationStdev,
)
export const STDEVA = numbersFunction(
  'STDEVA',
  'Estimates the standard deviation from a sample, counting text as 0 and TRUE as 1.',
  'STDEVA(A1:A10)',
  sampleStdev,
  { readA: true },
)
export const STDEVPA = numbersFunction(
  'STDEVPA',
  'Returns the standard deviation of a population, counting text as 0 and TRUE as 1.',
  'STDEVPA(A1:A10)',
  populationStdev,
  { readA: true },
)
export const VAR_S = numbersFunction('VAR.S', 'Estimates the variance from a sample.', 'VAR.S(A1:A10)', sampleVariance)
export const VAR = numbersFunction('VAR', 'Estimates the variance from a sample.', 'VAR(A1:A10)', sampleVariance)
export const VAR_P = numbersFunction('VAR.P', 'Returns the variance of an entire population.', 'VAR.P(A1:A10)', populationVariance)
export const VARP = numbersFunction('VARP', 'Returns the variance of an entire population.', 'VARP(A1:A10)', populationVariance)
export const VARA = numbersFunction(
  'VARA',
  'Estimates the variance from a sample, counting text as 0 and TRUE as 1.',
  'VARA(A1:A10)',
  sampleVariance,
  { readA: true },
)
export const VARPA = numbersFunction(
  'VARPA',
  'Returns the variance of a population, counting text as 0 and TRUE as 1.',
  'VARPA(A1:A10)',
  populationVariance,
  { readA: true },
)

export const MEDIAN = numbersFunction('MEDIAN', 'Returns the median of the numbers.', 'MEDIAN(A1:A10)', median)

export const GEOMEAN = numbersFunction('GEOMEAN', 'Returns the geometric mean of positive numbers.', 'GEOMEAN(A1:A10)', (n) => {
  if (n.length === 0) return CellError.NUM
  let logs = 0
  for (const x of n) {
    if (x <= 0) return CellError.NUM
    logs += Math.log(x)
  }
  return Math.exp(logs / n.length)
})

export const HARMEAN = numbersFunction('HARMEAN', 'Returns the harmonic mean of positive numbers.', 'HARMEAN(A1:A10)', (n) => {
  if (n.length === 0) return CellError.NUM
  let reciprocals = 0
  for (const x of n) {
    if (x <= 0) return CellError.NUM
    reciprocals += 1 / x
  }
  return n.length / reciprocals
})

export const DEVSQ = numbersFunction(
  'DEVSQ',
  'Returns the sum of squares of deviations of the numbers from their mean.',
  'DEVSQ(A1:A10)',
  (n) => (n.length === 0 ? CellError.NUM : sumOfSquaredDeviations(n)),
)

export const AVEDEV = numbersFunction(
  'AVEDEV',
  'Returns the average of the absolute deviations of the numbers from their mean.',
  'AVEDEV(A1:A10)',
  (n) => {
    if (n.length === 0) return CellError.NUM
    const m = mean(n)
    return sum(n.map((x) => Math.abs(x - m))) / n.length
  },
)

/**
 * The sum of the standardized deviations from the mean raised to `power` (3 for skewness, 4 for
 * kurtosis), with the sample or population standard deviation; #DIV/0! when the values do not vary.
 */
function standardizedPowerSum(values: readonly number[], power: number, sample: boolean): number | CellError {
  const s = variance(values, sample)
  if (typeof s !== 'number' || s === 0) return CellError.DIV0
  const m = mean(values)
  const stdev = Math.sqrt(s)
  let total = 0
  for (const x of values) total += ((x - m) / stdev) ** power
  return total
}

export const KURT = numbersFunction('KURT', 'Returns the kurtosis of a data set.', 'KURT(A1:A10)', (values) => {
  const n = values.length
  if (n < 4) return CellError.DIV0
  const fourth = standardizedPowerSum(values, 4, true)
  if (fourth instanceof CellError) return fourth
  return ((n * (n + 1)) / ((n - 1) * (n - 2) * (n - 3))) * fourth - (3 * (n - 1) ** 2) / ((n - 2) * (n - 3))
})

export const SKEW = numbersFunction('SKEW', 'Returns the skewness of a distribution from a sample.', 'SKEW(A1:A10)', (values) => {
  const n = values.length
  if (n < 3) return CellError.DIV0
  const third = standardizedPowerSum(values, 3, true)
  if (third instanceof CellError) return third
  return (n / ((n - 1) * (n - 2))) * third
})

export const SKEW_P = numbersFunction(
  'SKEW.P',
  'Returns the skewness of a distribution from a population.',
  'SKEW.P(A1:A10)',
  (values) => {
    const n = values.length
    if (n === 0) return CellError.DIV0
    const third = standardizedPowerSum(values, 3, false)
    if (third instanceof CellError) return third
    return third / n
  },
)

/** The most frequent numbers, in the order they first appear, and how often they occur. */
function modes(numbers: readonly number[]): number[] {
  const counts = new Map<number, number>()
  let best = 1
  for (const x of numbers) {
    const count = (counts.get(x) ?? 0) + 1
    counts.set(x, count)
    if (count > best) best = count
  }
  if (best < 2) return []
  const result: number[] = []
  for (const [value, count] of counts) if (count === best) result.push(value)
  return result
}

export const firstMode: Reduce = (n) => modes(n)[0] ?? CellError.NA

export const MODE_SNGL = numbersFunction(
  'MODE.SNGL',
  'Returns the most frequently occurring number; #N/A when no number repeats.',
  'MODE.SNGL(A1:A10)',
  firstMode,
)

export const MODE = numbersFunction(
  'MODE',
  'Returns the most frequently occurring number; #N/A when no number repeats.',
  'MODE(A1:A10)',
  firstMode,
)

export const MODE_MULT: FunctionDefinition = {
  name: 'MODE.MULT',
  category: 'statistical',
  minArgs: 1,
  maxArgs: 255,
  args: ['any'],
  syntax: 'MODE.MULT(number1, [number2], ...)',
  description: 'Returns a vertical array of the most frequently occurring numbers.',
  example: 'MODE.MULT(A1:A10)',
  impl: (args) => {
    const numbers = collectNumbers(args)
    if (numbers instanceof CellError) return numbers
    const found = modes(numbers)
    if (found.length === 0) return CellError.NA
    return arrayColumn(found)
  },
}

function arrayColumn(values: readonly Scalar[]): ArrayValue {
  return new ArrayValue(values.length, 1, [...values])
}

export const COUNT: FunctionDefinition = {
  name: 'COUNT',
  category: 'statistical',
  minArgs: 1,
  maxArgs: 255,
  args: ['any'],
  syntax: 'COUNT(value1, [value2], ...)',
  description: 'Counts the numbers among its arguments.',
  example: 'COUNT(A1:A10)',
  impl: (args) => {
    let count = 0
    for (const arg of args) {
      if (arg === MISSING) {
        count++
        continue
      }
      if (arg === null) continue
      if (typeof arg !== 'object' || arg instanceof CellError) {
        // Typed directly, numbers, booleans and numeric text count; errors and other text do not.
        if (!(arg instanceof CellError) && typeof toNumber(arg) === 'number') count++
        continue
      }
      forEachValue(arg, (value) => {
        if (typeof value === 'number') count++
      })
    }
    return count
  },
}

export const COUNTA: FunctionDefinition = {
  name: 'COUNTA',
  category: 'statistical',
  minArgs: 1,
  maxArgs: 255,
  args: ['any'],
  syntax: 'COUNTA(value1, [value2], ...)',
  description: 'Counts the values that are not empty, errors and empty text included.',
  example: 'COUNTA(A1:A10)',
  impl: (args) => {
    let count = 0
    for (const arg of args) {
      if (arg === MISSING) {
        count++
        continue
      }
      if (typeof arg !== 'object' || arg === null || arg instanceof CellError) {
        if (arg !== null) count++
        continue
      }
      forEachValue(arg, () => {
        count++
      })
    }
    return count
  },
}

export const COUNTBLANK: FunctionDefinition = {
  name: 'COUNTBLANK',
  category: 'statistical',
  minArgs: 1,
  maxArgs: 1,
  args: ['any'],
  syntax: 'COUNTBLANK(range)',
  description: 'Counts the empty cells of a range, cells with empty text included.',
  example: 'COUNTBLANK(A1:A10)',
  impl: ([arg]) => {
    if (arg === MISSING || arg === null || arg === '') return 1
    if (typeof arg !== 'object') return 0
    if (arg instanceof CellError) return arg
    let total = 0
    let nonBlank = 0
    const areas = 'areas' in arg ? arg.areas : [arg]
    for (const area of areas) {
      total += area.height * area.width
      forEachValue(area, (value) => {
        if (value !== '') nonBlank++
      })
    }
    return total - nonBlank
  },
}

/** The k-th largest (or smallest) of the numbers; a fractional k counts as the next whole one. */
export function kthOf(numbers: readonly number[], kArg: number, largest: boolean): number | CellError {
  const k = Math.ceil(kArg)
  if (k < 1 || k > numbers.length) return CellError.NUM
  const sorted = sortedAscending(numbers)
  return largest ? sorted[sorted.length - k] : sorted[k - 1]
}

/** LARGE and SMALL: the k-th number of an array argument. */
function kth(args: Arg[], largest: boolean): number | CellError {
  const numbers = collectNumbers([args[0]])
  if (numbers instanceof CellError) return numbers
  return kthOf(numbers, args[1] as number, largest)
}

export const LARGE: FunctionDefinition = {
  name: 'LARGE',
  category: 'statistical',
  minArgs: 2,
  maxArgs: 2,
  args: ['any', 'number'],
  syntax: 'LARGE(array, k)',
  description: 'Returns the k-th largest number of a data set.',
  example: 'LARGE(A1:A10, 2)',
  impl: (args) => kth(args, true),
}

export const SMALL: FunctionDefinition = {
  name: 'SMALL',
  category: 'statistical',
  minArgs: 2,
  maxArgs: 2,
  args: ['any', 'number'],
  syntax: 'SMALL(array, k)',
  description: 'Returns the k-th smallest number of a data set.',
  example: 'SMALL(A1:A10, 2)',
  impl: (args) => kth(args, false),
}

export const STANDARDIZE: FunctionDefinition = {
  name: 'STANDARDIZE',
  category: 'statistical',
  minArgs: 3,
  maxArgs: 3,
  args: ['number', 'number', 'number'],
  syntax: 'STANDARDIZE(x, mean, standard_dev)',
  description: 'Returns the normalized value (x - mean) / standard_dev.',
  example: 'STANDARDIZE(42, 40, 1.5)',
  impl: ([x, m, sd]) => ((sd as number) <= 0 ? CellError.NUM : ((x as number) - (m as number)) / (sd as number)),
}

export const TRIMMEAN: FunctionDefinition = {
  name: 'TRIMMEAN',
  category: 'statistical',
  minArgs: 2,
  maxArgs: 2,
  args: ['any', 'number'],
  syntax: 'TRIMMEAN(array, percent)',
  description: 'Returns the mean of the interior of a data set, leaving out a percentage of points at both ends.',
  example: 'TRIMMEAN(A1:A20, 0.2)',
  impl: ([data, percentArg]) => {
    const numbers = collectNumbers([data])
    if (numbers instanceof CellError) return numbers
    const percent = percentArg as number
    if (percent < 0 || percent >= 1 || numbers.length === 0) return CellError.NUM
    // Points left out are rounded down to an even number, half at each end.
    const cut = Math.floor((numbers.length * percent) / 2)
    const kept = sortedAscending(numbers).slice(cut, numbers.length - cut)
    return mean(kept)
  },
}

export const functions: readonly FunctionDefinition[] = [
  AVERAGE,
  AVERAGEA,
  MAX,
  MIN,
  MAXA,
  MINA,
  STDEV_S,
  STDEV,
  STDEV_P,
  STDEVP,
  STDEVA,
  STDEVPA,
  VAR_S,
  VAR,
  VAR_P,
  VARP,
  VARA,
  VARPA,
  MEDIAN,
  GEOMEAN,
  HARMEAN,
  DEVSQ,
  AVEDEV,
  KURT,
  SKEW,
  SKEW_P,
  MODE_SNGL,
  MODE,
  MODE_MULT,
  COUNT,
  COUNTA,
  COUNTBLANK,
  LARGE,
  SMALL,
  STANDARDIZE,
  TRIMMEAN,
]
