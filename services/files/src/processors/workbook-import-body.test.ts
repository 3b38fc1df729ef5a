import { describe, expect, it } from 'vitest'
import type { ImportedWorkbook } from '@finsheet/workbook'
import { buildImportReport } from './import-report.js'
import { DATE_1904_OFFSET, inputOf, prepareImport } from './workbook-import-body.js'

function workbook(overrides: Partial<ImportedWorkbook> = {}): ImportedWorkbook {
  return {
    sheets: [
      {
        name: 'Data',
        state: 'visible',
        cells: [
          { row: 0, col: 0, address: 'A1', value: 10 },
          { row: 0, col: 1, address: 'B1', value: '0123', style: 0 },
          { row: 1, col: 0, address: 'A2', value: 20, formula: 'A1*2', style: 1 },
          { row: 2, col: 0, address: 'A3', value: 1, formula: 'SEQUENCE(2)', arrayRange: 'A3:A4' },
          { row: 3, col: 0, address: 'A4', value: 2 },
          { row: 4, col: 0, address: 'A5', value: null, style: 2 },
          { row: 5, col: 0, address: 'A6', value: { error: '#N/A' } },
        ],
        merges: ['C1:D1'],
        columns: [{ col: 0, width: 20 }, { col: 2, width: 10, hidden: true }],
        rows: [{ row: 0, height: 30 }],
        rowCount: 6,
        columnCount: 4,
      },
    ],
    definedNames: [{ name: 'Rate', formula: 'Data!$A$1' }],
    styles: [{ bold: true, fill: '#FFFF00', wrapText: true }, { numberFormat: '0.00', align: 'justify' }, { borders: { top: { style: 'thin' } } }],
    date1904: false,
    cellCount: 7,
    formulaCount: 2,
    ...overrides,
  }
}

describe('prepareImport', () => {
  it('sends inputs as typed, formats and looks the model holds, and names what it leaves out', () => {
    const prepared = prepareImport(workbook(), 'Book')
    const body = prepared.body()
    expect(body.name).toBe('Book')
    expect(body.definedNames).toEqual([{ name: 'Rate', formula: '=Data!$A$1' }])
    expect(body.sheets[0].cells).toEqual([
      { address: 'A1', input: 10 },
      { address: 'B1', input: "'0123", style: { bold: true, fill: '#FFFF00' } },
      { address: 'A2', input: '=A1*2', format: '0.00' },
      { address: 'A3', input: '=SEQUENCE(2)' },
      { address: 'A6', input: '#N/A' },
    ])
    expect(body.sheets[0].columnWidths).toEqual({ '0': 145, '2': 0 })
    expect(body.sheets[0].merges).toEqual(['C1:D1'])
    expect(prepared.notKept.sort()).toEqual(['borders', 'justify alignment', 'row heights and hidden rows', 'vertical alignment, wrapping, indents and rotation'])
  })

  it('writes the same body as JSON text, releasing each sheet once written', () => {
    const expected = prepareImport(workbook(), 'Book').body()
    const source = workbook()
    const text = [...prepareImport(source, 'Book').jsonChunks()].join('')
    expect(JSON.parse(text)).toEqual(expected)
    expect(source.sheets[0].cells).toEqual([])
  })

  it('moves dates of a 1904 workbook to the 1900 system, and only dates', () => {
    const book = workbook({
      date1904: true,
      styles: [{ numberFormat: 'yyyy-mm-dd' }, { numberFormat: '0.00' }],
      sheets: [
        {
          ...workbook().sheets[0],
          cells: [
            { row: 0, col: 0, address: 'A1', value: 43_859, style: 0 },
            { row: 1, col: 0, address: 'A2', value: 43_860, formula: 'A1+1', style: 0 },
            { row: 2, col: 0, address: 'A3', value: 5, style: 1 },
          ],
        },
      ],
    })
    const prepared = prepareImport(book, 'Mac')
    expect(prepared.body().sheets[0].cells.map((cell) => cell.input)).toEqual([43_859 + DATE_1904_OFFSET, '=A1+1', 5])
    expect(buildImportReport(book, prepared)).toMatchObject({ matched: 1, mismatchCount: 0 })
  })

  it('keeps text that would read as something else as text', () => {
    expect(inputOf('TRUE')).toBe("'TRUE")
    expect(inputOf('=1+1')).toBe("'=1+1")
    expect(inputOf('1,000')).toBe("'1,000")
    expect(inputOf('plain')).toBe('plain')
    expect(inputOf('')).toBe("'")
    expect(inputOf({ error: '#DIV/0!' })).toBe('#DIV/0!')
  })
})

describe('buildImportReport', () => {
  it('counts matches and lists cells whose value differs from the cached one', () => {
    const book = workbook()
    book.sheets[0].cells[2].value = 21
    const report = buildImportReport(book, prepareImport(book, 'Book'))
    expect(report).toMatchObject({ sheets: 1, cells: 7, formulas: 2, matched: 1, mismatchCount: 1 })
    expect(report.mismatches).toEqual([{ sheet: 'Data', address: 'A2', formula: '=A1*2', ours: 20, cached: 21 }])
  })
})
