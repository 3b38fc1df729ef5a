import { MAX_QUERY_LENGTH } from '@finsheet/contracts'

/** Words a query is searched by at most: a pasted page is read as its first words. */
export const MAX_QUERY_WORDS = 64

/**
 * A query as search reads it: trimmed, at most MAX_QUERY_WORDS words, or null when it holds no
 * letter or digit to search for (empty, spaces, punctuation only).
 */
export function searchableQuery(query: string): string | null {
  const text = query.slice(0, MAX_QUERY_LENGTH).trim()
  if (!/[\p{L}\p{N}]/u.test(text)) return null
  const words = text.split(/\s+/)
  return words.length > MAX_QUERY_WORDS ? words.slice(0, MAX_QUERY_WORDS).join(' ') : text
}
