import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { DependencyUnavailableError } from '../errors/dependency-unavailable.js'
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
  type FieldValue,
  type Filter,
  type FindOptions,
} from './port.js'

type SqlValue = string | number | null

export interface SqliteDocumentStoreOptions {
  /** File path, or ':memory:' for a throwaway store. */
  path: string
  /** How long a writer waits for another process's lock, in ms. */
  busyTimeoutMs?: number
}

/** Opens (creating when missing) a SQLite file in WAL mode as a document store. */
export function createSqliteDocumentStore(options: SqliteDocumentStoreOptions): SqliteDocumentStore {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true })
  const db = new Database(options.path)
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000
  // Opening waits for another process's lock as SQLite does; once open, the store waits itself.
  db.pragma(`busy_timeout = ${busyTimeoutMs}`)
  db.pragma('journal_mode = WAL')
  // FULL: a write acknowledged to the caller survives a crash of the process and of the machine.
  db.pragma('synchronous = FULL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 0')
  return new SqliteDocumentStore(db, busyTimeoutMs)
}

/** Another connection holds the lock (SQLITE_BUSY, or SQLITE_BUSY_SNAPSHOT and the like). */
const isBusy = (error: unknown) => typeof (error as { code?: unknown }).code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY')

const busyPause = new Int32Array(new SharedArrayBuffer(4))

/** Runs `operation` until no other connection holds the lock, up to `timeoutMs`, blocking: for the rare creation of a table. */
function whenUnlockedSync<R>(operation: () => R, timeoutMs: number): R {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return operation()
    } catch (error) {
      if (!isBusy(error)) throw error
      if (Date.now() >= deadline) throw new DependencyUnavailableError('documents', { cause: error })
      Atomics.wait(busyPause, 0, 0, 10)
    }
  }
}

const column = (field: string) => (field === 'id' ? 'id' : `json_extract(doc, '$.${field}')`)
const toSql = (value: FieldValue): SqlValue => (typeof value === 'boolean' ? (value ? 1 : 0) : value)

function prefixUpperBound(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1)
  return prefix.slice(0, -1) + String.fromCharCode(last + 1)
}

function whereClause(filter: Filter | undefined): { sql: string; params: SqlValue[] } {
  const parts: string[] = []
  const params: SqlValue[] = []
  for (const [field, condition] of Object.entries(filter ?? {})) {
    assertFieldPath(field)
    const col = column(field)
    if (!isOperators(condition)) {
      if (condition === null) parts.push(`${col} IS NULL`)
      else {
        parts.push(`${col} = ?`)
        params.push(toSql(condition))
      }
      continue
    }
    assertOperators(field, condition)
    if (condition.$eq !== undefined) {
      if (condition.$eq === null) parts.push(`${col} IS NULL`)
      else {
        parts.push(`${col} = ?`)
        params.push(toSql(condition.$eq))
      }
    }
    if (condition.$ne !== undefined) {
      parts.push(`${col} IS NOT ?`)
      params.push(toSql(condition.$ne))
    }
    for (const [op, sqlOp] of [['$gt', '>'], ['$gte', '>='], ['$lt', '<'], ['$lte', '<=']] as const) {
      const value = condition[op]
      if (value !== undefined) {
        parts.push(`${col} ${sqlOp} ?`)
        params.push(value)
      }
    }
    if (condition.$in !== undefined) {
      const values = condition.$in.filter((v) => v !== null)
      const alternatives: string[] = []
      if (values.length > 0) {
        alternatives.push(`${col} IN (${values.map(() => '?').join(', ')})`)
        params.push(...values.map(toSql))
      }
      if (condition.$in.includes(null)) alternatives.push(`${col} IS NULL`)
      parts.push(alternatives.length > 0 ? `(${alternatives.join(' OR ')})` : '0')
    }
    if (condition.$prefix !== undefined && condition.$prefix !== '') {
      parts.push(`${col} >= ? AND ${col} < ?`)
      params.push(condition.$prefix, prefixUpperBound(condition.$prefix))
    } else if (condition.$prefix === '') {
      parts.push(`typeof(${col}) = 'text'`)
    }
  }
  return { sql: parts.length > 0 ? `WHERE ${parts.join(' AND ')}` : '', params }
}

function orderAndPage(options: FindOptions | undefined): string {
  assertPage(options)
  const order = (options?.sort ?? []).map(([field, direction]) => `${column(field)} ${direction === -1 ? 'DESC' : 'ASC'}`)
  if (!options?.sort?.some(([field]) => field === 'id')) order.push('id ASC')
  let sql = ` ORDER BY ${order.join(', ')}`
  if (options?.limit !== undefined) sql += ` LIMIT ${options.limit}`
  else if (options?.offset) sql += ' LIMIT -1'
  if (options?.offset) sql += ` OFFSET ${options.offset}`
  return sql
}

function isConstraintError(error: unknown): boolean {
  const code = (error as { code?: string }).code
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE'
}

interface Runner {
  runOutsideTransaction<R>(operation: () => R): Promise<R>
}

const STATEMENT_CACHE_SIZE = 500
const statementCaches = new WeakMap<Database.Database, Map<string, Database.Statement>>()

/**
 * Compiling SQL costs more than running it for the small reads and writes of a request, and the
 * filters a service uses repeat, so statements are kept per connection, least recently used first out.
 */
function prepareCached(db: Database.Database, sql: string): Database.Statement {
  let cache = statementCaches.get(db)
  if (!cache) {
    cache = new Map()
    statementCaches.set(db, cache)
  }
  let statement = cache.get(sql)
  if (statement) {
    cache.delete(sql)
  } else {
    statement = db.prepare(sql)
    if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string)
  }
  cache.set(sql, statement)
  return statement
}

class SqliteCollection<T extends Document> implements DocumentCollection<T> {
  private readonly table: string
  private readonly statements: {
    get: Database.Statement<[string], { doc: string }>
    insert: Database.Statement<[string, string]>
    put: Database.Statement<[string, string]>
    delete: Database.Statement<[string]>
  }

  constructor(
    readonly name: string,
    private readonly store: Runner,
    private readonly db: Database.Database,
    options: CollectionOptions,
    /** The table and its indexes already exist (a transaction's view of a collection the store has opened). */
    schemaReady = false,
  ) {
    assertCollectionName(name)
    this.table = `"doc_${name}"`
    if (!schemaReady) this.createSchema(name, options)
    this.statements = {
      get: prepareCached(db, `SELECT doc FROM ${this.table} WHERE id = ?`) as Database.Statement<[string], { doc: string }>,
      insert: prepareCached(db, `INSERT INTO ${this.table} (id, doc) VALUES (?, ?)`) as Database.Statement<[string, string]>,
      put: prepareCached(db, `INSERT INTO ${this.table} (id, doc) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET doc = excluded.doc`) as Database.Statement<[string, string]>,
      delete: prepareCached(db, `DELETE FROM ${this.table} WHERE id = ?`) as Database.Statement<[string]>,
    }
  }

  private createSchema(name: string, options: CollectionOptions): void {
    const db = this.db
    db.exec(`CREATE TABLE IF NOT EXISTS ${this.table} (id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL)`)
    for (const index of options.indexes ?? []) {
      index.fields.forEach(assertFieldPath)
      const indexName = `"ix_${name}_${index.fields.join('_').replace(/\./g, '__')}${index.unique ? '_u' : ''}${index.sparse ? '_s' : ''}"`
      const partial = index.sparse ? ` WHERE ${column(index.fields[0])} IS NOT NULL` : ''
      db.exec(`CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${indexName} ON ${this.table} (${index.fields.map(column).join(', ')})${partial}`)
    }
  }

  private run<R>(operation: () => R): Promise<R> {
    return this.store.runOutsideTransaction(operation)
  }

  private writeConstraint<R>(operation: () => R): R {
    try {
      return operation()
    } catch (error) {
      if (isConstraintError(error)) throw new DuplicateKeyError(this.name, (error as Error).message)
      throw error
    }
  }

  async get(id: string): Promise<T | null> {
    return this.run(() => {
      const row = this.statements.get.get(id)
      return row ? (JSON.parse(row.doc) as T) : null
    })
  }

  async getMany(ids: string[]): Promise<T[]> {
    return this.run(() => {
      const found: T[] = []
      for (const id of ids) {
        const row = this.statements.get.get(id)
        if (row) found.push(JSON.parse(row.doc) as T)
      }
      return found
    })
  }

  async insert(doc: T): Promise<void> {
    assertDocumentId(doc.id)
    const json = JSON.stringify(doc)
    return this.run(() => {
      this.writeConstraint(() => this.statements.insert.run(doc.id, json))
    })
  }

  async put(doc: T): Promise<void> {
    assertDocumentId(doc.id)
    const json = JSON.stringify(doc)
    return this.run(() => {
      this.writeConstraint(() => this.statements.put.run(doc.id, json))
    })
  }

  async putMany(docs: T[]): Promise<void> {
    const rows = docs.map((doc) => {
      assertDocumentId(doc.id)
      return [doc.id, JSON.stringify(doc)] as const
    })
    return this.run(() => {
      // One transaction (a savepoint when already inside one): all rows or none.
      const writeAll = this.db.transaction(() => {
        for (const [id, json] of rows) this.statements.put.run(id, json)
      })
      this.writeConstraint(() => writeAll())
    })
  }

  async update(filter: Filter, patch: Partial<Omit<T, 'id'>>): Promise<number> {
    const entries = patchEntries(patch)
    for (const [field] of entries) assertFieldPath(field)
    const where = whereClause(filter)
    return this.run(() => {
      if (entries.length === 0) {
        return (prepareCached(this.db, `SELECT COUNT(*) AS n FROM ${this.table} ${where.sql}`).get(...where.params) as { n: number }).n
      }
      const setters = entries.map(([field]) => `'$.${field}', json(?)`).join(', ')
      const statement = prepareCached(this.db, `UPDATE ${this.table} SET doc = json_set(doc, ${setters}) ${where.sql}`)
      return this.writeConstraint(() => statement.run(...entries.map(([, value]) => JSON.stringify(value)), ...where.params).changes)
    })
  }

  async delete(id: string): Promise<boolean> {
    return this.run(() => this.statements.delete.run(id).changes > 0)
  }

  async deleteMany(filter: Filter): Promise<number> {
    const where = whereClause(filter)
    return this.run(() => prepareCached(this.db, `DELETE FROM ${this.table} ${where.sql}`).run(...where.params).changes)
  }

  async find(filter?: Filter, options?: FindOptions): Promise<T[]> {
    const where = whereClause(filter)
    const sql = `SELECT doc FROM ${this.table} ${where.sql}${orderAndPage(options)}`
    return this.run(() => {
      const rows = prepareCached(this.db, sql).pluck().all(...where.params) as string[]
      return rows.map((doc) => JSON.parse(doc) as T)
    })
  }

  async findDeferred(filter?: Filter, options?: FindOptions): Promise<DeferredDocument<T>[]> {
    const where = whereClause(filter)
    const sql = `SELECT id, doc FROM ${this.table} ${where.sql}${orderAndPage(options)}`
    return this.run(() => {
      const rows = prepareCached(this.db, sql).all(...where.params) as { id: string; doc: string }[]
      return rows.map(({ id, doc }) => ({ id, read: () => JSON.parse(doc) as T }))
    })
  }

  async findOne(filter: Filter, options?: Omit<FindOptions, 'limit'>): Promise<T | null> {
    const [first] = await this.find(filter, { ...options, limit: 1 })
    return first ?? null
  }

  async count(filter?: Filter): Promise<number> {
    const where = whereClause(filter)
    return this.run(() => (prepareCached(this.db, `SELECT COUNT(*) AS n FROM ${this.table} ${where.sql}`).get(...where.params) as { n: number }).n)
  }
}

/**
 * better-sqlite3 runs synchronously on one connection, so an open transaction would swallow any
 * statement issued meanwhile. Operations from outside wait until the transaction ends; the
 * transaction's own collections run directly.
 */
export class SqliteDocumentStore implements DocumentStore {
  readonly adapter = 'sqlite' as const
  private readonly collections = new Map<string, SqliteCollection<Document>>()
  private activeTransaction: Promise<void> | null = null
  private readonly createdInTransaction = new Set<string>()
  private closed = false

  constructor(
    readonly db: Database.Database,
    /**
     * How long an operation waits for another process's lock before the store counts as unavailable.
     * The connection itself does not wait (busy_timeout 0): SQLite's busy wait would block the event
     * loop, holding up every request of the process while a backup or a second writer holds the lock.
     */
    private readonly busyTimeoutMs = 5000,
  ) {}

  collection<T extends Document>(name: string, options: CollectionOptions = {}): DocumentCollection<T> {
    let collection = this.collections.get(name)
    if (!collection) {
      collection = whenUnlockedSync(() => new SqliteCollection<Document>(name, this, this.db, options), this.busyTimeoutMs)
      this.collections.set(name, collection)
      // A table created inside a transaction disappears if it rolls back.
      if (this.db.inTransaction) this.createdInTransaction.add(name)
    }
    return collection as unknown as DocumentCollection<T>
  }

  /**
   * Runs `operation` (synchronous, all or nothing) once no transaction of this store is open and no
   * other connection holds the lock: tried at once, then after growing pauses that leave the event
   * loop free, until the busy timeout has passed.
   */
  private async whenUnlocked<R>(operation: () => R): Promise<R> {
    const deadline = Date.now() + this.busyTimeoutMs
    for (let pause = 2; ; pause = Math.min(pause * 2, 100)) {
      while (this.activeTransaction) await this.activeTransaction
      if (this.closed) throw new Error('Document store is closed')
      try {
        return operation()
      } catch (error) {
        if (!isBusy(error)) throw error
        if (Date.now() >= deadline) throw new DependencyUnavailableError('documents', { cause: error })
      }
      await new Promise((resolve) => setTimeout(resolve, pause))
    }
  }

  runOutsideTransaction<R>(operation: () => R): Promise<R> {
    return this.whenUnlocked(operation)
  }

  /** Takes the write lock and marks the transaction active in the same turn of the event loop, so no other operation runs inside it. */
  private begin(): Promise<() => void> {
    return this.whenUnlocked(() => {
      this.db.exec('BEGIN IMMEDIATE')
      let finish!: () => void
      this.activeTransaction = new Promise<void>((resolve) => (finish = resolve))
      return finish
    })
  }

  async transaction<R>(work: (tx: DocumentTransaction) => Promise<R>): Promise<R> {
    const finish = await this.begin()
    const runner = new TransactionRunner()
    const bound = new Map<string, DocumentCollection<Document>>()
    const tx: DocumentTransaction = {
      collection: <T extends Document>(name: string, options: CollectionOptions = {}) => {
        this.collection(name, options)
        let collection = bound.get(name)
        if (!collection) {
          collection = new SqliteCollection<Document>(name, runner, this.db, options, true)
          bound.set(name, collection)
        }
        return collection as unknown as DocumentCollection<T>
      },
    }
    try {
      let result: R
      try {
        result = await work(tx)
        try {
          this.db.exec('COMMIT')
        } catch (error) {
          if (isBusy(error)) throw new DependencyUnavailableError('documents', { cause: error })
          throw error
        }
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK')
        for (const name of this.createdInTransaction) this.collections.delete(name)
        throw error
      }
      return result
    } finally {
      this.createdInTransaction.clear()
      runner.ended = true
      this.activeTransaction = null
      finish()
    }
  }

  async ping(): Promise<void> {
    await this.runOutsideTransaction(() => this.db.prepare('SELECT 1').get())
  }

  async close(): Promise<void> {
    while (this.activeTransaction) await this.activeTransaction
    if (this.closed) return
    this.closed = true
    this.db.close()
  }
}

/** Runs a transaction's statements at once: they are already inside BEGIN … COMMIT. */
class TransactionRunner implements Runner {
  ended = false

  runOutsideTransaction<R>(operation: () => R): Promise<R> {
    return Promise.resolve().then(() => {
      if (this.ended) throw new Error('This transaction has ended; use the store outside it')
      return operation()
    })
  }
}
