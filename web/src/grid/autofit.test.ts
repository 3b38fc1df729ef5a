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
  it('fits the largest font, and gives the default height back when it holds every text', () => {
    expect(autoFitHeight([12, 11], 24)).toBeNull()
    expect(autoFitHeight([12, 28], 24)).toBe(43)
    expect(autoFitHeight([], 24)).toBeNull()
  })
})
