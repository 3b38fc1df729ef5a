import { describe, expect, it } from 'vitest'
import { calc, calcArray, column } from '../math/engine-test-kit.js'

const data = column('A1', [10, 7, 9, 27, 2])
const mixed = column('B1', [10, 'text', true, null, 2])

describe('averages and counts', () => {
  it('AVERAGE skips text and logical values in ranges but not typed ones', () => {
    expect(calc('AVERAGE(A1:A5)', data)).toBe(11)
    expect(calc('AVERAGE(A1:A5, 5)', data)).toBe(10)
    expect(calc('AVERAGE(B1:B5)', mixed)).toBe(6)
    expect(calc('AVERAGE(B1:B5, TRUE)', mixed)).toBeCloseTo(13 / 3, 12)
    expect(calc('AVERAGE(B2)', mixed)).toBe('#DIV/0!')
    expect(calc('AVERAGE(1, "x")')).toBe('#VALUE!')
  })

  it('AVERAGEA counts text as 0 and TRUE as 1', () => {
    expect(calc('AVERAGEA(B1:B5)', mixed)).toBe(13 / 4)
  })

  it('COUNT, COUNTA and COUNTBLANK', () => {
    expect(calc('COUNT(B1:B5)', mixed)).toBe(2)
    expect(calc('COUNT(B1:B5, "3", TRUE, "x")', mixed)).toBe(4)
    expect(calc('COUNTA(B1:B5)', mixed)).toBe(4)
    expect(calc('COUNTA(1/0, "")')).toBe(2)
    expect(calc('COUNTBLANK(B1:B6)', { ...mixed, B6: '=""' })).toBe(2)
  })

  it('MAX, MIN, MAXA and MINA', () => {
    expect(calc('MAX(A1:A5)', data)).toBe(27)
    expect(calc('MIN(A1:A5, 1)', data)).toBe(1)
    expect(calc('MAX(B2:B3)', mixed)).toBe(0)
    expect(calc('MAXA(B2:B3)', mixed)).toBe(1)
    expect(calc('MINA(B1:B5)', mixed)).toBe(0)
  })
})

describe('spread and shape', () => {
  const sample = column('A1', [1345, 1301, 1368, 1322, 1310, 1370, 1318, 1350, 1303, 1299])

  it('STDEV and VAR in their sample, population and A forms', () => {
    expect(calc('STDEV.S(A1:A10)', sample)).toBeCloseTo(27.46391572, 8)
    expect(calc('STDEV(A1:A10)', sample)).toBeCloseTo(27.46391572, 8)
    expect(calc('STDEV.P(A1:A10)', sample)).toBeCloseTo(26.05456, 5)
    expect(calc('VAR.S(A1:A10)', sample)).toBeCloseTo(754.2666667, 6)
    expect(calc('VAR.P(A1:A10)', sample)).toBeCloseTo(678.84, 9)
    expect(calc('STDEVA(B1:B5)', mixed)).toBeCloseTo(Math.sqrt(62.75 / 3), 12)
    expect(calc('VARPA(B1:B5)', mixed)).toBeCloseTo(62.75 / 4, 12)
    expect(calc('STDEV.S(5)')).toBe('#DIV/0!')
  })

  it('MEDIAN, MODE, GEOMEAN, HARMEAN, DEVSQ, AVEDEV', () => {
    expect(calc('MEDIAN(A1:A5)', data)).toBe(9)
    expect(calc('MEDIAN(1, 2, 3, 4)')).toBe(2.5)
    expect(calc('MODE.SNGL(5.6, 4, 4, 3, 2, 4)')).toBe(4)
    expect(calc('MODE(1, 2, 3)')).toBe('#N/A')
    expect(calcArray('MODE.MULT({1,2,3,4,3,2,1,2,3})', 2, 1)).toEqual([[2], [3]])
    expect(calc('GEOMEAN(4, 5, 8, 7, 11, 4, 3)')).toBeCloseTo(5.476987, 6)
    expect(calc('GEOMEAN(4, -1)')).toBe('#NUM!')
    expect(calc('HARMEAN(4, 5, 8, 7, 11, 4, 3)')).toBeCloseTo(5.028376, 6)
    expect(calc('DEVSQ(4, 5, 8, 7, 11, 4, 3)')).toBe(48)
    expect(calc('AVEDEV(4, 5, 6, 7, 5, 4, 3)')).toBeCloseTo(1.020408, 6)
  })

  it('KURT, SKEW and SKEW.P', () => {
    expect(calc('KURT(3, 4, 5, 2, 3, 4, 5, 6, 4, 7)')).toBeCloseTo(-0.151799637, 9)
    expect(calc('SKEW(3, 4, 5, 2, 3, 4, 5, 6, 4, 7)')).toBeCloseTo(0.359543, 6)
    expect(calc('SKEW.P(3, 4, 5, 2, 3, 4, 5, 6, 4, 7)')).toBeCloseTo(0.303193, 6)
    expect(calc('KURT(1, 2, 3)')).toBe('#DIV/0!')
    expect(calc('SKEW(1, 1, 1)')).toBe('#DIV/0!')
  })

  it('STANDARDIZE and TRIMMEAN', () => {
    expect(calc('STANDARDIZE(42, 40, 1.5)')).toBeCloseTo(1.333333, 6)
    expect(calc('STANDARDIZE(42, 40, 0)')).toBe('#NUM!')
    expect(calc('TRIMMEAN({4,5,6,7,2,3,4,5,1,2,3}, 0.2)')).toBeCloseTo(3.777778, 6)
    expect(calc('TRIMMEAN({1,2}, 1)')).toBe('#NUM!')
  })
})

describe('positions', () => {
  it('LARGE and SMALL', () => {
    expect(calc('LARGE(A1:A5, 2)', data)).toBe(10)
    expect(calc('SMALL(A1:A5, 1)', data)).toBe(2)
    expect(calc('SMALL(A1:A5, 6)', data)).toBe('#NUM!')
    expect(calcArray('LARGE(A1:A5, {1;2})', 2, 1, data)).toEqual([[27], [10]])
  })

  it('RANK.EQ, RANK and RANK.AVG', () => {
    const values = column('C1', [7, 3.5, 3.5, 1, 2])
    expect(calc('RANK.EQ(7, C1:C5, 1)', values)).toBe(5)
    expect(calc('RANK.EQ(2, C1:C5)', values)).toBe(4)
    expect(calc('RANK(3.5, C1:C5, 1)', values)).toBe(3)
    expect(calc('RANK.AVG(3.5, C1:C5)', values)).toBe(2.5)
    expect(calc('RANK.EQ(4, C1:C5)', values)).toBe('#N/A')
  })

  it('PERCENTILE, QUARTILE and PERCENTRANK in their inclusive and exclusive forms', () => {
    const values = column('D1', [1, 2, 3, 4])
    expect(calc('PERCENTILE.INC(D1:D4, 0.3)', values)).toBeCloseTo(1.9, 12)
    expect(calc('PERCENTILE(D1:D4, 1.1)', values)).toBe('#NUM!')
    expect(calc('PERCENTILE.EXC({1,2,3,6,6,6,7,8,9}, 0.25)')).toBe(2.5)
    expect(calc('PERCENTILE.EXC({1,2,3,6,6,6,7,8,9}, 0.01)')).toBe('#NUM!')
    expect(calc('QUARTILE.INC({1,2,4,7,8,9,10,12}, 1)')).toBe(3.5)
    expect(calc('QUARTILE.EXC({6,7,15,36,39,40,41,42,43,47,49}, 1)')).toBe(15)
    expect(calc('QUARTILE(D1:D4, 5)', values)).toBe('#NUM!')
    expect(calc('PERCENTRANK.INC({13,12,11,8,4,3,2,1,1,1}, 2)')).toBe(0.333)
    expect(calc('PERCENTRANK.INC({13,12,11,8,4,3,2,1,1,1}, 5)')).toBe(0.583)
    expect(calc('PERCENTRANK.INC({13,12,11,8,4,3,2,1,1,1}, 5, 5)')).toBe(0.58333)
    expect(calc('PERCENTRANK.EXC({1,2,3,6,6,6,7,8,9}, 7)')).toBe(0.7)
    expect(calc('PERCENTRANK({1,2}, 3)')).toBe('#N/A')
  })

  it('FREQUENCY counts values per bin, in the bins\' order', () => {
    const scores = column('E1', [79, 85, 78, 85, 50, 81, 95, 88, 97])
    expect(calcArray('FREQUENCY(E1:E9, {70;79;89})', 4, 1, scores)).toEqual([[1], [2], [4], [2]])
    expect(calcArray('FREQUENCY(E1:E9, {89;70})', 3, 1, scores)).toEqual([[6], [1], [2]])
  })

  it('PROB sums the probabilities of values between the limits', () => {
    expect(calc('PROB({0,1,2,3}, {0.2,0.3,0.1,0.4}, 2)')).toBe(0.1)
    expect(calc('PROB({0,1,2,3}, {0.2,0.3,0.1,0.4}, 1, 3)')).toBeCloseTo(0.8, 12)
    expect(calc('PROB({0,1}, {0.2,0.3}, 1)')).toBe('#NUM!')
    expect(calc('PROB({0,1}, {"a","b"}, 1)')).toBe('#DIV/0!')
  })
})

describe('criteria', () => {
  const cells = {
    ...column('A1', ['apples', 'oranges', 'peaches', 'apples', '', 'Apples']),
    ...column('B1', [32, 54, 75, 86, 10, 'x']),
  }

  it('COUNTIF and COUNTIFS count matches, blanks included when asked', () => {
    expect(calc('COUNTIF(A1:A6, "apples")', cells)).toBe(3)
    expect(calc('COUNTIF(B1:B6, ">55")', cells)).toBe(2)
    expect(calc('COUNTIF(A1:A6, "<>")', cells)).toBe(5)
    expect(calc('COUNTIF(A1:A10, "")', cells)).toBe(5)
    expect(calc('COUNTIF(A:A, "")', cells)).toBe(1_048_571)
    expect(calc('COUNTIF(A1:A6, "?pples")', cells)).toBe(3)
    expect(calc('COUNTIFS(A1:A6, "apples", B1:B6, ">40")', cells)).toBe(1)
    expect(calc('COUNTIFS(A1:A6, "apples", B1:B5, ">40")', cells)).toBe('#VALUE!')
  })

  it('AVERAGEIF, AVERAGEIFS, MINIFS and MAXIFS', () => {
    expect(calc('AVERAGEIF(B1:B6, "<80")', cells)).toBe((32 + 54 + 75 + 10) / 4)
    expect(calc('AVERAGEIF(A1:A6, "apples", B1:B6)', cells)).toBe(59)
    expect(calc('AVERAGEIF(A1:A6, "pears", B1:B6)', cells)).toBe('#DIV/0!')
    expect(calc('AVERAGEIFS(B1:B6, A1:A6, "apples", B1:B6, ">40")', cells)).toBe(86)
    expect(calc('MINIFS(B1:B6, A1:A6, "apples")', cells)).toBe(32)
    expect(calc('MAXIFS(B1:B6, A1:A6, "p*")', cells)).toBe(75)
    expect(calc('MAXIFS(B1:B6, A1:A6, "pears")', cells)).toBe(0)
  })
})
