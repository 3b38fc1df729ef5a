/**
 * Number helpers shared by the math and statistical functions.
 */
import { CellError } from '../../values.js'
import { readNumber } from '../../input/parse-input.js'
import { numberResult } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, ArgKind, FunctionCategory, FunctionDefinition } from '../types.js'

/** Rounds to 15 significant digits, the precision Excel works to when it compares and rounds. */
export function toSignificant15(value: number): number {
  if (value === 0 || !Number.isFinite(value)) return value
  return Number(value.toPrecision(15))
}

/**
 * An optional argument of kind `number`: absent, omitted (`f(1,)`) or empty gives `fallback`.
 * The engine has already coerced present values to numbers.
 */
export function optional(arg: Arg | undefined, fallback: number): number {
  if (arg === undefined || arg === MISSING || arg === null) return fallback
  return arg as number
}

/**
 * A number argument of the functions that came from Excel's Analysis ToolPak (MROUND, QUOTIENT, GCD...):
 * numeric text counts, but logical values are #VALUE! and an omitted argument is #N/A. Read with the
 * argument kind `scalar`.
 */
export function toolPakNumber(arg: Arg | undefined): number | CellError {
  if (arg === undefined || arg === MISSING) return CellError.NA
  if (arg === null) return 0
  if (typeof arg === 'number') return arg
  if (typeof arg === 'string') {
    const reading = readNumber(arg)
    return reading === undefined ? CellError.VALUE : reading.value
  }
  if (arg instanceof CellError) return arg
  return CellError.VALUE
}

/** Rounds half away from zero at `digits` decimals (negative digits round to tens, hundreds...), as Excel's ROUND. */
export function roundHalfAway(value: number, digits: number): number {
  return roundWith(value, digits, (x) => Math.floor(x + 0.5))
}

/** Rounds away from zero (ROUNDUP). */
export function roundAway(value: number, digits: number): number {
  return roundWith(value, digits, Math.ceil)
}

/** Rounds toward zero (ROUNDDOWN, TRUNC). */
export function roundTowardZero(value: number, digits: number): number {
  return roundWith(value, digits, Math.floor)
}

function roundWith(value: number, digits: number, roundMagnitude: (x: number) => number): number {
  if (!Number.isFinite(value) || value === 0) return value
  const places = Math.trunc(digits)
  const magnitude = Math.abs(value)
  if (places > 15 - Math.floor(Math.log10(magnitude))) {
    // Beyond 15 significant digits there is nothing left to round.
    return value
  }
  let rounded: number
  if (places >= 0) {
    const scale = 10 ** places
    // Scaling can leave 2.675*100 = 267.49999999999997; Excel sees 267.5, so cut to 15 digits first.
    rounded = roundMagnitude(toSignificant15(magnitude * scale)) / scale
  } else {
    const scale = 10 ** -places
    rounded = roundMagnitude(toSignificant15(magnitude / scale)) * scale
  }
  return value < 0 ? -rounded : rounded
}

/** Shorthand for the many functions of one number. */
export function unaryNumberFunction(
  category: FunctionCategory,
  name: string,
  description: string,
  example: string,
  compute: (x: number) => number | CellError,
  argument = 'number',
): FunctionDefinition {
  const kinds: ArgKind[] = ['number']
  return {
    name,
    category,
    minArgs: 1,
    maxArgs: 1,
    args: kinds,
    syntax: `${name}(${argument})`,
    description,
    example,
    impl: ([x]) => {
      const result = compute(x as number)
      return numberResult(result)
    },
  }
}

/** Newer functions take an empty argument for its default (SEQUENCE(3,,10) has one column). */
const KEEP_OMITTED = new Set(['SEQUENCE', 'RANDARRAY', 'NUMBERVALUE'])

/**
 * Excel reads an argument left empty between commas (`NORM.DIST(,0,1,TRUE)`) as the empty value of its
 * type: 0, "" or FALSE. This wraps a function so that its number, text and boolean arguments arrive
 * that way; arguments of the other kinds still arrive as MISSING for the function to judge.
 */
export function omittedAsEmpty(definition: FunctionDefinition): FunctionDefinition {
  if (definition.lazy || !definition.args || definition.args.length === 0) return definition
  if (KEEP_OMITTED.has(definition.name)) return definition
  const kinds = definition.args
  const impl = definition.impl
  return {
    ...definition,
    impl: (args, ctx) => {
      if (!args.includes(MISSING)) return impl(args, ctx)
      const filled = args.map((arg, index) => {
        if (arg !== MISSING) return arg
        const kind = kinds[Math.min(index, kinds.length - 1)]
        return kind === 'number' ? 0 : kind === 'text' ? '' : kind === 'boolean' ? false : arg
      })
      return impl(filled, ctx)
    },
  }
}
