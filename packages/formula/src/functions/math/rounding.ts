/**
 * Rounding: to decimal places (ROUND family, TRUNC) and to multiples (MROUND, CEILING and FLOOR family).
 */
import { CellError } from '../../values.js'
import { numberResult } from '../helpers.js'
import type { FunctionDefinition } from '../types.js'
import { optional, roundAway, roundHalfAway, roundTowardZero, toSignificant15, toolPakNumber } from './numeric.js'

function digitsFunction(
  name: string,
  description: string,
  example: string,
  round: (value: number, digits: number) => number,
  digitsOptional: boolean,
): FunctionDefinition {
  return {
    name,
    category: 'math',
    minArgs: digitsOptional ? 1 : 2,
    maxArgs: 2,
    args: ['number', 'number'],
    syntax: digitsOptional ? `${name}(number, [num_digits])` : `${name}(number, num_digits)`,
    description,
    example,
    impl: (args) => numberResult(round(args[0] as number, Math.trunc(optional(args[1], 0)))),
  }
}

export const ROUND = digitsFunction(
  'ROUND',
  'Rounds a number to a number of digits, halves away from zero.',
  'ROUND(2.15, 1)',
  roundHalfAway,
  false,
)

export const ROUNDUP = digitsFunction(
  'ROUNDUP',
  'Rounds a number away from zero to a number of digits.',
  'ROUNDUP(3.14159, 2)',
  roundAway,
  false,
)

export const ROUNDDOWN = digitsFunction(
  'ROUNDDOWN',
  'Rounds a number toward zero to a number of digits.',
  'ROUNDDOWN(3.14159, 2)',
  roundTowardZero,
  false,
)

export const TRUNC = digitsFunction(
  'TRUNC',
  'Truncates a number to a number of digits (an integer by default) by removing the rest.',
  'TRUNC(8.9)',
  roundTowardZero,
  true,
)

/** How many `step`s fit in `value`, cut to 15 digits so that 0.3/0.1 counts as 3 and not 2.9999999999999996. */
function steps(value: number, step: number): number {
  return toSignificant15(value / step)
}

export const MROUND: FunctionDefinition = {
  name: 'MROUND',
  category: 'math',
  minArgs: 2,
  maxArgs: 2,
  args: ['scalar', 'scalar'],
  syntax: 'MROUND(number, multiple)',
  description: 'Returns a number rounded to the nearest multiple, halves away from zero.',
  example: 'MROUND(10, 3)',
  readsEmptyArguments: true,
  impl: ([a, b]) => {
    const value = toolPakNumber(a)
    if (value instanceof CellError) return value
    const multiple = toolPakNumber(b)
    if (multiple instanceof CellError) return multiple
    if (multiple === 0 || value === 0) return 0
    if (Math.sign(value) !== Math.sign(multiple)) return CellError.NUM
    const count = steps(value, multiple)
    return numberResult(toSignificant15(Math.floor(count + 0.5) * multiple))
  },
}

/** Rounds `value` to a multiple of |significance| toward +∞ (`up`) or −∞. */
function toMultiple(value: number, significance: number, up: boolean): number {
  const step = Math.abs(significance)
  if (step === 0 || value === 0) return 0
  const count = steps(value, step)
  // 3 × 0.1 is 0.30000000000000004 in binary; Excel's 15 digits give 0.3.
  return toSignificant15((up ? Math.ceil(count) : Math.floor(count)) * step)
}

export const CEILING: FunctionDefinition = {
  name: 'CEILING',
  category: 'math',
  minArgs: 2,
  maxArgs: 2,
  args: ['number', 'number'],
  syntax: 'CEILING(number, significance)',
  description: 'Rounds a number up, away from zero for positive numbers, to the nearest multiple of significance.',
  example: 'CEILING(2.5, 1)',
  impl: ([a, b]) => {
    const value = a as number
    const significance = b as number
    if (significance === 0) return 0
    if (value > 0 && significance < 0) return CellError.NUM
    // A negative number with a negative significance rounds away from zero; otherwise toward +∞.
    const up = !(value < 0 && significance < 0)
    return numberResult(toMultiple(value, significance, up))
  },
}

export const FLOOR: FunctionDefinition = {
  name: 'FLOOR',
  category: 'math',
  minArgs: 2,
  maxArgs: 2,
  args: ['number', 'number'],
  syntax: 'FLOOR(number, significance)',
  description: 'Rounds a number down, toward zero for positive numbers, to the nearest multiple of significance.',
  example: 'FLOOR(3.7, 2)',
  impl: ([a, b]) => {
    const value = a as number
    const significance = b as number
    if (significance === 0) return value === 0 ? 0 : CellError.DIV0
    if (value > 0 && significance < 0) return CellError.NUM
    const up = value < 0 && significance < 0
    return numberResult(toMultiple(value, significance, up))
  },
}

export const CEILING_MATH: FunctionDefinition = {
  name: 'CEILING.MATH',
  category: 'math',
  minArgs: 1,
  maxArgs: 3,
  args: ['number', 'number', 'number'],
  syntax: 'CEILING.MATH(number, [significance], [mode])',
  description:
    'Rounds a number up to the nearest integer or multiple of significance; a non-zero mode rounds negative numbers away from zero.',
  example: 'CEILING.MATH(-5.5, 2, -1)',
  impl: (args) => {
    const value = args[0] as number
    const significance = optional(args[1], 1)
    const mode = optional(args[2], 0)
    const up = !(value < 0 && mode !== 0)
    return numberResult(toMultiple(value, significance, up))
  },
}

export const FLOOR_MATH: FunctionDefinition = {
  name: 'FLOOR.MATH',
  category: 'math',
  minArgs: 1,
  maxArgs: 3,
  args: ['number', 'number', 'number'],
  syntax: 'FLOOR.MATH(number, [significance], [mode])',
  description:
    'Rounds a number down to the nearest integer or multiple of significance; a non-zero mode rounds negative numbers toward zero.',
  example: 'FLOOR.MATH(-5.5, 2, -1)',
  impl: (args) => {
    const value = args[0] as number
    const significance = optional(args[1], 1)
    const mode = optional(args[2], 0)
    const up = value < 0 && mode !== 0
    return numberResult(toMultiple(value, significance, up))
  },
}

function preciseFunction(name: string, up: boolean, description: string, example: string): FunctionDefinition {
  return {
    name,
    category: 'math',
    minArgs: 1,
    maxArgs: 2,
    args: ['number', 'number'],
    syntax: `${name}(number, [significance])`,
    description,
    example,
    impl: (args) => numberResult(toMultiple(args[0] as number, optional(args[1], 1), up)),
  }
}

export const CEILING_PRECISE = preciseFunction(
  'CEILING.PRECISE',
  true,
  'Rounds a number up to the nearest integer or multiple of significance, whatever the signs.',
  'CEILING.PRECISE(-4.3, 2)',
)

export const ISO_CEILING = preciseFunction(
  'ISO.CEILING',
  true,
  'Rounds a number up to the nearest integer or multiple of significance, whatever the signs.',
  'ISO.CEILING(4.3, 2)',
)

export const FLOOR_PRECISE = preciseFunction(
  'FLOOR.PRECISE',
  false,
  'Rounds a number down to the nearest integer or multiple of significance, whatever the signs.',
  'FLOOR.PRECISE(-3.2, 1)',
)

export const functions: readonly FunctionDefinition[] = [
  ROUND,
  ROUNDUP,
  ROUNDDOWN,
  TRUNC,
  MROUND,
  CEILING,
  FLOOR,
  CEILING_MATH,
  FLOOR_MATH,
  CEILING_PRECISE,
  ISO_CEILING,
  FLOOR_PRECISE,
]
