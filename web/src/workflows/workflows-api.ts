import type {
  WorkflowBody,
  WorkflowListResponse,
  WorkflowResponse,
  WorkflowRun,
  WorkflowRunListResponse,
  WorkflowRunResponse,
  WorkflowTemplate,
  WorkflowTemplatesResponse,
  Workflow,
} from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'

/** The user's workflows, the built-in templates and the recent runs, read together. */
export interface WorkflowsData {
  workflows: Workflow[]
  templates: WorkflowTemplate[]
  runs: WorkflowRun[]
}

export async function loadWorkflows(api: ApiClient, signal?: AbortSignal): Promise<WorkflowsData> {
  const [workflows, templates, runs] = await Promise.all([
    api.get<WorkflowListResponse>('/ai/workflows', { signal }),
    api.get<WorkflowTemplatesResponse>('/ai/workflows/templates', { signal }),
    api.get<WorkflowRunListResponse>('/ai/workflows/runs', { signal }),
  ])
  return { workflows: workflows.workflows, templates: templates.templates, runs: runs.runs }
}

export async function saveWorkflow(api: ApiClient, body: WorkflowBody, id?: string): Promise<Workflow> {
  const answer = id === undefined ? await api.post<WorkflowResponse>('/ai/workflows', body) : await api.put<WorkflowResponse>(`/ai/workflows/${encodeURIComponent(id)}`, body)
  return answer.workflow
}

export async function deleteWorkflow(api: ApiClient, id: string): Promise<void> {
  await api.delete(`/ai/workflows/${encodeURIComponent(id)}`)
}

export async function runWorkflow(api: ApiClient, id: string, workbookId: string): Promise<WorkflowRun> {
  return (await api.post<WorkflowRunResponse>(`/ai/workflows/${encodeURIComponent(id)}/run`, { workbookId })).run
}

export async function readRun(api: ApiClient, runId: string, signal?: AbortSignal): Promise<WorkflowRun> {
  return (await api.get<WorkflowRunResponse>(`/ai/workflows/runs/${encodeURIComponent(runId)}`, { signal })).run
}

export async function undoRun(api: ApiClient, runId: string): Promise<WorkflowRun> {
  return (await api.post<WorkflowRunResponse>(`/ai/workflows/runs/${encodeURIComponent(runId)}/undo`, {})).run
}

export const isFinished = (run: WorkflowRun) => run.status === 'completed' || run.status === 'failed'
