import type { TemplateSummary } from '@finsheet/contracts'
import { describe, expect, it } from 'vitest'
import { ALL, filterTemplates, isNumericText, NO_FILTERS, popularTags } from './template-filters'

function template(id: string, name: string, category: string, difficulty: string, tags: string[], description = ''): TemplateSummary {
  return { id, name, description, category, difficulty, tags, sheets: ['Sheet1'], template: [], preview: [] } as unknown as TemplateSummary
}

const library = [
  template('dcf', 'DCF Model', 'Valuation', 'Advanced', ['Valuation', 'Investment', 'Cash Flow'], 'Discounted cash flow valuation'),
  template('three', 'Three Statement Financial Model', 'Financial Reporting', 'Intermediate', ['Financial Statements', 'Forecasting', 'Reporting']),
  template('startup', 'Startup Financial Model', 'Entrepreneurship', 'Intermediate', ['Startup', 'Fundraising', 'Forecasting'], 'burn rate and runway'),
  template('saas', 'SaaS Metrics Dashboard', 'SaaS', 'Beginner', ['SaaS', 'Metrics', 'KPIs']),
  template('re', 'Real Estate Investment Analysis', 'Real Estate', 'Intermediate', ['Real Estate', 'ROI', 'Cash Flow']),
]
const ids = (list: TemplateSummary[]) => list.map((t) => t.id)

describe('template filters', () => {
  it('lets everything through with no filters', () => {
    expect(ids(filterTemplates(library, NO_FILTERS))).toEqual(['dcf', 'three', 'startup', 'saas', 're'])
  })

  it('searches name, description and tags without regard to case', () => {
    expect(ids(filterTemplates(library, { ...NO_FILTERS, search: 'saas' }))).toEqual(['saas'])
    expect(ids(filterTemplates(library, { ...NO_FILTERS, search: 'RUNWAY' }))).toEqual(['startup'])
    expect(ids(filterTemplates(library, { ...NO_FILTERS, search: '  cash flow ' }))).toEqual(['dcf', 're'])
  })

  it('combines search, category, difficulty and one tag', () => {
    expect(ids(filterTemplates(library, { ...NO_FILTERS, difficulty: 'Intermediate' }))).toEqual(['three', 'startup', 're'])
    expect(ids(filterTemplates(library, { ...NO_FILTERS, difficulty: 'Intermediate', tag: 'Forecasting' }))).toEqual(['three', 'startup'])
    expect(ids(filterTemplates(library, { search: 'model', category: 'Entrepreneurship', difficulty: 'Intermediate', tag: 'Forecasting' }))).toEqual(['startup'])
    expect(ids(filterTemplates(library, { ...NO_FILTERS, category: 'Valuation', difficulty: 'Beginner' }))).toEqual([])
    expect(ids(filterTemplates(library, { ...NO_FILTERS, category: 'Personal Finance' }))).toEqual([])
    expect(ids(filterTemplates(library, { ...NO_FILTERS, tag: ALL, category: ALL }))).toHaveLength(5)
  })

  it('offers the most used tags first, ties in catalogue order', () => {
    const catalogue = ['Valuation', 'Investment', 'Cash Flow', 'Financial Statements', 'Forecasting', 'Reporting', 'Startup', 'Fundraising', 'SaaS']
    expect(popularTags(library, catalogue, 4)).toEqual(['Cash Flow', 'Forecasting', 'Valuation', 'Investment'])
    expect(popularTags([], catalogue)).toEqual([])
  })
})

describe('preview cells', () => {
  it('aligns numbers, percentages and accounting negatives, not labels', () => {
    for (const text of ['1,000', '8.0%', '(12.5)', '-3', '$3.2', '2.5x', '0']) expect(isNumericText(text), text).toBe(true)
    for (const text of ['Revenue', '', 'Year 1', 'FY2025 plan', '#DIV/0!']) expect(isNumericText(text), text).toBe(false)
  })
})
