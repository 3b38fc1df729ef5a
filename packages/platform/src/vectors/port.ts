/**
 * The vectors port: embeddings with a payload, searched by cosine similarity.
 * Adapters: exact search in process, persisted in SQLite (embedded), and Qdrant.
 */
export type PayloadValue = string | number | boolean | null

export type VectorPayload = Record<string, unknown>

/** Payload fields that must equal a value, or one of several values. */
export type VectorFilter = Record<string, PayloadValue | { $in: PayloadValue[] }>

export interface VectorPoint {
  id: string
  vector: number[]
  payload: VectorPayload
}

export interface VectorMatch {
  id: string
  /** Cosine similarity, 1 for the same direction. */
  score: number
  payload: VectorPayload
}

export interface CollectionOptions {
  indexedFields?: string[]
}

export interface VectorSearchOptions {
  limit: number
  filter?: VectorFilter
}

export interface VectorStore {
  readonly adapter: 'sqlite' | 'qdrant'
  /**
   * Creates the collection when missing; an existing one must have the same dimensions.
   * `indexedFields` are payload fields searches filter on (an owner, a workbook): stores that index
   * payloads (Qdrant) index them.
   */
  ensureCollection(name: string, dimensions: number, options?: CollectionOptions): Promise<void>
  upsert(collection: string, points: VectorPoint[]): Promise<void>
  search(collection: string, vector: number[], options: VectorSearchOptions): Promise<VectorMatch[]>
  delete(collection: string, ids: string[]): Promise<void>
  deleteWhere(collection: string, filter: VectorFilter): Promise<void>
  count(collection: string, filter?: VectorFilter): Promise<number>
  /** Reads a collection into memory now rather than on first use (in-process adapters). */
  preload?(collection: string): Promise<void>
  ping(): Promise<void>
  close(): Promise<void>
}

export class VectorStoreError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'VectorStoreError'
  }
}

const COLLECTION_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,62}$/
const PAYLOAD_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/

export function assertCollection(name: string): void {
  if (!COLLECTION_NAME.test(name)) throw new VectorStoreError(`Invalid vector collection name: ${JSON.stringify(name)}`)
}

export function assertVector(vector: number[], dimensions: number): void {
  if (!Array.isArray(vector) || vector.length !== dimensions) {
    throw new VectorStoreError(`Vector has ${Array.isArray(vector) ? vector.length : 0} dimensions, the collection ${dimensions}`)
  }
  let norm = 0
  for (const x of vector) {
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new VectorStoreError('Vector components must be finite numbers')
    norm += x * x
  }
  if (norm === 0) throw new VectorStoreError('A zero vector has no direction to compare')
}

export function assertFilter(filter: VectorFilter | undefined): void {
  for (const [key, condition] of Object.entries(filter ?? {})) {
    if (!PAYLOAD_KEY.test(key)) throw new VectorStoreError(`Invalid payload field: ${JSON.stringify(key)}`)
    if (typeof condition === 'object' && condition !== null && !Array.isArray(condition.$in)) {
      throw new VectorStoreError(`Filter on ${key} must be a value or { $in: [...] }`)
    }
  }
}

export function matchesFilter(payload: VectorPayload, filter: VectorFilter | undefined): boolean {
  for (const [key, condition] of Object.entries(filter ?? {})) {
    const value = payload[key] ?? null
    if (typeof condition === 'object' && condition !== null) {
      if (!condition.$in.includes(value as PayloadValue)) return false
    } else if (value !== condition) return false
  }
  return true
}
