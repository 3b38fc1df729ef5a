import { describe, expect, it } from 'vitest'
import { rangeSelection, singleCellSelection } from '../grid/selection'
import { Workspace } from '../spreadsheet/workspace'
import { contextOf, historyOf, MAX_CONTEXT_CELLS, rangeOn, selectionText } from './assistant-context'
import type { Message } from './conversation'

function workspace(): Workspace {
  const ws = new Workspace()
  ws.open({ id: 'wb', sheets: [{ name: 'Plan', cells: { A1: { input: 'Revenue' }, B1: { input: '1200' }, B2: { input: '=B1*2' } } }] })
  return ws
}

describe('contextOf', () => {
  it('sends the sheet, the selected cells, the range and the cell a formula would go into', () => {
    const ws = workspace()
    ws.setSelection(rangeSelection({ startCol: 1, startRow: 0, endCol: 2, endRow: 1 }))
    expect(contextOf(ws.state)).toEqual({ activeSheet: 'Plan', selectedCells: ['B1', 'C1', 'B2', 'C2'], selectedRange: 'B1:C2', targetCell: 'B1' })
  })

  it('sends at most the service’s number of selected cells, and nothing without a workbook', () => {
    const ws = workspace()
    ws.setSelection(rangeSelection({ startCol: 0, startRow: 0, endCol: 9, endRow: 499 }))
    const context = contextOf(ws.state)
    expect(context.selectedCells).toHaveLength(MAX_CONTEXT_CELLS)
    expect(context.selectedRange).toBe('A1:J500')
    expect(contextOf(new Workspace().state)).toEqual({})
  })
})

describe('selectionText', () => {
  it("says 'Selected: address = value', 'empty', or the range and its size", () => {
    const ws = workspace()
    ws.setSelection(singleCellSelection({ col: 1, row: 1 }))
    expect(selectionText(ws.state)).toBe('Selected: B2 = 2400')
    ws.setSelection(singleCellSelection({ col: 3, row: 3 }))
    expect(selectionText(ws.state)).toBe('Selected: D4 = empty')
    ws.setSelection(rangeSelection({ startCol: 0, startRow: 0, endCol: 1, endRow: 3 }))
    expect(selectionText(ws.state)).toBe('Selected: A1:B4 (8 cells)')
  })
})

describe('historyOf', () => {
  it('sends the finished turns, oldest first, without notices or failed answers', () => {
    const at = '2026-01-01T00:00:00Z'
    const messages: Message[] = [
      { id: 'n', role: 'assistant', at, route: 'notice', text: 'Plan.xlsx is open', status: 'done', steps: [] },
      { id: 'u1', role: 'user', text: 'What is WACC?', at },
      { id: 'a1', role: 'assistant', at, route: 'chat', text: 'The weighted average cost of capital.', status: 'done', steps: [] },
      { id: 'u2', role: 'user', text: 'And IRR?', at },
      { id: 'a2', role: 'assistant', at, route: 'chat', text: '', status: 'error', steps: [] },
      { id: 'a3', role: 'assistant', at, route: 'chat', text: 'The rate at which', status: 'stopped', steps: [] },
    ]
    expect(historyOf(messages)).toEqual([
      { role: 'user', content: 'What is WACC?' },
      { role: 'assistant', content: 'The weighted average cost of capital.' },
      { role: 'user', content: 'And IRR?' },
    ])
  })
})

describe('rangeOn', () => {
  it('reads a range on its sheet, quoted names included', () => {
    expect(rangeOn('B2:C4', 'Plan')).toEqual({ sheet: 'Plan', range: { startCol: 1, startRow: 1, endCol: 2, endRow: 3 } })
    expect(rangeOn("'Cash Flow'!A1", 'Plan')).toEqual({ sheet: 'Cash Flow', range: { startCol: 0, startRow: 0, endCol: 0, endRow: 0 } })
    expect(rangeOn('not a range', 'Plan')).toBeNull()
  })
})
