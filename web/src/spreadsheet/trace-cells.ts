import type { CellPosition, CellRange } from '../grid/address'
import { rangeContains } from '../grid/address'
import { formulaReferences } from '../grid/formula-editing'

/** A range on a sheet, as Ctrl+[ and Ctrl+] go to it. */
export interface SheetRange {
  sheet: string
  range: CellRange
}

/** A defined name: what it refers to ('=Inputs!$B$2'), and its sheet when it belongs to one. */
export interface NameDefinition {
  name: string
  formula: string
  sheet?: string
}

/** Reads the formulas of a workbook: its sheet names, its defined names and each sheet's formulas with their cells. */
export interface FormulaSource {
  sheetNames: readonly string[]
  names: readonly NameDefinition[]
  forEachFormula(sheet: string, visit: (pos: CellPosition, formula: string) => void): void
}

/** How deep names defined by other names are followed. */
const NAME_DEPTH = 8

/** The words of a formula outside its strings that may be names: not followed by '(' (a function) or '!' (a sheet). */
function namesIn(formula: string): string[] {
  const code = formula.replace(/"(?:[^"]|"")*"/g, '""')
  const words: string[] = []
  const word = /(?<![A-Za-z0-9_.$!'\\])([A-Za-z_\\][A-Za-z0-9_.]*)(?![A-Za-z0-9_.(!])/g
  for (const match of code.matchAll(word)) words.push(match[1])
  return words
}

/** The name a word of a formula on `sheet` means: the sheet's own name first, then the workbook's. */
function nameFor(word: string, sheet: string, names: readonly NameDefinition[]): NameDefinition | undefined {
  const lower = word.toLowerCase()
  const candidates = names.filter((n) => n.name.toLowerCase() === lower)
  return candidates.find((n) => n.sheet !== undefined && n.sheet.toLowerCase() === sheet.toLowerCase()) ?? candidates.find((n) => n.sheet === undefined)
}

/** The cells and ranges a formula on `sheet` reads, through the names it uses too, in its order, each once. */
function rangesRead(formula: string, sheet: string, sheetNames: readonly string[], names: readonly NameDefinition[], depth = 0): SheetRange[] {
  const found: SheetRange[] = []
  const add = (entry: SheetRange) => {
    const r = entry.range
    const same = found.some((f) => f.sheet === entry.sheet && f.range.startCol === r.startCol && f.range.startRow === r.startRow && f.range.endCol === r.endCol && f.range.endRow === r.endRow)
    if (!same) found.push(entry)
  }
  for (const ref of formulaReferences(formula)) {
    const target = sheetOf(ref.sheet, sheet, sheetNames)
    if (target !== null) add({ sheet: target, range: ref.range })
  }
  if (names.length > 0 && depth < NAME_DEPTH) {
    for (const word of namesIn(formula)) {
      const name = nameFor(word, sheet, names)
      if (name) for (const entry of rangesRead(name.formula, name.sheet ?? sheet, sheetNames, names, depth + 1)) add(entry)
    }
  }
  return found
}

/** The sheet a reference names, matched without case as Excel does; null when there is none. */
function sheetOf(written: string | null, own: string, sheetNames: readonly string[]): string | null {
  if (written === null) return own
  return sheetNames.find((name) => name.toLowerCase() === written.toLowerCase()) ?? null
}

/**
 * Ctrl+[: the cells and ranges a formula reads directly, in the order it names them, each once, with
 * those the defined names it uses refer to. References to sheets that do not exist are left out.
 */
export function precedentsOf(formula: string, sheet: string, sheetNames: readonly string[], names: readonly NameDefinition[] = []): SheetRange[] {
  return rangesRead(formula, sheet, sheetNames, names)
}

/**
 * Ctrl+]: the formula cells that read `cell` of `sheet` directly (by a reference to it or to a range
 * holding it, or through a defined name), the active sheet's first, each sheet's in reading order.
 */
export function dependentsOf(source: FormulaSource, sheet: string, cell: CellPosition): SheetRange[] {
  const found: SheetRange[] = []
  const order = [sheet, ...source.sheetNames.filter((name) => name !== sheet)]
  for (const name of order) {
    const cells: CellPosition[] = []
    source.forEachFormula(name, (pos, formula) => {
      const reads = rangesRead(formula, name, source.sheetNames, source.names).some((read) => read.sheet === sheet && rangeContains(read.range, cell))
      if (reads) cells.push(pos)
    })
    cells.sort((a, b) => a.row - b.row || a.col - b.col)
    for (const pos of cells) found.push({ sheet: name, range: { startCol: pos.col, startRow: pos.row, endCol: pos.col, endRow: pos.row } })
  }
  return found
}
