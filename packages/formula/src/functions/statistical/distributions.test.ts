import { describe, expect, it } from 'vitest'
import { calc, calcArray } from '../math/engine-test-kit.js'

/** Values from Excel's documentation, to the digits it shows. */
function near(formula: string, expected: number, digits: number) {
  const value = calc(formula)
  expect(typeof value, `${formula} gave ${value}`).toBe('number')
  expect(value as number).toBeCloseTo(expected, digits)
}

describe('normal family', () => {
  it('NORM.DIST, NORM.INV and the standard forms', () => {
    near('NORM.DIST(42, 40, 1.5, TRUE)', 0.9087887802741321, 14)
    near('NORM.DIST(42, 40, 1.5, FALSE)', 0.10934005, 8)
    near('NORM.INV(0.908789, 40, 1.5)', 42.000002, 6)
    near('NORM.S.DIST(1.333333, TRUE)', 0.908788726, 9)
    near('NORM.S.DIST(1.333333, FALSE)', 0.164010148, 9)
    near('NORM.S.INV(0.908789)', 1.3333347, 7)
    near('NORMSDIST(-38)', 2.8854283510039645e-316, 320)
    near('NORM.S.INV(1E-10)', -6.361340902404056, 12)
    expect(calc('NORM.DIST(1, 0, 0, TRUE)')).toBe('#NUM!')
    expect(calc('NORM.INV(1, 0, 1)')).toBe('#NUM!')
    expect(calc('NORM.DIST(, 0, 1, FALSE)')).toBeCloseTo(0.39894228, 8)
  })

  it('LOGNORM, PHI, GAUSS, FISHER', () => {
    near('LOGNORM.DIST(4, 3.5, 1.2, TRUE)', 0.0390836, 7)
    near('LOGNORM.DIST(4, 3.5, 1.2, FALSE)', 0.0176176, 7)
    near('LOGNORM.INV(0.039084, 3.5, 1.2)', 4.0000252, 6)
    expect(calc('LOGNORM.DIST(0, 3.5, 1.2, TRUE)')).toBe('#NUM!')
    near('PHI(0.75)', 0.301137432, 9)
    near('GAUSS(2)', 0.47724987, 8)
    near('FISHER(0.75)', 0.9729551, 7)
    near('FISHERINV(0.972955)', 0.75, 6)
    expect(calc('FISHER(1)')).toBe('#NUM!')
  })

  it('CONFIDENCE.NORM and CONFIDENCE.T', () => {
    near('CONFIDENCE.NORM(0.05, 2.5, 50)', 0.692952, 6)
    near('CONFIDENCE.T(0.05, 1, 50)', 0.284196855, 9)
    expect(calc('CONFIDENCE.T(0.05, 1, 1)')).toBe('#DIV/0!')
    expect(calc('CONFIDENCE.NORM(0, 1, 10)')).toBe('#NUM!')
  })
})

describe('discrete distributions', () => {
  it('BINOM.DIST, BINOM.DIST.RANGE, BINOM.INV, NEGBINOM.DIST', () => {
    near('BINOM.DIST(6, 10, 0.5, FALSE)', 0.2050781, 7)
    near('BINOM.DIST(6, 10, 0.5, TRUE)', 0.828125, 9)
    near('BINOM.DIST.RANGE(60, 0.75, 48)', 0.084, 3)
    near('BINOM.DIST.RANGE(60, 0.75, 45, 50)', 0.52363, 5)
    expect(calc('BINOM.INV(6, 0.5, 0.75)')).toBe(4)
    expect(calc('BINOM.INV(6, 0.5, 1)')).toBe('#NUM!')
    expect(calc('BINOM.INV(1E9, 0.5, 0.5)')).toBe(500000000)
    near('BINOM.DIST.RANGE(1E9, 0.5, 0, 500000000)', 0.500012615662607, 11)
    near('NEGBINOM.DIST(10, 5, 0.25, TRUE)', 0.3135141, 7)
    near('NEGBINOM.DIST(10, 5, 0.25, FALSE)', 0.05504866, 8)
    expect(calc('BINOM.DIST(11, 10, 0.5, FALSE)')).toBe('#NUM!')
    near('HYPGEOM.DIST(1, 4, 8, 20, TRUE)', 0.4654, 4)
    near('HYPGEOM.DIST(1, 4, 8, 20, FALSE)', 0.3633, 4)
    near('HYPGEOMDIST(1, 4, 8, 20)', 0.363261094, 9)
    expect(calc('HYPGEOM.DIST(5, 4, 8, 20, TRUE)')).toBe('#NUM!')
  })

  it('POISSON.DIST, EXPON.DIST and WEIBULL.DIST', () => {
    near('POISSON.DIST(2, 5, TRUE)', 0.124652, 6)
    near('POISSON.DIST(2, 5, FALSE)', 0.084224, 6)
    expect(calc('POISSON.DIST(-0.5, 5, TRUE)')).toBe('#NUM!')
    near('EXPON.DIST(0.2, 10, TRUE)', 0.86466472, 8)
    near('EXPON.DIST(0.2, 10, FALSE)', 1.35335283, 8)
    near('WEIBULL.DIST(105, 20, 100, TRUE)', 0.929581, 6)
    near('WEIBULL.DIST(105, 20, 100, FALSE)', 0.035589, 6)
  })
})

describe('gamma and beta', () => {
  it('GAMMA, GAMMALN, GAMMA.DIST and GAMMA.INV', () => {
    near('GAMMA(2.5)', 1.329340388, 9)
    near('GAMMA(-0.75)', -4.8341, 4)
    expect(calc('GAMMA(0)')).toBe('#NUM!')
    expect(calc('GAMMA(-2)')).toBe('#NUM!')
    near('GAMMALN(4)', 1.791759469, 9)
    near('GAMMALN.PRECISE(0.5)', 0.5723649429, 10)
    near('GAMMA.DIST(10.00001131, 9, 2, FALSE)', 0.032639, 6)
    near('GAMMA.DIST(10.00001131, 9, 2, TRUE)', 0.068094, 6)
    near('GAMMA.INV(0.068094, 9, 2)', 10.0000112, 6)
  })

  it('BETA.DIST and BETA.INV, in the tails too', () => {
    near('BETA.DIST(2, 8, 10, TRUE, 1, 3)', 0.6854706, 7)
    near('BETA.DIST(2, 8, 10, FALSE, 1, 3)', 1.4837646, 7)
    near('BETA.INV(0.685470581, 8, 10, 1, 3)', 2, 8)
    near('BETA.INV(0.9999999999999962, 2, 2.5, 0.234, 1.2)', 1.199999004352299, 14)
    expect(calc('BETA.INV(1, 2, 2)')).toBe('#NUM!')
    expect(calc('BETA.DIST(4, 8, 10, TRUE, 1, 3)')).toBe('#NUM!')
  })
})

describe('chi-squared, t and F', () => {
  it('CHISQ.DIST, CHISQ.DIST.RT, CHISQ.INV, CHISQ.INV.RT', () => {
    near('CHISQ.DIST(0.5, 1, TRUE)', 0.52049988, 8)
    near('CHISQ.DIST(2, 3, FALSE)', 0.20755375, 8)
    near('CHISQ.DIST.RT(18.307, 10)', 0.0500006, 7)
    near('CHISQ.INV(0.93, 1)', 3.283020287, 9)
    near('CHISQ.INV(0.6, 2)', 1.832581464, 9)
    near('CHISQ.INV.RT(0.050001, 10)', 18.306973, 6)
    expect(calc('CHISQ.DIST(1, 0, TRUE)')).toBe('#NUM!')
  })

  it('T.DIST and its tails, T.INV, T.INV.2T', () => {
    near('T.DIST(60, 1, TRUE)', 0.99469533, 8)
    near('T.DIST(8, 3, FALSE)', 0.00073691, 8)
    near('T.DIST.2T(1.959999998, 60)', 0.05464493, 8)
    near('T.DIST.RT(1.959999998, 60)', 0.027322465, 9)
    near('TDIST(1.959999998, 60, 1)', 0.027322465, 9)
    near('T.INV(0.75, 2)', 0.8164966, 7)
    near('T.INV(0.25, 2)', -0.8164966, 7)
    near('T.INV.2T(0.546449, 60)', 0.606533, 6)
    expect(calc('T.DIST.2T(-1, 60)')).toBe('#NUM!')
  })

  it('F.DIST, F.DIST.RT, F.INV, F.INV.RT', () => {
    near('F.DIST(15.2069, 6, 4, TRUE)', 0.99, 6)
    near('F.DIST(15.2069, 6, 4, FALSE)', 0.0012238, 7)
    near('F.DIST.RT(15.2068649, 6, 4)', 0.01, 8)
    near('F.INV(0.01, 6, 4)', 0.10930991, 8)
    near('F.INV.RT(0.01, 6, 4)', 15.206865, 6)
  })
})

describe('two variables', () => {
  it('CORREL, PEARSON, RSQ, SLOPE, INTERCEPT, STEYX, COVARIANCE, FORECAST', () => {
    near('CORREL({3,2,4,5,6}, {9,7,12,15,17})', 0.997054486, 9)
    near('PEARSON({9,7,5,3,1}, {10,6,1,5,3})', 0.699379, 6)
    near('RSQ({2,3,9,1,8,7,5}, {6,5,11,7,5,4,4})', 0.05795, 5)
    near('SLOPE({2,3,9,1,8,7,5}, {6,5,11,7,5,4,4})', 0.305556, 6)
    near('INTERCEPT({2,3,9,1,8}, {6,5,11,7,5})', 0.0483871, 7)
    near('STEYX({2,3,9,1,8,7,5}, {6,5,11,7,5,4,4})', 3.305719, 6)
    near('COVARIANCE.P({3,2,4,5,6}, {9,7,12,15,17})', 5.2, 12)
    near('COVARIANCE.S({2,4,8}, {5,11,12})', 9.666666667, 9)
    near('FORECAST(30, {6,7,9,15,21}, {20,28,31,38,40})', 10.607253, 6)
    expect(calc('CORREL({1,2}, {1,2,3})')).toBe('#N/A')
    expect(calc('CORREL({1,1}, {1,2})')).toBe('#DIV/0!')
  })

  it('LINEST, LOGEST, TREND, GROWTH', () => {
    expect(calcArray('LINEST({1,9,5,7}, {0,4,2,3})', 1, 2)).toEqual([[2, 1]])
    const stats = calcArray('LINEST({1,9,5,7}, {0,4,2,3}, TRUE, TRUE)', 5, 2)
    expect(stats[2][0]).toBe(1)
    expect(stats[3][1]).toBe(2)
    const logest = calcArray('LOGEST({1,2,4,8}, {1,2,3,4})', 1, 2).flat() as number[]
    expect(logest[0]).toBeCloseTo(2, 12)
    expect(logest[1]).toBeCloseTo(0.5, 12)
    near('GROWTH({1,2,4,8}, {1,2,3,4}, 5)', 16, 10)
    near('TREND({1,9,5,7}, {0,4,2,3}, 10)', 21, 10)
    expect(calc('LOGEST({1,-2}, {1,2})')).toBe('#NUM!')
  })

  it('PERMUT and PERMUTATIONA', () => {
    expect(calc('PERMUT(100, 3)')).toBe(970200)
    expect(calc('PERMUT(3, 4)')).toBe('#NUM!')
    expect(calc('PERMUTATIONA(3, 2)')).toBe(9)
  })
})

describe('hypothesis tests', () => {
  it('CHISQ.TEST, T.TEST, Z.TEST, F.TEST', () => {
    near('CHISQ.TEST({58,35;11,25;10,23}, {45.35,47.65;17.56,18.44;16.09,16.91})', 0.0003082, 7)
    near('T.TEST({3,4,5,8,9,1,2,4,5}, {6,19,3,2,14,4,5,17,1}, 2, 1)', 0.196016, 6)
    near('Z.TEST({3,6,7,8,6,5,4,2,1,9}, 4)', 0.090574, 6)
    near('Z.TEST({3,6,7,8,6,5,4,2,1,9}, 6)', 0.863043, 6)
    near('F.TEST({6,7,9,15,21}, {20,28,31,38,40})', 0.648318, 6)
    expect(calc('T.TEST({1,2}, {3,4}, 3, 1)')).toBe('#NUM!')
    expect(calc('CHISQ.TEST({1,2}, {1,2,3})')).toBe('#N/A')
  })
})
