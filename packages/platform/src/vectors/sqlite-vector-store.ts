import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import {
  assertCollection,
  assertFilter,
  assertVector,
  VectorStoreError,
  type CollectionOptions,
  type PayloadValue,
  type VectorFilter,
  type VectorMatch,
  type VectorPayload,
  type VectorPoint,
  type VectorSearchOptions,
  type VectorStore,
} from './port.js'

/**
 * A vector with at most this share of non-zero components is kept sparse: as (component, value)
 * pairs in per-component posting lists, so that a search touches only the points sharing a
 * component with the query. Hashed-feature embeddings (the default embedder's) are sparse; dense
 * model embeddings are kept whole and compared with every query.
 */
const SPARSE_SHARE = 0.25

interface Unit {
  /** Components of the unit-length vector that are not zero, and their values. */
  indices: Uint32Array
  values: Float32Array
  dense: Float32Array | null
}

function unitOf(vector: number[]): Unit {
  let norm = 0
  let nonZero = 0
  for (const x of vector) {
    norm += x * x
    if (x !== 0) nonZero++
  }
  norm = Math.sqrt(norm)
  if (nonZero > vector.length * SPARSE_SHARE) {
    const dense = new Float32Array(vector.length)
    for (let i = 0; i < vector.length; i++) dense[i] = vector[i] / norm
    return { indices: new Uint32Array(0), values: new Float32Array(0), dense }
  }
  const indices = new Uint32Array(nonZero)
  const values = new Float32Array(nonZero)
  let k = 0
  for (let i = 0; i < vector.length; i++) {
    if (vector[i] === 0) continue
    indices[k] = i
    values[k++] = vector[i] / norm
  }
  return { indices, values, dense: null }
}

/** Stored form: a dense vector is `dimensions` float32s; a sparse one (index uint32, value float32) pairs, always shorter. */
function encode(unit: Unit): Buffer {
  if (unit.dense) return Buffer.from(unit.dense.buffer, unit.dense.byteOffset, unit.dense.byteLength)
  const buffer = Buffer.alloc(unit.indices.length * 8)
  for (let k = 0; k < unit.indices.length; k++) {
    buffer.writeUInt32LE(unit.indices[k], k * 8)
    buffer.writeFloatLE(unit.values[k], k * 8 + 4)
  }
  return buffer
}

function decode(blob: Buffer, dimensions: number): Unit {
  if (blob.byteLength === dimensions * 4) {
    const dense = new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength))
    // A vector stored dense by an earlier version may well be sparse: keep it the way it searches fastest.
    let nonZero = 0
    for (const x of dense) if (x !== 0) nonZero++
    return nonZero > dimensions * SPARSE_SHARE ? { indices: new Uint32Array(0), values: new Float32Array(0), dense } : unitOf(Array.from(dense))
  }
  const pairs = blob.byteLength / 8
  const indices = new Uint32Array(pairs)
  const values = new Float32Array(pairs)
  for (let k = 0; k < pairs; k++) {
    indices[k] = blob.readUInt32LE(k * 8)
    values[k] = blob.readFloatLE(k * 8 + 4)
  }
  return { indices, values, dense: null }
}

/** A growable list of (slot, value) pairs: the points with a non-zero value on one component. */
class Postings {
  slots = new Int32Array(8)
  values = new Float32Array(8)
  length = 0

  push(slot: number, value: number): void {
    if (this.length === this.slots.length) {
      const slots = new Int32Array(this.length * 2)
      slots.set(this.slots)
      this.slots = slots
      const values = new Float32Array(this.length * 2)
      values.set(this.values)
      this.values = values
    }
    this.slots[this.length] = slot
    this.values[this.length++] = value
  }
}

/**
 * A payload field searches filter on, as a number per slot: the id of the slot's value. A filter on
 * it is checked by reading one typed array rather than the point's payload.
 */
class FieldIndex {
  readonly ids = new Map<PayloadValue, number>()
  bySlot = new Int32Array(1024)

  constructor(readonly field: string) {}

  set(slot: number, value: PayloadValue): void {
    if (slot >= this.bySlot.length) {
      const grown = new Int32Array(Math.max(slot + 1, this.bySlot.length * 2))
      grown.set(this.bySlot)
      this.bySlot = grown
    }
    let id = this.ids.get(value)
    if (id === undefined) {
      id = this.ids.size
      this.ids.set(value, id)
    }
    this.bySlot[slot] = id
  }
}

/** One collection in memory: points in slots, sparse ones in posting lists, dense ones whole. */
class LoadedCollection {
  readonly ids: string[] = []
  readonly payloads: VectorPayload[] = []
  readonly units: Unit[] = []
  alive = new Uint8Array(1024)
  readonly slotOf = new Map<string, number>()
  readonly denseSlots = new Set<number>()
  readonly fields = new Map<string, FieldIndex>()
  postings: Postings[]
  dead = 0
  // Per-search scratch, reused: scores of touched slots, and which search touched them last.
  private scores = new Float32Array(1024)
  private stamps = new Uint32Array(1024)
  private touched = new Int32Array(1024)
  private stamp = 0

  constructor(readonly dimensions: number) {
    this.postings = Array.from({ length: dimensions }, () => new Postings())
  }

  get size(): number {
    return this.slotOf.size
  }

  /** Starts keeping a payload field as an index, for the points there are and to come. */
  indexField(field: string): void {
    if (this.fields.has(field)) return
    const index = new FieldIndex(field)
    for (let slot = 0; slot < this.ids.length; slot++) index.set(slot, (this.payloads[slot][field] ?? null) as PayloadValue)
    this.fields.set(field, index)
  }

  /** The indexed fields a filter names with one value: their value id per slot must equal the wanted id (-1: no point has it). */
  indexedConditions(filter: VectorFilter | undefined): Array<{ bySlot: Int32Array; id: number }> {
    const conditions: Array<{ bySlot: Int32Array; id: number }> = []
    for (const [key, condition] of Object.entries(filter ?? {})) {
      const index = this.fields.get(key)
      if (!index || (typeof condition === 'object' && condition !== null)) continue
      conditions.push({ bySlot: index.bySlot, id: index.ids.get(condition) ?? -1 })
    }
    return conditions
  }

  set(id: string, unit: Unit, payload: VectorPayload): void {
    const existing = this.slotOf.get(id)
    if (existing !== undefined) this.kill(existing)
    const slot = this.ids.length
    this.ids.push(id)
    this.payloads.push(payload)
    this.units.push(unit)
    if (slot >= this.alive.length) {
      const alive = new Uint8Array(this.alive.length * 2)
      alive.set(this.alive)
      this.alive = alive
    }
    this.alive[slot] = 1
    this.slotOf.set(id, slot)
    for (const index of this.fields.values()) index.set(slot, (payload[index.field] ?? null) as PayloadValue)
    if (unit.dense) this.denseSlots.add(slot)
    else for (let k = 0; k < unit.indices.length; k++) this.postings[unit.indices[k]].push(slot, unit.values[k])
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id)
    if (slot === undefined) return
    this.kill(slot)
    this.slotOf.delete(id)
    if (this.dead > 10_000 && this.dead > this.slotOf.size) this.compact()
  }

  private kill(slot: number): void {
    this.alive[slot] = 0
    this.denseSlots.delete(slot)
    this.dead++
  }

  /** Rebuilds the slots and posting lists without the points removed or replaced. */
  private compact(): void {
    const live = [...this.slotOf].sort((a, b) => a[1] - b[1])
    const entries = live.map(([id, slot]) => ({ id, unit: this.units[slot], payload: this.payloads[slot] }))
    this.ids.length = 0
    this.payloads.length = 0
    this.units.length = 0
    this.slotOf.clear()
    this.denseSlots.clear()
    this.alive = new Uint8Array(Math.max(1024, entries.length * 2))
    this.postings = Array.from({ length: this.dimensions }, () => new Postings())
    this.dead = 0
    const fields = [...this.fields.keys()]
    this.fields.clear()
    for (const field of fields) this.fields.set(field, new FieldIndex(field))
    for (const entry of entries) this.set(entry.id, entry.unit, entry.payload)
  }

  *live(): Iterable<[string, VectorPayload]> {
    for (const [id, slot] of this.slotOf) yield [id, this.payloads[slot]]
  }

  search(query: Unit, limit: number, accepts: (payload: VectorPayload) => boolean, filter?: VectorFilter): VectorMatch[] {
    // The first indexed condition narrows which points are scored at all; the others are checked with it.
    const indexed = this.indexedConditions(filter)
    if (indexed.some((condition) => condition.id === -1)) return []
    const narrow = indexed[0]
    const capacity = this.ids.length
    if (this.scores.length < capacity) {
      this.scores = new Float32Array(capacity * 2)
      this.stamps = new Uint32Array(capacity * 2)
      this.touched = new Int32Array(capacity * 2)
    }
    const stamp = ++this.stamp
    const { scores, stamps, alive, touched } = this
    let touchedCount = 0
    const queryDense = query.dense ?? new Float32Array(this.dimensions)
    if (!query.dense) for (let k = 0; k < query.indices.length; k++) queryDense[query.indices[k]] = query.values[k]

    // Sparse points: only those sharing a component with the query get a score.
    for (let component = 0; component < this.dimensions; component++) {
      const weight = queryDense[component]
      if (weight === 0) continue
      const list = this.postings[component]
      const slots = list.slots
      const values = list.values
      for (let p = 0; p < list.length; p++) {
        const slot = slots[p]
        if (stamps[slot] !== stamp) {
          if (alive[slot] === 0 || (narrow !== undefined && narrow.bySlot[slot] !== narrow.id)) continue
          stamps[slot] = stamp
          scores[slot] = 0
          touched[touchedCount++] = slot
        }
        scores[slot] += weight * values[p]
      }
    }
    // Dense points: compared whole.
    for (const slot of this.denseSlots) {
      if (narrow !== undefined && narrow.bySlot[slot] !== narrow.id) continue
      const dense = this.units[slot].dense as Float32Array
      let score = 0
      for (let i = 0; i < this.dimensions; i++) score += queryDense[i] * dense[i]
      stamps[slot] = stamp
      scores[slot] = score
      touched[touchedCount++] = slot
    }

    // The best `limit` scored points, best first; ties keep the order points were written in.
    const best: Array<{ slot: number; score: number }> = []
    const before = (a: { slot: number; score: number }, score: number, slot: number) => a.score > score || (a.score === score && a.slot < slot)
    for (let t = 0; t < touchedCount; t++) {
      const slot = touched[t]
      const score = scores[slot]
      if (best.length === limit && before(best[best.length - 1], score, slot)) continue
      if (!indexed.every((condition) => condition.bySlot[slot] === condition.id) || !accepts(this.payloads[slot])) continue
      let at = best.length
      while (at > 0 && !before(best[at - 1], score, slot)) at--
      best.splice(at, 0, { slot, score })
      if (best.length > limit) best.pop()
    }
    // Points sharing nothing with the query score 0: they rank above negative scores, as in an exact search.
    if (best.length < limit || best[best.length - 1].score < 0) {
      const zeros: Array<{ slot: number; score: number }> = []
      const wanted = limit - best.filter((entry) => entry.score > 0).length
      for (let slot = 0; slot < capacity && zeros.length < wanted; slot++) {
        if (alive[slot] === 0 || stamps[slot] === stamp || !accepts(this.payloads[slot])) continue
        zeros.push({ slot, score: 0 })
      }
      const merged = [...best.filter((entry) => entry.score > 0), ...[...best.filter((entry) => entry.score === 0), ...zeros].sort((a, b) => a.slot - b.slot), ...best.filter((entry) => entry.score < 0)]
      best.splice(0, best.length, ...merged.slice(0, limit))
    }
    return best.map(({ slot, score }) => ({ id: this.ids[slot], score: Math.min(1, Math.max(-1, score)), payload: this.payloads[slot] }))
  }
}

/** A filter as a function, its conditions read once rather than per point. */
function compileFilter(filter: VectorFilter | undefined): (payload: VectorPayload) => boolean {
  const conditions = Object.entries(filter ?? {}).map(([key, condition]) =>
    typeof condition === 'object' && condition !== null ? ([key, new Set<PayloadValue>(condition.$in)] as const) : ([key, condition] as const),
  )
  if (conditions.length === 0) return () => true
  return (payload) => {
    for (const [key, condition] of conditions) {
      const value = (payload[key] ?? null) as PayloadValue
      if (condition instanceof Set ? !condition.has(value) : value !== condition) return false
    }
    return true
  }
}

/**
 * Exact cosine search in process. Vectors persist in SQLite and are held in memory per collection
 * once used (`preload` reads a collection at start), which suits the embedded mode's single vectordb
 * process. Sparse vectors are searched through posting lists, dense ones by comparing each.
 */
export class SqliteVectorStore implements VectorStore {
  readonly adapter = 'sqlite' as const
  private readonly db: Database.Database
  private readonly loaded = new Map<string, LoadedCollection>()
  /** Payload fields each collection's searches filter on, as ensureCollection was told. */
  private readonly indexedFields = new Map<string, Set<string>>()

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
    loaded = new LoadedCollection(this.dimensionsOf(collection))
    for (const field of this.indexedFields.get(collection) ?? []) loaded.indexField(field)
    const rows = this.db.prepare('SELECT id, unit, payload FROM vectors WHERE collection = ?').iterate(collection) as IterableIterator<{ id: string; unit: Buffer; payload: string }>
    for (const row of rows) loaded.set(row.id, decode(row.unit, loaded.dimensions), JSON.parse(row.payload) as VectorPayload)
    this.loaded.set(collection, loaded)
    return loaded
  }

  /** Reads a collection into memory now rather than on its first search. */
  async preload(collection: string): Promise<void> {
    this.load(collection)
  }

  async ensureCollection(name: string, dimensions: number, options: CollectionOptions = {}): Promise<void> {
    assertCollection(name)
    if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 65_536) throw new VectorStoreError('Dimensions must be a whole number from 1 to 65536')
    this.db.prepare('INSERT INTO vector_collections (name, dimensions) VALUES (?, ?) ON CONFLICT(name) DO NOTHING').run(name, dimensions)
    const existing = this.dimensionsOf(name)
    if (existing !== dimensions) throw new VectorStoreError(`Collection ${name} holds ${existing}-dimensional vectors, not ${dimensions}`)
    const fields = this.indexedFields.get(name) ?? new Set<string>()
    for (const field of options.indexedFields ?? []) {
      fields.add(field)
      this.loaded.get(name)?.indexField(field)
    }
    this.indexedFields.set(name, fields)
  }

  async upsert(collection: string, points: VectorPoint[]): Promise<void> {
    const dimensions = this.dimensionsOf(collection)
    const prepared = points.map((point) => {
      if (typeof point.id !== 'string' || point.id === '') throw new VectorStoreError('A point needs a non-empty string id')
      assertVector(point.vector, dimensions)
      return { id: point.id, unit: unitOf(point.vector), payload: point.payload ?? {} }
    })
    const statement = this.db.prepare(
      'INSERT INTO vectors (collection, id, unit, payload) VALUES (?, ?, ?, ?) ON CONFLICT(collection, id) DO UPDATE SET unit = excluded.unit, payload = excluded.payload',
    )
    this.db.transaction(() => {
      for (const point of prepared) statement.run(collection, point.id, encode(point.unit), JSON.stringify(point.payload))
    })()
    const loaded = this.loaded.get(collection)
    if (loaded) for (const point of prepared) loaded.set(point.id, point.unit, point.payload)
  }

  async search(collection: string, vector: number[], options: VectorSearchOptions): Promise<VectorMatch[]> {
    assertFilter(options.filter)
    const loaded = this.load(collection)
    assertVector(vector, loaded.dimensions)
    const limit = Math.max(0, Math.floor(options.limit))
    if (limit === 0) return []
    return loaded.search(unitOf(vector), limit, compileFilter(options.filter), options.filter)
  }

  async delete(collection: string, ids: string[]): Promise<void> {
    this.dimensionsOf(collection)
    const statement = this.db.prepare('DELETE FROM vectors WHERE collection = ? AND id = ?')
    this.db.transaction(() => {
      for (const id of ids) statement.run(collection, id)
    })()
    const loaded = this.loaded.get(collection)
    if (loaded) for (const id of ids) loaded.remove(id)
  }

  async deleteWhere(collection: string, filter: VectorFilter): Promise<void> {
    assertFilter(filter)
    if (Object.keys(filter).length === 0) throw new VectorStoreError('deleteWhere needs a filter')
    const accepts = compileFilter(filter)
    const doomed = [...this.load(collection).live()].filter(([, payload]) => accepts(payload)).map(([id]) => id)
    await this.delete(collection, doomed)
  }

  async count(collection: string, filter?: VectorFilter): Promise<number> {
    assertFilter(filter)
    const loaded = this.load(collection)
    if (!filter || Object.keys(filter).length === 0) return loaded.size
    const accepts = compileFilter(filter)
    let n = 0
    for (const [, payload] of loaded.live()) if (accepts(payload)) n++
    return n
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get()
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close()
  }
}
