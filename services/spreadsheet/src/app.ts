import { createServiceApp, probe, type BlobStore, type DocumentStore, type JobQueues, type Logger, type ServiceApp, type TokenVerifier } from '@finsheet/platform'
import { EngineCache, type EngineCacheOptions } from './engine/engine-cache.js'
import { PerformanceMetrics } from './metrics/performance-metrics.js'
import { createSnapshotStore } from './storage/snapshot-store.js'
import { createSpreadsheetRepository } from './storage/spreadsheet-repository.js'
import { VersionService } from './workbooks/version-service.js'
import { WorkbookService } from './workbooks/workbook-service.js'
import { SearchIndexScheduler } from './workbooks/search-index-scheduler.js'
import { createVectorSearchClient } from './workbooks/vector-search-client.js'
import type { SpreadsheetServices } from './routes/services.js'
import { workbookRoutes } from './routes/workbook-routes.js'
import { defaultWorkbookAlias } from './routes/default-workbook.js'
import { cellRoutes } from './routes/cell-routes.js'
import { sheetRoutes } from './routes/sheet-routes.js'
import { historyRoutes } from './routes/history-routes.js'
import { versionRoutes } from './routes/version-routes.js'
import { templateRoutes } from './routes/template-routes.js'
import { searchRoutes } from './routes/search-routes.js'
import { exportRoutes } from './routes/export-routes.js'
import { chartRoutes } from './routes/chart-routes.js'
import { metricsRoutes } from './routes/metrics-routes.js'
import { evaluateRoutes } from './routes/evaluate-routes.js'
import { agentRoutes } from './routes/agent-routes.js'
import { ChangesetService } from './agent/changeset-service.js'

/** How old a new workbook's unfinished blocks must be before start-up removes them. */
const UNFINISHED_WORKBOOK_AGE_MS = 60 * 60_000

export interface SpreadsheetAppDependencies {
  verifier: TokenVerifier
  store: DocumentStore
  /** Where version snapshots live. */
  blobs: BlobStore
  logger?: Logger | boolean
  /** Quiet time before an automatic version; 0 turns automatic versions off. Default 30 s. */
  autosaveQuietMs?: number
  engineCache?: Partial<EngineCacheOptions>
  /** Largest ordinary JSON body in bytes. */
  bodyLimit?: number
  /** Largest bulk-import body in bytes. */
  importLimit?: number
  /**
   * Where the vector search's index jobs go, and how long a workbook must go unchanged before it is
   * indexed again (0: never). Without a queue the search index is not kept.
   */
  searchIndex?: { jobs: JobQueues; quietMs: number }
  /** The vectordb service, for search-cells with `semantic: true`. */
  vectordbUrl?: string
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The spreadsheet service's parts, for tests and the all-in-one start. */
    spreadsheet: SpreadsheetServices
  }
}

/** Workbooks, sheets, cells, recalculation, history, undo/redo, export, versions, charts and the assistant's tools. Builds the app from its dependencies; never listens. */
export async function buildSpreadsheetApp(deps: SpreadsheetAppDependencies): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'spreadsheet',
    description: 'Workbooks, sheets, cells, recalculation, history, undo/redo, export, versions and charts',
    publicPrefix: '/api/spreadsheet',
    verifier: deps.verifier,
    logger: deps.logger,
    bodyLimit: deps.bodyLimit,
    probes: [probe('documents', deps.store), probe('blobs', deps.blobs), ...(deps.searchIndex ? [probe('jobs', deps.searchIndex.jobs)] : [])],
  })

  const repo = createSpreadsheetRepository(deps.store)
  const snapshots = createSnapshotStore(deps.blobs)
  const metrics = new PerformanceMetrics()
  const cache = new EngineCache({ maxWorkbooks: deps.engineCache?.maxWorkbooks ?? 32, maxCells: deps.engineCache?.maxCells ?? 3_000_000 })
  const workbooks = new WorkbookService(repo, snapshots, cache, metrics, app.log)
  const versions = new VersionService(repo, snapshots, workbooks, metrics, { quietMs: deps.autosaveQuietMs ?? 30_000, logger: app.log })
  const vectorSearch = deps.vectordbUrl ? createVectorSearchClient(deps.vectordbUrl) : null
  const changesets = new ChangesetService(repo, workbooks, versions, app.log)
  const services: SpreadsheetServices = { repo, snapshots, cache, metrics, workbooks, versions, vectorSearch, changesets }
  if (deps.searchIndex) {
    const scheduler = new SearchIndexScheduler(deps.searchIndex.jobs, { quietMs: deps.searchIndex.quietMs, logger: app.log })
    workbooks.onChange(scheduler)
    app.addHook('preClose', async () => {
      await scheduler.flush()
      scheduler.close()
    })
  }
  app.decorate('spreadsheet', services)

  app.addHook('onResponse', async (request, reply) => {
    metrics.recordRequest(request.method, request.routeOptions.url ?? '(no route)', reply.statusCode, reply.elapsedTime)
  })
  // Workbooks an earlier version stored one document per cell move into blocks before the first request.
  app.addHook('onReady', async () => {
    const moved = await repo.moveLegacyCells()
    if (moved > 0) app.log.info({ workbooks: moved }, 'moved cells stored one per document into blocks')
    // A process that died mid-import left blocks no workbook shows; an import still running elsewhere is younger than this.
    const swept = await repo.sweepUnfinishedWorkbooks(UNFINISHED_WORKBOOK_AGE_MS)
    if (swept > 0) app.log.info({ workbooks: swept }, 'removed the blocks of imports that never finished')
    const purged = await workbooks.purgeExpiredTrash()
    if (purged > 0) app.log.info({ workbooks: purged }, 'erased deleted workbooks whose time in the trash was up')
  })
  // On a graceful stop, the automatic versions still waiting for their quiet period are made now.
  app.addHook('preClose', async () => {
    await versions.flush()
  })
  app.addHook('onClose', async () => {
    versions.close()
  })

  // before every route, so that each sees the real id of the workbook `defaultWorkbook` names
  defaultWorkbookAlias(app, services)
  workbookRoutes(app, services, { importLimit: deps.importLimit ?? 256 * 1024 * 1024 })
  cellRoutes(app, services)
  sheetRoutes(app, services)
  historyRoutes(app, services)
  versionRoutes(app, services)
  templateRoutes(app)
  searchRoutes(app, services)
  exportRoutes(app, services)
  chartRoutes(app, services)
  metricsRoutes(app, services)
  evaluateRoutes(app, services)
  agentRoutes(app, services)
  return app
}
