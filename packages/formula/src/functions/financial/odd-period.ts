/**
 * Bonds with an odd first or last coupon period: ODDFPRICE, ODDFYIELD, ODDLPRICE, ODDLYIELD, with the
 * formulas of Excel's documentation. The odd period is cut into quasi-coupon periods (regular periods
 * stepped from the first coupon back, or from the last coupon forward); each contributes its share of a
 * coupon in proportion to the days it covers.
 */
import { CellError } from '../../values.js'
import { numberResult } from '../helpers.js'
import type { FunctionDefinition } from '../types.js'
import { solveYield } from './bonds.js'
import { dayOf, daysBetween, readBasis, readFrequency, shiftMonths } from './day-count.js'
import type { Basis, Day } from './day-count.js'
import { readNumbers } from './securities.js'

interface QuasiPeriod {
  start: Day
  end: Day
  /** The normal length of the period in days. */
  length: number
}

function isLastDay(date: Day): boolean {
  return shiftMonths(date, 0, true).day === date.day
}

/**
 * The normal length of a quasi-coupon period in days. Of an odd first period, Excel takes the actual
 * length for actual/actual and the basis' year over the frequency otherwise; of an odd last period, the
 * actual length for every actual-day basis (actual/actual, actual/360, actual/365), as the prices it
 * caches show, and the 30/360 length for the 30/360 bases.
 */
function normalLength(start: Day, end: Day, frequency: number, basis: Basis, lastPeriod: boolean): number {
  if (basis === 1 || (lastPeriod && (basis === 2 || basis === 3))) return end.serial - start.serial
  return (basis === 3 ? 365 : 360) / frequency
}

/** Quasi-coupon periods ending at `anchor`, stepping back until one starts on or before `from`. */
function periodsBack(anchor: Day, from: Day, frequency: number, basis: Basis): QuasiPeriod[] {
  const months = 12 / frequency
  const monthEnd = isLastDay(anchor)
  const periods: QuasiPeriod[] = []
  let end = anchor
  while (end.serial > from.serial) {
    const start = shiftMonths(end, -months, monthEnd)
    periods.unshift({ start, end, length: normalLength(start, end, frequency, basis, false) })
    end = start
  }
  return periods
}

/** Quasi-coupon periods starting at `anchor`, stepping forward until one ends on or after `to`. */
function periodsForward(anchor: Day, to: Day, frequency: number, basis: Basis): QuasiPeriod[] {
  const months = 12 / frequency
  const monthEnd = isLastDay(anchor)
  const periods: QuasiPeriod[] = []
  let start = anchor
  while (start.serial < to.serial) {
    const end = shiftMonths(start, months, monthEnd)
    periods.push({ start, end, length: normalLength(start, end, frequency, basis, true) })
    start = end
  }
  return periods
}

function later(a: Day, b: Day): Day {
  return a.serial >= b.serial ? a : b
}

function earlier(a: Day, b: Day): Day {
  return a.serial <= b.serial ? a : b
}

interface OddFirst {
  settlement: Day
  maturity: Day
  issue: Day
  firstCoupon: Day
  rate: number
  redemption: number
  frequency: number
  basis: Basis
}

function oddFirstPrice(bond: OddFirst, yieldRate: number): number {
  const { settlement, maturity, issue, firstCoupon, rate, redemption, frequency, basis } = bond
  const coupon = (100 * rate) / frequency
  const growth = 1 + yieldRate / frequency
  const periods = periodsBack(firstCoupon, issue, frequency, basis)
  let couponShare = 0
  let accruedShare = 0
  // A whole quasi-period counts as one period; a part of one by its days over the normal length.
  const share = (from: Day, to: Day, period: QuasiPeriod) =>
    from.serial === period.start.serial && to.serial === period.end.serial ? 1 : daysBetween(from, to, basis) / period.length
  for (const period of periods) {
    const from = later(issue, period.start)
    couponShare += share(from, period.end, period)
    if (settlement.serial > from.serial) accruedShare += share(from, earlier(settlement, period.end), period)
  }
  // Discounting runs from settlement: part of its quasi-period, then whole quasi-periods to the first coupon.
  const holding = periods.findIndex((period) => settlement.serial < period.end.serial)
  const current = periods[holding]
  const toNext = daysBetween(settlement, current.end, basis) / current.length
  const wholePeriods = periods.length - 1 - holding
  const regular = Math.round(
    ((maturity.year - firstCoupon.year) * 12 + (maturity.month - firstCoupon.month)) / (12 / frequency),
  )
  const start = wholePeriods + toNext
  let price = redemption / Math.pow(growth, regular + start)
  price += (coupon * couponShare) / Math.pow(growth, start)
  for (let k = 1; k <= regular; k++) price += coupon / Math.pow(growth, k + start)
  return price - coupon * accruedShare
}

function readOddFirst(values: number[]): OddFirst | CellError {
  const [settlementSerial, maturitySerial, issueSerial, firstSerial, rate, , redemption, frequencyValue, basisValue] = values
  const frequency = readFrequency(frequencyValue)
  if (frequency instanceof CellError) return frequency
  const basis = readBasis(basisValue)
  if (basis instanceof CellError) return basis
  if ([settlementSerial, maturitySerial, issueSerial, firstSerial].some((serial) => serial < 0)) return CellError.NUM
  const [settlement, maturity, issue, firstCoupon] = [settlementSerial, maturitySerial, issueSerial, firstSerial].map(dayOf)
  if (!(maturity.serial > firstCoupon.serial && firstCoupon.serial > settlement.serial && settlement.serial > issue.serial)) {
    return CellError.NUM
  }
  if (rate < 0 || redemption <= 0) return CellError.NUM
  return { settlement, maturity, issue, firstCoupon, rate, redemption, frequency, basis }
}

export const ODDFPRICE: FunctionDefinition = {
  name: 'ODDFPRICE',
  category: 'financial',
  minArgs: 8,
  maxArgs: 9,
  args: ['scalar'],
  syntax: 'ODDFPRICE(settlement, maturity, issue, first_coupon, rate, yld, redemption, frequency, [basis])',
  description: 'Returns the price per $100 face value of a security with an odd (short or long) first period.',
  example: 'ODDFPRICE(DATE(2008,11,11), DATE(2021,3,1), DATE(2008,10,15), DATE(2009,3,1), 7.85%, 6.25%, 100, 2, 1)',
  impl: (args) => {
    const values = readNumbers(args, 8, [0])
    if (values instanceof CellError) return values
    const bond = readOddFirst(values)
    if (bond instanceof CellError) return bond
    const yieldRate = values[5]
    if (yieldRate < 0) return CellError.NUM
    return numberResult(oddFirstPrice(bond, yieldRate))
  },
}

export const ODDFYIELD: FunctionDefinition = {
  name: 'ODDFYIELD',
  category: 'financial',
  minArgs: 8,
  maxArgs: 9,
  args: ['scalar'],
  resultFormat: '0.00%',
  syntax: 'ODDFYIELD(settlement, maturity, issue, first_coupon, rate, pr, redemption, frequency, [basis])',
  description: 'Returns the yield of a security with an odd (short or long) first period.',
  example: 'ODDFYIELD(DATE(2008,11,11), DATE(2021,3,1), DATE(2008,10,15), DATE(2009,3,1), 5.75%, 84.5, 100, 2, 0)',
  impl: (args) => {
    const values = readNumbers(args, 8, [0])
    if (values instanceof CellError) return values
    const bond = readOddFirst(values)
    if (bond instanceof CellError) return bond
    const price = values[5]
    if (price <= 0) return CellError.NUM
    return solveYield((y) => oddFirstPrice(bond, y) - price, bond.rate || 0.05)
  },
}

interface OddLast {
  settlement: Day
  maturity: Day
  lastInterest: Day
  rate: number
  redemption: number
  frequency: number
  basis: Basis
}

function readOddLast(values: number[]): OddLast | CellError {
  const [settlementSerial, maturitySerial, lastSerial, rate, , redemption, frequencyValue, basisValue] = values
  const frequency = readFrequency(frequencyValue)
  if (frequency instanceof CellError) return frequency
  const basis = readBasis(basisValue)
  if (basis instanceof CellError) return basis
  if ([settlementSerial, maturitySerial, lastSerial].some((serial) => serial < 0)) return CellError.NUM
  const [settlement, maturity, lastInterest] = [settlementSerial, maturitySerial, lastSerial].map(dayOf)
  if (!(maturity.serial > settlement.serial && settlement.serial > lastInterest.serial)) return CellError.NUM
  if (rate < 0 || redemption <= 0) return CellError.NUM
  return { settlement, maturity, lastInterest, rate, redemption, frequency, basis }
}

/** The coupon, accrued and discounting shares of the odd last period, summed over its quasi-periods. */
function oddLastShares(bond: OddLast): { coupon: number; accrued: number; remaining: number } {
  const { settlement, maturity, lastInterest, frequency, basis } = bond
  let coupon = 0
  let accrued = 0
  let remaining = 0
  for (const period of periodsForward(lastInterest, maturity, frequency, basis)) {
    const end = earlier(maturity, period.end)
    coupon += daysBetween(period.start, end, basis) / period.length
    if (settlement.serial > period.start.serial) accrued += daysBetween(period.start, earlier(settlement, end), basis) / period.length
    if (settlement.serial < end.serial) remaining += daysBetween(later(settlement, period.start), end, basis) / period.length
  }
  return { coupon, accrued, remaining }
}

export const ODDLPRICE: FunctionDefinition = {
  name: 'ODDLPRICE',
  category: 'financial',
  minArgs: 7,
  maxArgs: 8,
  args: ['scalar'],
  syntax: 'ODDLPRICE(settlement, maturity, last_interest, rate, yld, redemption, frequency, [basis])',
  description: 'Returns the price per $100 face value of a security with an odd last period.',
  example: 'ODDLPRICE(DATE(2008,2,7), DATE(2008,6,15), DATE(2007,10,15), 3.75%, 4.05%, 100, 2, 0)',
  impl: (args) => {
    const values = readNumbers(args, 7, [0])
    if (values instanceof CellError) return values
    const bond = readOddLast(values)
    if (bond instanceof CellError) return bond
    const yieldRate = values[4]
    if (yieldRate < 0) return CellError.NUM
    const shares = oddLastShares(bond)
    const perPeriod = (100 * bond.rate) / bond.frequency
    const value =
      (bond.redemption + shares.coupon * perPeriod) / (1 + (shares.remaining * yieldRate) / bond.frequency) -
      shares.accrued * perPeriod
    return numberResult(value)
  },
}

export const ODDLYIELD: FunctionDefinition = {
  name: 'ODDLYIELD',
  category: 'financial',
  minArgs: 7,
  maxArgs: 8,
  args: ['scalar'],
  resultFormat: '0.00%',
  syntax: 'ODDLYIELD(settlement, maturity, last_interest, rate, pr, redemption, frequency, [basis])',
  description: 'Returns the yield of a security with an odd last period.',
  example: 'ODDLYIELD(DATE(2008,4,20), DATE(2008,6,15), DATE(2007,12,24), 3.75%, 99.875, 100, 2, 0)',
  impl: (args) => {
    const values = readNumbers(args, 7, [0])
    if (values instanceof CellError) return values
    const bond = readOddLast(values)
    if (bond instanceof CellError) return bond
    const price = values[4]
    if (price <= 0) return CellError.NUM
    const shares = oddLastShares(bond)
    const perPeriod = (100 * bond.rate) / bond.frequency
    const paid = price + shares.accrued * perPeriod
    const received = bond.redemption + shares.coupon * perPeriod
    return numberResult(((received - paid) / paid) * (bond.frequency / shares.remaining))
  },
}

export const functions: readonly FunctionDefinition[] = [ODDFPRICE, ODDFYIELD, ODDLPRICE, ODDLYIELD]
