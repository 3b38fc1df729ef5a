import { describe, expect, it } from 'vitest'
import { singleCellSelection } from '../grid/selection'
import { exportRows, exportXls, sheetSaveState } from './file-exports'
import { WorkbookStore } from './workbook-store'

function storeWith(cells: Record<string, { input?: string; style?: { bold?: boolean }; format?: string }>) {
  return new WorkbookStore({ id: 'defaultWorkbook', sheets: [{ name: 'Sheet1', cells }] })
}

describe('Export (.xls)', () => {
  it("writes a 'Row' header with the column keys, then each row's number and values", () => {
    const store = storeWith({ A1: { input: 'Revenue' }, C1: { input: '100' }, A2: { input: 'Growth' }, C2: { input: '=C1*0.1' } })
    expect(exportRows(store, 'Sheet1')).toEqual([
      ['Row', 'A', 'B', 'C'],
      [1, 'Revenue', '', 100],
      [2, 'Growth', '', 10],
    ])
  })

  it("says 'No data' for an empty sheet", () => {
    expect(exportRows(storeWith({}), 'Sheet1')).toEqual([['No data']])
    expect(exportRows(storeWith({ B2: { style: { bold: true } } }), 'Sheet1')).toEqual([['No data']])
  })

  it('produces an Excel 97 workbook with one sheet named Sheet1 that reads back', async () => {
    const blob = await exportXls([['Row', 'A'], [1, 'x']])
    const bytes = new Uint8Array(await blob.arrayBuffer())
    // the compound-file signature of an Excel 97-2003 .xls
    expect(Array.from(bytes.slice(0, 8))).toEqual([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
    const XLSX = await import('@e965/xlsx')
    const book = XLSX.read(bytes, { type: 'array' })
    expect(book.SheetNames).toEqual(['Sheet1'])
    expect(XLSX.utils.sheet_to_json(book.Sheets.Sheet1, { header: 1 })).toEqual([['Row', 'A'], [1, 'x']])
  })
})

describe('Save (.json)', () => {
  it("saves the active sheet's state with values, formulas and the selection", () => {
    const store = storeWith({ B2: { input: '=1+2', style: { bold: true } }, A1: { input: 'label' } })
    const state = sheetSaveState(store, 'Sheet1', singleCellSelection({ col: 1, row: 1 }))
    expect(state.cells).toEqual({
      A1: { value: 'label', formula: null, sheetName: 'Sheet1', row: 0, column: 'A' },
      B2: { value: 3, formula: '=1+2', sheetName: 'Sheet1', row: 1, column: 'B', style: { bold: true } },
    })
    expect(state.selectedCell).toEqual({ col: 'B', row: 1, value: 3 })
    expect(state.formulaBarValue).toBe('=1+2')
    expect(state.activeView).toBe('spreadsheet')
  })
})
