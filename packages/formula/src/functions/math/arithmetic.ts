/**
 * Arithmetic of single numbers: signs, powers, logarithms, factorials, combinations, divisibility.
 */
import { ArrayValue, CellError, RangeRef, ReferenceList } from '../../values.js'
import { forEachCell, forEachNumber, numberResult } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { optional, toSignificant15, toolPakNumber, unaryNumberFunction } from './numeric.js'

export const ABS = unaryNumberFunction('math', 'ABS', 'Returns the absolute value of a number.', 'ABS(-4)', Math.abs)

export const SIGN = unaryNumberFunction(
  'math',
  'SIGN',
  'Returns 1 for a positive number, 0 for zero and -1 for a negative number.',
  'SIGN(-3)',
  (x) => (x > 0 ? 1 : x < 0 ? -1 : 0),
)

export const INT = unaryNumberFunction(
  'math',
  'INT',
  'Rounds a number down to the nearest integer.',
  'INT(-8.9)',
  Math.floor,
)

export const SQRT = unaryNumberFunction('math', 'SQRT', 'Returns the positive square root of a number.', 'SQRT(16)', (x) =>
  x < 0 ? CellError.NUM : Math.sqrt(x),
)

export const SQRTPI = unaryNumberFunction(
  'math',
  'SQRTPI',
  'Returns the square root of a number multiplied by pi.',
  'SQRTPI(2)',
  (x) => (x < 0 ? CellError.NUM : Math.sqrt(x * Math.PI)),
)

export const EXP = unaryNumberFunction('math', 'EXP', 'Returns e raised to the power of a number.', 'EXP(1)', Math.exp)

export const LN = unaryNumberFunction('math', 'LN', 'Returns the natural logarithm of a number.', 'LN(86)', (x) =>
  x <= 0 ? CellError.NUM : Math.log(x),
)

export const LOG10 = unaryNumberFunction('math', 'LOG10', 'Returns the base-10 logarithm of a number.', 'LOG10(100)', (x) =>
  x <= 0 ? CellError.NUM : Math.log10(x),
)

export const LOG: FunctionDefinition = {
  name: 'LOG',
  category: 'math',
  minArgs: 1,
  maxArgs: 2,
  args: ['number', 'number'],
  syntax: 'LOG(number, [base])',
  description: 'Returns the logarithm of a number to the base you specify (10 when omitted).',
  example: 'LOG(8, 2)',
  impl: (args) => {
    const x = args[0] as number
    const base = optional(args[1], 10)
    if (x <= 0 || base <= 0) return CellError.NUM
    if (base === 1) return CellError.DIV0
    if (base === 10) return Math.log10(x)
    return numberResult(Math.log(x) / Math.log(base))
  },
}

export const POWER: FunctionDefinition = {
  name: 'POWER',
  category: 'math',
  minArgs: 2,
  maxArgs: 2,
  args: ['number', 'number'],
  syntax: 'POWER(number, power)',
  description: 'Returns a number raised to a power.',
  example: 'POWER(5, 2)',
  impl: ([base, exponent]) => power(base as number, exponent as number),
}

/** Excel's `^`: 0^0 and roots of negative numbers are #NUM!, 0 to a negative power #DIV/0!. */
export function power(base: number, exponent: number): number | CellError {
  if (base === 0) {
    if (exponent === 0) return CellError.NUM
    if (exponent < 0) return CellError.DIV0
  }
  if (base < 0 && !Number.isInteger(exponent)) return CellError.NUM
  return numberResult(base ** exponent)
}

export const MOD: FunctionDefinition = {
  name: 'MOD',
  category: 'math',
  minArgs: 2,
  maxArgs: 2,
  args: ['number', 'number'],
  syntax: 'MOD(number, divisor)',
  description: 'Returns the remainder after a number is divided by a divisor, with the sign of the divisor.',
  example: 'MOD(3, 2)',
  impl: ([n, d]) => mod(n as number, d as number),
}

/**
 * Excel's MOD: the divisor times the fractional part of the quotient, where the quotient is taken with
 * more than double precision (MOD(5, 1E-10) is 9.99998E-11 in Excel, not 0 as 5/1E-10 rounds to 5E10).
 */
export function mod(n: number, d: number): number | CellError {
  if (d === 0) return CellError.DIV0
  const high = n / d
  if (!Number.isFinite(high)) return CellError.NUM
  // The quotient as high + low, low from the exact remainder of n - high × d.
  const low = exactRemainder(n, high, d) / d
  const whole = Math.floor(high)
  let fraction = high - whole + low
  if (fraction < 0) fraction += 1
  else if (fraction >= 1) fraction -= 1
  const result = d * fraction
  return numberResult(result === 0 ? 0 : result)
}

const SPLITTER = 134_217_729 // 2^27 + 1, Veltkamp's constant for splitting doubles

/** a - b × c, computed exactly (Dekker's product) before the final rounding. */
function exactRemainder(a: number, b: number, c: number): number {
  const product = b * c
  const bBig = SPLITTER * b
  const bHigh = bBig - (bBig - b)
  const bLow = b - bHigh
  const cBig = SPLITTER * c
  const cHigh = cBig - (cBig - c)
  const cLow = c - cHigh
  const productError = bHigh * cHigh - product + bHigh * cLow + bLow * cHigh + bLow * cLow
  return a - product - productError
}

export const QUOTIENT: FunctionDefinition = {
  name: 'QUOTIENT',
  category: 'math',
  minArgs: 2,
  maxArgs: 2,
  args: ['scalar', 'scalar'],
  syntax: 'QUOTIENT(numerator, denominator)',
  description: 'Returns the integer part of a division.',
  example: 'QUOTIENT(5, 2)',
  readsEmptyArguments: true,
  impl: ([a, b]) => {
    const n = toolPakNumber(a)
    if (n instanceof CellError) return n
    const d = toolPakNumber(b)
    if (d instanceof CellError) return d
    if (d === 0) return CellError.DIV0
    return numberResult(Math.trunc(toSignificant15(n / d)))
  },
}

export const PI: FunctionDefinition = {
  name: 'PI',
  category: 'math',
  minArgs: 0,
  maxArgs: 0,
  args: [],
  syntax: 'PI()',
  description: 'Returns the number pi, 3.14159265358979, to 15 digits.',
  example: 'PI()',
  impl: () => Math.PI,
}

export const DEGREES = unaryNumberFunction(
  'math',
  'DEGREES',
  'Converts radians into degrees.',
  'DEGREES(PI())',
  (x) => (x * 180) / Math.PI,
  'angle',
)

export const RADIANS = unaryNumberFunction(
  'math',
  'RADIANS',
  'Converts degrees to radians.',
  'RADIANS(270)',
  (x) => (x * Math.PI) / 180,
  'angle',
)

function roundAwayToMultiple(x: number, step: 1 | 2, offset: 0 | 1): number {
  // EVEN and ODD round away from zero to the next even (or odd) integer.
  const magnitude = Math.ceil(toSignificant15(Math.abs(x)))
  let result = magnitude
  if ((result - offset) % step !== 0) result++
  if (offset === 1 && result === 0) result = 1
  return x < 0 ? -result : result
}

export const EVEN = unaryNumberFunction(
  'math',
  'EVEN',
  'Rounds a number away from zero to the nearest even integer.',
  'EVEN(1.5)',
  (x) => roundAwayToMultiple(x, 2, 0),
)

export const ODD = unaryNumberFunction(
  'math',
  'ODD',
  'Rounds a number away from zero to the nearest odd integer.',
  'ODD(1.5)',
  (x) => roundAwayToMultiple(x, 2, 1),
)

/** n! for a whole n ≥ 0, exact while it fits in a double. */
export function factorial(n: number): number {
  let result = 1
  for (let i = 2; i <= n; i++) result *= i
  return result
}

export const FACT = unaryNumberFunction('math', 'FACT', 'Returns the factorial of a number.', 'FACT(5)', (x) => {
  if (x < 0) return CellError.NUM
  const n = Math.floor(x)
  if (n > 170) return CellError.NUM
  return factorial(n)
})

export const FACTDOUBLE = unaryNumberFunction(
  'math',
  'FACTDOUBLE',
  'Returns the double factorial of a number (n × (n-2) × ...).',
  'FACTDOUBLE(7)',
  (x) => {
    if (x < -1) return CellError.NUM
    const n = Math.floor(x)
    // 301!! is already beyond the largest double.
    if (n > 300) return CellError.NUM
    let result = 1
    for (let i = n; i > 1; i -= 2) result *= i
    return numberResult(result)
  },
)

/** ln(n!) by Stirling's series, for large whole n. */
function logFactorial(n: number): number {
  if (n < 2) return 0
  const x = n + 1
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + 1 / (12 * x) - 1 / (360 * x * x * x)
}

/** The binomial coefficient n over k for whole numbers 0 ≤ k ≤ n, computed without overflowing early. */
export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0
  const m = Math.min(k, n - k)
  // Past a thousand factors the product is far beyond 2^53 anyway; the gamma function gets there at once.
  if (m > 1000) return Math.exp(logFactorial(n) - logFactorial(k) - logFactorial(n - k))
  let result = 1
  for (let i = 1; i <= m; i++) result = (result * (n - m + i)) / i
  return Math.round(result) === result || result > 2 ** 53 ? result : Math.round(result)
}

export const COMBIN: FunctionDefinition = {
  name: 'COMBIN',
  category: 'math',
  minArgs: 2,
  maxArgs: 2,
  args: ['number', 'number'],
  syntax: 'COMBIN(number, number_chosen)',
  description: 'Returns the number of combinations of number_chosen items out of number.',
  example: 'COMBIN(8, 2)',
  impl: ([a, b]) => {
    const n = Math.trunc(a as number)
    const k = Math.trunc(b as number)
    if (n < 0 || k < 0 || n < k) return CellError.NUM
    return numberResult(binomial(n, k))
  },
}

export const COMBINA: FunctionDefinition = {
  name: 'COMBINA',
  category: 'math',
  minArgs: 2,
  maxArgs: 2,
  args: ['number', 'number'],
  syntax: 'COMBINA(number, number_chosen)',
  description: 'Returns the number of combinations, with repetitions, of number_chosen items out of number.',
  example: 'COMBINA(4, 3)',
  impl: ([a, b]) => {
    const n = Math.trunc(a as number)
    const k = Math.trunc(b as number)
    if (n < 0 || k < 0 || (n === 0 && k > 0)) return CellError.NUM
    if (k === 0) return 1
    return numberResult(binomial(n + k - 1, k))
  },
}

export const MULTINOMIAL: FunctionDefinition = {
  name: 'MULTINOMIAL',
  category: 'math',
  minArgs: 1,
  maxArgs: 255,
  args: ['any'],
  syntax: 'MULTINOMIAL(number1, [number2], ...)',
  description: 'Returns the factorial of the sum of the numbers divided by the product of their factorials.',
  example: 'MULTINOMIAL(2, 3, 4)',
  impl: (args) => {
    const numbers = toolPakNumbers(args)
    if (numbers instanceof CellError) return numbers
    let total = 0
    let result = 1
    for (const x of numbers) {
      if (x < 0) return CellError.NUM
      const n = Math.trunc(x)
      // Multiply by C(total + n, n) one term at a time to stay within range as long as possible.
      result *= binomial(total + n, n)
      total += n
    }
    return numberResult(result)
  },
}

function gcdOfTwo(a: number, b: number): number {
  while (b !== 0) {
    const t = a % b
    a = b
    b = t
  }
  return a
}

/**
 * The numbers of GCD, LCM and MULTINOMIAL, wherever they come from: numeric text counts even inside
 * ranges, while logical values and other text are #VALUE!; single empty cells are skipped, but when every
 * argument is a single empty cell there is nothing to work on and the answer is #VALUE!. Empty cells
 * of a range of several cells count as 0 (LCM(A1:B1) with A1 empty is 0). An omitted
 * argument is #N/A.
 */
function toolPakNumbers(args: readonly Arg[]): number[] | CellError {
  const numbers: number[] = []
  let error: CellError | undefined
  let onlyEmptyCells = true
  for (const arg of args) {
    if (arg === MISSING) return CellError.NA
    const singleCell = !(arg instanceof RangeRef && !arg.isSingleCell) && !(arg instanceof ArrayValue) && !(arg instanceof ReferenceList)
    if (!singleCell) onlyEmptyCells = false
    forEachCell(arg, (value) => {
      // An empty cell inside a range counts as 0; a single empty cell is skipped.
      if (value === null) {
        if (!singleCell) numbers.push(0)
        return
      }
      onlyEmptyCells = false
      const number = toolPakNumber(value)
      if (number instanceof CellError) {
        error = number
        return false
      }
      numbers.push(number)
    })
    if (error) return error
  }
  return onlyEmptyCells ? CellError.VALUE : numbers
}

/** The whole numbers of GCD and LCM: negative or too large numbers are #NUM!. */
function wholeNumbers(args: readonly Arg[]): number[] | CellError {
  const numbers = toolPakNumbers(args)
  if (numbers instanceof CellError) return numbers
  const whole: number[] = []
  for (const x of numbers) {
    if (x < 0 || x >= 2 ** 53) return CellError.NUM
    whole.push(Math.trunc(x))
  }
  return whole
}

export const GCD: FunctionDefinition = {
  name: 'GCD',
  category: 'math',
  minArgs: 1,
  maxArgs: 255,
  args: ['any'],
  syntax: 'GCD(number1, [number2], ...)',
  description: 'Returns the greatest common divisor of whole numbers.',
  example: 'GCD(24, 36)',
  impl: (args) => {
    const numbers = wholeNumbers(args)
    if (numbers instanceof CellError) return numbers
    let result = 0
    for (const n of numbers) result = gcdOfTwo(result, n)
    return result
  },
}

export const LCM: FunctionDefinition = {
  name: 'LCM',
  category: 'math',
  minArgs: 1,
  maxArgs: 255,
  args: ['any'],
  syntax: 'LCM(number1, [number2], ...)',
  description: 'Returns the least common multiple of whole numbers.',
  example: 'LCM(4, 6)',
  impl: (args) => {
    const numbers = wholeNumbers(args)
    if (numbers instanceof CellError) return numbers
    if (numbers.length === 0) return 0
    let result = 1
    for (const n of numbers) {
      if (n === 0) return 0
      result = (result / gcdOfTwo(result, n)) * n
      if (result >= 2 ** 53) return CellError.NUM
    }
    return result
  },
}

export const PRODUCT: FunctionDefinition = {
  name: 'PRODUCT',
  category: 'math',
  minArgs: 1,
  maxArgs: 255,
  args: ['any'],
  syntax: 'PRODUCT(number1, [number2], ...)',
  description: 'Multiplies all the numbers given as arguments.',
  example: 'PRODUCT(A1:A3, 2)',
  impl: (args) => {
    let product = 1
    let count = 0
    // An argument left empty is a 0 (=PRODUCT(2,,3) is 0).
    const error = forEachNumber(
      args,
      (n) => {
        product *= n
        count++
      },
      { countEmptyArgs: true },
    )
    if (error) return error
    return count === 0 ? 0 : numberResult(product)
  },
}

export const SUMSQ: FunctionDefinition = {
  name: 'SUMSQ',
  category: 'math',
  minArgs: 1,
  maxArgs: 255,
  args: ['any'],
  syntax: 'SUMSQ(number1, [number2], ...)',
  description: 'Returns the sum of the squares of the arguments.',
  example: 'SUMSQ(3, 4)',
  impl: (args) => {
    let total = 0
    const error = forEachNumber(args, (n) => {
      total += n * n
    })
    return error ?? numberResult(total)
  },
}

export const SERIESSUM: FunctionDefinition = {
  name: 'SERIESSUM',
  category: 'math',
  minArgs: 4,
  maxArgs: 4,
  args: ['number', 'number', 'number', 'any'],
  syntax: 'SERIESSUM(x, n, m, coefficients)',
  description: 'Returns the sum of the power series a1·x^n + a2·x^(n+m) + a3·x^(n+2m) + … of the coefficients.',
  example: 'SERIESSUM(PI()/4, 0, 2, {1,-0.5,0.041666667})',
  impl: ([xArg, nArg, mArg, coefficientsArg]) => {
    const x = xArg as number
    const n = nArg as number
    const m = mArg as number
    let total = 0
    let index = 0
    let error: CellError | undefined
    forEachCell(coefficientsArg, (value) => {
      if (value instanceof CellError) {
        error = value
        return false
      }
      if (typeof value !== 'number') {
        error = CellError.VALUE
        return false
      }
      total += value * Math.pow(x, n + index * m)
      index++
    })
    return error ?? numberResult(total)
  },
}

export const functions: readonly FunctionDefinition[] = [
  SERIESSUM,
  ABS,
  SIGN,
  INT,
  SQRT,
  SQRTPI,
  EXP,
  LN,
  LOG10,
  LOG,
  POWER,
  MOD,
  QUOTIENT,
  PI,
  DEGREES,
  RADIANS,
  EVEN,
  ODD,
  FACT,
  FACTDOUBLE,
  COMBIN,
  COMBINA,
  MULTINOMIAL,
  GCD,
  LCM,
  PRODUCT,
  SUMSQ,
]
