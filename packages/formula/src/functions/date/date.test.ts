import { describe, expect, it } from 'vitest'
import { CellError } from '../../values.js'
import { arr, caller, makeSheet, ref } from '../lookup/test-harness.js'
import { MISSING } from '../types.js'
import { functions } from './index.js'

const fn = caller(functions)

describe('DATE, YEAR, MONTH, DAY', () => {
  it('builds serials with carry-over and the 1900 offset for small years', () => {
    expect(fn('DATE', 2008, 1, 2)).toBe(39449)
    expect(fn('DATE', 108, 1, 2)).toBe(39449)
    expect(fn('DATE', 2008, 14, 2)).toBe(39846)
    expect(fn('DATE', 2008, -3, 2)).toBe(39327)
    expect(fn('DATE', 2008, 1, 35)).toBe(39482)
    expect(fn('DATE', 2008, 1, -15)).toBe(39432)
    expect(fn('DATE', 1900, 2, 29)).toBe(60)
    expect(fn('DATE', 10000, 1, 1)).toBe(CellError.NUM)
    expect(fn('DATE', -1, 1, 1)).toBe(CellError.NUM)
    expect(fn('DATE', 1900, 1, -1)).toBe(CellError.NUM)
  })

  it('reads the parts of a serial', () => {
    expect(fn('DAY', 32111)).toBe(30)
    expect(fn('YEAR', 32111)).toBe(1987)
    expect(fn('MONTH', 32111)).toBe(11)
    expect(fn('DAY', 32112.5)).toBe(1)
    expect(fn('YEAR', 123452)).toBe(2237)
    expect(fn('DAY', 60)).toBe(29)
    expect(fn('MONTH', 61)).toBe(3)
    expect(fn('DAY', 0)).toBe(0)
    expect(fn('YEAR', 0)).toBe(1900)
    expect(fn('MONTH', 0)).toBe(1)
    expect(fn('YEAR', '2024-03-15')).toBe(2024)
    expect(fn('DAY', -1)).toBe(CellError.NUM)
    expect(fn('YEAR', 'qwerty')).toBe(CellError.VALUE)
    expect(fn('YEAR', 2958466)).toBe(CellError.NUM)
  })
})

describe('EDATE and EOMONTH', () => {
  it('moves by whole months and clamps to the end of the month', () => {
    expect(fn('EDATE', 32111, 5)).toBe(32263)
    expect(fn('EDATE', 32111, -5)).toBe(31958)
    expect(fn('EDATE', 32112, -235.5)).toBe(24959)
    expect(fn('EDATE', 61, -7)).toBe(CellError.NUM)
    expect(fn('EDATE', 40209, 1)).toBe(40237) // 2010-01-31 → 2010-02-28
    expect(fn('EDATE', 32112, null)).toBe(32112)
  })

  it('returns the last day of the month', () => {
    expect(fn('EOMONTH', 44987, 7)).toBe(45230)
    expect(fn('EOMONTH', 44987, -123)).toBe(41274)
    expect(fn('EOMONTH', 44987, 4.5)).toBe(45138)
    expect(fn('EOMONTH', 44987, -4.7)).toBe(44895)
    expect(fn('EOMONTH', 44987, '2')).toBe(45077)
    expect(fn('EOMONTH', 44987, null)).toBe(45016)
    expect(fn('EOMONTH', 44987, -1240.333)).toBe(7274)
  })

  it('rejects booleans as the Analysis ToolPak functions do', () => {
    expect(fn('EOMONTH', 44987, true)).toBe(CellError.VALUE)
    expect(fn('EDATE', 44987, false)).toBe(CellError.VALUE)
    expect(fn('EDATE', 44987, CellError.DIV0)).toBe(CellError.DIV0)
  })
})

describe('TIME, TIMEVALUE, DATEVALUE, HOUR, MINUTE, SECOND', () => {
  it('builds times that wrap at 24 hours', () => {
    expect(fn('TIME', 12, 0, 0)).toBe(0.5)
    expect(fn('TIME', 23, 59, 60)).toBe(0)
    expect(fn('TIME', 23, 120, 0)).toBeCloseTo(1 / 24, 15)
    expect(fn('TIME', 0, 0, -1)).toBe(CellError.NUM)
    expect(fn('TIME', 1, -30, 0)).toBeCloseTo(0.5 / 24, 15)
  })

  it('reads dates and times from text', () => {
    expect(fn('TIMEVALUE', '24:00')).toBe(0)
    expect(fn('TIMEVALUE', ' 1:30 ')).toBe(0.0625)
    expect(fn('TIMEVALUE', '12:00 PM')).toBe(0.5)
    expect(fn('TIMEVALUE', '2024-02-29 06:00')).toBe(0.25)
    expect(fn('TIMEVALUE', 'noon')).toBe(CellError.VALUE)
    expect(fn('DATEVALUE', '29-Feb-1900')).toBe(60)
    expect(fn('DATEVALUE', '1-Mar-1900')).toBe(61)
    expect(fn('DATEVALUE', '2024-02-29 06:00')).toBe(45351)
    expect(fn('DATEVALUE', '8/22/2011')).toBe(40777)
    expect(fn('DATEVALUE', '22-MAY-2011')).toBe(40685)
    expect(fn('DATEVALUE', '12')).toBe(CellError.VALUE)
    expect(fn('DATEVALUE', 'tomorrow')).toBe(CellError.VALUE)
  })

  it('reads the parts of a time, rounded to the second', () => {
    expect(fn('HOUR', 0.75)).toBe(18)
    expect(fn('HOUR', 40777.7840277778)).toBe(18)
    expect(fn('MINUTE', '12:45:00 PM')).toBe(45)
    expect(fn('SECOND', '4:48:18 PM')).toBe(18)
    expect(fn('SECOND', 0.999999)).toBe(0)
    expect(fn('HOUR', -1)).toBe(CellError.NUM)
  })
})

describe('DAYS, DAYS360, YEARFRAC, DATEDIF', () => {
  it('counts days', () => {
    expect(fn('DAYS', 45667, 45658)).toBe(9)
    expect(fn('DAYS', 45670, 45667.6875)).toBe(3)
    expect(fn('DAYS', true, false)).toBe(1)
    expect(fn('DAYS', -5, -10)).toBe(CellError.NUM)
    expect(fn('DAYS', 'abc', 'def')).toBe(CellError.VALUE)
  })

  it('counts 360-day years by the US and European methods', () => {
    expect(fn('DAYS360', 45658, 45688)).toBe(30)
    expect(fn('DAYS360', 45658, 45688, true)).toBe(29)
    expect(fn('DAYS360', 45658, 45688, 'TRUE')).toBe(29)
    expect(fn('DAYS360', 45658, 46023)).toBe(360)
    expect(fn('DAYS360', 45350, 45352)).toBe(3)
    expect(fn('DAYS360', 45351, 45716)).toBe(358)
    expect(fn('DAYS360', 45868, 45869)).toBe(0)
    expect(fn('DAYS360', 45322, 45350)).toBe(28)
    expect(fn('DAYS360', 45992.000001, 46000.999999)).toBe(9)
    expect(fn('DAYS360', 45667, 45658)).toBe(-9)
    expect(fn('DAYS360', -10, -5)).toBe(CellError.NUM)
    expect(fn('DAYS360', 45658, 45688, 'abc')).toBe(CellError.VALUE)
  })

  it('computes year fractions for every basis', () => {
    const cases: [number, number, number, number][] = [
      [39508, 39691, 0, 0.5],
      [39508, 39691, 1, 0.5],
      [39508, 39691, 2, 0.5083333333333333],
      [39508, 39691, 3, 0.5013698630136987],
      [39508, 39691, 4, 0.49722222222222223],
      [39142, 39325, 1, 0.5013698630136987],
      [42769, 43070, 0, 0.8277777777777777],
      [42769, 43070, 1, 0.8246575342465754],
      [34824, 46179, 1, 31.088295687885012],
      [34824, 46179, 4, 31.086111111111112],
      [46179, 46084, 0, 0.25833333333333336],
      [36015, 45386, 1, 25.655749340904482],
      [44988, 45350, 1, 0.99178082191780825],
      [44594, 45351, 1, 2.0720802919708032],
      [44921, 44561, 2, 1],
    ]
    for (const [start, end, basis, expected] of cases) expect(fn('YEARFRAC', start, end, basis)).toBeCloseTo(expected, 14)
    expect(fn('YEARFRAC', 39508, 39691)).toBe(0.5)
    expect(fn('YEARFRAC', 39508, 39691, 5)).toBe(CellError.NUM)
    expect(fn('YEARFRAC', 39508, true)).toBe(CellError.VALUE)
  })

  it('measures whole units between dates', () => {
    expect(fn('DATEDIF', 36892, 37865, 'Y')).toBe(2) // 2001-01-01 to 2003-09-01
    // 2001-06-01 to 2002-08-15, Excel's documented example
    expect(fn('DATEDIF', 37043, 37483, 'D')).toBe(440)
    expect(fn('DATEDIF', 37043, 37483, 'YD')).toBe(75)
    expect(fn('DATEDIF', 37043, 37483, 'md')).toBe(14)
    expect(fn('DATEDIF', 37043, 37483, 'M')).toBe(14)
    expect(fn('DATEDIF', 37043, 37483, 'YM')).toBe(2)
    expect(fn('DATEDIF', 37043, 37483, 'Y')).toBe(1)
    expect(fn('DATEDIF', 42035, 42064, 'MD')).toBe(-2) // 2015-01-31 to 2015-03-01
    expect(fn('DATEDIF', 37483, 37043, 'D')).toBe(CellError.NUM)
    expect(fn('DATEDIF', 37043, 37483, 'W')).toBe(CellError.NUM)
  })
})

describe('WEEKDAY, WEEKNUM, ISOWEEKNUM', () => {
  it('numbers the days of the week by return type', () => {
    expect(fn('WEEKDAY', 39492)).toBe(5) // 2008-02-14, a Thursday
    expect(fn('WEEKDAY', 39492, 2)).toBe(4)
    expect(fn('WEEKDAY', 39492, 3)).toBe(3)
    expect(fn('WEEKDAY', 39492, 11)).toBe(4)
    expect(fn('WEEKDAY', 39492, 17)).toBe(5)
    expect(fn('WEEKDAY', 39492, 14)).toBe(1)
    expect(fn('WEEKDAY', 39492, 4)).toBe(CellError.NUM)
    expect(fn('WEEKDAY', 0)).toBe(7)
  })

  it('numbers the weeks of the year', () => {
    expect(fn('WEEKNUM', 40977)).toBe(10) // 2012-03-09, Excel's documented example
    expect(fn('WEEKNUM', 40977, 2)).toBe(11)
    expect(fn('WEEKNUM', 45292, 1)).toBe(1) // 2024-01-01
    expect(fn('WEEKNUM', 45297, 1)).toBe(1) // Saturday 2024-01-06
    expect(fn('WEEKNUM', 45298, 1)).toBe(2) // Sunday 2024-01-07
    expect(fn('WEEKNUM', 45298, 2)).toBe(1)
    expect(fn('WEEKNUM', 45657, 21)).toBe(1) // 2024-12-30 is ISO week 1 of 2025
    expect(fn('WEEKNUM', 40977, 3)).toBe(CellError.NUM)
    expect(fn('ISOWEEKNUM', 40977)).toBe(10)
    expect(fn('ISOWEEKNUM', 42370)).toBe(53) // 2016-01-01
  })
})

describe('NETWORKDAYS and WORKDAY', () => {
  const holidays = ref(makeSheet([[39763], [39794], [39829]]), 'A1:A3') // 2008-11-26, 2008-12-04, 2009-01-21

  it('counts working days with holidays and custom weekends', () => {
    expect(fn('NETWORKDAYS', 39722, 39872)).toBe(108) // 2008-10-01 to 2009-03-01
    expect(fn('NETWORKDAYS', 39722, 39872, 39763)).toBe(107)
    expect(fn('NETWORKDAYS', 39722, 39872, holidays)).toBe(105)
    expect(fn('NETWORKDAYS', 39872, 39722, holidays)).toBe(-105)
    expect(fn('NETWORKDAYS.INTL', 38718, 38748)).toBe(22) // 2006-01-01 to 2006-01-31
    expect(fn('NETWORKDAYS.INTL', 41296, 41275, 1)).toBe(-16) // 2013-01-22 back to 2013-01-01
    expect(fn('NETWORKDAYS.INTL', 40940, 41000, 11, arr([[40954, 40969]]))).toBe(50)
    expect(fn('NETWORKDAYS.INTL', 40941, 41123, '0000110', arr([[41015, 41081]]))).toBe(129) // 2012-02-02 to 2012-08-02, Friday and Saturday off
    expect(fn('NETWORKDAYS.INTL', 40941, 41123, '1111111')).toBe(CellError.VALUE)
    expect(fn('NETWORKDAYS.INTL', 40941, 41123, 8)).toBe(CellError.NUM)
    expect(fn('NETWORKDAYS', 39722, 39872, 'x')).toBe(CellError.VALUE)
  })

  it('finds the date a number of working days away', () => {
    expect(fn('WORKDAY', 39722, 151)).toBe(39933) // 2009-04-30
    expect(fn('WORKDAY', 39722, 151, holidays)).toBe(39938) // 2009-05-05
    expect(fn('WORKDAY', 39722, -10)).toBe(39708)
    expect(fn('WORKDAY', 39722, 0)).toBe(39722)
    expect(fn('WORKDAY.INTL', 40909, 30, 0)).toBe(CellError.NUM)
    expect(fn('WORKDAY.INTL', 40909, 90, 11)).toBe(41013) // 2012-04-15 per Excel's documentation
    expect(fn('WORKDAY.INTL', 40909, 30, 17)).toBe(40944) // 2012-02-05
    expect(fn('WORKDAY', 39722, 2000)).toBe(42522)
    expect(fn('WORKDAY', MISSING, 1)).toBe(2)
  })
})
