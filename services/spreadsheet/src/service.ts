import { createBlobStore, createDocumentStore, createJobQueues, createTokenVerifier, type Logger, type ServiceApp } from '@finsheet/platform'
import { buildSpreadsheetApp } from './app.js'
import type { SpreadsheetConfig } from './config.js'
import { createSpreadsheetThreads } from './threads/spreadsheet-threads.js'

/** Builds the spreadsheet service from config: adapters chosen by env, closed with the app. */
export async function createSpreadsheetService(config: SpreadsheetConfig, options: { logger?: Logger | boolean } = {}): Promise<ServiceApp> {
  const store = await createDocumentStore(config, 'spreadsheet')
  const blobs = await createBlobStore(config)
  const jobs = await createJobQueues(config)
  const app = await buildSpreadsheetApp({
    verifier: createTokenVerifier(config),
    store,
    blobs,
    logger: options.logger,
    autosaveQuietMs: config.AUTOSAVE_QUIET_MS,
    engineCache: { maxWorkbooks: config.ENGINE_CACHE_WORKBOOKS, maxCells: config.ENGINE_CACHE_CELLS },
    bodyLimit: config.BODY_LIMIT_BYTES,
    importLimit: config.IMPORT_LIMIT_BYTES,
    searchIndex: { jobs, quietMs: config.SEARCH_INDEX_QUIET_MS },
    vectordbUrl: config.VECTORDB_URL,
  })
  app.addHook('onClose', async () => {
    await store.close()
    await blobs.close()
    await jobs.close()
  })
  return app
}

/**
 * The service as `SPREADSHEET_THREADS` replicas in worker threads behind one port (see
 * threads/spreadsheet-threads.ts), or on this event loop when it is 0. `env` is what the replicas read
 * their config from.
 */
export async function startSpreadsheetService(config: SpreadsheetConfig, env: Record<string, string | undefined>, options: { logger?: Logger | false } = {}): Promise<ServiceApp> {
  if (config.SPREADSHEET_THREADS === 0) return createSpreadsheetService(config, options)
  return createSpreadsheetThreads({ threads: config.SPREADSHEET_THREADS, env, logger: options.logger ?? false, memoryMb: config.SPREADSHEET_THREAD_MEMORY_MB, youngMb: config.SPREADSHEET_THREAD_YOUNG_MB })
}
