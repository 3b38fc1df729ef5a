/**
 * The 1900 date system: serial 1 is 1900-01-01 and serial 60 is the non-existent 1900-02-29 that
 * Lotus 1-2-3 introduced and Excel kept, so every serial from 61 (1900-03-01) on is one day "late".
 * Times are fractions of a day.
 */

const MS_PER_DAY = 86_400_000
/** 1899-12-30, the day before serial 1 once the phantom 1900-02-29 is accounted for. */
const EPOCH_UTC = Date.UTC(1899, 11, 30)

/** Latest serial Excel accepts: 9999-12-31. */
export const MAX_DATE_SERIAL = 2_958_465

export interface CivilDate {
  year: number
  /** 1–12 */
  month: number
  /** 1–31 */
  day: number
}

/**
 * The serial of a calendar date, normalising out-of-range months and days as DATE does
 * (month 13 is January of the next year, day 0 the last day of the previous month).
 */
export function serialFromDate(year: number, month: number, day: number): number {
  const utc = Date.UTC(2000, 0, 1) // setUTCFullYear keeps years 0–99 literal, which Date.UTC would not
  const date = new Date(utc)
  date.setUTCFullYear(year, month - 1, 1)
  const daysToFirst = Math.round((date.getTime() - EPOCH_UTC) / MS_PER_DAY)
  // Real days before 1900-03-01 are one serial lower, because serial 60 is the phantom leap day. The first
  // of a month is never that day, so counting on from it linearly gives DATE(1900,2,29) = 60 as in Excel.
  const firstSerial = daysToFirst < 61 ? daysToFirst - 1 : daysToFirst
  return firstSerial + (day - 1)
}

/** The calendar date of the integer part of a serial (serial 60 is 1900-02-29). */
export function dateFromSerial(serial: number): CivilDate {
  const whole = Math.floor(serial)
  if (whole === 60) return { year: 1900, month: 2, day: 29 }
  if (whole === 0) return { year: 1900, month: 1, day: 0 }
  const days = whole < 60 ? whole + 1 : whole
  const date = new Date(EPOCH_UTC + days * MS_PER_DAY)
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() }
}

/** Day of the week of a serial, 0 = Sunday (serial 1, 1900-01-01, was a Sunday in Excel's calendar). */
export function weekdayFromSerial(serial: number): number {
  const whole = Math.floor(serial)
  return (((whole - 1) % 7) + 7) % 7
}

/** Hours, minutes, seconds and milliseconds of the fractional part of a serial, rounded to the millisecond. */
export function timeFromSerial(serial: number): { hours: number; minutes: number; seconds: number; ms: number } {
  const fraction = serial - Math.floor(serial)
  let totalMs = Math.round(fraction * MS_PER_DAY)
  if (totalMs >= MS_PER_DAY) totalMs = MS_PER_DAY - 1
  const hours = Math.floor(totalMs / 3_600_000)
  const minutes = Math.floor((totalMs % 3_600_000) / 60_000)
  const seconds = Math.floor((totalMs % 60_000) / 1000)
  return { hours, minutes, seconds, ms: totalMs % 1000 }
}

export function serialFromTime(hours: number, minutes: number, seconds: number): number {
  return (hours * 3600 + minutes * 60 + seconds) / 86_400
}

/** The serial of a JavaScript time, read in the local time zone as the wall clock shows it. */
export function serialFromJsDate(date: Date): number {
  const localAsUtc = Date.UTC(
    date.getFullYear(),
    date.getMonth(),
    date.getDate(),
    date.getHours(),
    date.getMinutes(),
    date.getSeconds(),
    date.getMilliseconds(),
  )
  const days = (localAsUtc - EPOCH_UTC) / MS_PER_DAY
  return days < 61 ? days - 1 : days
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
}
