import { CellError } from '../../values.js'
import { MISSING } from '../types.js'
import type { FunctionDefinition } from '../types.js'
import {
  dateFromSerial,
  days360,
  daysInMonth,
  isLastDayOfFebruary,
  isValidSerial,
  optionalStrictNumber,
  serialFromDate,
  strictNumber,
  yearFraction,
} from './serials.js'

export const DAYS: FunctionDefinition = {
  name: 'DAYS',
  category: 'date',
  minArgs: 2,
  maxArgs: 2,
  args: ['number', 'number'],
  syntax: 'DAYS(end_date, start_date)',
  description: 'Returns the number of days from start_date to end_date.',
  example: 'DAYS(B1, A1)',
  impl: ([end, start]) => {
    const a = Math.floor(start as number)
    const b = Math.floor(end as number)
    if (!isValidSerial(a) || !isValidSerial(b)) return CellError.NUM
    return b - a
  },
}

/** The date of a serial with its time rounded to the second, as DAYS360 reads 23:59:59.9 as the next day. */
function roundedDate(serial: number) {
  return dateFromSerial(Math.round(serial * 86_400) / 86_400)
}

export const DAYS360: FunctionDefinition = {
  name: 'DAYS360',
  category: 'date',
  minArgs: 2,
  maxArgs: 3,
  args: ['number', 'number', 'boolean'],
  syntax: 'DAYS360(start_date, end_date, [method])',
  description:
    'Returns the number of days between two dates on a 360-day year (twelve 30-day months): US method by default, European when method is TRUE.',
  example: 'DAYS360(A1, B1)',
  impl: (args) => {
    const startSerial = args[0] as number
    const endSerial = args[1] as number
    const european = args.length > 2 && args[2] !== MISSING ? (args[2] as boolean) : false
    if (!isValidSerial(startSerial) || !isValidSerial(endSerial)) return CellError.NUM
    const start = roundedDate(startSerial)
    const end = roundedDate(endSerial)
    let startDay = start.day
    let endDay = end.day
    if (european) {
      startDay = Math.min(startDay, 30)
      endDay = Math.min(endDay, 30)
      return days360(start, end, startDay, endDay)
    }
    if (startDay === 31 || isLastDayOfFebruary(start)) startDay = 30
    if (endDay === 31) {
      if (startDay < 30) {
        // The US method moves a 31st end date to the 1st of the next month.
        return days360(start, { ...end, month: end.month + 1 }, startDay, 1)
      }
      endDay = 30
    }
    return days360(start, end, startDay, endDay)
  },
}

export const YEARFRAC: FunctionDefinition = {
  name: 'YEARFRAC',
  category: 'date',
  minArgs: 2,
  maxArgs: 3,
  args: ['scalar', 'scalar', 'scalar'],
  syntax: 'YEARFRAC(start_date, end_date, [basis])',
  description:
    'Returns the fraction of a year between two dates under a day-count basis: 0 US 30/360, 1 actual/actual, 2 actual/360, 3 actual/365, 4 European 30/360.',
  example: 'YEARFRAC(A1, B1, 1)',
  impl: (args) => {
    const start = strictNumber(args[0])
    if (start instanceof CellError) return start
    const end = strictNumber(args[1])
    if (end instanceof CellError) return end
    const basisArg = optionalStrictNumber(args[2], 0)
    if (basisArg instanceof CellError) return basisArg
    const basis = Math.trunc(basisArg)
    if (!isValidSerial(start) || !isValidSerial(end)) return CellError.NUM
    if (basis < 0 || basis > 4) return CellError.NUM
    return yearFraction(start, end, basis)
  },
}

export const DATEDIF: FunctionDefinition = {
  name: 'DATEDIF',
  category: 'date',
  minArgs: 3,
  maxArgs: 3,
  args: ['number', 'number', 'text'],
  syntax: 'DATEDIF(start_date, end_date, unit)',
  description:
    'Returns the whole years ("Y"), months ("M") or days ("D") between two dates, or the days or months left over ("MD", "YM", "YD").',
  example: 'DATEDIF(A1, B1, "Y")',
  impl: (args) => {
    const a = Math.floor(args[0] as number)
    const b = Math.floor(args[1] as number)
    if (!isValidSerial(a) || !isValidSerial(b)) return CellError.NUM
    if (a > b) return CellError.NUM
    const start = dateFromSerial(a)
    const end = dateFromSerial(b)
    const dayBefore = end.day < start.day ? 1 : 0
    const months = (end.year - start.year) * 12 + end.month - start.month - dayBefore
    switch ((args[2] as string).toUpperCase()) {
      case 'Y':
        return Math.floor(months / 12)
      case 'M':
        return months
      case 'D':
        return b - a
      case 'YM':
        return months % 12
      case 'MD':
        // Excel counts from start's day in the month before end's month, through DATE's carry-over,
        // which can give a negative number (January 31 to March 1 is -2).
        return end.day >= start.day ? end.day - start.day : b - serialFromDate(end.year, end.month - 1, start.day)
      case 'YD': {
        const sameYear =
          end.month > start.month || (end.month === start.month && end.day >= start.day) ? end.year : end.year - 1
        const day = Math.min(start.day, daysInMonth(sameYear, start.month))
        return b - serialFromDate(sameYear, start.month, day)
      }
      default:
        return CellError.NUM
    }
  },
}

export const functions: readonly FunctionDefinition[] = [DAYS, DAYS360, YEARFRAC, DATEDIF]
