import type { FormulaMatch } from '@finsheet/contracts'
import type { VectorStore } from '@finsheet/platform'
import type { Embedder } from '../embeddings/embedder.js'
import { allTerms, isStopWord, keyTerms, words } from '../embeddings/text-features.js'
import { collectionName } from './collections.js'

/** A catalogue entry as the engine's metadata describes a function. */
export interface CatalogueEntry {
  name: string
  syntax: string
  description: string
  category: string
  example: string
}

/** Matches read from the vectors before the ranking by names and keywords. */
const CANDIDATES = 60
/** What matching every term of the query exactly adds to a function's similarity. */
const KEYWORD_WEIGHT = 0.35
/**
 * The functions most models use, which an analyst most likely means when a rarer one reads as well
 * (SUM before DSUM for 'add up a column'): a small prior, as search engines weigh popularity.
 */
const COMMON_FUNCTIONS = new Set([
  'SUM', 'AVERAGE', 'COUNT', 'COUNTA', 'MAX', 'MIN', 'IF', 'IFERROR', 'SUMIF', 'SUMIFS', 'COUNTIF', 'COUNTIFS', 'AVERAGEIF',
  'VLOOKUP', 'XLOOKUP', 'INDEX', 'MATCH', 'ROUND', 'ROUNDUP', 'ROUNDDOWN', 'TODAY', 'DATE', 'EOMONTH', 'EDATE', 'TEXT',
  'CONCAT', 'LEFT', 'RIGHT', 'MID', 'LEN', 'TRIM', 'UPPER', 'NPV', 'XNPV', 'IRR', 'XIRR', 'PMT', 'SUMPRODUCT', 'ABS', 'AND', 'OR',
])
const COMMON_PRIOR = 0.08
/** Words that function names are built of but that descriptions do not use alone. */
const NAME_PARTS = ['up', 'down', 'work', 'net', 'join', 'is', 'if', 'ifs', 'at', 'to']

/**
 * What a function is searched by: its name and the words the name is made of ('ROUNDUP': round up,
 * 'NETWORKDAYS': net work days), what it does (the description's first clause: the details after a
 * colon or semicolon are about arguments), its category and its arguments' names.
 */
export function formulaText(entry: CatalogueEntry, nameWords: string[] = []): string {
  const args = entry.syntax
    .slice(entry.syntax.indexOf('(') + 1)
    .replace(/[[\]().,]/g, ' ')
    .replace(/[_0-9]+/g, ' ')
  const purpose = entry.description.split(/[:;]/)[0]
  return `${entry.name} ${nameWords.join(' ')}. ${purpose}. ${entry.category}. ${args}`
}

/**
 * Splits a function name into words of the catalogue's own vocabulary, fewest pieces first
 * ('COUNTBLANK' → count blank, 'EOMONTH' → eo month); none when it cannot be split into known
 * words and at most one unknown piece of one or two letters.
 */
export function nameWords(name: string, vocabulary: ReadonlySet<string>): string[] {
  const text = name.toLowerCase().replace(/[^a-z]/g, '')
  // best[i]: the fewest pieces covering text[0, i), each a known word or a one- or two-letter prefix.
  const best: Array<string[] | null> = [[]]
  for (let end = 1; end <= text.length; end++) {
    best[end] = null
    for (let start = 0; start < end; start++) {
      const before = best[start]
      const piece = text.slice(start, end)
      if (!before) continue
      const known = piece.length >= 2 && vocabulary.has(piece)
      const prefix = start === 0 && piece.length <= 2 && end < text.length
      if (!known && !prefix) continue
      const candidate = [...before, piece]
      if (!best[end] || candidate.length < best[end]!.length) best[end] = candidate
    }
  }
  const split = best[text.length]
  return split && split.length > 1 ? split : []
}

/**
 * Formula search over the engine's function catalogue: every function is a point in the vector
 * store, and a query's nearest functions are ranked again with what exact words say (hybrid ranking):
 * a function named exactly comes first, a name written in the query next, and the share of the
 * query's words a function's description holds adds to its similarity.
 */
export class FormulaSearch {
  readonly collection: string
  private readonly byName = new Map<string, CatalogueEntry & { terms: Set<string>; text: string }>()
  /** Words the descriptions use as ordinary words ('average', 'round'): typed in lower case, they are not names. */
  private readonly plainWords = new Set<string>()

  constructor(
    private readonly vectors: VectorStore,
    private readonly embedder: Embedder,
    catalogue: readonly CatalogueEntry[],
  ) {
    this.collection = collectionName('formulas', embedder)
    for (const entry of catalogue) {
      for (const word of entry.description.toLowerCase().match(/[a-z0-9.]+/g) ?? []) this.plainWords.add(word)
    }
    const vocabulary = new Set([...this.plainWords, ...catalogue.map((entry) => entry.name.toLowerCase()), ...NAME_PARTS].filter((word) => /^[a-z]{2,}$/.test(word)))
    for (const entry of catalogue) {
      const text = formulaText(entry, nameWords(entry.name, vocabulary))
      this.byName.set(entry.name, { ...entry, text, terms: allTerms(text) })
    }
  }

  /**
   * Function names the query writes: in capitals, before a parenthesis, or in lower case when the
   * word is no ordinary word ('vlookup', not 'average').
   */
  private namesIn(query: string): Set<string> {
    const names = new Set<string>()
    for (const match of query.matchAll(/[A-Za-z][A-Za-z0-9.]*(\()?/g)) {
      const word = match[0].replace(/\($/, '')
      const name = word.toUpperCase()
      if (!this.byName.has(name)) continue
      if (match[1] || (word === name && word.length >= 2) || !this.plainWords.has(word.toLowerCase())) names.add(name)
    }
    // A query made of function names alone ('index match') names them, whatever their case.
    const content = (query.match(/[A-Za-z][A-Za-z0-9.]*/g) ?? []).filter((word) => !isStopWord(words(word)[0] ?? ''))
    if (content.length > 0 && content.every((word) => this.byName.has(word.toUpperCase()))) for (const word of content) names.add(word.toUpperCase())
    return names
  }

  /** Writes the catalogue into the store (at start: ids are the names, so this is idempotent). */
  async index(): Promise<number> {
    await this.vectors.ensureCollection(this.collection, this.embedder.dimensions)
    const entries = [...this.byName.values()]
    for (let start = 0; start < entries.length; start += 200) {
      const batch = entries.slice(start, start + 200)
      const vectors = await this.embedder.embedDocuments(batch.map((entry) => entry.text))
      await this.vectors.upsert(
        this.collection,
        batch.map((entry, i) => ({ id: entry.name, vector: vectors[i], payload: { name: entry.name, category: entry.category } })),
      )
    }
    return entries.length
  }

  async search(query: string, limit: number): Promise<FormulaMatch[]> {
    const typedName = query.trim().replace(/^=/, '').replace(/\(\)?$/, '').toUpperCase()
    const queryTerms = [...keyTerms(query)]
    const namesInQuery = this.namesIn(query)
    const scores = new Map<string, number>()
    const vector = await this.embedder.embedQuery(query)
    if (vector.some((x) => x !== 0)) {
      for (const match of await this.vectors.search(this.collection, vector, { limit: Math.max(CANDIDATES, limit) })) scores.set(match.id, match.score)
    }
    // Functions named in the query are candidates whatever their vectors say.
    for (const name of namesInQuery) if (this.byName.has(name) && !scores.has(name)) scores.set(name, 0)
    const ranked: FormulaMatch[] = []
    for (const [name, similarity] of scores) {
      const entry = this.byName.get(name)
      if (!entry) continue
      let score = similarity
      if (name === typedName) score += 2
      else if (namesInQuery.has(name)) score += 0.5
      else if (typedName.length >= 2 && /^[A-Z0-9.]+$/.test(typedName) && name.startsWith(typedName)) score += 0.15
      if (queryTerms.length > 0) score += (KEYWORD_WEIGHT * queryTerms.filter((term) => entry.terms.has(term)).length) / queryTerms.length
      if (COMMON_FUNCTIONS.has(name)) score += COMMON_PRIOR
      ranked.push({ name, syntax: entry.syntax, description: entry.description, category: entry.category, example: entry.example, score: Math.round(score * 10_000) / 10_000 })
    }
    return ranked.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name)).slice(0, limit)
  }
}
