import { describe, expect, it } from 'vitest'
import type { WorkbookCommand } from '@finsheet/contracts'
import { WorkbookModel } from './workbook-model.js'
import type { TableRecord, WorkbookSnapshot } from './snapshot.js'

const SALES: TableRecord = {
  name: 'Sales',
  sheet: 'Data',
  range: 'A1:C6',
  headerRow: true,
  totalsRow: true,
  columns: ['Region', 'Units', 'Price'],
  style: 'TableStyleMedium2',
}

function salesModel(): WorkbookModel {
  const model = new WorkbookModel({
    sheets: [
      { id: 's1', name: 'Data', columnWidths: {}, merges: [] },
      { id: 's2', name: 'Summary', columnWidths: {}, merges: [] },
    ],
    tables: [SALES],
  })
  model.apply([
    {
      type: 'set-cells',
      sheet: 'Data',
      cells: [
        ['A1', 'Region'], ['B1', 'Units'], ['C1', 'Price'],
        ['A2', 'North'], ['B2', '10'], ['C2', '2.5'],
        ['A3', 'South'], ['B3', '20'], ['C3', '3'],
        ['A4', 'East'], ['B4', '30'], ['C4', '4'],
        ['A5', 'West'], ['B5', '40'], ['C5', '1.5'],
        ['A6', 'Total'], ['B6', '=SUBTOTAL(109,Sales[Units])'],
        ['D2', '=Sales[@Units]*Sales[@Price]'],
      ].map(([address, input]) => ({ address, input })),
    },
    {
      type: 'set-cells',
      sheet: 'Summary',
      cells: [
        { address: 'A1', input: '=SUM(Sales[Units])' },
        { address: 'A2', input: '=SUMPRODUCT(Sales[Units],Sales[Price])' },
        { address: 'A3', input: '=ROWS(Sales)' },
      ],
    },
  ])
  return model
}

const value = (model: WorkbookModel, sheet: string, address: string) => model.engine.getValue(sheet, address)

describe('tables in the workbook model', () => {
  it('evaluates structured references against the tables it was built with', () => {
    const model = salesModel()
    expect(value(model, 'Summary', 'A1')).toBe(100)
    expect(value(model, 'Summary', 'A2')).toBe(265)
    expect(value(model, 'Data', 'B6')).toBe(100)
    expect(value(model, 'Data', 'D2')).toBe(25)
  })

  it('keeps its tables, styles included, in its snapshot and back', () => {
    const model = salesModel()
    const snapshot = model.snapshot('Book')
    expect(snapshot.tables).toEqual([SALES])
    const copy = WorkbookModel.fromSnapshot(snapshot, 1)
    expect(copy.tables).toEqual([SALES])
    expect(value(copy, 'Summary', 'A2')).toBe(265)
    expect(copy.snapshot('Book')).toEqual({ ...snapshot, revision: 1 })
  })

  it('writes no tables key for a workbook without tables', () => {
    const model = new WorkbookModel({ sheets: [{ id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] }] })
    expect('tables' in model.snapshot('Book')).toBe(false)
  })

  it('grows a table when rows are inserted inside it, and its inverse shrinks it back', () => {
    const model = salesModel()
    const result = model.apply([{ type: 'insert-rows', sheet: 'Data', at: 2, count: 2 }])
    expect(model.tables[0].range).toBe('A1:C8')
    model.apply([{ type: 'set-cells', sheet: 'Data', cells: [{ address: 'B3', input: '5' }, { address: 'B4', input: '6' }] }])
    expect(value(model, 'Summary', 'A1')).toBe(111)
    expect(value(model, 'Summary', 'A3')).toBe(6)
    expect(value(model, 'Data', 'B8')).toBe(111)
    model.apply([{ type: 'set-cells', sheet: 'Data', cells: [{ address: 'B3', input: '' }, { address: 'B4', input: '' }] }])
    model.apply(result.inverse as WorkbookCommand[])
    expect(model.tables[0].range).toBe('A1:C6')
    expect(value(model, 'Summary', 'A1')).toBe(100)
  })

  it('shrinks a table when rows inside it are deleted', () => {
    const model = salesModel()
    model.apply([{ type: 'delete-rows', sheet: 'Data', at: 1, count: 1 }])
    expect(model.tables[0].range).toBe('A1:C5')
    expect(value(model, 'Summary', 'A1')).toBe(90)
    expect(value(model, 'Summary', 'A3')).toBe(3)
  })

  it('follows a header typed over: formulas naming the column are rewritten', () => {
    const model = salesModel()
    model.apply([{ type: 'set-cells', sheet: 'Data', cells: [{ address: 'B1', input: 'Quantity' }] }])
    expect(model.tables[0].columns).toEqual(['Region', 'Quantity', 'Price'])
    expect(model.engine.getFormula('Summary', 'A1')).toBe('=SUM(Sales[Quantity])')
    expect(value(model, 'Summary', 'A1')).toBe(100)
    const summary = model.snapshot('Book').sheets.find((sheet) => sheet.name === 'Summary')
    expect(summary?.cells.find((cell) => cell.address === 'A2')?.input).toBe('=SUMPRODUCT(Sales[Quantity],Sales[Price])')
  })

  it('keeps its tables through a renamed and a moved sheet', () => {
    const model = salesModel()
    model.apply([{ type: 'rename-sheet', from: 'Data', to: 'Facts' }])
    expect(model.tables[0].sheet).toBe('Facts')
    model.apply([{ type: 'move-sheet', name: 'Summary', index: 0 }])
    expect(model.tables).toEqual([{ ...SALES, sheet: 'Facts' }])
    expect(value(model, 'Summary', 'A2')).toBe(265)
  })

  it('drops a table that cannot be placed (overlapping another) instead of failing the load', () => {
    const snapshot: WorkbookSnapshot = {
      ...salesModel().snapshot('Book'),
      tables: [SALES, { ...SALES, name: 'Clash', range: 'B2:D4' }],
    }
    expect(WorkbookModel.fromSnapshot(snapshot, 1).tables.map((table) => table.name)).toEqual(['Sales'])
  })
})
