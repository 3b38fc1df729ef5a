import type { DocumentStore, DocumentTransaction } from '@finsheet/platform'

/** A write whose precondition no longer holds (another writer got there first): nothing of it was stored. */
export class RevisionConflict extends Error {
  constructor() {
    super('The workbook changed in the store since this change was prepared')
    this.name = 'RevisionConflict'
  }
}

/** One change's writes. `write` checks its precondition first and answers false, writing nothing, when it fails. */
export interface StagedWrite {
  write(tx: DocumentTransaction): Promise<boolean>
}

interface Queued {
  staged: StagedWrite
  resolve(): void
  reject(error: unknown): void
}

/**
 * Group commit: writes that arrive while a transaction is being committed wait and go together in
 * the next one. A durable commit costs a disk flush; one flush for many changes is what lets a busy
 * workbook take hundreds of edits a second. Each write keeps its own precondition: one that fails is
 * left out and rejected, the others commit.
 */
export class GroupCommitter {
  private queue: Queued[] = []
  private draining = false
  /** Transactions committed and writes they carried, for the metrics. */
  readonly stats = { commits: 0, writes: 0, refused: 0 }

  constructor(
    private readonly store: DocumentStore,
    private readonly maxBatch = 256,
  ) {}

  /** Resolves once the write is durable; rejects with RevisionConflict when its precondition failed. */
  submit(staged: StagedWrite): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ staged, resolve, reject })
      if (!this.draining) void this.drain()
    })
  }

  private async drain(): Promise<void> {
    this.draining = true
    try {
      while (this.queue.length > 0) {
        // Let the requests that arrived during the last flush reach the queue before taking a batch.
        await new Promise<void>((resolve) => setImmediate(resolve))
        const batch = this.queue.splice(0, this.maxBatch)
        let refused: Set<Queued>
        try {
          refused = await this.store.transaction(async (tx) => {
            const failed = new Set<Queued>()
            for (const item of batch) if (!(await item.staged.write(tx))) failed.add(item)
            return failed
          })
        } catch (error) {
          for (const item of batch) item.reject(error)
          continue
        }
        this.stats.commits++
        this.stats.writes += batch.length - refused.size
        this.stats.refused += refused.size
        for (const item of batch) {
          if (refused.has(item)) item.reject(new RevisionConflict())
          else item.resolve()
        }
      }
    } finally {
      this.draining = false
    }
  }
}
