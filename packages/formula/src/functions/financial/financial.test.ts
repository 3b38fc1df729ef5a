import { describe, expect, it } from 'vitest'
import { CellError } from '../../values.js'
import type { Value } from '../../values.js'
import { arr, caller } from '../lookup/test-harness.js'
import { MISSING } from '../types.js'
import { functions } from './index.js'

const fn = caller(functions)

/** Expects a number to the given number of decimals (Excel's documentation rounds its examples). */
function near(actual: Value, expected: number, decimals: number): void {
  expect(typeof actual).toBe('number')
  expect(actual as number).toBeCloseTo(expected, decimals)
}

describe('annuities', () => {
  it('computes payments, values and periods (Excel documentation examples)', () => {
    near(fn('PMT', 0.08 / 12, 10, 10000), -1037.03, 2)
    near(fn('PMT', 0.06 / 12, 18 * 12, 0, 50000), -129.08, 2)
    near(fn('PMT', 0, 3, 100, 300, 1), -133.3333333, 6)
    near(fn('FV', 0.06 / 12, 10, -200, -500, 1), 2581.4, 2)
    near(fn('FV', 0.12 / 12, 12, -1000), 12682.5, 2)
    near(fn('PV', 0.08 / 12, 12 * 20, 500, MISSING, 0), -59777.15, 2)
    near(fn('NPER', 0.12 / 12, -100, -1000, 10000, 1), 59.6738657, 6)
    near(fn('NPER', 0.12 / 12, -100, -1000), -9.57859404, 6)
    near(fn('RATE', 48, -200, 8000), 0.0077014724882013682, 12)
    near(fn('RATE', 12, -200, 8000, 0, 1), -0.1678337611998994, 12)
  })

  it('splits payments into interest and principal', () => {
    near(fn('IPMT', 0.1 / 12, 1, 36, 8000), -66.67, 2)
    near(fn('IPMT', 0.1, 3, 3, 8000), -292.45, 2)
    near(fn('PPMT', 0.1 / 12, 1, 24, 2000), -75.62, 2)
    near(fn('PPMT', 0.08, 10, 10, 200000), -27598.05, 2)
    expect(fn('IPMT', 0.1, 4, 3, 8000)).toBe(CellError.NUM)
    expect(fn('IPMT', 0.1, 1, 3, 8000, 0, 1)).toBe(0)
    near(fn('CUMIPMT', 0.09 / 12, 360, 125000, 13, 24, 0), -11135.23213, 4)
    near(fn('CUMIPMT', 0.09 / 12, 360, 125000, 1, 1, 0), -937.5, 6)
    near(fn('CUMPRINC', 0.09 / 12, 360, 125000, 13, 24, 0), -934.1071234, 6)
    near(fn('CUMPRINC', 0.09 / 12, 360, 125000, 1, 1, 0), -68.27827118, 6)
    near(fn('CUMPRINC', 0.09 / 12, 360, 125000, 1, 12, 1), -1778.16017175524, 8) // an amortization schedule paid in advance
    // Interest is nearly the whole payment here; the principal must still be exact (Excel's values).
    expect((fn('CUMPRINC', 0.7, 36, 8000, 2, 10, 1) as number) / -4.7565423422487076e-3).toBeCloseTo(1, 13)
    expect((fn('CUMPRINC', 0.8, 36, 18000, 2.7, 9.667, 1) as number) / -1.2603466877548824e-3).toBeCloseTo(1, 13)
  })

  it('applies Excel argument rules and errors', () => {
    expect(fn('PMT', -1, 1, 100)).toBe(CellError.NUM)
    expect(fn('PMT', 0, 0, 100)).toBe(CellError.NUM)
    expect(fn('PMT', 'HELP', 1, 100)).toBe(CellError.VALUE)
    expect(fn('FV', -1, -2, 1)).toBe(CellError.DIV0)
    expect(fn('FV', -3, -3.5, 1)).toBe(CellError.NUM)
    expect(fn('CUMIPMT', 0.01, 36, 8000, true, 10, 0)).toBe(CellError.VALUE)
    expect(fn('CUMIPMT', 0.01, 36, 8000, 10, 3, 0)).toBe(CellError.NUM)
    expect(fn('CUMIPMT', 0.01, 36, 8000, 1, 3, 2)).toBe(CellError.NUM)
    expect(fn('RATE', 10, -1200, 2000, 0, 1)).toBe(CellError.NUM)
    expect(fn('RATE', 10, -100, 2000, 0, 0, -1)).toBe(CellError.VALUE)
  })

  it('converts rates', () => {
    near(fn('EFFECT', 0.0525, 4), 0.053542667, 8)
    near(fn('NOMINAL', 0.053543, 4), 0.05250032, 8)
    near(fn('EFFECT', 0.5, 4.5), 0.601806640625, 12)
    expect(fn('EFFECT', 0, 10)).toBe(CellError.NUM)
    expect(fn('NOMINAL', 0.2, 0.99)).toBe(CellError.NUM)
    expect(fn('EFFECT', true, 2)).toBe(CellError.VALUE)
    near(fn('PDURATION', 0.025, 2000, 2200), 3.86, 2)
    near(fn('RRI', 96, 10000, 11000), 0.0009933, 7)
    near(fn('ISPMT', 0.1 / 12, 1, 36, 8000000), -64814.8, 1)
    near(fn('FVSCHEDULE', 1, arr([[0.09, 0.11, 0.1]])), 1.33089, 5)
  })
})

describe('cash flows', () => {
  it('discounts with NPV and XNPV', () => {
    near(fn('NPV', 0.1, -10000, 3000, 4200, 6800), 1188.44, 2)
    near(fn('NPV', 0.08, arr([[8000, 9200, 10000, 12000, 14500]])), 41_922.06, 2)
    const values = arr([[-10000, 2750, 4250, 3250, 2750]])
    const dates = arr([[39448, 39508, 39751, 39859, 39904]])
    near(fn('XNPV', 0.09, values, dates), 2086.65, 2)
    near(fn('XIRR', values, dates), 0.373362535, 8)
    expect(fn('XNPV', 0.09, values, arr([[39448, 39508, 39751, 39859]]))).toBe(CellError.NUM)
    expect(fn('XNPV', 0.09, arr([[-10, 'x']]), arr([[39448, 39508]]))).toBe(CellError.NUM)
    expect(fn('XIRR', arr([[-10, 'x']]), arr([[39448, 39508]]))).toBe(CellError.VALUE)
    expect(fn('XIRR', arr([[10, 5]]), arr([[39448, 39508]]))).toBe(CellError.NUM)
  })

  it("solves XIRR by Excel's bracketing and 27 bisections, to the bit", () => {
    // Excel's cached results (oracle workbook): ends of [0, 1.6] and [-100%, -10%] halved 27 times.
    expect(fn('XIRR', arr([[-20, 5, 5, 5, 5, 5]]), arr([[44958, 44986, 45017, 45078, 45108, 45139]]))).toBe(1.1859161972999572)
    expect(fn('XIRR', arr([[-55, 10, 5, 5, 5, 5]]), arr([[100, 120, 300, 101, 200, 150]]))).toBe(-0.9271996639668942)
    // Flows that start with zeros: Excel halves the guess 25 times and answers 0.1 / 2^25 = 2.98E-9.
    const zeroFirst = fn('XIRR', arr([[0, -100, 60, 60]]), arr([[0, 100, 400, 800]]))
    expect(zeroFirst).toBe(0.1 / 2 ** 25)
    expect(fn('XNPV', zeroFirst, arr([[0, -100, 60, 60]]), arr([[0, 100, 400, 800]]))).toBeGreaterThan(19)
    // Positive first value, negative rate: 2.98E-9 again from the default guess, the rate from -10%.
    const values = arr([[5290.5, 5290.5, 5290.5, 5290.5, 6273.2, 5417.2, 5492.05, 5486.15, -20004]])
    const dates = arr([[40269, 40269, 40269, 40269, 40490, 40575, 40617, 40675, 40786]])
    expect(fn('XIRR', values, dates)).toBe(0.1 / 2 ** 25)
    near(fn('XIRR', values, dates, -0.1), -0.592046674, 8)
    // A borrower's flows (first value positive) solve like a lender's.
    near(fn('XIRR', arr([[100, -60, -60]]), arr([[0, 365, 730]])), 0.130662386, 8)
    // A root closer to -100% than the last step, and later flows worth more than the first at any rate.
    expect(fn('XIRR', arr([[-1000, 230, 200, 125, 200, 10]]), arr([[1, 2, 3, 4, 5, 6]]))).toBe(CellError.NUM)
    expect(fn('XIRR', arr([[-1, 2]]), arr([[10, 10]]))).toBe(CellError.NUM)
  })

  it('finds internal rates of return', () => {
    near(fn('IRR', arr([[-70000, 12000, 15000, 18000, 21000]])), -0.021244848, 8)
    near(fn('IRR', arr([[-70000, 12000, 15000, 18000, 21000, 26000]])), 0.086630948, 8)
    near(fn('IRR', arr([[-70000, 12000, 15000]]), -0.1), -0.443506941, 8)
    expect(fn('IRR', arr([[-5, 1]]))).toBeCloseTo(-0.8, 14)
    expect(fn('IRR', arr([[2, -3]]))).toBeCloseTo(0.5, 14)
    expect(fn('IRR', arr([[1, 2]]))).toBe(CellError.NUM)
    expect(fn('IRR', arr([[-1, 2]]), -1)).toBe(CellError.VALUE)
    near(fn('MIRR', arr([[-120000, 39000, 30000, 21000, 37000, 46000]]), 0.1, 0.12), 0.126094, 6)
    near(fn('MIRR', arr([[-5, 4]]), -1, 0.2), -0.2, 12)
    expect(fn('MIRR', arr([[-5, -3]]), 0.1, 0.2)).toBe(-1)
    expect(fn('MIRR', arr([[5, 3]]), 0.1, 0.2)).toBe(CellError.DIV0)
  })

  // Values Excel cached in a workbook it saved: IRR stops its secant iteration early, so these are
  // neither the exact roots nor what a more precise solver returns.
  it("stops IRR's iteration where Excel does", () => {
    const flows = [-20, 5, 5, 5, 5, 5]
    const rate = fn('IRR', arr([flows]))
    expect(rate).toBe(0.07930826116039724)
    expect(Math.abs((fn('NPV', rate, arr([flows])) as number) - 6.4212018552224666e-12)).toBeLessThan(1e-13)
    // From a far guess the secant oscillates for 26 steps before it settles.
    expect(fn('IRR', arr([flows]), 17)).toBe(0.07930826116414913)
    // A double root at 0 is approached linearly and left at 1.09e-7.
    expect(fn('IRR', arr([[1, -2, 1]]))).toBe(1.091399510766422e-7)
    // A root exactly at 0 is left 2.45e-12 away from it.
    expect(fn('IRR', arr([[-130, 30, 20, 30, 20, 30]]))).toBe(2.4507063045575705e-12)
    expect(fn('IRR', arr([[-1000, 230, 200, 125, 200, 10]]))).toBe(-0.1015006760535847)
    expect(fn('IRR', arr([[-70, 12, 15]]), 1)).toBe(-0.4435069413349362)
    near(fn('IRR', arr([[-55, 10, 5, 5, 5, 5]]), -0.9), -0.18845644425120334, 15)
  })

  it('still finds a root where the secant iteration wanders', () => {
    near(fn('IRR', arr([[-400, 1, 1, 1, 1, 1]])), -0.6737366751808405, 13)
  })
})

describe('depreciation', () => {
  it('matches the documented schedules', () => {
    expect(fn('SLN', 30000, 7500, 10)).toBe(2250)
    expect(fn('SLN', 100, 2, 0)).toBe(CellError.DIV0)
    near(fn('SYD', 30000, 7500, 10, 1), 4090.91, 2)
    near(fn('SYD', 30000, 7500, 10, 10), 409.09, 2)
    expect(fn('SYD', 100, 5, 5, 5.4)).toBe(CellError.NUM)
    near(fn('DB', 1000000, 100000, 6, 1, 7), 186083.33, 2)
    near(fn('DB', 1000000, 100000, 6, 2, 7), 259639.42, 2)
    near(fn('DB', 1000000, 100000, 6, 7, 7), 15845.1, 2)
    expect(fn('DB', 1000000, 100000, 6, 7)).toBe(CellError.NUM)
    near(fn('DDB', 2400, 300, 10 * 365, 1), 1.32, 2)
    near(fn('DDB', 2400, 300, 120, 1, 2), 40, 10)
    near(fn('DDB', 2400, 300, 10, 1, 2), 480, 10)
    near(fn('DDB', 2400, 300, 10, 2, 1.5), 306, 10)
    near(fn('DDB', 2400, 300, 10, 10), 22.12, 2)
    near(fn('VDB', 2400, 300, 3650, 0, 1), 1.32, 2)
    near(fn('VDB', 2400, 300, 120, 0, 1), 40, 10)
    near(fn('VDB', 2400, 300, 10, 0, 1), 480, 10)
    near(fn('VDB', 2400, 300, 120, 6, 18), 396.31, 2)
    near(fn('VDB', 2400, 300, 120, 6, 18, 1.5), 311.81, 2)
    near(fn('VDB', 2400, 300, 10, 0, 0.875, 1.5), 315, 10)
    // A fractional start or end takes that fraction of the period's charge (a half-year convention).
    near(fn('VDB', 10000, 0, 10, 1.51, 2.68), 1654.4, 9)
    near(fn('VDB', 10000, 0, 10, 0.5, 4.34), 5182.528, 9)
    near(fn('VDB', 1000000, 0, 7.5, 1.14, 4.02, 1.5), 381653.333333333, 6)
    near(fn('VDB', 2400, 300, 10, 0, 10), 2100, 9)
    expect(fn('VDB', 2400, 300, 10, 5, 2)).toBe(CellError.NUM)
  })

  it('depreciates in the French systems (Excel documentation examples)', () => {
    expect(fn('AMORDEGRC', 2400, 39679, 39813, 300, 1, 0.15, 1)).toBe(776)
    expect(fn('AMORLINC', 2400, 39679, 39813, 300, 1, 0.15, 1)).toBe(360)
    near(fn('AMORLINC', 2400, 39679, 39813, 300, 0, 0.15, 1), 131.8032787, 7)
    expect(fn('AMORDEGRC', 2400, 39679, 39813, 300, 1, 0.45, 1)).toBe(CellError.NUM)
    expect(fn('AMORLINC', 2400, 39813, 39679, 300, 1, 0.15, 1)).toBe(CellError.NUM)
  })
})

describe('securities', () => {
  it('prices discounted and interest-at-maturity securities', () => {
    near(fn('DISC', 39472, 39614, 97.975, 100, 0), 0.052071428571428838, 14)
    near(fn('INTRATE', 39493, 39583, 1000000, 1014420, 2), 0.05768, 5)
    near(fn('RECEIVED', 39493, 39583, 1000000, 0.0575, 2), 1014584.65, 2)
    near(fn('PRICEDISC', 39494, 39508, 0.0525, 100, 2), 99.79583, 5)
    near(fn('YIELDDISC', 39494, 39508, 99.795, 100, 2), 0.052823, 6)
    near(fn('PRICEMAT', 39493, 39551, 39397, 0.061, 0.061, 0), 99.98449888, 8)
    near(fn('YIELDMAT', 39522, 39755, 39394, 0.0625, 100.0123, 0), 0.060954, 6)
    near(fn('ACCRINTM', 39539, 39614, 0.1, 1000, 3), 20.54794521, 8)
    expect(fn('DISC', 39614, 39472, 97.975, 100)).toBe(CellError.NUM)
    expect(fn('DISC', 39472, 39614, 97.975, 100, 5)).toBe(CellError.NUM)
    expect(fn('DISC', 39472, 39614, true, 100)).toBe(CellError.VALUE)
  })

  it('prices Treasury bills', () => {
    near(fn('TBILLPRICE', 39538, 39600, 0.09), 98.45, 10)
    near(fn('TBILLYIELD', 39538, 39600, 98.45), 0.091417, 6)
    near(fn('TBILLEQ', 39538, 39600, 0.0914), 0.094151, 6)
    expect(fn('TBILLPRICE', 39538, 39538 + 400, 0.09)).toBe(CellError.NUM)
  })

  it('converts fractional dollar prices', () => {
    expect(fn('DOLLARDE', 1.02, 16)).toBeCloseTo(1.125, 14)
    expect(fn('DOLLARFR', 1.125, 16)).toBeCloseTo(1.02, 14)
    expect(fn('DOLLARDE', -1.1, 32)).toBeCloseTo(-1.3125, 14)
    expect(fn('DOLLARFR', 1.3125, 32)).toBeCloseTo(1.1, 14)
    expect(fn('DOLLARDE', 1.1, 0)).toBe(CellError.DIV0)
    expect(fn('DOLLARDE', 1.1, -1)).toBe(CellError.NUM)
    expect(fn('DOLLARFR', true, 2)).toBe(CellError.VALUE)
  })
})

describe('coupon bonds', () => {
  it('finds the coupon schedule around settlement', () => {
    expect(fn('COUPDAYBS', 40568, 40862, 2, 1)).toBe(71)
    expect(fn('COUPDAYS', 40568, 40862, 2, 1)).toBe(181)
    expect(fn('COUPDAYSNC', 40568, 40862, 2, 1)).toBe(110)
    expect(fn('COUPNCD', 40568, 40862, 2, 1)).toBe(40678)
    expect(fn('COUPPCD', 40568, 40862, 2, 1)).toBe(40497)
    expect(fn('COUPNUM', 40568, 40862, 2, 1)).toBe(2)
    expect(fn('COUPNUM', 40862, 40568, 2, 1)).toBe(CellError.NUM)
    expect(fn('COUPNUM', 40568, 40862, 3, 1)).toBe(CellError.NUM)
  })

  it('prices bonds and solves their yields and durations', () => {
    near(fn('PRICE', 39493, 43054, 0.0575, 0.065, 100, 2, 0), 94.63436, 5)
    near(fn('YIELD', 39493, 42689, 0.0575, 95.04287, 100, 2, 0), 0.065, 7)
    near(fn('DURATION', 43282, 54058, 0.08, 0.09, 2, 1), 10.9191453, 7)
    near(fn('MDURATION', 39448, 42370, 0.08, 0.09, 2, 1), 5.73567, 5)
    near(fn('ACCRINT', 39508, 39691, 39569, 0.1, 1000, 2, 0), 16.666667, 6)
    near(fn('ACCRINT', 39512, 39691, 39569, 0.1, 1000, 2, 0, false), 15.555556, 6)
    expect(fn('ACCRINT', 39569, 39691, 39508, 0.1, 1000, 2)).toBe(CellError.NUM)
  })
})

describe('odd-period bonds', () => {
  // Excel's documentation examples.
  it('prices and yields bonds with an odd first period', () => {
    near(fn('ODDFPRICE', 39763, 44256, 39736, 39873, 0.0785, 0.0625, 100, 2, 1), 113.597717474079, 8)
    near(fn('ODDFYIELD', 39763, 44256, 39736, 39873, 0.0575, 84.5, 100, 2, 0), 0.0772455, 7)
    expect(fn('ODDFPRICE', 39873, 44256, 39736, 39763, 0.0785, 0.0625, 100, 2, 1)).toBe(CellError.NUM)
  })

  it('prices and yields bonds with an odd last period', () => {
    near(fn('ODDLPRICE', 39485, 39614, 39370, 0.0375, 0.0405, 100, 2, 0), 99.87828601, 8)
    near(fn('ODDLYIELD', 39558, 39614, 39440, 0.0375, 99.875, 100, 2, 0), 0.045192, 6)
    expect(fn('ODDLPRICE', 39370, 39614, 39485, 0.0375, 0.0405, 100, 2, 0)).toBe(CellError.NUM)
    // Actual-day bases take each quasi-coupon period at its actual length (values Excel caches).
    near(fn('ODDLPRICE', 43891, 47543, 43845, 0.075, 0.0589, 120, 2, 2), 122.36705839417525, 10)
    near(fn('ODDLPRICE', 43891, 47543, 43845, 0.075, 0.0589, 120, 1, 2), 122.3689285685928, 10)
    near(fn('ODDLPRICE', 43891, 47543, 43845, 0.075, 0.06, 120, 2, 1), 121.51937811334447, 10)
  })
})
