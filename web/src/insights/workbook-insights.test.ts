import type { Cell } from '@finsheet/contracts'
import { describe, expect, it } from 'vitest'
import { analyseWorkbook, cellName, recommendationsFor } from './workbook-insights'

/** A cell as the service sends it: constants typed, formulas with their value. */
function c(input: string | number, value?: string | number | null): Cell {
  const text = String(input)
  const formula = text.startsWith('=') ? text : null
  const shown = value === undefined ? (typeof input === 'number' ? input : text) : value
  const type = typeof shown === 'number' ? 'number' : typeof shown === 'string' && shown.startsWith('#') ? 'error' : shown === null ? 'empty' : 'text'
  return { input: text, formula, value: shown, type, format: null, style: null, display: String(shown ?? '') } as Cell
}

const model: { name: string; cells: Record<string, Cell> }[] = [
  {
    name: 'Inputs',
    cells: {
      A1: c('Assumption'),
      A2: c('Growth'),
      B2: c(0.1),
      A3: c('Tax rate'),
      B3: c(0.25),
      A4: c('Forgotten'),
      B4: c(5000),
      A5: c('Shares'),
      B5: c(0, 0),
    },
  },
  {
    name: 'Model',
    cells: {
      A1: c('Year'),
      B1: c(1),
      C1: c(2),
      D1: c(3),
      E1: c(4),
      A2: c('Revenue'),
      B2: c(1000),
      C2: c('=B2*(1+Inputs!$B$2)', 1100),
      D2: c('=C2*(1+Inputs!$B$2)', 1210),
      E2: c('=D2*(1+Inputs!$B$2)', 1331),
      A3: c('Costs'),
      B3: c(400),
      C3: c(410),
      D3: c(9000),
      E3: c(420),
      F3: c(415),
      A4: c('Tax'),
      B4: c('=(B2-B3)*Inputs!B3', 150),
      C4: c('=(C2-C3)*0.3', 207),
      A5: c('Per share'),
      B5: c('=B4/Inputs!B5', '#DIV/0!'),
      C5: c('=B5*2', '#DIV/0!'),
      D5: c('=SUM(C3:E3)', 9830),
    },
  },
]

describe('insights computed from a workbook', () => {
  const insights = analyseWorkbook(model)

  it('counts sheets, cells, formulas, typed numbers, text and errors', () => {
    expect(insights.figures).toEqual({ sheets: 2, cells: 32, formulas: 8, numbers: 14, text: 10, errors: 2 })
  })

  it('finds the error that starts a chain and the one that follows from it', () => {
    expect(insights.errors.map((e) => [cellName(e), e.code, e.source, e.label])).toEqual([
      ['Model!B5', '#DIV/0!', true, 'Per share'],
      ['Model!C5', '#DIV/0!', false, 'Per share'],
    ])
    expect(insights.errorSources).toBe(1)
  })

  it('lists the largest typed numbers with their row labels', () => {
    expect(insights.largestInputs.slice(0, 3).map((e) => [cellName(e), e.value, e.label])).toEqual([
      ['Model!D3', 9000, 'Costs'],
      ['Inputs!B4', 5000, 'Forgotten'],
      ['Model!B2', 1000, 'Revenue'],
    ])
  })

  it('leaves period headers such as years out of the largest inputs', () => {
    const years = analyseWorkbook([{ name: 'P', cells: { A1: c('Year'), B1: c(2024), C1: c(2025), D1: c(2026), A2: c('Sales'), B2: c(50), C2: c('=B2*2', 100), D2: c('=C2+B2', 150) } }])
    expect(years.largestInputs.map(cellName)).toEqual(['P!B2'])
    expect(years.unusedInputs.count).toBe(0)
  })

  it('finds typed numbers that no formula reads, leaving out period headers', () => {
    expect(insights.unusedInputs.cells.map(cellName)).toEqual(['Inputs!B4', 'Model!F3'])
    expect(insights.unusedInputs.count).toBe(2)
  })

  it('finds numbers typed inside formulas', () => {
    expect(insights.hardCoded.cells.map((e) => [cellName(e), e.numbers])).toEqual([
      ['Model!C4', [0.3]],
      ['Model!C5', [2]],
    ])
  })

  it('measures how labelled rows move across their columns, and values far from their row', () => {
    const revenue = insights.trends.find((t) => t.label === 'Revenue')
    expect(revenue).toMatchObject({ sheet: 'Model', range: 'B2:E2', first: 1000, last: 1331, periods: 3 })
    expect(revenue?.growth).toBeCloseTo(0.1, 10)
    expect(insights.trends.some((t) => t.label === 'Year')).toBe(false)
    expect(insights.outliers.map((o) => [cellName(o), o.value, o.median])).toEqual([['Model!D3', 9000, 415]])
  })

  it('turns the findings into advice, most pressing first', () => {
    expect(insights.recommendations).toEqual([
      'Fix 2 cells showing errors: 1 cell cause the rest. Start with Model!B5 (#DIV/0!).',
      'Move the numbers typed inside 2 formulas into labelled input cells, where they can be seen and changed once. First: Model!C4 =(C2-C3)*0.3.',
      '2 typed numbers are not read by any formula. Check whether the model should use them, starting with Inputs!B4.',
      '1 value stands far from the rest of its row. Check Model!D3.',
    ])
  })

  it('says when a workbook has nothing to fix, or no formulas at all', () => {
    const clean = analyseWorkbook([{ name: 'S', cells: { A1: c('Price'), B1: c(10), A2: c('Total'), B2: c('=SUM(B1)', 10) } }])
    expect(clean.recommendations).toEqual(['No problems found: no errors, no numbers typed inside formulas, and every typed number is used.'])
    const table = analyseWorkbook([{ name: 'S', cells: { A1: c(1), A2: c(2) } }])
    expect(table.recommendations[0]).toContain('no formulas')
    expect(table.unusedInputs.count).toBe(0)
    expect(recommendationsFor({ ...analyseWorkbook([]) })).toEqual([])
  })

  it('quotes sheet names that need it', () => {
    expect(cellName({ sheet: 'Cash Flow', address: 'B2' })).toBe("'Cash Flow'!B2")
  })
})
