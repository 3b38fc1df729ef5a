import { describe, expect, it } from 'vitest'
import { LexicalEmbedder } from './lexical-embedder.js'
import { keyTerms, words } from './text-features.js'

const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0)

describe('the default embedder', () => {
  const embedder = new LexicalEmbedder()

  it('gives the same unit vector for the same text, mostly zeros', async () => {
    const [a] = await embedder.embedDocuments(['Unlevered free cash flow'])
    expect(await embedder.embedQuery('Unlevered free cash flow')).toEqual(a)
    expect(a).toHaveLength(1024)
    expect(cosine(a, a)).toBeCloseTo(1, 6)
    expect(a.filter((x) => x !== 0).length).toBeLessThan(1024 / 4)
  })

  it('meets abbreviations and synonyms that share no letters', () => {
    const near = (a: string, b: string) => cosine(embedder.embed(a), embedder.embed(b))
    expect(near('FCF', 'free cash flow')).toBeGreaterThan(0.4)
    expect(near('discount rate', 'WACC')).toBeGreaterThan(0.4)
    expect(near('headcount', 'number of employees')).toBeGreaterThan(0.3)
    expect(near('SG&A', 'selling, general and administrative')).toBeGreaterThan(0.4)
    expect(near('capex', 'capital expenditures')).toBeGreaterThan(near('capex', 'cost of capital'))
    expect(near('FCF', 'headcount')).toBeLessThan(0.1)
  })

  it('reads camelCase, digits, accents and ampersands as words', () => {
    expect(words('NetIncome2024')).toEqual(['net', 'incom', '2024'])
    expect(words('Dépréciation D&A')).toEqual(['depreci', 'd&a'])
    expect([...keyTerms('remove duplicates from a list')]).toEqual(expect.arrayContaining(['w:list']))
  })

  it('answers a zero vector for a text with no words, which search refuses', () => {
    expect(embedder.embed('?? -- !!').every((x) => x === 0)).toBe(true)
    expect(embedder.embed('the of and').every((x) => x === 0)).toBe(true)
  })
})
