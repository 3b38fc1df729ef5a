import { describe, expect, it } from 'vitest'
import { parseRangeAddress, rangeAddress } from './address'
import { MergeIndex } from './merges'

const r = (text: string) => parseRangeAddress(text)!
const clamp = (p: { col: number; row: number }) => ({ col: Math.max(0, Math.min(9, p.col)), row: Math.max(0, Math.min(9, p.row)) })

describe('MergeIndex', () => {
  const merges = new MergeIndex([r('B2:D3'), r('F1:F4'), r('A8')])

  it('ignores single-cell "merges" and finds the merge of a cell', () => {
    expect(merges.size).toBe(2)
    expect(rangeAddress(merges.at({ col: 2, row: 2 })!)).toBe('B2:D3')
    expect(merges.at({ col: 0, row: 0 })).toBeUndefined()
    expect(merges.isCovered({ col: 1, row: 1 })).toBe(false)
    expect(merges.isCovered({ col: 3, row: 2 })).toBe(true)
    expect(merges.anchorOf({ col: 3, row: 2 })).toEqual({ col: 1, row: 1 })
  })

  it('grows a selection over every merge it touches, transitively', () => {
    expect(rangeAddress(merges.expand(r('C3')))).toBe('B2:D3')
    expect(rangeAddress(merges.expand(r('D1:E2')))).toBe('B1:E3')
    expect(rangeAddress(merges.expand(r('D3:F3')))).toBe('B1:F4')
    expect(rangeAddress(merges.expand(r('H9')))).toBe('H9')
  })

  it('steps over a merged area and lands on the top-left of one', () => {
    expect(merges.step({ col: 0, row: 1 }, 1, 0, clamp)).toEqual({ col: 1, row: 1 })
    expect(merges.step({ col: 1, row: 1 }, 1, 0, clamp)).toEqual({ col: 4, row: 1 })
    expect(merges.step({ col: 1, row: 1 }, 0, 1, clamp)).toEqual({ col: 1, row: 3 })
    expect(merges.step({ col: 2, row: 3 }, 0, -1, clamp)).toEqual({ col: 1, row: 1 })
    expect(merges.step({ col: 6, row: 2 }, -1, 0, clamp)).toEqual({ col: 5, row: 0 })
  })

  it('lists the merges in view and refuses overlapping ones', () => {
    expect(merges.intersecting(r('A1:B2')).map(rangeAddress)).toEqual(['B2:D3'])
    expect(merges.overlaps(r('D3:E5'))).toBe(true)
    expect(merges.overlaps(r('G1:H2'))).toBe(false)
  })
})
