/**
 * Hypothesis tests: CHISQ.TEST, T.TEST, Z.TEST, F.TEST and their legacy names.
 */
import { CellError } from '../../values.js'
import { numberResult, toArray } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { collectNumbers, mean, variance } from './collect.js'
import { numberPairs } from './regression.js'
import { normalCdf, regularizedBeta, regularizedGammaQ } from './special.js'

/** P(T > t) of Student's t distribution with (possibly fractional) degrees of freedom, for t ≥ 0. */
function tUpperTail(t: number, df: number): number {
  return 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5)
}

function chiSquaredTest(actualArg: Arg, expectedArg: Arg): number | CellError {
  const actual = toArray(actualArg)
  if (actual instanceof CellError) return actual
  const expected = toArray(expectedArg)
  if (expected instanceof CellError) return expected
  if (actual.height !== expected.height || actual.width !== expected.width) return CellError.NA
  let statistic = 0
  for (let i = 0; i < actual.data.length; i++) {
    const a = actual.data[i]
    const e = expected.data[i]
    if (a instanceof CellError) return a
    if (e instanceof CellError) return e
    if (typeof a !== 'number' || typeof e !== 'number') continue
    if (e === 0) return CellError.DIV0
    statistic += ((a - e) * (a - e)) / e
  }
  const { height, width } = actual
  const df = height > 1 && width > 1 ? (height - 1) * (width - 1) : height * width - 1
  if (df < 1) return CellError.NA
  return regularizedGammaQ(df / 2, statistic / 2)
}

function chiTest(name: string): FunctionDefinition {
  return {
    name,
    category: 'statistical',
    minArgs: 2,
    maxArgs: 2,
    args: ['any', 'any'],
    syntax: `${name}(actual_range, expected_range)`,
    description: 'Returns the chi-squared test of independence: the probability of the observed values given the expected ones.',
    example: `${name}(B2:C4, B6:C8)`,
    impl: ([a, e]) => {
      const result = chiSquaredTest(a, e)
      return numberResult(result)
    },
  }
}

export const CHISQ_TEST = chiTest('CHISQ.TEST')
export const CHITEST = chiTest('CHITEST')

function tTest(first: Arg, second: Arg, tailsArg: number, typeArg: number): number | CellError {
  const tails = Math.trunc(tailsArg)
  const type = Math.trunc(typeArg)
  if ((tails !== 1 && tails !== 2) || type < 1 || type > 3) return CellError.NUM
  let t: number
  let df: number
  if (type === 1) {
    const pairs = numberPairs(first, second)
    if (pairs instanceof CellError) return pairs
    const differences = pairs.xs.map((x, i) => x - pairs.ys[i])
    const n = differences.length
    const v = variance(differences, true)
    if (typeof v !== 'number' || v === 0) return CellError.DIV0
    t = Math.abs(mean(differences)) / Math.sqrt(v / n)
    df = n - 1
  } else {
    const xs = collectNumbers([first])
    if (xs instanceof CellError) return xs
    const ys = collectNumbers([second])
    if (ys instanceof CellError) return ys
    const vx = variance(xs, true)
    const vy = variance(ys, true)
    if (typeof vx !== 'number' || typeof vy !== 'number') return CellError.DIV0
    const n1 = xs.length
    const n2 = ys.length
    const difference = Math.abs(mean(xs) - mean(ys))
    if (type === 2) {
      df = n1 + n2 - 2
      const pooled = ((n1 - 1) * vx + (n2 - 1) * vy) / df
      t = difference / Math.sqrt(pooled * (1 / n1 + 1 / n2))
    } else {
      const a = vx / n1
      const b = vy / n2
      t = difference / Math.sqrt(a + b)
      // Welch–Satterthwaite degrees of freedom, not rounded, as Excel does.
      df = ((a + b) * (a + b)) / ((a * a) / (n1 - 1) + (b * b) / (n2 - 1))
    }
  }
  if (!Number.isFinite(t)) return CellError.DIV0
  return tails * tUpperTail(t, df)
}

function tTestFunction(name: string): FunctionDefinition {
  return {
    name,
    category: 'statistical',
    minArgs: 4,
    maxArgs: 4,
    args: ['any', 'any', 'number', 'number'],
    syntax: `${name}(array1, array2, tails, type)`,
    description: "Returns the probability of Student's t-test: type 1 paired, 2 equal variances, 3 unequal variances.",
    example: `${name}(A2:A10, B2:B10, 2, 1)`,
    impl: ([a, b, tails, type]) => {
      const result = tTest(a, b, tails as number, type as number)
      return numberResult(result)
    },
  }
}

export const T_TEST = tTestFunction('T.TEST')
export const TTEST = tTestFunction('TTEST')

function zTestFunction(name: string): FunctionDefinition {
  return {
    name,
    category: 'statistical',
    minArgs: 2,
    maxArgs: 3,
    args: ['any', 'number', 'number'],
    syntax: `${name}(array, x, [sigma])`,
    description: 'Returns the one-tailed probability of the z-test of x against the mean of the data.',
    example: `${name}(A2:A11, 4)`,
    impl: ([data, x, sigmaArg]) => {
      const numbers = collectNumbers([data])
      if (numbers instanceof CellError) return numbers
      const n = numbers.length
      if (n === 0) return CellError.NA
      let sigma: number
      if (sigmaArg === undefined || sigmaArg === MISSING) {
        const v = variance(numbers, true)
        if (typeof v !== 'number') return v
        sigma = Math.sqrt(v)
      } else sigma = sigmaArg as number
      if (sigma === 0) return CellError.DIV0
      return numberResult(1 - normalCdf((mean(numbers) - (x as number)) / (sigma / Math.sqrt(n))))
    },
  }
}

export const Z_TEST = zTestFunction('Z.TEST')
export const ZTEST = zTestFunction('ZTEST')

function fTestFunction(name: string): FunctionDefinition {
  return {
    name,
    category: 'statistical',
    minArgs: 2,
    maxArgs: 2,
    args: ['any', 'any'],
    syntax: `${name}(array1, array2)`,
    description: 'Returns the two-tailed probability that the variances of two data sets do not differ significantly.',
    example: `${name}(A2:A10, B2:B10)`,
    impl: ([a, b]) => {
      const xs = collectNumbers([a])
      if (xs instanceof CellError) return xs
      const ys = collectNumbers([b])
      if (ys instanceof CellError) return ys
      const vx = variance(xs, true)
      const vy = variance(ys, true)
      if (typeof vx !== 'number' || typeof vy !== 'number' || vx === 0 || vy === 0) return CellError.DIV0
      const f = vx / vy
      const d1 = xs.length - 1
      const d2 = ys.length - 1
      const upper = regularizedBeta(d2 / (d2 + d1 * f), d2 / 2, d1 / 2)
      return numberResult(2 * Math.min(upper, 1 - upper))
    },
  }
}

export const F_TEST = fTestFunction('F.TEST')
export const FTEST = fTestFunction('FTEST')

export const functions: readonly FunctionDefinition[] = [CHISQ_TEST, CHITEST, T_TEST, TTEST, Z_TEST, ZTEST, F_TEST, FTEST]
