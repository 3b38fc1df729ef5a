import { describe, expect, it } from 'vitest'
import { CellError } from '@finsheet/formula'
import type { ExternalLinkRecord } from './external-links.js'
import { WorkbookModel } from './workbook-model.js'

const BUDGET: ExternalLinkRecord = {
  target: '../Plans/Budget.xlsx',
  sheets: [
    { name: 'Sheet1', cells: { C8: 1250, A1: 1, A2: 2, A3: 3, B1: { error: '#N/A' } } },
    { name: 'Q1 Plan', cells: { B2: 10, B9: 90 } },
  ],
}

function linkedModel(): WorkbookModel {
  return WorkbookModel.build({
    revision: 1,
    sheets: [
      { id: 's1', name: 'Model', columnWidths: {}, merges: [] },
      { id: 's2', name: 'Notes', columnWidths: {}, merges: [] },
    ],
    definedNames: [],
    charts: [],
    externalLinks: [BUDGET],
    cells: [
      { sheetId: 's1', address: 'A1', input: '=[1]Sheet1!$C$8' },
      { sheetId: 's1', address: 'A2', input: '=SUM([1]Sheet1!A1:A3)+A1' },
      { sheetId: 's1', address: 'A3', input: "=SUM('[1]Q1 Plan'!B2:B9)" },
      { sheetId: 's1', address: 'A4', input: '=[Budget.xlsx]Sheet1!B1' },
      { sheetId: 's1', address: 'A5', input: '=[1]Sheet1!C9' },
    ],
  })
}

function value(model: WorkbookModel, address: string) {
  const result = model.engine.getValue('Model', address)
  return result instanceof CellError ? result.code : result
}

describe('a workbook linked to another workbook', () => {
  it('calculates from the values kept of it, and #REF! where none is kept', () => {
    const model = linkedModel()
    expect(['A1', 'A2', 'A3', 'A4', 'A5'].map((address) => value(model, address))).toEqual([1250, 1256, 100, '#N/A', '#REF!'])
  })

  it('lists its links for the app to show them as linked', () => {
    expect(linkedModel().listExternalLinks()).toEqual([{ index: 1, target: '../Plans/Budget.xlsx', fileName: 'Budget.xlsx', sheets: ['Sheet1', 'Q1 Plan'], formulaCells: 5 }])
  })

  it('keeps the formulas unchanged through edits and row insertions', () => {
    const model = linkedModel()
    model.apply([{ type: 'insert-rows', sheet: 'Model', at: 0, count: 2 }])
    model.apply([{ type: 'set-cells', sheet: 'Model', cells: [{ address: 'B1', input: '=A3*2' }] }])
    expect(model.engine.getFormula('Model', 'A3')).toBe('=[1]Sheet1!$C$8')
    expect(model.engine.getFormula('Model', 'A4')).toBe('=SUM([1]Sheet1!A1:A3)+A3')
    expect(model.engine.getFormula('Model', 'A5')).toBe("=SUM('[1]Q1 Plan'!B2:B9)")
    expect(value(model, 'A4')).toBe(1256)
    expect(model.engine.getValue('Model', 'B1')).toBe(2500)
  })

  it('keeps its links through a snapshot stored as JSON and reloaded', () => {
    const model = linkedModel()
    const snapshot = JSON.parse(JSON.stringify(model.snapshot('Linked')))
    expect(snapshot.externalLinks).toEqual([BUDGET])
    const reloaded = WorkbookModel.fromSnapshot(snapshot, 2)
    expect(['A1', 'A2', 'A3', 'A4', 'A5'].map((address) => value(reloaded, address))).toEqual([1250, 1256, 100, '#N/A', '#REF!'])
    expect(reloaded.engine.getFormula('Model', 'A3')).toBe("=SUM('[1]Q1 Plan'!B2:B9)")
    expect(reloaded.listExternalLinks()[0].formulaCells).toBe(5)
  })

  it('keeps its links when the engine is rebuilt (a sheet moved)', () => {
    const model = linkedModel()
    model.apply([{ type: 'move-sheet', name: 'Notes', index: 0 }])
    expect(value(model, 'A1')).toBe(1250)
    expect(model.externalLinks).toEqual([BUDGET])
  })

  it('has no links in its snapshot when it has none', () => {
    const model = new WorkbookModel({ sheets: [{ id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] }] })
    expect(model.snapshot('Plain').externalLinks).toBeUndefined()
    expect(model.listExternalLinks()).toEqual([])
  })
})
