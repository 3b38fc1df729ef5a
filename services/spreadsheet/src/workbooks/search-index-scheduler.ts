import { VECTORDB_INDEX_QUEUE, type IndexWorkbookJobData } from '@finsheet/contracts'
import type { AuthUser, JobQueues, Logger } from '@finsheet/platform'
import type { WorkbookDoc } from '../storage/documents.js'
import type { ChangeListener } from './workbook-service.js'

/** Job ids allow letters, digits and . _ ~ - only. */
const safe = (text: string) => text.replace(/[^A-Za-z0-9._~-]/g, '_').slice(0, 120)

/**
 * Keeps the vector search's index of each workbook current: a workbook is indexed once it has had no
 * change for the quiet period (a burst of edits indexes once), when it is created or imported, and
 * its points are removed when it is deleted. The jobs carry the owner's id, never a token; their ids
 * name the workbook's revision, so replicas that saw the same change add one job.
 */
export class SearchIndexScheduler implements ChangeListener {
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; fire: () => Promise<void> }>()
  private closed = false

  constructor(
    private readonly jobs: JobQueues,
    private readonly options: { quietMs: number; logger?: Pick<Logger, 'warn'> },
  ) {}

  changed(workbook: WorkbookDoc, user: AuthUser): void {
    this.schedule(workbook, user)
  }

  created(workbook: WorkbookDoc, user: AuthUser): void {
    this.schedule(workbook, user)
  }

  deleted(workbookId: string, user: AuthUser): void {
    if (this.closed) return
    const pending = this.timers.get(workbookId)
    if (pending) clearTimeout(pending.timer)
    this.timers.delete(workbookId)
    void this.add(`remove-${safe(workbookId)}`, { action: 'remove', workbookId, userId: user.uid })
  }

  private schedule(workbook: WorkbookDoc, user: AuthUser): void {
    if (this.closed || this.options.quietMs <= 0) return
    const pending = this.timers.get(workbook.id)
    if (pending) clearTimeout(pending.timer)
    const fire = () => {
      this.timers.delete(workbook.id)
      return this.add(`index-${safe(workbook.id)}-r${workbook.revision}`, { action: 'index', workbookId: workbook.id, userId: user.uid })
    }
    const timer = setTimeout(() => void fire(), this.options.quietMs)
    timer.unref()
    this.timers.set(workbook.id, { timer, fire })
  }

  private async add(jobId: string, data: IndexWorkbookJobData): Promise<void> {
    try {
      await this.jobs.queue(VECTORDB_INDEX_QUEUE).add(data.action, data, { jobId, attempts: 3 })
    } catch (error) {
      // The search index lags until the next change; the workbook itself is stored.
      this.options.logger?.warn({ err: error, workbookId: data.workbookId }, 'could not queue the search index job')
    }
  }

  /** Queues every index job still in its quiet period (on shutdown, and for tests). */
  async flush(): Promise<void> {
    for (const { timer, fire } of [...this.timers.values()]) {
      clearTimeout(timer)
      await fire()
    }
  }

  close(): void {
    this.closed = true
    for (const { timer } of this.timers.values()) clearTimeout(timer)
    this.timers.clear()
  }
}
