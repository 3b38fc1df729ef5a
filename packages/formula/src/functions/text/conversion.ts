/**
 * Between numbers and text: VALUE, NUMBERVALUE, TEXT, FIXED, DOLLAR, VALUETOTEXT, ARRAYTOTEXT.
 */
import { formatValue, parseFormat } from '../../format/number-format.js'
import { readNumber } from '../../input/parse-input.js'
import { CellError } from '../../values.js'
import type { Scalar } from '../../values.js'
import { numberToText, toArray, toText } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { roundHalfAway } from '../math/numeric.js'
import { textResult } from './basic.js'

/** Text read as a number as VALUE does; undefined when it is not one. */
export function textToNumber(text: string): number | undefined {
  const reading = readNumber(text)
  if (reading) return reading.value
  // A euro sign before or after the digits reads like the dollar sign.
  const euro = /^\s*(-?)\s*€\s*(.+?)\s*$|^\s*(.+?)\s*€\s*$/.exec(text)
  if (euro) {
    const digits = euro[2] ?? euro[3]
    const inner = readNumber(digits)
    if (inner && !/[$%]/.test(digits)) return euro[1] === '-' ? -inner.value : inner.value
  }
  return undefined
}

export const VALUE: FunctionDefinition = {
  name: 'VALUE',
  category: 'text',
  minArgs: 1,
  maxArgs: 1,
  args: ['scalar'],
  syntax: 'VALUE(text)',
  description: 'Converts a text that represents a number, a date, a time, a percentage or an amount into a number.',
  example: 'VALUE("$1,000")',
  impl: ([value]) => {
    if (value === null || value === MISSING) return 0
    if (typeof value === 'number') return value
    if (typeof value !== 'string') return CellError.VALUE
    return textToNumber(value) ?? CellError.VALUE
  },
}

export const NUMBERVALUE: FunctionDefinition = {
  name: 'NUMBERVALUE',
  category: 'text',
  minArgs: 1,
  maxArgs: 3,
  args: ['text', 'text', 'text'],
  syntax: 'NUMBERVALUE(text, [decimal_separator], [group_separator])',
  description: 'Converts a text to a number with the given decimal and group separators, whatever the locale.',
  example: 'NUMBERVALUE("2.500,27", ",", ".")',
  impl: ([textArg, decimalArg, groupArg]) => {
    const decimal = decimalArg === undefined || decimalArg === MISSING ? '.' : (decimalArg as string)[0]
    const group = groupArg === undefined || groupArg === MISSING ? ',' : (groupArg as string)[0]
    if (decimal === undefined || group === undefined || decimal === group) return CellError.VALUE
    let text = textArg === MISSING ? '' : (textArg as string).replace(/\s+/g, '')
    if (text === '') return 0
    let percents = 0
    while (text.endsWith('%')) {
      percents++
      text = text.slice(0, -1)
    }
    const decimalAt = text.indexOf(decimal)
    if (decimalAt >= 0 && text.indexOf(decimal, decimalAt + 1) >= 0) return CellError.VALUE
    const integerPart = decimalAt >= 0 ? text.slice(0, decimalAt) : text
    const fractionPart = decimalAt >= 0 ? text.slice(decimalAt + 1) : ''
    // Group separators may stand anywhere before the decimal separator, never after it.
    if (fractionPart.includes(group)) return CellError.VALUE
    const normalized = integerPart.split(group).join('') + (decimalAt >= 0 ? '.' + fractionPart : '')
    if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(normalized)) return CellError.VALUE
    const value = Number(normalized) / 100 ** percents
    return Number.isFinite(value) ? value : CellError.VALUE
  },
}

export const TEXT: FunctionDefinition = {
  name: 'TEXT',
  category: 'text',
  minArgs: 2,
  maxArgs: 2,
  args: ['scalar', 'text'],
  syntax: 'TEXT(value, format_text)',
  description: 'Formats a number as text with a number format code, such as "0.00%", "#,##0" or "yyyy-mm-dd".',
  example: 'TEXT(A1, "$#,##0.00")',
  impl: ([valueArg, formatArg]) => {
    const format = formatArg as string
    let value: Scalar = valueArg === MISSING ? null : (valueArg as Scalar)
    if (value === null) value = 0
    // Text that reads as a number is formatted as that number.
    if (typeof value === 'string') value = textToNumber(value) ?? value
    if (format === '') return typeof value === 'string' ? value : ''
    if (typeof value === 'number' && !validForNumber(format, value)) return CellError.VALUE
    try {
      return textResult(formatValue(value, format))
    } catch {
      return CellError.VALUE
    }
  },
}

/** The last date Excel knows, 9999-12-31, as a serial (the whole day). */
const LAST_DATE_SERIAL = 2_958_466

/**
 * Whether TEXT can format the number with the format: a date section cannot show a number outside the
 * calendar, nor mix in digit placeholders (`mm###`), where a cell would show ##### and TEXT is #VALUE!.
 */
function validForNumber(format: string, value: number): boolean {
  const sections = parseFormat(format)
  const numeric = sections.slice(0, 3)
  return numeric.every((section, index) => {
    if (!section.isDate) return true
    if (section.tokens.some((token) => token.kind === 'digit')) return false
    const applies = numeric.length === 1 || (index === 0 ? value >= 0 : index === 1 ? value < 0 : value === 0)
    return !applies || (value >= 0 && value < LAST_DATE_SERIAL)
  })
}

/** A number with `decimals` decimals (negative rounds to tens, hundreds...) and optional thousands separators. */
function fixedText(value: number, decimals: number, groups: boolean): string {
  const rounded = roundHalfAway(value, decimals)
  const text = Math.abs(rounded).toFixed(Math.max(0, decimals))
  const [integer, fraction] = text.split('.')
  const grouped = groups ? integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : integer
  const sign = rounded < 0 ? '-' : ''
  return sign + grouped + (fraction !== undefined ? '.' + fraction : '')
}

export const FIXED: FunctionDefinition = {
  name: 'FIXED',
  category: 'text',
  minArgs: 1,
  maxArgs: 3,
  args: ['number', 'number', 'boolean'],
  syntax: 'FIXED(number, [decimals], [no_commas])',
  description: 'Rounds a number to decimals (2 by default) and returns it as text, with thousands separators unless no_commas.',
  example: 'FIXED(1234.567, 1)',
  impl: ([n, decimalsArg, noCommas]) => {
    const decimals = decimalsArg === undefined || decimalsArg === MISSING ? 2 : Math.trunc(decimalsArg as number)
    if (decimals > 127) return CellError.VALUE
    return fixedText(n as number, decimals, noCommas !== true)
  },
}

export const DOLLAR: FunctionDefinition = {
  name: 'DOLLAR',
  category: 'text',
  minArgs: 1,
  maxArgs: 2,
  args: ['number', 'number'],
  syntax: 'DOLLAR(number, [decimals])',
  description: 'Returns a number as currency text, such as $1,234.57, negative amounts in parentheses.',
  example: 'DOLLAR(1234.567, 2)',
  impl: ([n, decimalsArg]) => {
    const decimals = decimalsArg === undefined || decimalsArg === MISSING ? 2 : Math.trunc(decimalsArg as number)
    if (decimals > 127) return CellError.VALUE
    const value = n as number
    const text = fixedText(Math.abs(value), decimals, true)
    return roundHalfAway(value, decimals) < 0 ? `($${text})` : `$${text}`
  },
}

/** A value as VALUETOTEXT writes it: concise (format 0) or strict, with text quoted (format 1). */
function valueToText(value: Scalar, strict: boolean): string {
  if (typeof value === 'string') return strict ? `"${value.replace(/"/g, '""')}"` : value
  if (typeof value === 'number') return numberToText(value)
  if (value instanceof CellError) return value.code
  if (value === null) return ''
  return toText(value) as string
}

function readFormat(arg: Arg | undefined): boolean | CellError {
  if (arg === undefined || arg === MISSING) return false
  const format = Math.trunc(arg as number)
  if (format !== 0 && format !== 1) return CellError.VALUE
  return format === 1
}

export const VALUETOTEXT: FunctionDefinition = {
  name: 'VALUETOTEXT',
  category: 'text',
  minArgs: 1,
  maxArgs: 2,
  args: ['scalarOrError', 'number'],
  syntax: 'VALUETOTEXT(value, [format])',
  description: 'Returns a value as text: concise (0) or strict, with text in quotes (1).',
  example: 'VALUETOTEXT(A1, 1)',
  impl: ([value, formatArg]) => {
    const strict = readFormat(formatArg)
    if (strict instanceof CellError) return strict
    return valueToText(value === MISSING ? null : (value as Scalar), strict)
  },
}

export const ARRAYTOTEXT: FunctionDefinition = {
  name: 'ARRAYTOTEXT',
  category: 'text',
  minArgs: 1,
  maxArgs: 2,
  args: ['any', 'number'],
  syntax: 'ARRAYTOTEXT(array, [format])',
  description: 'Returns an array as text: values separated by commas (0), or as an array constant (1).',
  example: 'ARRAYTOTEXT(A1:B2, 1)',
  impl: ([arrayArg, formatArg]) => {
    const strict = readFormat(formatArg)
    if (strict instanceof CellError) return strict
    const array = toArray(arrayArg)
    if (array instanceof CellError) return array
    if (!strict) return textResult(array.data.map((value) => valueToText(value, false)).join(', '))
    const rows = array.toRows().map((row) => row.map((value) => valueToText(value, true)).join(','))
    return textResult(`{${rows.join(';')}}`)
  },
}

export const functions: readonly FunctionDefinition[] = [
  VALUE,
  NUMBERVALUE,
  TEXT,
  FIXED,
  DOLLAR,
  VALUETOTEXT,
  ARRAYTOTEXT,
]
