import { createBlobStore, createDocumentStore, createTokenVerifier, type Logger, type ServiceApp } from '@finsheet/platform'
import { buildSpreadsheetApp } from './app.js'
import type { SpreadsheetConfig } from './config.js'

/** Builds the spreadsheet service from config: adapters chosen by env, closed with the app. */
export async function createSpreadsheetService(config: SpreadsheetConfig, options: { logger?: Logger | boolean } = {}): Promise<ServiceApp> {
  const store = await createDocumentStore(config, 'spreadsheet')
  const blobs = await createBlobStore(config)
  const app = await buildSpreadsheetApp({
    verifier: createTokenVerifier(config),
    store,
    blobs,
    logger: options.logger,
    autosaveQuietMs: config.AUTOSAVE_QUIET_MS,
    engineCache: { maxWorkbooks: config.ENGINE_CACHE_WORKBOOKS, maxCells: config.ENGINE_CACHE_CELLS },
    bodyLimit: config.BODY_LIMIT_BYTES,
    importLimit: config.IMPORT_LIMIT_BYTES,
  })
  app.addHook('onClose', async () => {
    await store.close()
    await blobs.close()
  })
  return app
}
