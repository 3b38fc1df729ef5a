import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import {
  assertJobId,
  assertQueueName,
  backoffDelay,
  clampProgress,
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF,
  pollUntilFinished,
  UnrecoverableJobError,
  type AddJobOptions,
  type BackoffOptions,
  type JobProcessor,
  type JobQueue,
  type JobQueues,
  type JobSnapshot,
  type JobState,
  type JobWorker,
  type WorkerOptions,
} from './port.js'

export interface SqliteJobQueueOptions {
  /** The queue database, usually DATA_DIR/jobs.sqlite; several processes may share it. */
  path: string
  /** How long a worker owns a job without renewing; a dead worker's job runs again after this. */
  leaseMs?: number
  /** How often an idle worker looks for jobs added by other processes. */
  pollIntervalMs?: number
}

interface JobRow {
  queue: string
  id: string
  name: string
  data: string
  state: JobState
  progress: number
  result: string | null
  failed_reason: string | null
  attempts_made: number
  max_attempts: number
  backoff: string
  run_at: number
  lease_owner: string | null
  lease_until: number | null
  created_at: number
  finished_at: number | null
}

function snapshot<Data, Result>(row: JobRow): JobSnapshot<Data, Result> {
  return {
    id: row.id,
    name: row.name,
    data: JSON.parse(row.data) as Data,
    state: row.state,
    progress: row.state === 'completed' ? 100 : row.progress,
    ...(row.result !== null ? { result: JSON.parse(row.result) as Result } : {}),
    ...(row.failed_reason !== null ? { failedReason: row.failed_reason } : {}),
    attemptsMade: row.attempts_made,
    attempts: row.max_attempts,
    createdAt: row.created_at,
    ...(row.finished_at !== null ? { finishedAt: row.finished_at } : {}),
  }
}

/**
 * An in-process job queue that keeps its jobs in SQLite. A worker leases a job and renews the
 * lease while it runs; when the process dies the lease lapses and any worker runs the job again.
 */
export class SqliteJobQueues implements JobQueues {
  readonly adapter = 'sqlite' as const
  readonly db: Database.Database
  readonly leaseMs: number
  readonly pollIntervalMs: number
  /** Wakes this process's idle workers when a job is added here. */
  readonly added = new EventEmitter()
  private readonly queues = new Map<string, SqliteJobQueue>()
  private closed = false

  constructor(options: SqliteJobQueueOptions) {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true })
    this.leaseMs = options.leaseMs ?? 30_000
    this.pollIntervalMs = options.pollIntervalMs ?? 250
    this.added.setMaxListeners(0)
    this.db = new Database(options.path)
    this.db.pragma('journal_mode = WAL')
    this.db.pragma('synchronous = FULL')
    this.db.pragma('busy_timeout = 5000')
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS jobs (
        queue TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, data TEXT NOT NULL,
        state TEXT NOT NULL, progress REAL NOT NULL DEFAULT 0, result TEXT, failed_reason TEXT,
        attempts_made INTEGER NOT NULL DEFAULT 0, max_attempts INTEGER NOT NULL, backoff TEXT NOT NULL,
        run_at INTEGER NOT NULL, lease_owner TEXT, lease_until INTEGER,
        created_at INTEGER NOT NULL, finished_at INTEGER,
        PRIMARY KEY (queue, id)
      );
      CREATE INDEX IF NOT EXISTS jobs_runnable ON jobs (queue, state, run_at);
    `)
  }

  queue(name: string): JobQueue {
    assertQueueName(name)
    let queue = this.queues.get(name)
    if (!queue) {
      queue = new SqliteJobQueue(name, this)
      this.queues.set(name, queue)
    }
    return queue
  }

  get isClosed() {
    return this.closed
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get()
  }

  async close(): Promise<void> {
    if (this.closed) return
    await Promise.all([...this.queues.values()].map((queue) => queue.close()))
    this.closed = true
    this.db.close()
  }
}

class SqliteJobQueue implements JobQueue {
  readonly adapter = 'sqlite' as const
  private readonly workers = new Set<SqliteWorker>()

  constructor(
    readonly name: string,
    private readonly owner: SqliteJobQueues,
  ) {}

  async add<Data>(name: string, data: Data, options: AddJobOptions = {}): Promise<{ id: string }> {
    const id = options.jobId ?? randomUUID()
    if (options.jobId !== undefined) assertJobId(options.jobId)
    const attempts = options.attempts ?? DEFAULT_ATTEMPTS
    if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError('attempts must be a whole number ≥ 1')
    const now = Date.now()
    this.owner.db
      .prepare(
        `INSERT INTO jobs (queue, id, name, data, state, max_attempts, backoff, run_at, created_at)
         VALUES (?, ?, ?, ?, 'waiting', ?, ?, ?, ?) ON CONFLICT (queue, id) DO NOTHING`,
      )
      .run(this.name, id, name, JSON.stringify(data ?? null), attempts, JSON.stringify(options.backoff ?? DEFAULT_BACKOFF), now, now)
    this.owner.added.emit(this.name)
    return { id }
  }

  async getJob<Data = unknown, Result = unknown>(id: string): Promise<JobSnapshot<Data, Result> | null> {
    const row = this.owner.db.prepare('SELECT * FROM jobs WHERE queue = ? AND id = ?').get(this.name, id) as JobRow | undefined
    return row ? snapshot<Data, Result>(row) : null
  }

  waitUntilFinished<Data = unknown, Result = unknown>(id: string, timeoutMs = 60_000): Promise<JobSnapshot<Data, Result>> {
    return pollUntilFinished((jobId) => this.getJob<Data, Result>(jobId), id, timeoutMs)
  }

  process<Data = unknown, Result = unknown>(processor: JobProcessor<Data, Result>, options: WorkerOptions = {}): JobWorker {
    const worker = new SqliteWorker(this.name, this.owner, processor as JobProcessor, options.concurrency ?? 1, () => this.workers.delete(worker))
    this.workers.add(worker)
    return worker
  }

  async close(): Promise<void> {
    await Promise.all([...this.workers].map((worker) => worker.close()))
  }
}

class SqliteWorker implements JobWorker {
  private readonly id = randomUUID()
  private readonly running = new Set<Promise<void>>()
  private stopped = false
  private timer: NodeJS.Timeout | null = null
  private readonly wake = () => this.fill()

  constructor(
    private readonly queue: string,
    private readonly owner: SqliteJobQueues,
    private readonly processor: JobProcessor,
    private readonly concurrency: number,
    private readonly onClosed: () => void,
  ) {
    owner.added.on(queue, this.wake)
    this.schedule()
    setImmediate(() => this.fill())
  }

  private schedule() {
    if (this.stopped) return
    this.timer = setTimeout(() => {
      this.fill()
      this.schedule()
    }, this.owner.pollIntervalMs)
    this.timer.unref()
  }

  /** Takes jobs until every slot is busy or none is ready. */
  private fill() {
    while (!this.stopped && !this.owner.isClosed && this.running.size < this.concurrency) {
      const row = this.claim()
      if (!row) return
      const run = this.run(row).finally(() => {
        this.running.delete(run)
        setImmediate(() => this.fill())
      })
      this.running.add(run)
    }
  }

  private claim(): JobRow | null {
    const now = Date.now()
    const db = this.owner.db
    return db.transaction(() => {
      // A lapsed lease with no attempts left: the worker died on its last try.
      db.prepare(
        `UPDATE jobs SET state = 'failed', failed_reason = 'The worker stopped while running this job and no attempts are left',
           finished_at = ?, lease_owner = NULL, lease_until = NULL
         WHERE queue = ? AND state = 'active' AND lease_until < ? AND attempts_made >= max_attempts`,
      ).run(now, this.queue, now)
      return (db
        .prepare(
          `UPDATE jobs SET state = 'active', lease_owner = ?, lease_until = ?, attempts_made = attempts_made + 1
           WHERE rowid = (
             SELECT rowid FROM jobs WHERE queue = ?
               AND ((state IN ('waiting', 'delayed') AND run_at <= ?) OR (state = 'active' AND lease_until < ?))
             ORDER BY run_at, created_at LIMIT 1)
           RETURNING *`,
        )
        .get(this.id, now + this.owner.leaseMs, this.queue, now, now) ?? null) as JobRow | null
    }).immediate()
  }

  private async run(row: JobRow): Promise<void> {
    const db = this.owner.db
    let leaseLost = false
    const renew = setInterval(() => {
      if (this.owner.isClosed) return
      const changed = db
        .prepare(`UPDATE jobs SET lease_until = ? WHERE queue = ? AND id = ? AND lease_owner = ? AND state = 'active'`)
        .run(Date.now() + this.owner.leaseMs, this.queue, row.id, this.id).changes
      if (changed === 0) leaseLost = true
    }, Math.max(50, Math.floor(this.owner.leaseMs / 3)))
    renew.unref()
    const mine = `queue = ? AND id = ? AND lease_owner = ? AND state = 'active'`
    try {
      const result = await this.processor({
        id: row.id,
        name: row.name,
        data: JSON.parse(row.data),
        attempt: row.attempts_made,
        updateProgress: async (progress: number) => {
          db.prepare(`UPDATE jobs SET progress = ? WHERE ${mine}`).run(clampProgress(progress), this.queue, row.id, this.id)
        },
      })
      if (leaseLost || this.owner.isClosed) return
      db.prepare(`UPDATE jobs SET state = 'completed', progress = 100, result = ?, failed_reason = NULL, finished_at = ?, lease_owner = NULL, lease_until = NULL WHERE ${mine}`).run(
        JSON.stringify(result ?? null),
        Date.now(),
        this.queue,
        row.id,
        this.id,
      )
    } catch (error) {
      if (leaseLost || this.owner.isClosed) return
      const reason = error instanceof Error ? error.message : String(error)
      const now = Date.now()
      if (row.attempts_made < row.max_attempts && !(error instanceof UnrecoverableJobError)) {
        const delay = backoffDelay(JSON.parse(row.backoff) as BackoffOptions, row.attempts_made)
        db.prepare(`UPDATE jobs SET state = 'delayed', run_at = ?, failed_reason = ?, lease_owner = NULL, lease_until = NULL WHERE ${mine}`).run(
          now + delay,
          reason,
          this.queue,
          row.id,
          this.id,
        )
      } else {
        db.prepare(`UPDATE jobs SET state = 'failed', failed_reason = ?, finished_at = ?, lease_owner = NULL, lease_until = NULL WHERE ${mine}`).run(
          reason,
          now,
          this.queue,
          row.id,
          this.id,
        )
      }
    } finally {
      clearInterval(renew)
    }
  }

  async close(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.owner.added.off(this.queue, this.wake)
    await Promise.all([...this.running])
    this.onClosed()
  }
}
