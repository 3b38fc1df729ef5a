/**
 * The workflow job on its own, against the service's real document store: a run the job finds
 * already started (its worker died mid-way) is marked failed, never run again, and a run whose
 * workflow was deleted before it started fails at its first step.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_KEPT_WORKFLOW_RUNS } from '@finsheet/contracts'
import { SqliteJobQueues, type ActiveJob } from '@finsheet/platform'
import { startAiTestApp, type AiTestApp } from '../testing/test-app.js'
import { createWorkflowProcessor, WORKFLOW_JOB_ATTEMPTS, workflowJobId, type WorkflowJobData } from './workflow-runner.js'
import { createWorkflowStore, type WorkflowStore } from './workflow-store.js'

let test: AiTestApp
let workflows: WorkflowStore

beforeAll(async () => {
  test = await startAiTestApp()
  workflows = createWorkflowStore(test.store)
})
afterAll(async () => {
  await test.close()
})

function jobFor(data: WorkflowJobData): ActiveJob<WorkflowJobData> & { progress: number[] } {
  const progress: number[] = []
  return { id: `workflow-run-${data.runId}`, name: 'run', data, attempt: 1, progress, updateProgress: async (value) => void progress.push(value) }
}

const steps = [
  { kind: 'command' as const, text: 'make row 1 bold' },
  { kind: 'audit' as const, text: '' },
  { kind: 'snapshot' as const, text: 'Done' },
]

describe('the workflow run job', () => {
  it('marks a run it finds already started as failed at the step it reached, and runs nothing again', async () => {
    const workflow = await workflows.create('ada', { name: 'Close', description: '', model: 'local', steps, templateId: null })
    const run = await workflows.createRun('ada', workflow, { id: 'wb-1', name: 'Plan' })
    run.status = 'running'
    run.currentStep = 1
    run.steps[0].status = 'completed'
    run.steps[1].status = 'running'
    await workflows.saveRun(run)
    const tokensAsked: string[] = []
    const processor = createWorkflowProcessor({ workflows, services: test.app.assistant, userTokens: {
        tokenFor: async (uid) => {
          tokensAsked.push(uid)
          return 'unused'
        },
      },
    })
    const result = await processor(jobFor({ userId: 'ada', runId: run.id }))
    expect(result).toEqual({ runId: run.id, status: 'failed' })
    const stored = await workflows.getRun('ada', run.id)
    expect(stored).toMatchObject({ status: 'failed', failedStep: 1, error: 'Step 2 was interrupted before it finished; the run was not repeated' })
    expect(stored!.steps.map((step) => step.status)).toEqual(['completed', 'failed', 'skipped'])
    expect(tokensAsked).toEqual([])
    // Someone else's run id is not taken for theirs.
    await expect(processor(jobFor({ userId: 'eve', runId: run.id }))).rejects.toThrow('no longer exists')
  })

  it('closes a run its first attempt left running (the store failed midway) as failed, through the job queue', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'finsheet-workflow-jobs-'))
    const queues = new SqliteJobQueues({ path: join(dir, 'jobs.db'), leaseMs: 1000, pollIntervalMs: 50 })
    try {
      const workflow = await workflows.create('ada', { name: 'Month end', description: '', model: 'local', steps, templateId: null })
      const run = await workflows.createRun('ada', workflow, { id: 'wb-2', name: 'Plan' })
      // The second save (the first step starting) fails once, after the run was stored as running.
      let saves = 0
      const flakyStore: WorkflowStore = {
        ...workflows,
        saveRun: async (saved) => {
          if (++saves === 2) throw new Error('The document store stopped answering')
          return workflows.saveRun(saved)
        },
      }
      const processor = createWorkflowProcessor({ workflows: flakyStore, services: test.app.assistant, userTokens: { tokenFor: async () => 'unused' } })
      const queue = queues.queue('ai.workflow-run.test')
      const worker = queue.process(processor)
      const { id } = await queue.add('run', { userId: 'ada', runId: run.id }, { jobId: workflowJobId(run.id), attempts: WORKFLOW_JOB_ATTEMPTS, backoff: { type: 'fixed', delayMs: 50 } })
      const finished = await queue.waitUntilFinished(id, 20_000)
      await worker.close()
      expect(finished).toMatchObject({ state: 'completed', attemptsMade: 2, result: { runId: run.id, status: 'failed' } })
      const stored = await workflows.getRun('ada', run.id)
      expect(stored).toMatchObject({ status: 'failed', error: 'Step 1 was interrupted before it finished; the run was not repeated' })
      expect(stored!.steps.map((step) => step.status)).toEqual(['failed', 'skipped', 'skipped'])
    } finally {
      await queues.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('fails a run whose workflow was deleted before it started, at its first step', async () => {
    const workflow = await workflows.create('ada', { name: 'Gone', description: '', model: 'local', steps, templateId: null })
    const run = await workflows.createRun('ada', workflow, { id: 'wb-1', name: 'Plan' })
    await test.store.collection('ai_workflows').delete(workflow.id)
    const processor = createWorkflowProcessor({ workflows, services: test.app.assistant, userTokens: { tokenFor: async () => 'unused' } })
    const job = jobFor({ userId: 'ada', runId: run.id })
    expect(await processor(job)).toEqual({ runId: run.id, status: 'failed' })
    const stored = await workflows.getRun('ada', run.id)
    expect(stored).toMatchObject({ status: 'failed', failedStep: 0, error: 'Step 1 (Assistant command) failed: The workflow was deleted while it ran' })
    expect(stored!.steps.map((step) => step.status)).toEqual(['failed', 'skipped', 'skipped'])
    expect(stored!.finishedAt).not.toBeNull()
  })

  it('keeps the newest runs of a workflow and drops older ones as new ones start', async () => {
    const workflow = await workflows.create('ada', { name: 'Often', description: '', model: 'local', steps, templateId: null })
    const first = await workflows.createRun('ada', workflow, { id: 'wb-1', name: 'Plan' })
    for (let i = 0; i < MAX_KEPT_WORKFLOW_RUNS; i++) await workflows.createRun('ada', workflow, { id: 'wb-1', name: 'Plan' })
    expect(await test.store.collection('ai_workflow_runs').count({ workflowId: workflow.id })).toBe(MAX_KEPT_WORKFLOW_RUNS)
    expect(await workflows.getRun('ada', first.id)).toBeNull()
  })
})
