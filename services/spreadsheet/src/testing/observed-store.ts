/**
 * A document store that records what the service reads and writes through it, and can be told to
 * fail one operation, for tests of the storage layout (which blocks a read touches, what an edit
 * writes, that a failed write leaves nothing behind).
 */
import type { CollectionOptions, Document, DocumentCollection, DocumentStore, DocumentTransaction } from '@finsheet/platform'

export interface StoreEvent {
  collection: string
  operation: string
  /** The documents read or written. */
  documents: Document[]
}

export class ObservedStore implements DocumentStore {
  readonly events: StoreEvent[] = []
  /** The next call of this operation on this collection throws, once. */
  failNext: { collection: string; operation: string } | null = null

  constructor(private readonly inner: DocumentStore) {}

  get adapter() {
    return this.inner.adapter
  }

  /** Events of one collection since the list was last cleared. */
  of(collection: string, operation?: string): StoreEvent[] {
    return this.events.filter((event) => event.collection === collection && (operation === undefined || event.operation === operation))
  }

  collection<T extends Document>(name: string, options?: CollectionOptions): DocumentCollection<T> {
    return this.observe(this.inner.collection<T>(name, options))
  }

  transaction<R>(work: (tx: DocumentTransaction) => Promise<R>): Promise<R> {
    return this.inner.transaction((tx) => work({ collection: <T extends Document>(name: string, options?: CollectionOptions) => this.observe(tx.collection<T>(name, options)) }))
  }

  ping(): Promise<void> {
    return this.inner.ping()
  }

  close(): Promise<void> {
    return this.inner.close()
  }

  private observe<T extends Document>(collection: DocumentCollection<T>): DocumentCollection<T> {
    const record = (operation: string, documents: Document[]) => this.events.push({ collection: collection.name, operation, documents })
    const check = (operation: string) => {
      if (this.failNext?.collection === collection.name && this.failNext.operation === operation) {
        this.failNext = null
        throw new Error(`injected failure of ${operation} on ${collection.name}`)
      }
    }
    return {
      name: collection.name,
      get: async (id) => {
        check('get')
        const found = await collection.get(id)
        record('get', found ? [found] : [])
        return found
      },
      getMany: async (ids) => {
        check('getMany')
        const found = await collection.getMany(ids)
        record('getMany', found)
        return found
      },
      insert: async (doc) => {
        check('insert')
        record('insert', [doc])
        return collection.insert(doc)
      },
      put: async (doc) => {
        check('put')
        record('put', [doc])
        return collection.put(doc)
      },
      putMany: async (docs) => {
        check('putMany')
        record('putMany', docs)
        return collection.putMany(docs)
      },
      update: async (filter, patch) => {
        check('update')
        record('update', [])
        return collection.update(filter, patch)
      },
      delete: async (id) => {
        check('delete')
        return collection.delete(id)
      },
      deleteMany: async (filter) => {
        check('deleteMany')
        record('deleteMany', [])
        return collection.deleteMany(filter)
      },
      find: async (filter, options) => {
        check('find')
        const found = await collection.find(filter, options)
        record('find', found)
        return found
      },
      findDeferred: async (filter, options) => {
        check('findDeferred')
        const found = await collection.findDeferred(filter, options)
        record('findDeferred', found.map((doc) => doc.read()))
        return found
      },
      findOne: async (filter, options) => {
        check('findOne')
        const found = await collection.findOne(filter, options)
        record('findOne', found ? [found] : [])
        return found
      },
      count: (filter) => collection.count(filter),
    }
  }
}
