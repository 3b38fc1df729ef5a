/**
 * Numbers written in other systems: Roman numerals and bases 2 to 36.
 */
import { CellError } from '../../values.js'
import { numberResult } from '../helpers.js'
import type { FunctionDefinition } from '../types.js'
import { MISSING } from '../types.js'

const ROMAN_LETTERS = ['M', 'D', 'C', 'L', 'X', 'V', 'I']
const ROMAN_VALUES = [1000, 500, 100, 50, 10, 5, 1]

/**
 * A number from 0 to 3999 as Roman numerals. Form 0 is classic (499 = CDXCIX); forms 1 to 4 allow ever
 * more subtractive shortcuts (form 4: 499 = ID), as Excel's ROMAN.
 */
export function toRoman(number: number, form: number): string {
  let value = number
  let roman = ''
  const last = ROMAN_VALUES.length - 1
  for (let index = 0; index <= last; index += 2) {
    const digit = Math.floor(value / ROMAN_VALUES[index])
    if (digit % 5 === 4) {
      // 4 or 9 of this power: a smaller letter before a larger one. Higher forms reach for a smaller
      // letter as long as what is left still fits.
      const larger = digit === 4 ? index - 1 : index - 2
      let smaller = index
      let steps = 0
      while (steps < form && smaller < last) {
        steps++
        if (ROMAN_VALUES[larger] - ROMAN_VALUES[smaller + 1] <= value) smaller++
        else steps = form
      }
      roman += ROMAN_LETTERS[smaller] + ROMAN_LETTERS[larger]
      value = value + ROMAN_VALUES[smaller] - ROMAN_VALUES[larger]
    } else {
      if (digit > 4) roman += ROMAN_LETTERS[index - 1]
      roman += ROMAN_LETTERS[index].repeat(digit % 5)
      value %= ROMAN_VALUES[index]
    }
  }
  return roman
}

export const ROMAN: FunctionDefinition = {
  name: 'ROMAN',
  category: 'math',
  minArgs: 1,
  maxArgs: 2,
  args: ['number', 'scalar'],
  syntax: 'ROMAN(number, [form])',
  description: 'Converts a number from 0 to 3999 to Roman numerals, as text; form 0 (classic) to 4 (simplified).',
  example: 'ROMAN(499, 0)',
  impl: (args) => {
    const number = Math.trunc(args[0] as number)
    const formArg = args[1]
    let form = 0
    if (typeof formArg === 'boolean') form = formArg ? 0 : 4
    else if (typeof formArg === 'number') form = Math.trunc(formArg)
    else if (typeof formArg === 'string') {
      const parsed = Number(formArg)
      if (formArg.trim() === '' || !Number.isFinite(parsed)) return CellError.VALUE
      form = Math.trunc(parsed)
    } else if (formArg !== undefined && formArg !== MISSING && formArg !== null) return CellError.VALUE
    if (number < 0 || number > 3999 || form < 0 || form > 4) return CellError.VALUE
    return toRoman(number, form)
  },
}

const LETTER_VALUES: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 }

export const ARABIC: FunctionDefinition = {
  name: 'ARABIC',
  category: 'math',
  minArgs: 1,
  maxArgs: 1,
  args: ['text'],
  syntax: 'ARABIC(text)',
  description: 'Converts a Roman numeral to a number.',
  example: 'ARABIC("LVII")',
  impl: ([arg]) => {
    let text = (arg as string).trim().toUpperCase()
    if (text.length > 255) return CellError.VALUE
    let sign = 1
    if (text.startsWith('-')) {
      sign = -1
      text = text.slice(1)
    }
    let total = 0
    for (let i = 0; i < text.length; i++) {
      const value = LETTER_VALUES[text[i]]
      if (value === undefined) return CellError.VALUE
      const next = i + 1 < text.length ? LETTER_VALUES[text[i + 1]] : undefined
      total += next !== undefined && next > value ? -value : value
    }
    return sign * total
  },
}

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'

export const BASE: FunctionDefinition = {
  name: 'BASE',
  category: 'math',
  minArgs: 2,
  maxArgs: 3,
  args: ['number', 'number', 'number'],
  syntax: 'BASE(number, radix, [min_length])',
  description: 'Converts a number into text in the given radix (base 2 to 36), padded with zeros to min_length.',
  example: 'BASE(7, 2)',
  impl: (args) => {
    const number = Math.trunc(args[0] as number)
    const radix = Math.trunc(args[1] as number)
    const minArg = args[2]
    const minLength = minArg === undefined || minArg === MISSING ? 0 : Math.trunc(minArg as number)
    if (number < 0 || number >= 2 ** 53 || radix < 2 || radix > 36 || minLength < 0 || minLength > 255) {
      return CellError.NUM
    }
    let text = ''
    let rest = number
    do {
      text = DIGITS[rest % radix] + text
      rest = Math.floor(rest / radix)
    } while (rest > 0)
    return text.padStart(minLength, '0')
  },
}

export const DECIMAL: FunctionDefinition = {
  name: 'DECIMAL',
  category: 'math',
  minArgs: 2,
  maxArgs: 2,
  args: ['text', 'number'],
  syntax: 'DECIMAL(text, radix)',
  description: 'Converts text representing a number in the given radix (base 2 to 36) into a number.',
  example: 'DECIMAL("FF", 16)',
  impl: ([textArg, radixArg]) => {
    const text = (textArg as string).toUpperCase()
    const radix = Math.trunc(radixArg as number)
    if (radix < 2 || radix > 36 || text.length > 255) return CellError.NUM
    let value = 0
    for (const ch of text) {
      const digit = DIGITS.indexOf(ch)
      if (digit < 0 || digit >= radix) return CellError.NUM
      value = value * radix + digit
    }
    return numberResult(value)
  },
}

export const functions: readonly FunctionDefinition[] = [ROMAN, ARABIC, BASE, DECIMAL]
