import { describe, expect, it } from 'vitest'
import { LABEL_MATCH_THRESHOLD, labelSimilarity, labelTokens } from './text-match.js'

describe('labelSimilarity', () => {
  it('ignores case, spacing and punctuation', () => {
    expect(labelSimilarity('ebitda', 'EBITDA')).toBe(1)
    expect(labelSimilarity('E.B.I.T.D.A.', 'EBITDA')).toBeGreaterThanOrEqual(0.95)
    expect(labelSimilarity('free  cash-flow', 'Free Cash Flow')).toBe(1)
  })

  it('reads common finance abbreviations and plurals as their words', () => {
    expect(labelSimilarity('Rev', 'Revenue')).toBe(1)
    expect(labelSimilarity('D&A', 'Depreciation & amortization')).toBe(1)
    expect(labelSimilarity('capex', 'Capital expenditures')).toBe(1)
    expect(labelSimilarity('FCF', 'Free cash flow')).toBe(1)
    expect(labelSimilarity('Free cash flows', 'Free Cash Flow')).toBe(1)
  })

  it('reads periods as periods: FY27, FY2027, 2027E and 2027 are one year, FY2026 is another', () => {
    expect(labelTokens('FY27')).toEqual(['y2027'])
    expect(labelSimilarity('FY2027', '2027E')).toBe(1)
    expect(labelSimilarity('FY 2027', 'FY27')).toBe(1)
    expect(labelSimilarity('FY2027', '2027')).toBe(1)
    expect(labelSimilarity('Q1 2025', '1Q25')).toBe(1)
    expect(labelSimilarity('FY2026', 'FY2027')).toBe(0)
    expect(labelSimilarity('Jan-25', 'January 2025')).toBe(1)
  })

  it('forgives a typo but not a different label', () => {
    expect(labelSimilarity('Reveune', 'Revenue')).toBeGreaterThanOrEqual(LABEL_MATCH_THRESHOLD)
    expect(labelSimilarity('Revenue', 'Tax rate')).toBeLessThan(LABEL_MATCH_THRESHOLD)
  })

  it('ranks the exact label above a longer one that contains it', () => {
    expect(labelSimilarity('EBITDA', 'EBITDA')).toBeGreaterThan(labelSimilarity('EBITDA', 'EBITDA margin'))
  })
})
