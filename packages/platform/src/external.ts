// The scaled-out engines' adapters, for code that builds one directly (tests, tools). Kept off the
// package's index: loading their clients costs every process that imports the index, and the embedded
// run never uses them (adapters.ts loads the one config chooses).
export { createMongoDocumentStore, MongoDocumentStore } from './documents/mongo-document-store.js'
export type { MongoDocumentStoreOptions } from './documents/mongo-document-store.js'
export { createMinioBlobStore, MinioBlobStore } from './blobs/minio-blob-store.js'
export type { MinioBlobStoreOptions } from './blobs/minio-blob-store.js'
export { QdrantVectorStore } from './vectors/qdrant-vector-store.js'
export { BullmqJobQueues } from './jobs/bullmq-job-queue.js'
