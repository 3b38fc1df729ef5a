import { describe, expect, it } from 'vitest'
import { Value } from 'typebox/value'
import { ImportWorkbookBody } from '@finsheet/contracts'
import { WorkbookStore } from '../workbook/workbook-store'
import { addFiguresCommand, figuresSheetName, figuresWorkbook } from './pdf-figures'

const entries = [
  { label: 'Total revenue', value: 1234.5, notes: '2023: 1,100.0' },
  { label: '2024 net income', value: -12.5, notes: '' },
]

describe('PDF figures as a sheet', () => {
  it('adds a sheet named after the document with Label, Value and Notes, one undo removing it', () => {
    const store = new WorkbookStore({ id: 'wb', sheets: [{ name: 'Sheet1', cells: {} }] })
    const { sheet, command } = addFiguresCommand('Annual report.pdf', entries, store.sheetNames)
    expect(sheet).toBe('Annual report')
    store.dispatch(command)
    const shown = (address: string) => store.getDisplay(sheet, { col: address.charCodeAt(0) - 65, row: Number(address.slice(1)) - 1 })
    expect(['A1', 'B1', 'C1'].map(shown)).toEqual(['Label', 'Value', 'Notes'])
    expect(store.getStyle(sheet, { col: 0, row: 0 })).toMatchObject({ bold: true })
    expect([shown('A2'), store.getValue(sheet, { col: 1, row: 1 }), shown('C2')]).toEqual(['Total revenue', 1234.5, '2023: 1,100.0'])
    expect([shown('A3'), store.getValue(sheet, { col: 1, row: 2 })]).toEqual(['2024 net income', -12.5])
    store.undo()
    expect(store.sheetNames).toEqual(['Sheet1'])
  })

  it('never takes a sheet name in use, and cleans what sheet names cannot hold', () => {
    expect(figuresSheetName('Q1 [draft].pdf', [])).toBe('Q1  draft')
    expect(figuresSheetName('report.pdf', ['REPORT', 'report (2)'])).toBe('report (3)')
  })

  it('is a workbook of its own the import route accepts when no workbook is open', () => {
    const body = figuresWorkbook('10-K.pdf', entries)
    expect(Value.Check(ImportWorkbookBody, body)).toBe(true)
    expect(body.name).toBe('10-K')
    expect(body.sheets[0].cells.slice(0, 3).map((cell) => cell.input)).toEqual(['Label', 'Value', 'Notes'])
  })
})
