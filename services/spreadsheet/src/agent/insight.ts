/**
 * What the tools work out about an open workbook (sheet layouts, the dependents index, the search
 * index), kept with it while it does not change. Each piece is kept under a stamp that names the
 * workbook's state: its revision and, while a changeset's draft is applied, the draft. A write on one
 * sheet leaves the other sheets' layouts in place.
 */
import type { SheetRecord, WorkbookModel } from '@finsheet/workbook'
import { analyseSheet, type SheetLayout } from './sheet-layout.js'

/** Stamps kept per piece: the workbook as stored and with one draft applied, and a spare. */
const STAMPS_KEPT = 3

class StampedCache<T> {
  private readonly entries = new Map<string, T>()

  /** What is kept under a stamp, without building it. */
  peek(stamp: string): T | undefined {
    return this.entries.get(stamp)
  }

  get(stamp: string, build: () => T): T {
    const found = this.entries.get(stamp)
    if (found !== undefined) {
      // Most recently used last, so that the oldest goes first.
      this.entries.delete(stamp)
      this.entries.set(stamp, found)
      return found
    }
    const built = build()
    this.entries.set(stamp, built)
    while (this.entries.size > STAMPS_KEPT) this.entries.delete(this.entries.keys().next().value as string)
    return built
  }
}

export class WorkbookInsight {
  private readonly layouts = new Map<string, StampedCache<SheetLayout>>()
  private readonly pieces = new Map<string, StampedCache<unknown>>()

  constructor(private readonly state: WorkbookModel) {}

  /** A sheet's layout under a stamp for that sheet. */
  layout(sheet: SheetRecord, stamp: string): SheetLayout {
    let cache = this.layouts.get(sheet.id)
    if (!cache) this.layouts.set(sheet.id, (cache = new StampedCache()))
    return cache.get(`${stamp}|${sheet.name}`, () => analyseSheet(this.state, sheet))
  }

  /** A sheet's layout under a stamp if it is kept already; undefined rather than working it out. */
  keptLayout(sheet: SheetRecord, stamp: string): SheetLayout | undefined {
    return this.layouts.get(sheet.id)?.peek(`${stamp}|${sheet.name}`)
  }

  /** A piece worked out from the whole workbook under a workbook-wide stamp. */
  piece<T>(name: string, stamp: string, build: () => T): T {
    let cache = this.pieces.get(name)
    if (!cache) this.pieces.set(name, (cache = new StampedCache()))
    return cache.get(stamp, build) as T
  }
}

const insights = new WeakMap<WorkbookModel, WorkbookInsight>()

/** The insight kept with an open workbook (it goes when the workbook leaves the engine cache). */
export function insightOf(state: WorkbookModel): WorkbookInsight {
  let insight = insights.get(state)
  if (!insight) insights.set(state, (insight = new WorkbookInsight(state)))
  return insight
}
