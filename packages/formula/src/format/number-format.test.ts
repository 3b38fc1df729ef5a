import { describe, expect, it } from 'vitest'
import { CellError } from '../values.js'
import { formatValue, formatValueWithColor } from './number-format.js'

describe('formatValue', () => {
  it.each([
    [1234.567, undefined, '1234.567'],
    // General shows up to 11 characters of digits, as Excel does in a standard-width column
    [1 / 3, undefined, '0.333333333'],
    [2 / 3, undefined, '0.666666667'],
    [-1 / 3, undefined, '-0.333333333'],
    [123456789012, undefined, '1.23457E+11'],
    [12345678901, undefined, '12345678901'],
    [0.0000123, undefined, '0.0000123'],
    [1.23456789e-7, undefined, '1.23457E-07'],
    [2, undefined, '2'],
    [2.5, undefined, '2.5'],
    [-0.004, undefined, '-0.004'],
    [1e20, undefined, '1E+20'],
    [1234.567, '0', '1235'],
    [1234.567, '0.00', '1234.57'],
    [1234.567, '#,##0', '1,235'],
    [1234567.891, '#,##0.00', '1,234,567.89'],
    [1234.5, '$#,##0.00', '$1,234.50'],
    [-1234.5, '$#,##0.00', '-$1,234.50'],
    [0.153, '0%', '15%'],
    [0.153, '0.0%', '15.3%'],
    [-1234, '#,##0;(#,##0)', '(1,234)'],
    [1234, '#,##0;(#,##0)', '1,234'],
    [0, '#,##0;(#,##0);"-"', '-'],
    [-5, '0;-0;0;@', '-5'],
    [1234567, '#,##0,', '1,235'],
    [1234567, '#,##0.0,,"M"', '1.2M'],
    [12345.678, '0.00E+00', '1.23E+04'],
    [0.000123, '0.00E+00', '1.23E-04'],
    [1234.567, '##0.0E+0', '1.2E+3'],
    [12.5, '##0.0E+0', '12.5E+0'],
    [-0.004, '##0.0E+0', '-4.0E-3'],
    [999.995, '##0.0E+0', '1.0E+3'],
    [1234.567, '000.0E+0', '123.5E+1'],
    [100, '#.##', '100.'],
    [0, '#.##', '.'],
    [45292.75, 'h:mm a/p', '6:00 p'],
    [45292.25, 'h:mm am/pm', '6:00 am'],
    [45292.75, 'h:mm AM/PM', '6:00 PM'],
    [5, '"x"0', 'x5'],
    [5, '0" units"', '5 units'],
    [1.005, '0.00', '1.01'],
    [45322, 'yyyy-mm-dd', '2024-01-31'],
    [45322, 'mmm-yy', 'Jan-24'],
    [45322, 'd-mmm-yy', '31-Jan-24'],
    [45322, 'dddd, mmmm d, yyyy', 'Wednesday, January 31, 2024'],
    [45322.75, 'd-mmm-yy h:mm AM/PM', '31-Jan-24 6:00 PM'],
    [45322.5, 'h:mm:ss', '12:00:00'],
    [1.5, '[h]:mm', '36:00'],
    [0.000011574, 'h:mm:ss', '0:00:01'],
    [60, 'yyyy-mm-dd', '1900-02-29'],
    [42, '000', '042'],
    [3.5, '#.##', '3.5'],
    [0.5, '#.00', '.50'],
    [1234, 'General', '1234'],
    [1 / 3, 'General', '0.333333333'],
    [-1 / 3, 'General', '-0.333333333'],
    [-1e-8, 'General', '-0.00000001'],
    [-2.5e-9, 'General', '-2.5E-09'],
    [25000000000, 'General', '25000000000'],
    [123456789012, 'General', '1.23457E+11'],
    [1e16, 'General', '1E+16'],
    [1.23456e19, '0.00%', '1234560000000000000000.00%'],
  ])('%s with %s is %s', (value, format, expected) => {
    expect(formatValue(value, format)).toBe(expected)
  })

  it('shows text, booleans, errors and empty cells', () => {
    expect(formatValue('abc', '0.00')).toBe('abc')
    expect(formatValue('abc', '0;0;0;"<"@">"')).toBe('<abc>')
    expect(formatValue(true)).toBe('TRUE')
    expect(formatValue(CellError.DIV0, '0.00')).toBe('#DIV/0!')
    expect(formatValue(null, '0.00')).toBe('')
  })

  it('reports colours', () => {
    expect(formatValueWithColor(-5, '0;[Red]-0')).toEqual({ text: '-5', color: 'red' })
    expect(formatValueWithColor(5, '[Blue]0')).toEqual({ text: '5', color: 'blue' })
  })

  it('honours conditions', () => {
    expect(formatValue(150, '[>100]"big";"small"')).toBe('big')
    expect(formatValue(50, '[>100]"big";"small"')).toBe('small')
  })
})

describe('fraction formats', () => {
  it.each([
    [1 / 3, '# ?/?', ' 1/3'],
    [2.75, '# ?/?', '2 3/4'],
    [2.75, '# ??/??', '2  3/4 '],
    [-4 / 3, '# ?/?', '-1 1/3'],
    [-0.25, '# ?/?', '- 1/4'],
    [Math.PI, '# ?/?', '3 1/7'],
    [Math.PI, '# ??/??', '3 14/99'],
    [Math.PI, '# ???/???', '3  16/113'],
    [0.001, '# ???/???', '   1/999'],
    [1234.5678, '#,##0 ?/?', '1,234 4/7'],
    [0.5, '0 ?/?', '0 1/2'],
    [0.5, '# #/#', '1/2'],
    [0.99, '# ??/??', ' 98/99'],
    [7 / 16, '# ??/16', '  7/16'],
    [1 / 3, '# ??/16', '  5/16'],
    [1 / 3, '?/100', '33/100'],
    [5.5, '?/?', '11/2'],
    [1234.5678, '??/??', '100000/81'],
    [1 / 3, '??/??', ' 1/3 '],
    [-4 / 3, '"x"# ?/?" y"', '-x1 1/3 y'],
  ])('%s with %s shows %j', (value, format, expected) => {
    expect(formatValue(value, format)).toBe(expected)
  })

  it('blanks a zero fraction under ? placeholders, drops it under #, and rounds a fraction of 1 into the whole part', () => {
    expect(formatValue(2, '# ?/?')).toBe('2    ')
    expect(formatValue(0, '# ??/??')).toBe('0      ')
    expect(formatValue(2, '# ?/8')).toBe('2   ')
    expect(formatValue(2, '# #/#')).toBe('2')
    expect(formatValue(0.99, '# ?/?')).toBe('1    ')
    expect(formatValue(100.999, '# ??/??')).toBe('101      ')
    expect(formatValue(0, '?/?')).toBe('0/1')
    expect(formatValue(2, '# 0/0')).toBe('2 0/1')
  })

  it('leaves date formats with slashes alone', () => {
    expect(formatValue(44927, 'd/m/yy')).toBe('1/1/23')
    expect(formatValue(44927, 'mm/dd/yyyy')).toBe('01/01/2023')
  })
})
