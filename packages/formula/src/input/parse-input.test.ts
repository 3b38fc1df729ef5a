import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { CellError } from '../values.js'
import { parseCellInput, plainNumber, readNumber } from './parse-input.js'

describe('parseCellInput', () => {
  it.each([
    ['15%', 0.15, '0%'],
    ['12.5%', 0.125, '0.00%'],
    ['$1,234.50', 1234.5, '$#,##0.00'],
    ['$1234', 1234, '$#,##0'],
    ['-$5', -5, '$#,##0'],
    ['1,234', 1234, '#,##0'],
    ['1e3', 1000, '0.00E+00'],
    ['(100)', -100, undefined],
    ['  42  ', 42, undefined],
    ['-0.5', -0.5, undefined],
    ['.5', 0.5, undefined],
    ['2024-01-31', 45322, 'yyyy-mm-dd'],
    ['1/31/2024', 45322, 'm/d/yyyy'],
    ['31-Jan-2024', 45322, 'd-mmm-yy'],
    ['Jan 31, 2024', 45322, 'd-mmm-yy'],
    ['12:30', 0.5208333333333334, 'h:mm'],
    ['6:00 PM', 0.75, 'h:mm AM/PM'],
    ['1 1/2', 1.5, '# ?/?'],
    ['-2 3/16', -2.1875, '# ??/??'],
    ['25:00', 25 / 24, '[h]:mm:ss'],
    ['3/2025', 45717, 'mmm-yy'],
  ])('reads %s as a number', (input, value, format) => {
    const parsed = parseCellInput(input)
    expect(parsed.kind).toBe('value')
    if (parsed.kind !== 'value') return
    expect(parsed.value).toBeCloseTo(value, 12)
    expect(parsed.format).toBe(format)
  })

  it('reads booleans in any case, a leading apostrophe as text, error literals as errors', () => {
    expect(parseCellInput('TRUE')).toEqual({ kind: 'value', value: true })
    expect(parseCellInput('false')).toEqual({ kind: 'value', value: false })
    expect(parseCellInput("'123")).toEqual({ kind: 'value', value: '123' })
    expect(parseCellInput("'=A1")).toEqual({ kind: 'value', value: '=A1' })
    expect(parseCellInput('#n/a')).toEqual({ kind: 'value', value: CellError.NA })
  })

  it('keeps formulas and clears on empty input', () => {
    expect(parseCellInput('=SUM(A1:A3)')).toEqual({ kind: 'formula', text: '=SUM(A1:A3)' })
    expect(parseCellInput('')).toEqual({ kind: 'empty' })
    expect(parseCellInput(null)).toEqual({ kind: 'empty' })
  })

  it('keeps what is not a number as text', () => {
    for (const text of ['abc', '1,23', '12a', '$', '%', '(5', '2024-02-30', '1/2/3/4', '--5', '1.2.3']) {
      expect(parseCellInput(text)).toEqual({ kind: 'value', value: text })
    }
  })

  it('reads a month and day without a year as that day of this year, as Excel does with 3/4', () => {
    const year = new Date().getFullYear()
    const parsed = readNumber('3/4')
    expect(parsed?.format).toBe('d-mmm')
    expect(parsed?.value).toBe(readNumber(`${year}-03-04`)?.value)
    expect(readNumber('13/4')).toBeUndefined()
    expect(readNumber('2/30')).toBeUndefined()
    expect(readNumber('1 1/0')).toBeUndefined()
    expect(readNumber('2024-01-15 25:00')).toBeUndefined()
  })

  it('reads the leap day Excel invented in 1900', () => {
    expect(readNumber('1900-02-29')?.value).toBe(60)
    expect(readNumber('1900-03-01')?.value).toBe(61)
    expect(readNumber('1900-02-28')?.value).toBe(59)
  })
})

describe('plainNumber', () => {
  it.each([
    ['42', 42],
    ['-3.5', -3.5],
    ['0', 0],
    ['0.25', 0.25],
    ['123456789012345', 123456789012345],
    ['9007199254740993', undefined],
    ['042', undefined],
    ['-0', undefined],
    ['1.50', undefined],
    ['1e3', undefined],
    [' 7', undefined],
    ['.5', undefined],
    ['5.', undefined],
    ['-', undefined],
    ['0.0000001', undefined],
    ['15%', undefined],
    ['', undefined],
  ])('reads %j as %j', (text, expected) => {
    expect(plainNumber(text)).toBe(expected)
  })

  it('takes finite numbers as they are, and nothing else that is not text', () => {
    expect(plainNumber(-0)).toBe(-0)
    expect(plainNumber(2.5)).toBe(2.5)
    expect(plainNumber(Infinity)).toBeUndefined()
    expect(plainNumber(true)).toBeUndefined()
    expect(plainNumber(null)).toBeUndefined()
  })

  it('answers a number exactly where parseCellInput reads that number with nothing to remember', () => {
    const decimal = fc.tuple(fc.constantFrom('', '-'), fc.stringMatching(/^[0-9]{1,20}$/), fc.option(fc.stringMatching(/^[0-9]{1,8}$/)))
    const text = fc.oneof(
      decimal.map(([sign, whole, fraction]) => `${sign}${whole}${fraction === null ? '' : `.${fraction}`}`),
      fc.double({ noNaN: true }).map(String),
      fc.string({ maxLength: 6 }),
    )
    fc.assert(
      fc.property(text, (input) => {
        const parsed = parseCellInput(input)
        const plain = parsed.kind === 'value' && typeof parsed.value === 'number' && parsed.format === undefined && String(parsed.value) === input
        expect(plainNumber(input)).toBe(plain ? (parsed as { value: number }).value : undefined)
      }),
      { numRuns: 5_000 },
    )
  })
})
