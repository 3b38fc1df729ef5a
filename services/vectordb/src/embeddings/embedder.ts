/**
 * Text to vectors, behind one interface: the default needs no network and no model file; OpenAI's
 * embeddings API is used when configured. A collection's vectors all come from one embedder, named by
 * `id` and `dimensions`, so that a change of embedder indexes afresh rather than mixing vectors.
 */
export interface Embedder {
  /** Names the model and its settings; vectors from different ids are never compared. */
  readonly id: string
  readonly dimensions: number
  /** Vectors for texts to be indexed. */
  embedDocuments(texts: readonly string[]): Promise<number[][]>
  /** The vector for a query. */
  embedQuery(text: string): Promise<number[]>
}
