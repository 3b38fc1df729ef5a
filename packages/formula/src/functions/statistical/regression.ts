/**
 * Two variables at once: correlation, covariance, least-squares lines (SLOPE, INTERCEPT, FORECAST),
 * and multiple regression (LINEST, LOGEST, TREND, GROWTH).
 */
import { ArrayValue, CellError } from '../../values.js'
import type { Scalar } from '../../values.js'
import { numberResult, toArray, toBoolean } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'

/** The pairs of two same-sized arguments where both values are numbers; #N/A when the sizes differ. */
export function numberPairs(first: Arg, second: Arg): { xs: number[]; ys: number[] } | CellError {
  const a = toArray(first)
  if (a instanceof CellError) return a
  const b = toArray(second)
  if (b instanceof CellError) return b
  if (a.data.length !== b.data.length) return CellError.NA
  const xs: number[] = []
  const ys: number[] = []
  for (let i = 0; i < a.data.length; i++) {
    const x = a.data[i]
    const y = b.data[i]
    if (x instanceof CellError) return x
    if (y instanceof CellError) return y
    if (typeof x === 'number' && typeof y === 'number') {
      xs.push(x)
      ys.push(y)
    }
  }
  return { xs, ys }
}

interface Moments {
  n: number
  meanX: number
  meanY: number
  sxx: number
  syy: number
  sxy: number
}

function moments(xs: readonly number[], ys: readonly number[]): Moments {
  const n = xs.length
  let meanX = 0
  let meanY = 0
  for (let i = 0; i < n; i++) {
    meanX += xs[i]
    meanY += ys[i]
  }
  meanX /= n
  meanY /= n
  let sxx = 0
  let syy = 0
  let sxy = 0
  for (let i = 0; i < n; i++) {
    const dx = xs[i] - meanX
    const dy = ys[i] - meanY
    sxx += dx * dx
    syy += dy * dy
    sxy += dx * dy
  }
  return { n, meanX, meanY, sxx, syy, sxy }
}

/** A function of the pairs of two arrays (x first unless `yFirst`). */
function pairFunction(
  name: string,
  parameters: [string, string],
  description: string,
  compute: (m: Moments) => number | CellError,
  yFirst = false,
): FunctionDefinition {
  return {
    name,
    category: 'statistical',
    minArgs: 2,
    maxArgs: 2,
    args: ['any', 'any'],
    syntax: `${name}(${parameters.join(', ')})`,
    description,
    example: `${name}(A2:A10, B2:B10)`,
    impl: ([a, b]) => {
      const pairs = numberPairs(a, b)
      if (pairs instanceof CellError) return pairs
      const m = yFirst ? moments(pairs.ys, pairs.xs) : moments(pairs.xs, pairs.ys)
      if (m.n === 0) return CellError.DIV0
      const result = compute(m)
      return numberResult(result)
    },
  }
}

const correlation = (m: Moments): number | CellError =>
  m.sxx === 0 || m.syy === 0 ? CellError.DIV0 : m.sxy / Math.sqrt(m.sxx * m.syy)

export const CORREL = pairFunction('CORREL', ['array1', 'array2'], 'Returns the correlation coefficient of two data sets.', correlation)
export const PEARSON = pairFunction('PEARSON', ['array1', 'array2'], 'Returns the Pearson product moment correlation coefficient.', correlation)
export const RSQ = pairFunction("RSQ", ["known_y's", "known_x's"], 'Returns the square of the Pearson correlation coefficient.', (m) => {
  const r = correlation(m)
  return typeof r === 'number' ? r * r : r
})
export const SLOPE = pairFunction("SLOPE", ["known_y's", "known_x's"], 'Returns the slope of the least-squares regression line.', (m) =>
  m.sxx === 0 ? CellError.DIV0 : m.sxy / m.sxx,
  true,
)
export const INTERCEPT = pairFunction("INTERCEPT", ["known_y's", "known_x's"], 'Returns where the least-squares regression line crosses the y-axis.', (m) =>
  m.sxx === 0 ? CellError.DIV0 : m.meanY - (m.sxy / m.sxx) * m.meanX,
  true,
)
export const STEYX = pairFunction("STEYX", ["known_y's", "known_x's"], 'Returns the standard error of the predicted y for each x of the regression.', (m) => {
  if (m.n < 3 || m.sxx === 0) return CellError.DIV0
  return Math.sqrt((m.syy - (m.sxy * m.sxy) / m.sxx) / (m.n - 2))
}, true)
export const COVARIANCE_P = pairFunction('COVARIANCE.P', ['array1', 'array2'], 'Returns the population covariance of two data sets.', (m) => m.sxy / m.n)
export const COVAR = pairFunction('COVAR', ['array1', 'array2'], 'Returns the population covariance of two data sets.', (m) => m.sxy / m.n)
export const COVARIANCE_S = pairFunction('COVARIANCE.S', ['array1', 'array2'], 'Returns the sample covariance of two data sets.', (m) =>
  m.n < 2 ? CellError.DIV0 : m.sxy / (m.n - 1),
)

function forecast(name: string): FunctionDefinition {
  return {
    name,
    category: 'statistical',
    minArgs: 3,
    maxArgs: 3,
    args: ['number', 'any', 'any'],
    syntax: `${name}(x, known_y's, known_x's)`,
    description: 'Returns the value at x of the least-squares line through the known points.',
    example: `${name}(30, B2:B6, A2:A6)`,
    impl: ([x, ys, xs]) => {
      const pairs = numberPairs(ys, xs)
      if (pairs instanceof CellError) return pairs
      const m = moments(pairs.ys, pairs.xs)
      if (m.n === 0 || m.sxx === 0) return CellError.DIV0
      const slope = m.sxy / m.sxx
      return numberResult(m.meanY + slope * ((x as number) - m.meanX))
    },
  }
}

export const FORECAST = forecast('FORECAST')
export const FORECAST_LINEAR = forecast('FORECAST.LINEAR')

// ---------------------------------------------------------------------------------------------------------
// Multiple regression
// ---------------------------------------------------------------------------------------------------------

/** A regression problem: n observations of y and of k explanatory variables. */
interface Design {
  y: number[]
  /** x[i][j]: observation i of variable j. */
  x: number[][]
  /** Whether the observations run down a column (true) or along a row. */
  byColumn: boolean
}

function numericArray(arg: Arg): ArrayValue | CellError {
  const array = toArray(arg)
  if (array instanceof CellError) return array
  for (const value of array.data) {
    if (value instanceof CellError) return value
    if (typeof value !== 'number') return CellError.VALUE
  }
  return array
}

/** Reads known_y's and known_x's as Excel's LINEST does: one x variable per column (or row) of known_x's. */
function readDesign(yArg: Arg, xArg: Arg | undefined): Design | CellError {
  const ys = numericArray(yArg)
  if (ys instanceof CellError) return ys
  const n = ys.data.length
  const byColumn = ys.width === 1
  if (xArg === undefined || xArg === MISSING) {
    return { y: ys.data as number[], x: (ys.data as number[]).map((_, i) => [i + 1]), byColumn }
  }
  const xs = numericArray(xArg)
  if (xs instanceof CellError) return xs
  let x: number[][]
  if (xs.data.length === n && (xs.width === 1 || xs.height === 1)) {
    x = (xs.data as number[]).map((value) => [value])
  } else if (ys.width === 1 && xs.height === n) {
    x = xs.toRows() as number[][]
  } else if (ys.height === 1 && xs.width === n) {
    x = []
    for (let c = 0; c < xs.width; c++) {
      const row: number[] = []
      for (let r = 0; r < xs.height; r++) row.push(xs.get(r, c) as number)
      x.push(row)
    }
  } else return CellError.REF
  return { y: ys.data as number[], x, byColumn }
}

/** The design of LOGEST and GROWTH fits the logarithms of y, which must all be positive. */
function readCurveDesign(yArg: Arg, xArg: Arg | undefined, logarithmic: boolean): Design | CellError {
  const design = readDesign(yArg, xArg)
  if (design instanceof CellError || !logarithmic) return design
  if (design.y.some((value) => value <= 0)) return CellError.NUM
  design.y = design.y.map(Math.log)
  return design
}

/** Solves the symmetric system A·v = b by Gaussian elimination with partial pivoting; undefined if singular. */
function solve(a: number[][], b: number[]): number[] | undefined {
  const n = b.length
  const m = a.map((row, i) => [...row, b[i]])
  for (let k = 0; k < n; k++) {
    let best = k
    for (let i = k + 1; i < n; i++) if (Math.abs(m[i][k]) > Math.abs(m[best][k])) best = i
    if (Math.abs(m[best][k]) < 1e-300) return undefined
    ;[m[k], m[best]] = [m[best], m[k]]
    for (let i = k + 1; i < n; i++) {
      const factor = m[i][k] / m[k][k]
      for (let j = k; j <= n; j++) m[i][j] -= factor * m[k][j]
    }
  }
  const v = new Array<number>(n).fill(0)
  for (let i = n - 1; i >= 0; i--) {
    let sum = m[i][n]
    for (let j = i + 1; j < n; j++) sum -= m[i][j] * v[j]
    v[i] = sum / m[i][i]
  }
  return v
}

/** Inverts a symmetric positive matrix (for the standard errors); undefined if singular. */
function invert(a: number[][]): number[][] | undefined {
  const n = a.length
  const columns: number[][] = []
  for (let c = 0; c < n; c++) {
    const unit = new Array<number>(n).fill(0)
    unit[c] = 1
    const column = solve(a, unit)
    if (!column) return undefined
    columns.push(column)
  }
  return columns
}

interface Fit {
  /** Coefficients of the variables in order, then the constant. */
  slopes: number[]
  intercept: number
  /** Standard errors of the slopes and of the intercept (NaN for a constant forced to 0). */
  slopeErrors: number[]
  interceptError: number
  r2: number
  standardErrorY: number
  f: number
  degreesOfFreedom: number
  regressionSumOfSquares: number
  residualSumOfSquares: number
}

function fitLeastSquares(design: Design, withConstant: boolean): Fit | CellError {
  const n = design.y.length
  const k = design.x[0]?.length ?? 0
  const columns = withConstant ? k + 1 : k
  if (n === 0 || k === 0) return CellError.VALUE
  // Centring the data first keeps the normal equations well conditioned.
  const meanY = withConstant ? design.y.reduce((s, v) => s + v, 0) / n : 0
  const meanX = new Array<number>(k).fill(0)
  if (withConstant) for (const row of design.x) for (let j = 0; j < k; j++) meanX[j] += row[j] / n
  const xtx = Array.from({ length: k }, () => new Array<number>(k).fill(0))
  const xty = new Array<number>(k).fill(0)
  for (let i = 0; i < n; i++) {
    const row = design.x[i]
    const dy = design.y[i] - meanY
    for (let a = 0; a < k; a++) {
      const da = row[a] - meanX[a]
      xty[a] += da * dy
      for (let b = 0; b < k; b++) xtx[a][b] += da * (row[b] - meanX[b])
    }
  }
  const slopes = solve(xtx, xty)
  if (!slopes) return CellError.NUM
  const intercept = withConstant ? meanY - slopes.reduce((s, m, j) => s + m * meanX[j], 0) : 0
  let residual = 0
  let total = 0
  for (let i = 0; i < n; i++) {
    let predicted = intercept
    for (let j = 0; j < k; j++) predicted += slopes[j] * design.x[i][j]
    residual += (design.y[i] - predicted) ** 2
    total += (design.y[i] - meanY) ** 2
  }
  const degreesOfFreedom = n - columns
  const regression = total - residual
  const r2 = total === 0 ? 1 : regression / total
  const variance = degreesOfFreedom > 0 ? residual / degreesOfFreedom : NaN
  const inverse = invert(xtx)
  const slopeErrors = slopes.map((_, j) => (inverse ? Math.sqrt(variance * inverse[j][j]) : NaN))
  let interceptError = NaN
  if (withConstant && inverse) {
    let quadratic = 0
    for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) quadratic += meanX[a] * inverse[a][b] * meanX[b]
    interceptError = Math.sqrt(variance * (1 / n + quadratic))
  }
  const f = (regression / (columns - (withConstant ? 1 : 0))) / variance
  return {
    slopes,
    intercept,
    slopeErrors,
    interceptError,
    r2,
    standardErrorY: Math.sqrt(variance),
    f,
    degreesOfFreedom,
    regressionSumOfSquares: regression,
    residualSumOfSquares: residual,
  }
}

function flag(arg: Arg | undefined, fallback: boolean): boolean | CellError {
  if (arg === undefined || arg === MISSING || arg === null) return fallback
  if (typeof arg === 'object' && !(arg instanceof CellError)) return CellError.VALUE
  return toBoolean(arg as Scalar)
}

/** LINEST's result block: coefficients (last variable first) and the constant, then the statistics. */
function linestResult(fit: Fit, statistics: boolean, transform: (coefficient: number) => number): ArrayValue {
  const k = fit.slopes.length
  const width = k + 1
  const first: Scalar[] = [...fit.slopes.map(transform).reverse(), transform(fit.intercept)]
  if (!statistics) return new ArrayValue(1, width, first)
  const cell = (value: number): Scalar => (Number.isFinite(value) ? value : CellError.NA)
  const rows: Scalar[][] = [
    first,
    [...fit.slopeErrors.map(cell).reverse(), cell(fit.interceptError)],
    [cell(fit.r2), cell(fit.standardErrorY)],
    [cell(fit.f), fit.degreesOfFreedom],
    [fit.regressionSumOfSquares, fit.residualSumOfSquares],
  ]
  return ArrayValue.fromRows(rows.map((row) => [...row, ...new Array<Scalar>(width - row.length).fill(CellError.NA)]))
}

function regressionFunction(name: string, logarithmic: boolean): FunctionDefinition {
  return {
    name,
    category: 'statistical',
    minArgs: 1,
    maxArgs: 4,
    args: ['any', 'any', 'scalar', 'scalar'],
    syntax: `${name}(known_y's, [known_x's], [const], [stats])`,
    description: logarithmic
      ? 'Returns the parameters of the exponential curve y = b·m1^x1·m2^x2… that best fits the data, and optionally its statistics.'
      : 'Returns the parameters of the least-squares line y = m1·x1 + m2·x2 + … + b, and optionally its statistics.',
    example: `${name}(B2:B10, A2:A10, TRUE, TRUE)`,
    impl: (args) => {
      const design = readCurveDesign(args[0], args[1], logarithmic)
      if (design instanceof CellError) return design
      const withConstant = flag(args[2], true)
      if (withConstant instanceof CellError) return withConstant
      const statistics = flag(args[3], false)
      if (statistics instanceof CellError) return statistics
      const fit = fitLeastSquares(design, withConstant)
      if (fit instanceof CellError) return fit
      return linestResult(fit, statistics, logarithmic ? Math.exp : (value) => value)
    },
  }
}

export const LINEST = regressionFunction('LINEST', false)
export const LOGEST = regressionFunction('LOGEST', true)

function predictionFunction(name: string, logarithmic: boolean): FunctionDefinition {
  return {
    name,
    category: 'statistical',
    minArgs: 1,
    maxArgs: 4,
    args: ['any', 'any', 'any', 'scalar'],
    syntax: `${name}(known_y's, [known_x's], [new_x's], [const])`,
    description: logarithmic
      ? 'Returns the values at new_x of the exponential curve that best fits the known data.'
      : 'Returns the values at new_x of the least-squares line through the known data.',
    example: `${name}(B2:B10, A2:A10, A11:A13)`,
    impl: (args) => {
      const design = readCurveDesign(args[0], args[1], logarithmic)
      if (design instanceof CellError) return design
      const withConstant = flag(args[3], true)
      if (withConstant instanceof CellError) return withConstant
      const fit = fitLeastSquares(design, withConstant)
      if (fit instanceof CellError) return fit
      const k = fit.slopes.length
      const predict = (x: number[]): number => {
        let value = fit.intercept
        for (let j = 0; j < k; j++) value += fit.slopes[j] * x[j]
        return logarithmic ? Math.exp(value) : value
      }
      const newArg = args[2]
      if (newArg === undefined || newArg === MISSING) {
        const values = design.x.map(predict)
        return design.byColumn ? new ArrayValue(values.length, 1, values) : new ArrayValue(1, values.length, values)
      }
      const points = numericArray(newArg)
      if (points instanceof CellError) return points
      if (k === 1) return new ArrayValue(points.height, points.width, (points.data as number[]).map((x) => predict([x])))
      // Several variables: each row (observations down columns) or column of new_x's is one point.
      if (design.byColumn) {
        if (points.width !== k) return CellError.REF
        const values = (points.toRows() as number[][]).map(predict)
        return new ArrayValue(values.length, 1, values)
      }
      if (points.height !== k) return CellError.REF
      const values: number[] = []
      for (let c = 0; c < points.width; c++) {
        const x: number[] = []
        for (let r = 0; r < k; r++) x.push(points.get(r, c) as number)
        values.push(predict(x))
      }
      return new ArrayValue(1, values.length, values)
    },
  }
}

export const TREND = predictionFunction('TREND', false)
export const GROWTH = predictionFunction('GROWTH', true)

export const PERMUT: FunctionDefinition = {
  name: 'PERMUT',
  category: 'statistical',
  minArgs: 2,
  maxArgs: 2,
  args: ['number', 'number'],
  syntax: 'PERMUT(number, number_chosen)',
  description: 'Returns the number of ordered selections of number_chosen items out of number.',
  example: 'PERMUT(100, 3)',
  impl: ([a, b]) => {
    const n = Math.trunc(a as number)
    const k = Math.trunc(b as number)
    if (n < 0 || k < 0 || n < k) return CellError.NUM
    let result = 1
    for (let i = 0; i < k && Number.isFinite(result); i++) result *= n - i
    return numberResult(result)
  },
}

export const PERMUTATIONA: FunctionDefinition = {
  name: 'PERMUTATIONA',
  category: 'statistical',
  minArgs: 2,
  maxArgs: 2,
  args: ['number', 'number'],
  syntax: 'PERMUTATIONA(number, number_chosen)',
  description: 'Returns the number of ordered selections, with repetitions, of number_chosen items out of number.',
  example: 'PERMUTATIONA(3, 2)',
  impl: ([a, b]) => {
    const n = Math.trunc(a as number)
    const k = Math.trunc(b as number)
    if (n < 0 || k < 0) return CellError.NUM
    return numberResult(Math.pow(n, k))
  },
}

export const functions: readonly FunctionDefinition[] = [
  CORREL,
  PEARSON,
  RSQ,
  SLOPE,
  INTERCEPT,
  STEYX,
  COVARIANCE_P,
  COVAR,
  COVARIANCE_S,
  FORECAST,
  FORECAST_LINEAR,
  LINEST,
  LOGEST,
  TREND,
  GROWTH,
  PERMUT,
  PERMUTATIONA,
]
