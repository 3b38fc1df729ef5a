import { describe, expect, it } from 'vitest'
import {
  columnToLetters,
  formatAddress,
  formatRange,
  formatSheetPrefix,
  lettersToColumn,
  parseAddress,
  tryParseAddress,
  tryParseRange,
} from './a1.js'

describe('A1 addresses', () => {
  it('converts column letters both ways', () => {
    for (const [col, letters] of [
      [0, 'A'],
      [25, 'Z'],
      [26, 'AA'],
      [701, 'ZZ'],
      [702, 'AAA'],
      [16383, 'XFD'],
    ] as const) {
      expect(columnToLetters(col)).toBe(letters)
      expect(lettersToColumn(letters)).toBe(col)
      expect(lettersToColumn(letters.toLowerCase())).toBe(col)
    }
    expect(lettersToColumn('XFE')).toBe(-1)
    expect(lettersToColumn('A1')).toBe(-1)
  })

  it('parses and formats cell addresses', () => {
    expect(tryParseAddress('B3')).toEqual({ row: 2, col: 1 })
    expect(tryParseAddress('$b$3')).toEqual({ row: 2, col: 1 })
    expect(tryParseAddress(' XFD1048576 ')).toEqual({ row: 1_048_575, col: 16_383 })
    for (const bad of ['', 'A0', 'A01', '1A', 'XFE1', 'A1048577', 'AAAA1', 'A1B', 'A 1', '$$A1', 'A-1']) {
      expect(tryParseAddress(bad), bad).toBeUndefined()
    }
    expect(() => parseAddress('A0')).toThrow(/Invalid cell address/)
    expect(formatAddress(2, 1)).toBe('B3')
  })

  it('parses and formats ranges, whole columns and whole rows', () => {
    expect(tryParseRange('C3:A1')).toEqual({ top: 0, left: 0, bottom: 2, right: 2 })
    expect(tryParseRange('B:D')).toEqual({ top: 0, left: 1, bottom: 1_048_575, right: 3 })
    expect(tryParseRange('2:5')).toEqual({ top: 1, left: 0, bottom: 4, right: 16_383 })
    expect(tryParseRange('A1')).toEqual({ top: 0, left: 0, bottom: 0, right: 0 })
    expect(tryParseRange('A1:B2:C3')).toBeUndefined()
    expect(formatRange({ top: 0, left: 1, bottom: 1_048_575, right: 3 })).toBe('B:D')
    expect(formatRange({ top: 1, left: 0, bottom: 4, right: 16_383 })).toBe('2:5')
    expect(formatRange({ top: 0, left: 0, bottom: 2, right: 2 })).toBe('A1:C3')
  })

  it('quotes sheet names only when needed', () => {
    expect(formatSheetPrefix('Sheet1')).toBe('Sheet1')
    expect(formatSheetPrefix('My Sheet')).toBe("'My Sheet'")
    expect(formatSheetPrefix("Bob's")).toBe("'Bob''s'")
    expect(formatSheetPrefix('A1')).toBe("'A1'")
    expect(formatSheetPrefix('2024')).toBe("'2024'")
  })
})

describe('R1C1 references', () => {
  it('become A1 text seen from a cell', async () => {
    const { r1c1ToA1 } = await import('./r1c1.js')
    expect(r1c1ToA1('R2C3', 9, 9)).toBe('$C$2')
    expect(r1c1ToA1('R[1]C[-1]', 4, 4)).toBe('D6')
    expect(r1c1ToA1('RC', 0, 0)).toBe('A1')
    expect(r1c1ToA1("'My Sheet'!R1C1:R2C2", 0, 0)).toBe("'My Sheet'!$A$1:$B$2")
    expect(r1c1ToA1('R[-1]C', 0, 0)).toBeUndefined()
    expect(r1c1ToA1('A1', 0, 0)).toBeUndefined()
  })
})
