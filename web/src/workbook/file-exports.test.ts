import { describe, expect, it } from 'vitest'
import { singleCellSelection } from '../grid/selection'
import { sheetSaveState } from './file-exports'
import { WorkbookStore } from './workbook-store'

function storeWith(cells: Record<string, { input?: string; style?: { bold?: boolean }; format?: string }>) {
  return new WorkbookStore({ id: 'defaultWorkbook', sheets: [{ name: 'Sheet1', cells }] })
}

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
