/**
 * Positions within a data set: ranks, percentiles, quartiles, percent ranks, frequency tables.
 */
import { ArrayValue, CellError } from '../../values.js'
import type { Scalar } from '../../values.js'
import { toArray } from '../helpers.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { optional, roundTowardZero } from '../math/numeric.js'
import { collectNumbers, sortedAscending } from './collect.js'

function rank(args: Arg[], average: boolean): number | CellError {
  const x = args[0] as number
  const numbers = collectNumbers([args[1]])
  if (numbers instanceof CellError) return numbers
  const ascending = optional(args[2], 0) !== 0
  let before = 0
  let equal = 0
  for (const n of numbers) {
    if (n === x) equal++
    else if (ascending ? n < x : n > x) before++
  }
  if (equal === 0) return CellError.NA
  return average ? before + (equal + 1) / 2 : before + 1
}

function rankFunction(name: string, average: boolean, description: string): FunctionDefinition {
  return {
    name,
    category: 'statistical',
    minArgs: 2,
    maxArgs: 3,
    args: ['number', 'any', 'number'],
    syntax: `${name}(number, ref, [order])`,
    description,
    example: `${name}(A2, A1:A10)`,
    impl: (args) => rank(args, average),
  }
}

export const RANK_EQ = rankFunction(
  'RANK.EQ',
  false,
  'Returns the rank of a number in a list (descending unless order is non-zero); ties share the top rank.',
)
export const RANK = rankFunction(
  'RANK',
  false,
  'Returns the rank of a number in a list (descending unless order is non-zero); ties share the top rank.',
)
export const RANK_AVG = rankFunction(
  'RANK.AVG',
  true,
  'Returns the rank of a number in a list (descending unless order is non-zero); ties get their average rank.',
)

/** The value at 0-based fractional position `h` of sorted numbers, interpolating linearly. */
function interpolate(sorted: readonly number[], h: number): number {
  const low = Math.floor(h)
  const fraction = h - low
  if (low + 1 >= sorted.length) return sorted[sorted.length - 1]
  return sorted[low] + fraction * (sorted[low + 1] - sorted[low])
}

export function percentileInclusive(numbers: readonly number[], k: number): number | CellError {
  if (numbers.length === 0 || k < 0 || k > 1) return CellError.NUM
  return interpolate(sortedAscending(numbers), (numbers.length - 1) * k)
}

export function percentileExclusive(numbers: readonly number[], k: number): number | CellError {
  const n = numbers.length
  if (n === 0 || k <= 0 || k >= 1) return CellError.NUM
  const h = (n + 1) * k - 1
  if (h < 0 || h > n - 1) return CellError.NUM
  return interpolate(sortedAscending(numbers), h)
}

function percentileFunction(
  name: string,
  argument: string,
  description: string,
  example: string,
  compute: (numbers: number[], k: number) => number | CellError,
): FunctionDefinition {
  return {
    name,
    category: 'statistical',
    minArgs: 2,
    maxArgs: 2,
    args: ['any', 'number'],
    syntax: `${name}(array, ${argument})`,
    description,
    example,
    impl: ([data, k]) => {
      const numbers = collectNumbers([data])
      if (numbers instanceof CellError) return numbers
      return compute(numbers, k as number)
    },
  }
}

export const PERCENTILE_INC = percentileFunction(
  'PERCENTILE.INC',
  'k',
  'Returns the k-th percentile (k from 0 to 1 inclusive) of a data set.',
  'PERCENTILE.INC(A1:A10, 0.9)',
  percentileInclusive,
)
export const PERCENTILE = percentileFunction(
  'PERCENTILE',
  'k',
  'Returns the k-th percentile (k from 0 to 1 inclusive) of a data set.',
  'PERCENTILE(A1:A10, 0.9)',
  percentileInclusive,
)
export const PERCENTILE_EXC = percentileFunction(
  'PERCENTILE.EXC',
  'k',
  'Returns the k-th percentile (k strictly between 0 and 1) of a data set.',
  'PERCENTILE.EXC(A1:A10, 0.9)',
  percentileExclusive,
)

function quartileInclusive(numbers: number[], quart: number): number | CellError {
  const q = Math.trunc(quart)
  if (q < 0 || q > 4) return CellError.NUM
  return percentileInclusive(numbers, q / 4)
}

export const QUARTILE_INC = percentileFunction(
  'QUARTILE.INC',
  'quart',
  'Returns a quartile (0 minimum, 1, 2 median, 3, 4 maximum) of a data set.',
  'QUARTILE.INC(A1:A10, 1)',
  quartileInclusive,
)
export const QUARTILE = percentileFunction(
  'QUARTILE',
  'quart',
  'Returns a quartile (0 minimum, 1, 2 median, 3, 4 maximum) of a data set.',
  'QUARTILE(A1:A10, 1)',
  quartileInclusive,
)
export const QUARTILE_EXC = percentileFunction(
  'QUARTILE.EXC',
  'quart',
  'Returns a quartile (1, 2 or 3) of a data set, from percentiles exclusive of 0 and 1.',
  'QUARTILE.EXC(A1:A10, 1)',
  (numbers, quart) => {
    const q = Math.trunc(quart)
    if (q < 1 || q > 3) return CellError.NUM
    return percentileExclusive(numbers, q / 4)
  },
)

/**
 * The 0-based fractional position of x among sorted numbers (the count of smaller numbers when x is
 * present, interpolated between neighbours otherwise); undefined outside the data.
 */
function fractionalPosition(sorted: readonly number[], x: number): number | undefined {
  const n = sorted.length
  if (x < sorted[0] || x > sorted[n - 1]) return undefined
  let below = 0
  while (below < n && sorted[below] < x) below++
  if (below < n && sorted[below] === x) return below
  const lower = sorted[below - 1]
  const upper = sorted[below]
  return below - 1 + (x - lower) / (upper - lower)
}

function percentRankFunction(name: string, exclusive: boolean, description: string): FunctionDefinition {
  return {
    name,
    category: 'statistical',
    minArgs: 2,
    maxArgs: 3,
    args: ['any', 'number', 'number'],
    syntax: `${name}(array, x, [significance])`,
    description,
    example: `${name}(A1:A10, 4)`,
    impl: (args) => {
      const numbers = collectNumbers([args[0]])
      if (numbers instanceof CellError) return numbers
      const x = args[1] as number
      const significance = Math.trunc(optional(args[2], 3))
      if (significance < 1 || numbers.length === 0) return CellError.NUM
      const sorted = sortedAscending(numbers)
      const position = fractionalPosition(sorted, x)
      if (position === undefined) return CellError.NA
      const n = sorted.length
      let result: number
      if (exclusive) result = (position + 1) / (n + 1)
      else result = n === 1 ? 1 : position / (n - 1)
      return roundTowardZero(result, significance)
    },
  }
}

export const PERCENTRANK_INC = percentRankFunction(
  'PERCENTRANK.INC',
  false,
  'Returns the rank of a value in a data set as a percentage from 0 to 1 inclusive.',
)
export const PERCENTRANK = percentRankFunction(
  'PERCENTRANK',
  false,
  'Returns the rank of a value in a data set as a percentage from 0 to 1 inclusive.',
)
export const PERCENTRANK_EXC = percentRankFunction(
  'PERCENTRANK.EXC',
  true,
  'Returns the rank of a value in a data set as a percentage strictly between 0 and 1.',
)

export const FREQUENCY: FunctionDefinition = {
  name: 'FREQUENCY',
  category: 'statistical',
  minArgs: 2,
  maxArgs: 2,
  args: ['any', 'any'],
  syntax: 'FREQUENCY(data_array, bins_array)',
  description:
    'Returns a vertical array of how many values fall in each bin (up to and including its bound), plus one for values above the last bin.',
  example: 'FREQUENCY(A1:A20, C1:C4)',
  impl: ([data, binsArg]) => {
    const numbers = collectNumbers([data])
    if (numbers instanceof CellError) return numbers
    const bins = collectNumbers([binsArg])
    if (bins instanceof CellError) return bins
    // Counts go back in the bins' own order; each value counts for the smallest bin bound it does not exceed.
    const order = bins.map((bound, index) => ({ bound, index })).sort((a, b) => a.bound - b.bound)
    const counts = new Array<number>(bins.length + 1).fill(0)
    for (const value of numbers) {
      const slot = order.find((bin) => value <= bin.bound)
      counts[slot ? slot.index : bins.length]++
    }
    return new ArrayValue(counts.length, 1, counts)
  },
}

export const PROB: FunctionDefinition = {
  name: 'PROB',
  category: 'statistical',
  minArgs: 3,
  maxArgs: 4,
  args: ['any', 'any', 'number', 'number'],
  syntax: 'PROB(x_range, prob_range, lower_limit, [upper_limit])',
  description: 'Returns the probability that values of x_range lie between the limits, from their probabilities.',
  example: 'PROB(A1:A4, B1:B4, 1, 3)',
  impl: (args) => {
    const xs = toArray(args[0])
    if (xs instanceof CellError) return xs
    const ps = toArray(args[1])
    if (ps instanceof CellError) return ps
    if (xs.data.length !== ps.data.length) return CellError.NA
    const lower = args[2] as number
    const upper = optional(args[3], lower)
    let total = 0
    let chosen = 0
    let pairs = 0
    for (let i = 0; i < xs.data.length; i++) {
      const x: Scalar = xs.data[i]
      const p: Scalar = ps.data[i]
      if (x instanceof CellError) return x
      if (p instanceof CellError) return p
      if (typeof p !== 'number' || typeof x !== 'number') continue
      if (p < 0 || p > 1) return CellError.NUM
      pairs++
      total += p
      if (x >= lower && x <= upper) chosen += p
    }
    if (pairs === 0) return CellError.DIV0
    if (Math.abs(total - 1) > 1e-9) return CellError.NUM
    return chosen
  },
}

export const functions: readonly FunctionDefinition[] = [
  RANK_EQ,
  RANK,
  RANK_AVG,
  PERCENTILE_INC,
  PERCENTILE,
  PERCENTILE_EXC,
  QUARTILE_INC,
  QUARTILE,
  QUARTILE_EXC,
  PERCENTRANK_INC,
  PERCENTRANK,
  PERCENTRANK_EXC,
  FREQUENCY,
  PROB,
]
