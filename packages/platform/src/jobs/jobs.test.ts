import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startRedisServer } from '../testing/servers.js'
import { BullmqJobQueues } from './bullmq-job-queue.js'
import { jobQueueContract } from './jobs.contract.js'
import { SqliteJobQueues } from './sqlite-job-queue.js'

jobQueueContract('in-process queue persisted in SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'finsheet-jobs-'))
  const path = join(dir, 'jobs.sqlite')
  const queues = new SqliteJobQueues({ path, leaseMs: 1000, pollIntervalMs: 50 })
  return {
    queues,
    childArgs: ['sqlite', path],
    close: async () => {
      await queues.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
})

jobQueueContract('BullMQ on a throwaway redis-server', async () => {
  const redis = await startRedisServer()
  const queues = new BullmqJobQueues({ url: redis.url, lockDurationMs: 1000, stalledIntervalMs: 500 })
  return {
    queues,
    childArgs: ['bullmq', redis.url],
    close: async () => {
      await queues.close()
      await redis.stop()
    },
  }
})
