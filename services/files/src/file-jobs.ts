import { randomUUID } from 'node:crypto'
import { FILES_PROCESS_QUEUE, type FileJobResult, type ImportFileResponse } from '@finsheet/contracts'
import { JobQueueError, type BackoffOptions, type JobQueues, type JobSnapshot } from '@finsheet/platform'
import { filesErrors } from './errors.js'
import type { FileJobData } from './processors/process-file.js'
import type { StoredFile } from './repositories/file-repository.js'

/**
 * Runs a file job gets, and the waits between them: 2, 4, 8 and 16 s, so a store or service out of
 * reach for up to half a minute delays an upload's processing instead of failing it. Errors a person
 * can act on (a corrupt or protected file) fail the job at once, whatever is left.
 */
export const FILE_JOB_ATTEMPTS = 5
export const FILE_JOB_BACKOFF: BackoffOptions = { type: 'exponential', delayMs: 2000 }

/** Putting files.process jobs on the queue and waiting for them, for the routes. */
export function createFileJobs(jobs: JobQueues, waitMs: number) {
  const queue = () => jobs.queue(FILES_PROCESS_QUEUE)
  return {
    /**
     * The job that processes a fresh upload; its id is derived from the file, so adding it twice is
     * harmless. Its data names the user, never their token: the worker asks for one when it runs.
     */
    async enqueueProcess(file: StoredFile, workbookName?: string): Promise<string> {
      const data: FileJobData = { fileId: file.id, userId: file.userId, action: 'process', ...(workbookName ? { workbookName } : {}) }
      const { id } = await queue().add('process', data, { jobId: file.jobId ?? processJobId(file.id), attempts: FILE_JOB_ATTEMPTS, backoff: FILE_JOB_BACKOFF })
      return id
    },

    /** A new workbook from an already uploaded file. */
    async enqueueImport(file: StoredFile, workbookName?: string): Promise<string> {
      const data: FileJobData = { fileId: file.id, userId: file.userId, action: 'import', ...(workbookName ? { workbookName } : {}) }
      const { id } = await queue().add('import', data, { jobId: `import-${file.id}-${randomUUID()}`, attempts: FILE_JOB_ATTEMPTS, backoff: FILE_JOB_BACKOFF })
      return id
    },

    async get(id: string): Promise<JobSnapshot<FileJobData, FileJobResult> | null> {
      return queue().getJob<FileJobData, FileJobResult>(id)
    },

    /** Waits for an import job and answers as spec 2 §3's Upload result; a job still running answers pending. */
    async waitForImport(jobId: string, fileId: string): Promise<ImportFileResponse> {
      let job: JobSnapshot<FileJobData, FileJobResult>
      try {
        job = await queue().waitUntilFinished<FileJobData, FileJobResult>(jobId, waitMs)
      } catch (error) {
        if (!(error instanceof JobQueueError)) throw error
        return { success: true, workbookId: null, cellCount: 0, formulaCount: 0, error: null, jobId, fileId, pending: true, report: null }
      }
      if (job.state === 'failed') throw filesErrors.importFailed(job.failedReason ?? 'Import failed')
      const result = job.result
      return {
        success: true,
        workbookId: result?.workbookId ?? null,
        cellCount: result?.cellCount ?? 0,
        formulaCount: result?.formulaCount ?? 0,
        error: null,
        jobId,
        fileId,
        pending: false,
        report: result?.report ?? null,
      }
    },
  }
}
export type FileJobs = ReturnType<typeof createFileJobs>

export function processJobId(fileId: string): string {
  return `process-${fileId}`
}
