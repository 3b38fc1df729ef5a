/**
 * Coupon bonds: the coupon schedule functions (COUPDAYBS, COUPDAYS, COUPDAYSNC, COUPNCD, COUPNUM,
 * COUPPCD), PRICE, YIELD, DURATION, MDURATION and ACCRINT.
 */
import { toBoolean } from '../../coerce.js'
import { CellError } from '../../values.js'
import type { Scalar } from '../../values.js'
import { numberResult } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import {
  couponCount,
  couponDates,
  couponDays,
  couponDaysAfter,
  couponDaysBefore,
  dayOf,
  days360Us,
  daysBetween,
  readBasis,
  readFrequency,
  shiftMonths,
} from './day-count.js'
import type { Basis, Day } from './day-count.js'
import { readNumbers, readTerm } from './securities.js'

interface Bond {
  settlement: Day
  maturity: Day
  frequency: number
  basis: Basis
}

function readBond(settlementSerial: number, maturitySerial: number, frequencyValue: number, basisValue: number): Bond | CellError {
  const frequency = readFrequency(frequencyValue)
  if (frequency instanceof CellError) return frequency
  const term = readTerm(settlementSerial, maturitySerial, basisValue)
  if (term instanceof CellError) return term
  const [settlement, maturity, basis] = term
  return { settlement, maturity, frequency, basis }
}

function couponFunction(
  name: string,
  description: string,
  compute: (bond: Bond) => number,
  resultFormat?: string,
): FunctionDefinition {
  return {
    name,
    category: 'financial',
    minArgs: 3,
    maxArgs: 4,
    args: ['scalar'],
    syntax: `${name}(settlement, maturity, frequency, [basis])`,
    description,
    example: `${name}(DATE(2011,1,25), DATE(2011,11,15), 2, 1)`,
    resultFormat,
    impl: (args) => {
      const values = readNumbers(args, 3, [0])
      if (values instanceof CellError) return values
      const bond = readBond(values[0], values[1], values[2], values[3])
      return bond instanceof CellError ? bond : compute(bond)
    },
  }
}

export const COUPDAYBS = couponFunction(
  'COUPDAYBS',
  'Returns the number of days from the beginning of the coupon period to the settlement date.',
  (b) => couponDaysBefore(b.settlement, b.maturity, b.frequency, b.basis),
)
export const COUPDAYS = couponFunction(
  'COUPDAYS',
  'Returns the number of days in the coupon period that contains the settlement date.',
  (b) => couponDays(b.settlement, b.maturity, b.frequency, b.basis),
)
export const COUPDAYSNC = couponFunction(
  'COUPDAYSNC',
  'Returns the number of days from the settlement date to the next coupon date.',
  (b) => couponDaysAfter(b.settlement, b.maturity, b.frequency, b.basis),
)
export const COUPNCD = couponFunction(
  'COUPNCD',
  'Returns the next coupon date after the settlement date.',
  (b) => couponDates(b.settlement, b.maturity, b.frequency).next.serial,
  'm/d/yyyy',
)
export const COUPPCD = couponFunction(
  'COUPPCD',
  'Returns the previous coupon date on or before the settlement date.',
  (b) => couponDates(b.settlement, b.maturity, b.frequency).previous.serial,
  'm/d/yyyy',
)
export const COUPNUM = couponFunction(
  'COUPNUM',
  'Returns the number of coupons payable between the settlement date and maturity.',
  (b) => couponCount(b.settlement, b.maturity, b.frequency),
)

/** The price per $100 face value of a bond at a yield. */
export function bondPrice(bond: Bond, rate: number, yieldRate: number, redemption: number): number {
  const { settlement, maturity, frequency, basis } = bond
  const count = couponCount(settlement, maturity, frequency)
  const period = couponDays(settlement, maturity, frequency, basis)
  const sinceLast = couponDaysBefore(settlement, maturity, frequency, basis)
  // Excel prices with the days to the next coupon taken as the period less the days since the last one.
  const toNext = period - sinceLast
  const coupon = (100 * rate) / frequency
  const accrued = (coupon * sinceLast) / period
  if (count === 1) return (redemption + coupon) / (1 + ((toNext / period) * yieldRate) / frequency) - accrued
  const growth = 1 + yieldRate / frequency
  const offset = toNext / period
  let value = redemption / Math.pow(growth, count - 1 + offset)
  for (let k = 1; k <= count; k++) value += coupon / Math.pow(growth, k - 1 + offset)
  return value - accrued
}

/**
 * Solves f(x) = 0 near `guess` by Newton's method with a numeric slope, falling back to bisection on a
 * bracket found by widening; the yields of bond prices are smooth and decreasing, so this converges.
 */
export function solveYield(f: (x: number) => number, guess: number): number | CellError {
  let x = guess
  for (let iteration = 0; iteration < 100; iteration++) {
    const value = f(x)
    if (!Number.isFinite(value)) break
    if (Math.abs(value) < 1e-12) return x
    const step = Math.max(1e-7, Math.abs(x) * 1e-7)
    const slope = (f(x + step) - value) / step
    if (!Number.isFinite(slope) || slope === 0) break
    const next = x - value / slope
    if (!Number.isFinite(next)) break
    if (Math.abs(next - x) < 1e-14 * Math.max(1, Math.abs(x))) return next
    x = next
  }
  let low = -0.999
  let high = 1
  let fLow = f(low)
  let fHigh = f(high)
  for (let widen = 0; widen < 60 && Number.isFinite(fHigh) && Math.sign(fLow) === Math.sign(fHigh); widen++) {
    high *= 2
    fHigh = f(high)
  }
  if (!Number.isFinite(fLow) || !Number.isFinite(fHigh) || Math.sign(fLow) === Math.sign(fHigh)) return CellError.NUM
  for (let iteration = 0; iteration < 200; iteration++) {
    const middle = (low + high) / 2
    const fMiddle = f(middle)
    if (fMiddle === 0 || high - low < 1e-15 * Math.max(1, Math.abs(middle))) return middle
    if (Math.sign(fMiddle) === Math.sign(fLow)) {
      low = middle
      fLow = fMiddle
    } else high = middle
  }
  return (low + high) / 2
}

export const PRICE: FunctionDefinition = {
  name: 'PRICE',
  category: 'financial',
  minArgs: 6,
  maxArgs: 7,
  args: ['scalar'],
  syntax: 'PRICE(settlement, maturity, rate, yld, redemption, frequency, [basis])',
  description: 'Returns the price per $100 face value of a security that pays periodic interest.',
  example: 'PRICE(DATE(2008,2,15), DATE(2017,11,15), 5.75%, 6.5%, 100, 2, 0)',
  impl: (args) => {
    const values = readNumbers(args, 6, [0])
    if (values instanceof CellError) return values
    const [settlement, maturity, rate, yieldRate, redemption, frequency, basis] = values
    const bond = readBond(settlement, maturity, frequency, basis)
    if (bond instanceof CellError) return bond
    if (rate < 0 || yieldRate < 0 || redemption <= 0) return CellError.NUM
    return numberResult(bondPrice(bond, rate, yieldRate, redemption))
  },
}

export const YIELD: FunctionDefinition = {
  name: 'YIELD',
  category: 'financial',
  minArgs: 6,
  maxArgs: 7,
  args: ['scalar'],
  resultFormat: '0.00%',
  syntax: 'YIELD(settlement, maturity, rate, pr, redemption, frequency, [basis])',
  description: 'Returns the yield of a security that pays periodic interest, from its price per $100 face value.',
  example: 'YIELD(DATE(2008,2,15), DATE(2016,11,15), 5.75%, 95.04287, 100, 2, 0)',
  impl: (args) => {
    const values = readNumbers(args, 6, [0])
    if (values instanceof CellError) return values
    const [settlement, maturity, rate, price, redemption, frequency, basis] = values
    const bond = readBond(settlement, maturity, frequency, basis)
    if (bond instanceof CellError) return bond
    if (rate < 0 || price <= 0 || redemption <= 0) return CellError.NUM
    const count = couponCount(bond.settlement, bond.maturity, bond.frequency)
    if (count <= 1) {
      const sinceLast = couponDaysBefore(bond.settlement, bond.maturity, bond.frequency, bond.basis)
      const toNext = couponDaysAfter(bond.settlement, bond.maturity, bond.frequency, bond.basis)
      const period = couponDays(bond.settlement, bond.maturity, bond.frequency, bond.basis)
      const coupon = rate / bond.frequency
      const gain = (redemption / 100 + coupon) / (price / 100 + (sinceLast / period) * coupon) - 1
      return numberResult((gain * bond.frequency * period) / toNext)
    }
    return solveYield((y) => bondPrice(bond, rate, y, redemption) - price, 0.05)
  },
}

/** Macaulay duration in years; Excel counts the days to the next coupon as period minus days since the last. */
function macaulay(bond: Bond, coupon: number, yieldRate: number): number {
  const { settlement, maturity, frequency, basis } = bond
  const period = couponDays(settlement, maturity, frequency, basis)
  const count = couponCount(settlement, maturity, frequency)
  const offset = (period - couponDaysBefore(settlement, maturity, frequency, basis)) / period
  const growth = 1 + yieldRate / frequency
  const lastTime = offset + count - 1
  let weighted = (lastTime * 100) / Math.pow(growth, lastTime)
  let total = 100 / Math.pow(growth, lastTime)
  for (let k = 1; k <= count; k++) {
    const time = k - 1 + offset
    const cashFlow = (coupon * 100) / frequency / Math.pow(growth, time)
    weighted += cashFlow * time
    total += cashFlow
  }
  return weighted / total / frequency
}

function durationFunction(name: string, description: string, modified: boolean): FunctionDefinition {
  return {
    name,
    category: 'financial',
    minArgs: 5,
    maxArgs: 6,
    args: ['scalar'],
    syntax: `${name}(settlement, maturity, coupon, yld, frequency, [basis])`,
    description,
    example: `${name}(DATE(2018,7,1), DATE(2048,1,1), 8%, 9%, 2, 1)`,
    impl: (args) => {
      const values = readNumbers(args, 5, [0])
      if (values instanceof CellError) return values
      const [settlement, maturity, coupon, yieldRate, frequency, basis] = values
      const bond = readBond(settlement, maturity, frequency, basis)
      if (bond instanceof CellError) return bond
      if (coupon < 0 || yieldRate < 0) return CellError.NUM
      const duration = macaulay(bond, coupon, yieldRate)
      return numberResult(modified ? duration / (1 + yieldRate / bond.frequency) : duration)
    },
  }
}

export const DURATION = durationFunction(
  'DURATION',
  'Returns the Macaulay duration in years of a security with periodic interest payments.',
  false,
)
export const MDURATION = durationFunction(
  'MDURATION',
  'Returns the modified Macaulay duration in years of a security with periodic interest payments.',
  true,
)

function readCalcMethod(arg: Arg | undefined): boolean | CellError {
  if (arg === undefined || arg === MISSING || arg === null) return true
  if (typeof arg === 'object' && !(arg instanceof CellError)) return CellError.VALUE
  return toBoolean(arg as Scalar)
}

/** Accrued interest of a bond with periodic coupons, in coupon periods counted from first_interest. */
function accruedPeriods(issue: Day, firstInterest: Day, settlement: Day, frequency: number, basis: Basis, fromIssue: boolean): number {
  const months = 12 / frequency
  const monthEnd = firstInterest.day === shiftMonths(firstInterest, 0, true).day
  const regularStart = shiftMonths(firstInterest, -months, monthEnd)
  let previous = regularStart
  if (settlement.serial > firstInterest.serial && fromIssue) {
    // The coupon date on or before settlement, stepping forward from the first coupon.
    let date = firstInterest
    while (date.serial < settlement.serial) {
      previous = date
      date = shiftMonths(date, months, monthEnd)
    }
  }
  const start = issue.serial > previous.serial ? issue : previous
  const regularLength =
    basis === 1 ? firstInterest.serial - regularStart.serial : (basis === 3 ? 365 : 360) / frequency
  let periods = daysBetween(start, settlement, basis) / regularLength
  // Walk back from that coupon date to the issue: whole periods, then the stub holding the issue.
  let end = previous
  while (end.serial > issue.serial) {
    const begin = shiftMonths(end, -months, monthEnd)
    if (issue.serial <= begin.serial) periods += fromIssue ? 1 : 0
    else {
      const accrued = basis === 0 ? days360Us(issue, end) : daysBetween(issue, end, basis)
      const length =
        basis === 0 ? days360Us(begin, end, true) : basis === 3 ? 365 / frequency : daysBetween(begin, end, basis, true)
      periods += accrued / length
    }
    end = begin
  }
  return periods
}

export const ACCRINT: FunctionDefinition = {
  name: 'ACCRINT',
  category: 'financial',
  minArgs: 6,
  maxArgs: 8,
  args: ['scalar'],
  resultFormat: '$#,##0.00',
  syntax: 'ACCRINT(issue, first_interest, settlement, rate, par, frequency, [basis], [calc_method])',
  description:
    'Returns the accrued interest of a security that pays periodic interest, from issue (calc_method TRUE, the default) or from first_interest (FALSE).',
  example: 'ACCRINT(DATE(2008,3,1), DATE(2008,8,31), DATE(2008,5,1), 10%, 1000, 2, 0)',
  impl: (args) => {
    const values = readNumbers(args.slice(0, 7), 6, [0])
    if (values instanceof CellError) return values
    const fromIssue = readCalcMethod(args[7])
    if (fromIssue instanceof CellError) return fromIssue
    const [issueSerial, firstSerial, settlementSerial, rate, par, frequencyValue, basisValue] = values
    if (rate <= 0 || par <= 0) return CellError.NUM
    const frequency = readFrequency(frequencyValue)
    if (frequency instanceof CellError) return frequency
    const basis = readBasis(basisValue)
    if (basis instanceof CellError) return basis
    if (issueSerial < 0 || firstSerial < 0 || settlementSerial < 0) return CellError.NUM
    const issue = dayOf(issueSerial)
    const settlement = dayOf(settlementSerial)
    if (issue.serial >= settlement.serial) return CellError.NUM
    const periods = accruedPeriods(issue, dayOf(firstSerial), settlement, frequency, basis, fromIssue)
    return numberResult(((par * rate) / frequency) * periods)
  },
}

export const functions: readonly FunctionDefinition[] = [
  COUPDAYBS,
  COUPDAYS,
  COUPDAYSNC,
  COUPNCD,
  COUPPCD,
  COUPNUM,
  PRICE,
  YIELD,
  DURATION,
  MDURATION,
  ACCRINT,
]
