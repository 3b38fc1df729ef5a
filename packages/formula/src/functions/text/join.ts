/**
 * Joining texts: CONCAT, CONCATENATE, TEXTJOIN.
 */
import { CellError } from '../../values.js'
import type { Scalar } from '../../values.js'
import { forEachCell, toText } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { textResult } from './basic.js'

/** The texts of arguments in order, ranges and arrays row by row (empty cells as ""), or the first error. */
function textsOf(args: readonly Arg[]): string[] | CellError {
  const texts: string[] = []
  let error: CellError | undefined
  for (const arg of args) {
    if (arg === MISSING) {
      texts.push('')
      continue
    }
    forEachCell(arg, (value: Scalar) => {
      const text = toText(value)
      if (text instanceof CellError) {
        error = text
        return false
      }
      texts.push(text)
    })
    if (error) return error
  }
  return texts
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
  impl: (args) => {
    const texts = textsOf(args)
    return texts instanceof CellError ? texts : textResult(texts.join(''))
  },
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
    const delimiters = textsOf([args[0]])
    if (delimiters instanceof CellError) return delimiters
    const ignoreEmpty = args[1] === true
    const texts = textsOf(args.slice(2))
    if (texts instanceof CellError) return texts
    const kept = ignoreEmpty ? texts.filter((text) => text !== '') : texts
    let joined = ''
    kept.forEach((text, index) => {
      if (index > 0 && delimiters.length > 0) joined += delimiters[(index - 1) % delimiters.length]
      joined += text
    })
    return textResult(joined)
  },
}

export const functions: readonly FunctionDefinition[] = [CONCAT, CONCATENATE, TEXTJOIN]
