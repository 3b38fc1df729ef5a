import { describe, expect, it } from 'vitest'
import {
  cellAddress,
  columnLabel,
  forEachCell,
  normaliseRange,
  parseCellAddress,
  parseColumnLabel,
  parseRangeAddress,
  rangeAddress,
} from './address'

describe('column labels', () => {
  it('runs A to Z, then AA onward', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702, 16383].map(columnLabel)).toEqual([
      'A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA', 'XFD',
    ])
  })

  it('parses back what it prints and rejects what is not a column', () => {
    for (let col = 0; col < 2000; col++) expect(parseColumnLabel(columnLabel(col))).toBe(col)
    expect(parseColumnLabel('xfd')).toBe(16383)
    expect(parseColumnLabel('XFE')).toBe(-1)
    expect(parseColumnLabel('A1')).toBe(-1)
    expect(parseColumnLabel('')).toBe(-1)
  })
})

describe('cell and range addresses', () => {
  it('prints and parses A1 addresses, with or without $', () => {
    expect(cellAddress({ col: 2, row: 9 })).toBe('C10')
    expect(parseCellAddress('C10')).toEqual({ col: 2, row: 9 })
    expect(parseCellAddress(' $c$10 ')).toEqual({ col: 2, row: 9 })
    expect(parseCellAddress('A0')).toBeNull()
    expect(parseCellAddress('A1048577')).toBeNull()
    expect(parseCellAddress('1A')).toBeNull()
    expect(parseCellAddress('Sheet1!A1')).toBeNull()
  })

  it('normalises ranges whichever corner comes first', () => {
    expect(parseRangeAddress('C4:A1')).toEqual({ startCol: 0, startRow: 0, endCol: 2, endRow: 3 })
    expect(rangeAddress(normaliseRange({ col: 2, row: 3 }, { col: 0, row: 0 }))).toBe('A1:C4')
    expect(rangeAddress(parseRangeAddress('B2')!)).toBe('B2')
    expect(parseRangeAddress('A1:B2:C3')).toBeNull()
    expect(parseRangeAddress('A1:')).toBeNull()
  })

  it('visits every cell of a range row by row', () => {
    const seen: string[] = []
    forEachCell(parseRangeAddress('A1:B2')!, (p) => seen.push(cellAddress(p)))
    expect(seen).toEqual(['A1', 'B1', 'A2', 'B2'])
  })
})
