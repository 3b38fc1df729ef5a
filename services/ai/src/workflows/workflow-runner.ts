/**
 * The ai.workflow-run job: runs a workflow's steps in order on the chosen workbook, for the job's
 * user, with a short-lived token fetched when it runs (the job carries the user id, never a token).
 * Each step's outcome is stored as it ends, so the run's progress and history read from the store.
 * A failing step ends the run: it is marked failed, naming the step, and the later steps are
 * skipped. A run is never repeated: a retry could apply its command steps twice; a second attempt
 * only closes a run the first left unfinished.
 */
import { WORKFLOW_RUN_QUEUE, WORKFLOW_STEP_KIND_LABELS, type WorkflowRunStep } from '@finsheet/contracts'
import { UnrecoverableJobError, type AuthUser, type JobProcessor, type JobQueues, type JobWorker, type Logger, type UserTokenSource } from '@finsheet/platform'
import { processAction, type AgentServices } from '../agent/agent-service.js'
import { auditWorkbook, summarizeAudit } from '../routes/audit-routes.js'
import type { StoredRun, StoredWorkflow, WorkflowStore } from './workflow-store.js'

export interface WorkflowJobData {
  userId: string
  runId: string
}

export interface WorkflowRunResult {
  runId: string
  status: StoredRun['status']
}

/**
 * Runs a job gets. A run's steps are never repeated (its command steps write to the workbook): the
 * second attempt exists so that a run whose first attempt stopped midway (its worker died or its store
 * failed) is found "running" and marked failed at the step it reached, rather than left running.
 */
export const WORKFLOW_JOB_ATTEMPTS = 2

export const workflowJobId = (runId: string) => `workflow-run-${runId}`

export interface WorkflowProcessorDependencies {
  workflows: WorkflowStore
  services: AgentServices
  userTokens: UserTokenSource
}

/** A step that cannot do its work, with the reason a person reads. */
class StepFailure extends Error {}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

export function createWorkflowProcessor(deps: WorkflowProcessorDependencies): JobProcessor<WorkflowJobData, WorkflowRunResult> {
  return async (job) => {
    const { userId, runId } = job.data
    const run = await deps.workflows.runById(runId)
    if (!run || run.userId !== userId) throw new UnrecoverableJobError('The workflow run no longer exists')
    if (run.status === 'completed' || run.status === 'failed') return { runId, status: run.status }
    const now = () => new Date().toISOString()
    const started = performance.now()
    if (run.status === 'running') {
      // Started before and interrupted: its earlier steps may have written, so it is not run again.
      const at = run.currentStep ?? 0
      finishFailed(run, at, `Step ${at + 1} was interrupted before it finished; the run was not repeated`)
      run.finishedAt = now()
      await deps.workflows.saveRun(run)
      return { runId, status: run.status }
    }
    const workflow = await deps.workflows.get(userId, run.workflowId)
    run.status = 'running'
    run.startedAt = now()
    await deps.workflows.saveRun(run)
    let workbookId = run.workbookId
    for (let index = 0; index < run.steps.length; index++) {
      const step = run.steps[index]
      run.currentStep = index
      step.status = 'running'
      step.workbookId = workbookId
      await deps.workflows.saveRun(run)
      const stepStarted = performance.now()
      try {
        if (!workflow) throw new StepFailure('The workflow was deleted while it ran')
        const token = await deps.userTokens.tokenFor(userId)
        const next = await runStep(deps.services, { uid: userId, email: null, name: null, anonymous: false }, token, workflow, step, workbookId)
        if (next) workbookId = next
        step.status = 'completed'
      } catch (error) {
        step.error = messageOf(error)
        step.status = 'failed'
      }
      step.durationMs = Math.round(performance.now() - stepStarted)
      run.progress = Math.round(((index + 1) / run.steps.length) * 100)
      if (step.status === 'failed') {
        finishFailed(run, index, `Step ${index + 1} (${WORKFLOW_STEP_KIND_LABELS[step.kind]}) failed: ${step.error}`)
        break
      }
      await deps.workflows.saveRun(run)
      await job.updateProgress(run.progress)
    }
    if (run.status === 'running') {
      run.status = 'completed'
      run.progress = 100
      run.currentStep = null
    }
    run.finishedAt = now()
    run.durationMs = Math.round(performance.now() - started)
    await deps.workflows.saveRun(run)
    return { runId, status: run.status }
  }
}

function finishFailed(run: StoredRun, index: number, error: string) {
  run.status = 'failed'
  run.failedStep = index
  run.error = error
  run.currentStep = null
  const step = run.steps[index]
  if (step && step.status !== 'failed') {
    step.status = 'failed'
    step.error = error
  }
  for (const later of run.steps.slice(index + 1)) later.status = 'skipped'
}

/** Carries out one step on the workbook; answers the workbook the later steps work on when it changes. */
async function runStep(services: AgentServices, user: AuthUser, token: string, workflow: StoredWorkflow, step: WorkflowRunStep, workbookId: string): Promise<string | undefined> {
  switch (step.kind) {
    case 'command': {
      const answer = await processAction(services, { user, token, body: { command: step.text, workbookId, preferredModel: workflow.model } })
      step.message = answer.message
      if (!answer.success) throw new StepFailure(answer.error?.message ?? answer.message)
      const changeset = answer.result.changeset
      if (answer.result.model) {
        step.importedWorkbookId = answer.result.model.workbookId
        return answer.result.model.workbookId
      }
      if (!changeset) return undefined
      step.changesetId = changeset.id
      step.cellsChanged = changeset.changeCount
      if (!changeset.applied) throw new StepFailure('The changes hold formulas that could reach the network, so they wait for your approval as a preview in the assistant; nothing was written')
      step.changeId = changeset.changeId
      step.revision = changeset.appliedRevision
      return undefined
    }
    case 'audit': {
      const report = await auditWorkbook(services, token, workbookId)
      step.findings = report.findings ?? []
      step.message = summarizeAudit(report)
      return undefined
    }
    case 'snapshot': {
      const version = await services.spreadsheet.saveVersion(token, workbookId, { message: step.text === '' ? `${workflow.name} (workflow)` : step.text, tags: ['workflow'] })
      step.versionId = version.id
      step.message = `Saved version ${version.number}`
      return undefined
    }
    case 'import': {
      const file = await services.files.latestSpreadsheet(token)
      if (!file) throw new StepFailure('There is no uploaded spreadsheet to import: upload an Excel or CSV file on the Files page first')
      const answer = await services.files.importFile(token, file.id)
      if (!answer.success || answer.workbookId === null) throw new StepFailure(answer.pending ? `${file.name} is still being imported; run the workflow again when it is done` : `${file.name} could not be imported: ${answer.error ?? 'the import failed'}`)
      step.importedWorkbookId = answer.workbookId
      step.message = `Imported ${file.name} (${answer.cellCount.toLocaleString('en-US')} cells); the later steps work on it`
      return answer.workbookId
    }
  }
}

/** Runs ai.workflow-run jobs in this process until closed, logging each outcome. */
export function startWorkflowWorker(jobs: JobQueues, processor: JobProcessor<WorkflowJobData, WorkflowRunResult>, options: { concurrency?: number; logger?: Pick<Logger, 'info' | 'warn'> } = {}): JobWorker {
  const logged: JobProcessor<WorkflowJobData, WorkflowRunResult> = async (job) => {
    const context = { jobId: job.id, runId: job.data.runId }
    const started = performance.now()
    try {
      const result = await processor(job)
      options.logger?.info({ ...context, status: result.status, ms: Math.round(performance.now() - started) }, 'workflow run finished')
      return result
    } catch (error) {
      options.logger?.warn({ ...context, reason: messageOf(error) }, 'workflow run failed')
      throw error
    }
  }
  return jobs.queue(WORKFLOW_RUN_QUEUE).process(logged, { concurrency: options.concurrency ?? 1 })
}
