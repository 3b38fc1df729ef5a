import { createTokenVerifier, createJobQueues, createVectorStore, type Logger, type ServiceApp } from '@finsheet/platform'
import { buildVectordbApp } from './app.js'
import type { VectordbConfig } from './config.js'

/** Builds the vectordb service from config: adapters chosen by env, closed with the app. */
export async function createVectordbService(config: VectordbConfig, options: { logger?: Logger | boolean } = {}): Promise<ServiceApp> {
  const vectors = await createVectorStore(config)
  const jobs = createJobQueues(config)
  const app = await buildVectordbApp({ verifier: createTokenVerifier(config), vectors, jobs, logger: options.logger, bodyLimit: config.BODY_LIMIT_BYTES })
  app.addHook('onClose', async () => {
    await vectors.close()
    await jobs.close()
  })
  return app
}
