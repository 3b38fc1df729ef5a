import { describe, expect, it } from 'vitest'
import { moveRange, moveRangeText, normalizeAddress, splitSheetReference, tryParseRange } from './a1.js'
import { displayOf, excelWidthToPixels, pixelsToExcelWidth, sameStyle, toApiCell } from './cell-record.js'
import type { CellRecord } from './cell-record.js'
import { diffSnapshots, snapshotStats, type WorkbookSnapshot } from './snapshot.js'

const cell = (address: string, input: string, value: CellRecord['value'], extra: Partial<CellRecord> = {}): CellRecord => {
  const range = tryParseRange(address)!
  const type = value === null ? 'empty' : typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : String(value).startsWith('#') ? 'error' : 'text'
  return { address, row: range.top, col: range.left, input, value, type, ...extra }
}

const book = (sheets: { id: string; name: string; cells: CellRecord[] }[]): WorkbookSnapshot => ({
  format: 'finsheet-workbook',
  formatVersion: 1,
  name: 'Book',
  revision: 1,
  sheets: sheets.map((sheet) => ({ ...sheet, columnWidths: {}, merges: [] })),
  definedNames: [],
  charts: [],
})

describe('A1 helpers', () => {
  it('normalizes addresses and splits sheet references', () => {
    expect(normalizeAddress('$b$3')).toBe('B3')
    expect(normalizeAddress('XFE1')).toBeUndefined()
    expect(splitSheetReference("'My ''quoted'' sheet'!A1:B2")).toEqual({ sheet: "My 'quoted' sheet", reference: 'A1:B2' })
    expect(splitSheetReference('C7')).toEqual({ reference: 'C7' })
  })

  it('moves ranges as Excel moves merges and chart ranges', () => {
    expect(moveRangeText('B2:C4', { axis: 'rows', kind: 'insert', at: 0, count: 2 })).toBe('B4:C6')
    expect(moveRangeText('B2:C4', { axis: 'rows', kind: 'insert', at: 2, count: 1 })).toBe('B2:C5')
    expect(moveRangeText('B2:C4', { axis: 'rows', kind: 'delete', at: 2, count: 1 })).toBe('B2:C3')
    expect(moveRangeText('B2:C4', { axis: 'rows', kind: 'delete', at: 0, count: 2 })).toBe('B1:C2')
    expect(moveRangeText('B2:C4', { axis: 'rows', kind: 'delete', at: 1, count: 3 })).toBeUndefined()
    expect(moveRangeText('B2:C4', { axis: 'columns', kind: 'delete', at: 0, count: 1 })).toBe('A2:B4')
    expect(moveRange({ top: 0, left: 0, bottom: 0, right: 3 }, { axis: 'columns', kind: 'insert', at: 4, count: 1 })).toEqual({ top: 0, left: 0, bottom: 0, right: 3 })
  })
})

describe('cell records', () => {
  it('shows values with the user format, else the suggested one', () => {
    expect(displayOf(cell('A1', '0.125', 0.125, { userFormat: '0.0%' }))).toBe('12.5%')
    expect(displayOf(cell('A1', '15%', 0.15, { suggestedFormat: '0%' }))).toBe('15%')
    expect(displayOf(cell('A1', '=1/0', '#DIV/0!'))).toBe('#DIV/0!')
    expect(toApiCell(cell('A1', '=2*3', 6, { style: { bold: true } }))).toEqual({ value: 6, formula: '=2*3', input: '=2*3', type: 'number', format: null, style: { bold: true }, display: '6' })
    expect(sameStyle({ bold: true }, { bold: true, italic: undefined })).toBe(true)
    expect(sameStyle(undefined, { bold: true })).toBe(false)
  })

  it('converts column widths between CSS pixels and Excel characters and back', () => {
    for (const pixels of [64, 80, 120, 320]) expect(excelWidthToPixels(pixelsToExcelWidth(pixels))).toBe(pixels)
  })
})

describe('snapshot differences', () => {
  it('finds added, removed and changed cells, following a renamed sheet by its id', () => {
    const before = book([
      { id: 's1', name: 'Inputs', cells: [cell('A1', '10', 10), cell('A2', '20', 20), cell('A3', '=A1+A2', 30)] },
      { id: 's2', name: 'Old', cells: [cell('B1', 'gone', 'gone')] },
    ])
    const after = book([
      { id: 's1', name: 'Assumptions', cells: [cell('A1', '15', 15), cell('A3', '=A1+A2', 15), cell('C1', 'new', 'new'), cell('D1', '', null, { style: { bold: true } })] },
      { id: 's3', name: 'Fresh', cells: [cell('A1', '1', 1)] },
    ])
    const diff = diffSnapshots(before, after)
    expect(diff.sheets).toEqual({ added: ['Fresh'], removed: ['Old'], renamed: [{ from: 'Inputs', to: 'Assumptions' }] })
    expect(diff.summary).toEqual({ added: 2, removed: 2, changed: 2, inputsChanged: 5, valuesChanged: 6 })
    expect(diff.cells.map((entry) => `${entry.sheet}!${entry.address}:${entry.status}`)).toEqual([
      'Assumptions!A1:changed',
      'Assumptions!A3:changed',
      'Assumptions!C1:added',
      'Assumptions!A2:removed',
      'Fresh!A1:added',
      'Old!B1:removed',
    ])
    expect(diff.cells[1]).toMatchObject({ inputChanged: false, valueChanged: true, before: { value: 30 }, after: { value: 15 } })
    const limited = diffSnapshots(before, after, 2)
    expect(limited).toMatchObject({ truncated: true, summary: diff.summary })
    expect(limited.cells).toHaveLength(2)
    expect(snapshotStats(after)).toEqual({ sheets: 2, cells: 4, formulas: 1 })
  })
})
