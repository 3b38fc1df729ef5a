import type { FileJobResponse, FileJobResult, ImportWorkbookResponse, UploadFileResponse } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'
import { readSaveFile } from '../workbook/save-file'

const POLL_INTERVAL_MS = 400

/** A workbook made from a file saved with Save (.json): stored at once, with no file kept. */
export interface SaveFileImport {
  kind: 'json'
  fileId: null
  workbookId: string
  cellCount: number
  formulaCount: number
  data?: undefined
  /** a saved workbook comes back whole: nothing to report as not kept */
  report?: undefined
}

/** What an imported document became: a workbook (xlsx, xls, csv, a saved .json) or extracted figures (pdf). */
export interface ImportOutcome {
  fileName: string
  result: FileJobResult | SaveFileImport
}

/**
 * Imports a file saved with Save (.json) as a new workbook: the file is read here and its workbook
 * stored by the workbook import route, which checks every field (a bad one answers 400 naming it).
 */
export async function importSaveFile(api: ApiClient, file: File, onProgress: (percent: number) => void, signal: AbortSignal): Promise<ImportOutcome> {
  const workbook = readSaveFile(await file.text(), file.name.replace(/\.[^.]+$/, '') || 'Imported workbook')
  onProgress(30)
  const answer = await api.post<ImportWorkbookResponse>('/spreadsheet/workbooks/import', workbook, { signal })
  onProgress(100)
  return { fileName: file.name, result: { kind: 'json', fileId: null, workbookId: answer.workbookId, cellCount: answer.cellCount, formulaCount: answer.formulaCount } }
}

/**
 * Uploads a document to the files service and follows its processing job until it ends,
 * reporting the job's own progress (0–100), not a timer. Resolves with the job's result; rejects
 * with the job's reason when processing failed.
 */
export async function importDocument(
  api: ApiClient,
  file: File,
  onProgress: (percent: number) => void,
  signal: AbortSignal,
): Promise<ImportOutcome> {
  const form = new FormData()
  form.append('file', file, file.name)
  const answer = await api.upload<UploadFileResponse>('/files/upload', form, { signal })
  for (;;) {
    const job = await api.get<FileJobResponse>(`/files/jobs/${encodeURIComponent(answer.jobId)}`, { signal })
    onProgress(Math.max(0, Math.min(100, Math.round(job.progress))))
    if (job.state === 'completed' && job.result) return { fileName: answer.file.name, result: job.result }
    if (job.state === 'failed') throw new Error(job.error || job.failedReason || 'Upload failed')
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, POLL_INTERVAL_MS)
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer)
          reject(signal.reason)
        },
        { once: true },
      )
    })
  }
}
