import { createTokenVerifier, createBlobStore, createDocumentStore, createJobQueues, type Logger, type ServiceApp } from '@finsheet/platform'
import { buildFilesApp } from './app.js'
import type { FilesConfig } from './config.js'

/** Builds the files service from config: adapters chosen by env, closed with the app. */
export async function createFilesService(config: FilesConfig, options: { logger?: Logger | boolean } = {}): Promise<ServiceApp> {
  const store = await createDocumentStore(config, 'files')
  const blobs = await createBlobStore(config)
  const jobs = createJobQueues(config)
  const app = await buildFilesApp({ verifier: createTokenVerifier(config), store, blobs, jobs, logger: options.logger })
  app.addHook('onClose', async () => {
    await store.close()
    await blobs.close()
    await jobs.close()
  })
  return app
}
