import type { JobState } from '@finsheet/contracts'

/**
 * The jobs port: named queues of work with progress, retries and exponential backoff.
 * Adapters: an in-process queue persisted in SQLite (embedded) and BullMQ on Redis.
 *
 * A job may run more than once: a worker can die after doing the work and before reporting it,
 * and the job then runs again once its lease (SQLite) or lock (BullMQ) expires. Processors keep
 * their side effects idempotent by keying every write on `job.id` — put to an id derived from it,
 * insert with it and treat a duplicate as done, or record a marker keyed by it in the same
 * transaction as the effect — so a second run finds the work done and changes nothing.
 */
export type { JobState }

export interface BackoffOptions {
  type: 'exponential' | 'fixed'
  /** First wait in ms; exponential doubles it for each further retry. */
  delayMs: number
}

export interface AddJobOptions {
  /** Idempotency key: adding a job whose id exists returns the existing job. */
  jobId?: string
  /** Total runs allowed, the first included. Default 3. */
  attempts?: number
  /** Default exponential from 1000 ms. */
  backoff?: BackoffOptions
}

export interface JobSnapshot<Data = unknown, Result = unknown> {
  id: string
  name: string
  data: Data
  state: JobState
  /** 0 to 100; 100 once completed. */
  progress: number
  result?: Result
  failedReason?: string
  /** Runs started so far, the current one included. */
  attemptsMade: number
  attempts: number
  createdAt: number
  finishedAt?: number
}

export interface ActiveJob<Data = unknown> {
  id: string
  name: string
  data: Data
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number
  updateProgress(progress: number): Promise<void>
}

export type JobProcessor<Data = unknown, Result = unknown> = (job: ActiveJob<Data>) => Promise<Result>

export interface WorkerOptions {
  concurrency?: number
}

export interface JobWorker {
  /** Stops taking jobs and waits for the running ones to finish. */
  close(): Promise<void>
}

export interface JobQueue {
  readonly adapter: 'sqlite' | 'bullmq'
  readonly name: string
  add<Data>(name: string, data: Data, options?: AddJobOptions): Promise<{ id: string }>
  getJob<Data = unknown, Result = unknown>(id: string): Promise<JobSnapshot<Data, Result> | null>
  /** Starts a worker that runs `processor` for this queue's jobs. */
  process<Data = unknown, Result = unknown>(processor: JobProcessor<Data, Result>, options?: WorkerOptions): JobWorker
  /** Resolves with the job once it has completed or failed for good. */
  waitUntilFinished<Data = unknown, Result = unknown>(id: string, timeoutMs?: number): Promise<JobSnapshot<Data, Result>>
  close(): Promise<void>
}

export interface JobQueues {
  readonly adapter: 'sqlite' | 'bullmq'
  /** The queue with this name, such as files.process or ai.generate-model. */
  queue(name: string): JobQueue
  ping(): Promise<void>
  close(): Promise<void>
}

/** Thrown by a processor when retrying cannot help (a corrupt file): the job fails at once. */
export class UnrecoverableJobError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UnrecoverableJobError'
  }
}

export class JobQueueError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'JobQueueError'
  }
}

export const DEFAULT_ATTEMPTS = 3
export const DEFAULT_BACKOFF: BackoffOptions = { type: 'exponential', delayMs: 1000 }

const JOB_ID = /^(?!\d+$)[A-Za-z0-9._~-]{1,200}$/
const QUEUE_NAME = /^[A-Za-z][A-Za-z0-9._-]{0,99}$/

export function assertJobId(id: string): void {
  // BullMQ refuses ids made only of digits and ids with ':'; both adapters keep one rule.
  if (!JOB_ID.test(id)) throw new JobQueueError(`Invalid job id ${JSON.stringify(id)}: letters, digits, . _ ~ - only, not digits alone`)
}

export function assertQueueName(name: string): void {
  if (!QUEUE_NAME.test(name)) throw new JobQueueError(`Invalid queue name ${JSON.stringify(name)}`)
}

export function backoffDelay(backoff: BackoffOptions, failedAttempts: number): number {
  return backoff.type === 'fixed' ? backoff.delayMs : backoff.delayMs * 2 ** Math.max(0, failedAttempts - 1)
}

export function clampProgress(progress: number): number {
  if (typeof progress !== 'number' || Number.isNaN(progress)) throw new JobQueueError('Progress must be a number from 0 to 100')
  return Math.min(100, Math.max(0, progress))
}

/** Polls until the job is completed or failed; the same on every adapter. */
export async function pollUntilFinished<Data, Result>(
  getJob: (id: string) => Promise<JobSnapshot<Data, Result> | null>,
  id: string,
  timeoutMs: number,
): Promise<JobSnapshot<Data, Result>> {
  const deadline = Date.now() + timeoutMs
  for (let wait = 20; ; wait = Math.min(wait * 2, 250)) {
    const job = await getJob(id)
    if (!job) throw new JobQueueError(`No job ${id}`)
    if (job.state === 'completed' || job.state === 'failed') return job
    if (Date.now() > deadline) throw new JobQueueError(`Job ${id} still ${job.state} after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}
