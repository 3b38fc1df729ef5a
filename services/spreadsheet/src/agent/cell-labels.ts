/**
 * What a cell is called in its sheet: the label of its row and the header of its column
 * ("EBITDA · FY2027"). From a sheet's layout when one is at hand; otherwise by looking left along
 * the row for its label and up the column for the nearest header, which costs a few reads per cell.
 */
import { isCellError, isDateFormat, type CellValue } from '@finsheet/formula'
import type { SheetRecord, WorkbookModel } from '@finsheet/workbook'
import { instructionLikeText } from './safety.js'
import { displayAt, type SheetLayout } from './sheet-layout.js'

/** Columns searched to the left of a cell for its row's label. */
const LABEL_REACH = 40
/** Rows searched above a cell for its column's header. */
const HEADER_REACH = 400
/** Longer text is a note, not a header. */
const MAX_HEADER_LENGTH = 60

const isYear = (value: CellValue) => typeof value === 'number' && Number.isInteger(value) && value >= 1900 && value <= 2100

/** The label of a row: its leftmost text, left of its first number or formula. */
export function rowLabelAt(state: WorkbookModel, sheet: SheetRecord, row: number, before = LABEL_REACH): string | undefined {
  for (let col = 0; col < Math.min(before, LABEL_REACH); col++) {
    const value = state.engine.getValueAt(sheet.name, row, col)
    if (typeof value === 'string' && value.trim() !== '') return usable(value.trim())
    if (typeof value === 'number' || state.engine.getFormulaShapeAt(sheet.name, row, col) !== undefined) return undefined
  }
  return undefined
}

/** Whether a cell holds what headers are made of: short text, a year or a date. */
function isHeaderish(state: WorkbookModel, sheet: SheetRecord, row: number, col: number): boolean {
  if (row < 0 || col < 0) return false
  const value = state.engine.getValueAt(sheet.name, row, col)
  if (typeof value === 'string') return value.trim() !== '' && value.length <= MAX_HEADER_LENGTH
  if (isYear(value)) return true
  if (typeof value !== 'number') return false
  const format = state.formatAtPosition(sheet.id, row, col)
  return format !== undefined && isDateFormat(format)
}

/**
 * The header of a cell's column: the nearest text, year or date above it, within reach, in a row
 * that looks like a header (a neighbouring cell holds one too), so that a note above a number is not
 * taken for its header.
 */
export function columnHeaderAt(state: WorkbookModel, sheet: SheetRecord, row: number, col: number): string | undefined {
  for (let above = row - 1; above >= Math.max(0, row - HEADER_REACH); above--) {
    const value = state.engine.getValueAt(sheet.name, above, col)
    if (value === null || (typeof value === 'object' && isCellError(value))) continue
    if (!isHeaderish(state, sheet, above, col)) {
      if (typeof value === 'string') return undefined
      continue
    }
    if (!isHeaderish(state, sheet, above, col - 1) && !isHeaderish(state, sheet, above, col + 1)) {
      if (typeof value === 'string') return undefined
      continue
    }
    const text = typeof value === 'string' ? value.trim() : displayAt(state, sheet, above, col)
    return usable(text)
  }
  return undefined
}

/** A label as shown; text that reads like instructions to an AI is never used as a label. */
function usable(text: string | undefined): string | undefined {
  return text === undefined || instructionLikeText(text) ? undefined : text
}

/** "EBITDA · FY2027", or whichever half is known; undefined when neither is. */
export function cellLabelAt(state: WorkbookModel, sheet: SheetRecord, row: number, col: number): string | undefined {
  const rowLabel = rowLabelAt(state, sheet, row, col)
  const header = columnHeaderAt(state, sheet, row, col)
  if (rowLabel && header) return `${rowLabel} · ${header}`
  return rowLabel ?? header
}

interface LayoutIndex {
  labels: Map<number, { col: number; text: string }>
}
const indexes = new WeakMap<SheetLayout, LayoutIndex>()

function indexOf(layout: SheetLayout): LayoutIndex {
  let index = indexes.get(layout)
  if (!index) {
    index = { labels: new Map(layout.labels.map((label) => [label.row, { col: label.col, text: label.text }])) }
    indexes.set(layout, index)
  }
  return index
}

/** A cell's label from its sheet's layout: the row's label and the header of the nearest header row above. */
export function cellLabelFromLayout(layout: SheetLayout, row: number, col: number): string | undefined {
  const label = indexOf(layout).labels.get(row)
  const rowLabel = label && label.col < col ? label.text : undefined
  let header: string | undefined
  for (let i = layout.headerRows.length - 1; i >= 0; i--) {
    const headerRow = layout.headerRows[i]
    if (headerRow.row >= row) continue
    const cell = headerRow.cells.find((candidate) => candidate.col === col)
    if (cell) {
      header = cell.text
      break
    }
  }
  if (rowLabel && header) return `${rowLabel} · ${header}`
  return rowLabel ?? header
}

/**
 * Labels for many cells of one workbook state (a changeset's cells): from each sheet's layout when it
 * is kept already, otherwise by reading each column once for its header rows.
 */
export class CellLabeller {
  private readonly layouts = new Map<string, SheetLayout | null>()
  /** Per sheet and column: the rows read so far (up to `scanned`) and those holding a header, ascending. */
  private readonly headers = new Map<string, { from: number; to: number; found: { row: number; text: string }[] }>()

  constructor(
    private readonly state: WorkbookModel,
    private readonly keptLayout: (sheet: SheetRecord) => SheetLayout | undefined,
  ) {}

  label(sheet: SheetRecord, row: number, col: number): string | undefined {
    let layout = this.layouts.get(sheet.id)
    if (layout === undefined) this.layouts.set(sheet.id, (layout = this.keptLayout(sheet) ?? null))
    if (layout) return cellLabelFromLayout(layout, row, col)
    const rowLabel = rowLabelAt(this.state, sheet, row, col)
    const header = this.headerAbove(sheet, row, col)
    if (rowLabel && header) return `${rowLabel} · ${header}`
    return rowLabel ?? header
  }

  private headerAbove(sheet: SheetRecord, row: number, col: number): string | undefined {
    const key = `${sheet.id}:${col}`
    let column = this.headers.get(key)
    if (!column) this.headers.set(key, (column = { from: 0, to: -1, found: [] }))
    // Each row of a column is read once, and only rows within reach of a cell asked about.
    const from = Math.max(0, row - HEADER_REACH)
    const to = row - 1
    if (column.to < column.from) {
      this.scan(sheet, col, from, to, column.found)
      column.from = from
      column.to = to
    } else {
      if (from < column.from) this.scan(sheet, col, from, column.from - 1, column.found)
      if (to > column.to) this.scan(sheet, col, Math.max(column.to + 1, from), to, column.found)
      column.from = Math.min(column.from, from)
      column.to = Math.max(column.to, to)
      column.found.sort((a, b) => a.row - b.row)
    }
    let best: string | undefined
    for (const header of column.found) {
      if (header.row >= row) break
      if (header.row >= from) best = header.text
    }
    return best
  }

  private scan(sheet: SheetRecord, col: number, from: number, to: number, found: { row: number; text: string }[]): void {
    for (let at = from; at <= to; at++) {
      if (!isHeaderish(this.state, sheet, at, col)) continue
      if (!isHeaderish(this.state, sheet, at, col - 1) && !isHeaderish(this.state, sheet, at, col + 1)) continue
      const value = this.state.engine.getValueAt(sheet.name, at, col)
      const text = usable(typeof value === 'string' ? value.trim() : displayAt(this.state, sheet, at, col))
      if (text) found.push({ row: at, text })
    }
  }
}
