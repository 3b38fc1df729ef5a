import { readNumber } from '../../input/parse-input.js'
import { timeFromSerial } from '../../dates.js'
import { CellError } from '../../values.js'
import type { Arg, FunctionDefinition } from '../types.js'
import {
  MAX_DATE_SERIAL,
  addMonths,
  dateFromSerial,
  endOfMonth,
  isValidSerial,
  serialFromDate,
  strictNumber,
} from './serials.js'

/** The calendar date of a serial argument, or #NUM! outside 0 to 9999-12-31. */
function datePart(serial: number, part: 'year' | 'month' | 'day'): number | CellError {
  if (!isValidSerial(serial)) return CellError.NUM
  const date = dateFromSerial(serial)
  if (Math.floor(serial) === 0) return part === 'year' ? 1900 : part === 'month' ? 1 : 0
  return date[part]
}

export const DATE: FunctionDefinition = {
  name: 'DATE',
  category: 'date',
  minArgs: 3,
  maxArgs: 3,
  args: ['number', 'number', 'number'],
  resultFormat: 'm/d/yyyy',
  syntax: 'DATE(year, month, day)',
  description: 'Returns the serial number of a date; months and days outside their range carry over.',
  example: 'DATE(2024, 12, 31)',
  impl: (args) => {
    let year = Math.trunc(args[0] as number)
    const month = Math.trunc(args[1] as number)
    const day = Math.trunc(args[2] as number)
    if (year < 0 || year >= 10000) return CellError.NUM
    if (year < 1900) year += 1900
    const serial = serialFromDate(year, month, day)
    return serial < 0 || serial > MAX_DATE_SERIAL ? CellError.NUM : serial
  },
}

export const YEAR: FunctionDefinition = {
  name: 'YEAR',
  category: 'date',
  minArgs: 1,
  maxArgs: 1,
  args: ['number'],
  syntax: 'YEAR(serial_number)',
  description: 'Returns the year of a date, from 1900 to 9999.',
  example: 'YEAR(A1)',
  impl: ([serial]) => datePart(serial as number, 'year'),
}

export const MONTH: FunctionDefinition = {
  name: 'MONTH',
  category: 'date',
  minArgs: 1,
  maxArgs: 1,
  args: ['number'],
  syntax: 'MONTH(serial_number)',
  description: 'Returns the month of a date, from 1 (January) to 12 (December).',
  example: 'MONTH(A1)',
  impl: ([serial]) => datePart(serial as number, 'month'),
}

export const DAY: FunctionDefinition = {
  name: 'DAY',
  category: 'date',
  minArgs: 1,
  maxArgs: 1,
  args: ['number'],
  syntax: 'DAY(serial_number)',
  description: 'Returns the day of the month of a date, from 1 to 31.',
  example: 'DAY(A1)',
  impl: ([serial]) => datePart(serial as number, 'day'),
}

/** EDATE and EOMONTH: a start date and a whole number of months, both read strictly. */
function monthShift(args: Arg[], shift: typeof addMonths): number | CellError {
  const start = strictNumber(args[0])
  if (start instanceof CellError) return start
  const months = strictNumber(args[1])
  if (months instanceof CellError) return months
  if (!isValidSerial(start)) return CellError.NUM
  const serial = shift(dateFromSerial(start), Math.trunc(months))
  return isValidSerial(serial) ? serial : CellError.NUM
}

export const EDATE: FunctionDefinition = {
  name: 'EDATE',
  category: 'date',
  minArgs: 2,
  maxArgs: 2,
  args: ['scalar', 'scalar'],
  resultFormat: 'm/d/yyyy',
  syntax: 'EDATE(start_date, months)',
  description: 'Returns the date a number of months before or after a start date.',
  example: 'EDATE(A1, 3)',
  impl: (args) => monthShift(args, addMonths),
}

export const EOMONTH: FunctionDefinition = {
  name: 'EOMONTH',
  category: 'date',
  minArgs: 2,
  maxArgs: 2,
  args: ['scalar', 'scalar'],
  resultFormat: 'm/d/yyyy',
  syntax: 'EOMONTH(start_date, months)',
  description: 'Returns the last day of the month a number of months before or after a start date.',
  example: 'EOMONTH(A1, 0)',
  impl: (args) => monthShift(args, endOfMonth),
}

export const TIME: FunctionDefinition = {
  name: 'TIME',
  category: 'date',
  minArgs: 3,
  maxArgs: 3,
  args: ['number', 'number', 'number'],
  resultFormat: 'h:mm AM/PM',
  syntax: 'TIME(hour, minute, second)',
  description: 'Returns the time of day as a fraction of a day; a total of 24 hours or more wraps around.',
  example: 'TIME(14, 30, 0)',
  impl: (args) => {
    const [hours, minutes, seconds] = (args as number[]).map(Math.trunc)
    if (hours > 32767 || minutes > 32767 || seconds > 32767) return CellError.NUM
    const total = hours * 3600 + minutes * 60 + seconds
    if (total < 0) return CellError.NUM
    return (total % 86_400) / 86_400
  },
}

/** Reads date or time text as VALUE does; #VALUE! for anything else (numbers are not accepted). */
function readDateText(text: string): number | CellError {
  const trimmed = text.trim()
  if (/^[+-]?[\d.,]+%?$/.test(trimmed)) return CellError.VALUE
  const reading = readNumber(trimmed)
  return reading === undefined ? CellError.VALUE : reading.value
}

export const DATEVALUE: FunctionDefinition = {
  name: 'DATEVALUE',
  category: 'date',
  minArgs: 1,
  maxArgs: 1,
  args: ['text'],
  resultFormat: 'm/d/yyyy',
  syntax: 'DATEVALUE(date_text)',
  description: 'Converts a date written as text into its serial number, ignoring any time.',
  example: 'DATEVALUE("2024-03-31")',
  impl: ([text]) => {
    const serial = readDateText(text as string)
    if (serial instanceof CellError) return serial
    const day = Math.floor(serial)
    return day < 1 || day > MAX_DATE_SERIAL ? CellError.VALUE : day
  },
}

export const TIMEVALUE: FunctionDefinition = {
  name: 'TIMEVALUE',
  category: 'date',
  minArgs: 1,
  maxArgs: 1,
  args: ['text'],
  resultFormat: 'h:mm AM/PM',
  syntax: 'TIMEVALUE(time_text)',
  description: 'Converts a time written as text into a fraction of a day, ignoring any date.',
  example: 'TIMEVALUE("6:45 PM")',
  impl: ([text]) => {
    const trimmed = (text as string).trim()
    // 24:00 (and 23:59:60) is accepted and wraps to midnight.
    const overflow = /^(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?$/.exec(trimmed)
    if (overflow) {
      const total = Number(overflow[1]) * 3600 + Number(overflow[2]) * 60 + Number(overflow[3] ?? 0)
      if (total === 86_400) return 0
    }
    const serial = readDateText(trimmed)
    if (serial instanceof CellError) return serial
    return serial - Math.floor(serial)
  },
}

/** HOUR, MINUTE, SECOND: the part of the time of day, rounded to the nearest second as Excel shows it. */
function timePart(serial: number, part: 'hours' | 'minutes' | 'seconds'): number | CellError {
  if (serial < 0 || serial >= MAX_DATE_SERIAL + 1) return CellError.NUM
  const totalSeconds = Math.round((serial - Math.floor(serial)) * 86_400) % 86_400
  const time = timeFromSerial(totalSeconds / 86_400)
  return time[part]
}

export const HOUR: FunctionDefinition = {
  name: 'HOUR',
  category: 'date',
  minArgs: 1,
  maxArgs: 1,
  args: ['number'],
  syntax: 'HOUR(serial_number)',
  description: 'Returns the hour of a time, from 0 to 23.',
  example: 'HOUR(A1)',
  impl: ([serial]) => timePart(serial as number, 'hours'),
}

export const MINUTE: FunctionDefinition = {
  name: 'MINUTE',
  category: 'date',
  minArgs: 1,
  maxArgs: 1,
  args: ['number'],
  syntax: 'MINUTE(serial_number)',
  description: 'Returns the minute of a time, from 0 to 59.',
  example: 'MINUTE(A1)',
  impl: ([serial]) => timePart(serial as number, 'minutes'),
}

export const SECOND: FunctionDefinition = {
  name: 'SECOND',
  category: 'date',
  minArgs: 1,
  maxArgs: 1,
  args: ['number'],
  syntax: 'SECOND(serial_number)',
  description: 'Returns the second of a time, from 0 to 59.',
  example: 'SECOND(A1)',
  impl: ([serial]) => timePart(serial as number, 'seconds'),
}

export const functions: readonly FunctionDefinition[] = [
  DATE,
  YEAR,
  MONTH,
  DAY,
  EDATE,
  EOMONTH,
  TIME,
  DATEVALUE,
  TIMEVALUE,
  HOUR,
  MINUTE,
  SECOND,
]
