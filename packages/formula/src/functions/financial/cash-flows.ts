/**
 * Discounted cash flows: NPV, XNPV, IRR, XIRR, MIRR and FVSCHEDULE.
 */
import { CellError } from '../../values.js'
import type { Scalar } from '../../values.js'
import { forEachCell, forEachNumber, numberResult } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { optional } from './args.js'

/** The numbers of a range or array argument as IRR and MIRR read them: other cells are skipped. */
function cashFlows(arg: Arg): number[] | CellError {
  const values: number[] = []
  let error: CellError | undefined
  forEachCell(arg, (value) => {
    if (typeof value === 'number') values.push(value)
    else if (value instanceof CellError) {
      error = value
      return false
    }
  })
  return error ?? values
}

function netPresentValue(rate: number, values: readonly number[]): number {
  let total = 0
  for (let i = 0; i < values.length; i++) total += values[i] / Math.pow(1 + rate, i + 1)
  return total
}

export const NPV: FunctionDefinition = {
  name: 'NPV',
  category: 'financial',
  minArgs: 2,
  maxArgs: 255,
  args: ['number', 'any'],
  resultFormat: '$#,##0.00',
  syntax: 'NPV(rate, value1, [value2], ...)',
  description: 'Returns the net present value of future cash flows at the end of each period, discounted at rate.',
  example: 'NPV(10%, -10000, 3000, 4200, 6800)',
  impl: (args) => {
    const rate = args[0] as number
    const values: number[] = []
    // A value left empty is a cash flow of 0 in its period: NPV(10%, 100, , 100) discounts the second 100 twice.
    const error = forEachNumber(
      args.slice(1).map((arg) => (arg === MISSING ? 0 : arg)),
      (n) => values.push(n),
    )
    if (error) return error
    if (rate === -1) return CellError.DIV0
    return numberResult(netPresentValue(rate, values))
  },
}

/**
 * The net present value of `values` (the first undiscounted) at the discount factor
 * `factor` = 1/(1 + rate), each value divided by its power of 1 + rate as Excel computes it: near a
 * double root the rounding of this sum decides where the iteration stops.
 */
function presentValueAtFactor(values: readonly number[], factor: number): number {
  const growth = 1 / factor
  let total = 0
  let divisor = 1
  for (const value of values) {
    total += value / divisor
    divisor *= growth
  }
  return total
}

/** The step between the discount factors of IRR's first two points. */
const IRR_FIRST_STEP = 0.001
/** IRR stops when successive discount factors differ by less than this (Excel's "0.00001 percent"). */
const IRR_TOLERANCE = 1e-7
const IRR_MAX_ITERATIONS = 100

/**
 * The internal rate of return by Excel's iteration, which its cached results pin down to the last bit:
 * the secant method on the discount factor v = 1/(1+rate), where the net present value is a polynomial.
 * It starts at v0 = 1/(1+guess) and v1 = v0 + 0.001·sign(NPV(v0)), takes secant steps through the last
 * two points, stops as soon as a step moves v by less than 1e-7, and returns 1/v - 1 of that last
 * point. The loose stop is why Excel's IRR leaves residuals such as NPV = 6.4e-12, and why the
 * double root of {1,-2,1} comes out as 1.09e-7 rather than 0; large jumps are kept as they are.
 * Excel needs up to 28 steps on its own examples, more than the 20 its documentation states. When
 * the secant does not settle, the first sign change of the net present value away from the guess is
 * bisected instead (Excel recovers too, by a route its results do not reveal).
 */
export function solveIrr(values: readonly number[], guess: number): number | CellError {
  let previous = 1 / (1 + guess)
  let previousValue = presentValueAtFactor(values, previous)
  if (previousValue === 0) return guess
  let current = previous + IRR_FIRST_STEP * Math.sign(previousValue)
  for (let iteration = 0; iteration < IRR_MAX_ITERATIONS; iteration++) {
    const value = presentValueAtFactor(values, current)
    const next = current - (value * (current - previous)) / (value - previousValue)
    if (!Number.isFinite(next)) break
    if (Math.abs(next - current) < IRR_TOLERANCE) {
      if (next <= 0) break
      return 1 / next - 1
    }
    previous = current
    previousValue = value
    current = next
  }
  return bracketedRoot((rate) => netPresentValue(rate, values), guess)
}

/** A root of a function of a rate (above -100%) found by stepping out from the guess and bisecting. */
export function bracketedRoot(f: (rate: number) => number, guess: number): number | CellError {
  const start = Math.max(guess, -0.99)
  let previous = start
  let previousValue = f(previous)
  for (let step = 0.01; step < 1e7; step *= 1.5) {
    for (const candidate of [start + step, Math.max(-0.999999, start - step)]) {
      const value = f(candidate)
      if (!Number.isFinite(value)) continue
      if (Math.sign(value) !== Math.sign(previousValue) && Number.isFinite(previousValue)) {
        return bisect(f, previous, candidate)
      }
    }
    previous = start + step
    previousValue = f(previous)
  }
  return CellError.NUM
}

function bisect(f: (rate: number) => number, a: number, b: number): number {
  let low = Math.min(a, b)
  let high = Math.max(a, b)
  let lowValue = f(low)
  for (let iteration = 0; iteration < 200 && high - low > 1e-15 * Math.max(1, Math.abs(low)); iteration++) {
    const middle = (low + high) / 2
    const value = f(middle)
    if (value === 0) return middle
    if (Math.sign(value) === Math.sign(lowValue)) {
      low = middle
      lowValue = value
    } else high = middle
  }
  return (low + high) / 2
}

export const IRR: FunctionDefinition = {
  name: 'IRR',
  category: 'financial',
  minArgs: 1,
  maxArgs: 2,
  args: ['any', 'number'],
  resultFormat: '0.00%',
  syntax: 'IRR(values, [guess])',
  description: 'Returns the internal rate of return of cash flows at regular periods, found by iteration from guess (default 10%).',
  example: 'IRR(A2:A6)',
  impl: (args) => {
    const values = cashFlows(args[0])
    if (values instanceof CellError) return values
    const guess = optional(args[1], 0.1)
    if (guess <= -1) return CellError.VALUE
    if (!values.some((v) => v > 0) || !values.some((v) => v < 0)) return CellError.NUM
    return solveIrr(values, guess)
  },
}

/** Values and dates of XNPV and XIRR: equal counts, numbers only, dates on or after the first. */
/**
 * The values and whole days of dated cash flows. With `skipBlanks` (XIRR), a pair whose value is an
 * empty cell is left out, as Excel leaves out the blank rows of a model's cash-flow range.
 */
function datedFlows(valuesArg: Arg, datesArg: Arg, nonNumber: CellError, skipBlanks = false): { values: number[]; days: number[] } | CellError {
  const values: Scalar[] = []
  const dates: Scalar[] = []
  forEachCell(valuesArg, (value) => void values.push(value))
  forEachCell(datesArg, (value) => void dates.push(value))
  for (const value of values) if (value instanceof CellError) return value
  for (const date of dates) if (date instanceof CellError) return date
  if (values.length !== dates.length || values.length === 0) return CellError.NUM
  const numbers: number[] = []
  const days: number[] = []
  for (let i = 0; i < values.length; i++) {
    const value = values[i]
    const date = dates[i]
    if (value === null && skipBlanks) continue
    if (typeof value !== 'number') return value === null ? CellError.NUM : nonNumber
    if (typeof date !== 'number') return date === null ? CellError.NUM : CellError.VALUE
    const day = Math.trunc(date)
    if (day < 0) return CellError.NUM
    numbers.push(value)
    days.push(day)
  }
  for (const day of days) if (day < days[0]) return CellError.NUM
  return { values: numbers, days }
}

function xnpv(rate: number, values: readonly number[], days: readonly number[]): number {
  let total = 0
  for (let i = 0; i < values.length; i++) total += values[i] / Math.pow(1 + rate, (days[i] - days[0]) / 365)
  return total
}

export const XNPV: FunctionDefinition = {
  name: 'XNPV',
  category: 'financial',
  minArgs: 3,
  maxArgs: 3,
  args: ['number', 'any', 'any'],
  resultFormat: '$#,##0.00',
  syntax: 'XNPV(rate, values, dates)',
  description: 'Returns the net present value of cash flows on the given dates, discounted at an annual rate to the first date.',
  example: 'XNPV(9%, A2:A6, B2:B6)',
  impl: (args) => {
    const rate = args[0] as number
    const flows = datedFlows(args[1], args[2], CellError.NUM)
    if (flows instanceof CellError) return flows
    if (rate <= -1) return CellError.NUM
    return numberResult(xnpv(rate, flows.values, flows.days))
  },
}

/** XIRR's bisection halves its bracket this many times: until it is narrower than 1e-8 of its first width. */
const XIRR_HALVINGS = 27
/** XIRR gives up halving a guess that is too high once the rate falls below this, and answers that rate. */
const XIRR_SMALLEST_RATE = 5e-9
const XIRR_MAX_DOUBLINGS = 100

/**
 * How far the rate is from XIRR's root, as Excel measures it: the log of the later flows' present value
 * over minus the first value. Positive means the rate is too low. It is not a number when the later
 * flows are worth nothing or the opposite of what the first value needs, and Excel reads that as too high.
 */
function xirrGap(rate: number, values: readonly number[], days: readonly number[]): number {
  let later = 0
  for (let i = 1; i < values.length; i++) later += values[i] / Math.pow(1 + rate, (days[i] - days[0]) / 365)
  return Math.log(later / -values[0])
}

/**
 * The annual internal rate of return by Excel's route. Its cached results pin the route down to the last
 * bit: each is the 27th midpoint of a bisection of [0, 0.1·2^k] (k the first doubling of the guess that
 * is too high) or of [-100%, -guess], never an iterate of Newton or secant steps.
 * - Too low or too high is the sign of xirrGap, which sets the orientation by the first value. Counting a
 *   gap that is not a number as too high reproduces Excel's known failures: 2.98E-9 (0.1 halved 25
 *   times) for flows that start with zeros, or that start positive and have a negative rate.
 * - From a positive guess: when the rate is too high even at 0, the bracket is [-100%, -guess] (or
 *   [-100%, 0] for a guess of 100% or more). Otherwise the guess is doubled until too high, bracket
 *   [0, that rate]; or, when the guess is too high, halved until half of it is too low, bracket [0, the
 *   last rate too high]; a rate halved below 5e-9 is answered as it is.
 * - From a guess at or below zero, which Excel's results here do not show: [-100%, guess] when the guess
 *   is too high, [guess, 0] when 0 is, else the route from 10%.
 * - The bisection halves the bracket 27 times and answers the last midpoint, which leaves Excel's errors
 *   of up to 1e-8 of the bracket. An end that was neither tested nor ever moved (a root closer to -100%
 *   than the last step) gives #NUM!.
 */
function solveXirr(values: readonly number[], days: readonly number[], guess: number): number | CellError {
  const tooLow = (rate: number) => xirrGap(rate, values, days) > 0
  const bracket = xirrBracket(tooLow, xirrGap(0, values, days), guess)
  if (typeof bracket === 'number' || bracket instanceof CellError) return bracket
  let { low, high, lowTested, highTested } = bracket
  let middle = low
  for (let halving = 0; halving < XIRR_HALVINGS; halving++) {
    middle = (low + high) / 2
    if (tooLow(middle)) {
      low = middle
      lowTested = true
    } else {
      high = middle
      highTested = true
    }
  }
  return lowTested && highTested ? middle : CellError.NUM
}

interface XirrBracket {
  low: number
  high: number
  /** Whether the end is known to lie on its side of the root, rather than assumed. */
  lowTested: boolean
  highTested: boolean
}

/** XIRR's starting bracket, or the rate Excel answers without one (see solveXirr). */
function xirrBracket(tooLow: (rate: number) => boolean, gapAtZero: number, guess: number): XirrBracket | number | CellError {
  if (guess > 0) {
    if (gapAtZero < 0) return { low: -1, high: guess < 1 ? -guess : 0, lowTested: false, highTested: false }
    return positiveXirrBracket(tooLow, guess)
  }
  if (!tooLow(guess)) return { low: -1, high: guess, lowTested: false, highTested: true }
  if (!tooLow(0)) return { low: guess, high: 0, lowTested: true, highTested: true }
  return positiveXirrBracket(tooLow, 0.1)
}

/** [0, rate] where rate, the guess doubled or halved, is the first too high next to a rate too low. */
function positiveXirrBracket(tooLow: (rate: number) => boolean, guess: number): XirrBracket | number | CellError {
  let rate = guess
  if (tooLow(rate)) {
    for (let doubling = 0; tooLow(rate); doubling++) {
      if (doubling === XIRR_MAX_DOUBLINGS) return CellError.NUM
      rate *= 2
    }
  } else {
    while (!tooLow(rate / 2)) {
      rate /= 2
      if (rate < XIRR_SMALLEST_RATE) return rate
    }
  }
  return { low: 0, high: rate, lowTested: true, highTested: true }
}

export const XIRR: FunctionDefinition = {
  name: 'XIRR',
  category: 'financial',
  minArgs: 2,
  maxArgs: 3,
  args: ['any', 'any', 'number'],
  resultFormat: '0.00%',
  syntax: 'XIRR(values, dates, [guess])',
  description: 'Returns the annual internal rate of return of cash flows on the given dates, found by iteration from guess (default 10%).',
  example: 'XIRR(A2:A6, B2:B6)',
  impl: (args) => {
    const flows = datedFlows(args[0], args[1], CellError.VALUE, true)
    if (flows instanceof CellError) return flows
    if (flows.values.length === 0) return CellError.NUM
    const guess = optional(args[2], 0.1)
    if (guess <= -1) return CellError.NUM
    const { values, days } = flows
    if (!values.some((v) => v > 0) || !values.some((v) => v < 0)) return CellError.NUM
    return solveXirr(values, days, guess)
  },
}

export const MIRR: FunctionDefinition = {
  name: 'MIRR',
  category: 'financial',
  minArgs: 3,
  maxArgs: 3,
  args: ['any', 'number', 'number'],
  resultFormat: '0.00%',
  syntax: 'MIRR(values, finance_rate, reinvest_rate)',
  description:
    'Returns the modified internal rate of return: payments financed at finance_rate and receipts reinvested at reinvest_rate.',
  example: 'MIRR(A2:A7, 10%, 12%)',
  impl: (args) => {
    const values = cashFlows(args[0])
    if (values instanceof CellError) return values
    const financeRate = args[1] as number
    const reinvestRate = args[2] as number
    const n = values.length
    let positives = 0
    let negatives = 0
    for (let i = 0; i < n; i++) {
      const value = values[i]
      if (value > 0) positives += value * Math.pow(1 + reinvestRate, n - 1 - i)
      else if (value < 0) negatives += value / Math.pow(1 + financeRate, i)
    }
    // No receipts gives -100%; no payments divides by zero.
    if (negatives === 0 || n < 2) return CellError.DIV0
    return numberResult(Math.pow(-positives / negatives, 1 / (n - 1)) - 1)
  },
}

export const FVSCHEDULE: FunctionDefinition = {
  name: 'FVSCHEDULE',
  category: 'financial',
  minArgs: 2,
  maxArgs: 2,
  args: ['number', 'any'],
  resultFormat: '$#,##0.00',
  syntax: 'FVSCHEDULE(principal, schedule)',
  description: 'Returns the future value of a principal after applying a series of interest rates.',
  example: 'FVSCHEDULE(1, {0.09, 0.11, 0.1})',
  impl: (args) => {
    let value = args[0] as number
    if (args[1] === MISSING) return value
    let error: CellError | undefined
    forEachCell(args[1], (rate) => {
      if (rate === null) return
      if (rate instanceof CellError) error = rate
      else if (typeof rate !== 'number') error = CellError.VALUE
      else value *= 1 + rate
      return error === undefined
    })
    return error ?? numberResult(value)
  },
}

export const functions: readonly FunctionDefinition[] = [NPV, IRR, XNPV, XIRR, MIRR, FVSCHEDULE]
