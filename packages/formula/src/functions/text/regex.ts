/**
 * Regular expressions: REGEXTEST, REGEXEXTRACT, REGEXREPLACE. Excel's patterns are PCRE2; JavaScript's
 * engine reads the same syntax for everything but a few rarely used constructs.
 */
import { ArrayValue, CellError } from '../../values.js'
import type { Scalar } from '../../values.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { textResult } from './basic.js'

/** Compiles a pattern; case_sensitivity 1 ignores case, as does a leading `(?i)`. Undefined when invalid. */
function compile(pattern: string, caseArg: Arg | undefined, global: boolean): RegExp | CellError {
  const sensitivity = caseArg === undefined || caseArg === MISSING ? 0 : Math.trunc(caseArg as number)
  if (sensitivity !== 0 && sensitivity !== 1) return CellError.VALUE
  let source = pattern
  let flags = global ? 'g' : ''
  if (sensitivity === 1) flags += 'i'
  const inline = /^\(\?i\)/.exec(source)
  if (inline) {
    source = source.slice(inline[0].length)
    if (!flags.includes('i')) flags += 'i'
  }
  try {
    return new RegExp(source, flags + 'u')
  } catch {
    try {
      return new RegExp(source, flags)
    } catch {
      return CellError.VALUE
    }
  }
}

export const REGEXTEST: FunctionDefinition = {
  name: 'REGEXTEST',
  category: 'text',
  minArgs: 2,
  maxArgs: 3,
  args: ['text', 'text', 'number'],
  syntax: 'REGEXTEST(text, pattern, [case_sensitivity])',
  description: 'Returns TRUE if any part of the text matches the regular expression.',
  example: 'REGEXTEST(A1, "[0-9]{3}")',
  impl: ([text, pattern, caseArg]) => {
    const regex = compile(pattern as string, caseArg, false)
    return regex instanceof CellError ? regex : regex.test(text as string)
  },
}

export const REGEXEXTRACT: FunctionDefinition = {
  name: 'REGEXEXTRACT',
  category: 'text',
  minArgs: 2,
  maxArgs: 4,
  args: ['text', 'text', 'number', 'number'],
  syntax: 'REGEXEXTRACT(text, pattern, [return_mode], [case_sensitivity])',
  description:
    'Returns the first match of a regular expression (return_mode 0), every match (1) or the groups of the first match (2).',
  example: 'REGEXEXTRACT(A1, "[A-Z][a-z]+", 1)',
  impl: ([textArg, pattern, modeArg, caseArg]) => {
    const text = textArg as string
    const mode = modeArg === undefined || modeArg === MISSING ? 0 : Math.trunc(modeArg as number)
    if (mode < 0 || mode > 2) return CellError.VALUE
    const regex = compile(pattern as string, caseArg, mode === 1)
    if (regex instanceof CellError) return regex
    if (mode === 1) {
      const matches = [...text.matchAll(regex)].map((match) => match[0])
      return matches.length === 0 ? CellError.NA : new ArrayValue(1, matches.length, matches)
    }
    const match = regex.exec(text)
    if (!match) return CellError.NA
    if (mode === 0) return match[0]
    const groups: Scalar[] = match.slice(1).map((group) => group ?? '')
    return groups.length === 0 ? CellError.NA : new ArrayValue(1, groups.length, groups)
  },
}

export const REGEXREPLACE: FunctionDefinition = {
  name: 'REGEXREPLACE',
  category: 'text',
  minArgs: 3,
  maxArgs: 5,
  args: ['text', 'text', 'text', 'number', 'number'],
  syntax: 'REGEXREPLACE(text, pattern, replacement, [occurrence], [case_sensitivity])',
  description:
    'Replaces the matches of a regular expression: all of them (occurrence 0), or only the n-th (from the end when negative).',
  example: 'REGEXREPLACE(A1, "([A-Z][a-z]+)([A-Z][a-z]+)", "$2, $1")',
  impl: ([textArg, pattern, replacementArg, occurrenceArg, caseArg]) => {
    const text = textArg as string
    const replacement = replacementArg as string
    const occurrence = occurrenceArg === undefined || occurrenceArg === MISSING ? 0 : Math.trunc(occurrenceArg as number)
    const regex = compile(pattern as string, caseArg, true)
    if (regex instanceof CellError) return regex
    if (occurrence === 0) return textResult(text.replace(regex, replacement))
    const matches = [...text.matchAll(regex)]
    const chosen = matches[occurrence > 0 ? occurrence - 1 : matches.length + occurrence]
    if (!chosen || chosen.index === undefined) return text
    const single = new RegExp(regex.source, regex.flags.replace('g', ''))
    const replaced = chosen[0].replace(single, replacement)
    return textResult(text.slice(0, chosen.index) + replaced + text.slice(chosen.index + chosen[0].length))
  },
}

export const functions: readonly FunctionDefinition[] = [REGEXTEST, REGEXEXTRACT, REGEXREPLACE]
