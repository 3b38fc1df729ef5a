import { describe, expect, it } from 'vitest'
import { FORMULA_SEARCH_CACHE_MS, FormulaSearcher, localFormulaSearch } from './formula-search'

const catalogue = [
  { name: 'PMT', syntax: 'PMT(rate, nper, pv)', description: 'Returns the payment per period of a loan or annuity with constant payments.' },
  { name: 'IPMT', syntax: 'IPMT(rate, per, nper, pv)', description: 'Returns the interest part of the payment of a given period of a loan or annuity.' },
  { name: 'ROUND', syntax: 'ROUND(number, num_digits)', description: 'Rounds a number to a number of digits.' },
  { name: 'SUM', syntax: 'SUM(number1, ...)', description: 'Adds all the numbers in a range of cells.' },
  { name: 'MONTH', syntax: 'MONTH(serial_number)', description: 'Returns the month of a date, from 1 to 12.' },
]

describe('formula search by description', () => {
  it('answers from the catalogue by the words of the descriptions when the service is away', () => {
    expect(localFormulaSearch(catalogue, 'monthly loan payments').map((f) => f.name)).toEqual(['PMT', 'IPMT'])
    expect(localFormulaSearch(catalogue, 'monthly payment')[0].name).toBe('PMT')
    expect(localFormulaSearch(catalogue, 'rounding a number')[0].name).toBe('ROUND')
    expect(localFormulaSearch(catalogue, 'the of and')).toEqual([])
    // a function holding under half the words of the best is not offered ('number' alone: SUM)
    expect(localFormulaSearch(catalogue, 'round a number to digits').map((f) => f.name)).toEqual(['ROUND'])
  })

  it('asks the vector search, keeps its answer for two minutes, and says when it could not answer', async () => {
    let now = 0
    const calls: unknown[] = []
    const api = {
      async post<T>(path: string, body?: unknown): Promise<T> {
        calls.push([path, body])
        return { query: 'monthly payment', results: [{ name: 'PMT', syntax: 'PMT(rate, nper, pv)', description: 'payment', category: 'Financial', example: '', score: 1 }] } as T
      },
    }
    const searcher = new FormulaSearcher(api, () => now)
    expect(await searcher.search('Monthly payment')).toEqual([{ name: 'PMT', syntax: 'PMT(rate, nper, pv)', description: 'payment' }])
    expect(calls).toEqual([['/vectordb/search/formulas', { query: 'monthly payment', options: { limit: 8 } }]])
    await searcher.search('monthly payment')
    expect(calls).toHaveLength(1)
    now += FORMULA_SEARCH_CACHE_MS
    await searcher.search('monthly payment')
    expect(calls).toHaveLength(2)

    const down = new FormulaSearcher({ post: async () => Promise.reject(new Error('API Error 503: The vectordb service is unavailable')) })
    expect(await down.search('monthly payment')).toBeNull()
  })
})
