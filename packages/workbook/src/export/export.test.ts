import { describe, expect, it } from 'vitest'
import type { CellRecord } from '../model/cell-record.js'
import { writeCsv, neutralizeFormulaText } from './csv.js'
import { storedFormula } from './formula-storage.js'
import { argb } from './xlsx.js'

const text = (address: string, row: number, col: number, value: string): CellRecord => ({ address, row, col, input: value, value, type: 'text' })

describe('csv', () => {
  it('quotes by RFC 4180 and escapes text a spreadsheet would run as a formula', () => {
    expect(neutralizeFormulaText('=cmd|calc')).toBe("'=cmd|calc")
    for (const lead of ['+', '-', '@', '\t', '\r']) expect(neutralizeFormulaText(`${lead}x`)).toBe(`'${lead}x`)
    expect(neutralizeFormulaText('plain')).toBe('plain')
    const csv = writeCsv([
      text('A1', 0, 0, 'a,b'),
      text('B1', 0, 1, 'say "hi"'),
      { address: 'A2', row: 1, col: 0, input: '-3', value: -3, type: 'number' },
      text('C2', 1, 2, '@SUM(A1)'),
    ])
    expect(csv).toBe('"a,b","say ""hi""",\r\n-3,,\'@SUM(A1)\r\n')
    expect(writeCsv([])).toBe('')
  })
})

describe('xlsx', () => {
  it('stores newer functions with the prefix older readers need, leaving strings and sheet names alone', () => {
    expect(storedFormula('XLOOKUP(A1,B:B,C:C)+SUM(1)')).toBe('_xlfn.XLOOKUP(A1,B:B,C:C)+SUM(1)')
    expect(storedFormula('FILTER(A1:A9,B1:B9>0)')).toBe('_xlfn._xlws.FILTER(A1:A9,B1:B9>0)')
    expect(storedFormula('"IFS(" & \'MINIFS(x\'!A1 & STDEV.S(A1:A3)')).toBe('"IFS(" & \'MINIFS(x\'!A1 & _xlfn.STDEV.S(A1:A3)')
  })

  it('reads CSS colours as ARGB', () => {
    expect(argb('#fff')).toBe('FFFFFFFF')
    expect(argb('#1F4FB4')).toBe('FF1F4FB4')
    expect(argb('rgb(255, 0, 128)')).toBe('FFFF0080')
    expect(argb('red')).toBe('FFFF0000')
    expect(argb('not a colour')).toBeUndefined()
  })
})
