/**
 * The error function and the Bessel functions.
 *
 * The error function is computed to full double precision: an everywhere-positive series for |x| < 2.5
 * and a continued fraction for the complement beyond. The Bessel functions use the polynomial and
 * rational approximations of Abramowitz & Stegun (9.4, 9.8) with recurrences for higher orders, which
 * is what Excel computes: its values agree with these digit for digit (and differ from the exact ones
 * beyond about the eighth significant digit).
 */
import { CellError } from '../../values.js'
import { numberResult } from '../helpers.js'
import { strictNumber } from '../date/serials.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'

const TWO_OVER_SQRT_PI = 1.1283791670955126

/** erf(x) for |x| < 2.5: 2/√π·e^(−x²)·Σ 2ⁿx^(2n+1)/(1·3·…·(2n+1)), a series of positive terms. */
function erfSeries(x: number): number {
  let term = x
  let sum = x
  for (let n = 1; n < 200; n++) {
    term *= (2 * x * x) / (2 * n + 1)
    sum += term
    if (Math.abs(term) < Math.abs(sum) * 1e-17) break
  }
  return TWO_OVER_SQRT_PI * Math.exp(-x * x) * sum
}

/** erfc(x) for x ≥ 2.5 by the continued fraction e^(−x²)/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + …)))). */
function erfcFraction(x: number): number {
  // Modified Lentz evaluation of K = x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))).
  const tiny = 1e-300
  let f = x
  let c = x
  let d = 0
  for (let n = 1; n < 500; n++) {
    const a = n / 2
    d = x + a * d
    d = d === 0 ? tiny : d
    c = x + a / c
    c = c === 0 ? tiny : c
    d = 1 / d
    const delta = c * d
    f *= delta
    if (Math.abs(delta - 1) < 1e-16) break
  }
  return Math.exp(-x * x) / (1.7724538509055159 * f)
}

export function erf(x: number): number {
  if (x < 0) return -erf(-x)
  if (x < 2.5) return erfSeries(x)
  return 1 - erfcFraction(x)
}

export function erfc(x: number): number {
  if (x < 0) return 2 - erfc(-x)
  if (x < 0.5) return 1 - erfSeries(x)
  if (x < 2.5) return 1 - erfSeries(x)
  return erfcFraction(x)
}

function readNumber(arg: Arg | undefined): number | CellError {
  return strictNumber(arg)
}

export const ERF: FunctionDefinition = {
  name: 'ERF',
  category: 'engineering',
  minArgs: 1,
  maxArgs: 2,
  args: ['scalar', 'scalar'],
  syntax: 'ERF(lower_limit, [upper_limit])',
  description: 'Returns the error function integrated from 0 to lower_limit, or between lower_limit and upper_limit.',
  example: 'ERF(0.745)',
  impl: (args) => {
    const lower = readNumber(args[0])
    if (lower instanceof CellError) return lower
    if (args[1] === undefined || args[1] === MISSING) return erf(lower)
    const upper = readNumber(args[1])
    if (upper instanceof CellError) return upper
    return erf(upper) - erf(lower)
  },
}

export const ERF_PRECISE: FunctionDefinition = {
  name: 'ERF.PRECISE',
  category: 'engineering',
  minArgs: 1,
  maxArgs: 1,
  args: ['scalar'],
  syntax: 'ERF.PRECISE(x)',
  description: 'Returns the error function integrated from 0 to x.',
  example: 'ERF.PRECISE(0.745)',
  impl: ([x]) => {
    const value = readNumber(x)
    return value instanceof CellError ? value : erf(value)
  },
}

export const ERFC: FunctionDefinition = {
  name: 'ERFC',
  category: 'engineering',
  minArgs: 1,
  maxArgs: 1,
  args: ['scalar'],
  syntax: 'ERFC(x)',
  description: 'Returns the complementary error function integrated from x to infinity.',
  example: 'ERFC(1)',
  impl: ([x]) => {
    const value = readNumber(x)
    return value instanceof CellError ? value : erfc(value)
  },
}

export const ERFC_PRECISE: FunctionDefinition = {
  name: 'ERFC.PRECISE',
  category: 'engineering',
  minArgs: 1,
  maxArgs: 1,
  args: ['scalar'],
  syntax: 'ERFC.PRECISE(x)',
  description: 'Returns the complementary error function integrated from x to infinity.',
  example: 'ERFC.PRECISE(1)',
  impl: ([x]) => {
    const value = readNumber(x)
    return value instanceof CellError ? value : erfc(value)
  },
}

// ---------------------------------------------------------------------------------------------------------
// Bessel functions (Abramowitz & Stegun approximations).
// ---------------------------------------------------------------------------------------------------------

function besselI0(x: number): number {
  const ax = Math.abs(x)
  if (ax < 3.75) {
    const y = (x / 3.75) ** 2
    return 1 + y * (3.5156229 + y * (3.0899424 + y * (1.2067492 + y * (0.2659732 + y * (0.360768e-1 + y * 0.45813e-2)))))
  }
  const y = 3.75 / ax
  return (
    (Math.exp(ax) / Math.sqrt(ax)) *
    (0.39894228 +
      y *
        (0.1328592e-1 +
          y * (0.225319e-2 + y * (-0.157565e-2 + y * (0.916281e-2 + y * (-0.2057706e-1 + y * (0.2635537e-1 + y * (-0.1647633e-1 + y * 0.392377e-2))))))))
  )
}

function besselI1(x: number): number {
  const ax = Math.abs(x)
  let result: number
  if (ax < 3.75) {
    const y = (x / 3.75) ** 2
    result = ax * (0.5 + y * (0.87890594 + y * (0.51498869 + y * (0.15084934 + y * (0.2658733e-1 + y * (0.301532e-2 + y * 0.32411e-3))))))
  } else {
    const y = 3.75 / ax
    let tail = 0.2282967e-1 + y * (-0.2895312e-1 + y * (0.1787654e-1 - y * 0.420059e-2))
    tail = 0.39894228 + y * (-0.3988024e-1 + y * (-0.362018e-2 + y * (0.163801e-2 + y * (-0.1031555e-1 + y * tail))))
    result = tail * (Math.exp(ax) / Math.sqrt(ax))
  }
  return x < 0 ? -result : result
}

/** Iₙ(x) for n ≥ 2 by Miller's downward recurrence, normalised by I₀. */
function besselIn(n: number, x: number): number {
  if (x === 0) return 0
  const twoOverX = 2 / Math.abs(x)
  let above = 0
  let current = 1
  let result = 0
  for (let j = 2 * (n + Math.trunc(Math.sqrt(40 * n))); j > 0; j--) {
    const below = above + j * twoOverX * current
    above = current
    current = below
    if (Math.abs(current) > 1e10) {
      result *= 1e-10
      current *= 1e-10
      above *= 1e-10
    }
    if (j === n) result = above
  }
  result *= besselI0(x) / current
  return x < 0 && n % 2 === 1 ? -result : result
}

function besselK0(x: number): number {
  if (x <= 2) {
    const y = (x * x) / 4
    return (
      -Math.log(x / 2) * besselI0(x) +
      (-0.57721566 + y * (0.4227842 + y * (0.23069756 + y * (0.3488590e-1 + y * (0.262698e-2 + y * (0.1075e-3 + y * 0.74e-5))))))
    )
  }
  const y = 2 / x
  return (
    (Math.exp(-x) / Math.sqrt(x)) *
    (1.25331414 + y * (-0.7832358e-1 + y * (0.2189568e-1 + y * (-0.1062446e-1 + y * (0.587872e-2 + y * (-0.25154e-2 + y * 0.53208e-3))))))
  )
}

function besselK1(x: number): number {
  if (x <= 2) {
    const y = (x * x) / 4
    return (
      Math.log(x / 2) * besselI1(x) +
      (1 / x) *
        (1 + y * (0.15443144 + y * (-0.67278579 + y * (-0.18156897 + y * (-0.1919402e-1 + y * (-0.110404e-2 + y * -0.4686e-4))))))
    )
  }
  const y = 2 / x
  return (
    (Math.exp(-x) / Math.sqrt(x)) *
    (1.25331414 + y * (0.23498619 + y * (-0.365562e-1 + y * (0.1504268e-1 + y * (-0.780353e-2 + y * (0.325614e-2 + y * -0.68245e-3))))))
  )
}

function besselKn(n: number, x: number): number {
  const twoOverX = 2 / x
  let below = besselK0(x)
  let current = besselK1(x)
  for (let j = 1; j < n; j++) {
    const above = below + j * twoOverX * current
    below = current
    current = above
  }
  return n === 0 ? besselK0(x) : current
}

function besselJ0(x: number): number {
  const ax = Math.abs(x)
  if (ax < 8) {
    const y = x * x
    const p = 57568490574.0 + y * (-13362590354.0 + y * (651619640.7 + y * (-11214424.18 + y * (77392.33017 + y * -184.9052456))))
    const q = 57568490411.0 + y * (1029532985.0 + y * (9494680.718 + y * (59272.64853 + y * (267.8532712 + y * 1.0))))
    return p / q
  }
  const z = 8 / ax
  const y = z * z
  const xx = ax - 0.785398164
  const p = 1 + y * (-0.1098628627e-2 + y * (0.2734510407e-4 + y * (-0.2073370639e-5 + y * 0.2093887211e-6)))
  const q = -0.1562499995e-1 + y * (0.1430488765e-3 + y * (-0.6911147651e-5 + y * (0.7621095161e-6 - y * 0.934935152e-7)))
  return Math.sqrt(0.636619772 / ax) * (Math.cos(xx) * p - z * Math.sin(xx) * q)
}

function besselJ1(x: number): number {
  const ax = Math.abs(x)
  if (ax < 8) {
    const y = x * x
    const p = x * (72362614232.0 + y * (-7895059235.0 + y * (242396853.1 + y * (-2972611.439 + y * (15704.4826 + y * -30.16036606)))))
    const q = 144725228442.0 + y * (2300535178.0 + y * (18583304.74 + y * (99447.43394 + y * (376.9991397 + y * 1.0))))
    return p / q
  }
  const z = 8 / ax
  const y = z * z
  const xx = ax - 2.356194491
  const p = 1 + y * (0.183105e-2 + y * (-0.3516396496e-4 + y * (0.2457520174e-5 + y * -0.240337019e-6)))
  const q = 0.04687499995 + y * (-0.2002690873e-3 + y * (0.8449199096e-5 + y * (-0.88228987e-6 + y * 0.105787412e-6)))
  const result = Math.sqrt(0.636619772 / ax) * (Math.cos(xx) * p - z * Math.sin(xx) * q)
  return x < 0 ? -result : result
}

/** Jₙ(x): upward recurrence beyond the order, Miller's downward recurrence below it. */
function besselJn(n: number, x: number): number {
  const ax = Math.abs(x)
  if (ax === 0) return 0
  const twoOverX = 2 / ax
  let result: number
  if (ax > n) {
    let below = besselJ0(ax)
    let current = besselJ1(ax)
    for (let j = 1; j < n; j++) {
      const above = j * twoOverX * current - below
      below = current
      current = above
    }
    result = current
  } else {
    const start = 2 * Math.trunc((n + Math.trunc(Math.sqrt(40 * n))) / 2)
    let addToSum = false
    let above = 0
    let sum = 0
    let current = 1
    result = 0
    for (let j = start; j > 0; j--) {
      const below = j * twoOverX * current - above
      above = current
      current = below
      if (Math.abs(current) > 1e10) {
        current *= 1e-10
        above *= 1e-10
        result *= 1e-10
        sum *= 1e-10
      }
      if (addToSum) sum += current
      addToSum = !addToSum
      if (j === n) result = above
    }
    sum = 2 * sum - current
    result /= sum
  }
  return x < 0 && n % 2 === 1 ? -result : result
}

function besselY0(x: number): number {
  if (x < 8) {
    const y = x * x
    const p = -2957821389.0 + y * (7062834065.0 + y * (-512359803.6 + y * (10879881.29 + y * (-86327.92757 + y * 228.4622733))))
    const q = 40076544269.0 + y * (745249964.8 + y * (7189466.438 + y * (47447.2647 + y * (226.1030244 + y * 1.0))))
    return p / q + 0.636619772 * besselJ0(x) * Math.log(x)
  }
  const z = 8 / x
  const y = z * z
  const xx = x - 0.785398164
  const p = 1 + y * (-0.1098628627e-2 + y * (0.2734510407e-4 + y * (-0.2073370639e-5 + y * 0.2093887211e-6)))
  const q = -0.1562499995e-1 + y * (0.1430488765e-3 + y * (-0.6911147651e-5 + y * (0.7621095161e-6 + y * -0.934945152e-7)))
  return Math.sqrt(0.636619772 / x) * (Math.sin(xx) * p + z * Math.cos(xx) * q)
}

function besselY1(x: number): number {
  if (x < 8) {
    const y = x * x
    const p =
      x *
      (-0.4900604943e13 + y * (0.127527439e13 + y * (-0.5153438139e11 + y * (0.7349264551e9 + y * (-0.4237922726e7 + y * 0.8511937935e4)))))
    const q =
      0.249958057e14 + y * (0.4244419664e12 + y * (0.3733650367e10 + y * (0.2245904002e8 + y * (0.102042605e6 + y * (0.3549632885e3 + y)))))
    return p / q + 0.636619772 * (besselJ1(x) * Math.log(x) - 1 / x)
  }
  const z = 8 / x
  const y = z * z
  const xx = x - 2.356194491
  const p = 1 + y * (0.183105e-2 + y * (-0.3516396496e-4 + y * (0.2457520174e-5 + y * -0.240337019e-6)))
  const q = 0.04687499995 + y * (-0.2002690873e-3 + y * (0.8449199096e-5 + y * (-0.88228987e-6 + y * 0.105787412e-6)))
  return Math.sqrt(0.636619772 / x) * (Math.sin(xx) * p + z * Math.cos(xx) * q)
}

function besselYn(n: number, x: number): number {
  const twoOverX = 2 / x
  let below = besselY0(x)
  let current = besselY1(x)
  for (let j = 1; j < n; j++) {
    const above = j * twoOverX * current - below
    below = current
    current = above
  }
  return n === 0 ? besselY0(x) : current
}

function bessel(
  name: string,
  description: string,
  positiveOnly: boolean,
  compute: (n: number, x: number) => number,
): FunctionDefinition {
  return {
    name,
    category: 'engineering',
    minArgs: 2,
    maxArgs: 2,
    args: ['scalar', 'scalar'],
    syntax: `${name}(x, n)`,
    description,
    example: `${name}(1.5, 1)`,
    impl: (args) => {
      const x = strictNumber(args[0])
      if (x instanceof CellError) return x
      const order = strictNumber(args[1])
      if (order instanceof CellError) return order
      const n = Math.trunc(order)
      if (n < 0 || (positiveOnly && x <= 0)) return CellError.NUM
      const value = compute(n, x)
      return numberResult(value)
    },
  }
}

export const BESSELI = bessel('BESSELI', 'Returns the modified Bessel function Iₙ(x).', false, (n, x) =>
  n === 0 ? besselI0(x) : n === 1 ? besselI1(x) : besselIn(n, x),
)
export const BESSELJ = bessel('BESSELJ', 'Returns the Bessel function Jₙ(x).', false, (n, x) =>
  n === 0 ? besselJ0(x) : n === 1 ? besselJ1(x) : besselJn(n, x),
)
export const BESSELK = bessel('BESSELK', 'Returns the modified Bessel function Kₙ(x), for x > 0.', true, besselKn)
export const BESSELY = bessel('BESSELY', 'Returns the Bessel function Yₙ(x) (Weber function), for x > 0.', true, besselYn)

export const functions: readonly FunctionDefinition[] = [
  ERF,
  ERF_PRECISE,
  ERFC,
  ERFC_PRECISE,
  BESSELI,
  BESSELJ,
  BESSELK,
  BESSELY,
]
