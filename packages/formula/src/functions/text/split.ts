/**
 * Cutting text at delimiters: TEXTBEFORE, TEXTAFTER and TEXTSPLIT.
 */
import { reserveCells } from '../../evaluator/budget.js'
import { ArrayValue, CellError } from '../../values.js'
import type { Scalar } from '../../values.js'
import { forEachCell, toBoolean, toNumber, toScalar, toText } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionContext, FunctionDefinition } from '../types.js'

/** The delimiters of an argument: one text, or every cell of a range or array. */
function delimitersOf(arg: Arg): string[] | CellError {
  const delimiters: string[] = []
  let error: CellError | undefined
  forEachCell(arg, (value) => {
    const text = toText(value)
    if (text instanceof CellError) {
      error = text
      return false
    }
    delimiters.push(text)
  })
  return error ?? delimiters
}

/** An optional argument as a whole number: absent, omitted or an empty cell gives `fallback`. */
function optionalNumber(
  arg: Arg | undefined,
  fallback: number,
  ctx: FunctionContext,
  whole: (x: number) => number = Math.trunc,
): number | CellError {
  if (arg === undefined || arg === MISSING) return fallback
  const scalar = toScalar(arg, ctx)
  if (scalar === null) return fallback
  const number = toNumber(scalar)
  return number instanceof CellError ? number : whole(number)
}

function optionalBoolean(arg: Arg | undefined, ctx: FunctionContext): boolean | CellError {
  if (arg === undefined || arg === MISSING) return false
  return toBoolean(toScalar(arg, ctx))
}

interface Occurrence {
  start: number
  length: number
}

/** Where the delimiters occur in the text, scanning from the start (or from the end when `fromEnd`). */
function occurrences(text: string, delimiters: readonly string[], ignoreCase: boolean, fromEnd: boolean): Occurrence[] {
  const haystack = ignoreCase ? text.toLowerCase() : text
  const needles = delimiters.map((delimiter) => (ignoreCase ? delimiter.toLowerCase() : delimiter))
  const found: Occurrence[] = []
  if (!fromEnd) {
    let position = 0
    while (position <= haystack.length) {
      let best: Occurrence | undefined
      for (const needle of needles) {
        const index = haystack.indexOf(needle, position)
        if (index >= 0 && (!best || index < best.start || (index === best.start && needle.length > best.length))) {
          best = { start: index, length: needle.length }
        }
      }
      if (!best) break
      found.push(best)
      position = best.start + Math.max(best.length, 1)
    }
    return found
  }
  let end = haystack.length
  while (end >= 0) {
    let best: Occurrence | undefined
    for (const needle of needles) {
      if (needle.length > end) continue
      const index = haystack.lastIndexOf(needle, end - needle.length)
      if (index >= 0 && (!best || index + needle.length > best.start + best.length)) {
        best = { start: index, length: needle.length }
      }
    }
    if (!best) break
    found.push(best)
    end = best.start - (best.length === 0 ? 1 : 0)
  }
  return found
}

function textAround(name: 'TEXTBEFORE' | 'TEXTAFTER'): FunctionDefinition {
  const before = name === 'TEXTBEFORE'
  return {
    name,
    category: 'text',
    minArgs: 2,
    maxArgs: 6,
    args: ['text', 'any', 'scalar', 'scalar', 'scalar', 'any'],
    syntax: `${name}(text, delimiter, [instance_num], [match_mode], [match_end], [if_not_found])`,
    description: before
      ? 'Returns the text before the instance_num-th delimiter (counting from the end when negative).'
      : 'Returns the text after the instance_num-th delimiter (counting from the end when negative).',
    example: `${name}("2024-Q3-report", "-", 2)`,
    impl: (args, ctx) => {
      const text = args[0] as string
      const delimiters = delimitersOf(args[1])
      if (delimiters instanceof CellError) return delimiters
      const instance = optionalNumber(args[2], 1, ctx, Math.floor)
      if (instance instanceof CellError) return instance
      const ignoreCase = optionalNumber(args[3], 0, ctx)
      if (ignoreCase instanceof CellError) return ignoreCase
      const matchEnd = optionalNumber(args[4], 0, ctx)
      if (matchEnd instanceof CellError) return matchEnd
      if (instance === 0 || Math.abs(instance) > text.length + 1 || delimiters.length === 0) return CellError.VALUE
      if ((ignoreCase !== 0 && ignoreCase !== 1) || (matchEnd !== 0 && matchEnd !== 1)) return CellError.VALUE
      // An instance the text is too short to hold, given the delimiter, is a wrong argument (when given).
      let shortest = Infinity
      for (const delimiter of delimiters) shortest = Math.min(shortest, delimiter.length)
      const given = args[2] !== undefined && args[2] !== MISSING
      if (given && text !== '' && Math.abs(instance) > text.length - shortest + 1) return CellError.VALUE
      const fromEnd = instance < 0
      const found = occurrences(text, delimiters, ignoreCase === 1, fromEnd)
      // With match_end the end of the text (or its start, counting backwards) is a delimiter too.
      if (matchEnd === 1) found.push(fromEnd ? { start: 0, length: 0 } : { start: text.length, length: 0 })
      const occurrence = found[Math.abs(instance) - 1]
      if (!occurrence) {
        const ifNotFound = args[5]
        if (ifNotFound === undefined || ifNotFound === MISSING) return CellError.NA
        const fallback = toScalar(ifNotFound, ctx)
        return fallback === null ? '' : fallback
      }
      return before ? text.slice(0, occurrence.start) : text.slice(occurrence.start + occurrence.length)
    },
  }
}

export const TEXTBEFORE = textAround('TEXTBEFORE')
export const TEXTAFTER = textAround('TEXTAFTER')

/** Splits text at any of the delimiters (none: the whole text). */
function splitAt(text: string, delimiters: readonly string[], ignoreCase: boolean): string[] {
  const usable = delimiters.filter((delimiter) => delimiter !== '')
  if (usable.length === 0) return [text]
  const parts: string[] = []
  let start = 0
  for (const occurrence of occurrences(text, usable, ignoreCase, false)) {
    parts.push(text.slice(start, occurrence.start))
    start = occurrence.start + occurrence.length
  }
  parts.push(text.slice(start))
  return parts
}

export const TEXTSPLIT: FunctionDefinition = {
  name: 'TEXTSPLIT',
  category: 'text',
  minArgs: 2,
  maxArgs: 6,
  args: ['text', 'any', 'any', 'scalar', 'scalar', 'any'],
  syntax: 'TEXTSPLIT(text, col_delimiter, [row_delimiter], [ignore_empty], [match_mode], [pad_with])',
  description: 'Splits a text into columns at col_delimiter and into rows at row_delimiter, as an array.',
  example: 'TEXTSPLIT("a,b;c,d", ",", ";")',
  impl: (args, ctx) => {
    const text = args[0] as string
    const columnDelimiters = args[1] === MISSING ? [] : delimitersOf(args[1])
    if (columnDelimiters instanceof CellError) return columnDelimiters
    const rowDelimiters = args[2] === undefined || args[2] === MISSING ? [] : delimitersOf(args[2])
    if (rowDelimiters instanceof CellError) return rowDelimiters
    const ignoreEmpty = optionalBoolean(args[3], ctx)
    if (ignoreEmpty instanceof CellError) return ignoreEmpty
    const ignoreCase = optionalNumber(args[4], 0, ctx)
    if (ignoreCase instanceof CellError) return ignoreCase
    if (!columnDelimiters.some((delimiter) => delimiter !== '') && !rowDelimiters.some((delimiter) => delimiter !== '')) return CellError.VALUE
    const padArg = args[5]
    const pad: Scalar = padArg === undefined || padArg === MISSING ? CellError.NA : toScalar(padArg, ctx)
    let rows = splitAt(text, rowDelimiters, ignoreCase === 1).map((row) => splitAt(row, columnDelimiters, ignoreCase === 1))
    if (ignoreEmpty) {
      rows = rows.map((row) => row.filter((cell) => cell !== '')).filter((row) => row.length > 0)
      if (rows.length === 0) return CellError.CALC
    }
    let width = 0
    for (const row of rows) width = Math.max(width, row.length)
    reserveCells(rows.length, width)
    const data: Scalar[] = []
    for (const row of rows) for (let c = 0; c < width; c++) data.push(c < row.length ? row[c] : pad)
    return new ArrayValue(rows.length, width, data)
  },
}

export const functions: readonly FunctionDefinition[] = [TEXTBEFORE, TEXTAFTER, TEXTSPLIT]
