/**
 * Day counting for the securities functions (bonds, bills, discounted securities), as Excel's Analysis
 * ToolPak does it for the five bases: 0 US (NASD) 30/360, 1 actual/actual, 2 actual/360,
 * 3 actual/365, 4 European 30/360.
 *
 * Coupon dates are found by stepping back from maturity by whole periods, each step from the previous
 * date with the day clamped to the month's length (so a 30 August maturity gives 28 February, then
 * 28 August); when maturity is the last day of its month every coupon date is a month end.
 */
import { CellError } from '../../values.js'
import { dateFromSerial, daysInMonth, isLeapYear, serialFromDate } from '../date/serials.js'
import type { CivilDate } from '../date/serials.js'

export type Basis = 0 | 1 | 2 | 3 | 4

export interface Day extends CivilDate {
  readonly serial: number
}

export function dayOf(serial: number): Day {
  const whole = Math.floor(serial)
  return { ...dateFromSerial(whole), serial: whole }
}

function makeDay(year: number, month: number, day: number): Day {
  return dayOf(serialFromDate(year, month, day))
}

function isLastDay(date: CivilDate): boolean {
  return date.day === daysInMonth(date.year, date.month)
}

function isLastDayOfFebruary(date: CivilDate): boolean {
  return date.month === 2 && isLastDay(date)
}

/** A date moved by whole months, the day clamped to the month's length, or put at its end. */
export function shiftMonths(date: CivilDate, months: number, toMonthEnd: boolean): Day {
  const total = date.year * 12 + (date.month - 1) + months
  const year = Math.floor(total / 12)
  const month = total - year * 12 + 1
  const last = daysInMonth(year, month)
  return makeDay(year, month, toMonthEnd ? last : Math.min(date.day, last))
}

function diff360(startDay: number, start: CivilDate, endDay: number, end: CivilDate): number {
  return (end.year - start.year) * 360 + (end.month - start.month) * 30 + (endDay - startDay)
}

/** US 30/360; `bothDates` also treats a last-of-February start as the 30th when moving the end. */
export function days360Us(start: CivilDate, end: CivilDate, bothDates = false): number {
  let startDay = start.day
  let endDay = end.day
  if (isLastDayOfFebruary(end) && (isLastDayOfFebruary(start) || bothDates)) endDay = 30
  if (endDay === 31 && (startDay >= 30 || bothDates)) endDay = 30
  if (startDay === 31) startDay = 30
  if (isLastDayOfFebruary(start)) startDay = 30
  return diff360(startDay, start, endDay, end)
}

export function days360European(start: CivilDate, end: CivilDate): number {
  return diff360(Math.min(start.day, 30), start, Math.min(end.day, 30), end)
}

function actual(start: Day, end: Day): number {
  return end.serial - start.serial
}

/** Days from start to end under a basis; `denominator` picks the conventions used for period lengths. */
export function daysBetween(start: Day, end: Day, basis: Basis, denominator = false): number {
  switch (basis) {
    case 0:
      return days360Us(start, end)
    case 4:
      return days360European(start, end)
    case 2:
      return denominator ? days360Us(start, end) : actual(start, end)
    default:
      return actual(start, end)
  }
}

/** Whether two dates are at most a year apart (actual/actual uses a 365 or 366-day year then). */
function withinAYear(start: CivilDate, end: CivilDate): boolean {
  if (start.year === end.year) return true
  return end.year === start.year + 1 && (start.month > end.month || (start.month === end.month && start.day >= end.day))
}

function spansLeapDay(start: CivilDate, end: CivilDate): boolean {
  if (start.year === end.year) return isLeapYear(start.year) && start.month <= 2 && end.month > 2
  if (end.year !== start.year + 1) return false
  if (isLeapYear(start.year)) return start.month <= 2
  if (isLeapYear(end.year)) return end.month > 2
  return false
}

/** The length of the year a basis divides by, for the span from start to end. */
export function daysInYear(start: Day, end: Day, basis: Basis): number {
  switch (basis) {
    case 1: {
      if (!withinAYear(start, end)) {
        const years = end.year - start.year + 1
        return (serialFromDate(end.year + 1, 1, 1) - serialFromDate(start.year, 1, 1)) / years
      }
      const leap =
        (start.year === end.year && isLeapYear(start.year)) || (end.month === 2 && end.day === 29) || spansLeapDay(start, end)
      return leap ? 366 : 365
    }
    case 3:
      return 365
    default:
      return 360
  }
}

/** The coupon dates around settlement: the previous one (on or before) and the next one (after). */
export function couponDates(settlement: Day, maturity: Day, frequency: number): { previous: Day; next: Day } {
  const months = 12 / frequency
  const monthEnd = isLastDay(maturity)
  let front: Day = maturity
  let trailing: Day = settlement
  while (front.serial > settlement.serial) {
    trailing = front
    front = shiftMonths(front, -months, monthEnd)
  }
  return { previous: front, next: trailing }
}

/** The number of coupons payable between settlement and maturity. */
export function couponCount(settlement: Day, maturity: Day, frequency: number): number {
  const { previous } = couponDates(settlement, maturity, frequency)
  const months = (maturity.year - previous.year) * 12 + (maturity.month - previous.month)
  return (months * frequency) / 12
}

/** The length in days of the coupon period holding settlement. */
export function couponDays(settlement: Day, maturity: Day, frequency: number, basis: Basis): number {
  if (basis === 1) {
    const { previous, next } = couponDates(settlement, maturity, frequency)
    return actual(previous, next)
  }
  return (basis === 3 ? 365 : 360) / frequency
}

/** Days from the previous coupon date to settlement. */
export function couponDaysBefore(settlement: Day, maturity: Day, frequency: number, basis: Basis): number {
  const { previous } = couponDates(settlement, maturity, frequency)
  if (basis === 0) return days360Us(previous, settlement)
  if (basis === 4) return days360European(previous, settlement)
  return actual(previous, settlement)
}

/** Days from settlement to the next coupon date. */
export function couponDaysAfter(settlement: Day, maturity: Day, frequency: number, basis: Basis): number {
  const { previous, next } = couponDates(settlement, maturity, frequency)
  if (basis === 0) {
    const end = shiftMonths(previous, 12 / frequency, isLastDay(maturity))
    return days360Us(previous, end, true) - days360Us(previous, settlement)
  }
  if (basis === 4) return days360European(settlement, next)
  return actual(settlement, next)
}

/** Reads a basis argument: 0 to 4 after truncation, else #NUM!. */
export function readBasis(value: number | undefined): Basis | CellError {
  const basis = Math.trunc(value ?? 0)
  return basis >= 0 && basis <= 4 ? (basis as Basis) : CellError.NUM
}

/** Reads a coupon frequency: 1, 2 or 4 after truncation, else #NUM!. */
export function readFrequency(value: number): number | CellError {
  const frequency = Math.trunc(value)
  return frequency === 1 || frequency === 2 || frequency === 4 ? frequency : CellError.NUM
}
