/**
 * The stack scaled out as compose runs it — jobs on BullMQ (redis-server), blobs in an S3 store
 * (s3rver) — with each dependency taken away for 10 s while analysts work: edits, uploads and their
 * jobs, versions (stored as blobs), the offline assistant and reads. Then the workbook store locked by
 * another process for 10 s, and Redis and S3 slowed down for 10 s. For each:
 * - what the user sees: every answer is a success or a 503 SERVICE_UNAVAILABLE with Retry-After
 *   and a message, only for the requests that need what is gone; no 500, no request left hanging;
 * - nothing acknowledged is lost: every edit answered 200 is stored, every upload answered 201 is
 *   processed, every version answered 201 is listed; a request answered 503 left nothing behind;
 * - the stack recovers by itself once the dependency is back, and the process never stops.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { percentile, printTable } from '../security/support/stack.js'
import { startLatencyProxy, startRedis, startS3, type Dependency, type LatencyProxy } from './support/dependencies.js'
import { NO_ANSWER, startFaultStack, type Answer, type Api, type FaultStack } from './support/fault-stack.js'
import { uploadForm, writeModelXlsx } from './support/workbooks.js'

const OUTAGE_MS = 10_000
const BUCKET = 'finsheet'
const root = mkdtempSync(join(tmpdir(), 'finsheet-faults-dependencies-'))
let redis: Dependency
let s3: Dependency
let redisProxy: LatencyProxy
let s3Proxy: LatencyProxy
let stack: FaultStack
let upload: Uint8Array
const summary: Array<Array<string | number>> = []

beforeAll(async () => {
  const [redisServer, s3Server, model] = await Promise.all([startRedis(join(root, 'redis')), startS3(join(root, 's3'), BUCKET), writeModelXlsx(join(root, 'small.xlsx'), 20)])
  redis = redisServer
  s3 = s3Server
  upload = readFileSync(model.path)
  // The stack reaches both through proxies that can slow them down; taking them away stops the servers themselves.
  redisProxy = await startLatencyProxy(redis.port)
  s3Proxy = await startLatencyProxy(s3.port)
  stack = await startFaultStack(join(root, 'data'), {
    REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
    S3_ENDPOINT: `http://127.0.0.1:${s3Proxy.port}`,
    S3_ACCESS_KEY: s3Server.accessKey,
    S3_SECRET_KEY: s3Server.secretKey,
    S3_BUCKET: BUCKET,
    // The files and vectordb workers run in the stack's process, taking their jobs from Redis.
    RUN_WORKER: 'true',
  })
}, 180_000)

afterAll(async () => {
  printTable('Dependencies out of reach or slow for 10 s: what the user saw, what was kept', ['fault', 'answers during', '503s', '500s or no answer', 'recovered after', 'acknowledged and lost', 'stack errors logged'], summary)
  await stack?.stop()
  await Promise.all([redisProxy?.close(), s3Proxy?.close()])
  await Promise.all([redis?.stop(), s3?.stop()])
  rmSync(root, { recursive: true, force: true })
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Kind = 'edit' | 'read cells' | 'upload' | 'job status' | 'list files' | 'save version' | 'assistant'
type Phase = 'before' | 'during' | 'after'

interface Recorded {
  kind: Kind
  phase: Phase
  answer: Answer
}

/** Analysts at work: what they were told, and what they must find kept. */
class Workload {
  readonly recorded: Recorded[] = []
  phase: Phase = 'before'
  private running = true
  private loops: Promise<void>[] = []
  private nextRow = 1
  readonly acknowledgedRows: number[] = []
  readonly refusedRows: number[] = []
  readonly acknowledgedUploads: Array<{ fileId: string; jobId: string }> = []
  readonly acknowledgedVersions: string[] = []

  constructor(
    private readonly editor: Api,
    private readonly filer: Api,
    private readonly workbookId: string,
  ) {}

  private async record(kind: Kind, request: Promise<Answer>): Promise<Answer> {
    const phase = this.phase
    const answer = await request
    this.recorded.push({ kind, phase, answer })
    return answer
  }

  private loop(pauseMs: number, step: () => Promise<void>): void {
    this.loops.push(
      (async () => {
        while (this.running) {
          await step()
          await sleep(pauseMs)
        }
      })(),
    )
  }

  start(): void {
    this.loop(100, async () => {
      const n = this.nextRow++
      const answer = await this.record('edit', this.editor('POST', `/api/spreadsheet/workbook/${this.workbookId}/changes`, { commands: [{ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: `A${n}`, input: String(n) }] }] }))
      if (answer.status === 200) this.acknowledgedRows.push(n)
      else this.refusedRows.push(n)
    })
    this.loop(150, async () => {
      await this.record('read cells', this.editor('GET', `/api/spreadsheet/workbook/${this.workbookId}/cells`))
      await this.record('assistant', this.editor('POST', '/api/ai/chat', { message: 'What is a discounted cash flow?', model: 'local' }))
    })
    this.loop(300, async () => {
      const answer = await this.record('upload', this.filer('POST', '/api/files/upload', undefined, { form: uploadForm('plan.xlsx', upload) }))
      if (answer.status === 201) this.acknowledgedUploads.push({ fileId: answer.json.file.id, jobId: answer.json.jobId })
      const last = this.acknowledgedUploads.at(-1)
      if (last) await this.record('job status', this.filer('GET', `/api/files/jobs/${last.jobId}`))
      await this.record('list files', this.filer('GET', '/api/files/list'))
    })
    this.loop(500, async () => {
      const answer = await this.record('save version', this.editor('POST', `/api/spreadsheet/workbook/${this.workbookId}/save`, { message: `Checkpoint ${this.nextRow}` }))
      if (answer.status === 201) this.acknowledgedVersions.push(answer.json.version.id)
    })
  }

  async stop(): Promise<void> {
    this.running = false
    await Promise.all(this.loops)
  }

  /** When each kind first succeeded after `since` (performance.now()), or undefined. */
  firstSuccessAfter(kind: Kind, since: number): number | undefined {
    return this.recorded.find((entry) => entry.kind === kind && entry.answer.sentAt >= since && entry.answer.status < 300)?.answer.at
  }
}

const KINDS: Kind[] = ['edit', 'read cells', 'assistant', 'upload', 'job status', 'list files', 'save version']

const statusCounts = (entries: Recorded[]) => {
  const counts = new Map<number, number>()
  for (const entry of entries) counts.set(entry.answer.status, (counts.get(entry.answer.status) ?? 0) + 1)
  return [...counts].sort(([a], [b]) => a - b).map(([status, count]) => `${status === NO_ANSWER ? 'none' : status}×${count}`).join(' ') || '-'
}

interface Fault {
  name: string
  /** The kinds that may answer 503 while it lasts; every other kind must go on answering. */
  mayRefuse: Kind[]
  begin(): Promise<void>
  end(): Promise<void>
}

/** Runs the workload through `fault`, checks what the user saw and what was kept, and prints the figures. */
async function runThrough(fault: Fault): Promise<Workload> {
  const editor = await stack.newUser('Analyst')
  const filer = await stack.newUser('Filer')
  const created = await editor('POST', '/api/spreadsheet/workbooks', { name: `Model under ${fault.name}` })
  expect(created.status).toBe(201)
  const workload = new Workload(editor, filer, created.json.workbookId)
  stack.takeErrorLogs()
  workload.start()
  await sleep(1500)

  workload.phase = 'during'
  await fault.begin()
  const began = performance.now()
  await sleep(OUTAGE_MS)
  await fault.end()
  const ended = performance.now()
  workload.phase = 'after'
  // Until every kind of request has succeeded again, for at most 30 s.
  while (KINDS.some((kind) => workload.firstSuccessAfter(kind, ended) === undefined) && performance.now() - ended < 30_000) await sleep(250)
  await workload.stop()
  const recoveredAt = Math.max(...KINDS.map((kind) => workload.firstSuccessAfter(kind, ended) ?? Infinity))

  // What the user saw.
  const rows = KINDS.map((kind) => {
    const of = (phase: Phase) => workload.recorded.filter((entry) => entry.kind === kind && entry.phase === phase)
    const during = of('during')
    const recovered = workload.firstSuccessAfter(kind, ended)
    // Answers that arrived while the fault lasted, whenever they were sent.
    const overlapping = workload.recorded.filter((entry) => entry.kind === kind && entry.answer.at >= began && entry.answer.sentAt <= ended)
    return [
      kind,
      statusCounts(of('before')),
      statusCounts(during),
      statusCounts(of('after')),
      overlapping.length ? `${Math.round(percentile(overlapping.map((entry) => entry.answer.ms), 50))} / ${Math.round(Math.max(...overlapping.map((entry) => entry.answer.ms)))}` : '-',
      recovered === undefined ? 'not yet' : `${Math.max(0, Math.round(recovered - ended))} ms`,
    ]
  })
  printTable(`${fault.name}: answers by kind (statuses of the requests sent before, during the 10 s, after)`, ['request', 'before', 'during', 'after', 'p50 / max ms of those overlapping it', 'first success after'], rows)
  const refusals = workload.recorded.filter((entry) => entry.answer.status === 503)
  const failures = workload.recorded.filter((entry) => entry.answer.status >= 500 && entry.answer.status !== 503).concat(workload.recorded.filter((entry) => entry.answer.status === NO_ANSWER))
  for (const refusal of refusals.slice(0, 1)) console.log(`${fault.name}: a 503 says "${refusal.answer.json?.error?.message}" (Retry-After: ${refusal.answer.headers?.get('retry-after')})`)

  expect(stack.alive(), 'the stack is still running').toBe(true)
  expect(failures.map((entry) => `${entry.kind} ${entry.answer.status} ${entry.answer.text.slice(0, 200)}`), 'no 500s and no request left hanging').toEqual([])
  for (const entry of workload.recorded) expect([200, 201, 503], `${entry.kind} answered ${entry.answer.status}: ${entry.answer.text.slice(0, 200)}`).toContain(entry.answer.status)
  for (const refusal of refusals) {
    expect(fault.mayRefuse, `${refusal.kind} answered 503 although it does not need what is gone`).toContain(refusal.kind)
    expect(refusal.answer.json.error.code).toBe('SERVICE_UNAVAILABLE')
    expect(refusal.answer.json.error.message).toMatch(/try again in a moment\.$/)
    expect(refusal.answer.headers?.get('retry-after')).toBe('5')
    // Refusals belong to the outage (and the moment after it that a client needs to notice it is over).
    expect(refusal.answer.sentAt).toBeGreaterThanOrEqual(began - 1000)
    expect(refusal.answer.sentAt).toBeLessThan(ended + 5000)
  }
  expect(recoveredAt - ended, 'every kind of request succeeded again within 30 s').toBeLessThan(30_000)

  // What was kept.
  let lost = 0
  const cells = (await editor('GET', `/api/spreadsheet/workbook/${created.json.workbookId}/cells`)).json.workbook.sheets[0].cells as Record<string, { value: unknown }>
  for (const n of workload.acknowledgedRows) if (cells[`A${n}`]?.value !== n) lost++
  // An edit answered 503 left nothing behind.
  for (const n of workload.refusedRows) expect(cells[`A${n}`], `A${n} was refused but stored`).toBeUndefined()
  for (const { jobId } of workload.acknowledgedUploads) {
    let job: Answer
    const deadline = performance.now() + 60_000
    do {
      job = await filer('GET', `/api/files/jobs/${jobId}`)
      if (job.json?.state === 'completed' || job.json?.state === 'failed') break
      await sleep(250)
    } while (performance.now() < deadline)
    if (job.json?.state !== 'completed') lost++
  }
  const listed = (await filer('GET', '/api/files/list?limit=500')).json.files as Array<{ id: string; status: string }>
  expect(listed.map((file) => file.id).sort(), 'the list shows exactly the uploads answered 201').toEqual(workload.acknowledgedUploads.map((entry) => entry.fileId).sort())
  for (const file of listed) expect(file.status).toBe('processed')
  const versions = (await editor('GET', `/api/spreadsheet/workbook/${created.json.workbookId}/versions?limit=200`)).json.versions as Array<{ id: string }>
  for (const id of workload.acknowledgedVersions) if (!versions.some((version) => version.id === id)) lost++
  expect(lost, 'acknowledged work lost').toBe(0)

  const errors = stack.takeErrorLogs()
  summary.push([
    fault.name,
    workload.recorded.filter((entry) => entry.phase === 'during').length,
    refusals.length,
    failures.length,
    `${Math.max(0, Math.round(recoveredAt - ended))} ms`,
    lost,
    errors.length,
  ])
  expect(errors.map((line) => line.slice(0, 300)), 'nothing logged at level error').toEqual([])
  return workload
}

describe('a dependency out of reach for 10 s', () => {
  it('Redis stopped: uploads and job status answer 503 at once, everything else goes on, queued work resumes', async () => {
    await runThrough({ name: 'Redis stopped', mayRefuse: ['upload', 'job status'], begin: () => redis.kill(), end: () => redis.start() })
  }, 120_000)

  it('the S3 blob store stopped: uploads and versions answer 503, edits go on, jobs are retried until it is back', async () => {
    await runThrough({ name: 'S3 stopped', mayRefuse: ['upload', 'save version'], begin: () => s3.kill(), end: () => s3.start() })
  }, 120_000)

  it('the workbook store locked by another process: edits and versions answer 503 after the wait, other services go on', async () => {
    let holder: Database.Database | null = null
    const workload = await runThrough({
      name: 'workbook store locked',
      mayRefuse: ['edit', 'save version'],
      begin: async () => {
        holder = new Database(join(stack.dataDir, 'documents', 'spreadsheet.sqlite'))
        holder.exec('BEGIN EXCLUSIVE')
      },
      end: async () => {
        holder?.exec('ROLLBACK')
        holder?.close()
      },
    })
    // The lock is held by another process: this one's event loop stays free for the other services.
    const others = workload.recorded.filter((entry) => entry.phase === 'during' && (entry.kind === 'assistant' || entry.kind === 'list files'))
    expect(others.length).toBeGreaterThan(0)
    expect(Math.max(...others.map((entry) => entry.answer.ms)), 'the assistant and the file list were never held up by the lock').toBeLessThan(2000)
  }, 120_000)
})

describe('dependencies slowed down', () => {
  it('Redis and S3 answering 200 ms late: everything succeeds, and edits do not wait for Redis', async () => {
    const workload = await runThrough({
      name: 'Redis and S3 +200 ms per packet',
      mayRefuse: [],
      begin: async () => {
        redisProxy.setDelay(200)
        s3Proxy.setDelay(200)
      },
      end: async () => {
        redisProxy.setDelay(0)
        s3Proxy.setDelay(0)
      },
    })
    // Each request is counted in Redis by the gateway; waiting for a slow Redis would add 400 ms to every one.
    const edits = workload.recorded.filter((entry) => entry.phase === 'during' && entry.kind === 'edit').map((entry) => entry.answer.ms)
    expect(percentile(edits, 50), 'the median edit while Redis is slow').toBeLessThan(300)
  }, 120_000)
})
