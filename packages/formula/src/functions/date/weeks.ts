import { weekdayFromSerial } from '../../dates.js'
import { CellError } from '../../values.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { isValidSerial, serialFromDate, dateFromSerial, strictNumber } from './serials.js'

/** For each WEEKDAY return_type: the weekday (0 = Sunday) that counts as the first, and the first number. */
const WEEKDAY_TYPES: Record<number, { firstDay: number; base: number }> = {
  1: { firstDay: 0, base: 1 },
  2: { firstDay: 1, base: 1 },
  3: { firstDay: 1, base: 0 },
  11: { firstDay: 1, base: 1 },
  12: { firstDay: 2, base: 1 },
  13: { firstDay: 3, base: 1 },
  14: { firstDay: 4, base: 1 },
  15: { firstDay: 5, base: 1 },
  16: { firstDay: 6, base: 1 },
  17: { firstDay: 0, base: 1 },
}

function optionalType(arg: Arg | undefined, fallback: number): number {
  return arg === undefined || arg === MISSING ? fallback : Math.trunc(arg as number)
}

export const WEEKDAY: FunctionDefinition = {
  name: 'WEEKDAY',
  category: 'date',
  minArgs: 1,
  maxArgs: 2,
  args: ['number', 'number'],
  syntax: 'WEEKDAY(serial_number, [return_type])',
  description: 'Returns the day of the week of a date: 1 (Sunday) to 7 (Saturday) by default.',
  example: 'WEEKDAY(A1, 2)',
  impl: (args) => {
    const serial = args[0] as number
    const type = WEEKDAY_TYPES[optionalType(args[1], 1)]
    if (!type) return CellError.NUM
    if (!isValidSerial(serial)) return CellError.NUM
    return ((weekdayFromSerial(serial) - type.firstDay + 7) % 7) + type.base
  },
}

/** WEEKNUM return types: the weekday (0 = Sunday) weeks start on; 21 is the ISO week. */
const WEEKNUM_START: Record<number, number> = { 1: 0, 2: 1, 11: 1, 12: 2, 13: 3, 14: 4, 15: 5, 16: 6, 17: 0 }

/** The ISO 8601 week number of a serial. */
function isoWeek(serial: number): number {
  const day = Math.floor(serial)
  const mondayBased = (weekdayFromSerial(day) + 6) % 7
  const thursday = day - mondayBased + 3
  const { year } = dateFromSerial(thursday)
  return Math.floor((thursday - serialFromDate(year, 1, 1)) / 7) + 1
}

export const WEEKNUM: FunctionDefinition = {
  name: 'WEEKNUM',
  category: 'date',
  minArgs: 1,
  maxArgs: 2,
  args: ['scalar', 'scalar'],
  syntax: 'WEEKNUM(serial_number, [return_type])',
  description:
    'Returns the week of the year of a date; week 1 contains January 1 (weeks start on Sunday by default, type 21 is the ISO week).',
  example: 'WEEKNUM(A1, 2)',
  impl: (args) => {
    const serial = strictNumber(args[0])
    if (serial instanceof CellError) return serial
    const typeArg = args[1] === undefined || args[1] === MISSING || args[1] === null ? 1 : strictNumber(args[1])
    if (typeArg instanceof CellError) return typeArg
    if (!isValidSerial(serial)) return CellError.NUM
    const type = Math.trunc(typeArg)
    if (type === 21) return isoWeek(serial)
    const startDay = WEEKNUM_START[type]
    if (startDay === undefined) return CellError.NUM
    const day = Math.floor(serial)
    const { year } = dateFromSerial(day)
    const januaryFirst = day === 0 ? 0 : serialFromDate(year, 1, 1)
    const shift = (weekdayFromSerial(januaryFirst) - startDay + 7) % 7
    return Math.floor((day - januaryFirst + shift) / 7) + 1
  },
}

export const ISOWEEKNUM: FunctionDefinition = {
  name: 'ISOWEEKNUM',
  category: 'date',
  minArgs: 1,
  maxArgs: 1,
  args: ['number'],
  syntax: 'ISOWEEKNUM(date)',
  description: 'Returns the ISO 8601 week number of a date (weeks start on Monday; week 1 holds the first Thursday).',
  example: 'ISOWEEKNUM(A1)',
  impl: ([serial]) => (isValidSerial(serial as number) ? isoWeek(serial as number) : CellError.NUM),
}

export const functions: readonly FunctionDefinition[] = [WEEKDAY, WEEKNUM, ISOWEEKNUM]
