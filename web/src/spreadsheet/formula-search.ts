import type { SearchFormulasResponse } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'

/** A function as the formula help shows it. */
export interface FunctionHelp {
  name: string
  syntax: string
  description: string
}

/** Results for the same words are reused this long (the search cache lifetime). */
export const FORMULA_SEARCH_CACHE_MS = 2 * 60_000
/** Functions the help lists for a description. */
export const DESCRIBED_SUGGESTIONS = 8
/** How long the help waits for the vector search before it keeps the catalogue's own answer. */
const SEARCH_TIMEOUT_MS = 2_000

const STOP = new Set(['a', 'an', 'the', 'of', 'to', 'in', 'on', 'for', 'and', 'or', 'my', 'is', 'are', 'how', 'what', 'with', 'by', 'from', 'get', 'do', 'i'])

/** Rough stems, so 'payments' meets 'payment' and 'rounding' meets 'round'. */
function stems(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]+/g) ?? []).filter((word) => !STOP.has(word)).map((word) => word.replace(/(ies|es|s|ing|ed)$/, '') || word)
}

/**
 * The catalogue's own answer, for when the vector search is away: functions whose name or
 * description holds the most of the words, the name counting double.
 */
export function localFormulaSearch<T extends FunctionHelp>(catalogue: readonly T[], words: string, limit = DESCRIBED_SUGGESTIONS): T[] {
  const wanted = new Set(stems(words))
  if (wanted.size === 0) return []
  const scored = catalogue
    .map((entry) => {
      const description = new Set(stems(entry.description))
      let score = 0
      for (const word of wanted) {
        if (entry.name.toLowerCase() === word) score += 2
        else if (description.has(word)) score += 1
      }
      return { entry, score }
    })
    .filter(({ score }) => score >= 1)
  // Functions holding under half the words of the best are noise ('value' alone, for 'net present value').
  const best = Math.max(0, ...scored.map(({ score }) => score))
  return (
    scored
      .filter(({ score }) => score >= best / 2)
      // Ties go to the shorter description: the function that is about less else.
      .sort((a, b) => b.score - a.score || a.entry.description.length - b.entry.description.length || a.entry.name.localeCompare(b.entry.name))
      .slice(0, limit)
      .map(({ entry }) => entry)
  )
}

/**
 * Formula search by description for the formula bar: the vector search service ('monthly payment'
 * → PMT), its answers kept for FORMULA_SEARCH_CACHE_MS; the local catalogue when it is away.
 */
export class FormulaSearcher {
  private readonly cache = new Map<string, { at: number; results: FunctionHelp[] }>()

  constructor(
    private readonly api: Pick<ApiClient, 'post'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The service's functions for the words, or null when it could not answer. */
  async search(words: string, signal?: AbortSignal): Promise<FunctionHelp[] | null> {
    const key = words.trim().toLowerCase()
    const cached = this.cache.get(key)
    if (cached && this.now() - cached.at < FORMULA_SEARCH_CACHE_MS) return cached.results
    try {
      const timeout = AbortSignal.timeout(SEARCH_TIMEOUT_MS)
      const answer = await this.api.post<SearchFormulasResponse>('/vectordb/search/formulas', { query: key, options: { limit: DESCRIBED_SUGGESTIONS } }, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout })
      const results = answer.results.map(({ name, syntax, description }) => ({ name, syntax, description }))
      this.cache.set(key, { at: this.now(), results })
      return results
    } catch {
      return null
    }
  }
}
