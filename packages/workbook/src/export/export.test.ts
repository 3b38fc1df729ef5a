import { describe, expect, it } from 'vitest'
import type { CellRecord } from '../model/cell-record.js'
import { writeCsv, neutralizeFormulaText } from './csv.js'
import { storedFormula } from './formula-storage.js'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readXlsxFile } from '../xlsx/stream-xlsx.js'
import { argb, calculatesAlike, writeXlsx } from './xlsx.js'

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

describe('xlsx formulas, dynamic arrays and legacy', () => {
  it('writes arithmetic on single cells plain and marks anything implicit intersection could change', () => {
    for (const alike of ['=A1*B1+D1', "=Sheet2!A1-'My Sheet'!$B$2", '=1.5E+3/2', '="a:b"&A1', '=(A1+2)^2%', '=TRUE']) expect(calculatesAlike(alike), alike).toBe(true)
    for (const differs of ['=A1:A3*2', '=SUM(A1)', '=Rate*2', '={1,2}', '=A:A', '=@A1:A2', "='x'!A1:B2"]) expect(calculatesAlike(differs), differs).toBe(false)
  })

  it('keeps how each formula calculates through a file: legacy plain, fixed arrays over their range, dynamic arrays marked', async () => {
    const record = (address: string, row: number, col: number, input: string, value: number, extra: Partial<CellRecord> = {}): CellRecord => ({
      address,
      row,
      col,
      input,
      value,
      type: 'number',
      ...extra,
    })
    const bytes = await writeXlsx({
      format: 'finsheet-workbook',
      formatVersion: 1,
      name: 'Kinds',
      revision: 1,
      sheets: [
        {
          id: 's1',
          name: 'S',
          columnWidths: {},
          merges: [],
          cells: [
            record('A1', 0, 0, '1', 1),
            record('A2', 1, 0, '2', 2),
            record('B2', 1, 1, '=A1:A2*10', 20, { legacy: true }),
            record('C1', 0, 2, '=A1:A2*2', 2, { arrayRange: 'C1:C2' }),
            record('C2', 1, 2, '', 4),
            record('D1', 0, 3, '=A1:A2+1', 2),
            record('D2', 1, 3, '', 3),
            record('E1', 0, 4, '=A1*2', 2),
          ],
        },
      ],
      definedNames: [],
      charts: [],
    })
    const dir = mkdtempSync(join(tmpdir(), 'finsheet-kinds-'))
    try {
      writeFileSync(join(dir, 'kinds.xlsx'), bytes)
      const cells = new Map((await readXlsxFile(join(dir, 'kinds.xlsx'))).sheets[0].cells.map((cell) => [cell.address, cell]))
      expect(cells.get('B2')).toMatchObject({ formula: 'A1:A2*10', value: 20 })
      expect(cells.get('B2')?.arrayRange).toBeUndefined()
      expect(cells.get('C1')).toMatchObject({ formula: 'A1:A2*2', arrayRange: 'C1:C2' })
      expect(cells.get('C1')?.dynamicArray).toBeUndefined()
      expect(cells.get('C2')).toMatchObject({ value: 4 })
      expect(cells.get('D1')).toMatchObject({ formula: 'A1:A2+1', arrayRange: 'D1', dynamicArray: true })
      expect(cells.get('D2')).toBeUndefined()
      expect(cells.get('E1')).toMatchObject({ formula: 'A1*2' })
      expect(cells.get('E1')?.arrayRange).toBeUndefined()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
