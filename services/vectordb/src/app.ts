import { createServiceApp, probe, type DocumentStore, type JobQueues, type Logger, type ServiceApp, type TokenVerifier, type VectorStore } from '@finsheet/platform'
import { RuleNarrator, type AnalysisNarrator } from './analysis/narrator.js'
import type { Embedder } from './embeddings/embedder.js'
import { createIndexJobs } from './index-jobs.js'
import { vectordbRoutes } from './routes/vectordb-routes.js'
import { CellSearch } from './search/cell-search.js'
import { FormulaSearch, type CatalogueEntry } from './search/formula-search.js'
import type { SpreadsheetReader } from './spreadsheet-client.js'

export interface VectordbAppDependencies {
  verifier: TokenVerifier
  vectors: VectorStore
  /** Which workbooks are indexed, for whom. */
  store: DocumentStore
  jobs: JobQueues
  embedder: Embedder
  /** The engine's function catalogue. */
  catalogue: readonly CatalogueEntry[]
  spreadsheet: SpreadsheetReader
  /** Who writes analysis summaries; the rules by default. */
  narrator?: AnalysisNarrator
  logger?: Logger | boolean
  /** Largest JSON body in bytes. */
  bodyLimit?: number
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The vectordb service's searches, for the worker in the same process and for tests. */
    vectordb: { formulas: FormulaSearch; cells: CellSearch }
  }
}

/** Embeddings, formula and cell search, workbook indexing. Builds the app from its dependencies; never listens. */
export async function buildVectordbApp(deps: VectordbAppDependencies): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'vectordb',
    description: 'Embeddings, formula and cell search, workbook indexing',
    publicPrefix: '/api/vectordb',
    verifier: deps.verifier,
    logger: deps.logger,
    bodyLimit: deps.bodyLimit,
    probes: [probe('vectors', deps.vectors), probe('documents', deps.store), probe('jobs', deps.jobs)],
  })
  const formulas = new FormulaSearch(deps.vectors, deps.embedder, deps.catalogue)
  const cells = new CellSearch(deps.vectors, deps.embedder, deps.store)
  app.decorate('vectordb', { formulas, cells })
  // The catalogue is indexed at start (ids are function names: writing it again changes nothing).
  app.addHook('onReady', async () => {
    await formulas.index()
    await cells.start()
    await deps.vectors.preload?.(cells.collection)
  })
  vectordbRoutes(app, { formulas, cells, jobs: createIndexJobs(deps.jobs), spreadsheet: deps.spreadsheet, narrator: deps.narrator ?? new RuleNarrator() })
  return app
}
