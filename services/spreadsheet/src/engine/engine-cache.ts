import { LRUCache } from 'lru-cache'
import type { WorkbookState } from './workbook-state.js'

export interface EngineCacheOptions {
  /** Open workbooks kept at most. */
  maxWorkbooks: number
  /** Cells kept at most across them, so that a few huge workbooks cannot exhaust memory. */
  maxCells: number
}

export interface EngineCacheStats {
  hits: number
  misses: number
  staleReloads: number
  evictions: number
  size: number
  capacity: number
}

/**
 * Open workbooks by id, least recently used dropped first. An entry is only used when its revision
 * is the stored one: a replica behind another's writes loads the workbook again.
 */
export class EngineCache {
  private readonly cache: LRUCache<string, WorkbookState>
  private readonly counters = { hits: 0, misses: 0, staleReloads: 0, evictions: 0 }

  constructor(private readonly options: EngineCacheOptions) {
    this.cache = new LRUCache<string, WorkbookState>({
      max: options.maxWorkbooks,
      maxSize: options.maxCells,
      sizeCalculation: (state) => Math.min(state.size(), options.maxCells),
      dispose: (_state, _key, reason) => {
        if (reason === 'evict') this.counters.evictions++
      },
    })
  }

  /** The open workbook at `revision`, or undefined (counted as a miss, or a stale reload when behind). */
  get(workbookId: string, revision: number): WorkbookState | undefined {
    const state = this.cache.get(workbookId)
    if (state && state.revision === revision) {
      this.counters.hits++
      return state
    }
    if (state) {
      this.counters.staleReloads++
      this.cache.delete(workbookId)
    } else this.counters.misses++
    return undefined
  }

  /** The open workbook at `revision`, without counting a lookup. */
  peek(workbookId: string, revision: number): WorkbookState | undefined {
    const state = this.cache.peek(workbookId)
    return state && state.revision === revision ? state : undefined
  }

  set(workbookId: string, state: WorkbookState): void {
    this.cache.set(workbookId, state)
  }

  /** Drops a workbook whose engine may no longer match the store (a failed write, a deletion). */
  drop(workbookId: string): void {
    this.cache.delete(workbookId)
  }

  stats(): EngineCacheStats {
    return { ...this.counters, size: this.cache.size, capacity: this.options.maxWorkbooks }
  }
}
