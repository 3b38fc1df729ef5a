import { createHash } from 'node:crypto'
import { QdrantClient } from '@qdrant/js-client-rest'
import {
  assertCollection,
  assertFilter,
  assertVector,
  VectorStoreError,
  type CollectionOptions,
  type VectorFilter,
  type VectorMatch,
  type VectorPayload,
  type VectorPoint,
  type VectorSearchOptions,
  type VectorStore,
} from './port.js'

/** Qdrant ids are UUIDs or integers; ours are any text, kept in the payload as `_id`. */
function pointId(id: string): string {
  const hex = createHash('sha1').update(id).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`
}

function toQdrantFilter(filter: VectorFilter | undefined) {
  assertFilter(filter)
  const must = Object.entries(filter ?? {}).map(([key, condition]) =>
    typeof condition === 'object' && condition !== null
      ? { key, match: { any: condition.$in.filter((v) => v !== null) as Array<string | number> } }
      : condition === null
        ? { is_null: { key } }
        : { key, match: { value: condition } },
  )
  return must.length > 0 ? { must } : undefined
}

export class QdrantVectorStore implements VectorStore {
  readonly adapter = 'qdrant' as const
  private readonly client: QdrantClient
  private readonly dimensions = new Map<string, number>()

  constructor(options: { url: string; apiKey?: string }) {
    this.client = new QdrantClient({ url: options.url, apiKey: options.apiKey, checkCompatibility: false })
  }

  private async dimensionsOf(collection: string): Promise<number> {
    assertCollection(collection)
    const known = this.dimensions.get(collection)
    if (known) return known
    const info = await this.client.getCollection(collection).catch(() => null)
    const vectors = info?.config.params.vectors as { size?: number } | undefined
    if (!vectors?.size) throw new VectorStoreError(`No vector collection named ${collection}`)
    this.dimensions.set(collection, vectors.size)
    return vectors.size
  }

  async ensureCollection(name: string, dimensions: number, options: CollectionOptions = {}): Promise<void> {
    assertCollection(name)
    const { exists } = await this.client.collectionExists(name)
    if (!exists) {
      await this.client.createCollection(name, { vectors: { size: dimensions, distance: 'Cosine' } }).catch(async (error: unknown) => {
        if (!(await this.client.collectionExists(name)).exists) throw error
      })
    }
    const existing = await this.dimensionsOf(name)
    if (existing !== dimensions) throw new VectorStoreError(`Collection ${name} holds ${existing}-dimensional vectors, not ${dimensions}`)
    // Filtered searches read the payload index; creating one that exists changes nothing.
    for (const field of options.indexedFields ?? []) {
      await this.client.createPayloadIndex(name, { field_name: field, field_schema: 'keyword', wait: true })
    }
  }

  async upsert(collection: string, points: VectorPoint[]): Promise<void> {
    const dimensions = await this.dimensionsOf(collection)
    for (const point of points) {
      if (typeof point.id !== 'string' || point.id === '') throw new VectorStoreError('A point needs a non-empty string id')
      assertVector(point.vector, dimensions)
    }
    if (points.length === 0) return
    await this.client.upsert(collection, {
      wait: true,
      points: points.map((point) => ({ id: pointId(point.id), vector: point.vector, payload: { ...point.payload, _id: point.id } })),
    })
  }

  async search(collection: string, vector: number[], options: VectorSearchOptions): Promise<VectorMatch[]> {
    assertVector(vector, await this.dimensionsOf(collection))
    if (options.limit <= 0) return []
    const found = await this.client.search(collection, { vector, limit: Math.floor(options.limit), filter: toQdrantFilter(options.filter), with_payload: true })
    return found.map((point) => {
      const { _id, ...payload } = (point.payload ?? {}) as VectorPayload & { _id: string }
      return { id: _id, score: point.score, payload }
    })
  }

  async delete(collection: string, ids: string[]): Promise<void> {
    await this.dimensionsOf(collection)
    if (ids.length === 0) return
    await this.client.delete(collection, { wait: true, points: ids.map(pointId) })
  }

  async deleteWhere(collection: string, filter: VectorFilter): Promise<void> {
    await this.dimensionsOf(collection)
    const qdrantFilter = toQdrantFilter(filter)
    if (!qdrantFilter) throw new VectorStoreError('deleteWhere needs a filter')
    await this.client.delete(collection, { wait: true, filter: qdrantFilter })
  }

  async count(collection: string, filter?: VectorFilter): Promise<number> {
    await this.dimensionsOf(collection)
    return (await this.client.count(collection, { filter: toQdrantFilter(filter), exact: true })).count
  }

  async ping(): Promise<void> {
    await this.client.getCollections()
  }

  async close(): Promise<void> {}
}
