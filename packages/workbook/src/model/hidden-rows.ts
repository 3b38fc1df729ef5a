/**
 * Keeps the calculation engine told which rows of each sheet are hidden, so that SUBTOTAL and AGGREGATE
 * skip them as Excel does: the rows the user hid (collapsing an outline group hides its rows) apart from
 * the rows the sheet's filter hid, as the sheet's view marks them. Views are replaced, never changed in
 * place, so a sheet whose view is the one last stated to this engine needs nothing: checking every sheet
 * after every command costs a comparison per sheet.
 */
import type { CellChange, Engine, HiddenRows } from '@finsheet/formula'
import type { SheetViewState } from '@finsheet/contracts'
import type { SheetRecord } from './cell-record.js'
import { MAX_ROW } from './a1.js'

/** The rows a view hides: by the user, and by the sheet's filter (a stored index past the sheet's last row holds no cells). */
export function hiddenRowsOf(view: SheetViewState | undefined): { hidden: number[]; filtered: number[] } {
  const hidden: number[] = []
  const filtered: number[] = []
  for (const [key, entry] of Object.entries(view?.rows ?? {})) {
    const row = Number(key)
    if (!(row <= MAX_ROW)) continue
    if (entry.hidden) hidden.push(row)
    if (entry.filtered) filtered.push(row)
  }
  return { hidden, filtered } satisfies HiddenRows
}

export class HiddenRowsStatement {
  private engine: Engine | undefined
  /** The view each sheet's hidden rows were last stated from, for `engine`; a sheet absent stated none. */
  private stated = new WeakMap<SheetRecord, SheetViewState | undefined>()

  /**
   * States to the engine the hidden rows of every sheet whose view changed since they were last stated
   * to it (all of them for an engine not seen before); returns the cells that recalculated.
   */
  state(engine: Engine, sheets: readonly SheetRecord[]): CellChange[] {
    if (engine !== this.engine) {
      this.engine = engine
      this.stated = new WeakMap()
    }
    let changes: CellChange[] | undefined
    for (const sheet of sheets) {
      const view = sheet.view
      if (this.stated.has(sheet) ? this.stated.get(sheet) === view : view?.rows === undefined) continue
      this.stated.set(sheet, view)
      const recalculated = engine.setHiddenRows(sheet.name, hiddenRowsOf(view))
      if (recalculated.length > 0) {
        changes ??= []
        for (const change of recalculated) changes.push(change)
      }
    }
    return changes ?? []
  }
}
