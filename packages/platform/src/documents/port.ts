/**
 * The documents port: JSON documents in named collections, keyed by `id`, with indexed filters.
 * Adapters: SQLite (embedded, one file per service) and MongoDB (one database per service).
 */

export type FieldValue = string | number | boolean | null

export interface FieldOperators {
  $eq?: FieldValue
  $ne?: FieldValue
  $gt?: string | number
  $gte?: string | number
  $lt?: string | number
  $lte?: string | number
  $in?: FieldValue[]
  /** Strings that start with this text; served by the field's index. */
  $prefix?: string
}

export type FieldCondition = FieldValue | FieldOperators

/** Every named field must match (AND). Field names may be dotted paths into nested objects. */
export type Filter = Record<string, FieldCondition>

export type SortDirection = 1 | -1

export interface FindOptions {
  /** Fields in priority order; ties are broken by id so pages are stable. */
  sort?: Array<[field: string, direction: SortDirection]>
  limit?: number
  offset?: number
}

export interface Document {
  id: string
}

export interface IndexSpec {
  fields: string[]
  unique?: boolean
  /** Unique only among documents whose first field holds a string or number; others may repeat null or leave it out. */
  sparse?: boolean
}

export interface CollectionOptions {
  indexes?: IndexSpec[]
}

/** A document found, with its id, decoded when read. */
export interface DeferredDocument<T extends Document> {
  readonly id: string
  read(): T
}

export interface DocumentCollection<T extends Document> {
  readonly name: string
  get(id: string): Promise<T | null>
  getMany(ids: string[]): Promise<T[]>
  /** Adds a new document; throws DuplicateKeyError when the id or a unique field is taken. */
  insert(doc: T): Promise<void>
  /** Creates or replaces the document with this id. */
  put(doc: T): Promise<void>
  /** Creates or replaces many documents in one atomic write: all are stored, or none. */
  putMany(docs: T[]): Promise<void>
  /**
   * Sets top-level fields on every document matching the filter and returns how many matched.
   * With the current revision in the filter this is a compare-and-set.
   */
  update(filter: Filter, patch: Partial<Omit<T, 'id'>>): Promise<number>
  delete(id: string): Promise<boolean>
  deleteMany(filter: Filter): Promise<number>
  find(filter?: Filter, options?: FindOptions): Promise<T[]>
  /**
   * As find, each document decoded only when it is read (the SQLite store keeps its text till then):
   * for a reader that goes through many large documents a few at a time, answering meanwhile.
   */
  findDeferred(filter?: Filter, options?: FindOptions): Promise<DeferredDocument<T>[]>
  findOne(filter: Filter, options?: Omit<FindOptions, 'limit'>): Promise<T | null>
  count(filter?: Filter): Promise<number>
}

/** The collections as seen inside a transaction. */
export interface DocumentTransaction {
  collection<T extends Document>(name: string, options?: CollectionOptions): DocumentCollection<T>
}

export interface DocumentStore extends DocumentTransaction {
  readonly adapter: 'sqlite' | 'mongodb'
  /**
   * Runs `work` atomically across collections: every write commits together, or none does when it
   * throws. MongoDB may run `work` again on a transient conflict, so keep it free of outside effects.
   */
  transaction<R>(work: (tx: DocumentTransaction) => Promise<R>): Promise<R>
  ping(): Promise<void>
  close(): Promise<void>
}

export class DuplicateKeyError extends Error {
  constructor(
    readonly collection: string,
    detail: string,
  ) {
    super(`Duplicate key in ${collection}: ${detail}`)
    this.name = 'DuplicateKeyError'
  }
}

export class InvalidQueryError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'InvalidQueryError'
  }
}

const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/
const COLLECTION_NAME = /^[A-Za-z][A-Za-z0-9_]{0,62}$/

export function assertFieldPath(path: string): void {
  if (!FIELD_PATH.test(path)) throw new InvalidQueryError(`Invalid field name: ${JSON.stringify(path)}`)
}

export function assertCollectionName(name: string): void {
  if (!COLLECTION_NAME.test(name)) throw new InvalidQueryError(`Invalid collection name: ${JSON.stringify(name)}`)
}

export function isOperators(condition: FieldCondition): condition is FieldOperators {
  return typeof condition === 'object' && condition !== null
}

const KNOWN_OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$prefix'])

export function assertOperators(field: string, operators: FieldOperators): void {
  for (const key of Object.keys(operators)) {
    if (!KNOWN_OPERATORS.has(key)) throw new InvalidQueryError(`Unknown operator ${key} on ${field}`)
  }
  if (operators.$in !== undefined && !Array.isArray(operators.$in)) throw new InvalidQueryError(`$in on ${field} needs a list`)
  if (operators.$prefix !== undefined && typeof operators.$prefix !== 'string') throw new InvalidQueryError(`$prefix on ${field} needs a string`)
}

export function assertDocumentId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || id.length === 0 || id.length > 1024) throw new InvalidQueryError('A document needs a non-empty string id')
}

export function assertPage(options: FindOptions | undefined): void {
  if (!options) return
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 0)) throw new InvalidQueryError('limit must be a whole number ≥ 0')
  if (options.offset !== undefined && (!Number.isInteger(options.offset) || options.offset < 0)) throw new InvalidQueryError('offset must be a whole number ≥ 0')
  for (const [field, direction] of options.sort ?? []) {
    assertFieldPath(field)
    if (direction !== 1 && direction !== -1) throw new InvalidQueryError(`Sort direction of ${field} must be 1 or -1`)
  }
}

/** The top-level fields of a patch that are set, without id and undefined values. */
export function patchEntries(patch: object): Array<[string, unknown]> {
  return Object.entries(patch).filter(([key, value]) => key !== 'id' && value !== undefined)
}
