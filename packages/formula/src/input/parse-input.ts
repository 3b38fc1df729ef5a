/**
 * Reading what a user types into a cell, as Excel does: numbers with thousands separators, currency,
 * percentages, parentheses for negatives, exponents, dates and times, booleans, error literals. The
 * same reader converts text to numbers in arithmetic (`="1,000"+1` is 1001).
 */
import { serialFromDate, serialFromTime, daysInMonth } from '../dates.js'
import { errorFromText } from '../values.js'
import type { Scalar } from '../values.js'

/** A number read from text, with the number format Excel would give the cell. */
export interface NumberReading {
  value: number
  /** A format code to show the number as it was typed (percent, currency, date...), if not General. */
  format?: string
}

export type CellInput =
  | { kind: 'empty' }
  | { kind: 'formula'; text: string }
  | { kind: 'value'; value: Exclude<Scalar, null>; format?: string }

/** Classifies a raw cell input. Formulas keep their text (with '='), everything else becomes a value. */
export function parseCellInput(input: string | number | boolean | null | undefined): CellInput {
  if (input === null || input === undefined || input === '') return { kind: 'empty' }
  if (typeof input === 'number') return Number.isFinite(input) ? { kind: 'value', value: input } : { kind: 'empty' }
  if (typeof input === 'boolean') return { kind: 'value', value: input }
  if (input.charCodeAt(0) === 61 /* = */ && input.length > 1) return { kind: 'formula', text: input }
  if (input.charCodeAt(0) === 39 /* ' */) return { kind: 'value', value: input.slice(1) }
  const trimmed = input.trim()
  if (trimmed === '') return { kind: 'value', value: input }
  const upper = trimmed.toUpperCase()
  if (upper === 'TRUE') return { kind: 'value', value: true }
  if (upper === 'FALSE') return { kind: 'value', value: false }
  if (trimmed.charCodeAt(0) === 35 /* # */) {
    const error = errorFromText(trimmed)
    if (error) return { kind: 'value', value: error }
  }
  const reading = readNumber(trimmed)
  if (reading) return { kind: 'value', value: reading.value, format: reading.format }
  return { kind: 'value', value: input }
}

/** Integers of up to this many digits are exact as numbers and print as they are written. */
const EXACT_INTEGER_DIGITS = 15

/**
 * The number an input stands for when it is one or a text that prints exactly as that number does
 * ('42', '-3.5', not '042', '1.50', '1e3' or ' 7', which keep how they were typed or a format);
 * undefined otherwise. What parseCellInput reads from such a text, without its general parsing.
 */
export function plainNumber(input: string | number | boolean | null | undefined): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) ? input : undefined
  if (typeof input !== 'string') return undefined
  const length = input.length
  if (length === 0) return undefined
  let i = input.charCodeAt(0) === 45 /* - */ ? 1 : 0
  const first = i
  let point = -1
  for (; i < length; i++) {
    const code = input.charCodeAt(i)
    if (code === 46 /* . */ && point < 0) point = i
    else if (code < 48 || code > 57) return undefined
  }
  const digits = length - first
  if (digits === 0 || point === first || point === length - 1) return undefined
  if (point < 0) {
    // An integer: no leading zero (nor '-0'), and few enough digits to be exact.
    if (input.charCodeAt(first) === 48 /* 0 */ && (digits > 1 || first === 1)) return undefined
    if (digits <= EXACT_INTEGER_DIGITS) return Number(input)
  }
  const value = Number(input)
  return Number.isFinite(value) && String(value) === input ? value : undefined
}

const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i
const DECORATED_NUMBER =
  /^(\()?([+-])?(\$)?([+-])?(\d{1,3}(?:,\d{3})+(?:\.\d*)?|\d+\.?\d*|\.\d+)(e[+-]?\d+)?(%)?(\))?$/i

/**
 * Reads text as a number the way Excel's VALUE and its arithmetic do; undefined when it is not one.
 * Leading and trailing spaces are ignored.
 */
export function readNumber(text: string): NumberReading | undefined {
  const trimmed = text.trim()
  if (trimmed === '') return undefined
  if (PLAIN_NUMBER.test(trimmed)) {
    const value = Number(trimmed)
    if (!Number.isFinite(value)) return undefined
    return /e/i.test(trimmed) ? { value, format: '0.00E+00' } : { value }
  }
  // Spaces may stand between a sign, currency sign, parenthesis or percent sign and the digits, never
  // inside the digits: "1 234" is text (and "1 1/2" a fraction, read below).
  const match = /\d\s+[\d.,]/.test(trimmed) ? null : DECORATED_NUMBER.exec(trimmed.replace(/\s+/g, ''))
  if (match) {
    const [, openParen, sign1, dollar, sign2, digits, exponent, percent, closeParen] = match
    if (Boolean(openParen) !== Boolean(closeParen)) return undefined
    if (sign1 && sign2) return undefined
    if (openParen && (sign1 || sign2)) return undefined
    let value = Number(digits.replace(/,/g, '') + (exponent ?? ''))
    if (!Number.isFinite(value)) return undefined
    if (percent) value /= 100
    if (sign1 === '-' || sign2 === '-' || openParen) value = -value
    const hasDecimals = /\.\d/.test(digits)
    let format: string | undefined
    if (percent) format = hasDecimals ? '0.00%' : '0%'
    else if (dollar) format = hasDecimals ? '$#,##0.00' : '$#,##0'
    else if (exponent) format = '0.00E+00'
    else if (digits.includes(',')) format = hasDecimals ? '#,##0.00' : '#,##0'
    if (dollar && percent) return undefined
    return { value, format }
  }
  const fraction = MIXED_FRACTION.exec(trimmed)
  if (fraction) {
    const [, sign, whole, numerator, denominator] = fraction
    if (Number(denominator) === 0) return undefined
    const value = Number(whole) + Number(numerator) / Number(denominator)
    return { value: sign === '-' ? -value : value, format: denominator.length > 1 ? '# ??/??' : '# ?/?' }
  }
  // Dates and times must be exactly that: Excel reads " 12 " as 12 but not " 2024-01-10 " as a date.
  return trimmed.length === text.length ? readDateTime(trimmed) : undefined
}

const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]

/** A month from its English name or any abbreviation of at least three letters ('Sept' too). */
function monthFromName(name: string): number | undefined {
  const lower = name.toLowerCase()
  if (lower.length < 3) return undefined
  const index = MONTH_NAMES.findIndex((month) => month.startsWith(lower))
  return index < 0 ? undefined : index + 1
}

function twoDigitYear(year: number, digits: number): number {
  if (digits > 2) return year
  // Excel's cut-off: 00–29 are 2000–2029, 30–99 are 1930–1999.
  return year < 30 ? 2000 + year : 1900 + year
}

function validDate(year: number, month: number, day: number): boolean {
  if (year < 1900 || year > 9999 || month < 1 || month > 12 || day < 1) return false
  if (year === 1900 && month === 2 && day === 29) return true
  return day <= daysInMonth(year, month)
}

/** A whole number and a fraction, as Excel takes `1 1/2` (a bare `3/4` is a date). */
const MIXED_FRACTION = /^([+-])?(\d+)\s+(\d+)\/(\d+)$/
const TIME = /^(\d{1,4}):(\d{1,2})(?::(\d{1,2}(?:\.\d+)?))?\s*(am|pm|a|p)?$/i
const TIME_HOUR_ONLY = /^(\d{1,2})\s*(am|pm)$/i
const ISO_DATE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/
const US_DATE = /^(\d{1,2})[-/](\d{1,2})[-/](\d{2}|\d{4})$/
/** `3/4` is the 4th of March this year; `3/2025` is March 2025. */
const MONTH_DAY = /^(\d{1,2})[-/](\d{1,2})$/
const MONTH_SLASH_YEAR = /^(\d{1,2})[-/](\d{4})$/
const DAY_MONTH_YEAR = /^(\d{1,2})[-\s/]([a-z]+)\.?[-\s/,]*(\d{2}|\d{4})?$/i
const MONTH_DAY_YEAR = /^([a-z]+)\.?[-\s/]+(\d{1,2})(?:(?:,\s*|[-\s/]+)(\d{2}|\d{4}))?$/i
const MONTH_YEAR = /^([a-z]+)\.?[-\s/]+(\d{4})$/i

interface DateReading {
  serial: number
  format: string
}

function readDate(text: string): DateReading | undefined {
  let m = ISO_DATE.exec(text)
  if (m) {
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
    if (!validDate(year, month, day)) return undefined
    return { serial: serialFromDate(year, month, day), format: 'yyyy-mm-dd' }
  }
  m = US_DATE.exec(text)
  if (m) {
    const year = twoDigitYear(Number(m[3]), m[3].length)
    const [month, day] = [Number(m[1]), Number(m[2])]
    if (!validDate(year, month, day)) return undefined
    return { serial: serialFromDate(year, month, day), format: 'm/d/yyyy' }
  }
  m = MONTH_DAY.exec(text)
  if (m) {
    const [month, day] = [Number(m[1]), Number(m[2])]
    const year = new Date().getFullYear()
    if (!validDate(year, month, day)) return undefined
    return { serial: serialFromDate(year, month, day), format: 'd-mmm' }
  }
  m = MONTH_SLASH_YEAR.exec(text)
  if (m) {
    const [month, year] = [Number(m[1]), Number(m[2])]
    if (!validDate(year, month, 1)) return undefined
    return { serial: serialFromDate(year, month, 1), format: 'mmm-yy' }
  }
  m = DAY_MONTH_YEAR.exec(text)
  if (m) {
    const month = monthFromName(m[2])
    if (month === undefined) return undefined
    const day = Number(m[1])
    const year = m[3] ? twoDigitYear(Number(m[3]), m[3].length) : new Date().getFullYear()
    if (!validDate(year, month, day)) return undefined
    return { serial: serialFromDate(year, month, day), format: m[3] ? 'd-mmm-yy' : 'd-mmm' }
  }
  m = MONTH_DAY_YEAR.exec(text)
  if (m) {
    const month = monthFromName(m[1])
    if (month === undefined) return undefined
    const day = Number(m[2])
    const year = m[3] ? twoDigitYear(Number(m[3]), m[3].length) : new Date().getFullYear()
    if (!validDate(year, month, day)) return undefined
    return { serial: serialFromDate(year, month, day), format: m[3] ? 'd-mmm-yy' : 'd-mmm' }
  }
  m = MONTH_YEAR.exec(text)
  if (m) {
    const month = monthFromName(m[1])
    if (month === undefined) return undefined
    const year = Number(m[2])
    if (!validDate(year, month, 1)) return undefined
    return { serial: serialFromDate(year, month, 1), format: 'mmm-yy' }
  }
  return undefined
}

function readTime(text: string): DateReading | undefined {
  let hours: number
  let minutes = 0
  let seconds = 0
  let meridiem: string | undefined
  let m = TIME.exec(text)
  if (m) {
    hours = Number(m[1])
    minutes = Number(m[2])
    seconds = m[3] ? Number(m[3]) : 0
    meridiem = m[4]?.toLowerCase()
  } else {
    m = TIME_HOUR_ONLY.exec(text)
    if (!m) return undefined
    hours = Number(m[1])
    meridiem = m[2].toLowerCase()
  }
  if (minutes > 59 || seconds >= 60) return undefined
  if (meridiem) {
    if (hours < 1 || hours > 12) return undefined
    if (hours === 12) hours = 0
    if (meridiem.startsWith('p')) hours += 12
  } else if (hours > 23) {
    // Excel takes a duration such as 25:00 (a day and an hour) and shows it as elapsed time.
    return { serial: serialFromTime(hours, minutes, seconds), format: '[h]:mm:ss' }
  }
  const format = meridiem
    ? m[3] !== undefined
      ? 'h:mm:ss AM/PM'
      : 'h:mm AM/PM'
    : m[3] !== undefined
      ? 'h:mm:ss'
      : 'h:mm'
  return { serial: serialFromTime(hours, minutes, seconds), format }
}

function readDateTime(text: string): NumberReading | undefined {
  const time = readTime(text)
  if (time) return { value: time.serial, format: time.format }
  const date = readDate(text)
  if (date) return { value: date.serial, format: date.format }
  // A date followed by a time: split at the last space that leaves a valid time on the right.
  for (let i = text.indexOf(' '); i > 0; i = text.indexOf(' ', i + 1)) {
    const datePart = readDate(text.slice(0, i).trim())
    if (!datePart) continue
    const timePart = readTime(text.slice(i + 1).trim())
    if (timePart && timePart.serial < 1) return { value: datePart.serial + timePart.serial, format: `${datePart.format} h:mm` }
  }
  return undefined
}
