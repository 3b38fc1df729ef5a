/**
 * Probability distributions: densities, cumulative distributions and their inverses, with Excel's
 * argument checks (#NUM! outside the domain) and its legacy names (NORMDIST, CHIDIST, TINV...).
 */
import { CellError } from '../../values.js'
import { numberResult } from '../helpers.js'
import type { ArgKind, FunctionDefinition } from '../types.js'
import { MISSING } from '../types.js'
import type { Arg } from '../types.js'
import {
  gamma,
  invertCdf,
  invertDistribution,
  logBeta,
  logGamma,
  normalCdf,
  normalInverse,
  normalPdf,
  regularizedBeta,
  regularizedGammaP,
  regularizedGammaQ,
} from './special.js'

type Compute = (args: Arg[]) => number | CellError

/** A distribution function of numbers (and a final `cumulative` flag when its kinds say so). */
function distribution(
  name: string,
  parameters: readonly string[],
  optionalCount: number,
  description: string,
  example: string,
  compute: Compute,
): FunctionDefinition {
  const kinds: ArgKind[] = parameters.map((parameter) => (parameter === 'cumulative' ? 'boolean' : 'number'))
  const required = parameters.length - optionalCount
  const syntax = parameters.map((parameter, index) => (index >= required ? `[${parameter}]` : parameter)).join(', ')
  return {
    name,
    category: 'statistical',
    minArgs: required,
    maxArgs: parameters.length,
    args: kinds,
    syntax: `${name}(${syntax})`,
    description,
    example,
    impl: (args) => {
      const result = compute(args)
      return numberResult(result)
    },
  }
}

/** A number argument that may be absent or omitted. */
function optionalArg(arg: Arg | undefined, fallback: number): number {
  return arg === undefined || arg === MISSING ? fallback : (arg as number)
}

const n = (arg: Arg | undefined): number => arg as number
const isProbability = (p: number): boolean => p > 0 && p < 1

// ---------------------------------------------------------------------------------------------------------
// Normal and log-normal
// ---------------------------------------------------------------------------------------------------------

function normalDist(x: number, mean: number, sd: number, cumulative: boolean): number | CellError {
  if (sd <= 0) return CellError.NUM
  const z = (x - mean) / sd
  return cumulative ? normalCdf(z) : normalPdf(z) / sd
}

function normalInv(p: number, mean: number, sd: number): number | CellError {
  if (!isProbability(p) || sd <= 0) return CellError.NUM
  return mean + sd * normalInverse(p)
}

const NORMAL_DIST_DESCRIPTION = 'Returns the normal distribution (cumulative, or its density) for a mean and standard deviation.'
export const NORM_DIST = distribution('NORM.DIST', ['x', 'mean', 'standard_dev', 'cumulative'], 0, NORMAL_DIST_DESCRIPTION, 'NORM.DIST(42, 40, 1.5, TRUE)', ([x, m, s, c]) =>
  normalDist(n(x), n(m), n(s), c === true),
)
export const NORMDIST = distribution('NORMDIST', ['x', 'mean', 'standard_dev', 'cumulative'], 0, NORMAL_DIST_DESCRIPTION, 'NORMDIST(42, 40, 1.5, TRUE)', ([x, m, s, c]) =>
  normalDist(n(x), n(m), n(s), c === true),
)
const NORMAL_INV_DESCRIPTION = 'Returns the inverse of the normal cumulative distribution for a mean and standard deviation.'
export const NORM_INV = distribution('NORM.INV', ['probability', 'mean', 'standard_dev'], 0, NORMAL_INV_DESCRIPTION, 'NORM.INV(0.908789, 40, 1.5)', ([p, m, s]) =>
  normalInv(n(p), n(m), n(s)),
)
export const NORMINV = distribution('NORMINV', ['probability', 'mean', 'standard_dev'], 0, NORMAL_INV_DESCRIPTION, 'NORMINV(0.908789, 40, 1.5)', ([p, m, s]) =>
  normalInv(n(p), n(m), n(s)),
)
export const NORM_S_DIST = distribution('NORM.S.DIST', ['z', 'cumulative'], 0, 'Returns the standard normal distribution (cumulative, or its density).', 'NORM.S.DIST(1.333333, TRUE)', ([z, c]) =>
  normalDist(n(z), 0, 1, c === true),
)
export const NORMSDIST = distribution('NORMSDIST', ['z'], 0, 'Returns the standard normal cumulative distribution.', 'NORMSDIST(1.333333)', ([z]) =>
  normalCdf(n(z)),
)
export const NORM_S_INV = distribution('NORM.S.INV', ['probability'], 0, 'Returns the inverse of the standard normal cumulative distribution.', 'NORM.S.INV(0.908789)', ([p]) =>
  normalInv(n(p), 0, 1),
)
export const NORMSINV = distribution('NORMSINV', ['probability'], 0, 'Returns the inverse of the standard normal cumulative distribution.', 'NORMSINV(0.908789)', ([p]) =>
  normalInv(n(p), 0, 1),
)
export const PHI = distribution('PHI', ['x'], 0, 'Returns the density of the standard normal distribution.', 'PHI(0.75)', ([x]) => normalPdf(n(x)))
export const GAUSS = distribution('GAUSS', ['z'], 0, 'Returns the probability that a standard normal value lies between the mean and z standard deviations from it.', 'GAUSS(2)', ([z]) =>
  normalCdf(n(z)) - 0.5,
)

function lognormalDist(x: number, mean: number, sd: number, cumulative: boolean): number | CellError {
  if (x <= 0 || sd <= 0) return CellError.NUM
  const z = (Math.log(x) - mean) / sd
  return cumulative ? normalCdf(z) : normalPdf(z) / (x * sd)
}

function lognormalInv(p: number, mean: number, sd: number): number | CellError {
  if (!isProbability(p) || sd <= 0) return CellError.NUM
  return Math.exp(mean + sd * normalInverse(p))
}

export const LOGNORM_DIST = distribution('LOGNORM.DIST', ['x', 'mean', 'standard_dev', 'cumulative'], 0, 'Returns the lognormal distribution (cumulative, or its density) of x, where ln(x) is normal with the given mean and standard deviation.', 'LOGNORM.DIST(4, 3.5, 1.2, TRUE)', ([x, m, s, c]) =>
  lognormalDist(n(x), n(m), n(s), c === true),
)
export const LOGNORMDIST = distribution('LOGNORMDIST', ['x', 'mean', 'standard_dev'], 0, 'Returns the cumulative lognormal distribution of x.', 'LOGNORMDIST(4, 3.5, 1.2)', ([x, m, s]) =>
  lognormalDist(n(x), n(m), n(s), true),
)
export const LOGNORM_INV = distribution('LOGNORM.INV', ['probability', 'mean', 'standard_dev'], 0, 'Returns the inverse of the lognormal cumulative distribution.', 'LOGNORM.INV(0.039084, 3.5, 1.2)', ([p, m, s]) =>
  lognormalInv(n(p), n(m), n(s)),
)
export const LOGINV = distribution('LOGINV', ['probability', 'mean', 'standard_dev'], 0, 'Returns the inverse of the lognormal cumulative distribution.', 'LOGINV(0.039084, 3.5, 1.2)', ([p, m, s]) =>
  lognormalInv(n(p), n(m), n(s)),
)

// ---------------------------------------------------------------------------------------------------------
// Exponential, Weibull, Poisson
// ---------------------------------------------------------------------------------------------------------

function exponentialDist(x: number, lambda: number, cumulative: boolean): number | CellError {
  if (x < 0 || lambda <= 0) return CellError.NUM
  return cumulative ? -Math.expm1(-lambda * x) : lambda * Math.exp(-lambda * x)
}

export const EXPON_DIST = distribution('EXPON.DIST', ['x', 'lambda', 'cumulative'], 0, 'Returns the exponential distribution (cumulative, or its density).', 'EXPON.DIST(0.2, 10, TRUE)', ([x, l, c]) =>
  exponentialDist(n(x), n(l), c === true),
)
export const EXPONDIST = distribution('EXPONDIST', ['x', 'lambda', 'cumulative'], 0, 'Returns the exponential distribution (cumulative, or its density).', 'EXPONDIST(0.2, 10, TRUE)', ([x, l, c]) =>
  exponentialDist(n(x), n(l), c === true),
)

function weibullDist(x: number, alpha: number, beta: number, cumulative: boolean): number | CellError {
  if (x < 0 || alpha <= 0 || beta <= 0) return CellError.NUM
  const power = Math.pow(x / beta, alpha)
  if (cumulative) return -Math.expm1(-power)
  return (alpha / Math.pow(beta, alpha)) * Math.pow(x, alpha - 1) * Math.exp(-power)
}

export const WEIBULL_DIST = distribution('WEIBULL.DIST', ['x', 'alpha', 'beta', 'cumulative'], 0, 'Returns the Weibull distribution (cumulative, or its density).', 'WEIBULL.DIST(105, 20, 100, TRUE)', ([x, a, b, c]) =>
  weibullDist(n(x), n(a), n(b), c === true),
)
export const WEIBULL = distribution('WEIBULL', ['x', 'alpha', 'beta', 'cumulative'], 0, 'Returns the Weibull distribution (cumulative, or its density).', 'WEIBULL(105, 20, 100, TRUE)', ([x, a, b, c]) =>
  weibullDist(n(x), n(a), n(b), c === true),
)

function poissonDist(xArg: number, mean: number, cumulative: boolean): number | CellError {
  if (xArg < 0 || mean < 0) return CellError.NUM
  const x = Math.trunc(xArg)
  if (mean === 0) return x === 0 || cumulative ? 1 : 0
  if (cumulative) return regularizedGammaQ(x + 1, mean)
  return Math.exp(x * Math.log(mean) - mean - logGamma(x + 1))
}

export const POISSON_DIST = distribution('POISSON.DIST', ['x', 'mean', 'cumulative'], 0, 'Returns the Poisson distribution: the probability of x events (or at most x) for an expected mean.', 'POISSON.DIST(2, 5, TRUE)', ([x, m, c]) =>
  poissonDist(n(x), n(m), c === true),
)
export const POISSON = distribution('POISSON', ['x', 'mean', 'cumulative'], 0, 'Returns the Poisson distribution: the probability of x events (or at most x) for an expected mean.', 'POISSON(2, 5, TRUE)', ([x, m, c]) =>
  poissonDist(n(x), n(m), c === true),
)

// ---------------------------------------------------------------------------------------------------------
// Binomial and negative binomial
// ---------------------------------------------------------------------------------------------------------

/** Trials are counted in 64-bit integers; beyond, the binomial functions give #NUM!. */
const MAX_TRIALS = 2 ** 64

/** The probability of exactly k successes in trials trials with success probability p. */
function binomialPmf(k: number, trials: number, p: number): number {
  if (p === 0) return k === 0 ? 1 : 0
  if (p === 1) return k === trials ? 1 : 0
  const logChoose = logGamma(trials + 1) - logGamma(k + 1) - logGamma(trials - k + 1)
  return Math.exp(logChoose + k * Math.log(p) + (trials - k) * Math.log1p(-p))
}

/** P(X ≤ k) of the binomial distribution. */
function binomialCdf(k: number, trials: number, p: number): number {
  if (k >= trials) return 1
  if (p === 0) return 1
  if (p === 1) return 0
  return regularizedBeta(1 - p, trials - k, k + 1)
}

function binomialDist(successesArg: number, trialsArg: number, p: number, cumulative: boolean): number | CellError {
  const successes = Math.trunc(successesArg)
  const trials = Math.trunc(trialsArg)
  if (successes < 0 || successes > trials || trials > MAX_TRIALS || p < 0 || p > 1) return CellError.NUM
  return cumulative ? binomialCdf(successes, trials, p) : binomialPmf(successes, trials, p)
}

const BINOMIAL_DESCRIPTION = 'Returns the binomial distribution: the probability of a number of successes (or at most that many) in trials.'
export const BINOM_DIST = distribution('BINOM.DIST', ['number_s', 'trials', 'probability_s', 'cumulative'], 0, BINOMIAL_DESCRIPTION, 'BINOM.DIST(6, 10, 0.5, FALSE)', ([s, t, p, c]) =>
  binomialDist(n(s), n(t), n(p), c === true),
)
export const BINOMDIST = distribution('BINOMDIST', ['number_s', 'trials', 'probability_s', 'cumulative'], 0, BINOMIAL_DESCRIPTION, 'BINOMDIST(6, 10, 0.5, FALSE)', ([s, t, p, c]) =>
  binomialDist(n(s), n(t), n(p), c === true),
)

export const BINOM_DIST_RANGE = distribution('BINOM.DIST.RANGE', ['trials', 'probability_s', 'number_s', 'number_s2'], 1, 'Returns the probability that the number of successes in trials lies between number_s and number_s2.', 'BINOM.DIST.RANGE(60, 0.75, 45, 50)', (args) => {
  const trials = Math.trunc(n(args[0]))
  const p = n(args[1])
  const low = Math.trunc(n(args[2]))
  const high = Math.trunc(optionalArg(args[3], low))
  if (trials < 0 || trials > MAX_TRIALS || p < 0 || p > 1 || low < 0 || low > trials || high < low || high > trials) return CellError.NUM
  if (high - low > SUMMED_TERMS) return binomialCdf(high, trials, p) - (low > 0 ? binomialCdf(low - 1, trials, p) : 0)
  let total = 0
  for (let k = low; k <= high; k++) total += binomialPmf(k, trials, p)
  return total
})

/** Up to this many terms are summed one by one, as Excel does; beyond, the incomplete beta function serves. */
const SUMMED_TERMS = 100_000

function binomialInverse(trialsArg: number, p: number, alpha: number): number | CellError {
  const trials = Math.trunc(trialsArg)
  if (trials < 0 || trials > MAX_TRIALS || p < 0 || p >= 1 || alpha <= 0 || alpha >= 1) return CellError.NUM
  if (trials > SUMMED_TERMS) {
    // The cumulative probability grows with k: bisect for the first k that reaches alpha.
    let low = 0
    let high = trials
    while (low < high) {
      const middle = Math.floor((low + high) / 2)
      if (binomialCdf(middle, trials, p) >= alpha) high = middle
      else low = middle + 1
    }
    return low
  }
  // The smallest k whose cumulative probability reaches alpha, summing the probabilities as Excel does.
  let total = 0
  for (let k = 0; k <= trials; k++) {
    total += binomialPmf(k, trials, p)
    if (total >= alpha * (1 - 1e-15)) return k
  }
  return trials
}

export const BINOM_INV = distribution('BINOM.INV', ['trials', 'probability_s', 'alpha'], 0, 'Returns the smallest number of successes whose cumulative binomial probability is at least alpha.', 'BINOM.INV(6, 0.5, 0.75)', ([t, p, a]) =>
  binomialInverse(n(t), n(p), n(a)),
)
export const CRITBINOM = distribution('CRITBINOM', ['trials', 'probability_s', 'alpha'], 0, 'Returns the smallest number of successes whose cumulative binomial probability is at least alpha.', 'CRITBINOM(6, 0.5, 0.75)', ([t, p, a]) =>
  binomialInverse(n(t), n(p), n(a)),
)

function negativeBinomialDist(failuresArg: number, successesArg: number, p: number, cumulative: boolean): number | CellError {
  const failures = Math.trunc(failuresArg)
  const successes = Math.trunc(successesArg)
  if (failures < 0 || successes < 1 || p <= 0 || p >= 1) return CellError.NUM
  if (cumulative) return regularizedBeta(p, successes, failures + 1)
  const logChoose = logGamma(failures + successes) - logGamma(successes) - logGamma(failures + 1)
  return Math.exp(logChoose + successes * Math.log(p) + failures * Math.log1p(-p))
}

export const NEGBINOM_DIST = distribution('NEGBINOM.DIST', ['number_f', 'number_s', 'probability_s', 'cumulative'], 0, 'Returns the negative binomial distribution: the probability of number_f failures before the number_s-th success.', 'NEGBINOM.DIST(10, 5, 0.25, FALSE)', ([f, s, p, c]) =>
  negativeBinomialDist(n(f), n(s), n(p), c === true),
)
export const NEGBINOMDIST = distribution('NEGBINOMDIST', ['number_f', 'number_s', 'probability_s'], 0, 'Returns the probability of number_f failures before the number_s-th success.', 'NEGBINOMDIST(10, 5, 0.25)', ([f, s, p]) =>
  negativeBinomialDist(n(f), n(s), n(p), false),
)

function logChoose(n: number, k: number): number {
  return logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1)
}

function hypergeometric(args: Arg[], cumulative: boolean): number | CellError {
  const successes = Math.trunc(n(args[0]))
  const draws = Math.trunc(n(args[1]))
  const populationSuccesses = Math.trunc(n(args[2]))
  const population = Math.trunc(n(args[3]))
  if (
    successes < 0 ||
    successes > Math.min(draws, populationSuccesses) ||
    successes < Math.max(0, draws - population + populationSuccesses) ||
    draws <= 0 ||
    draws > population ||
    populationSuccesses <= 0 ||
    populationSuccesses > population ||
    population <= 0
  ) {
    return CellError.NUM
  }
  const pmf = (k: number) =>
    Math.exp(logChoose(populationSuccesses, k) + logChoose(population - populationSuccesses, draws - k) - logChoose(population, draws))
  if (!cumulative) return pmf(successes)
  const first = Math.max(0, draws - population + populationSuccesses)
  if (successes - first > SUMMED_TERMS) return CellError.NUM
  let total = 0
  for (let k = Math.max(0, draws - population + populationSuccesses); k <= successes; k++) total += pmf(k)
  return Math.min(1, total)
}

export const HYPGEOM_DIST = distribution('HYPGEOM.DIST', ['sample_s', 'number_sample', 'population_s', 'number_pop', 'cumulative'], 0, 'Returns the hypergeometric distribution: the probability of sample_s successes (or at most that many) in a sample drawn without replacement.', 'HYPGEOM.DIST(1, 4, 8, 20, TRUE)', (args) =>
  hypergeometric(args, args[4] === true),
)
export const HYPGEOMDIST = distribution('HYPGEOMDIST', ['sample_s', 'number_sample', 'population_s', 'number_pop'], 0, 'Returns the probability of sample_s successes in a sample drawn without replacement.', 'HYPGEOMDIST(1, 4, 8, 20)', (args) =>
  hypergeometric(args, false),
)

// ---------------------------------------------------------------------------------------------------------
// Gamma and beta
// ---------------------------------------------------------------------------------------------------------

export const GAMMA = distribution('GAMMA', ['number'], 0, 'Returns the gamma function of a number.', 'GAMMA(2.5)', ([x]) => {
  const value = n(x)
  if (value <= 0 && Number.isInteger(value)) return CellError.NUM
  return gamma(value)
})

function gammaLn(x: number): number | CellError {
  return x <= 0 ? CellError.NUM : logGamma(x)
}

export const GAMMALN = distribution('GAMMALN', ['x'], 0, 'Returns the natural logarithm of the gamma function.', 'GAMMALN(4)', ([x]) => gammaLn(n(x)))
export const GAMMALN_PRECISE = distribution('GAMMALN.PRECISE', ['x'], 0, 'Returns the natural logarithm of the gamma function.', 'GAMMALN.PRECISE(4)', ([x]) => gammaLn(n(x)))

function gammaDensity(x: number, alpha: number, beta: number): number {
  if (x === 0) return alpha === 1 ? 1 / beta : alpha < 1 ? Infinity : 0
  return Math.exp((alpha - 1) * Math.log(x) - x / beta - alpha * Math.log(beta) - logGamma(alpha))
}

function gammaDist(x: number, alpha: number, beta: number, cumulative: boolean): number | CellError {
  if (x < 0 || alpha <= 0 || beta <= 0) return CellError.NUM
  return cumulative ? regularizedGammaP(alpha, x / beta) : gammaDensity(x, alpha, beta)
}

function gammaInverse(p: number, alpha: number, beta: number): number | CellError {
  if (p < 0 || p >= 1 || alpha <= 0 || beta <= 0) return CellError.NUM
  if (p === 0) return 0
  const x = invertDistribution(
    p,
    (t) => regularizedGammaP(alpha, t),
    (t) => regularizedGammaQ(alpha, t),
    (t) => gammaDensity(t, alpha, 1),
    0,
    Infinity,
    alpha,
  )
  return x * beta
}

const GAMMA_DIST_DESCRIPTION = 'Returns the gamma distribution (cumulative, or its density) for shape alpha and scale beta.'
export const GAMMA_DIST = distribution('GAMMA.DIST', ['x', 'alpha', 'beta', 'cumulative'], 0, GAMMA_DIST_DESCRIPTION, 'GAMMA.DIST(10.00001131, 9, 2, TRUE)', ([x, a, b, c]) =>
  gammaDist(n(x), n(a), n(b), c === true),
)
export const GAMMADIST = distribution('GAMMADIST', ['x', 'alpha', 'beta', 'cumulative'], 0, GAMMA_DIST_DESCRIPTION, 'GAMMADIST(10.00001131, 9, 2, TRUE)', ([x, a, b, c]) =>
  gammaDist(n(x), n(a), n(b), c === true),
)
export const GAMMA_INV = distribution('GAMMA.INV', ['probability', 'alpha', 'beta'], 0, 'Returns the inverse of the gamma cumulative distribution.', 'GAMMA.INV(0.068094, 9, 2)', ([p, a, b]) =>
  gammaInverse(n(p), n(a), n(b)),
)
export const GAMMAINV = distribution('GAMMAINV', ['probability', 'alpha', 'beta'], 0, 'Returns the inverse of the gamma cumulative distribution.', 'GAMMAINV(0.068094, 9, 2)', ([p, a, b]) =>
  gammaInverse(n(p), n(a), n(b)),
)

function betaDensity(x: number, alpha: number, beta: number): number {
  if (x === 0) return alpha === 1 ? beta : alpha < 1 ? Infinity : 0
  if (x === 1) return beta === 1 ? alpha : beta < 1 ? Infinity : 0
  return Math.exp((alpha - 1) * Math.log(x) + (beta - 1) * Math.log1p(-x) - logBeta(alpha, beta))
}

function betaDist(x: number, alpha: number, beta: number, cumulative: boolean, low: number, high: number): number | CellError {
  if (alpha <= 0 || beta <= 0 || x < low || x > high || low === high) return CellError.NUM
  const scaled = (x - low) / (high - low)
  return cumulative ? regularizedBeta(scaled, alpha, beta) : betaDensity(scaled, alpha, beta) / (high - low)
}

function betaInverse(p: number, alpha: number, beta: number, low: number, high: number): number | CellError {
  if (p <= 0 || p >= 1 || alpha <= 0 || beta <= 0 || low >= high) return CellError.NUM
  const x = invertDistribution(
    p,
    (t) => regularizedBeta(t, alpha, beta),
    (t) => regularizedBeta(1 - t, beta, alpha),
    (t) => betaDensity(t, alpha, beta),
    0,
    1,
    alpha / (alpha + beta),
  )
  return low + x * (high - low)
}

export const BETA_DIST = distribution('BETA.DIST', ['x', 'alpha', 'beta', 'cumulative', 'A', 'B'], 2, 'Returns the beta distribution (cumulative, or its density) of x between A (0) and B (1).', 'BETA.DIST(2, 8, 10, TRUE, 1, 3)', (args) =>
  betaDist(n(args[0]), n(args[1]), n(args[2]), args[3] === true, optionalArg(args[4], 0), optionalArg(args[5], 1)),
)
export const BETADIST = distribution('BETADIST', ['x', 'alpha', 'beta', 'A', 'B'], 2, 'Returns the cumulative beta distribution of x between A (0) and B (1).', 'BETADIST(2, 8, 10, 1, 3)', (args) =>
  betaDist(n(args[0]), n(args[1]), n(args[2]), true, optionalArg(args[3], 0), optionalArg(args[4], 1)),
)
export const BETA_INV = distribution('BETA.INV', ['probability', 'alpha', 'beta', 'A', 'B'], 2, 'Returns the inverse of the cumulative beta distribution between A (0) and B (1).', 'BETA.INV(0.685470581, 8, 10, 1, 3)', (args) =>
  betaInverse(n(args[0]), n(args[1]), n(args[2]), optionalArg(args[3], 0), optionalArg(args[4], 1)),
)
export const BETAINV = distribution('BETAINV', ['probability', 'alpha', 'beta', 'A', 'B'], 2, 'Returns the inverse of the cumulative beta distribution between A (0) and B (1).', 'BETAINV(0.685470581, 8, 10, 1, 3)', (args) =>
  betaInverse(n(args[0]), n(args[1]), n(args[2]), optionalArg(args[3], 0), optionalArg(args[4], 1)),
)

// ---------------------------------------------------------------------------------------------------------
// Chi-squared, Student's t, F
// ---------------------------------------------------------------------------------------------------------

const MAX_DEGREES = 1e10

function chiSquaredDist(x: number, dfArg: number, cumulative: boolean): number | CellError {
  const df = Math.trunc(dfArg)
  if (x < 0 || df < 1 || df > MAX_DEGREES) return CellError.NUM
  if (cumulative) return regularizedGammaP(df / 2, x / 2)
  return gammaDensity(x, df / 2, 2)
}

function chiSquaredRight(x: number, dfArg: number): number | CellError {
  const df = Math.trunc(dfArg)
  if (x < 0 || df < 1 || df > MAX_DEGREES) return CellError.NUM
  return regularizedGammaQ(df / 2, x / 2)
}

function chiSquaredInverse(p: number, dfArg: number, rightTail: boolean): number | CellError {
  const df = Math.trunc(dfArg)
  if (p < 0 || p > 1 || df < 1 || df > MAX_DEGREES) return CellError.NUM
  if (rightTail ? p === 1 : p === 0) return 0
  if (rightTail ? p === 0 : p === 1) return CellError.NUM
  const half = df / 2
  const x = invertDistribution(
    rightTail ? 1 - p : p,
    (t) => regularizedGammaP(half, t),
    (t) => regularizedGammaQ(half, t),
    (t) => gammaDensity(t, half, 1),
    0,
    Infinity,
    half,
  )
  return 2 * x
}

export const CHISQ_DIST = distribution('CHISQ.DIST', ['x', 'deg_freedom', 'cumulative'], 0, 'Returns the chi-squared distribution (left-tailed cumulative, or its density).', 'CHISQ.DIST(0.5, 1, TRUE)', ([x, d, c]) =>
  chiSquaredDist(n(x), n(d), c === true),
)
export const CHISQ_DIST_RT = distribution('CHISQ.DIST.RT', ['x', 'deg_freedom'], 0, 'Returns the right-tailed probability of the chi-squared distribution.', 'CHISQ.DIST.RT(18.307, 10)', ([x, d]) =>
  chiSquaredRight(n(x), n(d)),
)
export const CHIDIST = distribution('CHIDIST', ['x', 'deg_freedom'], 0, 'Returns the right-tailed probability of the chi-squared distribution.', 'CHIDIST(18.307, 10)', ([x, d]) =>
  chiSquaredRight(n(x), n(d)),
)
export const CHISQ_INV = distribution('CHISQ.INV', ['probability', 'deg_freedom'], 0, 'Returns the inverse of the left-tailed chi-squared distribution.', 'CHISQ.INV(0.93, 1)', ([p, d]) =>
  chiSquaredInverse(n(p), n(d), false),
)
export const CHISQ_INV_RT = distribution('CHISQ.INV.RT', ['probability', 'deg_freedom'], 0, 'Returns the inverse of the right-tailed chi-squared distribution.', 'CHISQ.INV.RT(0.050001, 10)', ([p, d]) =>
  chiSquaredInverse(n(p), n(d), true),
)
export const CHIINV = distribution('CHIINV', ['probability', 'deg_freedom'], 0, 'Returns the inverse of the right-tailed chi-squared distribution.', 'CHIINV(0.050001, 10)', ([p, d]) =>
  chiSquaredInverse(n(p), n(d), true),
)

/**
 * P(T > t) for t ≥ 0 of Student's t distribution with df degrees of freedom. Near the centre it is
 * ½ − ½·I_(t²/(df+t²))(½, df/2), which keeps its precision for small t.
 */
function tUpperTail(t: number, df: number): number {
  const t2 = t * t
  if (t2 < df) return 0.5 - tCentral(t, df)
  return 0.5 * regularizedBeta(df / (df + t2), df / 2, 0.5)
}

/** P(0 < T < t) for t ≥ 0. */
function tCentral(t: number, df: number): number {
  const t2 = t * t
  if (t2 < df) return 0.5 * regularizedBeta(t2 / (df + t2), 0.5, df / 2)
  return 0.5 - tUpperTail(t, df)
}

function tDensity(t: number, df: number): number {
  return Math.exp(-((df + 1) / 2) * Math.log1p((t * t) / df) - 0.5 * Math.log(df) - logBeta(df / 2, 0.5))
}

function tCdf(t: number, df: number): number {
  return t >= 0 ? 1 - tUpperTail(t, df) : tUpperTail(-t, df)
}

/** The t ≥ 0 whose upper tail probability is q (0 < q ≤ 1/2), solved near the centre on P(0 < T < t) = ½ − q. */
function tUpperInverse(q: number, df: number): number {
  if (q === 0.5) return 0
  const start = Math.max(1e-3, -normalInverse(q))
  if (q > 0.25) return invertCdf(0.5 - q, (t) => tCentral(t, df), (t) => tDensity(t, df), 0, Infinity, start)
  return invertCdf(-q, (t) => -tUpperTail(t, df), (t) => tDensity(t, df), 0, Infinity, start)
}

function studentT(name: string, parameters: string[], description: string, example: string, compute: (x: number, df: number, rest: Arg[]) => number | CellError) {
  return distribution(name, parameters, 0, description, example, (args) => {
    const df = Math.trunc(n(args[1]))
    if (df < 1 || df > MAX_DEGREES) return CellError.NUM
    return compute(n(args[0]), df, args.slice(2))
  })
}

export const T_DIST = studentT('T.DIST', ['x', 'deg_freedom', 'cumulative'], "Returns Student's left-tailed t distribution (cumulative, or its density).", 'T.DIST(60, 1, TRUE)', (x, df, [c]) =>
  c === true ? tCdf(x, df) : tDensity(x, df),
)
export const T_DIST_RT = studentT('T.DIST.RT', ['x', 'deg_freedom'], "Returns the right-tailed probability of Student's t distribution.", 'T.DIST.RT(1.959999998, 60)', (x, df) =>
  x >= 0 ? tUpperTail(x, df) : 1 - tUpperTail(-x, df),
)
export const T_DIST_2T = studentT('T.DIST.2T', ['x', 'deg_freedom'], "Returns the two-tailed probability of Student's t distribution.", 'T.DIST.2T(1.959999998, 60)', (x, df) =>
  x < 0 ? CellError.NUM : 2 * tUpperTail(x, df),
)
export const TDIST = studentT('TDIST', ['x', 'deg_freedom', 'tails'], "Returns the one- or two-tailed probability of Student's t distribution.", 'TDIST(1.959999998, 60, 2)', (x, df, [tailsArg]) => {
  const tails = Math.trunc(n(tailsArg))
  if (x < 0 || (tails !== 1 && tails !== 2)) return CellError.NUM
  return tails * tUpperTail(x, df)
})
export const T_INV = studentT('T.INV', ['probability', 'deg_freedom'], "Returns the inverse of Student's left-tailed t distribution.", 'T.INV(0.75, 2)', (p, df) => {
  if (!isProbability(p)) return CellError.NUM
  return p < 0.5 ? -tUpperInverse(p, df) : tUpperInverse(1 - p, df)
})
function twoTailedInverse(p: number, df: number): number | CellError {
  if (p <= 0 || p > 1) return CellError.NUM
  return tUpperInverse(p / 2, df)
}
export const T_INV_2T = studentT('T.INV.2T', ['probability', 'deg_freedom'], "Returns the inverse of Student's two-tailed t distribution.", 'T.INV.2T(0.546449, 60)', twoTailedInverse)
export const TINV = studentT('TINV', ['probability', 'deg_freedom'], "Returns the inverse of Student's two-tailed t distribution.", 'TINV(0.546449, 60)', twoTailedInverse)

function fCdf(x: number, d1: number, d2: number): number {
  return regularizedBeta((d1 * x) / (d1 * x + d2), d1 / 2, d2 / 2)
}

function fUpper(x: number, d1: number, d2: number): number {
  return regularizedBeta(d2 / (d2 + d1 * x), d2 / 2, d1 / 2)
}

function fDensity(x: number, d1: number, d2: number): number {
  if (x === 0) return d1 === 2 ? 1 : d1 < 2 ? Infinity : 0
  return Math.exp(
    (d1 / 2) * Math.log((d1 * x) / (d1 * x + d2)) + (d2 / 2) * Math.log(d2 / (d1 * x + d2)) - Math.log(x) - logBeta(d1 / 2, d2 / 2),
  )
}

function fDistribution(name: string, parameters: string[], description: string, example: string, compute: (x: number, d1: number, d2: number, rest: Arg[]) => number | CellError) {
  return distribution(name, parameters, 0, description, example, (args) => {
    const d1 = Math.trunc(n(args[1]))
    const d2 = Math.trunc(n(args[2]))
    if (d1 < 1 || d2 < 1 || d1 > MAX_DEGREES || d2 > MAX_DEGREES) return CellError.NUM
    return compute(n(args[0]), d1, d2, args.slice(3))
  })
}

function fInverse(p: number, d1: number, d2: number, rightTail: boolean): number | CellError {
  if (p < 0 || p > 1) return CellError.NUM
  if (rightTail ? p === 1 : p === 0) return 0
  if (rightTail ? p === 0 : p === 1) return CellError.NUM
  return invertDistribution(
    rightTail ? 1 - p : p,
    (x) => fCdf(x, d1, d2),
    (x) => fUpper(x, d1, d2),
    (x) => fDensity(x, d1, d2),
    0,
    Infinity,
    1,
  )
}

export const F_DIST = fDistribution('F.DIST', ['x', 'deg_freedom1', 'deg_freedom2', 'cumulative'], 'Returns the F distribution (left-tailed cumulative, or its density).', 'F.DIST(15.2069, 6, 4, TRUE)', (x, d1, d2, [c]) =>
  x < 0 ? CellError.NUM : c === true ? fCdf(x, d1, d2) : fDensity(x, d1, d2),
)
export const F_DIST_RT = fDistribution('F.DIST.RT', ['x', 'deg_freedom1', 'deg_freedom2'], 'Returns the right-tailed F distribution.', 'F.DIST.RT(15.2069, 6, 4)', (x, d1, d2) =>
  x < 0 ? CellError.NUM : fUpper(x, d1, d2),
)
export const FDIST = fDistribution('FDIST', ['x', 'deg_freedom1', 'deg_freedom2'], 'Returns the right-tailed F distribution.', 'FDIST(15.2069, 6, 4)', (x, d1, d2) =>
  x < 0 ? CellError.NUM : fUpper(x, d1, d2),
)
export const F_INV = fDistribution('F.INV', ['probability', 'deg_freedom1', 'deg_freedom2'], 'Returns the inverse of the left-tailed F distribution.', 'F.INV(0.01, 6, 4)', (p, d1, d2) =>
  fInverse(p, d1, d2, false),
)
export const F_INV_RT = fDistribution('F.INV.RT', ['probability', 'deg_freedom1', 'deg_freedom2'], 'Returns the inverse of the right-tailed F distribution.', 'F.INV.RT(0.01, 6, 4)', (p, d1, d2) =>
  fInverse(p, d1, d2, true),
)
export const FINV = fDistribution('FINV', ['probability', 'deg_freedom1', 'deg_freedom2'], 'Returns the inverse of the right-tailed F distribution.', 'FINV(0.01, 6, 4)', (p, d1, d2) =>
  fInverse(p, d1, d2, true),
)

// ---------------------------------------------------------------------------------------------------------
// Confidence intervals and Fisher's transformation
// ---------------------------------------------------------------------------------------------------------

function confidenceNormal(alpha: number, sd: number, sizeArg: number): number | CellError {
  const size = Math.trunc(sizeArg)
  if (!isProbability(alpha) || sd <= 0 || size < 1) return CellError.NUM
  return (-normalInverse(alpha / 2) * sd) / Math.sqrt(size)
}

export const CONFIDENCE_NORM = distribution('CONFIDENCE.NORM', ['alpha', 'standard_dev', 'size'], 0, 'Returns the half-width of the confidence interval for a population mean, from the normal distribution.', 'CONFIDENCE.NORM(0.05, 2.5, 50)', ([a, s, z]) =>
  confidenceNormal(n(a), n(s), n(z)),
)
export const CONFIDENCE = distribution('CONFIDENCE', ['alpha', 'standard_dev', 'size'], 0, 'Returns the half-width of the confidence interval for a population mean, from the normal distribution.', 'CONFIDENCE(0.05, 2.5, 50)', ([a, s, z]) =>
  confidenceNormal(n(a), n(s), n(z)),
)
export const CONFIDENCE_T = distribution('CONFIDENCE.T', ['alpha', 'standard_dev', 'size'], 0, "Returns the half-width of the confidence interval for a population mean, from Student's t distribution.", 'CONFIDENCE.T(0.05, 1, 50)', ([a, s, z]) => {
  const alpha = n(a)
  const sd = n(s)
  const size = Math.trunc(n(z))
  if (!isProbability(alpha) || sd <= 0 || size < 1) return CellError.NUM
  if (size === 1) return CellError.DIV0
  return (tUpperInverse(alpha / 2, size - 1) * sd) / Math.sqrt(size)
})

export const FISHER = distribution('FISHER', ['x'], 0, "Returns Fisher's transformation of x: ½·ln((1+x)/(1−x)).", 'FISHER(0.75)', ([x]) => {
  const value = n(x)
  if (value <= -1 || value >= 1) return CellError.NUM
  return 0.5 * Math.log((1 + value) / (1 - value))
})
export const FISHERINV = distribution('FISHERINV', ['y'], 0, "Returns the inverse of Fisher's transformation.", 'FISHERINV(0.972955)', ([y]) => Math.tanh(n(y)))

/** Exposed for the hypothesis tests. */
export const tails = { tUpperTail, chiSquaredRight, normalCdf }

export const functions: readonly FunctionDefinition[] = [
  NORM_DIST,
  NORMDIST,
  NORM_INV,
  NORMINV,
  NORM_S_DIST,
  NORMSDIST,
  NORM_S_INV,
  NORMSINV,
  PHI,
  GAUSS,
  LOGNORM_DIST,
  LOGNORMDIST,
  LOGNORM_INV,
  LOGINV,
  EXPON_DIST,
  EXPONDIST,
  WEIBULL_DIST,
  WEIBULL,
  POISSON_DIST,
  POISSON,
  BINOM_DIST,
  BINOMDIST,
  BINOM_DIST_RANGE,
  BINOM_INV,
  CRITBINOM,
  NEGBINOM_DIST,
  NEGBINOMDIST,
  HYPGEOM_DIST,
  HYPGEOMDIST,
  GAMMA,
  GAMMALN,
  GAMMALN_PRECISE,
  GAMMA_DIST,
  GAMMADIST,
  GAMMA_INV,
  GAMMAINV,
  BETA_DIST,
  BETADIST,
  BETA_INV,
  BETAINV,
  CHISQ_DIST,
  CHISQ_DIST_RT,
  CHIDIST,
  CHISQ_INV,
  CHISQ_INV_RT,
  CHIINV,
  T_DIST,
  T_DIST_RT,
  T_DIST_2T,
  TDIST,
  T_INV,
  T_INV_2T,
  TINV,
  F_DIST,
  F_DIST_RT,
  FDIST,
  F_INV,
  F_INV_RT,
  FINV,
  CONFIDENCE_NORM,
  CONFIDENCE,
  CONFIDENCE_T,
  FISHER,
  FISHERINV,
]
