/**
 * A whole workbook as one value: what a version stores, what export writes and what a restore puts
 * back. Sheets keep their ids so that a renamed sheet is still the same sheet.
 */
import type { CellDifference, ChartAnchor, ChartSeriesKind, ChartType, CellValue } from '@finsheet/contracts'
import type { CellRecord, SheetRecord } from './cell-record.js'
import type { CalculationSettings } from './calculation.js'
import type { ExternalLinkRecord } from './external-links.js'

export interface SheetSnapshot extends SheetRecord {
  /** Non-empty cells in row-major order. */
  cells: CellRecord[]
}

/** A snapshot whose sheets' cells come as they are iterated (written out one by one, never all held). */
export type StreamedSnapshot = Omit<WorkbookSnapshot, 'sheets'> & { sheets: Array<Omit<SheetSnapshot, 'cells'> & { cells: Iterable<CellRecord> }> }

export interface DefinedNameRecord {
  name: string
  /** What the name refers to, with '=' ('=Sheet1!$B$2', '=0.21'). */
  formula: string
  /** The sheet a sheet-scoped name belongs to. */
  sheet?: string
}

/** An Excel table (list object): a named block with a header row of column names and data rows. */
export interface TableRecord {
  name: string
  /** The sheet's name. */
  sheet: string
  /** The whole table, header and totals rows included: `B2:E7`. */
  range: string
  headerRow: boolean
  totalsRow: boolean
  /** Column names, left to right (the header row's texts). */
  columns: string[]
  /** Excel's table style, such as `TableStyleMedium2`, kept for export; absent for none. */
  style?: string
}

/** A chart as stored on its workbook; its data is read from the cells when asked for. */
export interface ChartRecord {
  id: string
  type: ChartType
  title: string
  sheetId: string
  dataRange: string
  seriesInColumns: boolean
  createdAt: string
  /** Where the chart sits over its sheet's cells; absent for a chart only listed under Visualizations. */
  anchor?: ChartAnchor
  /** Combo: each series' kind, in order. */
  seriesKinds?: ChartSeriesKind[]
  /** Waterfall: points marked as totals (0-based), ascending. */
  totals?: number[]
}

export interface WorkbookSnapshot {
  format: 'finsheet-workbook'
  formatVersion: 1
  name: string
  /** The workbook revision the snapshot shows. */
  revision: number
  sheets: SheetSnapshot[]
  definedNames: DefinedNameRecord[]
  /** Excel tables; absent when there are none. */
  tables?: TableRecord[]
  charts: ChartRecord[]
  /** How the workbook calculates (iteration of circular references and so on); absent for Excel's defaults. */
  calculation?: CalculationSettings
  /** Other workbooks the formulas refer to (`[1]` is the first), with the values kept of them; absent for none. */
  externalLinks?: ExternalLinkRecord[]
  /** The font of cells that state none, when the workbook came with its own (an imported file's); absent: the app's. */
  defaultFont?: { family: string; size: number }
}

/** The Excel tables of one sheet of a snapshot. */
export function tablesOf(snapshot: Pick<WorkbookSnapshot, 'tables'>, sheet: string): TableRecord[] {
  return (snapshot.tables ?? []).filter((table) => table.sheet === sheet)
}

export interface SnapshotStats {
  sheets: number
  cells: number
  formulas: number
}

export function snapshotStats(snapshot: WorkbookSnapshot): SnapshotStats {
  let cells = 0
  let formulas = 0
  for (const sheet of snapshot.sheets) {
    for (const cell of sheet.cells) {
      if (!hasContent(cell)) continue
      cells++
      if (cell.input.startsWith('=')) formulas++
    }
  }
  return { sheets: snapshot.sheets.length, cells, formulas }
}

/** Whether a cell holds something besides a style: an input, or a value spilled into it. */
export function hasContent(cell: Pick<CellRecord, 'input' | 'value'>): boolean {
  return cell.input !== '' || cell.value !== null
}

export interface SnapshotDiff {
  summary: { added: number; removed: number; changed: number; inputsChanged: number; valuesChanged: number }
  sheets: { added: string[]; removed: string[]; renamed: { from: string; to: string }[] }
  /** In sheet order of `after` (then removed sheets), row-major within a sheet. */
  cells: CellDifference[]
  truncated: boolean
}

const state = (cell: CellRecord) => ({ input: cell.input, value: cell.value, type: cell.type })

const sameValue = (a: CellValue, b: CellValue) => a === b || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b))

/**
 * Cell-by-cell differences of content between two snapshots: cells added, removed, and changed in
 * input or value. Styles and formats alone are not differences. Lists at most `limit` cells but
 * counts all of them.
 */
export function diffSnapshots(before: WorkbookSnapshot, after: WorkbookSnapshot, limit = Infinity): SnapshotDiff {
  const diff: SnapshotDiff = {
    summary: { added: 0, removed: 0, changed: 0, inputsChanged: 0, valuesChanged: 0 },
    sheets: { added: [], removed: [], renamed: [] },
    cells: [],
    truncated: false,
  }
  const push = (difference: CellDifference) => {
    diff.summary[difference.status]++
    if (difference.inputChanged) diff.summary.inputsChanged++
    if (difference.valueChanged) diff.summary.valuesChanged++
    if (diff.cells.length < limit) diff.cells.push(difference)
    else diff.truncated = true
  }

  const beforeSheets = matchSheets(before.sheets, after.sheets)
  for (const sheet of after.sheets) {
    const previous = beforeSheets.get(sheet.id)
    if (previous === undefined) diff.sheets.added.push(sheet.name)
    else if (previous.name !== sheet.name) diff.sheets.renamed.push({ from: previous.name, to: sheet.name })
    const old = new Map<string, CellRecord>()
    for (const cell of previous?.cells ?? []) if (hasContent(cell)) old.set(cell.address, cell)
    for (const cell of sheet.cells) {
      if (!hasContent(cell)) continue
      const was = old.get(cell.address)
      old.delete(cell.address)
      if (was === undefined) {
        push({ sheet: sheet.name, address: cell.address, status: 'added', inputChanged: true, valueChanged: cell.value !== null, before: null, after: state(cell) })
        continue
      }
      const inputChanged = was.input !== cell.input
      const valueChanged = !sameValue(was.value, cell.value)
      if (inputChanged || valueChanged) {
        push({ sheet: sheet.name, address: cell.address, status: 'changed', inputChanged, valueChanged, before: state(was), after: state(cell) })
      }
    }
    for (const cell of sortedCells([...old.values()])) {
      push({ sheet: sheet.name, address: cell.address, status: 'removed', inputChanged: true, valueChanged: cell.value !== null, before: state(cell), after: null })
    }
  }
  const matched = new Set([...beforeSheets.values()].map((sheet) => sheet.id))
  for (const sheet of before.sheets) {
    if (matched.has(sheet.id)) continue
    diff.sheets.removed.push(sheet.name)
    for (const cell of sheet.cells) {
      if (!hasContent(cell)) continue
      push({ sheet: sheet.name, address: cell.address, status: 'removed', inputChanged: true, valueChanged: cell.value !== null, before: state(cell), after: null })
    }
  }
  return diff
}

/** Pairs each sheet of `after` with its sheet in `before`: by id, else by name. */
function matchSheets(before: SheetSnapshot[], after: SheetSnapshot[]): Map<string, SheetSnapshot> {
  const byId = new Map(before.map((sheet) => [sheet.id, sheet]))
  const byName = new Map(before.map((sheet) => [sheet.name.toUpperCase(), sheet]))
  const used = new Set<string>()
  const pairs = new Map<string, SheetSnapshot>()
  for (const sheet of after) {
    const match = byId.get(sheet.id)
    if (match) {
      pairs.set(sheet.id, match)
      used.add(match.id)
    }
  }
  for (const sheet of after) {
    if (pairs.has(sheet.id)) continue
    const match = byName.get(sheet.name.toUpperCase())
    if (match && !used.has(match.id) && !after.some((other) => other.id === match.id)) {
      pairs.set(sheet.id, match)
      used.add(match.id)
    }
  }
  return pairs
}

export function sortedCells<T extends { row: number; col: number }>(cells: T[]): T[] {
  return cells.sort((a, b) => a.row - b.row || a.col - b.col)
}
