import { weekdayFromSerial } from '../../dates.js'
import { CellError } from '../../values.js'
import { forEachCell } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { isValidSerial, strictNumber } from './serials.js'

/** Weekend days indexed by weekday (0 = Sunday). */
type WeekendMask = readonly boolean[]

/** The weekend numbers of NETWORKDAYS.INTL and WORKDAY.INTL, as the weekdays (0 = Sunday) they rest on. */
const WEEKEND_CODES: Record<number, readonly number[]> = {
  1: [6, 0],
  2: [0, 1],
  3: [1, 2],
  4: [2, 3],
  5: [3, 4],
  6: [4, 5],
  7: [5, 6],
  11: [0],
  12: [1],
  13: [2],
  14: [3],
  15: [4],
  16: [5],
  17: [6],
}

const SATURDAY_SUNDAY: WeekendMask = maskOf([6, 0])

function maskOf(days: readonly number[]): WeekendMask {
  const mask = new Array<boolean>(7).fill(false)
  for (const day of days) mask[day] = true
  return mask
}

/** Reads the weekend argument: a code, or seven 0/1 characters from Monday to Sunday. */
function readWeekend(arg: Arg | undefined): WeekendMask | CellError {
  if (arg === undefined || arg === MISSING || arg === null) return SATURDAY_SUNDAY
  if (arg instanceof CellError) return arg
  if (typeof arg === 'string') {
    if (!/^[01]{7}$/.test(arg)) return CellError.VALUE
    if (arg === '1111111') return CellError.VALUE
    const mask = new Array<boolean>(7).fill(false)
    for (let i = 0; i < 7; i++) mask[(i + 1) % 7] = arg[i] === '1'
    return mask
  }
  if (typeof arg !== 'number') return CellError.VALUE
  const days = WEEKEND_CODES[Math.trunc(arg)]
  return days ? maskOf(days) : CellError.NUM
}

/** The holiday serials of a range, array or single value; text that is not a date is #VALUE!. */
function readHolidays(arg: Arg | undefined): Set<number> | CellError {
  const holidays = new Set<number>()
  if (arg === undefined || arg === MISSING) return holidays
  let error: CellError | undefined
  forEachCell(arg, (value) => {
    if (value === null) return
    const serial = strictNumber(value)
    if (serial instanceof CellError) {
      error = serial
      return false
    }
    if (!isValidSerial(serial)) {
      error = CellError.NUM
      return false
    }
    holidays.add(Math.floor(serial))
  })
  return error ?? holidays
}

function isWorkday(serial: number, weekend: WeekendMask, holidays: Set<number>): boolean {
  return !weekend[weekdayFromSerial(serial)] && !holidays.has(serial)
}

/** Counts working days from start to end inclusive, negative when end is before start. */
function networkDays(args: Arg[], weekendArg: Arg | undefined, holidaysArg: Arg | undefined): number | CellError {
  const start = strictNumber(args[0])
  if (start instanceof CellError) return start
  const end = strictNumber(args[1])
  if (end instanceof CellError) return end
  if (!isValidSerial(start) || !isValidSerial(end)) return CellError.NUM
  const weekend = readWeekend(weekendArg)
  if (weekend instanceof CellError) return weekend
  const holidays = readHolidays(holidaysArg)
  if (holidays instanceof CellError) return holidays
  const first = Math.floor(Math.min(start, end))
  const last = Math.floor(Math.max(start, end))
  const restDays = weekend.filter(Boolean).length
  // Whole weeks hold the same number of working days; only the remainder is walked day by day.
  const span = last - first + 1
  const weeks = Math.floor(span / 7)
  let count = weeks * (7 - restDays)
  for (let day = first + weeks * 7; day <= last; day++) if (!weekend[weekdayFromSerial(day)]) count++
  for (const holiday of holidays) if (holiday >= first && holiday <= last && !weekend[weekdayFromSerial(holiday)]) count--
  return start <= end ? count : -count
}

/** The date a number of working days away from start (start itself never counts). */
function workday(args: Arg[], weekendArg: Arg | undefined, holidaysArg: Arg | undefined): number | CellError {
  const start = strictNumber(args[0])
  if (start instanceof CellError) return start
  const daysArg = strictNumber(args[1])
  if (daysArg instanceof CellError) return daysArg
  if (!isValidSerial(start)) return CellError.NUM
  const weekend = readWeekend(weekendArg)
  if (weekend instanceof CellError) return weekend
  const holidays = readHolidays(holidaysArg)
  if (holidays instanceof CellError) return holidays
  let remaining = Math.trunc(daysArg)
  const step = remaining < 0 ? -1 : 1
  let day = Math.floor(start)
  const workdaysPerWeek = 7 - weekend.filter(Boolean).length
  // Jump whole weeks while no holiday can be crossed, then walk.
  if (holidays.size === 0 && Math.abs(remaining) > 7) {
    const weeks = Math.floor(Math.abs(remaining) / workdaysPerWeek) - 1
    if (weeks > 0) {
      day += step * weeks * 7
      remaining -= step * weeks * workdaysPerWeek
    }
  }
  while (remaining !== 0) {
    day += step
    if (day < 0 || day > 3_000_000) return CellError.NUM
    if (isWorkday(day, weekend, holidays)) remaining -= step
  }
  return isValidSerial(day) ? day : CellError.NUM
}

export const NETWORKDAYS: FunctionDefinition = {
  name: 'NETWORKDAYS',
  category: 'date',
  minArgs: 2,
  maxArgs: 3,
  args: ['scalar', 'scalar', 'any'],
  syntax: 'NETWORKDAYS(start_date, end_date, [holidays])',
  description: 'Returns the number of working days (Monday to Friday, less holidays) between two dates, both included.',
  example: 'NETWORKDAYS(A1, B1, H1:H10)',
  impl: (args) => networkDays(args, undefined, args[2]),
}

export const NETWORKDAYS_INTL: FunctionDefinition = {
  name: 'NETWORKDAYS.INTL',
  category: 'date',
  minArgs: 2,
  maxArgs: 4,
  args: ['scalar', 'scalar', 'scalar', 'any'],
  syntax: 'NETWORKDAYS.INTL(start_date, end_date, [weekend], [holidays])',
  description:
    'Returns the number of working days between two dates, with the weekend given as a code or a 7-character mask such as "0000011".',
  example: 'NETWORKDAYS.INTL(A1, B1, 7)',
  impl: (args) => networkDays(args, args[2], args[3]),
}

export const WORKDAY: FunctionDefinition = {
  name: 'WORKDAY',
  category: 'date',
  minArgs: 2,
  maxArgs: 3,
  args: ['scalar', 'scalar', 'any'],
  resultFormat: 'm/d/yyyy',
  syntax: 'WORKDAY(start_date, days, [holidays])',
  description: 'Returns the date a number of working days (Monday to Friday, less holidays) before or after a start date.',
  example: 'WORKDAY(A1, 10)',
  impl: (args) => workday(args, undefined, args[2]),
}

export const WORKDAY_INTL: FunctionDefinition = {
  name: 'WORKDAY.INTL',
  category: 'date',
  minArgs: 2,
  maxArgs: 4,
  args: ['scalar', 'scalar', 'scalar', 'any'],
  resultFormat: 'm/d/yyyy',
  syntax: 'WORKDAY.INTL(start_date, days, [weekend], [holidays])',
  description: 'Returns the date a number of working days away from a start date, with a custom weekend.',
  example: 'WORKDAY.INTL(A1, 10, 11)',
  impl: (args) => workday(args, args[2], args[3]),
}

export const functions: readonly FunctionDefinition[] = [NETWORKDAYS, NETWORKDAYS_INTL, WORKDAY, WORKDAY_INTL]
