/**
 * Special functions for the statistical distributions, to about 1e-15 relative accuracy:
 * - the gamma function and its logarithm by Lanczos' approximation (g = 607/128, 15 terms, as in
 *   Boost and Numerical Recipes 3rd ed.), with the reflection formula below 1/2;
 * - the regularized incomplete gamma function by its power series and Legendre's continued fraction;
 * - the regularized incomplete beta function by its continued fraction (modified Lentz);
 * - the standard normal distribution from the incomplete gamma function (erfc(x) = Q(1/2, x²)), and
 *   its inverse by Acklam's rational approximation refined with Halley steps to full precision;
 * - a safeguarded Newton search for the inverses of the other distributions.
 */

const LANCZOS_G = 607 / 128
const LANCZOS_COEFFICIENTS = [
  0.9999999999999971, 57.15623566586292, -59.59796035547549, 14.136097974741746, -0.4919138160976202,
  0.00003399464998481189, 0.00004652362892704858, -0.00009837447530487956, 0.0001580887032249125,
  -0.00021026444172410488, 0.00021743961811521265, -0.0001643181065367639, 0.00008441822398385275,
  -0.000026190838401581408, 0.0000036899182659531625,
]
const HALF_LOG_TWO_PI = 0.9189385332046728

/** The Lanczos sum for x ≥ 1/2 (argument shifted so that Γ(x) = √(2π) t^(x−½) e^(−t) A with t = x + g − ½). */
function lanczosSum(x: number): number {
  let sum = LANCZOS_COEFFICIENTS[0]
  for (let i = 1; i < LANCZOS_COEFFICIENTS.length; i++) sum += LANCZOS_COEFFICIENTS[i] / (x - 1 + i)
  return sum
}

/** ln Γ(x) for x > 0. */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x)
  if (x === 1 || x === 2) return 0
  const t = x + LANCZOS_G - 0.5
  return HALF_LOG_TWO_PI + (x - 0.5) * Math.log(t) - t + Math.log(lanczosSum(x))
}

/** Γ(x) for any x that is not 0 or a negative integer (those give NaN); overflows to Infinity past 171.6. */
export function gamma(x: number): number {
  if (Number.isInteger(x)) {
    if (x <= 0) return NaN
    if (x <= 171) {
      let result = 1
      for (let i = 2; i < x; i++) result *= i
      return result
    }
    return Infinity
  }
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * gamma(1 - x))
  if (x > 171.7) return Infinity
  const t = x + LANCZOS_G - 0.5
  // Split the power so that t^(x−½) does not overflow before e^(−t) brings it back.
  const half = Math.pow(t, (x - 0.5) / 2)
  return Math.sqrt(2 * Math.PI) * half * (half * Math.exp(-t)) * lanczosSum(x)
}

/** ln B(a, b). */
export function logBeta(a: number, b: number): number {
  return logGamma(a) + logGamma(b) - logGamma(a + b)
}

const EPSILON = 1e-16
const TINY = 1e-300

/** The regularized lower incomplete gamma function P(a, x). */
export function regularizedGammaP(a: number, x: number): number {
  if (x <= 0) return 0
  if (x < a + 1) return gammaSeries(a, x)
  return 1 - gammaFraction(a, x)
}

/** The regularized upper incomplete gamma function Q(a, x) = 1 − P(a, x), accurate in the upper tail. */
export function regularizedGammaQ(a: number, x: number): number {
  if (x <= 0) return 1
  if (x < a + 1) return 1 - gammaSeries(a, x)
  return gammaFraction(a, x)
}

function gammaSeries(a: number, x: number): number {
  let term = 1 / a
  let sum = term
  for (let n = 1; n < 10_000; n++) {
    term *= x / (a + n)
    sum += term
    if (Math.abs(term) < Math.abs(sum) * EPSILON) break
  }
  return sum * Math.exp(-x + a * Math.log(x) - logGamma(a))
}

function gammaFraction(a: number, x: number): number {
  let b = x + 1 - a
  let c = 1 / TINY
  let d = 1 / b
  let h = d
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - a)
    b += 2
    d = an * d + b
    if (Math.abs(d) < TINY) d = TINY
    c = b + an / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < EPSILON) break
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h
}

/** The regularized incomplete beta function I_x(a, b) for 0 ≤ x ≤ 1. */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0
  if (x >= 1) return 1
  const front = betaFront(x, a, b)
  // The continued fraction converges fast below the mean; above it, use the symmetry I_x(a,b) = 1 − I_(1−x)(b,a).
  if (x < (a + 1) / (a + b + 2)) return (front * betaFraction(x, a, b)) / a
  return 1 - (front * betaFraction(1 - x, b, a)) / b
}

/**
 * x^a (1−x)^b / B(a, b). For large a and b the logarithms of its factors are huge and cancel; written
 * around the mean a/(a+b) with Stirling's series for the beta function, the cancellation disappears.
 */
function betaFront(x: number, a: number, b: number): number {
  if (Math.min(a, b) < 10) return Math.exp(a * Math.log(x) + b * Math.log1p(-x) - logBeta(a, b))
  const sum = a + b
  const u = (x * sum - a) / a
  const v = ((1 - x) * sum - b) / b
  const exponent =
    a * Math.log1p(u) + b * Math.log1p(v) + 0.5 * Math.log((a * b) / sum) - HALF_LOG_TWO_PI - stirlingError(a) - stirlingError(b) + stirlingError(sum)
  return Math.exp(exponent)
}

/** ln Γ(x) − ((x − ½) ln x − x + ½ ln 2π), by its asymptotic series (x ≥ 10). */
function stirlingError(x: number): number {
  const x2 = x * x
  return (1 / 12 - (1 / 360 - (1 / 1260 - 1 / (1680 * x2)) / x2) / x2) / x
}

function betaFraction(x: number, a: number, b: number): number {
  const qab = a + b
  const qap = a + 1
  const qam = a - 1
  let c = 1
  let d = 1 - (qab * x) / qap
  if (Math.abs(d) < TINY) d = TINY
  d = 1 / d
  let h = d
  // Near the mean of a very peaked distribution the fraction needs about √max(a, b) terms.
  for (let m = 1; m < 1_000_000; m++) {
    const m2 = 2 * m
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2))
    d = 1 + aa * d
    if (Math.abs(d) < TINY) d = TINY
    c = 1 + aa / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    h *= d * c
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2))
    d = 1 + aa * d
    if (Math.abs(d) < TINY) d = TINY
    c = 1 + aa / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < EPSILON) break
  }
  return h
}

/** erf(x), accurate near 0 too (P(1/2, x²) keeps its relative precision for small x). */
export function erf(x: number): number {
  if (x < 0) return -erf(-x)
  return regularizedGammaP(0.5, x * x)
}

/** erfc(x), accurate in both tails. */
export function erfc(x: number): number {
  if (x < 0) return 2 - erfc(-x)
  return regularizedGammaQ(0.5, x * x)
}

/** The standard normal cumulative distribution Φ(z). */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2)
}

/** The standard normal density φ(z). */
export function normalPdf(z: number): number {
  return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI)
}

const ACKLAM_A = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239]
const ACKLAM_B = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572]
const ACKLAM_C = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783]
const ACKLAM_D = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416]

/** Φ⁻¹(p) for 0 < p < 1. */
export function normalInverse(p: number): number {
  let x: number
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p))
    x = tail(q)
  } else if (p > 1 - 0.02425) {
    const q = Math.sqrt(-2 * Math.log1p(-p))
    x = -tail(q)
  } else {
    const q = p - 0.5
    const r = q * q
    const [a0, a1, a2, a3, a4, a5] = ACKLAM_A
    const [b0, b1, b2, b3, b4] = ACKLAM_B
    x = ((((((a0 * r + a1) * r + a2) * r + a3) * r + a4) * r + a5) * q) / (((((b0 * r + b1) * r + b2) * r + b3) * r + b4) * r + 1)
  }
  // Halley steps on Φ(x) − p bring the approximation (1e-9) to full precision. Near the centre the
  // error is taken as erf(x/√2)/2 − (p − ½), which keeps the relative precision of small x.
  const central = p > 0.25 && p < 0.75
  for (let i = 0; i < 3; i++) {
    const error = central ? 0.5 * erf(x / Math.SQRT2) - (p - 0.5) : p < 0.5 ? normalCdf(x) - p : 1 - p - normalCdf(-x)
    const u = error * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2)
    const next = x - u / (1 + (x * u) / 2)
    if (!Number.isFinite(next)) break
    if (Math.abs(next - x) <= Math.abs(x) * 1e-16) {
      x = next
      break
    }
    x = next
  }
  return x
}

function tail(q: number): number {
  const [c0, c1, c2, c3, c4, c5] = ACKLAM_C
  const [d0, d1, d2, d3] = ACKLAM_D
  return (((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) / ((((d0 * q + d1) * q + d2) * q + d3) * q + 1)
}

/**
 * The x where a distribution's cumulative probability is p, solving in the tail where p lies so that
 * probabilities near 1 keep their precision: below 1/2 on `lower(x) = p`, above on `upper(x) = 1 − p`.
 */
export function invertDistribution(
  p: number,
  lower: (x: number) => number,
  upper: (x: number) => number,
  density: (x: number) => number,
  low: number,
  high: number,
  start: number,
): number {
  if (p <= 0.5) return invertCdf(p, lower, density, low, high, start)
  return invertCdf(-(1 - p), (x) => -upper(x), density, low, high, start)
}

/**
 * The x in [low, high] (high may be Infinity) where the increasing function `cdf` equals p: Newton steps
 * with the density, falling back to bisection whenever a step leaves the bracket.
 */
export function invertCdf(
  p: number,
  cdf: (x: number) => number,
  pdf: (x: number) => number,
  low: number,
  high: number,
  start: number,
): number {
  let lo = low
  let hi = high
  // Grow an infinite bracket until it holds the answer.
  if (!Number.isFinite(hi)) {
    hi = Math.max(start, 1)
    while (cdf(hi) < p) {
      lo = hi
      hi *= 2
      if (hi > 1e300) return Infinity
    }
  }
  let x = Math.min(Math.max(start, lo), hi)
  for (let i = 0; i < 1000; i++) {
    const value = cdf(x) - p
    if (value === 0) return x
    if (value < 0) lo = x
    else hi = x
    const density = pdf(x)
    let next = density > 0 && Number.isFinite(density) ? x - value / density : NaN
    if (!(next > lo && next < hi)) next = (lo + hi) / 2
    if (Math.abs(next - x) <= Math.abs(x) * 1e-15 || hi - lo <= Math.abs(x) * 1e-15) return next
    x = next
  }
  return x
}
