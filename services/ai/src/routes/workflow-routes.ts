/**
 * Workflows: named, saved lists of steps a user runs on a chosen workbook as an ai.workflow-run job,
 * with the run history, and undo of a run's changes through the spreadsheet service's undo. Every
 * route is the user's own: another user's workflow or run answers 404, as a missing one does.
 */
import {
  DeleteWorkflowResponse,
  ErrorBody,
  MAX_WORKFLOW_STEPS,
  MAX_WORKFLOWS_PER_USER,
  RunWorkflowBody,
  WORKFLOW_RUN_QUEUE,
  WORKFLOW_TEMPLATES,
  WorkflowBody,
  WorkflowListResponse,
  WorkflowParams,
  WorkflowResponse,
  WorkflowRunListResponse,
  WorkflowRunParams,
  WorkflowRunResponse,
  WorkflowTemplatesResponse,
} from '@finsheet/contracts'
import { AppError, bearerTokenFrom, currentUser, errorResponses, type JobQueues, type ServiceApp } from '@finsheet/platform'
import type { AgentServices } from '../agent/agent-service.js'
import { readWorkflowBody } from '../workflows/workflow-input.js'
import { WORKFLOW_JOB_ATTEMPTS, workflowJobId, type WorkflowJobData } from '../workflows/workflow-runner.js'
import type { StoredRun, WorkflowStore } from '../workflows/workflow-store.js'

const tags = ['workflows']
const workflowNotFound = () => new AppError('WORKFLOW_NOT_FOUND', 404, 'Workflow not found')
const runNotFound = () => new AppError('WORKFLOW_RUN_NOT_FOUND', 404, 'Workflow run not found')

/** Change kinds an undo can revert: a later one of these in the workbook stands in the way of undoing a run. */
const UNDOABLE_KINDS = new Set(['edit', 'restore', 'redo'])

export function workflowRoutes(app: ServiceApp, deps: { workflows: WorkflowStore; services: AgentServices; jobs: JobQueues }) {
  const { workflows, services } = deps
  const checkModel = (model: string) => void services.registry.resolve(model)

  app.get('/workflows/templates', { schema: { tags, summary: 'The built-in workflows a user can make their own', response: { 200: WorkflowTemplatesResponse, ...errorResponses } } }, async () => ({
    success: true as const,
    templates: [...WORKFLOW_TEMPLATES],
  }))

  app.get('/workflows', { schema: { tags, summary: "The user's workflows, the most recently changed first, each with its newest run", response: { 200: WorkflowListResponse, ...errorResponses } } }, async (request) => ({
    success: true as const,
    workflows: await workflows.list(currentUser(request).uid),
  }))

  app.post(
    '/workflows',
    {
      schema: {
        tags,
        summary: `Save a new workflow: a name and 1 to ${MAX_WORKFLOW_STEPS} steps (command, audit, import, snapshot); 409 past ${MAX_WORKFLOWS_PER_USER} workflows`,
        description: `Each refusal is a 400 saying what to fix: an empty name, no steps, more than ${MAX_WORKFLOW_STEPS}, an unknown kind, a command step without its command, an unknown model. Nothing is stored then.`,
        body: WorkflowBody,
        response: { 201: WorkflowResponse, 409: ErrorBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      const input = readWorkflowBody(request.body, checkModel)
      const user = currentUser(request)
      if ((await workflows.count(user.uid)) >= MAX_WORKFLOWS_PER_USER) throw new AppError('TOO_MANY_WORKFLOWS', 409, `You keep ${MAX_WORKFLOWS_PER_USER} workflows, the most one user may; delete one to make another`)
      const created = await workflows.create(user.uid, input)
      return reply.status(201).send({ success: true as const, workflow: await workflows.present(created) })
    },
  )

  app.get('/workflows/runs', { schema: { tags, summary: "The user's recent workflow runs, newest first", response: { 200: WorkflowRunListResponse, ...errorResponses } } }, async (request) => ({
    success: true as const,
    runs: await workflows.recentRuns(currentUser(request).uid),
  }))

  app.get(
    '/workflows/runs/:runId',
    { schema: { tags, summary: 'One run: its status, progress and steps', params: WorkflowRunParams, response: { 200: WorkflowRunResponse, ...errorResponses } } },
    async (request) => {
      const run = await workflows.getRun(currentUser(request).uid, request.params.runId)
      if (!run) throw runNotFound()
      return { success: true as const, run: workflows.publicRun(run) }
    },
  )

  app.post(
    '/workflows/runs/:runId/undo',
    {
      schema: {
        tags,
        summary: "Undo a finished run's changes, newest first, through the workbook's undo",
        description: '409 while the run is going, once it is undone, or when the workbook has changes made after the run (undo those first); nothing is undone then.',
        params: WorkflowRunParams,
        response: { 200: WorkflowRunResponse, 409: ErrorBody, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request)
      const token = bearerTokenFrom(request.headers.authorization)
      const run = await workflows.getRun(user.uid, request.params.runId)
      if (!run) throw runNotFound()
      await undoRun(services, token, run)
      run.undone = true
      await workflows.saveRun(run)
      return { success: true as const, run: workflows.publicRun(run) }
    },
  )

  app.get('/workflows/:id', { schema: { tags, summary: 'One workflow', params: WorkflowParams, response: { 200: WorkflowResponse, ...errorResponses } } }, async (request) => {
    const found = await workflows.get(currentUser(request).uid, request.params.id)
    if (!found) throw workflowNotFound()
    return { success: true as const, workflow: await workflows.present(found) }
  })

  app.put(
    '/workflows/:id',
    { schema: { tags, summary: "Replace a workflow's name, description, model and steps (checked as on create)", params: WorkflowParams, body: WorkflowBody, response: { 200: WorkflowResponse, ...errorResponses } } },
    async (request) => {
      const found = await workflows.get(currentUser(request).uid, request.params.id)
      if (!found) throw workflowNotFound()
      const input = readWorkflowBody(request.body, checkModel)
      return { success: true as const, workflow: await workflows.present(await workflows.update(found, input)) }
    },
  )

  app.delete('/workflows/:id', { schema: { tags, summary: 'Delete a workflow and its run history', params: WorkflowParams, response: { 200: DeleteWorkflowResponse, ...errorResponses } } }, async (request) => {
    const found = await workflows.get(currentUser(request).uid, request.params.id)
    if (!found) throw workflowNotFound()
    await workflows.remove(found.id)
    return { success: true as const, id: found.id }
  })

  app.post(
    '/workflows/:id/run',
    {
      schema: {
        tags,
        summary: 'Run the workflow on one of the user’s workbooks, as an ai.workflow-run job; answers the queued run, followed at GET /workflows/runs/{runId}',
        params: WorkflowParams,
        body: RunWorkflowBody,
        response: { 202: WorkflowRunResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const found = await workflows.get(user.uid, request.params.id)
      if (!found) throw workflowNotFound()
      // The workbook is the user's own (404 otherwise) before anything is queued.
      const workbook = await services.spreadsheet.workbook(bearerTokenFrom(request.headers.authorization), request.body.workbookId)
      const run = await workflows.createRun(user.uid, found, workbook)
      const data: WorkflowJobData = { userId: user.uid, runId: run.id }
      try {
        await deps.jobs.queue(WORKFLOW_RUN_QUEUE).add('run', data, { jobId: workflowJobId(run.id), attempts: WORKFLOW_JOB_ATTEMPTS })
      } catch (error) {
        // A run that never reached the queue is not left waiting in the history.
        await workflows.saveRun({ ...run, status: 'failed', error: 'The run could not be queued; try again in a moment', finishedAt: new Date().toISOString() })
        throw error
      }
      return reply.status(202).send({ success: true as const, run: workflows.publicRun(run) })
    },
  )

  app.get(
    '/workflows/:id/runs',
    { schema: { tags, summary: "The workflow's runs, newest first: status, steps with their changesets and findings, duration, error", params: WorkflowParams, response: { 200: WorkflowRunListResponse, ...errorResponses } } },
    async (request) => {
      const found = await workflows.get(currentUser(request).uid, request.params.id)
      if (!found) throw workflowNotFound()
      return { success: true as const, runs: await workflows.runsOf(found.id) }
    },
  )
}

/**
 * Undoes the run's changes, newest first, when they are still the latest changes of their
 * workbooks; checked for every workbook before anything is undone.
 */
async function undoRun(services: AgentServices, token: string, run: StoredRun): Promise<void> {
  if (run.status === 'queued' || run.status === 'running') throw new AppError('WORKFLOW_RUN_ACTIVE', 409, 'The run is still going; undo it once it has finished')
  if (run.undone) throw new AppError('WORKFLOW_RUN_UNDONE', 409, 'The run’s changes were already undone')
  const byWorkbook = new Map<string, Array<{ changeId: string; revision: number }>>()
  for (const step of run.steps) {
    if (step.changeId === null || step.revision === null || step.workbookId === null) continue
    byWorkbook.set(step.workbookId, [...(byWorkbook.get(step.workbookId) ?? []), { changeId: step.changeId, revision: step.revision }])
  }
  if (byWorkbook.size === 0) throw new AppError('WORKFLOW_RUN_NOTHING_TO_UNDO', 409, 'The run changed no cells, so there is nothing to undo')
  for (const [workbookId, changes] of byWorkbook) {
    const first = Math.min(...changes.map((change) => change.revision))
    const log = await services.spreadsheet.changeLog(token, workbookId, first - 1)
    const ours = new Set(changes.map((change) => change.changeId))
    const standing = log.changes.filter((change) => !change.undone && UNDOABLE_KINDS.has(change.kind))
    const later = standing.filter((change) => !ours.has(change.id))
    if (later.length > 0) throw new AppError('WORKFLOW_RUN_CHANGED_SINCE', 409, `The workbook was changed after the run (${later[0].label}); undo those changes first`)
    if (standing.length !== changes.length) throw new AppError('WORKFLOW_RUN_UNDONE', 409, 'Some of the run’s changes were already undone')
  }
  for (const [workbookId, changes] of byWorkbook) {
    for (const change of [...changes].reverse()) {
      const answer = await services.spreadsheet.undo(token, workbookId)
      if (answer.target.changeId !== change.changeId) throw new AppError('WORKFLOW_RUN_CHANGED_SINCE', 409, 'The workbook changed while the run was being undone; check its history')
    }
  }
}
