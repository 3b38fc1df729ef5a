import { Type, type Static } from 'typebox'
import { loadConfig, platformEnvProperties, usersUrlProperty } from '@finsheet/platform'

export const VectordbEnv = Type.Object({
  ...platformEnvProperties,
  ...usersUrlProperty,
  PORT: Type.Integer({ default: 3005, minimum: 0, maximum: 65_535 }),
  SPREADSHEET_URL: Type.String({ pattern: '^https?://[^\\s]+$', default: 'http://127.0.0.1:3002', description: 'The spreadsheet service, which the indexer reads workbooks from' }),
  /** With a key and EMBEDDINGS_MODEL, embeddings come from OpenAI's API (or any server speaking it at OPENAI_BASE_URL). */
  OPENAI_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  OPENAI_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  /**
   * The embeddings model (text-embedding-3-small, say). Asked for by name: a key alone (set for the
   * assistant's chat models, perhaps on a server that serves no embeddings) keeps the offline embedder.
   */
  EMBEDDINGS_MODEL: Type.Optional(Type.String({ minLength: 1 })),
  /** Vector size asked of the embeddings API; its model's own size when unset. */
  EMBEDDINGS_DIMENSIONS: Type.Optional(Type.Integer({ minimum: 8, maximum: 8192 })),
  /** auto: index in this process with the embedded queue, and leave it to vectordb-worker with Redis. */
  RUN_WORKER: Type.Union([Type.Literal('auto'), Type.Literal('true'), Type.Literal('false')], { default: 'auto' }),
  WORKER_CONCURRENCY: Type.Integer({ default: 1, minimum: 1, maximum: 16 }),
  /** A file the worker touches after each poll, for container health checks; default in the temporary folder. */
  WORKER_HEARTBEAT_FILE: Type.Optional(Type.String({ minLength: 1 })),
})
export type VectordbConfig = Static<typeof VectordbEnv>

export function loadVectordbConfig(env: Record<string, string | undefined> = process.env): VectordbConfig {
  return loadConfig(VectordbEnv, env)
}

/** Whether this process runs the index worker: always with the embedded queue unless told not to. */
export function runsWorker(config: VectordbConfig): boolean {
  return config.RUN_WORKER === 'true' || (config.RUN_WORKER === 'auto' && !config.REDIS_URL)
}
