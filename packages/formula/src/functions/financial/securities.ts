/**
 * Discounted and interest-at-maturity securities, Treasury bills and fractional dollar prices.
 * Like all Analysis ToolPak functions they read dates as whole days and reject booleans.
 */
import { CellError } from '../../values.js'
import { numberResult } from '../helpers.js'
import { strictNumber } from '../date/serials.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { dayOf, daysBetween, daysInYear, readBasis, shiftMonths } from './day-count.js'
import type { Basis, Day } from './day-count.js'

/**
 * Reads the arguments of an Analysis ToolPak function: `count` required numbers, then optional ones
 * with their defaults. The first error (type errors before range checks) wins.
 */
export function readNumbers(args: Arg[], required: number, defaults: readonly number[] = []): number[] | CellError {
  const values: number[] = []
  for (let i = 0; i < required + defaults.length; i++) {
    const arg = args[i]
    if (i >= required && (arg === undefined || arg === MISSING || arg === null)) {
      values.push(defaults[i - required])
      continue
    }
    const value = strictNumber(arg)
    if (value instanceof CellError) return value
    values.push(value)
  }
  return values
}

/** Settlement and maturity as days (settlement strictly before maturity) and the basis. */
export function readTerm(settlementSerial: number, maturitySerial: number, basisValue: number): [Day, Day, Basis] | CellError {
  const basis = readBasis(basisValue)
  if (basis instanceof CellError) return basis
  if (settlementSerial < 0 || maturitySerial < 0) return CellError.NUM
  const settlement = dayOf(settlementSerial)
  const maturity = dayOf(maturitySerial)
  if (settlement.serial >= maturity.serial) return CellError.NUM
  return [settlement, maturity, basis]
}

function security(
  name: string,
  syntax: string,
  description: string,
  example: string,
  required: number,
  defaults: readonly number[],
  compute: (values: number[]) => number | CellError,
  resultFormat?: string,
): FunctionDefinition {
  return {
    name,
    category: 'financial',
    minArgs: required,
    maxArgs: required + defaults.length,
    args: ['scalar'],
    syntax,
    description,
    example,
    resultFormat,
    impl: (args) => {
      const values = readNumbers(args, required, defaults)
      if (values instanceof CellError) return values
      const result = compute(values)
      return numberResult(result)
    },
  }
}

/**
 * The term of a security sold at a discount: days from settlement to maturity and days in a year by
 * the basis, once the two amounts it is priced with are both positive.
 */
function discountTerm(
  settlementSerial: number,
  maturitySerial: number,
  basisValue: number,
  first: number,
  second: number,
): { days: number; year: number } | CellError {
  const term = readTerm(settlementSerial, maturitySerial, basisValue)
  if (term instanceof CellError) return term
  if (first <= 0 || second <= 0) return CellError.NUM
  const [settlement, maturity, basis] = term
  return { days: daysBetween(settlement, maturity, basis), year: daysInYear(settlement, maturity, basis) }
}

export const DISC = security(
  'DISC',
  'DISC(settlement, maturity, pr, redemption, [basis])',
  'Returns the discount rate of a security from its price per $100 face value and its redemption value.',
  'DISC(DATE(2018,7,1), DATE(2048,1,1), 97.975, 100, 1)',
  4,
  [0],
  ([settlementSerial, maturitySerial, price, redemption, basisValue]) => {
    const term = discountTerm(settlementSerial, maturitySerial, basisValue, price, redemption)
    if (term instanceof CellError) return term
    return (((redemption - price) / redemption) * term.year) / term.days
  },
  '0.00%',
)

export const INTRATE = security(
  'INTRATE',
  'INTRATE(settlement, maturity, investment, redemption, [basis])',
  'Returns the interest rate of a fully invested security.',
  'INTRATE(DATE(2008,2,15), DATE(2008,5,15), 1000000, 1014420, 2)',
  4,
  [0],
  ([settlementSerial, maturitySerial, investment, redemption, basisValue]) => {
    const term = discountTerm(settlementSerial, maturitySerial, basisValue, investment, redemption)
    if (term instanceof CellError) return term
    return (((redemption - investment) / investment) * term.year) / term.days
  },
  '0.00%',
)

export const RECEIVED = security(
  'RECEIVED',
  'RECEIVED(settlement, maturity, investment, discount, [basis])',
  'Returns the amount received at maturity for a fully invested security.',
  'RECEIVED(DATE(2008,2,15), DATE(2008,5,15), 1000000, 5.75%, 2)',
  4,
  [0],
  ([settlementSerial, maturitySerial, investment, discount, basisValue]) => {
    const term = discountTerm(settlementSerial, maturitySerial, basisValue, investment, discount)
    if (term instanceof CellError) return term
    const discountFactor = (discount * term.days) / term.year
    return discountFactor >= 1 ? CellError.NUM : investment / (1 - discountFactor)
  },
  '$#,##0.00',
)

export const PRICEDISC = security(
  'PRICEDISC',
  'PRICEDISC(settlement, maturity, discount, redemption, [basis])',
  'Returns the price per $100 face value of a discounted security.',
  'PRICEDISC(DATE(2008,2,16), DATE(2008,3,1), 5.25%, 100, 2)',
  4,
  [0],
  ([settlementSerial, maturitySerial, discount, redemption, basisValue]) => {
    const term = discountTerm(settlementSerial, maturitySerial, basisValue, discount, redemption)
    if (term instanceof CellError) return term
    return redemption - (discount * redemption * term.days) / term.year
  },
)

export const YIELDDISC = security(
  'YIELDDISC',
  'YIELDDISC(settlement, maturity, pr, redemption, [basis])',
  'Returns the annual yield of a discounted security.',
  'YIELDDISC(DATE(2008,2,16), DATE(2008,3,1), 99.795, 100, 2)',
  4,
  [0],
  ([settlementSerial, maturitySerial, price, redemption, basisValue]) => {
    const term = discountTerm(settlementSerial, maturitySerial, basisValue, price, redemption)
    if (term instanceof CellError) return term
    return (((redemption - price) / price) * term.year) / term.days
  },
  '0.00%',
)

/** Issue, settlement and maturity of a security paying interest at maturity. */
function maturityTerms(settlementSerial: number, maturitySerial: number, issueSerial: number, basisValue: number) {
  const term = readTerm(settlementSerial, maturitySerial, basisValue)
  if (term instanceof CellError) return term
  if (issueSerial < 0) return CellError.NUM
  const issue = dayOf(issueSerial)
  if (issue.serial >= term[0].serial) return CellError.NUM
  const [settlement, maturity, basis] = term
  const year = daysInYear(settlement, maturity, basis)
  const issueToMaturity = daysBetween(issue, maturity, basis)
  const issueToSettlement = daysBetween(issue, settlement, basis)
  return { year, issueToMaturity, issueToSettlement, settlementToMaturity: issueToMaturity - issueToSettlement }
}

export const PRICEMAT = security(
  'PRICEMAT',
  'PRICEMAT(settlement, maturity, issue, rate, yld, [basis])',
  'Returns the price per $100 face value of a security that pays interest at maturity.',
  'PRICEMAT(DATE(2008,2,15), DATE(2008,4,13), DATE(2007,11,11), 6.1%, 6.1%, 0)',
  5,
  [0],
  ([settlementSerial, maturitySerial, issueSerial, rate, yieldRate, basisValue]) => {
    if (rate < 0 || yieldRate < 0) return CellError.NUM
    const terms = maturityTerms(settlementSerial, maturitySerial, issueSerial, basisValue)
    if (terms instanceof CellError) return terms
    const { year, issueToMaturity, issueToSettlement, settlementToMaturity } = terms
    return (
      (100 + (issueToMaturity / year) * rate * 100) / (1 + (settlementToMaturity / year) * yieldRate) -
      (issueToSettlement / year) * rate * 100
    )
  },
)

export const YIELDMAT = security(
  'YIELDMAT',
  'YIELDMAT(settlement, maturity, issue, rate, pr, [basis])',
  'Returns the annual yield of a security that pays interest at maturity.',
  'YIELDMAT(DATE(2008,3,15), DATE(2008,11,3), DATE(2007,11,8), 6.25%, 100.0123, 0)',
  5,
  [0],
  ([settlementSerial, maturitySerial, issueSerial, rate, price, basisValue]) => {
    if (rate < 0 || price <= 0) return CellError.NUM
    const terms = maturityTerms(settlementSerial, maturitySerial, issueSerial, basisValue)
    if (terms instanceof CellError) return terms
    const { year, issueToMaturity, issueToSettlement, settlementToMaturity } = terms
    const accrued = (issueToSettlement / year) * rate
    return (((issueToMaturity / year) * rate + 1 - price / 100 - accrued) / (price / 100 + accrued)) * (year / settlementToMaturity)
  },
  '0.00%',
)

export const ACCRINTM = security(
  'ACCRINTM',
  'ACCRINTM(issue, settlement, rate, [par], [basis])',
  'Returns the accrued interest of a security that pays interest at maturity (par defaults to 1,000).',
  'ACCRINTM(DATE(2008,4,1), DATE(2008,6,15), 10%, 1000, 3)',
  3,
  [1000, 0],
  ([issueSerial, settlementSerial, rate, par, basisValue]) => {
    const basis = readBasis(basisValue)
    if (basis instanceof CellError) return basis
    if (rate <= 0 || par <= 0 || issueSerial < 0 || settlementSerial < 0) return CellError.NUM
    const issue = dayOf(issueSerial)
    const settlement = dayOf(settlementSerial)
    if (issue.serial >= settlement.serial) return CellError.NUM
    return (par * rate * daysBetween(issue, settlement, basis)) / daysInYear(issue, settlement, basis)
  },
  '$#,##0.00',
)

/** Days from settlement to maturity of a Treasury bill, which may run at most one calendar year. */
function billDays(settlementSerial: number, maturitySerial: number): number | CellError {
  if (settlementSerial < 0 || maturitySerial < 0) return CellError.NUM
  const settlement = dayOf(settlementSerial)
  const maturity = dayOf(maturitySerial)
  if (settlement.serial >= maturity.serial) return CellError.NUM
  if (maturity.serial > shiftMonths(settlement, 12, false).serial) return CellError.NUM
  return maturity.serial - settlement.serial
}

export const TBILLPRICE = security(
  'TBILLPRICE',
  'TBILLPRICE(settlement, maturity, discount)',
  'Returns the price per $100 face value of a Treasury bill.',
  'TBILLPRICE(DATE(2008,3,31), DATE(2008,6,1), 9%)',
  3,
  [],
  ([settlementSerial, maturitySerial, discount]) => {
    const days = billDays(settlementSerial, maturitySerial)
    if (days instanceof CellError) return days
    if (discount <= 0) return CellError.NUM
    const price = 100 * (1 - (discount * days) / 360)
    return price <= 0 ? CellError.NUM : price
  },
)

export const TBILLYIELD = security(
  'TBILLYIELD',
  'TBILLYIELD(settlement, maturity, pr)',
  'Returns the yield of a Treasury bill from its price per $100 face value.',
  'TBILLYIELD(DATE(2008,3,31), DATE(2008,6,1), 98.45)',
  3,
  [],
  ([settlementSerial, maturitySerial, price]) => {
    const days = billDays(settlementSerial, maturitySerial)
    if (days instanceof CellError) return days
    if (price <= 0) return CellError.NUM
    return (((100 - price) / price) * 360) / days
  },
  '0.00%',
)

export const TBILLEQ = security(
  'TBILLEQ',
  'TBILLEQ(settlement, maturity, discount)',
  'Returns the bond-equivalent yield of a Treasury bill.',
  'TBILLEQ(DATE(2008,3,31), DATE(2008,6,1), 9.14%)',
  3,
  [],
  ([settlementSerial, maturitySerial, discount]) => {
    const days = billDays(settlementSerial, maturitySerial)
    if (days instanceof CellError) return days
    if (discount <= 0) return CellError.NUM
    if (days <= 182) return (365 * discount) / (360 - discount * days)
    // Longer bills compound once: solve the quadratic of the bond-equivalent yield.
    const price = (100 - (discount * 100 * days) / 360) / 100
    const year = days === 366 ? 366 : 365
    const ratio = days / year
    const root = Math.sqrt(ratio * ratio - (2 * ratio - 1) * (1 - 1 / price))
    return (-2 * ratio + 2 * root) / (2 * ratio - 1)
  },
  '0.00%',
)

/** DOLLARDE and DOLLARFR: the fraction's denominator as an integer of at least 1. */
function fractionDenominator(value: number): number | CellError {
  if (value < 0) return CellError.NUM
  const denominator = Math.trunc(value)
  return denominator === 0 ? CellError.DIV0 : denominator
}

/**
 * DOLLARDE and DOLLARFR: the whole part stays, and the rest is converted between a count of
 * 1/denominator parts written as decimals and a true decimal fraction; `scale` is the power of ten
 * with as many digits as the denominator.
 */
function dollarConversion(
  name: string,
  syntax: string,
  description: string,
  example: string,
  convert: (rest: number, denominator: number, scale: number) => number,
): FunctionDefinition {
  return {
    name,
    category: 'financial',
    minArgs: 2,
    maxArgs: 2,
    args: ['scalar', 'scalar'],
    syntax,
    description,
    example,
    impl: (args) => {
      const values = readNumbers(args, 2)
      if (values instanceof CellError) return values
      const value = values[0]
      const denominator = fractionDenominator(values[1])
      if (denominator instanceof CellError) return denominator
      const whole = Math.trunc(value)
      const scale = Math.pow(10, Math.ceil(Math.log10(denominator)))
      return numberResult(whole + convert(value - whole, denominator, scale))
    },
  }
}

export const DOLLARDE = dollarConversion(
  'DOLLARDE',
  'DOLLARDE(fractional_dollar, fraction)',
  'Converts a price written as an integer part and a fraction (1.02 with fraction 16 is 1 + 2/16) into a decimal number.',
  'DOLLARDE(1.02, 16)',
  (rest, denominator, scale) => (rest * scale) / denominator,
)

export const DOLLARFR = dollarConversion(
  'DOLLARFR',
  'DOLLARFR(decimal_dollar, fraction)',
  'Converts a decimal price into an integer part and a fraction (1.125 with fraction 16 is written 1.02).',
  'DOLLARFR(1.125, 16)',
  (rest, denominator, scale) => (rest * denominator) / scale,
)

export const functions: readonly FunctionDefinition[] = [
  DISC,
  INTRATE,
  RECEIVED,
  PRICEDISC,
  YIELDDISC,
  PRICEMAT,
  YIELDMAT,
  ACCRINTM,
  TBILLPRICE,
  TBILLYIELD,
  TBILLEQ,
  DOLLARDE,
  DOLLARFR,
]
