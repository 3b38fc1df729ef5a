import multipart from '@fastify/multipart'
import { createServiceApp, probe, type BlobStore, type DocumentStore, type JobQueues, type Logger, type ServiceApp, type TokenVerifier } from '@finsheet/platform'
import { DEFAULT_UPLOAD_LIMIT_BYTES } from '@finsheet/contracts'
import { createFileJobs } from './file-jobs.js'
import { createFileRepository } from './repositories/file-repository.js'
import { fileRoutes } from './routes/file-routes.js'
import { spreadsheetImportRoutes } from './routes/spreadsheet-import-routes.js'

export interface FilesAppDependencies {
  verifier: TokenVerifier
  store: DocumentStore
  blobs: BlobStore
  jobs: JobQueues
  logger?: Logger | boolean
  /** Largest upload in bytes; larger answers 413. Default 50 MB. */
  uploadLimitBytes?: number
  /** Largest JSON body in bytes. */
  bodyLimit?: number
  /** How long the import routes wait for their job before answering it is still running. */
  importWaitMs?: number
}

/** Upload, list, delete and import of xlsx, csv and pdf files. Builds the app from its dependencies; never listens. */
export async function buildFilesApp(deps: FilesAppDependencies): Promise<ServiceApp> {
  const uploadLimitBytes = deps.uploadLimitBytes ?? DEFAULT_UPLOAD_LIMIT_BYTES
  const app = await createServiceApp({
    name: 'files',
    description: 'Upload, list, delete and import of xlsx, csv and pdf files',
    publicPrefix: '/api/files',
    verifier: deps.verifier,
    logger: deps.logger,
    bodyLimit: deps.bodyLimit,
    probes: [probe('documents', deps.store), probe('blobs', deps.blobs), probe('jobs', deps.jobs)],
  })
  // The stream is cut one byte past the limit so the upload can tell "too large" from "exactly the limit".
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: uploadLimitBytes + 1, files: 2, fields: 20, fieldSize: 64 * 1024, parts: 40, headerPairs: 100 },
  })
  const files = createFileRepository(deps.store)
  const jobs = createFileJobs(deps.jobs, deps.importWaitMs ?? 120_000)
  fileRoutes(app, { files, blobs: deps.blobs, jobs, uploadLimitBytes })
  spreadsheetImportRoutes(app, { files, blobs: deps.blobs, jobs, uploadLimitBytes })
  return app
}
