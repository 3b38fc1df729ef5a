import type { CellInputValue, WorkbookStore } from './workbook-store'

/** Produces rows [start, end) of a sheet's inputs, e.g. from a downloaded page of cells. */
export type RowProducer = (start: number, end: number) => readonly (readonly (CellInputValue | undefined)[])[]

export interface StreamOptions {
  /** rows loaded before the first paint */
  firstRows?: number
  /** how long one background slice may run, so scrolling stays smooth meanwhile */
  sliceBudgetMs?: number
  onDone?: () => void
}

export const yieldToBrowser = (): Promise<void> =>
  new Promise((resolve) => {
    // a message task runs after pending input and frames, without setTimeout's 4 ms clamp
    const channel = new MessageChannel()
    channel.port1.onmessage = () => resolve()
    channel.port2.postMessage(null)
  })

/**
 * Opens a large sheet without making the user wait for all of it: the first rows load at once
 * (so the first paint shows cells), the rest load in slices sized to a few milliseconds each,
 * between frames. The status bar shows the progress; edits made meanwhile are kept.
 */
export async function streamRows(
  store: WorkbookStore,
  sheet: string,
  totalRows: number,
  totalColumns: number,
  produce: RowProducer,
  options: StreamOptions = {},
): Promise<void> {
  const firstRows = Math.min(totalRows, options.firstRows ?? 1000)
  const budget = options.sliceBudgetMs ?? 8
  store.beginLoading(sheet, totalRows, totalColumns)
  store.loadRows(sheet, 0, produce(0, firstRows))
  let next = firstRows
  let sliceRows = 200
  while (next < totalRows) {
    await yieldToBrowser()
    if (!store.sheet(sheet)) return
    const end = Math.min(totalRows, next + sliceRows)
    const started = performance.now()
    store.loadRows(sheet, next, produce(next, end))
    const took = performance.now() - started
    next = end
    // aim each slice at the budget, growing or shrinking by at most a factor of two
    sliceRows = Math.max(50, Math.min(sliceRows * 2, Math.round((sliceRows * budget) / Math.max(took, 0.5))))
  }
  store.endLoading(sheet)
  options.onDone?.()
}
