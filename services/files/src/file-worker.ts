import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FILES_PROCESS_QUEUE } from '@finsheet/contracts'
import type { BlobStore, DocumentStore, JobQueues, JobWorker } from '@finsheet/platform'
import type { ImportLimits } from '@finsheet/workbook'
import { FILE_JOB_ATTEMPTS } from './file-jobs.js'
import { createFileProcessor } from './processors/process-file.js'
import { createFileRepository } from './repositories/file-repository.js'
import { createSpreadsheetClient, type SpreadsheetClient } from './spreadsheet-client.js'

export interface FileWorkerDependencies {
  store: DocumentStore
  blobs: BlobStore
  jobs: JobQueues
  /** The spreadsheet service's base URL, or a client for it. */
  spreadsheet: string | SpreadsheetClient
  limits: ImportLimits
  concurrency?: number
  workDir?: string
}

/** Runs files.process jobs on this process until closed. */
export function startFileWorker(deps: FileWorkerDependencies): JobWorker {
  const processor = createFileProcessor({
    files: createFileRepository(deps.store),
    blobs: deps.blobs,
    spreadsheet: typeof deps.spreadsheet === 'string' ? createSpreadsheetClient(deps.spreadsheet) : deps.spreadsheet,
    limits: deps.limits,
    workDir: deps.workDir ?? join(tmpdir(), 'finsheet-files-worker'),
    attempts: FILE_JOB_ATTEMPTS,
  })
  return deps.jobs.queue(FILES_PROCESS_QUEUE).process(processor, { concurrency: deps.concurrency ?? 1 })
}
