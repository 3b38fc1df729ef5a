import { MongoClient, MongoServerError, type ClientSession, type Collection, type Db, type Filter as MongoFilter, type Sort } from 'mongodb'
import {
  assertCollectionName,
  assertDocumentId,
  assertFieldPath,
  assertOperators,
  assertPage,
  DuplicateKeyError,
  isOperators,
  patchEntries,
  type CollectionOptions,
  type DeferredDocument,
  type Document,
  type DocumentCollection,
  type DocumentStore,
  type DocumentTransaction,
  type Filter,
  type FindOptions,
} from './port.js'

export interface MongoDocumentStoreOptions {
  url: string
  /** One database per service, such as finsheet_users. */
  database: string
}

/** Connects to MongoDB; transactions need a replica set (a single-node one is enough). */
export async function createMongoDocumentStore(options: MongoDocumentStoreOptions): Promise<MongoDocumentStore> {
  const client = new MongoClient(options.url, { serverSelectionTimeoutMS: 10_000, ignoreUndefined: true })
  await client.connect()
  return new MongoDocumentStore(client, client.db(options.database))
}

type Stored = { _id: string } & Record<string, unknown>

const mongoField = (field: string) => (field === 'id' ? '_id' : field)
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function toMongoFilter(filter: Filter | undefined): MongoFilter<Stored> {
  const result: Record<string, unknown> = {}
  for (const [field, condition] of Object.entries(filter ?? {})) {
    assertFieldPath(field)
    const key = mongoField(field)
    if (!isOperators(condition)) {
      result[key] = condition
      continue
    }
    assertOperators(field, condition)
    const ops: Record<string, unknown> = {}
    for (const op of ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in'] as const) {
      if (condition[op] !== undefined) ops[op] = condition[op]
    }
    if (condition.$prefix !== undefined) ops.$regex = new RegExp(`^${escapeRegex(condition.$prefix)}`)
    result[key] = ops
  }
  return result as MongoFilter<Stored>
}

function fromStored<T extends Document>(stored: Stored): T {
  const { _id, ...rest } = stored
  return { id: _id, ...rest } as unknown as T
}

function toStored<T extends Document>(doc: T): Stored {
  assertDocumentId(doc.id)
  const { id, ...rest } = doc as unknown as Record<string, unknown>
  return { _id: id as string, ...rest }
}

function rethrowDuplicate(collection: string, error: unknown): never {
  if (error instanceof MongoServerError && error.code === 11000) throw new DuplicateKeyError(collection, error.message)
  throw error
}

class MongoCollection<T extends Document> implements DocumentCollection<T> {
  constructor(
    readonly name: string,
    private readonly collection: Collection<Stored>,
    private readonly ready: Promise<void>,
    private readonly session: ClientSession | undefined,
    private readonly store: MongoDocumentStore,
  ) {}

  private get opts() {
    return this.session ? { session: this.session } : {}
  }

  async get(id: string): Promise<T | null> {
    await this.ready
    const found = await this.collection.findOne({ _id: id }, this.opts)
    return found ? fromStored<T>(found) : null
  }

  async getMany(ids: string[]): Promise<T[]> {
    await this.ready
    const found = await this.collection.find({ _id: { $in: ids } }, this.opts).toArray()
    const byId = new Map(found.map((doc) => [doc._id, doc]))
    return ids.flatMap((id) => (byId.has(id) ? [fromStored<T>(byId.get(id) as Stored)] : []))
  }

  async insert(doc: T): Promise<void> {
    const stored = toStored(doc)
    await this.ready
    await this.collection.insertOne(stored, this.opts).catch((error: unknown) => rethrowDuplicate(this.name, error))
  }

  async put(doc: T): Promise<void> {
    const stored = toStored(doc)
    await this.ready
    await this.collection.replaceOne({ _id: stored._id }, stored, { ...this.opts, upsert: true }).catch((error: unknown) => rethrowDuplicate(this.name, error))
  }

  async putMany(docs: T[]): Promise<void> {
    const stored = docs.map(toStored)
    if (stored.length === 0) return
    await this.ready
    const write = (session: ClientSession | undefined) =>
      this.collection
        .bulkWrite(
          stored.map((doc) => ({ replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } })),
          { ordered: true, ...(session ? { session } : {}) },
        )
        .catch((error: unknown) => rethrowDuplicate(this.name, error))
    // A bulk write alone can stop half-way; inside a transaction it is all or nothing.
    if (this.session) await write(this.session)
    else await this.store.withSession((session) => session.withTransaction(() => write(session)))
  }

  async update(filter: Filter, patch: Partial<Omit<T, 'id'>>): Promise<number> {
    const entries = patchEntries(patch)
    for (const [field] of entries) assertFieldPath(field)
    await this.ready
    const mongoFilter = toMongoFilter(filter)
    if (entries.length === 0) return this.collection.countDocuments(mongoFilter, this.opts)
    const result = await this.collection
      .updateMany(mongoFilter, { $set: Object.fromEntries(entries) as Partial<Stored> }, this.opts)
      .catch((error: unknown) => rethrowDuplicate(this.name, error))
    return result.matchedCount
  }

  async delete(id: string): Promise<boolean> {
    await this.ready
    return (await this.collection.deleteOne({ _id: id }, this.opts)).deletedCount > 0
  }

  async deleteMany(filter: Filter): Promise<number> {
    await this.ready
    return (await this.collection.deleteMany(toMongoFilter(filter), this.opts)).deletedCount
  }

  async find(filter?: Filter, options?: FindOptions): Promise<T[]> {
    assertPage(options)
    await this.ready
    const sort: Array<[string, 1 | -1]> = (options?.sort ?? []).map(([field, direction]) => [mongoField(field), direction])
    if (!sort.some(([field]) => field === '_id')) sort.push(['_id', 1])
    let cursor = this.collection.find(toMongoFilter(filter), this.opts).sort(sort as Sort)
    if (options?.offset) cursor = cursor.skip(options.offset)
    if (options?.limit !== undefined) {
      if (options.limit === 0) return []
      cursor = cursor.limit(options.limit)
    }
    return (await cursor.toArray()).map((doc) => fromStored<T>(doc))
  }

  /** The driver decodes documents as it receives them: they are answered as found. */
  async findDeferred(filter?: Filter, options?: FindOptions): Promise<DeferredDocument<T>[]> {
    return (await this.find(filter, options)).map((doc) => ({ id: doc.id, read: () => doc }))
  }

  async findOne(filter: Filter, options?: Omit<FindOptions, 'limit'>): Promise<T | null> {
    const [first] = await this.find(filter, { ...options, limit: 1 })
    return first ?? null
  }

  async count(filter?: Filter): Promise<number> {
    await this.ready
    return this.collection.countDocuments(toMongoFilter(filter), this.opts)
  }
}

export class MongoDocumentStore implements DocumentStore {
  readonly adapter = 'mongodb' as const
  private readonly indexesReady = new Map<string, Promise<void>>()

  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {}

  private ensure(name: string, options: CollectionOptions): Promise<void> {
    assertCollectionName(name)
    let ready = this.indexesReady.get(name)
    if (!ready) {
      const indexes = (options.indexes ?? []).map((index) => {
        index.fields.forEach(assertFieldPath)
        return {
          key: Object.fromEntries(index.fields.map((field) => [mongoField(field), 1 as const])),
          unique: index.unique ?? false,
          name: `ix_${index.fields.join('_')}${index.unique ? '_u' : ''}${index.sparse ? '_s' : ''}`,
          ...(index.sparse ? { partialFilterExpression: { [mongoField(index.fields[0])]: { $type: ['string', 'number'] } } } : {}),
        }
      })
      // Collections are created up front: MongoDB cannot create one inside a transaction on older servers.
      ready = this.db
        .createCollection(name)
        .catch((error: unknown) => {
          if (!(error instanceof MongoServerError && error.codeName === 'NamespaceExists')) throw error
        })
        .then(async () => {
          if (indexes.length > 0) await this.db.collection(name).createIndexes(indexes)
        })
      ready.catch(() => this.indexesReady.delete(name))
      this.indexesReady.set(name, ready)
    }
    return ready
  }

  collection<T extends Document>(name: string, options: CollectionOptions = {}): DocumentCollection<T> {
    return new MongoCollection<T>(name, this.db.collection<Stored>(name), this.ensure(name, options), undefined, this)
  }

  async withSession<R>(work: (session: ClientSession) => Promise<R>): Promise<R> {
    const session = this.client.startSession()
    try {
      return await work(session)
    } finally {
      await session.endSession()
    }
  }

  async transaction<R>(work: (tx: DocumentTransaction) => Promise<R>): Promise<R> {
    return this.withSession(async (session) => {
      let result: R | undefined
      const tx: DocumentTransaction = {
        collection: <T extends Document>(name: string, options: CollectionOptions = {}) =>
          new MongoCollection<T>(name, this.db.collection<Stored>(name), this.ensure(name, options), session, this),
      }
      await session.withTransaction(async () => {
        result = await work(tx)
      })
      return result as R
    })
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 })
  }

  async close(): Promise<void> {
    await this.client.close()
  }
}
