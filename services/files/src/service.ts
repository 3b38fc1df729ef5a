import { createTokenVerifier, createUserTokenSource, createBlobStore, createDocumentStore, createJobQueues, type Logger, type ServiceApp } from '@finsheet/platform'
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from '@finsheet/workbook'
import { buildFilesApp } from './app.js'
import type { FilesConfig } from './config.js'
import { startFileWorker } from './file-worker.js'

/** The import limits a config sets. */
export function importLimitsOf(config: FilesConfig): ImportLimits {
  return { ...DEFAULT_IMPORT_LIMITS, maxCells: config.IMPORT_MAX_CELLS, maxUncompressedBytes: config.IMPORT_MAX_UNCOMPRESSED_BYTES }
}

/** Whether this process runs the files.process worker: always in embedded mode unless told not to. */
export function runsWorker(config: FilesConfig): boolean {
  return config.RUN_WORKER === 'true' || (config.RUN_WORKER === 'auto' && !config.REDIS_URL)
}

/** Builds the files service from config: adapters chosen by env, closed with the app. */
export async function createFilesService(config: FilesConfig, options: { logger?: Logger | boolean } = {}): Promise<ServiceApp> {
  const store = await createDocumentStore(config, 'files')
  const blobs = await createBlobStore(config)
  const jobs = await createJobQueues(config)
  const app = await buildFilesApp({
    verifier: createTokenVerifier(config),
    store,
    blobs,
    jobs,
    logger: options.logger,
    uploadLimitBytes: config.UPLOAD_LIMIT_BYTES,
    bodyLimit: config.BODY_LIMIT_BYTES,
    importWaitMs: config.IMPORT_WAIT_MS,
  })
  const worker = runsWorker(config)
    ? startFileWorker({
        store,
        blobs,
        jobs,
        spreadsheet: config.SPREADSHEET_URL,
        userTokens: await createUserTokenSource(config, 'files-worker'),
        limits: importLimitsOf(config),
        concurrency: config.WORKER_CONCURRENCY,
        workDir: config.WORK_DIR,
        logger: app.log.child({ worker: 'files.process' }) as unknown as Logger,
      })
    : null
  app.addHook('onClose', async () => {
    await worker?.close()
    await store.close()
    await blobs.close()
    await jobs.close()
  })
  return app
}
