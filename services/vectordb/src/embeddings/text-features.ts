import { stemmer } from 'stemmer'
import { FINANCE_VOCABULARY } from './finance-vocabulary.js'

/**
 * Words of a text as the default embedder reads them: accents removed, camelCase and letter-digit
 * boundaries split ('NetIncome2024' → net, income, 2024), lower case, each word stemmed (Porter), and
 * '&' kept inside abbreviations (D&A, SG&A, P&L).
 */
export function words(text: string): string[] {
  const plain = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .replace(/(\d)([A-Za-z])/g, '$1 $2')
    .toLowerCase()
  return (plain.match(/[a-z0-9]+(?:&[a-z0-9]+)*/g) ?? []).map(stem)
}

const stem = (word: string) => (word.length > 3 && !word.includes('&') && !/\d/.test(word) ? stemmer(word) : word)

/** Words that say nothing about what a text means. */
const STOP_WORDS = new Set(
  [
    'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'can', 'do', 'does', 'for', 'from', 'give', 'gives', 'how', 'i', 'in', 'into', 'is', 'it', 'its',
    'me', 'my', 'need', 'of', 'on', 'or', 'our', 'show', 'that', 'the', 'their', 'them', 'then', 'there', 'these', 'this', 'to', 'was', 'we', 'what',
    'which', 'who', 'will', 'with', 'want', 'would', 'you', 'your', 'function', 'formula', 'excel', 'cell', 'cells', 'whats', 'where', 'get', 'calculate',
    'calculates', 'calculation', 'compute', 'computes', 'returns', 'return', 'given', 'use', 'using', 'one', 'all', 'each', 'any', 'other', 'than',
  ].map(stem),
)

/** Words too common in this domain to tell texts apart, counted at a fraction of a word. */
const WEAK_WORDS = new Set(['value', 'values', 'number', 'numbers', 'range', 'specified', 'argument', 'list', 'result', 'data', 'text', 'total'].map(stem))

export const isStopWord = (word: string) => STOP_WORDS.has(word)
export const isWeakWord = (word: string) => WEAK_WORDS.has(word)

interface Phrase {
  words: string[]
  concept: number
}

/** Phrases of the vocabulary by their first word, longest first. */
const PHRASES = (() => {
  const byFirst = new Map<string, Phrase[]>()
  FINANCE_VOCABULARY.forEach((group, concept) => {
    for (const phrase of group) {
      const phraseWords = words(phrase)
      if (phraseWords.length === 0) continue
      const list = byFirst.get(phraseWords[0]) ?? []
      list.push({ words: phraseWords, concept })
      byFirst.set(phraseWords[0], list)
    }
  })
  for (const list of byFirst.values()) list.sort((a, b) => b.words.length - a.words.length)
  return byFirst
})()

/**
 * The vocabulary's groups a text mentions, each with the words that said it. Every phrase found
 * counts ('number of periods' says both the periods group and, inside it, 'number of'); `nested`
 * marks a phrase found inside a longer one, which says less.
 */
export function concepts(textWords: readonly string[]): Array<{ concept: number; start: number; end: number; nested: boolean }> {
  const found: Array<{ concept: number; start: number; end: number; nested: boolean }> = []
  let coveredTo = 0
  for (let i = 0; i < textWords.length; i++) {
    for (const phrase of PHRASES.get(textWords[i]) ?? []) {
      if (!phrase.words.every((word, k) => textWords[i + k] === word)) continue
      const end = i + phrase.words.length
      found.push({ concept: phrase.concept, start: i, end, nested: end <= coveredTo })
      coveredTo = Math.max(coveredTo, end)
    }
  }
  return found
}

/** The canonical name of a vocabulary group (its first phrase). */
export const conceptName = (concept: number) => FINANCE_VOCABULARY[concept][0]

/**
 * The terms of a text for exact matching: its vocabulary groups and the content words no group
 * phrase took ('remove duplicates from a list' → the unique group and 'list').
 */
export function keyTerms(text: string): Set<string> {
  const all = words(text)
  const found = concepts(all)
  const taken = new Set<number>()
  for (const { start, end } of found) for (let i = start; i < end; i++) taken.add(i)
  const terms = new Set(found.map(({ concept }) => `c:${concept}`))
  all.forEach((word, i) => {
    if (!taken.has(i) && !isStopWord(word)) terms.add(`w:${word}`)
  })
  return terms
}

/** Every term a text holds: all its content words and vocabulary groups. */
export function allTerms(text: string): Set<string> {
  const all = words(text)
  const terms = new Set(concepts(all).map(({ concept }) => `c:${concept}`))
  for (const word of all) if (!isStopWord(word)) terms.add(`w:${word}`)
  return terms
}
