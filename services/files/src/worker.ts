// The files.process worker on its own (docker compose's files-worker): the same processor the
// embedded service runs in-process, fed by BullMQ when REDIS_URL is set.
import { utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createBlobStore, createDocumentStore, createJobQueues, createLogger, createUserTokenSource, exitOnConfigError } from '@finsheet/platform'
import { loadFilesConfig, type FilesConfig } from './config.js'
import { startFileWorker } from './file-worker.js'
import { importLimitsOf } from './service.js'

let config: FilesConfig
try {
  config = loadFilesConfig()
} catch (error) {
  exitOnConfigError(error)
}
const logger = createLogger('files-worker', config.LOG_LEVEL)
const store = await createDocumentStore(config, 'files')
const blobs = await createBlobStore(config)
const jobs = await createJobQueues(config)
const worker = startFileWorker({
  store,
  blobs,
  jobs,
  spreadsheet: config.SPREADSHEET_URL,
  userTokens: await createUserTokenSource(config, 'files-worker'),
  limits: importLimitsOf(config),
  concurrency: config.WORKER_CONCURRENCY,
  workDir: config.WORK_DIR,
  logger,
})
logger.info({ queue: 'files.process', adapter: jobs.adapter }, 'files worker started')

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
    logger.info('files worker stopping')
    const force = setTimeout(() => process.exit(1), 30_000)
    force.unref()
    void (async () => {
      await worker.close()
      await jobs.close()
      await blobs.close()
      await store.close()
      process.exit(0)
    })()
  })
}
