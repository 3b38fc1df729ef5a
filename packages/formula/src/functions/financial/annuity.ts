/**
 * The time-value-of-money functions. They all rest on one equation linking rate, nper, pmt, pv and fv
 * (type 1 pays at the start of each period):
 *
 *   pv·(1+rate)^nper + pmt·(1+rate·type)·((1+rate)^nper − 1)/rate + fv = 0      (rate ≠ 0)
 *   pv + pmt·nper + fv = 0                                                    (rate = 0)
 */
import { CellError } from '../../values.js'
import { numberResult } from '../helpers.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { optional, paymentAtStart } from './args.js'
import { readNumbers } from './securities.js'

export function payment(rate: number, nper: number, pv: number, fv: number, atStart: boolean): number | CellError {
  if (rate === 0) return nper === 0 ? CellError.NUM : -(pv + fv) / nper
  if (rate <= -1) return CellError.NUM
  const growth = Math.pow(1 + rate, nper)
  const annuity = ((growth - 1) / rate) * (atStart ? 1 + rate : 1)
  return numberResult(-(pv * growth + fv) / annuity)
}

export function futureValue(rate: number, nper: number, pmt: number, pv: number, atStart: boolean): number | CellError {
  if (rate === 0) return -(pv + pmt * nper)
  const growth = Math.pow(1 + rate, nper)
  if (Number.isNaN(growth)) return CellError.NUM
  if (!Number.isFinite(growth)) return CellError.DIV0
  const result = -(pv * growth + (pmt * (atStart ? 1 + rate : 1) * (growth - 1)) / rate)
  return numberResult(result)
}

export function presentValue(rate: number, nper: number, pmt: number, fv: number, atStart: boolean): number | CellError {
  if (rate === 0) return -(fv + pmt * nper)
  if (rate === -1) return CellError.DIV0
  const growth = Math.pow(1 + rate, nper)
  return numberResult(-(fv + (pmt * (atStart ? 1 + rate : 1) * (growth - 1)) / rate) / growth)
}

/** The interest part of payment `period` (1-based). */
export function interestPayment(
  rate: number,
  period: number,
  nper: number,
  pv: number,
  fv: number,
  atStart: boolean,
): number | CellError {
  if (period < 1 || period > nper) return CellError.NUM
  const pmt = payment(rate, nper, pv, fv, atStart)
  if (pmt instanceof CellError) return pmt
  if (period === 1 && atStart) return 0
  // The interest is earned on the balance left after the previous payment.
  const balance = atStart ? futureValue(rate, period - 2, pmt, pv, true) : futureValue(rate, period - 1, pmt, pv, false)
  if (balance instanceof CellError) return balance
  return numberResult((atStart ? balance - pmt : balance) * rate)
}

const ANNUITY_ARGS = ['number', 'number', 'number', 'number', 'number'] as const

export const PMT: FunctionDefinition = {
  name: 'PMT',
  category: 'financial',
  minArgs: 3,
  maxArgs: 5,
  args: ANNUITY_ARGS,
  resultFormat: '$#,##0.00',
  syntax: 'PMT(rate, nper, pv, [fv], [type])',
  description: 'Returns the payment per period of a loan or annuity with constant payments and a constant interest rate.',
  example: 'PMT(5%/12, 360, 300000)',
  impl: (args) =>
    payment(args[0] as number, args[1] as number, args[2] as number, optional(args[3], 0), paymentAtStart(args[4])),
}

export const FV: FunctionDefinition = {
  name: 'FV',
  category: 'financial',
  minArgs: 3,
  maxArgs: 5,
  args: ANNUITY_ARGS,
  resultFormat: '$#,##0.00',
  syntax: 'FV(rate, nper, pmt, [pv], [type])',
  description: 'Returns the future value of an investment with constant payments and a constant interest rate.',
  example: 'FV(6%/12, 10, -200, -500, 1)',
  impl: (args) =>
    futureValue(args[0] as number, args[1] as number, args[2] as number, optional(args[3], 0), paymentAtStart(args[4])),
}

export const PV: FunctionDefinition = {
  name: 'PV',
  category: 'financial',
  minArgs: 3,
  maxArgs: 5,
  args: ANNUITY_ARGS,
  resultFormat: '$#,##0.00',
  syntax: 'PV(rate, nper, pmt, [fv], [type])',
  description: 'Returns the present value of a series of constant future payments.',
  example: 'PV(8%/12, 12*20, 500)',
  impl: (args) =>
    presentValue(args[0] as number, args[1] as number, args[2] as number, optional(args[3], 0), paymentAtStart(args[4])),
}

export const NPER: FunctionDefinition = {
  name: 'NPER',
  category: 'financial',
  minArgs: 3,
  maxArgs: 5,
  args: ANNUITY_ARGS,
  syntax: 'NPER(rate, pmt, pv, [fv], [type])',
  description: 'Returns the number of periods needed for an investment or loan with constant payments and interest rate.',
  example: 'NPER(1%, -100, -1000, 10000, 1)',
  impl: (args) => {
    const rate = args[0] as number
    const pmt = args[1] as number
    const pv = args[2] as number
    const fv = optional(args[3], 0)
    if (rate === 0) return pmt === 0 ? CellError.NUM : numberResult(-(pv + fv) / pmt)
    if (rate <= -1) return CellError.NUM
    const scaled = pmt * (paymentAtStart(args[4]) ? 1 + rate : 1)
    return numberResult(Math.log((scaled - fv * rate) / (scaled + pv * rate)) / Math.log1p(rate))
  },
}

export const IPMT: FunctionDefinition = {
  name: 'IPMT',
  category: 'financial',
  minArgs: 4,
  maxArgs: 6,
  args: ['number', 'number', 'number', 'number', 'number', 'number'],
  resultFormat: '$#,##0.00',
  syntax: 'IPMT(rate, per, nper, pv, [fv], [type])',
  description: 'Returns the interest part of the payment of a given period of a loan or annuity.',
  example: 'IPMT(10%/12, 1, 36, 8000)',
  impl: (args) =>
    interestPayment(
      args[0] as number,
      args[1] as number,
      args[2] as number,
      args[3] as number,
      optional(args[4], 0),
      paymentAtStart(args[5]),
    ),
}

export const PPMT: FunctionDefinition = {
  name: 'PPMT',
  category: 'financial',
  minArgs: 4,
  maxArgs: 6,
  args: ['number', 'number', 'number', 'number', 'number', 'number'],
  resultFormat: '$#,##0.00',
  syntax: 'PPMT(rate, per, nper, pv, [fv], [type])',
  description: 'Returns the principal part of the payment of a given period of a loan or annuity.',
  example: 'PPMT(10%/12, 1, 24, 2000)',
  impl: (args) => {
    const [rate, period, nper, pv] = args as number[]
    const fv = optional(args[4], 0)
    const atStart = paymentAtStart(args[5])
    const pmt = payment(rate, nper, pv, fv, atStart)
    if (pmt instanceof CellError) return pmt
    if (period < 1 || period > nper) return CellError.NUM
    if (rate === 0 || (atStart && period === 1)) return pmt
    // The fall of the balance in the period, in closed form: payment less interest would cancel most
    // digits when the interest is nearly the whole payment.
    const g = 1 + rate
    return numberResult((-Math.pow(g, period - (atStart ? 2 : 1)) * rate * (pv + fv)) / (Math.pow(g, nper) - 1))
  },
}

/** CUMIPMT and CUMPRINC: the interest (or principal) paid from period start to end inclusive. */
function cumulative(args: Arg[], part: 'interest' | 'principal'): number | CellError {
  const values = readNumbers(args, 6)
  if (values instanceof CellError) return values
  const [rate, nper, pv, startArg, endArg, type] = values
  const start = Math.ceil(startArg)
  const end = Math.floor(endArg)
  if (rate <= 0 || nper <= 0 || pv <= 0) return CellError.NUM
  if (start < 1 || end < 1 || start > end || end > nper) return CellError.NUM
  if (type !== 0 && type !== 1) return CellError.NUM
  const atStart = type === 1
  if (part === 'principal') return numberResult(principalRepaid(rate, nper, pv, start, end, atStart))
  let total = 0
  for (let period = start; period <= end; period++) {
    const interest = interestPayment(rate, period, nper, pv, 0, atStart)
    if (interest instanceof CellError) return interest
    total += interest
  }
  return numberResult(total)
}

/**
 * The principal repaid (negative) by payments start to end of a loan paid off in nper periods: the
 * fall of the outstanding balance. Written in closed form, because summing payment less interest
 * cancels almost every digit when the interest is nearly the whole payment; Excel's results are exact
 * there. The balance after k payments is pv·(gⁿ − gᵏ)/(gⁿ − 1) with g = 1 + rate, and with payments at
 * the start of each period pv·(gⁿ⁻¹ − gᵏ⁻¹)/(gⁿ − 1) for k ≥ 1.
 */
function principalRepaid(rate: number, nper: number, pv: number, start: number, end: number, atStart: boolean): number {
  const g = 1 + rate
  const denominator = Math.pow(g, nper) - 1
  if (!atStart) return (pv * (Math.pow(g, start - 1) - Math.pow(g, end))) / denominator
  if (start >= 2) return (pv * (Math.pow(g, start - 2) - Math.pow(g, end - 1))) / denominator
  // Before the first payment the balance is the whole loan.
  return (pv * (Math.pow(g, nper - 1) - Math.pow(g, end - 1))) / denominator - pv
}

export const CUMIPMT: FunctionDefinition = {
  name: 'CUMIPMT',
  category: 'financial',
  minArgs: 6,
  maxArgs: 6,
  args: ['scalar'],
  resultFormat: '$#,##0.00',
  syntax: 'CUMIPMT(rate, nper, pv, start_period, end_period, type)',
  description: 'Returns the cumulative interest paid on a loan between two periods (type 0: payment at the end of each period, 1: at the start).',
  example: 'CUMIPMT(9%/12, 30*12, 125000, 13, 24, 0)',
  impl: (args) => cumulative(args, 'interest'),
}

export const CUMPRINC: FunctionDefinition = {
  name: 'CUMPRINC',
  category: 'financial',
  minArgs: 6,
  maxArgs: 6,
  args: ['scalar'],
  resultFormat: '$#,##0.00',
  syntax: 'CUMPRINC(rate, nper, pv, start_period, end_period, type)',
  description: 'Returns the cumulative principal paid on a loan between two periods (type 0: payment at the end of each period, 1: at the start).',
  example: 'CUMPRINC(9%/12, 30*12, 125000, 13, 24, 0)',
  impl: (args) => cumulative(args, 'principal'),
}

/**
 * RATE by Newton's method from `guess` (default 10%), converged when a step moves the rate by less than
 * 1e-7; #NUM! when it leaves the domain or has not converged after 50 steps (Excel documents 20, but
 * converges on loans of hundreds of periods that 20 steps of Newton do not reach).
 */
export function solveRate(nper: number, pmt: number, pv: number, fv: number, atStart: boolean, guess: number): number | CellError {
  const type = atStart ? 1 : 0
  let rate = guess
  for (let iteration = 0; iteration < 50; iteration++) {
    let value: number
    let slope: number
    if (Math.abs(rate) < 1e-12) {
      value = pv + pmt * nper + fv
      slope = pv * nper + pmt * (nper * (nper - 1)) / 2 + pmt * type * nper
    } else {
      const growthBefore = Math.pow(1 + rate, nper - 1)
      const growth = growthBefore * (1 + rate)
      const annuity = (growth - 1) / rate
      value = pv * growth + pmt * (1 + rate * type) * annuity + fv
      slope =
        pv * nper * growthBefore +
        pmt * type * annuity +
        pmt * (1 + rate * type) * ((nper * growthBefore * rate - (growth - 1)) / (rate * rate))
    }
    const next = rate - value / slope
    if (!Number.isFinite(next) || next <= -1) return CellError.NUM
    if (Math.abs(next - rate) < 1e-7) return next
    rate = next
  }
  return CellError.NUM
}

export const RATE: FunctionDefinition = {
  name: 'RATE',
  category: 'financial',
  minArgs: 3,
  maxArgs: 6,
  args: ['number', 'number', 'number', 'number', 'number', 'number'],
  resultFormat: '0.00%',
  syntax: 'RATE(nper, pmt, pv, [fv], [type], [guess])',
  description: 'Returns the interest rate per period of an annuity, found by iteration from guess (default 10%).',
  example: 'RATE(4*12, -200, 8000)',
  impl: (args) => {
    const [nper, pmt, pv] = args as number[]
    const guess = optional(args[5], 0.1)
    if (guess <= -1) return CellError.VALUE
    if (nper <= 0) return CellError.NUM
    return solveRate(nper, pmt, pv, optional(args[3], 0), paymentAtStart(args[4]), guess)
  },
}

export const ISPMT: FunctionDefinition = {
  name: 'ISPMT',
  category: 'financial',
  minArgs: 4,
  maxArgs: 4,
  args: ['number'],
  syntax: 'ISPMT(rate, per, nper, pv)',
  description: 'Returns the interest paid in period per (counted from 0) of a loan repaid in equal parts of principal.',
  example: 'ISPMT(10%/12, 0, 36, 8000000)',
  impl: (args) => {
    const [rate, period, nper, pv] = args as number[]
    if (nper === 0) return CellError.DIV0
    return numberResult(pv * rate * (period / nper - 1))
  },
}

export const PDURATION: FunctionDefinition = {
  name: 'PDURATION',
  category: 'financial',
  minArgs: 3,
  maxArgs: 3,
  args: ['number'],
  syntax: 'PDURATION(rate, pv, fv)',
  description: 'Returns the number of periods an investment needs to grow from pv to fv at a rate per period.',
  example: 'PDURATION(2.5%, 2000, 2200)',
  impl: (args) => {
    const [rate, pv, fv] = args as number[]
    if (rate <= 0 || pv <= 0 || fv <= 0) return CellError.NUM
    return numberResult((Math.log(fv) - Math.log(pv)) / Math.log1p(rate))
  },
}

export const RRI: FunctionDefinition = {
  name: 'RRI',
  category: 'financial',
  minArgs: 3,
  maxArgs: 3,
  args: ['number'],
  resultFormat: '0.00%',
  syntax: 'RRI(nper, pv, fv)',
  description: 'Returns the equivalent interest rate per period for the growth of an investment from pv to fv over nper periods.',
  example: 'RRI(96, 10000, 11000)',
  impl: (args) => {
    const [nper, pv, fv] = args as number[]
    if (nper <= 0) return CellError.NUM
    if (pv === 0) return CellError.NUM
    return numberResult(Math.pow(fv / pv, 1 / nper) - 1)
  },
}

/** EFFECT and NOMINAL: a positive rate and the whole number of compounding periods a year, at least 1. */
function rateAndPeriods(args: Arg[]): [rate: number, periods: number] | CellError {
  const values = readNumbers(args, 2)
  if (values instanceof CellError) return values
  const rate = values[0]
  const periods = Math.trunc(values[1])
  if (rate <= 0 || periods < 1) return CellError.NUM
  return [rate, periods]
}

export const EFFECT: FunctionDefinition = {
  name: 'EFFECT',
  category: 'financial',
  minArgs: 2,
  maxArgs: 2,
  args: ['scalar', 'scalar'],
  resultFormat: '0.00%',
  syntax: 'EFFECT(nominal_rate, npery)',
  description: 'Returns the effective annual interest rate of a nominal rate compounded npery times a year.',
  example: 'EFFECT(5.25%, 4)',
  impl: (args) => {
    const read = rateAndPeriods(args)
    if (read instanceof CellError) return read
    const [rate, periods] = read
    return numberResult(Math.pow(1 + rate / periods, periods) - 1)
  },
}

export const NOMINAL: FunctionDefinition = {
  name: 'NOMINAL',
  category: 'financial',
  minArgs: 2,
  maxArgs: 2,
  args: ['scalar', 'scalar'],
  resultFormat: '0.00%',
  syntax: 'NOMINAL(effect_rate, npery)',
  description: 'Returns the nominal annual interest rate that compounds npery times a year to an effective rate.',
  example: 'NOMINAL(5.3543%, 4)',
  impl: (args) => {
    const read = rateAndPeriods(args)
    if (read instanceof CellError) return read
    const [rate, periods] = read
    return numberResult(periods * (Math.pow(1 + rate, 1 / periods) - 1))
  },
}

export const functions: readonly FunctionDefinition[] = [
  PMT,
  FV,
  PV,
  NPER,
  IPMT,
  PPMT,
  CUMIPMT,
  CUMPRINC,
  RATE,
  ISPMT,
  PDURATION,
  RRI,
  EFFECT,
  NOMINAL,
]
