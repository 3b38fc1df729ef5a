import { describe, expect, it } from 'vitest'
import { rangeAddress } from './address'
import {
  cycleActiveCell,
  extendSelection,
  isMultiCellSelection,
  selectAll,
  selectColumns,
  selectionRange,
  selectRows,
  singleCellSelection,
} from './selection'

const bounds = { columnCount: 50, rowCount: 100 }

describe('selection', () => {
  it('extends from the anchor and keeps the active cell on it', () => {
    const start = singleCellSelection({ col: 2, row: 2 })
    const extended = extendSelection(start, { col: 0, row: 5 })
    expect(rangeAddress(selectionRange(extended))).toBe('A3:C6')
    expect(extended.active).toEqual({ col: 2, row: 2 })
    expect(isMultiCellSelection(extended)).toBe(true)
    expect(isMultiCellSelection(start)).toBe(false)
  })

  it('selects whole columns, rows and the sheet', () => {
    expect(rangeAddress(selectionRange(selectColumns(1, 2, bounds)))).toBe('B1:C100')
    expect(rangeAddress(selectionRange(selectRows(4, 4, bounds)))).toBe('A5:AX5')
    expect(rangeAddress(selectionRange(selectAll(bounds)))).toBe('A1:AX100')
  })

  it('walks the active cell down a block and wraps to the next column, keeping the block', () => {
    let sel = extendSelection(singleCellSelection({ col: 0, row: 0 }), { col: 1, row: 1 })
    const visited: string[] = []
    for (let i = 0; i < 5; i++) {
      sel = cycleActiveCell(sel, 'down')
      visited.push(`${sel.active.col},${sel.active.row}`)
    }
    expect(visited).toEqual(['0,1', '1,0', '1,1', '0,0', '0,1'])
    expect(rangeAddress(selectionRange(sel))).toBe('A1:B2')
  })

  it('walks along rows with Tab and backwards with Shift+Tab', () => {
    let sel = extendSelection(singleCellSelection({ col: 0, row: 0 }), { col: 1, row: 1 })
    sel = cycleActiveCell(sel, 'right')
    expect(sel.active).toEqual({ col: 1, row: 0 })
    sel = cycleActiveCell(sel, 'right')
    expect(sel.active).toEqual({ col: 0, row: 1 })
    sel = cycleActiveCell(sel, 'left')
    expect(sel.active).toEqual({ col: 1, row: 0 })
    sel = cycleActiveCell(singleCellSelection({ col: 0, row: 0 }), 'up')
    expect(sel.active).toEqual({ col: 0, row: 0 })
  })
})
