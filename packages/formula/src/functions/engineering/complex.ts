/**
 * Complex numbers written as text ("3+4i", "-2.5j", "i"), and the IM* functions on them. Results are
 * written back with 15 significant digits and the suffix of the input.
 */
import { numberToText } from '../../coerce.js'
import { CellError } from '../../values.js'
import type { Scalar } from '../../values.js'
import { forEachCell } from '../helpers.js'
import { strictNumber } from '../date/serials.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'

interface Complex {
  re: number
  im: number
  /** The imaginary unit's letter, when the text named one. */
  suffix?: 'i' | 'j'
}

const NUMBER = '(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?'
const FULL = new RegExp(`^([+-]?${NUMBER})([+-])(${NUMBER})?([ij])$`)
const IMAGINARY_ONLY = new RegExp(`^([+-]?)(${NUMBER})?([ij])$`)
const REAL_ONLY = new RegExp(`^[+-]?${NUMBER}$`)

/** Parses complex-number text; #NUM! when it is not one. */
export function parseComplex(text: string): Complex | CellError {
  const s = text.trim()
  if (s === '') return { re: 0, im: 0 }
  if (REAL_ONLY.test(s)) return { re: Number(s), im: 0 }
  let m = FULL.exec(s)
  if (m) {
    const magnitude = m[3] === undefined ? 1 : Number(m[3])
    return { re: Number(m[1]), im: m[2] === '-' ? -magnitude : magnitude, suffix: m[4] as 'i' | 'j' }
  }
  m = IMAGINARY_ONLY.exec(s)
  if (m) {
    const magnitude = m[2] === undefined ? 1 : Number(m[2])
    return { re: 0, im: m[1] === '-' ? -magnitude : magnitude, suffix: m[3] as 'i' | 'j' }
  }
  return CellError.NUM
}

/** A complex argument: text, a number (its real part) or an empty cell (0); booleans are #VALUE!. */
function readComplex(arg: Arg | Scalar | undefined): Complex | CellError {
  if (arg === undefined || arg === MISSING || arg === null) return { re: 0, im: 0 }
  if (arg instanceof CellError) return arg
  if (typeof arg === 'number') return { re: arg, im: 0 }
  if (typeof arg === 'string') return parseComplex(arg)
  return CellError.VALUE
}

/**
 * A part of a complex number as text: 15 significant digits, a tiny part written out in full while that
 * takes at most 19 decimals (COMPLEX(1E-18,0) is "0.000000000000000001") and in scientific form beyond
 * (COMPLEX(1E-20,0) is "1E-20", IMSQRT("-1") is "6.12323399573677E-17+i").
 */
function partText(value: number): string {
  const magnitude = Math.abs(value)
  if (magnitude === 0 || magnitude >= 1e-9) return numberToText(value)
  const [mantissa, exponent] = Math.abs(Number(value.toPrecision(15))).toExponential(14).split('e')
  const digits = mantissa.replace('.', '').replace(/0+$/, '').length
  const decimals = digits - 1 - Number(exponent)
  if (decimals > 19) return numberToText(value)
  return Number(value.toPrecision(15)).toFixed(decimals)
}

/** Writes a complex number as Excel does: "3+4i", "-i", "2.5", "0". */
export function formatComplex(z: Complex, suffix: 'i' | 'j' = 'i'): string | CellError {
  if (!Number.isFinite(z.re) || !Number.isFinite(z.im)) return CellError.NUM
  const re = z.re === 0 ? 0 : z.re
  const im = z.im === 0 ? 0 : z.im
  if (im === 0) return partText(re)
  const coefficient = im === 1 ? '' : im === -1 ? '-' : partText(im)
  const imaginary = `${coefficient}${suffix}`
  if (re === 0) return imaginary
  return `${partText(re)}${im > 0 ? '+' : ''}${imaginary}`
}

/** The suffix a result takes from its inputs; mixing i and j is #VALUE!. */
function commonSuffix(values: readonly Complex[]): 'i' | 'j' | CellError {
  let suffix: 'i' | 'j' | undefined
  for (const value of values) {
    if (value.suffix === undefined) continue
    if (suffix !== undefined && suffix !== value.suffix) return CellError.VALUE
    suffix = value.suffix
  }
  return suffix ?? 'i'
}

const multiply = (a: Complex, b: Complex): Complex => ({ re: a.re * b.re - a.im * b.im, im: a.re * b.im + a.im * b.re })

function divide(a: Complex, b: Complex): Complex | CellError {
  const denominator = b.re * b.re + b.im * b.im
  if (denominator === 0) return CellError.NUM
  return { re: (a.re * b.re + a.im * b.im) / denominator, im: (a.im * b.re - a.re * b.im) / denominator }
}

const ONE: Complex = { re: 1, im: 0 }
const sin = (z: Complex): Complex => ({ re: Math.sin(z.re) * Math.cosh(z.im), im: Math.cos(z.re) * Math.sinh(z.im) })
const cos = (z: Complex): Complex => ({ re: Math.cos(z.re) * Math.cosh(z.im), im: -Math.sin(z.re) * Math.sinh(z.im) })
const sinh = (z: Complex): Complex => ({ re: Math.sinh(z.re) * Math.cos(z.im), im: Math.cosh(z.re) * Math.sin(z.im) })
const cosh = (z: Complex): Complex => ({ re: Math.cosh(z.re) * Math.cos(z.im), im: Math.sinh(z.re) * Math.sin(z.im) })

function ln(z: Complex): Complex | CellError {
  if (z.re === 0 && z.im === 0) return CellError.NUM
  return { re: Math.log(Math.hypot(z.re, z.im)), im: Math.atan2(z.im, z.re) }
}

function scaled(z: Complex | CellError, factor: number): Complex | CellError {
  return z instanceof CellError ? z : { re: z.re * factor, im: z.im * factor }
}

function unary(name: string, description: string, compute: (z: Complex) => Complex | CellError): FunctionDefinition {
  return {
    name,
    category: 'engineering',
    minArgs: 1,
    maxArgs: 1,
    args: ['scalar'],
    syntax: `${name}(inumber)`,
    description,
    example: `${name}("3+4i")`,
    impl: ([arg]) => {
      const z = readComplex(arg)
      if (z instanceof CellError) return z
      const result = compute(z)
      return result instanceof CellError ? result : formatComplex(result, z.suffix)
    },
  }
}

function real(name: string, description: string, compute: (z: Complex) => number | CellError): FunctionDefinition {
  return {
    name,
    category: 'engineering',
    minArgs: 1,
    maxArgs: 1,
    args: ['scalar'],
    syntax: `${name}(inumber)`,
    description,
    example: `${name}("3+4i")`,
    impl: ([arg]) => {
      const z = readComplex(arg)
      return z instanceof CellError ? z : compute(z)
    },
  }
}

export const COMPLEX: FunctionDefinition = {
  name: 'COMPLEX',
  category: 'engineering',
  minArgs: 2,
  maxArgs: 3,
  args: ['scalar', 'scalar', 'scalar'],
  syntax: 'COMPLEX(real_num, i_num, [suffix])',
  description: 'Returns the complex number real_num + i_num·i as text, with the suffix "i" (default) or "j".',
  example: 'COMPLEX(3, 4)',
  impl: (args) => {
    const re = strictNumber(args[0])
    if (re instanceof CellError) return re
    const im = strictNumber(args[1])
    if (im instanceof CellError) return im
    const suffixArg = args[2]
    let suffix: 'i' | 'j' = 'i'
    if (suffixArg !== undefined && suffixArg !== MISSING && suffixArg !== null && suffixArg !== '') {
      if (suffixArg instanceof CellError) return suffixArg
      if (suffixArg !== 'i' && suffixArg !== 'j') return CellError.VALUE
      suffix = suffixArg
    }
    return formatComplex({ re, im }, suffix)
  },
}

export const IMREAL = real('IMREAL', 'Returns the real part of a complex number.', (z) => z.re)
export const IMAGINARY = real('IMAGINARY', 'Returns the imaginary part of a complex number.', (z) => z.im)
export const IMABS = real('IMABS', 'Returns the absolute value (modulus) of a complex number.', (z) => Math.hypot(z.re, z.im))
export const IMARGUMENT = real('IMARGUMENT', 'Returns the argument θ of a complex number, in radians.', (z) =>
  z.re === 0 && z.im === 0 ? CellError.DIV0 : Math.atan2(z.im, z.re),
)
export const IMCONJUGATE = unary('IMCONJUGATE', 'Returns the complex conjugate of a complex number.', (z) => ({ re: z.re, im: -z.im }))
export const IMSIN = unary('IMSIN', 'Returns the sine of a complex number.', sin)
export const IMCOS = unary('IMCOS', 'Returns the cosine of a complex number.', cos)
export const IMTAN = unary('IMTAN', 'Returns the tangent of a complex number.', (z) => divide(sin(z), cos(z)))
export const IMCOT = unary('IMCOT', 'Returns the cotangent of a complex number.', (z) => divide(cos(z), sin(z)))
export const IMSEC = unary('IMSEC', 'Returns the secant of a complex number.', (z) => divide(ONE, cos(z)))
export const IMCSC = unary('IMCSC', 'Returns the cosecant of a complex number.', (z) => divide(ONE, sin(z)))
export const IMSINH = unary('IMSINH', 'Returns the hyperbolic sine of a complex number.', sinh)
export const IMCOSH = unary('IMCOSH', 'Returns the hyperbolic cosine of a complex number.', cosh)
export const IMSECH = unary('IMSECH', 'Returns the hyperbolic secant of a complex number.', (z) => divide(ONE, cosh(z)))
export const IMCSCH = unary('IMCSCH', 'Returns the hyperbolic cosecant of a complex number.', (z) => divide(ONE, sinh(z)))
export const IMEXP = unary('IMEXP', 'Returns the exponential of a complex number.', (z) => ({
  re: Math.exp(z.re) * Math.cos(z.im),
  im: Math.exp(z.re) * Math.sin(z.im),
}))
export const IMLN = unary('IMLN', 'Returns the natural logarithm of a complex number.', ln)
export const IMLOG10 = unary('IMLOG10', 'Returns the base-10 logarithm of a complex number.', (z) => scaled(ln(z), Math.LOG10E))
export const IMLOG2 = unary('IMLOG2', 'Returns the base-2 logarithm of a complex number.', (z) => scaled(ln(z), Math.LOG2E))
export const IMSQRT = unary('IMSQRT', 'Returns the square root of a complex number.', (z) => {
  const modulus = Math.sqrt(Math.hypot(z.re, z.im))
  const angle = Math.atan2(z.im, z.re) / 2
  return { re: modulus * Math.cos(angle), im: modulus * Math.sin(angle) }
})

export const IMPOWER: FunctionDefinition = {
  name: 'IMPOWER',
  category: 'engineering',
  minArgs: 2,
  maxArgs: 2,
  args: ['scalar', 'scalar'],
  syntax: 'IMPOWER(inumber, number)',
  description: 'Returns a complex number raised to a real power.',
  example: 'IMPOWER("2+3i", 3)',
  impl: (args) => {
    const z = readComplex(args[0])
    if (z instanceof CellError) return z
    const power = strictNumber(args[1])
    if (power instanceof CellError) return power
    const modulus = Math.hypot(z.re, z.im)
    if (modulus === 0) return power <= 0 ? CellError.NUM : '0'
    const angle = Math.atan2(z.im, z.re) * power
    const length = Math.pow(modulus, power)
    return formatComplex({ re: length * Math.cos(angle), im: length * Math.sin(angle) }, z.suffix)
  },
}

function binary(name: string, description: string, compute: (a: Complex, b: Complex) => Complex | CellError): FunctionDefinition {
  return {
    name,
    category: 'engineering',
    minArgs: 2,
    maxArgs: 2,
    args: ['scalar', 'scalar'],
    syntax: `${name}(inumber1, inumber2)`,
    description,
    example: `${name}("3+4i", "1-2i")`,
    impl: (args) => {
      const a = readComplex(args[0])
      if (a instanceof CellError) return a
      const b = readComplex(args[1])
      if (b instanceof CellError) return b
      const suffix = commonSuffix([a, b])
      if (suffix instanceof CellError) return suffix
      const result = compute(a, b)
      return result instanceof CellError ? result : formatComplex(result, suffix)
    },
  }
}

export const IMDIV = binary('IMDIV', 'Returns the quotient of two complex numbers.', divide)
export const IMSUB = binary('IMSUB', 'Returns the difference of two complex numbers.', (a, b) => ({ re: a.re - b.re, im: a.im - b.im }))

function aggregate(name: string, description: string, start: Complex, combine: (a: Complex, b: Complex) => Complex): FunctionDefinition {
  return {
    name,
    category: 'engineering',
    minArgs: 1,
    maxArgs: 255,
    args: ['any'],
    syntax: `${name}(inumber1, [inumber2], ...)`,
    description,
    example: `${name}("3+4i", "5-3i")`,
    impl: (args) => {
      const values: Complex[] = []
      let error: CellError | undefined
      for (const arg of args) {
        forEachCell(arg, (cell) => {
          const z = readComplex(cell)
          if (z instanceof CellError) {
            error = z
            return false
          }
          values.push(z)
        })
        if (error) return error
      }
      const suffix = commonSuffix(values)
      if (suffix instanceof CellError) return suffix
      return formatComplex(values.reduce(combine, start), suffix)
    },
  }
}

export const IMSUM = aggregate('IMSUM', 'Returns the sum of complex numbers.', { re: 0, im: 0 }, (a, b) => ({
  re: a.re + b.re,
  im: a.im + b.im,
}))
export const IMPRODUCT = aggregate('IMPRODUCT', 'Returns the product of complex numbers.', ONE, multiply)

export const functions: readonly FunctionDefinition[] = [
  COMPLEX,
  IMREAL,
  IMAGINARY,
  IMABS,
  IMARGUMENT,
  IMCONJUGATE,
  IMSIN,
  IMCOS,
  IMTAN,
  IMCOT,
  IMSEC,
  IMCSC,
  IMSINH,
  IMCOSH,
  IMSECH,
  IMCSCH,
  IMEXP,
  IMLN,
  IMLOG10,
  IMLOG2,
  IMSQRT,
  IMPOWER,
  IMDIV,
  IMSUB,
  IMSUM,
  IMPRODUCT,
]
