import type { Embedder } from './embedder.js'
import { concepts, isStopWord, isWeakWord, words } from './text-features.js'

export interface LexicalEmbedderOptions {
  /** Vector size; features are hashed into it. */
  dimensions?: number
}

/** How much each kind of feature counts, relative to a word. */
const WEIGHTS = {
  word: 1,
  weakWord: 0.35,
  /** A word inside a vocabulary phrase: the phrase's group says most of what it means. */
  phraseWord: 0.5,
  concept: 2,
  pair: 0.5,
  trigram: 0.15,
}

export const DEFAULT_LEXICAL_DIMENSIONS = 1024

/**
 * The default embedder: no network, no model file, the same vector for the same text on every
 * machine. A text becomes weighted features hashed into a fixed-size vector (signed feature
 * hashing): its stemmed words, pairs of neighbouring words, the letter trigrams of each word (so
 * 'amortisation' still meets 'amortization', and a typo most of a word), and the finance and
 * spreadsheet vocabulary's groups it mentions (so 'FCF' meets 'free cash flow', 'headcount' meets
 * 'employees'). The vector is unit length; most of its components are zero.
 */
export class LexicalEmbedder implements Embedder {
  readonly dimensions: number
  readonly id: string

  constructor(options: LexicalEmbedderOptions = {}) {
    this.dimensions = options.dimensions ?? DEFAULT_LEXICAL_DIMENSIONS
    this.id = `finsheet-lexical-1-${this.dimensions}`
  }

  async embedDocuments(texts: readonly string[]): Promise<number[][]> {
    return texts.map((text) => this.embed(text))
  }

  async embedQuery(text: string): Promise<number[]> {
    return this.embed(text)
  }

  /** The weighted features of a text, before hashing; for tests and for explaining a match. */
  features(text: string): Map<string, number> {
    const features = new Map<string, number>()
    const add = (feature: string, weight: number) => features.set(feature, (features.get(feature) ?? 0) + weight)
    const all = words(text)
    const seen = new Set<number>()
    const inPhrase = new Set<number>()
    for (const found of concepts(all)) {
      for (let i = found.start; i < found.end; i++) inPhrase.add(i)
      if (found.nested && seen.has(found.concept)) continue
      seen.add(found.concept)
      add(`c:${found.concept}`, found.nested ? WEIGHTS.concept / 2 : WEIGHTS.concept)
    }
    const content = all.filter((word) => !isStopWord(word))
    all.forEach((word, i) => {
      if (isStopWord(word)) return
      add(`w:${word}`, isWeakWord(word) ? WEIGHTS.weakWord : inPhrase.has(i) ? WEIGHTS.phraseWord : WEIGHTS.word)
      if (word.length >= 4 && !/^\d+$/.test(word)) {
        const marked = `^${word}$`
        for (let k = 0; k + 3 <= marked.length; k++) add(`t:${marked.slice(k, k + 3)}`, WEIGHTS.trigram)
      }
    })
    for (let i = 0; i + 1 < content.length; i++) add(`p:${content[i]} ${content[i + 1]}`, WEIGHTS.pair)
    return features
  }

  embed(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0)
    for (const [feature, weight] of this.features(text)) {
      const hash = fnv1a(feature)
      // Words repeated in a text count less than in proportion (1 + log).
      const damped = weight <= 1 ? weight : 1 + Math.log(weight)
      vector[hash % this.dimensions] += hash & 0x80000000 ? -damped : damped
    }
    return normalize(vector)
  }
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  // One more mix so the low bits (the index) and the top bit (the sign) are independent.
  hash ^= hash >>> 15
  hash = Math.imul(hash, 0x2c1b3c6d)
  hash ^= hash >>> 12
  return hash >>> 0
}

function normalize(vector: number[]): number[] {
  let norm = 0
  for (const x of vector) norm += x * x
  if (norm === 0) return vector
  norm = Math.sqrt(norm)
  return vector.map((x) => x / norm)
}
