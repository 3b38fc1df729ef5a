/**
 * Argument rules and calendar arithmetic shared by the date functions (and the bond functions of the
 * financial folder, which count days the same way).
 */
import { readNumber } from '../../input/parse-input.js'
import { MAX_DATE_SERIAL, dateFromSerial, daysInMonth, isLeapYear, serialFromDate } from '../../dates.js'
import type { CivilDate } from '../../dates.js'
import { CellError } from '../../values.js'
import { MISSING } from '../types.js'
import type { Arg } from '../types.js'

export { MAX_DATE_SERIAL, dateFromSerial, daysInMonth, isLeapYear, serialFromDate }
export type { CivilDate }

/**
 * A number argument as the Analysis ToolPak functions (EDATE, EOMONTH, WORKDAY, YEARFRAC, the bond
 * functions...) read it: numbers and numeric or date text are accepted, an empty cell is 0, but a
 * boolean is #VALUE! — unlike the built-in functions, which read TRUE as 1.
 */
export function strictNumber(value: Arg | undefined): number | CellError {
  if (value === undefined || value === MISSING || value === null) return 0
  if (typeof value === 'number') return value
  if (typeof value === 'string') {
    const reading = readNumber(value)
    return reading === undefined ? CellError.VALUE : reading.value
  }
  if (value instanceof CellError) return value
  return CellError.VALUE
}

/** An optional argument: absent, empty or an empty cell gives `fallback`; otherwise as {@link strictNumber}. */
export function optionalStrictNumber(value: Arg | undefined, fallback: number): number | CellError {
  if (value === undefined || value === MISSING || value === null) return fallback
  return strictNumber(value)
}

/** Whether a serial (already truncated or not) is a date Excel can show: 0 to 9999-12-31. */
export function isValidSerial(serial: number): boolean {
  return serial >= 0 && serial < MAX_DATE_SERIAL + 1
}

/** The serial `months` months after a date, with the day clamped to the end of the month (EDATE). */
export function addMonths(date: CivilDate, months: number): number {
  const total = date.year * 12 + (date.month - 1) + months
  const year = Math.floor(total / 12)
  const month = total - year * 12 + 1
  return serialFromDate(year, month, Math.min(date.day, daysInMonth(year, month)))
}

/** The serial of the last day of the month `months` months after a date (EOMONTH). */
export function endOfMonth(date: CivilDate, months: number): number {
  const total = date.year * 12 + (date.month - 1) + months
  const year = Math.floor(total / 12)
  const month = total - year * 12 + 1
  return serialFromDate(year, month, daysInMonth(year, month))
}

/** Whether a date is the last day of February (the 30/360 conventions treat it as the 30th). */
export function isLastDayOfFebruary(date: CivilDate): boolean {
  return date.month === 2 && date.day === daysInMonth(date.year, 2)
}

/** Days between two dates by a 30/360 convention given the adjusted day numbers. */
export function days360(start: CivilDate, end: CivilDate, startDay: number, endDay: number): number {
  return (end.year - start.year) * 360 + (end.month - start.month) * 30 + (endDay - startDay)
}

/**
 * The fraction of a year between two serials under a day-count basis (0 US 30/360, 1 actual/actual,
 * 2 actual/360, 3 actual/365, 4 European 30/360), as YEARFRAC computes it. Dates in either order.
 */
export function yearFraction(startSerial: number, endSerial: number, basis: number): number {
  let a = Math.floor(startSerial)
  let b = Math.floor(endSerial)
  if (a > b) [a, b] = [b, a]
  if (a === b) return 0
  const start = dateFromSerial(a)
  const end = dateFromSerial(b)
  switch (basis) {
    case 0: {
      let startDay = start.day
      let endDay = end.day
      if (startDay === 31 && endDay === 31) {
        startDay = 30
        endDay = 30
      } else if (startDay === 31) startDay = 30
      else if (startDay === 30 && endDay === 31) endDay = 30
      else if (isLastDayOfFebruary(start) && isLastDayOfFebruary(end)) {
        startDay = 30
        endDay = 30
      } else if (isLastDayOfFebruary(start)) startDay = 30
      return days360(start, end, startDay, endDay) / 360
    }
    case 1:
      return (b - a) / actualYearLength(start, end, a, b)
    case 2:
      return (b - a) / 360
    case 3:
      return (b - a) / 365
    default: {
      const startDay = Math.min(start.day, 30)
      const endDay = Math.min(end.day, 30)
      return days360(start, end, startDay, endDay) / 360
    }
  }
}

/** The year length actual/actual divides by: 365 or 366 within a year, else the average of the years spanned. */
function actualYearLength(start: CivilDate, end: CivilDate, a: number, b: number): number {
  const withinAYear =
    start.year === end.year ||
    (start.year + 1 === end.year && (start.month > end.month || (start.month === end.month && start.day >= end.day)))
  if (withinAYear) {
    if (start.year === end.year) return isLeapYear(start.year) ? 366 : 365
    return containsLeapDay(start, a, b) || (end.month === 2 && end.day === 29) ? 366 : 365
  }
  const years = end.year - start.year + 1
  const days = serialFromDate(end.year + 1, 1, 1) - serialFromDate(start.year, 1, 1)
  return days / years
}

function containsLeapDay(start: CivilDate, a: number, b: number): boolean {
  for (const year of [start.year, start.year + 1]) {
    if (!isLeapYear(year)) continue
    const leapDay = serialFromDate(year, 2, 29)
    if (leapDay >= a && leapDay <= b) return true
  }
  return false
}
