/**
 * Bitwise operations on whole numbers below 2^48, and the DELTA and GESTEP tests.
 */
import { CellError } from '../../values.js'
import { strictNumber } from '../date/serials.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'

const BIT_LIMIT = 2 ** 48

/** A bitwise operand (already coerced, TRUE is 1): a whole number from 0 to 2^48 - 1. */
function operand(arg: Arg | undefined): bigint | CellError {
  const value = arg as number
  if (value < 0 || value >= BIT_LIMIT || !Number.isInteger(value)) return CellError.NUM
  return BigInt(value)
}

function bitwise(name: string, verb: string, combine: (a: bigint, b: bigint) => bigint): FunctionDefinition {
  return {
    name,
    category: 'engineering',
    minArgs: 2,
    maxArgs: 2,
    args: ['number', 'number'],
    syntax: `${name}(number1, number2)`,
    description: `Returns the bitwise ${verb} of two whole numbers below 2^48.`,
    example: `${name}(13, 25)`,
    impl: (args) => {
      const a = operand(args[0])
      if (a instanceof CellError) return a
      const b = operand(args[1])
      if (b instanceof CellError) return b
      return Number(combine(a, b))
    },
  }
}

function shift(name: string, direction: 1 | -1): FunctionDefinition {
  return {
    name,
    category: 'engineering',
    minArgs: 2,
    maxArgs: 2,
    args: ['number', 'number'],
    syntax: `${name}(number, shift_amount)`,
    description: `Returns a whole number shifted ${direction === 1 ? 'left' : 'right'} by a number of bits (the other way when negative).`,
    example: `${name}(4, 2)`,
    impl: (args) => {
      const value = operand(args[0])
      if (value instanceof CellError) return value
      const bits = Math.trunc(args[1] as number) * direction
      if (Math.abs(bits) > 53) return CellError.NUM
      const result = bits >= 0 ? value << BigInt(bits) : value >> BigInt(-bits)
      return result >= BigInt(BIT_LIMIT) ? CellError.NUM : Number(result)
    },
  }
}

export const BITAND = bitwise('BITAND', 'AND', (a, b) => a & b)
export const BITOR = bitwise('BITOR', 'OR', (a, b) => a | b)
export const BITXOR = bitwise('BITXOR', 'exclusive OR', (a, b) => a ^ b)
export const BITLSHIFT = shift('BITLSHIFT', 1)
export const BITRSHIFT = shift('BITRSHIFT', -1)

export const DELTA: FunctionDefinition = {
  name: 'DELTA',
  category: 'engineering',
  minArgs: 1,
  maxArgs: 2,
  args: ['scalar', 'scalar'],
  syntax: 'DELTA(number1, [number2])',
  description: 'Returns 1 if two numbers are equal (number2 defaults to 0) and 0 otherwise.',
  example: 'DELTA(5, 4)',
  impl: (args) => {
    const a = strictNumber(args[0])
    if (a instanceof CellError) return a
    const b = args[1] === undefined || args[1] === MISSING ? 0 : strictNumber(args[1])
    if (b instanceof CellError) return b
    return a === b ? 1 : 0
  },
}

export const GESTEP: FunctionDefinition = {
  name: 'GESTEP',
  category: 'engineering',
  minArgs: 1,
  maxArgs: 2,
  args: ['scalar', 'scalar'],
  syntax: 'GESTEP(number, [step])',
  description: 'Returns 1 if a number is greater than or equal to step (default 0) and 0 otherwise.',
  example: 'GESTEP(5, 4)',
  impl: (args) => {
    const value = strictNumber(args[0])
    if (value instanceof CellError) return value
    const step = args[1] === undefined || args[1] === MISSING ? 0 : strictNumber(args[1])
    if (step instanceof CellError) return step
    return value >= step ? 1 : 0
  },
}

export const functions: readonly FunctionDefinition[] = [BITAND, BITOR, BITXOR, BITLSHIFT, BITRSHIFT, DELTA, GESTEP]
