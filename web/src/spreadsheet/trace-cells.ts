import type { CellPosition, CellRange } from '../grid/address'
import { rangeContains } from '../grid/address'
import { formulaReferences } from '../grid/formula-editing'

/** A range on a sheet, as Ctrl+[ and Ctrl+] go to it. */
export interface SheetRange {
  sheet: string
  range: CellRange
}

/** Reads the formulas of a workbook: its sheet names and each sheet's formulas with their cells. */
export interface FormulaSource {
  sheetNames: readonly string[]
  forEachFormula(sheet: string, visit: (pos: CellPosition, formula: string) => void): void
}

/** The sheet a reference names, matched without case as Excel does; null when there is none. */
function sheetOf(written: string | null, own: string, sheetNames: readonly string[]): string | null {
  if (written === null) return own
  return sheetNames.find((name) => name.toLowerCase() === written.toLowerCase()) ?? null
}

/**
 * Ctrl+[: the cells and ranges a formula reads directly, in the order it names them, each once.
 * References to sheets that do not exist are left out.
 */
export function precedentsOf(formula: string, sheet: string, sheetNames: readonly string[]): SheetRange[] {
  const found: SheetRange[] = []
  for (const ref of formulaReferences(formula)) {
    const target = sheetOf(ref.sheet, sheet, sheetNames)
    if (target === null) continue
    const same = found.some((f) => f.sheet === target && f.range.startCol === ref.range.startCol && f.range.startRow === ref.range.startRow && f.range.endCol === ref.range.endCol && f.range.endRow === ref.range.endRow)
    if (!same) found.push({ sheet: target, range: ref.range })
  }
  return found
}

/**
 * Ctrl+]: the formula cells that read `cell` of `sheet` directly (by a reference to it or to a range
 * holding it), the active sheet's first, each sheet's in reading order.
 */
export function dependentsOf(source: FormulaSource, sheet: string, cell: CellPosition): SheetRange[] {
  const found: SheetRange[] = []
  const order = [sheet, ...source.sheetNames.filter((name) => name !== sheet)]
  for (const name of order) {
    const cells: CellPosition[] = []
    source.forEachFormula(name, (pos, formula) => {
      const reads = formulaReferences(formula).some((ref) => sheetOf(ref.sheet, name, source.sheetNames) === sheet && rangeContains(ref.range, cell))
      if (reads) cells.push(pos)
    })
    cells.sort((a, b) => a.row - b.row || a.col - b.col)
    for (const pos of cells) found.push({ sheet: name, range: { startCol: pos.col, startRow: pos.row, endCol: pos.col, endRow: pos.row } })
  }
  return found
}
