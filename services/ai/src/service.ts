import { createTokenVerifier, createDocumentStore, createJobQueues, type Logger, type ServiceApp } from '@finsheet/platform'
import { buildAiApp } from './app.js'
import type { AiConfig } from './config.js'

/** Builds the ai service from config: adapters chosen by env, closed with the app. */
export async function createAiService(config: AiConfig, options: { logger?: Logger | boolean } = {}): Promise<ServiceApp> {
  const store = await createDocumentStore(config, 'ai')
  const jobs = createJobQueues(config)
  const app = await buildAiApp({
    verifier: createTokenVerifier(config),
    store,
    jobs,
    logger: options.logger,
    documentLimitBytes: config.UPLOAD_LIMIT_BYTES,
    bodyLimit: config.BODY_LIMIT_BYTES,
  })
  app.addHook('onClose', async () => {
    await store.close()
    await jobs.close()
  })
  return app
}
