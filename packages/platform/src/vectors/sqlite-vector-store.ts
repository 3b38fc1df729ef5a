import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import {
  assertCollection,
  assertFilter,
  assertVector,
  matchesFilter,
  VectorStoreError,
  type VectorFilter,
  type VectorMatch,
  type VectorPayload,
  type VectorPoint,
  type VectorSearchOptions,
  type VectorStore,
} from './port.js'

interface Entry {
  /** Unit length, so cosine similarity is a dot product. */
  unit: Float32Array
  payload: VectorPayload
}

interface LoadedCollection {
  dimensions: number
  entries: Map<string, Entry>
}

function unitVector(vector: number[]): Float32Array {
  let norm = 0
  for (const x of vector) norm += x * x
  norm = Math.sqrt(norm)
  const unit = new Float32Array(vector.length)
  for (let i = 0; i < vector.length; i++) unit[i] = vector[i] / norm
  return unit
}

/**
 * Exact cosine search in process. Vectors persist in SQLite and are held in memory per collection
 * once searched, which suits the embedded mode's single vectordb process.
 */
export class SqliteVectorStore implements VectorStore {
  readonly adapter = 'sqlite' as const
  private readonly db: Database.Database
  private readonly loaded = new Map<string, LoadedCollection>()

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
    this.db = new Database(path)
    this.db.pragma('journal_mode = WAL')
    this.db.pragma('synchronous = NORMAL')
    this.db.pragma('busy_timeout = 5000')
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS vector_collections (name TEXT PRIMARY KEY, dimensions INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS vectors (
        collection TEXT NOT NULL, id TEXT NOT NULL, unit BLOB NOT NULL, payload TEXT NOT NULL,
        PRIMARY KEY (collection, id)
      );
    `)
  }

  private dimensionsOf(collection: string): number {
    assertCollection(collection)
    const row = this.db.prepare('SELECT dimensions FROM vector_collections WHERE name = ?').get(collection) as { dimensions: number } | undefined
    if (!row) throw new VectorStoreError(`No vector collection named ${collection}`)
    return row.dimensions
  }

  private load(collection: string): LoadedCollection {
    let loaded = this.loaded.get(collection)
    if (loaded) return loaded
    const dimensions = this.dimensionsOf(collection)
    const entries = new Map<string, Entry>()
    const rows = this.db.prepare('SELECT id, unit, payload FROM vectors WHERE collection = ?').all(collection) as Array<{ id: string; unit: Buffer; payload: string }>
    for (const row of rows) {
      const unit = new Float32Array(row.unit.buffer.slice(row.unit.byteOffset, row.unit.byteOffset + row.unit.byteLength))
      entries.set(row.id, { unit, payload: JSON.parse(row.payload) as VectorPayload })
    }
    loaded = { dimensions, entries }
    this.loaded.set(collection, loaded)
    return loaded
  }

  async ensureCollection(name: string, dimensions: number): Promise<void> {
    assertCollection(name)
    if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 65_536) throw new VectorStoreError('Dimensions must be a whole number from 1 to 65536')
    this.db.prepare('INSERT INTO vector_collections (name, dimensions) VALUES (?, ?) ON CONFLICT(name) DO NOTHING').run(name, dimensions)
    const existing = this.dimensionsOf(name)
    if (existing !== dimensions) throw new VectorStoreError(`Collection ${name} holds ${existing}-dimensional vectors, not ${dimensions}`)
  }

  async upsert(collection: string, points: VectorPoint[]): Promise<void> {
    const dimensions = this.dimensionsOf(collection)
    const prepared = points.map((point) => {
      if (typeof point.id !== 'string' || point.id === '') throw new VectorStoreError('A point needs a non-empty string id')
      assertVector(point.vector, dimensions)
      return { id: point.id, unit: unitVector(point.vector), payload: point.payload ?? {} }
    })
    const statement = this.db.prepare(
      'INSERT INTO vectors (collection, id, unit, payload) VALUES (?, ?, ?, ?) ON CONFLICT(collection, id) DO UPDATE SET unit = excluded.unit, payload = excluded.payload',
    )
    this.db.transaction(() => {
      for (const point of prepared) {
        statement.run(collection, point.id, Buffer.from(point.unit.buffer, point.unit.byteOffset, point.unit.byteLength), JSON.stringify(point.payload))
      }
    })()
    const loaded = this.loaded.get(collection)
    if (loaded) for (const point of prepared) loaded.entries.set(point.id, { unit: point.unit, payload: point.payload })
  }

  async search(collection: string, vector: number[], options: VectorSearchOptions): Promise<VectorMatch[]> {
    assertFilter(options.filter)
    const { dimensions, entries } = this.load(collection)
    assertVector(vector, dimensions)
    const limit = Math.max(0, Math.floor(options.limit))
    if (limit === 0) return []
    const query = unitVector(vector)
    // Keep the best `limit` matches, sorted by score descending.
    const best: VectorMatch[] = []
    for (const [id, entry] of entries) {
      if (!matchesFilter(entry.payload, options.filter)) continue
      let score = 0
      for (let i = 0; i < dimensions; i++) score += query[i] * entry.unit[i]
      if (best.length === limit && score <= best[best.length - 1].score) continue
      let at = best.length
      while (at > 0 && best[at - 1].score < score) at--
      best.splice(at, 0, { id, score, payload: entry.payload })
      if (best.length > limit) best.pop()
    }
    return best.map((match) => ({ ...match, score: Math.min(1, Math.max(-1, match.score)) }))
  }

  async delete(collection: string, ids: string[]): Promise<void> {
    this.dimensionsOf(collection)
    const statement = this.db.prepare('DELETE FROM vectors WHERE collection = ? AND id = ?')
    this.db.transaction(() => {
      for (const id of ids) statement.run(collection, id)
    })()
    const loaded = this.loaded.get(collection)
    if (loaded) for (const id of ids) loaded.entries.delete(id)
  }

  async deleteWhere(collection: string, filter: VectorFilter): Promise<void> {
    assertFilter(filter)
    if (Object.keys(filter).length === 0) throw new VectorStoreError('deleteWhere needs a filter')
    const { entries } = this.load(collection)
    const doomed = [...entries].filter(([, entry]) => matchesFilter(entry.payload, filter)).map(([id]) => id)
    await this.delete(collection, doomed)
  }

  async count(collection: string, filter?: VectorFilter): Promise<number> {
    assertFilter(filter)
    const { entries } = this.load(collection)
    if (!filter || Object.keys(filter).length === 0) return entries.size
    let n = 0
    for (const entry of entries.values()) if (matchesFilter(entry.payload, filter)) n++
    return n
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get()
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close()
  }
}
