import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DependencyUnavailableError } from '../errors/dependency-unavailable.js'
import { startRedisServer, type RunningServer } from '../testing/servers.js'
import { BullmqJobQueues } from './bullmq-job-queue.js'

let redis: RunningServer
beforeAll(async () => {
  redis = await startRedisServer()
})
afterAll(async () => {
  await redis?.stop()
})

/** Holds the event loop, as a process loading its modules or calculating a large workbook does. */
function holdEventLoop(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // busy
  }
}

describe('BullMQ queues when Redis answers late or not at all', () => {
  it('works after a start that held the event loop longer than a producer waits (a queue stayed broken for good)', async () => {
    const queues = new BullmqJobQueues({ url: redis.url, prefix: 'busy-start' })
    try {
      // BullMQ checks the Redis version once, as soon as the connection is ready, when a queue starts;
      // the process is held just after that check is sent, so its answer is read late. A command
      // timeout cutting it left the queue failing every later command.
      queues.sharedConnection.once('ready', () => setImmediate(() => holdEventLoop(2500)))
      const queue = queues.queue('busy')
      const adding = queue.add('first', { n: 1 })
      // That add may be given up on (the process was held past the wait); the queue must not be.
      await adding.catch((error: unknown) => expect(error).toBeInstanceOf(DependencyUnavailableError))
      const { id } = await queue.add('second', { n: 2 })
      expect(await queue.getJob(id)).toMatchObject({ name: 'second', state: 'waiting' })
    } finally {
      await queues.close()
    }
  })

  it('answers DependencyUnavailableError within the producer wait while Redis cannot be reached', async () => {
    const queues = new BullmqJobQueues({ url: 'redis://127.0.0.1:9', prefix: 'nowhere' })
    try {
      const started = performance.now()
      await expect(queues.queue('lost').add('job', {})).rejects.toBeInstanceOf(DependencyUnavailableError)
      await expect(queues.ping()).rejects.toBeInstanceOf(DependencyUnavailableError)
      expect(performance.now() - started).toBeLessThan(5000)
    } finally {
      await queues.close()
    }
  })
})
