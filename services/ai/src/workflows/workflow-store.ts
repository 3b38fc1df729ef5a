/**
 * Workflows and their runs in the ai service's document store. Every read is by owner: a workflow
 * or run of another user is not found, as a missing one is not.
 */
import { randomUUID } from 'node:crypto'
import { MAX_KEPT_WORKFLOW_RUNS, MAX_LISTED_WORKFLOW_RUNS, type Workflow, type WorkflowRun, type WorkflowRunStep, type WorkflowStep } from '@finsheet/contracts'
import type { DocumentStore } from '@finsheet/platform'
import type { WorkflowInput } from './workflow-input.js'

export interface StoredWorkflow extends Omit<Workflow, 'lastRun'> {
  userId: string
}

export interface StoredRun extends WorkflowRun {
  userId: string
}

export function createWorkflowStore(store: DocumentStore) {
  const workflows = store.collection<StoredWorkflow>('ai_workflows', { indexes: [{ fields: ['userId', 'updatedAt'] }] })
  const runs = store.collection<StoredRun>('ai_workflow_runs', { indexes: [{ fields: ['userId', 'createdAt'] }, { fields: ['workflowId', 'createdAt'] }] })

  // Runs are ordered (latest first, the oldest pruned) by when they were made: two made in the same
  // millisecond would tie, so each is stamped at least a millisecond after the one before.
  let lastRunAt = 0
  const runStamp = () => {
    lastRunAt = Math.max(Date.now(), lastRunAt + 1)
    return new Date(lastRunAt).toISOString()
  }
  const publicRun = ({ userId: _userId, ...run }: StoredRun): WorkflowRun => run
  const lastRunOf = async (workflowId: string) => {
    const [last] = await runs.find({ workflowId }, { sort: [['createdAt', -1]], limit: 1 })
    return last ? publicRun(last) : null
  }
  const publicWorkflow = async ({ userId: _userId, ...workflow }: StoredWorkflow): Promise<Workflow> => ({ ...workflow, lastRun: await lastRunOf(workflow.id) })

  return {
    async list(userId: string): Promise<Workflow[]> {
      const found = await workflows.find({ userId }, { sort: [['updatedAt', -1]] })
      return Promise.all(found.map(publicWorkflow))
    },
    /** The user's workflow, or null for one that is missing or someone else's. */
    async get(userId: string, id: string): Promise<StoredWorkflow | null> {
      const found = await workflows.get(id)
      return found && found.userId === userId ? found : null
    },
    present: publicWorkflow,
    count: (userId: string) => workflows.count({ userId }),
    async create(userId: string, input: WorkflowInput): Promise<StoredWorkflow> {
      const now = new Date().toISOString()
      const workflow: StoredWorkflow = { id: randomUUID(), userId, ...input, createdAt: now, updatedAt: now }
      await workflows.insert(workflow)
      return workflow
    },
    async update(existing: StoredWorkflow, input: WorkflowInput): Promise<StoredWorkflow> {
      const workflow: StoredWorkflow = { ...existing, ...input, templateId: input.templateId ?? existing.templateId, updatedAt: new Date().toISOString() }
      await workflows.put(workflow)
      return workflow
    },
    async remove(id: string): Promise<void> {
      await workflows.delete(id)
      await runs.deleteMany({ workflowId: id })
    },
    async createRun(userId: string, workflow: StoredWorkflow, workbook: { id: string; name: string }): Promise<StoredRun> {
      const run: StoredRun = {
        id: randomUUID(),
        userId,
        workflowId: workflow.id,
        workflowName: workflow.name,
        workbookId: workbook.id,
        workbookName: workbook.name,
        status: 'queued',
        progress: 0,
        currentStep: null,
        steps: workflow.steps.map((step: WorkflowStep): WorkflowRunStep => ({
          kind: step.kind,
          text: step.text,
          status: 'pending',
          workbookId: null,
          message: null,
          changesetId: null,
          changeId: null,
          revision: null,
          cellsChanged: 0,
          findings: null,
          versionId: null,
          importedWorkbookId: null,
          durationMs: null,
          error: null,
        })),
        createdAt: runStamp(),
        startedAt: null,
        finishedAt: null,
        durationMs: null,
        error: null,
        failedStep: null,
        undone: false,
      }
      await runs.insert(run)
      // The history keeps the newest runs of each workflow.
      for (const old of await runs.find({ workflowId: workflow.id }, { sort: [['createdAt', -1]], offset: MAX_KEPT_WORKFLOW_RUNS })) await runs.delete(old.id)
      return run
    },
    async getRun(userId: string, runId: string): Promise<StoredRun | null> {
      const found = await runs.get(runId)
      return found && found.userId === userId ? found : null
    },
    /** A run by id alone: for the job, which carries the user id and checks it. */
    runById: (runId: string) => runs.get(runId),
    /** Stores where a run stands; a run deleted with its workflow meanwhile stays deleted. */
    async saveRun(run: StoredRun): Promise<void> {
      const { id, ...fields } = run
      await runs.update({ id }, fields)
    },
    async runsOf(workflowId: string): Promise<WorkflowRun[]> {
      return (await runs.find({ workflowId }, { sort: [['createdAt', -1]], limit: MAX_LISTED_WORKFLOW_RUNS })).map(publicRun)
    },
    async recentRuns(userId: string): Promise<WorkflowRun[]> {
      return (await runs.find({ userId }, { sort: [['createdAt', -1]], limit: MAX_LISTED_WORKFLOW_RUNS })).map(publicRun)
    },
    publicRun,
  }
}

export type WorkflowStore = ReturnType<typeof createWorkflowStore>
