import {
  createDocumentStore,
  createJobQueues,
  createTokenVerifier,
  createUserTokenSource,
  createVectorStore,
  type JobWorker,
  type Logger,
  type ServiceApp,
} from '@finsheet/platform'
import { functionCatalogue } from '@finsheet/formula'
import { buildVectordbApp } from './app.js'
import { runsWorker, type VectordbConfig } from './config.js'
import { createEmbedder } from './embeddings/create-embedder.js'
import { createIndexJobs, createIndexProcessor, startIndexWorker } from './index-jobs.js'
import { createSpreadsheetReader } from './spreadsheet-client.js'

/** Builds the vectordb service from config: adapters chosen by env, closed with the app. */
export async function createVectordbService(config: VectordbConfig, options: { logger?: Logger | boolean } = {}): Promise<ServiceApp> {
  const vectors = await createVectorStore(config)
  const store = await createDocumentStore(config, 'vectordb')
  const jobs = await createJobQueues(config)
  const embedder = await createEmbedder(config)
  const spreadsheet = createSpreadsheetReader(config.SPREADSHEET_URL)
  const app = await buildVectordbApp({ verifier: createTokenVerifier(config), vectors, store, jobs, embedder, catalogue: functionCatalogue(), spreadsheet, logger: options.logger, bodyLimit: config.BODY_LIMIT_BYTES })
  let worker: JobWorker | null = null
  if (runsWorker(config)) {
    const processor = createIndexProcessor({ cells: app.vectordb.cells, spreadsheet, userTokens: await createUserTokenSource(config, 'vectordb-worker') })
    app.addHook('onReady', async () => {
      worker = startIndexWorker(jobs, processor, config.WORKER_CONCURRENCY)
    })
  }
  // After a change of embedder the workbooks indexed with the old one are indexed again, by their owners' jobs.
  app.addHook('onReady', async () => {
    const stale = await app.vectordb.cells.staleWorkbooks()
    const indexJobs = createIndexJobs(jobs)
    for (const workbook of stale) await indexJobs.enqueueIndex(workbook.id, workbook.ownerId)
    if (stale.length > 0) app.log.info({ workbooks: stale.length, embedder: embedder.id }, 'indexing workbooks again for a new embedder')
  })
  app.addHook('onClose', async () => {
    await (worker as JobWorker | null)?.close()
    await jobs.close()
    await vectors.close()
    await store.close()
  })
  return app
}
