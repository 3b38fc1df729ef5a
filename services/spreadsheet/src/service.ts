import { createTokenVerifier, createDocumentStore, type Logger, type ServiceApp } from '@finsheet/platform'
import { buildSpreadsheetApp } from './app.js'
import type { SpreadsheetConfig } from './config.js'

/** Builds the spreadsheet service from config: adapters chosen by env, closed with the app. */
export async function createSpreadsheetService(config: SpreadsheetConfig, options: { logger?: Logger | boolean } = {}): Promise<ServiceApp> {
  const store = await createDocumentStore(config, 'spreadsheet')
  const app = await buildSpreadsheetApp({ verifier: createTokenVerifier(config), store, logger: options.logger })
  app.addHook('onClose', async () => {
    await store.close()
  })
  return app
}
