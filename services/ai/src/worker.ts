// The ai.generate-model worker on its own (docker compose's ai-worker): the same processor the
// embedded service runs in-process, fed by BullMQ when REDIS_URL is set.
import { utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GENERATE_MODEL_QUEUE } from '@finsheet/contracts'
import { createJobQueues, createLogger, createUserTokenSource, exitOnConfigError } from '@finsheet/platform'
import { createSpreadsheetClient } from './clients/spreadsheet-client.js'
import { loadAiConfig, type AiConfig } from './config.js'
import { createModelProcessor, startModelWorker } from './models/model-jobs.js'

let config: AiConfig
try {
  config = loadAiConfig()
} catch (error) {
  exitOnConfigError(error)
}
const logger = createLogger('ai-worker', config.LOG_LEVEL)
const jobs = createJobQueues(config)
const processor = createModelProcessor({ spreadsheet: createSpreadsheetClient(config.SPREADSHEET_URL), userTokens: await createUserTokenSource(config, 'ai-worker') })
const worker = startModelWorker(jobs, processor, { concurrency: config.WORKER_CONCURRENCY, logger })
logger.info({ queue: GENERATE_MODEL_QUEUE, adapter: jobs.adapter }, 'ai worker started')

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
    logger.info('ai worker stopping')
    const force = setTimeout(() => process.exit(1), 30_000)
    force.unref()
    void (async () => {
      await worker.close()
      await jobs.close()
      process.exit(0)
    })()
  })
}
