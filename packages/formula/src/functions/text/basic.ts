/**
 * Text functions of pieces of text: length, extraction, search, replacement, case, cleaning.
 */
import { CellError } from '../../values.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'

/** Excel's limit on the length of text in a cell. */
export const MAX_TEXT_LENGTH = 32_767

/** A text result, or #VALUE! when it is longer than a cell can hold. */
export function textResult(text: string): string | CellError {
  return text.length > MAX_TEXT_LENGTH ? CellError.VALUE : text
}

/** An optional count argument of kind `number`, truncated; absent or omitted gives `fallback`. */
function count(arg: Arg | undefined, fallback: number): number {
  if (arg === undefined || arg === MISSING || arg === null) return fallback
  return Math.trunc(arg as number)
}

export const LEN: FunctionDefinition = {
  name: 'LEN',
  category: 'text',
  minArgs: 1,
  maxArgs: 1,
  args: ['text'],
  syntax: 'LEN(text)',
  description: 'Returns the number of characters in a text.',
  example: 'LEN("Finsheet")',
  impl: ([text]) => (text as string).length,
}

export const LEFT: FunctionDefinition = {
  name: 'LEFT',
  category: 'text',
  minArgs: 1,
  maxArgs: 2,
  args: ['text', 'number'],
  syntax: 'LEFT(text, [num_chars])',
  description: 'Returns the first characters of a text (one by default).',
  example: 'LEFT("Finsheet", 3)',
  impl: ([text, n]) => {
    const length = count(n, 1)
    if (length < 0) return CellError.VALUE
    return (text as string).slice(0, length)
  },
}

export const RIGHT: FunctionDefinition = {
  name: 'RIGHT',
  category: 'text',
  minArgs: 1,
  maxArgs: 2,
  args: ['text', 'number'],
  syntax: 'RIGHT(text, [num_chars])',
  description: 'Returns the last characters of a text (one by default).',
  example: 'RIGHT("Finsheet", 5)',
  impl: ([text, n]) => {
    const length = count(n, 1)
    if (length < 0) return CellError.VALUE
    const value = text as string
    return length === 0 ? '' : value.slice(Math.max(0, value.length - length))
  },
}

export const MID: FunctionDefinition = {
  name: 'MID',
  category: 'text',
  minArgs: 3,
  maxArgs: 3,
  args: ['text', 'number', 'number'],
  syntax: 'MID(text, start_num, num_chars)',
  description: 'Returns num_chars characters of a text starting at position start_num.',
  example: 'MID("Finsheet", 4, 5)',
  impl: ([text, startArg, lengthArg]) => {
    const start = Math.trunc(startArg as number)
    const length = Math.trunc(lengthArg as number)
    if (start < 1 || length < 0) return CellError.VALUE
    return (text as string).substr(start - 1, length)
  },
}

function findIn(name: 'FIND' | 'SEARCH'): FunctionDefinition {
  const search = name === 'SEARCH'
  return {
    name,
    category: 'text',
    minArgs: 2,
    maxArgs: 3,
    args: ['text', 'text', 'number'],
    syntax: `${name}(find_text, within_text, [start_num])`,
    description: search
      ? 'Returns the position of a text within another, ignoring case and allowing the wildcards ? and *.'
      : 'Returns the position of a text within another, case-sensitive.',
    example: `${name}("sheet", "Finsheet")`,
    impl: ([findArg, withinArg, startArg]) => {
      const find = findArg as string
      const within = withinArg as string
      const start = count(startArg, 1)
      if (start < 1 || start > within.length + 1) return CellError.VALUE
      if (find === '') return start
      if (!search) {
        const index = within.indexOf(find, start - 1)
        return index < 0 ? CellError.VALUE : index + 1
      }
      const match = searchPattern(find).exec(within.slice(start - 1))
      return match ? start + match.index : CellError.VALUE
    },
  }
}

/**
 * SEARCH's pattern: `?` any character, `*` any run, and `~` makes the next character literal (a
 * trailing `~` stands for nothing). Case is ignored.
 */
function searchPattern(find: string): RegExp {
  let source = ''
  for (let i = 0; i < find.length; i++) {
    const ch = find[i]
    if (ch === '~') {
      if (i + 1 < find.length) source += escapeRegExp(find[++i])
    } else if (ch === '*') source += '[\\s\\S]*?'
    else if (ch === '?') source += '[\\s\\S]'
    else source += escapeRegExp(ch)
  }
  return new RegExp(source, 'i')
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

export const FIND = findIn('FIND')
export const SEARCH = findIn('SEARCH')

export const SUBSTITUTE: FunctionDefinition = {
  name: 'SUBSTITUTE',
  category: 'text',
  minArgs: 3,
  maxArgs: 4,
  args: ['text', 'text', 'text', 'number'],
  syntax: 'SUBSTITUTE(text, old_text, new_text, [instance_num])',
  description: 'Replaces old_text with new_text in a text: every occurrence, or only the instance_num-th.',
  example: 'SUBSTITUTE("a-b-c", "-", "+")',
  impl: ([textArg, oldArg, newArg, instanceArg]) => {
    const text = textArg as string
    const oldText = oldArg as string
    const newText = newArg as string
    if (instanceArg !== undefined && instanceArg !== MISSING) {
      const instance = Math.trunc(instanceArg as number)
      if (instance < 1) return CellError.VALUE
      if (oldText === '') return text
      let index = -1
      for (let i = 0; i < instance; i++) {
        index = text.indexOf(oldText, index + (i === 0 ? 0 : oldText.length))
        if (index < 0) return text
      }
      return textResult(text.slice(0, index) + newText + text.slice(index + oldText.length))
    }
    if (oldText === '') return text
    return textResult(text.split(oldText).join(newText))
  },
}

export const REPLACE: FunctionDefinition = {
  name: 'REPLACE',
  category: 'text',
  minArgs: 4,
  maxArgs: 4,
  args: ['text', 'number', 'number', 'text'],
  syntax: 'REPLACE(old_text, start_num, num_chars, new_text)',
  description: 'Replaces num_chars characters of a text, from position start_num, with new_text.',
  example: 'REPLACE("Finsheet", 1, 3, "Spread")',
  impl: ([textArg, startArg, lengthArg, newArg]) => {
    const text = textArg as string
    const start = Math.trunc(startArg as number)
    const length = Math.trunc(lengthArg as number)
    if (start < 1 || length < 0) return CellError.VALUE
    return textResult(text.slice(0, start - 1) + (newArg as string) + text.slice(start - 1 + length))
  },
}

export const TRIM: FunctionDefinition = {
  name: 'TRIM',
  category: 'text',
  minArgs: 1,
  maxArgs: 1,
  args: ['text'],
  syntax: 'TRIM(text)',
  description: 'Removes spaces from both ends of a text and reduces runs of spaces inside it to one.',
  example: 'TRIM("  two   words ")',
  impl: ([text]) => (text as string).replace(/ +/g, ' ').replace(/^ | $/g, ''),
}

export const UPPER: FunctionDefinition = {
  name: 'UPPER',
  category: 'text',
  minArgs: 1,
  maxArgs: 1,
  args: ['text'],
  syntax: 'UPPER(text)',
  description: 'Converts a text to upper case.',
  example: 'UPPER("total")',
  impl: ([text]) => upperCase(text as string),
}

/**
 * Upper case letter by letter, as Excel maps them: a letter with no single-letter capital (ß, the ﬁ
 * ligature) stays as it is rather than growing into two ("SS").
 */
function upperCase(text: string): string {
  const upper = text.toUpperCase()
  if (upper.length === text.length) return upper
  let result = ''
  for (const char of text) {
    const mapped = char.toUpperCase()
    result += mapped.length === char.length ? mapped : char
  }
  return result
}

export const LOWER: FunctionDefinition = {
  name: 'LOWER',
  category: 'text',
  minArgs: 1,
  maxArgs: 1,
  args: ['text'],
  syntax: 'LOWER(text)',
  description: 'Converts a text to lower case.',
  example: 'LOWER("TOTAL")',
  impl: ([text]) => (text as string).toLowerCase(),
}

export const PROPER: FunctionDefinition = {
  name: 'PROPER',
  category: 'text',
  minArgs: 1,
  maxArgs: 1,
  args: ['text'],
  syntax: 'PROPER(text)',
  description: 'Capitalizes the first letter of each word (any letter after a non-letter) and lowers the others.',
  example: 'PROPER("net present value")',
  impl: ([text]) => {
    let result = ''
    let previousIsLetter = false
    for (const ch of text as string) {
      const isLetter = /\p{L}/u.test(ch)
      result += isLetter ? (previousIsLetter ? ch.toLowerCase() : ch.toUpperCase()) : ch
      previousIsLetter = isLetter
    }
    return result
  },
}

export const REPT: FunctionDefinition = {
  name: 'REPT',
  category: 'text',
  minArgs: 2,
  maxArgs: 2,
  args: ['text', 'number'],
  syntax: 'REPT(text, number_times)',
  description: 'Repeats a text a number of times.',
  example: 'REPT("-", 10)',
  impl: ([textArg, timesArg]) => {
    const text = textArg as string
    const times = Math.trunc(timesArg as number)
    if (times < 0 || text.length * times > MAX_TEXT_LENGTH) return CellError.VALUE
    return text.repeat(times)
  },
}

export const EXACT: FunctionDefinition = {
  name: 'EXACT',
  category: 'text',
  minArgs: 2,
  maxArgs: 2,
  args: ['text', 'text'],
  syntax: 'EXACT(text1, text2)',
  description: 'Returns TRUE if two texts are exactly the same, case included.',
  example: 'EXACT("Word", "word")',
  impl: ([a, b]) => a === b,
}

export const CLEAN: FunctionDefinition = {
  name: 'CLEAN',
  category: 'text',
  minArgs: 1,
  maxArgs: 1,
  args: ['text'],
  syntax: 'CLEAN(text)',
  description: 'Removes the non-printable characters (codes 0 to 31) from a text.',
  example: 'CLEAN(A1)',
  // eslint-disable-next-line no-control-regex
  impl: ([text]) => (text as string).replace(/[\x00-\x1f]/g, ''),
}

export const T: FunctionDefinition = {
  name: 'T',
  category: 'text',
  minArgs: 1,
  maxArgs: 1,
  args: ['scalarOrError'],
  syntax: 'T(value)',
  description: 'Returns the value if it is text, and empty text otherwise.',
  example: 'T(A1)',
  impl: ([value]) => {
    if (value instanceof CellError) return value
    return typeof value === 'string' ? value : ''
  },
}

export const functions: readonly FunctionDefinition[] = [
  LEN,
  LEFT,
  RIGHT,
  MID,
  FIND,
  SEARCH,
  SUBSTITUTE,
  REPLACE,
  TRIM,
  UPPER,
  LOWER,
  PROPER,
  REPT,
  EXACT,
  CLEAN,
  T,
]
