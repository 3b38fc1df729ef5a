import { describe, expect, it } from 'vitest'
import { ColumnLayout, scrollToReveal, SheetGeometry, visibleCells, visiblePanes } from './geometry'

describe('ColumnLayout', () => {
  it('lays out default-width columns', () => {
    const layout = new ColumnLayout(50, new Map(), 100)
    expect(layout.offset(0)).toBe(0)
    expect(layout.offset(3)).toBe(300)
    expect(layout.totalWidth).toBe(5000)
    expect(layout.columnAt(0)).toBe(0)
    expect(layout.columnAt(99)).toBe(0)
    expect(layout.columnAt(100)).toBe(1)
    expect(layout.columnAt(1e9)).toBe(49)
    expect(layout.columnAt(-5)).toBe(0)
  })

  it('accounts for resized columns in offsets and hit tests', () => {
    const layout = new ColumnLayout(10, new Map([[1, 200], [4, 80]]), 100)
    expect(layout.width(1)).toBe(200)
    expect(layout.width(2)).toBe(100)
    expect([0, 1, 2, 3, 4, 5].map((c) => layout.offset(c))).toEqual([0, 100, 300, 400, 500, 580])
    expect(layout.totalWidth).toBe(1080)
    expect(layout.columnAt(299)).toBe(1)
    expect(layout.columnAt(300)).toBe(2)
    expect(layout.columnAt(579)).toBe(4)
    expect(layout.columnAt(580)).toBe(5)
  })

  it('agrees with a plain sum for any widths', () => {
    const widths = new Map<number, number>()
    for (let c = 0; c < 200; c += 7) widths.set(c, 40 + ((c * 37) % 150))
    const layout = new ColumnLayout(200, widths, 90)
    let x = 0
    for (let c = 0; c < 200; c++) {
      expect(layout.offset(c)).toBe(x)
      expect(layout.columnAt(x)).toBe(c)
      x += widths.get(c) ?? 90
    }
  })
})

describe('viewport', () => {
  const layout = new ColumnLayout(50, new Map(), 100)
  it('finds the visible rows and columns', () => {
    expect(visibleCells({ scrollLeft: 250, scrollTop: 240, width: 400, height: 240 }, layout, 100_000, 24)).toEqual({
      firstRow: 10, lastRow: 19, firstCol: 2, lastCol: 6,
    })
    expect(visibleCells({ scrollLeft: 0, scrollTop: 0, width: 400, height: 1000 }, layout, 5, 24)).toMatchObject({ lastRow: 4 })
  })

  it('scrolls just enough to reveal a cell', () => {
    const viewport = { scrollLeft: 0, scrollTop: 0, width: 400, height: 240 }
    expect(scrollToReveal(viewport, layout, 1, 5, 24)).toEqual({ scrollLeft: 0, scrollTop: 0 })
    expect(scrollToReveal(viewport, layout, 1, 10, 24)).toEqual({ scrollLeft: 0, scrollTop: 24 })
    expect(scrollToReveal(viewport, layout, 6, 0, 24)).toEqual({ scrollLeft: 300, scrollTop: 0 })
    expect(scrollToReveal({ ...viewport, scrollTop: 480, scrollLeft: 500 }, layout, 0, 2, 24)).toEqual({ scrollLeft: 0, scrollTop: 48 })
  })
})

describe('SheetGeometry', () => {
  // columns of 100 px, rows of 24 px; column B hidden, row 3 hidden and row 2 40 px high
  const geometry = () => new SheetGeometry(new ColumnLayout(50, new Map([[1, 0]]), 100), new ColumnLayout(100, new Map([[1, 40], [2, 0]]), 24), 1, 2)

  it('keeps frozen rows and columns in place while the rest scrolls under them', () => {
    const g = geometry()
    expect(g.frozenWidth).toBe(100)
    expect(g.frozenHeight).toBe(64)
    expect(g.x(0, 500)).toBe(0)
    expect(g.y(1, 1000)).toBe(24)
    expect(g.x(3, 0)).toBe(200)
    expect(g.x(3, 100)).toBe(100)
  })

  it('hit-tests the frozen area without the scroll and steps over hidden rows and columns', () => {
    const g = geometry()
    expect(g.colAt(50, 700)).toBe(0)
    expect(g.rowAt(30, 2400)).toBe(1)
    // below the frozen rows: row 3 (index 2) is hidden, so the first scrolled row shown is index 3
    expect(g.rowAt(64, 0)).toBe(3)
    // right of the frozen column: column B has no width
    expect(g.colAt(100, 0)).toBe(2)
    expect(g.rowAt(64 + 24 * 10, 24 * 5)).toBe(18)
  })

  it('reveals a scrolled cell below the frozen rows, and never scrolls for a frozen one', () => {
    const g = geometry()
    const viewport = { scrollLeft: 300, scrollTop: 240, width: 500, height: 300 }
    expect(g.reveal(viewport, 0, 0)).toEqual({ scrollLeft: 300, scrollTop: 240 })
    // row 6 (index 5) starts at 64 + 24 * 2 = 112 (row 3 is hidden): scrolled so that it sits right under the frozen rows
    expect(g.reveal(viewport, 0, 5).scrollTop).toBe(112 - 64)
    expect(g.reveal(viewport, 2, 0).scrollLeft).toBe(0)
  })

  it('splits the view into the frozen corner, frozen rows, frozen columns and the scrolling part', () => {
    const panes = visiblePanes({ scrollLeft: 0, scrollTop: 0, width: 450, height: 200 }, geometry())
    expect(panes.map((pane) => [pane.firstRow, pane.lastRow, pane.firstCol, pane.lastCol])).toEqual([
      [0, 1, 0, 0],
      [0, 1, 2, 5],
      // the hidden row 3 (index 2) is not drawn
      [3, 8, 0, 0],
      [3, 8, 2, 5],
    ])
  })
})
