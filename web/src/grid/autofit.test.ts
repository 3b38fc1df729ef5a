import { describe, expect, it } from 'vitest'
import { autoFitHeight, autoFitWidth, MAX_AUTOFIT_WIDTH } from './autofit'
import { MIN_COLUMN_WIDTH } from './geometry'

const measure = (text: string) => text.length * 7

describe('autoFitWidth', () => {
  it('fits the widest text plus padding', () => {
    expect(autoFitWidth([{ text: 'short', font: '' }, { text: 'a much longer label here', font: '' }], measure)).toBe(24 * 7 + 12)
  })

  it('measures the longest line of multi-line text', () => {
    expect(autoFitWidth([{ text: 'one\nthe second line is long', font: '' }], measure)).toBe(23 * 7 + 12)
  })

  it('keeps between the minimum and the maximum width', () => {
    expect(autoFitWidth([], measure)).toBe(MIN_COLUMN_WIDTH)
    expect(autoFitWidth([{ text: 'x', font: '' }], measure)).toBe(MIN_COLUMN_WIDTH)
    expect(autoFitWidth([{ text: 'y'.repeat(500), font: '' }], measure)).toBe(MAX_AUTOFIT_WIDTH)
  })
})

describe('autoFitHeight', () => {
  // every character 7 pixels wide
  const measure = (text: string) => text.length * 7
  const sized = (fontSize: number) => ({ text: 'x', style: { fontSize }, width: 100 })

  it('fits the largest font, and gives the default height back when it holds every text', () => {
    expect(autoFitHeight([sized(12), sized(11)], 24, measure)).toBeNull()
    expect(autoFitHeight([sized(12), sized(28)], 24, measure)).toBe(43)
    expect(autoFitHeight([], 24, measure)).toBeNull()
  })

  it('fits the lines of wrapped text at its column width, and ignores text that does not wrap', () => {
    const text = 'Revenue growth assumed flat after year five'
    // 92 pixels of room, 13 characters: Revenue / growth / assumed flat / after year / five, 15 pixels each
    expect(autoFitHeight([{ text, style: { wrap: true }, width: 100 }], 24, measure)).toBe(83)
    expect(autoFitHeight([{ text, style: { wrap: true }, width: 400 }], 24, measure)).toBeNull()
    expect(autoFitHeight([{ text, width: 100 }], 24, measure)).toBeNull()
  })
})
