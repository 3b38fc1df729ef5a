import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FILES_PROCESS_QUEUE } from '@finsheet/contracts'
import type { BlobStore, DocumentStore, JobProcessor, JobQueues, JobWorker, Logger, UserTokenSource } from '@finsheet/platform'
import type { FileJobResult } from '@finsheet/contracts'
import type { ImportLimits } from '@finsheet/workbook'
import { FILE_JOB_ATTEMPTS } from './file-jobs.js'
import { createFileProcessor, type FileJobData } from './processors/process-file.js'
import { createFileRepository } from './repositories/file-repository.js'
import { createSpreadsheetClient, type SpreadsheetClient } from './spreadsheet-client.js'

export interface FileWorkerDependencies {
  store: DocumentStore
  blobs: BlobStore
  jobs: JobQueues
  /** The spreadsheet service's base URL, or a client for it. */
  spreadsheet: string | SpreadsheetClient
  /** Where the worker gets a token for each job's user (the users service's internal route). */
  userTokens: UserTokenSource
  limits: ImportLimits
  concurrency?: number
  workDir?: string
  /** Where each job's outcome is logged: what was made and how long it took, or why it failed. */
  logger?: Logger
}

/** Runs files.process jobs on this process until closed. */
export function startFileWorker(deps: FileWorkerDependencies): JobWorker {
  const processor = createFileProcessor({
    files: createFileRepository(deps.store),
    blobs: deps.blobs,
    spreadsheet: typeof deps.spreadsheet === 'string' ? createSpreadsheetClient(deps.spreadsheet) : deps.spreadsheet,
    userTokens: deps.userTokens,
    limits: deps.limits,
    workDir: deps.workDir ?? join(tmpdir(), 'finsheet-files-worker'),
    attempts: FILE_JOB_ATTEMPTS,
  })
  const logged: JobProcessor<FileJobData, FileJobResult> = async (job) => {
    const context = { jobId: job.id, fileId: job.data.fileId, attempt: job.attempt }
    try {
      const result = await processor(job)
      deps.logger?.info({ ...context, workbookId: result.workbookId, cells: result.cellCount, formulas: result.formulaCount, timings: result.timings }, 'file processed')
      return result
    } catch (error) {
      deps.logger?.warn({ ...context, reason: (error as Error).message }, 'file processing failed')
      throw error
    }
  }
  return deps.jobs.queue(FILES_PROCESS_QUEUE).process(logged, { concurrency: deps.concurrency ?? 1 })
}
