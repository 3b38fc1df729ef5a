import type { ApiClient } from '../api/api-client'

/** How the files service reports an import job (GET /api/files/jobs/:id). */
export interface ImportJob {
  id: string
  state: 'waiting' | 'active' | 'completed' | 'failed'
  progress: number
  error?: string | null
  result?: { workbookId?: string | null } | null
}

interface UploadAnswer {
  file?: { id: string; workbookId?: string | null }
  jobId?: string | null
  job?: { id: string } | null
}

const POLL_INTERVAL_MS = 400

/**
 * Uploads a document to the files service and follows its processing job until it ends,
 * reporting the job's own progress (0–100). Resolves with the imported workbook's id, or null
 * when the document produced no workbook (a PDF's extracted figures).
 */
export async function importDocument(
  api: ApiClient,
  file: File,
  onProgress: (percent: number) => void,
  signal: AbortSignal,
): Promise<string | null> {
  const form = new FormData()
  form.append('file', file, file.name)
  const answer = await api.upload<UploadAnswer>('/files/upload', form, { signal })
  const jobId = answer.jobId ?? answer.job?.id ?? null
  if (!jobId) return answer.file?.workbookId ?? null
  for (;;) {
    const job = await api.get<ImportJob>(`/files/jobs/${encodeURIComponent(jobId)}`, { signal })
    onProgress(Math.max(0, Math.min(100, Math.round(job.progress))))
    if (job.state === 'completed') return job.result?.workbookId ?? answer.file?.workbookId ?? null
    if (job.state === 'failed') throw new Error(job.error || 'Upload failed')
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, POLL_INTERVAL_MS)
      signal.addEventListener('abort', () => {
        clearTimeout(timer)
        reject(signal.reason)
      }, { once: true })
    })
  }
}
