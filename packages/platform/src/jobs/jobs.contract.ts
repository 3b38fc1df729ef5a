import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSqliteDocumentStore } from '../documents/sqlite-document-store.js'
import { readLines, spawnTypeScript } from '../testing/child-process.js'
import { UnrecoverableJobError, type JobQueues } from './port.js'

export interface JobsHarness {
  queues: JobQueues
  /** Arguments for the crash fixture so a child process opens the same queues. */
  childArgs: string[]
  close(): Promise<void>
}

const gate = () => {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

export function jobQueueContract(adapterName: string, start: () => Promise<JobsHarness>) {
  describe(`jobs port: ${adapterName}`, () => {
    let harness: JobsHarness
    let counter = 0
    const freshQueue = () => harness.queues.queue(`contract.q${++counter}.${Date.now()}`)
    const effectsDir = mkdtempSync(join(tmpdir(), 'finsheet-job-effects-'))
    beforeAll(async () => {
      harness = await start()
    })
    afterAll(async () => {
      await harness?.close()
      rmSync(effectsDir, { recursive: true, force: true })
    })

    it('runs a job, reports progress while it runs, and keeps the result', async () => {
      const queue = freshQueue()
      const halfway = gate()
      const finish = gate()
      const worker = queue.process<{ n: number }, { doubled: number }>(async (job) => {
        await job.updateProgress(10)
        await job.updateProgress(55)
        halfway.open()
        await finish.opened
        return { doubled: job.data.n * 2 }
      })
      const { id } = await queue.add('double', { n: 21 })
      await halfway.opened
      const running = await queue.getJob(id)
      expect(running).toMatchObject({ id, name: 'double', state: 'active', progress: 55, attemptsMade: 1, data: { n: 21 } })
      finish.open()
      const done = await queue.waitUntilFinished(id, 10_000)
      expect(done).toMatchObject({ state: 'completed', progress: 100, result: { doubled: 42 }, attemptsMade: 1 })
      expect(done.finishedAt).toBeGreaterThanOrEqual(done.createdAt)
      await worker.close()
    })

    it('retries a failing job with exponential backoff and then succeeds', async () => {
      const queue = freshQueue()
      const startedAt: number[] = []
      const worker = queue.process(async (job) => {
        startedAt.push(Date.now())
        if (job.attempt < 3) throw new Error(`flaky ${job.attempt}`)
        return 'third time'
      })
      const { id } = await queue.add('flaky', {}, { attempts: 3, backoff: { type: 'exponential', delayMs: 150 } })
      const done = await queue.waitUntilFinished(id, 15_000)
      expect(done).toMatchObject({ state: 'completed', result: 'third time', attemptsMade: 3 })
      expect(startedAt).toHaveLength(3)
      // Waits of about 150 ms, then about 300 ms (timers may fire a little early or late).
      expect(startedAt[1] - startedAt[0]).toBeGreaterThanOrEqual(130)
      expect(startedAt[2] - startedAt[1]).toBeGreaterThanOrEqual(280)
      await worker.close()
    })

    it('fails for good after the last attempt, keeping the reason', async () => {
      const queue = freshQueue()
      let runs = 0
      const worker = queue.process(async () => {
        runs++
        throw new Error('file is not a spreadsheet')
      })
      const { id } = await queue.add('doomed', {}, { attempts: 2, backoff: { type: 'fixed', delayMs: 50 } })
      const done = await queue.waitUntilFinished(id, 10_000)
      expect(done).toMatchObject({ state: 'failed', failedReason: 'file is not a spreadsheet', attemptsMade: 2 })
      expect(runs).toBe(2)
      await worker.close()
    })

    it('does not retry an unrecoverable error', async () => {
      const queue = freshQueue()
      let runs = 0
      const worker = queue.process(async () => {
        runs++
        throw new UnrecoverableJobError('corrupt workbook')
      })
      const { id } = await queue.add('corrupt', {}, { attempts: 3, backoff: { type: 'fixed', delayMs: 10 } })
      expect(await queue.waitUntilFinished(id, 10_000)).toMatchObject({ state: 'failed', failedReason: 'corrupt workbook' })
      expect(runs).toBe(1)
      await worker.close()
    })

    it('treats a repeated jobId as the same job', async () => {
      const queue = freshQueue()
      let runs = 0
      const first = await queue.add('import', { fileId: 'f1' }, { jobId: 'import-f1' })
      const second = await queue.add('import', { fileId: 'f1' }, { jobId: 'import-f1' })
      expect(second.id).toBe(first.id)
      const worker = queue.process(async () => ++runs)
      await queue.waitUntilFinished('import-f1', 10_000)
      await queue.add('import', { fileId: 'f1' }, { jobId: 'import-f1' })
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(runs).toBe(1)
      expect(await queue.getJob('missing-job')).toBeNull()
      await expect(queue.add('bad', {}, { jobId: '12345' })).rejects.toThrow(/Invalid job id/)
      await expect(queue.add('bad', {}, { jobId: 'a:b' })).rejects.toThrow(/Invalid job id/)
      await worker.close()
    })

    it('runs as many jobs at once as the concurrency allows', async () => {
      const queue = freshQueue()
      let active = 0
      let peak = 0
      const worker = queue.process(
        async () => {
          active++
          peak = Math.max(peak, active)
          await new Promise((resolve) => setTimeout(resolve, 150))
          active--
        },
        { concurrency: 2 },
      )
      const ids = await Promise.all([1, 2, 3, 4].map((n) => queue.add('sleep', { n })))
      for (const { id } of ids) await queue.waitUntilFinished(id, 10_000)
      expect(peak).toBe(2)
      await worker.close()
    })

    it('runs a job again when its worker process dies mid-job, with no duplicate side effect', async () => {
      const queueName = `contract.crash.${Date.now()}`
      const queue = harness.queues.queue(queueName)
      const effectsPath = join(effectsDir, `effects-${counter++}.sqlite`)
      const { id } = await queue.add('import', { fileId: 'book-7' }, { jobId: 'import-book-7', attempts: 3, backoff: { type: 'fixed', delayMs: 10 } })

      const child = spawnTypeScript(new URL('../testing/fixtures/job-worker.ts', import.meta.url), [...harness.childArgs, queueName, effectsPath])
      let sawEffect = false
      const exited = readLines(child, (line) => {
        if (line === 'side-effect-done') {
          sawEffect = true
          child.kill('SIGKILL')
        }
      })
      const { signal, stderr } = await exited
      expect(stderr).toBe('')
      expect(sawEffect).toBe(true)
      expect(signal).toBe('SIGKILL')
      const orphaned = await queue.getJob(id)
      expect(orphaned).toMatchObject({ state: 'active', progress: 40, attemptsMade: 1 })

      // The processor as a service writes it: the effect is keyed on the job id, so a rerun finds it.
      const effects = createSqliteDocumentStore({ path: effectsPath })
      const imports = effects.collection<{ id: string; jobId: string; fileId: string }>('imports')
      const runs = effects.collection<{ id: string; attempt: number }>('runs')
      const worker = queue.process<{ fileId: string }, { imported: string }>(async (job) => {
        await runs.put({ id: `${job.id}#${job.attempt}`, attempt: job.attempt })
        if (!(await imports.get(`import:${job.id}`))) {
          await imports.put({ id: `import:${job.id}`, jobId: job.id, fileId: job.data.fileId })
        }
        await job.updateProgress(100)
        return { imported: job.data.fileId }
      })
      const done = await queue.waitUntilFinished<{ fileId: string }, { imported: string }>(id, 30_000)
      expect(done).toMatchObject({ state: 'completed', result: { imported: 'book-7' }, attemptsMade: 2 })
      expect((await runs.find()).map((run) => run.attempt).sort()).toEqual([1, 2])
      expect(await imports.count()).toBe(1)
      await worker.close()
      await effects.close()
    })
  })
}
