import { describe, expect, it } from 'vitest'
import { cellAddress, rangeAddress } from './address'
import type { NavigationContext, NavigationKey } from './navigation'
import { jumpToDataEdge, navigate } from './navigation'
import { extendSelection, selectionRange, singleCellSelection } from './selection'

const bounds = { columnCount: 10, rowCount: 20 }
const filled = new Set(['0,3', '0,4', '0,5', '0,9', '3,0'])
const ctx: NavigationContext = {
  bounds,
  pageRows: 5,
  isFilled: (col, row) => filled.has(`${col},${row}`),
  lastUsedCell: () => ({ col: 3, row: 9 }),
}
const key = (k: string, mods: Partial<NavigationKey> = {}): NavigationKey => ({ key: k, shift: false, ctrl: false, alt: false, ...mods })
const at = (col: number, row: number) => singleCellSelection({ col, row })
const activeOf = (sel: ReturnType<typeof navigate>) => cellAddress(sel!.active)

describe('navigate', () => {
  it('moves with arrows, bounded by the grid', () => {
    expect(activeOf(navigate(at(1, 1), key('ArrowDown'), ctx))).toBe('B3')
    expect(activeOf(navigate(at(0, 0), key('ArrowUp'), ctx))).toBe('A1')
    expect(activeOf(navigate(at(0, 0), key('ArrowLeft'), ctx))).toBe('A1')
    expect(activeOf(navigate(at(9, 19), key('ArrowRight'), ctx))).toBe('J20')
  })

  it('extends the range with Shift+arrows from the focus corner', () => {
    let sel = navigate(at(1, 1), key('ArrowDown', { shift: true }), ctx)!
    sel = navigate(sel, key('ArrowRight', { shift: true }), ctx)!
    expect(rangeAddress(selectionRange(sel))).toBe('B2:C3')
    expect(cellAddress(sel.active)).toBe('B2')
    sel = navigate(sel, key('ArrowLeft', { shift: true }), ctx)!
    sel = navigate(sel, key('ArrowLeft', { shift: true }), ctx)!
    expect(rangeAddress(selectionRange(sel))).toBe('A2:B3')
  })

  it('collapses a range when an arrow is pressed without Shift', () => {
    const sel = extendSelection(at(1, 1), { col: 3, row: 3 })
    const moved = navigate(sel, key('ArrowRight'), ctx)!
    expect(rangeAddress(selectionRange(moved))).toBe('C2')
  })

  it('jumps to data edges with Ctrl+arrows as Excel does', () => {
    expect(cellAddress(jumpToDataEdge({ col: 0, row: 0 }, 0, 1, bounds, ctx.isFilled))).toBe('A4')
    expect(cellAddress(jumpToDataEdge({ col: 0, row: 3 }, 0, 1, bounds, ctx.isFilled))).toBe('A6')
    expect(cellAddress(jumpToDataEdge({ col: 0, row: 5 }, 0, 1, bounds, ctx.isFilled))).toBe('A10')
    expect(cellAddress(jumpToDataEdge({ col: 0, row: 9 }, 0, 1, bounds, ctx.isFilled))).toBe('A20')
    expect(cellAddress(jumpToDataEdge({ col: 0, row: 0 }, 1, 0, bounds, ctx.isFilled))).toBe('D1')
    expect(activeOf(navigate(at(0, 0), key('ArrowDown', { ctrl: true, shift: true }), ctx))).toBe('A1')
  })

  it('handles Home, Ctrl+Home, Ctrl+End and page keys', () => {
    expect(activeOf(navigate(at(5, 7), key('Home'), ctx))).toBe('A8')
    expect(activeOf(navigate(at(5, 7), key('Home', { ctrl: true }), ctx))).toBe('A1')
    expect(activeOf(navigate(at(0, 0), key('End', { ctrl: true }), ctx))).toBe('D10')
    expect(navigate(at(0, 0), key('End'), ctx)).toBeNull()
    expect(activeOf(navigate(at(0, 0), key('PageDown'), ctx))).toBe('A6')
    expect(activeOf(navigate(at(0, 2), key('PageUp'), ctx))).toBe('A1')
    expect(navigate(at(0, 0), key('PageDown', { ctrl: true }), ctx)).toBeNull()
  })

  it('moves down on Enter and right on Tab, backwards with Shift, and within a block', () => {
    expect(activeOf(navigate(at(2, 2), key('Enter'), ctx))).toBe('C4')
    expect(activeOf(navigate(at(2, 2), key('Enter', { shift: true }), ctx))).toBe('C2')
    expect(activeOf(navigate(at(2, 2), key('Tab'), ctx))).toBe('D3')
    expect(activeOf(navigate(at(2, 2), key('Tab', { shift: true }), ctx))).toBe('B3')
    const block = extendSelection(at(0, 0), { col: 0, row: 1 })
    const next = navigate(block, key('Enter'), ctx)!
    expect(cellAddress(next.active)).toBe('A2')
    expect(rangeAddress(selectionRange(next))).toBe('A1:A2')
  })

  it('ignores keys that do not navigate', () => {
    expect(navigate(at(0, 0), key('a'), ctx)).toBeNull()
    expect(navigate(at(0, 0), key('F2'), ctx)).toBeNull()
  })
})

describe('hidden rows and columns', () => {
  const ctx = {
    bounds: { columnCount: 10, rowCount: 10 },
    pageRows: 3,
    isFilled: () => false,
    lastUsedCell: () => ({ col: 0, row: 0 }),
    hiddenRow: (row: number) => row === 2 || row === 3 || row === 9,
    hiddenColumn: (col: number) => col === 1,
  }
  const press = (key: string, shift = false) => ({ key, shift, ctrl: false, alt: false })
  it('steps over hidden rows and columns, and stays on the last shown one at the edge', () => {
    expect(navigate(singleCellSelection({ col: 0, row: 1 }), press('ArrowDown'), ctx)?.active).toEqual({ col: 0, row: 4 })
    expect(navigate(singleCellSelection({ col: 0, row: 4 }), press('ArrowUp'), ctx)?.active).toEqual({ col: 0, row: 1 })
    expect(navigate(singleCellSelection({ col: 0, row: 1 }), press('Enter'), ctx)?.active).toEqual({ col: 0, row: 4 })
    expect(navigate(singleCellSelection({ col: 0, row: 0 }), press('ArrowRight'), ctx)?.active).toEqual({ col: 2, row: 0 })
    expect(navigate(singleCellSelection({ col: 0, row: 8 }), press('ArrowDown'), ctx)?.active).toEqual({ col: 0, row: 8 })
  })
})
