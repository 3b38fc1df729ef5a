import type { DeleteFileResponse, FileJobResponse, FileRecord, ImportFileResponse, ListFilesResponse } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'
import { errorStatus } from '../api/api-client'

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

/**
 * What the vector search offers to import. The service lists nothing yet: a missing route or an
 * empty answer both mean no model has been indexed.
 */
export interface VectorModels {
  healthy: boolean
  models: { workbookId: string; name: string }[]
}

/** Spec 2 §9: vector search returns up to 20 results. */
const VECTOR_SEARCH_LIMIT = 20

/** Asks the vector search service whether it is up and which workbooks it has indexed. */
export async function loadVectorModels(api: ApiClient): Promise<VectorModels> {
  const health = await api.get<{ status?: string }>('/vectordb/health', { anonymous: true })
  const healthy = health?.status === 'ok'
  if (!healthy) return { healthy, models: [] }
  try {
    const answer = await api.post<{ results?: unknown }>('/vectordb/search/formulas', { query: 'financial model', options: { limit: VECTOR_SEARCH_LIMIT } })
    return { healthy, models: indexedModels(answer?.results) }
  } catch (error) {
    if (errorStatus(error) === 404) return { healthy, models: [] }
    throw error
  }
}

/** The distinct workbooks named by search results, in the order they came. */
export function indexedModels(results: unknown): VectorModels['models'] {
  if (!Array.isArray(results)) return []
  const seen = new Map<string, string>()
  for (const result of results) {
    if (!result || typeof result !== 'object') continue
    const { workbookId, metadata } = result as { workbookId?: unknown; metadata?: { workbookName?: unknown } }
    if (typeof workbookId !== 'string' || seen.has(workbookId)) continue
    seen.set(workbookId, typeof metadata?.workbookName === 'string' ? metadata.workbookName : workbookId)
  }
  return [...seen].map(([workbookId, name]) => ({ workbookId, name }))
}
