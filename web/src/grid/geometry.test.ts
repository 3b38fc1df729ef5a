import { describe, expect, it } from 'vitest'
import { ColumnLayout, scrollToReveal, visibleCells } from './geometry'

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
