/**
 * Conversions between binary, octal, decimal and hexadecimal. Numbers are at most 10 digits; the
 * 10-digit numbers with the top bit set are negative in two's complement (FFFFFFFFFF is -1).
 */
import { numberToText } from '../../coerce.js'
import { CellError } from '../../values.js'
import { strictNumber } from '../date/serials.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'

type Radix = 2 | 8 | 10 | 16

const NAMES: Record<Radix, string> = { 2: 'BIN', 8: 'OCT', 10: 'DEC', 16: 'HEX' }
const LABELS: Record<Radix, string> = { 2: 'binary', 8: 'octal', 10: 'decimal', 16: 'hexadecimal' }

/** The range of values a 10-digit two's complement number of each radix can hold. */
const LIMITS: Record<Radix, number> = { 2: 2 ** 9, 8: 2 ** 29, 10: 2 ** 39, 16: 2 ** 39 }

/** Reads the text (or number written as text) of a BIN, OCT or HEX number. */
function parseRadix(arg: Arg | undefined, radix: 2 | 8 | 16): number | CellError {
  if (arg === undefined || arg === MISSING || arg === null) return 0
  if (arg instanceof CellError) return arg
  if (typeof arg === 'boolean' || typeof arg === 'object') return CellError.VALUE
  const text = typeof arg === 'number' ? numberToText(arg) : arg.trim()
  if (text === '') return 0
  if (text.length > 10) return CellError.NUM
  const digits = radix === 2 ? /^[01]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9a-fA-F]+$/
  if (!digits.test(text)) return CellError.NUM
  const value = parseInt(text, radix)
  const full = radix ** 10
  return text.length === 10 && value >= full / 2 ? value - full : value
}

/** Reads a decimal argument: booleans are #VALUE!, fractions are truncated. */
function parseDecimal(arg: Arg | undefined): number | CellError {
  const value = strictNumber(arg)
  return value instanceof CellError ? value : Math.trunc(value)
}

/** Writes a value in a radix, padded to `places`; negatives take all 10 digits. */
function formatRadix(value: number, radix: 2 | 8 | 16, placesArg: Arg | undefined): string | CellError {
  const limit = LIMITS[radix]
  if (value < -limit || value >= limit) return CellError.NUM
  let places: number | undefined
  if (placesArg !== undefined && placesArg !== MISSING) {
    const number = strictNumber(placesArg)
    if (number instanceof CellError) return number
    places = Math.trunc(number)
    if (places < 1 || places > 10) return CellError.NUM
  }
  if (value < 0) return (radix ** 10 + value).toString(radix).toUpperCase()
  const text = value.toString(radix).toUpperCase()
  if (places === undefined) return text
  return text.length > places ? CellError.NUM : text.padStart(places, '0')
}

function converter(from: Radix, to: Radix): FunctionDefinition {
  const name = `${NAMES[from]}2${NAMES[to]}`
  const withPlaces = to !== 10
  return {
    name,
    category: 'engineering',
    minArgs: 1,
    maxArgs: withPlaces ? 2 : 1,
    args: ['scalar', 'scalar'],
    syntax: withPlaces ? `${name}(number, [places])` : `${name}(number)`,
    description: `Converts a ${LABELS[from]} number to ${LABELS[to]}${withPlaces ? ', padded with zeros to places digits' : ''}.`,
    example: `${name}(${from === 10 ? '100' : from === 16 ? '"FF"' : '"1100100"'}${withPlaces ? ', 8' : ''})`,
    impl: (args) => {
      const value = from === 10 ? parseDecimal(args[0]) : parseRadix(args[0], from)
      if (value instanceof CellError) return value
      if (to === 10) return value
      return formatRadix(value, to, args[1])
    },
  }
}

const RADIXES: Radix[] = [2, 8, 10, 16]

export const functions: readonly FunctionDefinition[] = RADIXES.flatMap((from) =>
  RADIXES.filter((to) => to !== from).map((to) => converter(from, to)),
)
