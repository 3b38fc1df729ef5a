// The vectordb.index-workbook worker on its own (docker compose's vectordb-worker): the same
// processor the embedded service runs in-process, fed by BullMQ when REDIS_URL is set.
import { utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { VECTORDB_INDEX_QUEUE } from '@finsheet/contracts'
import { createDocumentStore, createJobQueues, createLogger, createUserTokenSource, createVectorStore, exitOnConfigError } from '@finsheet/platform'
import { loadVectordbConfig, type VectordbConfig } from './config.js'
import { createEmbedder } from './embeddings/create-embedder.js'
import { createIndexProcessor, startIndexWorker } from './index-jobs.js'
import { CellSearch } from './search/cell-search.js'
import { createSpreadsheetReader } from './spreadsheet-client.js'

let config: VectordbConfig
try {
  config = loadVectordbConfig()
} catch (error) {
  exitOnConfigError(error)
}
const logger = createLogger('vectordb-worker', config.LOG_LEVEL)
const vectors = await createVectorStore(config)
const store = await createDocumentStore(config, 'vectordb')
const jobs = await createJobQueues(config)
const cells = new CellSearch(vectors, await createEmbedder(config), store)
await cells.start()
const processor = createIndexProcessor({ cells, spreadsheet: createSpreadsheetReader(config.SPREADSHEET_URL), userTokens: await createUserTokenSource(config, 'vectordb-worker') })
const worker = startIndexWorker(jobs, async (job) => {
  const context = { jobId: job.id, workbookId: job.data.workbookId, action: job.data.action, attempt: job.attempt }
  try {
    const result = await processor(job)
    logger.info({ ...context, indexed: result.indexed, removed: result.removed }, 'workbook index job done')
    return result
  } catch (error) {
    logger.warn({ ...context, reason: (error as Error).message }, 'workbook index job failed')
    throw error
  }
}, config.WORKER_CONCURRENCY)
logger.info({ queue: VECTORDB_INDEX_QUEUE, adapter: jobs.adapter }, 'vectordb worker started')

// The container health check reads this file's age: it is touched while the queue answers.
const heartbeatFile = config.WORKER_HEARTBEAT_FILE ?? join(tmpdir(), 'worker-heartbeat')
const beat = async () => {
  try {
    await jobs.ping()
    const now = new Date()
    await utimes(heartbeatFile, now, now).catch(() => writeFile(heartbeatFile, ''))
  } catch (error) {
    logger.warn({ err: error }, 'job queue did not answer')
  }
}
await beat()
const heartbeat = setInterval(() => void beat(), 10_000)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return
    stopping = true
    clearInterval(heartbeat)
    const force = setTimeout(() => process.exit(1), 30_000)
    force.unref()
    void (async () => {
      await worker.close()
      await jobs.close()
      await vectors.close()
      await store.close()
      process.exit(0)
    })()
  })
}
