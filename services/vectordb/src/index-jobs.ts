import { randomUUID } from 'node:crypto'
import { VECTORDB_INDEX_QUEUE, type IndexWorkbookJobData, type IndexWorkbookJobResult } from '@finsheet/contracts'
import type { JobProcessor, JobQueues, JobSnapshot, UserTokenSource } from '@finsheet/platform'
import type { CellSearch } from './search/cell-search.js'
import type { SpreadsheetReader } from './spreadsheet-client.js'

export const INDEX_JOB_ATTEMPTS = 3

/** Job ids allow letters, digits and . _ ~ - only. */
const safe = (text: string) => text.replace(/[^A-Za-z0-9._~-]/g, '_').slice(0, 120)

/** Putting vectordb.index-workbook jobs on the queue, for the routes. Job data holds the user id, never a token. */
export function createIndexJobs(jobs: JobQueues) {
  const queue = () => jobs.queue(VECTORDB_INDEX_QUEUE)
  return {
    async enqueueIndex(workbookId: string, userId: string): Promise<string> {
      const data: IndexWorkbookJobData = { action: 'index', workbookId, userId }
      return (await queue().add('index', data, { jobId: `index-${safe(workbookId)}-${randomUUID()}`, attempts: INDEX_JOB_ATTEMPTS })).id
    },
    async get(id: string): Promise<JobSnapshot<IndexWorkbookJobData, IndexWorkbookJobResult> | null> {
      return queue().getJob<IndexWorkbookJobData, IndexWorkbookJobResult>(id)
    },
  }
}
export type IndexJobs = ReturnType<typeof createIndexJobs>

export interface IndexProcessorDependencies {
  cells: CellSearch
  spreadsheet: SpreadsheetReader
  userTokens: UserTokenSource
}

/**
 * The vectordb.index-workbook job: reads the workbook as its owner (with a token asked for when the
 * job runs) and replaces its points, or removes them when the workbook is gone or the job says so.
 * Running it twice leaves the same index: points are keyed by workbook, sheet and address.
 */
export function createIndexProcessor(deps: IndexProcessorDependencies): JobProcessor<IndexWorkbookJobData, IndexWorkbookJobResult> {
  return async (job) => {
    const { action, workbookId, userId } = job.data
    if (action === 'remove') {
      await deps.cells.remove(workbookId, userId)
      await job.updateProgress(100)
      return { workbookId, indexed: 0, removed: true }
    }
    const token = await deps.userTokens.tokenFor(userId)
    await job.updateProgress(5)
    const workbook = await deps.spreadsheet.workbookCells(token, workbookId)
    if (!workbook) {
      // Deleted since the job was queued (or never the user's): nothing of it may stay searchable.
      await deps.cells.remove(workbookId, userId)
      return { workbookId, indexed: 0, removed: true }
    }
    await job.updateProgress(20)
    const indexed = await deps.cells.index(workbook, userId, (fraction) => job.updateProgress(20 + Math.round(fraction * 79)))
    await job.updateProgress(100)
    return { workbookId, indexed, removed: false }
  }
}

export function startIndexWorker(jobs: JobQueues, processor: JobProcessor<IndexWorkbookJobData, IndexWorkbookJobResult>, concurrency = 1) {
  return jobs.queue(VECTORDB_INDEX_QUEUE).process(processor, { concurrency })
}
