/**
 * Joining texts: CONCAT, CONCATENATE, TEXTJOIN.
 */
import { CellError } from '../../values.js'
import type { Scalar } from '../../values.js'
import { forEachCell, toText } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { MAX_TEXT_LENGTH, textResult } from './basic.js'

/**
 * The texts of arguments in order (ranges and arrays row by row, empty cells as ""), joined with the
 * delimiters in turn, or the first error. Joining stops with #VALUE! as soon as the text is longer than
 * a cell holds, so that a join over a huge range fails at once instead of building a huge text.
 */
function joinTexts(args: readonly Arg[], delimiters: readonly string[], ignoreEmpty: boolean): string | CellError {
  let joined = ''
  let index = 0
  let error: CellError | undefined
  const add = (text: string): boolean => {
    if (ignoreEmpty && text === '') return true
    if (index > 0 && delimiters.length > 0) joined += delimiters[(index - 1) % delimiters.length]
    joined += text
    index++
    if (joined.length <= MAX_TEXT_LENGTH) return true
    error = CellError.VALUE
    return false
  }
  for (const arg of args) {
    if (arg === MISSING) {
      if (!add('')) break
      continue
    }
    forEachCell(arg, (value: Scalar) => {
      const text = toText(value)
      if (text instanceof CellError) {
        error = text
        return false
      }
      return add(text)
    })
    if (error) return error
  }
  return error ?? joined
}

/** The texts of an argument (a delimiter list), or the first error. */
function textsOf(arg: Arg): string[] | CellError {
  const texts: string[] = []
  let error: CellError | undefined
  if (arg === MISSING) return ['']
  forEachCell(arg, (value: Scalar) => {
    const text = toText(value)
    if (text instanceof CellError) {
      error = text
      return false
    }
    texts.push(text)
  })
  return error ?? texts
}

export const CONCAT: FunctionDefinition = {
  name: 'CONCAT',
  category: 'text',
  minArgs: 1,
  maxArgs: 253,
  args: ['any'],
  syntax: 'CONCAT(text1, [text2], ...)',
  description: 'Joins texts, and the cells of ranges row by row, into one text.',
  example: 'CONCAT(A1:C1, "!")',
  impl: (args) => joinTexts(args, [], false),
}

export const CONCATENATE: FunctionDefinition = {
  name: 'CONCATENATE',
  category: 'text',
  minArgs: 1,
  maxArgs: 255,
  args: ['text'],
  syntax: 'CONCATENATE(text1, [text2], ...)',
  description: 'Joins several texts into one.',
  example: 'CONCATENATE(A1, " ", B1)',
  impl: (args) => textResult(args.map((arg) => (arg === MISSING ? '' : (arg as string))).join('')),
}

export const TEXTJOIN: FunctionDefinition = {
  name: 'TEXTJOIN',
  category: 'text',
  minArgs: 3,
  maxArgs: 252,
  args: ['any', 'boolean', 'any'],
  syntax: 'TEXTJOIN(delimiter, ignore_empty, text1, [text2], ...)',
  description: 'Joins texts and ranges with a delimiter between them, skipping empty texts if ignore_empty is TRUE.',
  example: 'TEXTJOIN(", ", TRUE, A1:A10)',
  impl: (args) => {
    const delimiters = textsOf(args[0])
    if (delimiters instanceof CellError) return delimiters
    return joinTexts(args.slice(2), delimiters, args[1] === true)
  },
}

export const functions: readonly FunctionDefinition[] = [CONCAT, CONCATENATE, TEXTJOIN]
