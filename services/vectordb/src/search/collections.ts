import { createHash } from 'node:crypto'
import type { Embedder } from '../embeddings/embedder.js'

/**
 * A collection per kind of point and per embedder: the name carries a digest of the embedder's id
 * and vector size, so a change of embedder starts new collections (indexed afresh) instead of
 * comparing vectors of two models.
 */
export function collectionName(kind: 'formulas' | 'cells', embedder: Pick<Embedder, 'id' | 'dimensions'>): string {
  const digest = createHash('sha256').update(`${embedder.id}:${embedder.dimensions}`).digest('hex').slice(0, 12)
  return `${kind}_${digest}`
}
