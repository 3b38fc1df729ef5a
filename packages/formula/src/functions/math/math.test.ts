import { describe, expect, it } from 'vitest'
import { calc, calcArray, column, sheetWith } from './engine-test-kit.js'

describe('arithmetic', () => {
  it('ABS, SIGN, INT, SQRT, SQRTPI, EXP, LN, LOG10', () => {
    expect(calc('ABS(-4)')).toBe(4)
    expect(calc('SIGN(-0.00001)')).toBe(-1)
    expect(calc('SIGN(0)')).toBe(0)
    expect(calc('INT(-8.9)')).toBe(-9)
    expect(calc('SQRT(16)')).toBe(4)
    expect(calc('SQRT(-16)')).toBe('#NUM!')
    expect(calc('SQRTPI(2)')).toBeCloseTo(2.50662827, 8)
    expect(calc('SQRTPI(-1)')).toBe('#NUM!')
    expect(calc('EXP(1)')).toBeCloseTo(2.718281828, 9)
    expect(calc('EXP(1000)')).toBe('#NUM!')
    expect(calc('LN(86)')).toBeCloseTo(4.454347, 6)
    expect(calc('LN(0)')).toBe('#NUM!')
    expect(calc('LOG10(1E5)')).toBe(5)
    expect(calc('ABS("x")')).toBe('#VALUE!')
  })

  it('LOG and POWER follow Excel on bases and exponents', () => {
    expect(calc('LOG(10)')).toBe(1)
    expect(calc('LOG(8, 2)')).toBe(3)
    expect(calc('LOG(86, 2.7182818)')).toBeCloseTo(4.4543473, 6)
    expect(calc('LOG(10, 1)')).toBe('#DIV/0!')
    expect(calc('LOG(-1)')).toBe('#NUM!')
    expect(calc('POWER(5, 2)')).toBe(25)
    expect(calc('POWER(98.6, 3.2)')).toBeCloseTo(2401077.222, 3)
    expect(calc('POWER(4, 5/4)')).toBeCloseTo(5.656854, 6)
    expect(calc('POWER(0, 0)')).toBe('#NUM!')
    expect(calc('POWER(0, -1)')).toBe('#DIV/0!')
    expect(calc('POWER(-8, 1/3)')).toBe('#NUM!')
  })

  it('MOD has the sign of the divisor and QUOTIENT truncates', () => {
    expect(calc('MOD(3, 2)')).toBe(1)
    expect(calc('MOD(-3, 2)')).toBe(1)
    expect(calc('MOD(3, -2)')).toBe(-1)
    expect(calc('MOD(-3, -2)')).toBe(-1)
    expect(calc('MOD(5, 0)')).toBe('#DIV/0!')
    expect(calc('MOD(5, 1E-10)')).toBeCloseTo(9.999981783901343e-11, 20)
    expect(calc('QUOTIENT(5, 2)')).toBe(2)
    expect(calc('QUOTIENT(-10, 3)')).toBe(-3)
    expect(calc('QUOTIENT(TRUE, 1)')).toBe('#VALUE!')
    expect(calc('QUOTIENT("9", 2)')).toBe(4)
  })

  it('EVEN and ODD round away from zero', () => {
    expect(calc('EVEN(1.5)')).toBe(2)
    expect(calc('EVEN(3)')).toBe(4)
    expect(calc('EVEN(-1)')).toBe(-2)
    expect(calc('ODD(1.5)')).toBe(3)
    expect(calc('ODD(2)')).toBe(3)
    expect(calc('ODD(-1)')).toBe(-1)
    expect(calc('ODD(0)')).toBe(1)
  })

  it('factorials, combinations and MULTINOMIAL', () => {
    expect(calc('FACT(5)')).toBe(120)
    expect(calc('FACT(1.9)')).toBe(1)
    expect(calc('FACT(-1)')).toBe('#NUM!')
    expect(calc('FACT(171)')).toBe('#NUM!')
    expect(calc('FACTDOUBLE(6)')).toBe(48)
    expect(calc('FACTDOUBLE(7)')).toBe(105)
    expect(calc('COMBIN(8, 2)')).toBe(28)
    expect(calc('COMBIN(2, 8)')).toBe('#NUM!')
    expect(calc('COMBINA(4, 3)')).toBe(20)
    expect(calc('COMBINA(10, 3)')).toBe(220)
    expect(calc('COMBINA(0, 5)')).toBe('#NUM!')
    expect(calc('MULTINOMIAL(2, 3, 4)')).toBe(1260)
    expect(calc('MULTINOMIAL(TRUE, 1)')).toBe('#VALUE!')
    expect(calc('MULTINOMIAL(-1)')).toBe('#NUM!')
  })

  it('GCD and LCM read numeric text even in ranges', () => {
    expect(calc('GCD(5, 2)')).toBe(1)
    expect(calc('GCD(24, 36)')).toBe(12)
    expect(calc('GCD(5, 0)')).toBe(5)
    expect(calc('LCM(24, 36)')).toBe(72)
    expect(calc('LCM(A1:A3)', column('A1', [4, "'8", 12]))).toBe(24)
    expect(calc('LCM(A1, B1)', { B1: 5 })).toBe(5)
    expect(calc('LCM(A1, B1)')).toBe('#VALUE!')
    expect(calc('GCD(-1, 5)')).toBe('#NUM!')
    expect(calc('GCD(TRUE, 5)')).toBe('#VALUE!')
    expect(calc('LCM(2^40, 2^40-1)')).toBe('#NUM!')
  })

  it('PRODUCT and SUMSQ read numbers as SUM does', () => {
    const cells = column('A1', [5, 15, 30, 'text', true])
    expect(calc('PRODUCT(A1:A3)', cells)).toBe(2250)
    expect(calc('PRODUCT(A1:A5, 2)', cells)).toBe(4500)
    expect(calc('PRODUCT(A4)', cells)).toBe(0)
    expect(calc('SUMSQ(3, 4)')).toBe(25)
    expect(calc('SUMSQ(A1:A5, "2")', cells)).toBe(25 + 225 + 900 + 4)
  })
})

describe('huge arguments', () => {
  it('end quickly with #NUM! or #VALUE! instead of looping or filling memory', () => {
    expect(calc('FACTDOUBLE(1E300)')).toBe('#NUM!')
    expect(calc('COMBIN(1E6, 5E5)')).toBe('#NUM!')
    expect(calc('COMBIN(1E6, 3)')).toBe(166666166667000000)
    expect(calc('PERMUT(1E300, 1E200)')).toBe('#NUM!')
    expect(calc('SEQUENCE(2000000)')).toBe('#VALUE!')
    expect(calc('SEQUENCE(10000, 10000)')).toBe('#NUM!')
    expect(calc('MUNIT(5000)')).toBe('#NUM!')
  })
})

describe('arguments left empty', () => {
  it('read as 0, empty text or FALSE, as Excel reads them', () => {
    expect(calc('ROUND(,2)')).toBe(0)
    expect(calc('POWER(2,)')).toBe(1)
    expect(calc('LEFT("abc",)')).toBe('')
    expect(calc('FIXED(1234.567,,TRUE)')).toBe('1235')
    expect(calc('CONCATENATE("a",,"b")')).toBe('ab')
  })
})

describe('rounding', () => {
  it('ROUND, ROUNDUP, ROUNDDOWN and TRUNC work on decimal digits', () => {
    expect(calc('ROUND(2.15, 1)')).toBe(2.2)
    expect(calc('ROUND(2.149, 1)')).toBe(2.1)
    expect(calc('ROUND(-1.475, 2)')).toBe(-1.48)
    expect(calc('ROUND(21.5, -1)')).toBe(20)
    expect(calc('ROUND(626.3, -3)')).toBe(1000)
    expect(calc('ROUND(1.005, 2)')).toBe(1.01)
    expect(calc('ROUND(2.5, 0)')).toBe(3)
    expect(calc('ROUND(-2.5, 0)')).toBe(-3)
    expect(calc('ROUNDUP(3.2, 0)')).toBe(4)
    expect(calc('ROUNDUP(-3.14159, 1)')).toBe(-3.2)
    expect(calc('ROUNDUP(31415.92654, -2)')).toBe(31500)
    expect(calc('ROUNDUP(0.1*3, 1)')).toBe(0.3)
    expect(calc('ROUNDDOWN(76.9, 0)')).toBe(76)
    expect(calc('ROUNDDOWN(-3.14159, 1)')).toBe(-3.1)
    expect(calc('TRUNC(8.9)')).toBe(8)
    expect(calc('TRUNC(-8.9)')).toBe(-8)
    expect(calc('TRUNC(PI(), 3)')).toBe(3.141)
  })

  it('MROUND rounds to a multiple and refuses mixed signs and logical values', () => {
    expect(calc('MROUND(10, 3)')).toBe(9)
    expect(calc('MROUND(-10, -3)')).toBe(-9)
    expect(calc('MROUND(1.3, 0.2)')).toBeCloseTo(1.4, 12)
    expect(calc('MROUND(5, -2)')).toBe('#NUM!')
    expect(calc('MROUND(TRUE, 2)')).toBe('#VALUE!')
    expect(calc('MROUND(5, )')).toBe('#N/A')
  })

  it('CEILING and FLOOR with the signs Excel allows', () => {
    expect(calc('CEILING(2.5, 1)')).toBe(3)
    expect(calc('CEILING(-2.5, -2)')).toBe(-4)
    expect(calc('CEILING(-2.5, 2)')).toBe(-2)
    expect(calc('CEILING(1.5, 0.1)')).toBe(1.5)
    expect(calc('CEILING(0.234, 0.01)')).toBe(0.24)
    expect(calc('CEILING(2.5, -2)')).toBe('#NUM!')
    expect(calc('FLOOR(3.7, 2)')).toBe(2)
    expect(calc('FLOOR(-2.5, -2)')).toBe(-2)
    expect(calc('FLOOR(-2.5, 2)')).toBe(-4)
    expect(calc('FLOOR(0.3, 0.1)')).toBe(0.3)
    expect(calc('FLOOR(2.5, -2)')).toBe('#NUM!')
    expect(calc('FLOOR(2.5, 0)')).toBe('#DIV/0!')
  })

  it('CEILING.MATH, FLOOR.MATH, the PRECISE forms and ISO.CEILING', () => {
    expect(calc('CEILING.MATH(24.3, 5)')).toBe(25)
    expect(calc('CEILING.MATH(6.7)')).toBe(7)
    expect(calc('CEILING.MATH(-8.1, 2)')).toBe(-8)
    expect(calc('CEILING.MATH(-5.5, 2, -1)')).toBe(-6)
    expect(calc('FLOOR.MATH(24.3, 5)')).toBe(20)
    expect(calc('FLOOR.MATH(-8.1, 2)')).toBe(-10)
    expect(calc('FLOOR.MATH(-5.5, 2, -1)')).toBe(-4)
    expect(calc('CEILING.PRECISE(-4.3, 2)')).toBe(-4)
    expect(calc('CEILING.PRECISE(4.3, -2)')).toBe(6)
    expect(calc('ISO.CEILING(-4.6)')).toBe(-4)
    expect(calc('FLOOR.PRECISE(-3.2, -1)')).toBe(-4)
    expect(calc('FLOOR.PRECISE(3.2, 0)')).toBe(0)
  })
})

describe('trigonometry', () => {
  it('computes the circular functions as Excel, near their zeros too', () => {
    expect(calc('SIN(PI()/2)')).toBe(1)
    expect(calc('SIN(PI())')).toBeCloseTo(1.22515e-16, 20)
    expect(calc('COS(0)')).toBe(1)
    expect(calc('TAN(PI()/4)')).toBeCloseTo(1, 15)
    expect(calc('COT(PI() - 0.000000000001)') as number).toBeCloseTo(-999788629259.2037, 1)
    expect(calc('SEC(PI()/2 - 0.000000000001)') as number).toBeCloseTo(999849864538.9548, 1)
    expect(calc('CSC(0)')).toBe('#DIV/0!')
    expect(calc('SIN(2^27)')).toBe('#NUM!')
  })

  it('inverse, hyperbolic and reciprocal functions', () => {
    expect(calc('ASIN(-0.5)')).toBeCloseTo(-0.523598776, 9)
    expect(calc('ASIN(2)')).toBe('#NUM!')
    expect(calc('ACOS(-0.5)')).toBeCloseTo(2.094395102, 9)
    expect(calc('ATAN2(1, 1)')).toBeCloseTo(0.785398163, 9)
    expect(calc('ATAN2(-1, -1)')).toBeCloseTo(-2.35619449, 8)
    expect(calc('ATAN2(0, 0)')).toBe('#DIV/0!')
    expect(calc('ACOT(2)')).toBeCloseTo(0.4636, 4)
    expect(calc('ACOTH(6)')).toBeCloseTo(0.168236118, 9)
    expect(calc('ACOTH(1)')).toBe('#NUM!')
    expect(calc('ACOSH(10)')).toBeCloseTo(2.993222846, 9)
    expect(calc('ATANH(1)')).toBe('#NUM!')
    expect(calc('COTH(2)')).toBeCloseTo(1.037314721, 9)
    expect(calc('CSCH(1.5)')).toBeCloseTo(0.469642441, 9)
    expect(calc('SECH(1)')).toBeCloseTo(0.648054274, 9)
    expect(calc('DEGREES(PI())')).toBe(180)
    expect(calc('RADIANS(270)')).toBeCloseTo(4.712389, 6)
  })
})

describe('criteria', () => {
  const cells = {
    ...column('A1', [100000, 200000, 300000, 400000]),
    ...column('B1', [7000, 14000, 21000, 28000]),
    ...column('C1', ['Vegetables', 'Vegetables', 'Fruits', '']),
  }

  it('SUMIF adds the sum range where the range meets the criteria', () => {
    expect(calc('SUMIF(A1:A4, ">160000", B1:B4)', cells)).toBe(63000)
    expect(calc('SUMIF(A1:A4, ">160000")', cells)).toBe(900000)
    expect(calc('SUMIF(A1:A4, 300000, B1)', cells)).toBe(21000)
    expect(calc('SUMIF(C1:C4, "Veg*", B1:B4)', cells)).toBe(21000)
    expect(calc('SUMIF(C1:C5, "", B1:B5)', cells)).toBe(28000)
  })

  it('SUMIFS needs every criteria, over ranges of the same size', () => {
    expect(calc('SUMIFS(B1:B4, A1:A4, ">150000", C1:C4, "<>Fruits")', cells)).toBe(42000)
    expect(calc('SUMIFS(B1:B4, A1:A3, ">0")', cells)).toBe('#VALUE!')
    expect(calc('SUMIFS(B1:B4, A1:A4, ">0", C1:C4)', cells)).toBe('#VALUE!')
  })
})

describe('arrays', () => {
  const cells = { A1: 3, A2: 8, A3: 1, B1: 4, B2: 6, B3: 9, C1: 'x' }

  it('SUMPRODUCT multiplies entries of same-sized arrays', () => {
    expect(calc('SUMPRODUCT(A1:A3, B1:B3)', cells)).toBe(3 * 4 + 8 * 6 + 9)
    expect(calc('SUMPRODUCT((A1:A3>2)*B1:B3)', cells)).toBe(10)
    expect(calc('SUMPRODUCT(A1:A3, B1:B2)', cells)).toBe('#VALUE!')
    expect(calc('SUMPRODUCT(C1:C3)', cells)).toBe(0)
  })

  it('SUMX2MY2, SUMX2PY2 and SUMXMY2 skip pairs that are not two numbers', () => {
    const pairs = { ...column('A1', [2, 3, 9, 1, 8, 7, 5]), ...column('B1', [6, 5, 11, 7, 5, 4, 4]) }
    expect(calc('SUMX2MY2(A1:A7, B1:B7)', pairs)).toBe(-55)
    expect(calc('SUMX2PY2(A1:A7, B1:B7)', pairs)).toBe(521)
    expect(calc('SUMXMY2(A1:A7, B1:B7)', pairs)).toBe(79)
    expect(calc('SUMXMY2(A1:A7, B1:B6)', pairs)).toBe('#N/A')
  })

  it('MMULT, MDETERM, MINVERSE and MUNIT', () => {
    expect(calcArray('MMULT({1,3;7,2}, {2,0;0,2})', 2, 2)).toEqual([
      [2, 6],
      [14, 4],
    ])
    expect(calc('MMULT({1,2}, {1,2})')).toBe('#VALUE!')
    expect(calc('MDETERM({1,3,8,5;1,3,6,1;1,1,1,0;7,3,10,2})')).toBeCloseTo(88, 9)
    expect(calc('MDETERM({1,2;2,4})')).toBe(0)
    const inverse = calcArray('MINVERSE({4,-1;2,0})', 2, 2)
    expect(inverse.flat().map((x) => Math.round((x as number) * 1e12) / 1e12)).toEqual([0, 0.5, -1, 2])
    expect(calc('MINVERSE({1,2;2,4})')).toBe('#NUM!')
    expect(calcArray('MUNIT(2)', 2, 2)).toEqual([
      [1, 0],
      [0, 1],
    ])
  })
})

describe('AGGREGATE and SERIESSUM', () => {
  const cells = column('A1', ['=1/0', 72, 30, '=SQRT(-1)', 31, 96, 32, 81, 33, 53, 34])

  it('AGGREGATE ignores errors and nested subtotals on request', () => {
    expect(calc('AGGREGATE(4, 6, A1:A11)', cells)).toBe(96)
    expect(calc('AGGREGATE(14, 6, A1:A11, 3)', cells)).toBe(72)
    expect(calc('AGGREGATE(9, 6, A1:A11)', cells)).toBe(462)
    expect(calc('AGGREGATE(9, 4, A1:A11)', cells)).toBe('#DIV/0!')
    expect(calc('AGGREGATE(15, 6, A1:A11)', cells)).toBe('#VALUE!')
    expect(calc('AGGREGATE(9, 3, B1:B3)', { B1: 5, B2: '=SUBTOTAL(9,B1)', B3: 2 })).toBe(7)
    expect(calc('AGGREGATE(9, 4, B1:B3)', { B1: 5, B2: '=SUBTOTAL(9,B1)', B3: 2 })).toBe(12)
    expect(calc('AGGREGATE(20, 6, A1:A11)', cells)).toBe('#VALUE!')
  })

  it('AGGREGATE and SUBTOTAL give what the function they stand for gives', () => {
    expect(calc('AGGREGATE(13, 6, {1,2,2,1})')).toBe(calc('MODE.SNGL({1,2,2,1})'))
    expect(calc('AGGREGATE(13, 6, {1,2,2,1})')).toBe(1)
    expect(calc('AGGREGATE(14, 6, {1,2,3}, 0.5)')).toBe(3)
    expect(calc('AGGREGATE(15, 6, {1,2,3}, 0.5)')).toBe(1)
    expect(calc('AGGREGATE(6, 6, B1:B3)')).toBe(0)
    expect(calc('SUBTOTAL(6, B1:B3)')).toBe(0)
    expect(calc('AGGREGATE(7, 6, A1:A11)', cells)).toBe(calc('STDEV.S(A2:A3, A5:A11)', cells))
    expect(calc('SUBTOTAL(10, A2:A3, A5:A11)', cells)).toBe(calc('VAR.S(A2:A3, A5:A11)', cells))
  })

  it('SUBTOTAL and AGGREGATE take MAX and MIN of more numbers than one call can take as arguments', () => {
    const engine = sheetWith(column('A1', Array.from({ length: 200_000 }, (_, i) => i + 1)))
    engine.setCells([
      { sheet: 'Sheet1', address: 'B1', input: '=SUBTOTAL(4, A1:A200000)' },
      { sheet: 'Sheet1', address: 'B2', input: '=SUBTOTAL(105, A1:A200000)' },
      { sheet: 'Sheet1', address: 'B3', input: '=AGGREGATE(4, 6, A1:A200000)' },
    ])
    expect(engine.getRangeValues('Sheet1', 'B1:B3')).toEqual([[200_000], [1], [200_000]])
  })

  it('SERIESSUM sums a power series', () => {
    expect(calc('SERIESSUM(PI()/4, 0, 2, {1,-0.5,0.041666667,-0.001388889})')).toBeCloseTo(0.707103, 6)
    expect(calc('SERIESSUM(2, 1, 1, {1,"x"})')).toBe('#VALUE!')
  })
})

describe('numerals', () => {
  it('ROMAN in every form, and ARABIC back', () => {
    expect(calc('ROMAN(499, 0)')).toBe('CDXCIX')
    expect(calc('ROMAN(499, 1)')).toBe('LDVLIV')
    expect(calc('ROMAN(499, 2)')).toBe('XDIX')
    expect(calc('ROMAN(499, 3)')).toBe('VDIV')
    expect(calc('ROMAN(499, 4)')).toBe('ID')
    expect(calc('ROMAN(2013, TRUE)')).toBe('MMXIII')
    expect(calc('ROMAN(0)')).toBe('')
    expect(calc('ROMAN(4000)')).toBe('#VALUE!')
    expect(calc('ARABIC("LVII")')).toBe(57)
    expect(calc('ARABIC("mcmxii")')).toBe(1912)
    expect(calc('ARABIC("-XIV")')).toBe(-14)
    expect(calc('ARABIC("ABC")')).toBe('#VALUE!')
  })

  it('BASE and DECIMAL convert between radixes 2 to 36', () => {
    expect(calc('BASE(7, 2)')).toBe('111')
    expect(calc('BASE(100, 16)')).toBe('64')
    expect(calc('BASE(15, 2, 10)')).toBe('0000001111')
    expect(calc('BASE(-1, 2)')).toBe('#NUM!')
    expect(calc('BASE(1, 37)')).toBe('#NUM!')
    expect(calc('DECIMAL("FF", 16)')).toBe(255)
    expect(calc('DECIMAL("zap", 36)')).toBe(45745)
    expect(calc('DECIMAL("12", 2)')).toBe('#NUM!')
  })
})

describe('generators', () => {
  it('SEQUENCE fills rows first', () => {
    expect(calcArray('SEQUENCE(2, 3, 10, 5)', 2, 3)).toEqual([
      [10, 15, 20],
      [25, 30, 35],
    ])
    expect(calcArray('SEQUENCE(3)', 3, 1)).toEqual([[1], [2], [3]])
    expect(calc('SEQUENCE(0)')).toBe('#CALC!')
    expect(calcArray('SEQUENCE(3,,10)', 3, 1)).toEqual([[10], [11], [12]])
    expect(calc('SEQUENCE(-1)')).toBe('#VALUE!')
  })

  it('RAND, RANDBETWEEN and RANDARRAY stay within their bounds', () => {
    for (let i = 0; i < 20; i++) {
      const r = calc('RAND()') as number
      expect(r).toBeGreaterThanOrEqual(0)
      expect(r).toBeLessThan(1)
      const n = calc('RANDBETWEEN(-3, 3)') as number
      expect(Number.isInteger(n) && n >= -3 && n <= 3).toBe(true)
    }
    expect(calc('RANDBETWEEN(5, 1)')).toBe('#NUM!')
    const whole = calcArray('RANDARRAY(2, 2, 1, 6, TRUE)', 2, 2).flat() as number[]
    expect(whole.every((x) => Number.isInteger(x) && x >= 1 && x <= 6)).toBe(true)
    expect(calc('RANDARRAY(1, 1, 5, 1)')).toBe('#VALUE!')
  })
})
