import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq'
import { Redis } from 'ioredis'
import { DependencyUnavailableError, isNetworkFailure } from '../errors/dependency-unavailable.js'
import {
  assertJobId,
  assertQueueName,
  clampProgress,
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF,
  pollUntilFinished,
  UnrecoverableJobError,
  type AddJobOptions,
  type JobProcessor,
  type JobQueue,
  type JobQueues,
  type JobSnapshot,
  type JobState,
  type JobWorker,
  type WorkerOptions,
} from './port.js'

export interface BullmqJobQueueOptions {
  /** redis://host:port */
  url: string
  /** BullMQ key prefix, so several stacks can share one Redis. */
  prefix?: string
  /** How long a worker's lock on a job lasts without renewal; a dead worker's job runs again after it. */
  lockDurationMs?: number
  /** How often workers look for jobs whose worker died. */
  stalledIntervalMs?: number
}

/** How long adding or reading a job may wait for Redis (it answers in a millisecond when well). */
const PRODUCER_WAIT_MS = 2000
const KEEP_COMPLETED = { age: 7 * 24 * 3600 }
const KEEP_FAILED = { age: 30 * 24 * 3600 }

function mapState(state: string): JobState {
  switch (state) {
    case 'active':
    case 'completed':
    case 'failed':
    case 'delayed':
      return state
    default:
      return 'waiting'
  }
}

export class BullmqJobQueues implements JobQueues {
  readonly adapter = 'bullmq' as const
  private readonly queues = new Map<string, BullmqJobQueue>()
  private readonly connection: Redis

  constructor(readonly options: BullmqJobQueueOptions) {
    // One shared connection for producers. While Redis is out of reach a command fails at once
    // instead of waiting in the offline queue, so a request that adds or reads a job answers 503
    // rather than hanging until Redis is back; one in flight when the connection drops is tried once more.
    this.connection = new Redis(options.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    // Reconnection is automatic; without a listener, a refused connection would be an unhandled error event.
    this.connection.on('error', () => undefined)
  }

  /**
   * Runs a producer's command; Redis out of reach, or not answering within PRODUCER_WAIT_MS, is
   * DependencyUnavailableError. The wait is kept here rather than as the connection's command timeout,
   * which would also cut the version check BullMQ makes once when a queue starts (its failure leaves
   * the queue failing for good) whenever start-up holds the event loop for longer. A command given up
   * on may still complete: adding a job is made harmless to repeat or to find its file gone.
   */
  async produce<R>(command: () => Promise<R>): Promise<R> {
    let timer: NodeJS.Timeout | undefined
    const givenUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DependencyUnavailableError('jobs')), PRODUCER_WAIT_MS)
    })
    try {
      return await Promise.race([command(), givenUp])
    } catch (error) {
      if (error instanceof DependencyUnavailableError) throw error
      if (this.connection.status !== 'ready' || isNetworkFailure(error) || (error as Error).name === 'MaxRetriesPerRequestError') {
        throw new DependencyUnavailableError('jobs', { cause: error })
      }
      throw error
    } finally {
      clearTimeout(timer)
    }
  }

  /** A connection for a worker: BullMQ needs retries unbounded for its blocking commands. */
  newConnection(): Redis {
    return new Redis(this.options.url, { maxRetriesPerRequest: null })
  }

  get sharedConnection(): Redis {
    return this.connection
  }

  queue(name: string): JobQueue {
    assertQueueName(name)
    let queue = this.queues.get(name)
    if (!queue) {
      queue = new BullmqJobQueue(name, this)
      this.queues.set(name, queue)
    }
    return queue
  }

  async ping(): Promise<void> {
    await this.produce(() => this.connection.ping())
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()))
    this.connection.disconnect()
  }
}

class BullmqJobQueue implements JobQueue {
  readonly adapter = 'bullmq' as const
  private queue: Queue
  private readonly workers = new Set<JobWorker>()

  constructor(
    readonly name: string,
    private readonly owner: BullmqJobQueues,
  ) {
    this.queue = this.newQueue()
  }

  private newQueue(): Queue {
    const queue = new Queue(this.name, { connection: this.owner.sharedConnection, prefix: this.owner.options.prefix ?? 'finsheet' })
    // A lost connection reaches callers as DependencyUnavailableError; the event only needs a listener.
    queue.on('error', () => undefined)
    return queue
  }

  /**
   * The queue, once started. A queue whose start failed (Redis went away between connecting and
   * BullMQ's version check) would fail every later command, so it is replaced: the next call starts anew.
   */
  private async started(): Promise<Queue> {
    const queue = this.queue
    try {
      await queue.waitUntilReady()
      return queue
    } catch (error) {
      if (this.queue === queue) this.queue = this.newQueue()
      throw new DependencyUnavailableError('jobs', { cause: error })
    }
  }

  async add<Data>(name: string, data: Data, options: AddJobOptions = {}): Promise<{ id: string }> {
    if (options.jobId !== undefined) assertJobId(options.jobId)
    const attempts = options.attempts ?? DEFAULT_ATTEMPTS
    if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError('attempts must be a whole number ≥ 1')
    const backoff = options.backoff ?? DEFAULT_BACKOFF
    const job = await this.owner.produce(async () =>
      (await this.started()).add(name, data ?? null, {
        jobId: options.jobId,
        attempts,
        backoff: { type: backoff.type, delay: backoff.delayMs },
        removeOnComplete: KEEP_COMPLETED,
        removeOnFail: KEEP_FAILED,
      }),
    )
    return { id: job.id as string }
  }

  async getJob<Data = unknown, Result = unknown>(id: string): Promise<JobSnapshot<Data, Result> | null> {
    // State first: a job read before its state could predate the result written on completion.
    const queue = await this.owner.produce(() => this.started())
    const rawState = await this.owner.produce(() => queue.getJobState(id))
    const job = (await this.owner.produce(() => queue.getJob(id))) as Job<Data, Result> | undefined
    if (!job || rawState === 'unknown') return null
    const state = mapState(rawState)
    const progress = typeof job.progress === 'number' ? job.progress : 0
    return {
      id: job.id as string,
      name: job.name,
      data: job.data,
      state,
      progress: state === 'completed' ? 100 : progress,
      ...(state === 'completed' ? { result: job.returnvalue } : {}),
      ...(job.failedReason ? { failedReason: job.failedReason } : {}),
      attemptsMade: Math.max(job.attemptsStarted ?? 0, job.attemptsMade),
      attempts: job.opts.attempts ?? 1,
      createdAt: job.timestamp,
      ...(job.finishedOn ? { finishedAt: job.finishedOn } : {}),
    }
  }

  waitUntilFinished<Data = unknown, Result = unknown>(id: string, timeoutMs = 60_000): Promise<JobSnapshot<Data, Result>> {
    return pollUntilFinished((jobId) => this.getJob<Data, Result>(jobId), id, timeoutMs)
  }

  process<Data = unknown, Result = unknown>(processor: JobProcessor<Data, Result>, options: WorkerOptions = {}): JobWorker {
    const connection = this.owner.newConnection()
    const worker = new Worker<Data, Result>(
      this.name,
      async (job) => {
        try {
          return await processor({
            id: job.id as string,
            name: job.name,
            data: job.data,
            attempt: job.attemptsStarted ?? job.attemptsMade + 1,
            updateProgress: (progress: number) => job.updateProgress(clampProgress(progress)),
          })
        } catch (error) {
          if (error instanceof UnrecoverableJobError) throw new UnrecoverableError(error.message)
          throw error
        }
      },
      {
        connection,
        prefix: this.owner.options.prefix ?? 'finsheet',
        concurrency: options.concurrency ?? 1,
        lockDuration: this.owner.options.lockDurationMs ?? 30_000,
        stalledInterval: this.owner.options.stalledIntervalMs ?? 30_000,
        maxStalledCount: 2,
      },
    )
    // Errors reach the job's failedReason; the event only needs a listener so it is not thrown.
    worker.on('error', () => undefined)
    const handle: JobWorker = {
      close: async () => {
        await worker.close()
        connection.disconnect()
        this.workers.delete(handle)
      },
    }
    this.workers.add(handle)
    return handle
  }

  async close(): Promise<void> {
    await Promise.all([...this.workers].map((worker) => worker.close()))
    await this.queue.close()
  }
}
