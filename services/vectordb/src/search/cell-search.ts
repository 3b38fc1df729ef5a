import { randomUUID } from 'node:crypto'
import type { CellMatch, CellsResponse, IndexedWorkbook } from '@finsheet/contracts'
import type { DocumentStore, VectorFilter, VectorStore } from '@finsheet/platform'
import type { Embedder } from '../embeddings/embedder.js'
import { keyTerms, allTerms } from '../embeddings/text-features.js'
import { workbookDocuments } from '../workbooks/workbook-documents.js'
import { collectionName } from './collections.js'

/** What the service remembers of an indexed workbook. */
export interface IndexedWorkbookDoc {
  id: string
  ownerId: string
  name: string
  revision: number
  points: number
  indexedAt: string
  /** The embedder whose vectors the points hold. */
  embedder: string
  /** Index runs that may still have points in the store; all but the last complete one are removed. */
  runs: string[]
}

const UPSERT_BATCH = 500
/** Matches read from the vectors before the ranking by words. */
const CANDIDATE_FACTOR = 4
const KEYWORD_WEIGHT = 0.25
const NAME_CACHE_MS = 60_000

/**
 * Cell search over the user's indexed workbooks: each workbook's labels, headers, figures and texts
 * are points of one collection, with the owner and the workbook in their payload, so that a search
 * only ever reads the caller's own points (a filter on the owner, in the store).
 */
export class CellSearch {
  readonly collection: string
  /** Terms of the labels and headers results show, kept as they are read (they repeat across searches). */
  private readonly labelTerms = new Map<string, Set<string>>()
  /** Workbook names by id, kept a minute: another process (the worker) may index a renamed workbook. */
  private readonly names = new Map<string, { name: string; at: number }>()

  constructor(
    private readonly vectors: VectorStore,
    private readonly embedder: Embedder,
    private readonly store: DocumentStore,
  ) {
    this.collection = collectionName('cells', embedder)
  }

  private get registry() {
    return this.store.collection<IndexedWorkbookDoc>('indexed_workbooks', { indexes: [{ fields: ['ownerId'] }] })
  }

  async start(): Promise<void> {
    await this.vectors.ensureCollection(this.collection, this.embedder.dimensions, { indexedFields: ['ownerId', 'workbookId', 'run'] })
  }

  /**
   * Indexes a workbook as it is now, replacing what was indexed of it: the new points are written
   * first and the previous run's points removed after, so a search meanwhile still finds the workbook.
   */
  async index(workbook: CellsResponse['workbook'], ownerId: string, onProgress?: (fraction: number) => Promise<void>): Promise<number> {
    const run = randomUUID()
    const registry = this.registry
    const previous = await registry.get(workbook.workbookId)
    if (previous && previous.ownerId !== ownerId) throw new Error('A workbook indexed for another owner')
    await registry.put({
      id: workbook.workbookId,
      ownerId,
      name: previous?.name ?? workbook.name,
      revision: previous?.revision ?? -1,
      points: previous?.points ?? 0,
      indexedAt: previous?.indexedAt ?? new Date(0).toISOString(),
      embedder: previous?.embedder ?? this.embedder.id,
      runs: [...(previous?.runs ?? []), run],
    })
    const documents = workbookDocuments(workbook)
    for (let start = 0; start < documents.length; start += UPSERT_BATCH) {
      const batch = documents.slice(start, start + UPSERT_BATCH)
      const vectors = await this.embedder.embedDocuments(batch.map((document) => document.text))
      const points = batch.flatMap((document, i) =>
        vectors[i].some((x) => x !== 0)
          ? [
              {
                id: document.id,
                vector: vectors[i],
                payload: {
                  ownerId,
                  workbookId: workbook.workbookId,
                  run,
                  sheet: document.sheet,
                  address: document.address,
                  label: document.label,
                  header: document.header,
                  value: document.value,
                  formula: document.formula,
                  kind: document.kind,
                },
              },
            ]
          : [],
      )
      await this.vectors.upsert(this.collection, points)
      await onProgress?.(Math.min(1, (start + batch.length) / Math.max(1, documents.length)))
    }
    const stale = (await registry.get(workbook.workbookId))?.runs.filter((other) => other !== run) ?? []
    if (stale.length > 0) await this.vectors.deleteWhere(this.collection, { workbookId: workbook.workbookId, run: { $in: stale } })
    await registry.put({
      id: workbook.workbookId,
      ownerId,
      name: workbook.name,
      revision: workbook.revision,
      points: documents.length,
      indexedAt: new Date().toISOString(),
      embedder: this.embedder.id,
      runs: [run],
    })
    this.names.set(workbook.workbookId, { name: workbook.name, at: Date.now() })
    return documents.length
  }

  /** Removes a workbook's points and its record; nothing happens for another owner's workbook. */
  async remove(workbookId: string, ownerId: string): Promise<boolean> {
    const known = await this.registry.get(workbookId)
    if (known && known.ownerId !== ownerId) return false
    await this.vectors.deleteWhere(this.collection, { workbookId, ownerId })
    if (known) await this.registry.delete(workbookId)
    this.names.delete(workbookId)
    return known !== null
  }

  async indexedWorkbook(workbookId: string): Promise<IndexedWorkbookDoc | null> {
    return this.registry.get(workbookId)
  }

  /** The owner's indexed workbooks, most recently indexed first. */
  async indexedWorkbooks(ownerId: string): Promise<IndexedWorkbook[]> {
    const docs = await this.registry.find({ ownerId }, { sort: [['indexedAt', -1]], limit: 500 })
    return docs.filter((doc) => doc.revision >= 0).map((doc) => ({ workbookId: doc.id, name: doc.name, points: doc.points, revision: doc.revision, indexedAt: doc.indexedAt }))
  }

  /** Workbooks whose points came from another embedder: to index again after a change of embedder. */
  async staleWorkbooks(): Promise<IndexedWorkbookDoc[]> {
    return (await this.registry.find({}, { limit: 100_000 })).filter((doc) => doc.embedder !== this.embedder.id)
  }

  async search(query: string, ownerId: string, options: { workbookId?: string; limit: number }): Promise<CellMatch[]> {
    const vector = await this.embedder.embedQuery(query)
    if (!vector.some((x) => x !== 0)) return []
    const filter: VectorFilter = options.workbookId ? { ownerId, workbookId: options.workbookId } : { ownerId }
    const matches = await this.vectors.search(this.collection, vector, { limit: options.limit * CANDIDATE_FACTOR, filter })
    const queryTerms = [...keyTerms(query)]
    const folded = query.trim().toLowerCase()
    const nameOf = async (workbookId: string) => {
      const known = this.names.get(workbookId)
      if (known && Date.now() - known.at < NAME_CACHE_MS) return known.name
      const name = (await this.registry.get(workbookId))?.name ?? ''
      this.names.set(workbookId, { name, at: Date.now() })
      return name
    }
    const termsOf = (text: string) => {
      let terms = this.labelTerms.get(text)
      if (!terms) {
        if (this.labelTerms.size >= 50_000) this.labelTerms.clear()
        terms = allTerms(text)
        this.labelTerms.set(text, terms)
      }
      return terms
    }
    const ranked: CellMatch[] = []
    for (const match of matches) {
      const payload = match.payload as Record<string, unknown>
      const label = String(payload.label ?? '')
      const header = (payload.header as string | null) ?? null
      let score = match.score
      if (queryTerms.length > 0) {
        const terms = termsOf(`${label} ${header ?? ''}`)
        score += (KEYWORD_WEIGHT * queryTerms.filter((term) => terms.has(term)).length) / queryTerms.length
      }
      if (label.toLowerCase() === folded) score += 0.5
      ranked.push({
        workbookId: String(payload.workbookId),
        workbookName: await nameOf(String(payload.workbookId)),
        sheet: String(payload.sheet),
        address: String(payload.address),
        label,
        header,
        value: (payload.value ?? null) as CellMatch['value'],
        formula: (payload.formula as string | null) ?? null,
        kind: payload.kind as CellMatch['kind'],
        score: Math.round(score * 10_000) / 10_000,
      })
    }
    return ranked.sort((a, b) => b.score - a.score).slice(0, options.limit)
  }
}
