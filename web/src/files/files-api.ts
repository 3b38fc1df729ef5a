import type { DeleteFileResponse, FileJobResponse, FileRecord, ImportFileResponse, IndexedWorkbooksResponse, ListFilesResponse } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'

const JOB_POLL_MS = 500

export async function listFiles(api: ApiClient, signal?: AbortSignal): Promise<FileRecord[]> {
  const answer = await api.get<ListFilesResponse>('/files/list', { signal, query: { limit: 1000 } })
  return answer.files
}

export function deleteFile(api: ApiClient, id: string): Promise<DeleteFileResponse> {
  return api.delete<DeleteFileResponse>(`/files/delete/${encodeURIComponent(id)}`)
}

/**
 * Spec 2 §7: POST /files/import {fileId} makes a new workbook of an uploaded spreadsheet. When the
 * service answers before its job is done (pending), the job is followed to its end.
 */
export async function importFile(api: ApiClient, file: Pick<FileRecord, 'id' | 'name'>): Promise<{ workbookId: string; name: string }> {
  const name = file.name.replace(/\.[^.]+$/, '') || file.name
  const answer = await api.post<ImportFileResponse>('/files/import', { fileId: file.id })
  if (!answer.pending) {
    if (!answer.success || !answer.workbookId) throw new Error(answer.error ?? 'Import Failed')
    return { workbookId: answer.workbookId, name }
  }
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS))
    const job = await api.get<FileJobResponse>(`/files/jobs/${encodeURIComponent(answer.jobId)}`)
    if (job.state === 'failed') throw new Error(job.error || job.failedReason || 'Import Failed')
    if (job.state === 'completed') {
      if (!job.result?.workbookId) throw new Error('Import Failed')
      return { workbookId: job.result.workbookId, name }
    }
  }
}

/** What the vector search offers to import: the user's indexed workbooks. */
export interface VectorModels {
  healthy: boolean
  models: { workbookId: string; name: string; points: number; indexedAt: string }[]
}

/** Asks the vector search service whether it is up and which of the user's workbooks it has indexed. */
export async function loadVectorModels(api: ApiClient): Promise<VectorModels> {
  const health = await api.get<{ status?: string }>('/vectordb/health', { anonymous: true })
  const healthy = health?.status === 'ok'
  if (!healthy) return { healthy, models: [] }
  const answer = await api.get<IndexedWorkbooksResponse>('/vectordb/indexed-workbooks')
  return { healthy, models: indexedModels(answer) }
}

/** The indexed workbooks of an answer, each once, most recently indexed first as the service lists them. */
export function indexedModels(answer: Partial<IndexedWorkbooksResponse> | null | undefined): VectorModels['models'] {
  const seen = new Set<string>()
  const models: VectorModels['models'] = []
  for (const workbook of answer?.workbooks ?? []) {
    if (seen.has(workbook.workbookId)) continue
    seen.add(workbook.workbookId)
    models.push({ workbookId: workbook.workbookId, name: workbook.name || workbook.workbookId, points: workbook.points, indexedAt: workbook.indexedAt })
  }
  return models
}
