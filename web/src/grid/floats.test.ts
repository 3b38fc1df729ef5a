import { describe, expect, it } from 'vitest'
import { ColumnLayout, SheetGeometry } from './geometry'
import { anchorAt, cornerAt, cornerPoint, draggedAnchor, floatRect, MIN_FLOAT_SIZE } from './floats'

// columns 100 px wide (column B 150), rows 24 px high
const geometry = (frozenColumns = 0, frozenRows = 0) => new SheetGeometry(new ColumnLayout(50, new Map([[1, 150]]), 100), new ColumnLayout(200, new Map(), 24), frozenColumns, frozenRows)

describe('float corners', () => {
  it('a corner is a cell and an offset into it, and back', () => {
    const geo = geometry()
    const corner = cornerAt(geo, { x: 260, y: 50 })
    expect(corner).toEqual({ row: 2, col: 2, dx: 10, dy: 2 })
    expect(cornerPoint(geo, corner)).toEqual({ x: 260, y: 50 })
  })

  it('an offset wider than its cell (the column was narrowed) stays inside the cell', () => {
    expect(cornerPoint(geometry(), { row: 0, col: 0, dx: 500, dy: 0 })).toEqual({ x: 100, y: 0 })
  })
})

describe('floatRect', () => {
  const anchor = { from: { row: 4, col: 2, dx: 10, dy: 0 }, to: { row: 14, col: 5, dx: 0, dy: 12 } }

  it('scrolls with its cells', () => {
    expect(floatRect(geometry(), anchor, 100, 48)).toEqual({ x: 160, y: 48, width: 290, height: 252, hiddenLeft: 0, hiddenTop: 0 })
  })

  it('slides under frozen rows, and stays put across when anchored in a frozen column', () => {
    const frozen = floatRect(geometry(0, 3), anchor, 0, 48)
    expect(frozen.y).toBe(48)
    expect(frozen.hiddenTop).toBe(24)
    const inFrozenColumn = floatRect(geometry(3, 0), anchor, 300, 0)
    expect(inFrozenColumn.x).toBe(260)
    expect(inFrozenColumn.hiddenLeft).toBe(0)
  })
})

describe('draggedAnchor', () => {
  const geo = geometry()
  const anchor = anchorAt(geo, { x: 260, y: 48 }, 300, 240)

  it('moving keeps the size', () => {
    const moved = draggedAnchor(geo, anchor, 'move', 120, 30)
    const from = cornerPoint(geo, moved.from)
    const to = cornerPoint(geo, moved.to)
    expect(from).toEqual({ x: 380, y: 78 })
    expect([to.x - from.x, to.y - from.y]).toEqual([300, 240])
  })

  it('the bottom-right handle resizes and keeps the top-left corner; no smaller than the least size', () => {
    const bigger = draggedAnchor(geo, anchor, 'se', 50, 20)
    expect(bigger.from).toEqual(anchor.from)
    expect(cornerPoint(geo, bigger.to)).toEqual({ x: 610, y: 308 })
    const tiny = draggedAnchor(geo, anchor, 'nw', 1000, 1000)
    expect(cornerPoint(geo, tiny.to).x - cornerPoint(geo, tiny.from).x).toBe(MIN_FLOAT_SIZE)
  })

  it('cannot leave the sheet past A1', () => {
    expect(cornerPoint(geo, draggedAnchor(geo, anchor, 'move', -5000, -5000).from)).toEqual({ x: 0, y: 0 })
  })
})
