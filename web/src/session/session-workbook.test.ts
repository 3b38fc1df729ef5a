import type { UserSession } from '@finsheet/contracts'
import { createDefaultSession } from '@finsheet/contracts'
import { describe, expect, it } from 'vitest'
import type { WorkbookSnapshot } from '../workbook/workbook-store'
import { hasRealWorkbook, sessionWorkbookSnapshot, updateSessionWorkbook } from './session-workbook'

const fresh = (): UserSession => createDefaultSession({ id: 'u1', name: 'Ada', email: 'ada@example.com' }, '2025-01-01T00:00:00.000Z')

describe('hasRealWorkbook', () => {
  it('is false for no session and for a single empty default workbook', () => {
    expect(hasRealWorkbook(null)).toBe(false)
    expect(hasRealWorkbook(fresh())).toBe(false)
  })

  it('is true once the default workbook holds something or another workbook exists', () => {
    const withCell = fresh()
    withCell.workbooks.defaultWorkbook.sheets.Sheet1.state.cells = { A1: { value: 5 } }
    expect(hasRealWorkbook(withCell)).toBe(true)
    const other = fresh()
    other.workbooks['wb-1'] = { ...other.workbooks.defaultWorkbook }
    expect(hasRealWorkbook(other)).toBe(true)
    const emptyCell = fresh()
    emptyCell.workbooks.defaultWorkbook.sheets.Sheet1.state.cells = { A1: { value: '' } }
    expect(hasRealWorkbook(emptyCell)).toBe(false)
  })
})

describe('session workbooks', () => {
  it('keeps column widths and merges of the default workbook, and drops them once they are gone', () => {
    const session = fresh()
    const resized: WorkbookSnapshot = {
      id: 'defaultWorkbook',
      sheets: [{ name: 'Sheet1', cells: { A1: { input: 'Title' } }, columnWidths: { '0': 180, '3': 44 }, merges: ['A1:C1'] }],
    }
    const entry = updateSessionWorkbook(session.workbooks.defaultWorkbook, resized, 'Sheet1', () => null, 'now')
    expect(entry.sheets.Sheet1.state.columnWidths).toEqual({ '0': 180, '3': 44 })
    expect(entry.sheets.Sheet1.state.merges).toEqual(['A1:C1'])
    const reopened = sessionWorkbookSnapshot('defaultWorkbook', entry)
    expect(reopened.sheets[0].columnWidths).toEqual({ '0': 180, '3': 44 })
    expect(reopened.sheets[0].merges).toEqual(['A1:C1'])

    const unmerged = updateSessionWorkbook(entry, { ...resized, sheets: [{ ...resized.sheets[0], merges: [], columnWidths: {} }] }, 'Sheet1', () => null, 'now')
    expect(unmerged.sheets.Sheet1.state.merges).toBeUndefined()
    expect(unmerged.sheets.Sheet1.state.columnWidths).toBeUndefined()
  })

  it('round-trips inputs, formulas, styles, formats and sheet order', () => {
    const session = fresh()
    const snapshot: WorkbookSnapshot = {
      id: 'defaultWorkbook',
      sheets: [
        { name: 'Sheet1', cells: { A1: { input: '10' }, A2: { input: '=A1*2', style: { bold: true } }, B1: { input: '0.5', format: '0%' } } },
        { name: 'Sheet2', cells: { C3: { input: 'hello' } } },
      ],
    }
    const entry = updateSessionWorkbook(session.workbooks.defaultWorkbook, snapshot, 'Sheet2', (_s, a) => (a === 'A2' ? 20 : null), 'now')
    expect(entry.sheetOrder).toEqual(['Sheet1', 'Sheet2'])
    expect(entry.activeSheet).toBe('Sheet2')
    expect(entry.totalSheets).toBe(2)
    expect(entry.sheets.Sheet1.state.cells!.A2).toEqual({ formula: '=A1*2', value: 20, style: { bold: true } })
    const back = sessionWorkbookSnapshot('defaultWorkbook', entry)
    expect(back.sheets.map((s) => s.name)).toEqual(['Sheet1', 'Sheet2'])
    expect(back.sheets[0].cells).toEqual(snapshot.sheets[0].cells)
    expect(back.sheets[1].cells).toEqual({ C3: { input: 'hello' } })
  })

  it('reads cells other clients wrote: formulas without =, numbers and booleans', () => {
    const session = fresh()
    session.workbooks.defaultWorkbook.sheets.Sheet1.state.cells = { A1: { formula: 'SUM(B1:B2)', value: 3 }, B1: { value: 1 }, B2: { value: true } }
    const snapshot = sessionWorkbookSnapshot('defaultWorkbook', session.workbooks.defaultWorkbook)
    expect(snapshot.sheets[0].cells).toEqual({ A1: { input: '=SUM(B1:B2)' }, B1: { input: '1' }, B2: { input: 'TRUE' } })
  })
})
