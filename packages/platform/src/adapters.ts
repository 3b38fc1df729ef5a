import { join, resolve } from 'node:path'
import type { PlatformConfig } from './config/config.js'
import type { StatusProbe } from './kit/create-service-app.js'
import type { DocumentStore } from './documents/port.js'
import { createSqliteDocumentStore } from './documents/sqlite-document-store.js'
import type { BlobStore } from './blobs/port.js'
import { FsBlobStore } from './blobs/fs-blob-store.js'
import type { VectorStore } from './vectors/port.js'
import { SqliteVectorStore } from './vectors/sqlite-vector-store.js'
import type { JobQueues } from './jobs/port.js'
import { SqliteJobQueues } from './jobs/sqlite-job-queue.js'

// Config chooses each adapter here and nowhere else: a variable set means the scaled-out engine.
// The scaled-out engines' clients are loaded only when chosen: together they cost every process (and
// every spreadsheet thread) ~45 MB and ~0.9 s of start-up that the embedded adapters never use.

type AdapterConfig = Pick<
  PlatformConfig,
  | 'DATA_DIR'
  | 'MONGO_URL'
  | 'MONGO_DB_PREFIX'
  | 'S3_ENDPOINT'
  | 'S3_PUBLIC_ENDPOINT'
  | 'S3_ACCESS_KEY'
  | 'S3_SECRET_KEY'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'QDRANT_URL'
  | 'QDRANT_API_KEY'
  | 'REDIS_URL'
>

export const dataDir = (config: Pick<PlatformConfig, 'DATA_DIR'>) => resolve(config.DATA_DIR)

/** SQLite file DATA_DIR/documents/<service>.sqlite, or database <prefix><service> in MongoDB. */
export async function createDocumentStore(config: AdapterConfig, service: string): Promise<DocumentStore> {
  if (config.MONGO_URL) {
    const { createMongoDocumentStore } = await import('./documents/mongo-document-store.js')
    return createMongoDocumentStore({ url: config.MONGO_URL, database: `${config.MONGO_DB_PREFIX}${service}` })
  }
  return createSqliteDocumentStore({ path: join(dataDir(config), 'documents', `${service}.sqlite`) })
}

/**
 * Files under DATA_DIR/blobs, or a MinIO bucket. `downloadBaseUrl` is the route that serves the
 * files adapter's signed URLs (the files service's /download, /api/files/download at the gateway).
 */
export async function createBlobStore(config: AdapterConfig, options: { downloadBaseUrl?: string } = {}): Promise<BlobStore> {
  if (config.S3_ENDPOINT) {
    const { createMinioBlobStore } = await import('./blobs/minio-blob-store.js')
    return createMinioBlobStore({
      endpoint: config.S3_ENDPOINT,
      publicEndpoint: config.S3_PUBLIC_ENDPOINT,
      accessKey: config.S3_ACCESS_KEY as string,
      secretKey: config.S3_SECRET_KEY as string,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
    })
  }
  return new FsBlobStore({ root: join(dataDir(config), 'blobs'), downloadBaseUrl: options.downloadBaseUrl ?? '/api/files/download' })
}

export async function createVectorStore(config: AdapterConfig): Promise<VectorStore> {
  if (config.QDRANT_URL) {
    const { QdrantVectorStore } = await import('./vectors/qdrant-vector-store.js')
    return new QdrantVectorStore({ url: config.QDRANT_URL, apiKey: config.QDRANT_API_KEY })
  }
  return new SqliteVectorStore(join(dataDir(config), 'vectors.sqlite'))
}

/** One queue database for every service on this DATA_DIR, or BullMQ on Redis. */
export async function createJobQueues(config: AdapterConfig): Promise<JobQueues> {
  if (config.REDIS_URL) {
    const { BullmqJobQueues } = await import('./jobs/bullmq-job-queue.js')
    return new BullmqJobQueues({ url: config.REDIS_URL })
  }
  return new SqliteJobQueues({ path: join(dataDir(config), 'jobs.sqlite') })
}

/** What /status reports for an adapter. */
export function probe(port: string, adapter: { adapter: string; ping(): Promise<void> }): StatusProbe {
  return { port, adapter: adapter.adapter, check: () => adapter.ping() }
}
