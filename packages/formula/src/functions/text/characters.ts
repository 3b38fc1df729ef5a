/**
 * Characters and their codes: CHAR and CODE in Excel's Windows character set, UNICHAR and UNICODE.
 */
import { CellError } from '../../values.js'
import type { FunctionDefinition } from '../types.js'

/** Windows-1252 differs from Latin-1 in codes 128 to 159; the five codes it leaves unassigned map to themselves. */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
]

const CODE_OF_CHARACTER = new Map<number, number>(WINDOWS_1252_HIGH.map((unicode, index) => [unicode, 128 + index]))

export const CHAR: FunctionDefinition = {
  name: 'CHAR',
  category: 'text',
  minArgs: 1,
  maxArgs: 1,
  args: ['number'],
  syntax: 'CHAR(number)',
  description: 'Returns the character of a code from 1 to 255 of the Windows character set.',
  example: 'CHAR(65)',
  impl: ([n]) => {
    const code = Math.trunc(n as number)
    if (code < 1 || code > 255) return CellError.VALUE
    return String.fromCharCode(code >= 128 && code < 160 ? WINDOWS_1252_HIGH[code - 128] : code)
  },
}

export const CODE: FunctionDefinition = {
  name: 'CODE',
  category: 'text',
  minArgs: 1,
  maxArgs: 1,
  args: ['text'],
  syntax: 'CODE(text)',
  description: 'Returns the Windows character set code of the first character of a text.',
  example: 'CODE("A")',
  impl: ([text]) => {
    const value = text as string
    if (value === '') return CellError.VALUE
    const unicode = value.charCodeAt(0)
    if (unicode < 128 || (unicode >= 160 && unicode < 256)) return unicode
    // Characters outside the Windows character set come out as a question mark, as in Excel.
    return CODE_OF_CHARACTER.get(unicode) ?? 63
  },
}

export const UNICHAR: FunctionDefinition = {
  name: 'UNICHAR',
  category: 'text',
  minArgs: 1,
  maxArgs: 1,
  args: ['number'],
  syntax: 'UNICHAR(number)',
  description: 'Returns the Unicode character of a code point.',
  example: 'UNICHAR(8364)',
  impl: ([n]) => {
    const code = Math.trunc(n as number)
    if (code < 1 || code > 0x10ffff) return CellError.VALUE
    if (code >= 0xd800 && code <= 0xdfff) return CellError.NA
    return String.fromCodePoint(code)
  },
}

export const UNICODE: FunctionDefinition = {
  name: 'UNICODE',
  category: 'text',
  minArgs: 1,
  maxArgs: 1,
  args: ['text'],
  syntax: 'UNICODE(text)',
  description: 'Returns the Unicode code point of the first character of a text.',
  example: 'UNICODE("€")',
  impl: ([text]) => {
    const value = text as string
    if (value === '') return CellError.VALUE
    return value.codePointAt(0) as number
  },
}

export const functions: readonly FunctionDefinition[] = [CHAR, CODE, UNICHAR, UNICODE]
