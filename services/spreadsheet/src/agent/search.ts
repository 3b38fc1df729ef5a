/**
 * Finding where things live in a workbook: sheet names, defined names, row labels, column headers,
 * text cells and formulas, ranked by how many of the query's words they hold (abbreviations and
 * plurals matched as labels are). `searchWorkbook` is the one entry point: the vector search service
 * can answer there later, with this as its fallback.
 */
import { compactText, formatAddress, formatRange, formatSheetPrefix, labelTokens } from '@finsheet/workbook'
import type { DraftSession } from './draft-session.js'

export type SearchKind = 'sheet' | 'name' | 'label' | 'header' | 'text' | 'formula'

export interface SearchHit {
  kind: SearchKind
  /** Where: `Sheet!A5`, `Sheet!C5:H5`, a sheet or a name. */
  where: string
  text: string
  score: number
}

interface Entry {
  kind: SearchKind
  where: string
  text: string
  tokens: string[]
  compact: string
}

/** Below this a match is too weak to show (one word of three in common). */
const MIN_SCORE = 0.45

/** How much a match of each kind counts: what names a thing counts more than text that mentions it. */
const KIND_WEIGHT: Record<SearchKind, number> = { sheet: 1, name: 1, label: 1, header: 0.95, text: 0.8, formula: 0.75 }

function entry(kind: SearchKind, where: string, text: string): Entry {
  return { kind, where, text, tokens: kind === 'formula' ? formulaTokens(text) : labelTokens(text), compact: compactText(text) }
}

/** The words of a formula: its function names, sheet names and defined names. */
function formulaTokens(formula: string): string[] {
  return (formula.match(/[A-Za-z_][A-Za-z0-9_.]*/g) ?? []).filter((word) => !/^[A-Za-z]{1,3}\d+$/.test(word)).map((word) => word.toLowerCase())
}

function buildIndex(session: DraftSession): Entry[] {
  const { state } = session
  const entries: Entry[] = []
  for (const sheet of state.sheets) {
    const prefix = `${formatSheetPrefix(sheet.name)}!`
    entries.push(entry('sheet', sheet.name, sheet.name))
    const layout = session.layout(sheet)
    const labelled = new Set<string>()
    for (const label of layout.labels) {
      const address = formatAddress(label.row, label.col)
      labelled.add(address)
      entries.push(entry('label', prefix + address, label.text))
    }
    for (const header of layout.headerRows) {
      for (const cell of header.cells) {
        const address = formatAddress(header.row, cell.col)
        labelled.add(address)
        entries.push(entry('header', prefix + address, cell.text))
      }
    }
    for (const text of layout.texts) {
      const address = formatAddress(text.row, text.col)
      if (!labelled.has(address)) entries.push(entry('text', prefix + address, text.text))
    }
    for (const pattern of layout.patterns) entries.push(entry('formula', prefix + formatRange(pattern), pattern.formula))
  }
  for (const name of state.definedNames) entries.push(entry('name', name.name, `${name.name} ${name.formula}`))
  return entries
}

function wordsMatch(a: string, b: string): boolean {
  if (a === b) return true
  if (/^[yqm]\d/.test(a) || /^[yqm]\d/.test(b)) return false
  return a.length >= 4 && b.length >= 4 && (a.startsWith(b) || b.startsWith(a))
}

function score(item: Entry, queryTokens: string[], queryCompact: string): number {
  let matched = 0
  for (const token of queryTokens) if (item.tokens.some((other) => wordsMatch(token, other))) matched++
  let value = 0
  // Half the query's words at least: one generic word in common ("value" of "net present value") is no match.
  if (matched > 0 && matched * 2 >= queryTokens.length) {
    const recall = matched / queryTokens.length
    const precision = item.tokens.length === 0 ? 0 : Math.min(1, matched / item.tokens.length)
    value = 0.7 * recall + 0.3 * precision
  }
  if (queryCompact.length >= 3 && item.compact.includes(queryCompact)) value = Math.max(value, 0.6) + (item.compact === queryCompact ? 0.3 : 0.1)
  return value * KIND_WEIGHT[item.kind]
}

/** The best matches of a query in a workbook as it is now (with the request's draft). */
export async function searchWorkbook(session: DraftSession, query: string, limit: number): Promise<SearchHit[]> {
  const index = session.piece('search-index', () => buildIndex(session))
  const queryTokens = labelTokens(query)
  const queryCompact = compactText(query)
  const hits: SearchHit[] = []
  for (const item of index) {
    const value = score(item, queryTokens, queryCompact)
    if (value >= MIN_SCORE) hits.push({ kind: item.kind, where: item.where, text: item.text, score: Math.round(value * 100) / 100 })
  }
  return hits.sort((a, b) => b.score - a.score).slice(0, limit)
}
