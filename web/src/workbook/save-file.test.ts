import { describe, expect, it } from 'vitest'
import { Value } from 'typebox/value'
import { ImportWorkbookBody } from '@finsheet/contracts'
import { singleCellSelection } from '../grid/selection'
import { readSaveFile, saveFile, SaveFileError, savedWorkbook } from './save-file'
import { WorkbookStore } from './workbook-store'

function model() {
  const store = new WorkbookStore({
    id: 'wb1',
    name: 'Acme DCF',
    sheets: [
      { name: 'Inputs', cells: { A1: { input: 'Growth', style: { bold: true } }, B1: { input: '0.05', format: '0.0%' } }, columnWidths: { 0: 160 } },
      { name: 'Model', cells: { A1: { input: '=Inputs!B1*2' }, B2: { input: '=Growth+1' } }, merges: ['C1:D1'] },
    ],
    definedNames: [{ name: 'Growth', formula: '=Inputs!$B$1' }],
  })
  store.dispatch({ type: 'set-sheet-view', sheet: 'Model', frozenRows: 1, pageSetup: { orientation: 'landscape', fitToWidth: true } })
  return store
}

describe('Save (.json)', () => {
  it('holds every sheet with inputs, styles, formats, widths, merges, layout and the names', () => {
    const file = saveFile(model(), 'Model', singleCellSelection({ col: 0, row: 0 }), new Date('2026-01-02T03:04:05Z'))
    expect(file).toMatchObject({ format: 'finsheet-save', version: 1, savedAt: '2026-01-02T03:04:05.000Z', activeSheet: 'Model', activeView: 'spreadsheet' })
    // the active sheet's state keeps its fields for readers of the older form
    expect(file.cells?.A1).toMatchObject({ formula: '=Inputs!B1*2', value: 0.1, sheetName: 'Model' })
    expect(file.workbook).toEqual({
      name: 'Acme DCF',
      sheets: [
        {
          name: 'Inputs',
          cells: [
            { address: 'A1', input: 'Growth', style: { bold: true } },
            { address: 'B1', input: '0.05', format: '0.0%' },
          ],
          columnWidths: { 0: 160 },
        },
        {
          name: 'Model',
          cells: [
            { address: 'A1', input: '=Inputs!B1*2' },
            { address: 'B2', input: '=Growth+1' },
          ],
          merges: ['C1:D1'],
          view: { frozenRows: 1, pageSetup: { orientation: 'landscape', fitToWidth: true } },
        },
      ],
      definedNames: [{ name: 'Growth', formula: '=Inputs!$B$1' }],
    })
  })

  it('is a body the workbook import route accepts, and reads back to the same workbook', () => {
    const store = model()
    const text = JSON.stringify(saveFile(store, 'Inputs', singleCellSelection({ col: 0, row: 0 })))
    const workbook = readSaveFile(text, 'fallback')
    expect(Value.Check(ImportWorkbookBody, workbook)).toBe(true)
    // opened again, it saves to the same workbook
    const reopened = new WorkbookStore({
      id: 'wb2',
      name: workbook.name,
      definedNames: workbook.definedNames,
      sheets: workbook.sheets.map((sheet) => ({
        name: sheet.name,
        cells: Object.fromEntries(sheet.cells.map((cell) => [cell.address, { input: String(cell.input), style: cell.style, format: cell.format }])),
        columnWidths: sheet.columnWidths,
        merges: sheet.merges,
        view: sheet.view,
      })),
    })
    expect(savedWorkbook(reopened)).toEqual(savedWorkbook(store))
  })

  it('reads a file of the older form (one sheet state) as a one-sheet workbook', () => {
    const older = { cells: { A1: { value: 'Revenue', formula: null, sheetName: 'Plan', row: 0, column: 'A' }, B1: { value: 3, formula: '=1+2', sheetName: 'Plan', row: 0, column: 'B' } } }
    expect(readSaveFile(JSON.stringify(older), 'spreadsheet-save')).toEqual({
      name: 'spreadsheet-save',
      sheets: [{ name: 'Plan', cells: [{ address: 'A1', input: 'Revenue' }, { address: 'B1', input: '=1+2' }] }],
    })
  })

  it('refuses what is not a save, saying why', () => {
    expect(() => readSaveFile('not json', 'x')).toThrow(SaveFileError)
    expect(() => readSaveFile('[1,2]', 'x')).toThrow('not a Finsheet save')
    expect(() => readSaveFile(JSON.stringify({ workbook: { sheets: [] } }), 'x')).toThrow('no sheets')
    expect(() => readSaveFile(JSON.stringify({ format: 'finsheet-save', version: 99, workbook: { sheets: [{ name: 'A', cells: [] }] } }), 'x')).toThrow('newer version')
  })
})
