import { describe, expect, it } from 'vitest'
import { contentOf, modelWorkbook, runTurn } from '../../testing/agent-workbook.js'

describe('search_workbook', () => {
  it('finds labels, names, headers and formulas by their words, best first', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'search_workbook', arguments: { query: 'tax' } },
      { name: 'search_workbook', arguments: { query: 'fcf' } },
      { name: 'search_workbook', arguments: { query: 'NPV' } },
      { name: 'search_workbook', arguments: { query: 'FY27' } },
      { name: 'search_workbook', arguments: { query: 'inventory turnover' } },
    ])
    const where = (index: number) => contentOf(turn.results[index]).hits.map((hit: { where: string }) => hit.where)
    expect(where(0).slice(0, 3)).toEqual(['Assumptions!A4', 'FCF!A4', 'TaxRate'])
    expect(where(1)[0]).toBe('FCF')
    expect(where(1)).toContain('FCF!A5')
    expect(where(2)).toEqual(['Valuation!B1'])
    expect(where(3)).toEqual(['FCF!E1'])
    expect(contentOf(turn.results[4]).hits).toEqual([])
    expect(contentOf(turn.results[4]).note).toMatch(/Nothing matched/)
  })
})
