/**
 * What a cell is called in its sheet: the label of its row and the header of its column
 * ("EBITDA · FY2027"). From a sheet's layout when one is at hand; otherwise by looking left along
 * the row for its label and up the column for the nearest header, which costs a few reads per cell.
 */
import { isCellError, isDateFormat, type CellValue } from '@finsheet/formula'
import type { SheetRecord, WorkbookModel } from '@finsheet/workbook'
import { displayAt, type SheetLayout } from './sheet-layout.js'

/** Columns searched to the left of a cell for its row's label. */
const LABEL_REACH = 40
/** Rows searched above a cell for its column's header. */
const HEADER_REACH = 400

const isYear = (value: CellValue) => typeof value === 'number' && Number.isInteger(value) && value >= 1900 && value <= 2100

/** The label of a row: its leftmost text, left of its first number or formula. */
export function rowLabelAt(state: WorkbookModel, sheet: SheetRecord, row: number, before = LABEL_REACH): string | undefined {
  for (let col = 0; col < Math.min(before, LABEL_REACH); col++) {
    const value = state.engine.getValueAt(sheet.name, row, col)
    if (typeof value === 'string' && value.trim() !== '') return value.trim()
    if (typeof value === 'number' || state.engine.getFormulaShapeAt(sheet.name, row, col) !== undefined) return undefined
  }
  return undefined
}

/** The header of a cell's column: the nearest text, year or date above it, within reach. */
export function columnHeaderAt(state: WorkbookModel, sheet: SheetRecord, row: number, col: number): string | undefined {
  for (let above = row - 1; above >= Math.max(0, row - HEADER_REACH); above--) {
    const value = state.engine.getValueAt(sheet.name, above, col)
    if (value === null || (typeof value === 'object' && isCellError(value))) continue
    if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim()
    if (isYear(value)) return displayAt(state, sheet, above, col)
    if (typeof value === 'number') {
      const format = state.formatAtPosition(sheet.id, above, col)
      if (format !== undefined && isDateFormat(format)) return displayAt(state, sheet, above, col)
    }
  }
  return undefined
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
