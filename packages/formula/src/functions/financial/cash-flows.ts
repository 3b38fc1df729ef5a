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
    const error = forEachNumber(args.slice(1), (n) => values.push(n))
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
function datedFlows(valuesArg: Arg, datesArg: Arg, nonNumber: CellError): { values: number[]; days: number[] } | CellError {
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
    const flows = datedFlows(args[0], args[1], CellError.VALUE)
    if (flows instanceof CellError) return flows
    const guess = optional(args[2], 0.1)
    if (guess <= -1) return CellError.NUM
    const { values, days } = flows
    if (!values.some((v) => v > 0) || !values.some((v) => v < 0)) return CellError.NUM
    let rate = guess
    for (let iteration = 0; iteration < 100; iteration++) {
      let value = 0
      let slope = 0
      for (let i = 0; i < values.length; i++) {
        const years = (days[i] - days[0]) / 365
        const discount = Math.pow(1 + rate, years)
        value += values[i] / discount
        slope -= (years * values[i]) / (discount * (1 + rate))
      }
      const next = rate - value / slope
      if (!Number.isFinite(next)) return CellError.NUM
      if (next <= -1) rate = (rate - 1) / 2
      else {
        if (Math.abs(next - rate) < 1e-10) return next
        rate = next
      }
    }
    return CellError.NUM
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
