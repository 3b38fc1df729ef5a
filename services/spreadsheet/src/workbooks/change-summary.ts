/**
 * The `changes` text of a version: what changed since the previous one — sheets, counts per sheet,
 * recalculated values and a few notable cells with their row labels.
 */
import { displayOf, type CellRecord, type SnapshotDiff, type WorkbookSnapshot } from '@finsheet/workbook'
import type { CellDifference } from '@finsheet/contracts'
import { plural } from '@finsheet/workbook'

/** Edits this small (and no sheet added, removed or renamed) make a minor version; more make an auto-save. */
export const SMALL_EDIT_CELLS = 20

export function isSmallEdit(diff: SnapshotDiff): boolean {
  const edited = diff.summary.added + diff.summary.removed + diff.cells.filter((cell) => cell.status === 'changed' && cell.inputChanged).length
  const sheetsChanged = diff.sheets.added.length + diff.sheets.removed.length + diff.sheets.renamed.length
  return sheetsChanged === 0 && !diff.truncated && edited <= SMALL_EDIT_CELLS
}

/** The sheets whose cells or names changed, for a version's tags. */
export function changedSheets(diff: SnapshotDiff): string[] {
  const sheets = new Set<string>([...diff.sheets.added, ...diff.sheets.renamed.map((rename) => rename.to)])
  for (const cell of diff.cells) if (cell.inputChanged) sheets.add(cell.sheet)
  return [...sheets]
}

function indexCells(snapshot: WorkbookSnapshot): Map<string, CellRecord> {
  const cells = new Map<string, CellRecord>()
  for (const sheet of snapshot.sheets) for (const cell of sheet.cells) cells.set(`${sheet.name}!${cell.address}`, cell)
  return cells
}

/** The text in column A of the cell's row, which names the row in a financial model. */
function rowLabel(cells: Map<string, CellRecord>, sheet: string, address: string): string | undefined {
  const row = /\d+$/.exec(address)?.[0]
  if (!row || address === `A${row}`) return undefined
  const label = cells.get(`${sheet}!A${row}`)
  return label?.type === 'text' && typeof label.value === 'string' && label.value.trim() !== '' ? label.value.trim().slice(0, 60) : undefined
}

function shown(cells: Map<string, CellRecord>, key: string, fallback: CellDifference['before']): string {
  const record = cells.get(key)
  if (record) return displayOf(record) || '(empty)'
  return fallback === null ? '(empty)' : String(fallback.value ?? '') || '(empty)'
}

function describeCell(difference: CellDifference, beforeCells: Map<string, CellRecord>, afterCells: Map<string, CellRecord>): string {
  const key = `${difference.sheet}!${difference.address}`
  const label = rowLabel(afterCells, difference.sheet, difference.address) ?? rowLabel(beforeCells, difference.sheet, difference.address)
  const name = label ? `${key} (${label})` : key
  return `${name} ${shown(beforeCells, key, difference.before)} → ${shown(afterCells, key, difference.after)}`
}

function relativeChange(difference: CellDifference): number {
  const before = difference.before?.value
  const after = difference.after?.value
  if (typeof before !== 'number' || typeof after !== 'number') return 0
  return Math.abs(after - before) / Math.max(Math.abs(before), 1e-9)
}

/** A sentence or two on what changed between two snapshots of one workbook. */
export function describeChanges(diff: SnapshotDiff, before: WorkbookSnapshot, after: WorkbookSnapshot): string {
  const parts: string[] = []
  for (const name of diff.sheets.added) parts.push(`added sheet ${name}`)
  for (const name of diff.sheets.removed) parts.push(`removed sheet ${name}`)
  for (const rename of diff.sheets.renamed) parts.push(`renamed sheet ${rename.from} to ${rename.to}`)

  const perSheet = new Map<string, { edited: number; added: number; removed: number }>()
  let recalculated = 0
  for (const cell of diff.cells) {
    if (diff.sheets.added.includes(cell.sheet) || diff.sheets.removed.includes(cell.sheet)) continue
    let counts = perSheet.get(cell.sheet)
    if (!counts) perSheet.set(cell.sheet, (counts = { edited: 0, added: 0, removed: 0 }))
    if (cell.status === 'added') counts.added++
    else if (cell.status === 'removed') counts.removed++
    else if (cell.inputChanged) counts.edited++
    else recalculated++
  }
  for (const [sheet, counts] of perSheet) {
    const what = [
      counts.edited > 0 ? `edited ${plural(counts.edited, 'cell')}` : '',
      counts.added > 0 ? `filled ${plural(counts.added, 'cell')}` : '',
      counts.removed > 0 ? `cleared ${plural(counts.removed, 'cell')}` : '',
    ].filter(Boolean)
    if (what.length > 0) parts.push(`${what.join(', ')} on ${sheet}`)
  }
  if (recalculated > 0) parts.push(`${plural(recalculated, 'value')} recalculated`)
  if (diff.truncated) parts.push(`${plural(diff.summary.added + diff.summary.removed + diff.summary.changed, 'cell')} differ in all`)
  if (parts.length === 0) return 'Formatting and layout changes'

  const beforeCells = indexCells(before)
  const afterCells = indexCells(after)
  const notable: string[] = []
  for (const cell of diff.cells) {
    if (notable.length >= 3) break
    if (cell.status === 'changed' && cell.inputChanged && !diff.sheets.added.includes(cell.sheet)) notable.push(describeCell(cell, beforeCells, afterCells))
  }
  const outputs = diff.cells
    .filter((cell) => cell.status === 'changed' && !cell.inputChanged && relativeChange(cell) > 0)
    .sort((a, b) => relativeChange(b) - relativeChange(a))
    .slice(0, 2)
  for (const cell of outputs) notable.push(describeCell(cell, beforeCells, afterCells))

  const text = parts.join('; ')
  const sentence = text.charAt(0).toUpperCase() + text.slice(1) + '.'
  return notable.length > 0 ? `${sentence} Notable: ${notable.join('; ')}.` : sentence
}
