/**
 * Depreciation of an asset: straight line (SLN), sum of years' digits (SYD), fixed-declining balance
 * (DB), double-declining balance (DDB) and variable declining balance (VDB).
 */
import { CellError } from '../../values.js'
import { numberResult } from '../helpers.js'
import type { FunctionDefinition } from '../types.js'
import { yearFraction } from '../date/serials.js'
import type { Arg } from '../types.js'
import { optional } from './args.js'
import { readBasis } from './day-count.js'
import { readNumbers } from './securities.js'

export const SLN: FunctionDefinition = {
  name: 'SLN',
  category: 'financial',
  minArgs: 3,
  maxArgs: 3,
  args: ['number'],
  resultFormat: '$#,##0.00',
  syntax: 'SLN(cost, salvage, life)',
  description: 'Returns the straight-line depreciation of an asset for one period.',
  example: 'SLN(30000, 7500, 10)',
  impl: (args) => {
    const [cost, salvage, life] = args as number[]
    return life === 0 ? CellError.DIV0 : numberResult((cost - salvage) / life)
  },
}

export const SYD: FunctionDefinition = {
  name: 'SYD',
  category: 'financial',
  minArgs: 4,
  maxArgs: 4,
  args: ['number'],
  resultFormat: '$#,##0.00',
  syntax: 'SYD(cost, salvage, life, per)',
  description: "Returns the sum-of-years' digits depreciation of an asset for a period.",
  example: 'SYD(30000, 7500, 10, 1)',
  impl: (args) => {
    const [cost, salvage, life, period] = args as number[]
    if (life <= 0 || period <= 0 || period > life) return CellError.NUM
    return numberResult(((cost - salvage) * (life - period + 1) * 2) / (life * (life + 1)))
  },
}

export const DB: FunctionDefinition = {
  name: 'DB',
  category: 'financial',
  minArgs: 4,
  maxArgs: 5,
  args: ['number'],
  resultFormat: '$#,##0.00',
  syntax: 'DB(cost, salvage, life, period, [month])',
  description:
    'Returns the fixed-declining balance depreciation of an asset for a period; month is the number of months in the first year (default 12).',
  example: 'DB(1000000, 100000, 6, 1, 7)',
  impl: (args) => {
    const [cost, salvage, life, periodArg] = args as number[]
    const months = Math.trunc(optional(args[4], 12))
    const period = Math.trunc(periodArg)
    if (cost < 0 || salvage < 0 || life <= 0 || period <= 0 || months < 1 || months > 12) return CellError.NUM
    if (period > life + (months < 12 ? 1 : 0)) return CellError.NUM
    if (cost === 0) return 0
    // Excel rounds the rate to three decimals.
    const rate = Math.round((1 - Math.pow(salvage / cost, 1 / life)) * 1000) / 1000
    let total = (cost * rate * months) / 12
    if (period === 1) return numberResult(total)
    for (let p = 2; p <= period; p++) {
      const depreciation = p === Math.trunc(life) + 1 ? ((cost - total) * rate * (12 - months)) / 12 : (cost - total) * rate
      if (p === period) return numberResult(depreciation)
      total += depreciation
    }
    return CellError.NUM
  },
}

/** The double-declining (factor) depreciation of one whole period. */
function decliningPeriod(cost: number, salvage: number, life: number, period: number, factor: number): number {
  let rate = factor / life
  let before: number
  if (rate >= 1) {
    rate = 1
    before = period === 1 ? cost : 0
  } else before = cost * Math.pow(1 - rate, period - 1)
  const after = cost * Math.pow(1 - rate, period)
  const depreciation = after < salvage ? before - salvage : before - after
  return Math.max(0, depreciation)
}

export const DDB: FunctionDefinition = {
  name: 'DDB',
  category: 'financial',
  minArgs: 4,
  maxArgs: 5,
  args: ['number'],
  resultFormat: '$#,##0.00',
  syntax: 'DDB(cost, salvage, life, period, [factor])',
  description: 'Returns the double-declining balance depreciation of an asset for a period (or another factor, default 2).',
  example: 'DDB(2400, 300, 10*12, 1)',
  impl: (args) => {
    const [cost, salvage, life, period] = args as number[]
    const factor = optional(args[4], 2)
    if (cost < 0 || salvage < 0 || life <= 0 || period <= 0 || factor <= 0 || period > life) return CellError.NUM
    return numberResult(decliningPeriod(cost, salvage, life, period, factor))
  },
}

/**
 * The depreciation charged from the start of the asset's life to `period` (a fraction of a period counts
 * that fraction of the next period's charge), declining balance at `factor`, switching to straight line
 * over the remaining life once that charges more. VDB is the difference of two of these, which is how
 * Excel treats fractional start and end periods.
 */
function cumulativeDepreciation(cost: number, salvage: number, life: number, period: number, factor: number): number {
  const charge = (charged: number, elapsed: number): number => {
    const declining = Math.min((cost - charged) * (factor / life), cost - salvage - charged)
    const straightLine = (cost - charged - salvage) / (life - elapsed)
    return straightLine > declining ? straightLine : declining
  }
  const whole = Math.trunc(period)
  const fraction = period - whole
  let charged = 0
  for (let elapsed = 0; elapsed < whole; elapsed++) charged += charge(charged, elapsed)
  if (fraction > 0) charged += charge(charged, whole) * fraction
  return charged
}

export const VDB: FunctionDefinition = {
  name: 'VDB',
  category: 'financial',
  minArgs: 5,
  maxArgs: 7,
  args: ['number', 'number', 'number', 'number', 'number', 'number', 'boolean'],
  resultFormat: '$#,##0.00',
  syntax: 'VDB(cost, salvage, life, start_period, end_period, [factor], [no_switch])',
  description:
    'Returns the declining-balance depreciation of an asset between two periods, switching to straight line when that is larger unless no_switch is TRUE.',
  example: 'VDB(2400, 300, 10*365, 0, 1)',
  impl: (args) => {
    const [cost, salvage, life] = args as number[]
    const start = args[3] as number
    const end = args[4] as number
    const factor = optional(args[5], 2)
    const noSwitch = args[6] === true
    if (start < 0 || end < start || end > life || cost < 0 || salvage > cost || factor <= 0 || life <= 0) {
      return CellError.NUM
    }
    if (noSwitch) {
      const first = Math.floor(start)
      const last = Math.ceil(end)
      let total = 0
      for (let i = first + 1; i <= last; i++) {
        let term = decliningPeriod(cost, salvage, life, i, factor)
        if (i === first + 1) term *= Math.min(end, first + 1) - start
        else if (i === last) term *= end + 1 - last
        total += term
      }
      return numberResult(total)
    }
    return numberResult(cumulativeDepreciation(cost, salvage, life, end, factor) - cumulativeDepreciation(cost, salvage, life, start, factor))
  },
}

/** The arguments of AMORLINC and AMORDEGRC, checked as Excel does. */
function readAmortization(args: Arg[]) {
  const values = readNumbers(args, 6, [0])
  if (values instanceof CellError) return values
  const [cost, purchased, firstPeriod, salvage, period, rate, basisValue] = values
  const basis = readBasis(basisValue)
  if (basis instanceof CellError) return basis
  if (cost < 0 || salvage < 0 || salvage > cost || period < 0 || rate <= 0 || purchased < 0 || firstPeriod < purchased) {
    return CellError.NUM
  }
  // The first period is prorated by the fraction of the year from purchase to its end.
  const firstFraction = yearFraction(purchased, firstPeriod, basis)
  return { cost, salvage, period: Math.trunc(period), rate, firstFraction }
}

export const AMORLINC: FunctionDefinition = {
  name: 'AMORLINC',
  category: 'financial',
  minArgs: 6,
  maxArgs: 7,
  args: ['scalar'],
  resultFormat: '$#,##0.00',
  syntax: 'AMORLINC(cost, date_purchased, first_period, salvage, period, rate, [basis])',
  description: 'Returns the depreciation of an asset for an accounting period in the French linear system, the first period prorated.',
  example: 'AMORLINC(2400, DATE(2008,8,19), DATE(2008,12,31), 300, 1, 15%, 1)',
  impl: (args) => {
    const input = readAmortization(args)
    if (input instanceof CellError) return input
    const { cost, salvage, period, rate, firstFraction } = input
    const fullRate = cost * rate
    const firstRate = firstFraction * rate * cost
    const fullPeriods = Math.trunc((cost - salvage - firstRate) / fullRate)
    if (period === 0) return numberResult(firstRate)
    if (period <= fullPeriods) return numberResult(fullRate)
    if (period === fullPeriods + 1) return numberResult(Math.max(0, cost - salvage - fullRate * fullPeriods - firstRate))
    return 0
  },
}

export const AMORDEGRC: FunctionDefinition = {
  name: 'AMORDEGRC',
  category: 'financial',
  minArgs: 6,
  maxArgs: 7,
  args: ['scalar'],
  resultFormat: '$#,##0.00',
  syntax: 'AMORDEGRC(cost, date_purchased, first_period, salvage, period, rate, [basis])',
  description:
    'Returns the depreciation of an asset for an accounting period in the French declining system (the rate scaled by a coefficient for the asset life), rounded to whole units.',
  example: 'AMORDEGRC(2400, DATE(2008,8,19), DATE(2008,12,31), 300, 1, 15%, 1)',
  impl: (args) => {
    const input = readAmortization(args)
    if (input instanceof CellError) return input
    const { salvage, period, firstFraction } = input
    const life = 1 / input.rate
    // Excel refuses lives of 0–1, 1–2, 2–3 and 4–5 years.
    if ((life > 0 && life < 3) || (life > 4 && life < 5)) return CellError.NUM
    const coefficient = life < 5 ? 1.5 : life <= 6 ? 2 : 2.5
    const rate = input.rate * coefficient
    let cost = input.cost
    let depreciation = Math.round(firstFraction * rate * cost)
    cost -= depreciation
    let rest = cost - salvage
    for (let n = 0; n < period; n++) {
      depreciation = Math.round(rate * cost)
      rest -= depreciation
      if (rest < 0) return period - n <= 1 ? Math.round(cost * 0.5) : 0
      cost -= depreciation
    }
    return depreciation
  },
}

export const functions: readonly FunctionDefinition[] = [SLN, SYD, DB, DDB, VDB, AMORLINC, AMORDEGRC]
