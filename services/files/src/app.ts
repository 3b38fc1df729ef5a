import { createServiceApp, probe, type BlobStore, type DocumentStore, type JobQueues, type Logger, type ServiceApp, type TokenVerifier } from '@finsheet/platform'

export interface FilesAppDependencies {
  verifier: TokenVerifier
  store: DocumentStore
  blobs: BlobStore
  jobs: JobQueues
  logger?: Logger | boolean
}

/** Upload, list, delete and import of xlsx, csv and pdf files. Builds the app from its dependencies; never listens. */
export async function buildFilesApp(deps: FilesAppDependencies): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'files',
    description: 'Upload, list, delete and import of xlsx, csv and pdf files',
    publicPrefix: '/api/files',
    verifier: deps.verifier,
    logger: deps.logger,
    probes: [probe('documents', deps.store), probe('blobs', deps.blobs), probe('jobs', deps.jobs)],
  })
  return app
}
