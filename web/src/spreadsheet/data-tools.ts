import type { SetFilterCommand, SheetFilter, SheetViewState } from '@finsheet/contracts'
import { filterRecords } from '@finsheet/workbook/model'
import type { CellPosition, CellRange } from '../grid/address'
import { parseRangeAddress, rangeAddress } from '../grid/address'
import type { GridFilterButtons } from '../grid/types'

/**
 * The Data menu's sort and filter, built from the selection and the sheet's filter as they are: the
 * range a sort or a new filter covers, the set-filter commands a column's dropdown sends, and the
 * status bar's count of the records a filter shows.
 */

/** The range a filter covers, as the grid reads it; null for a sheet without one. */
export function filterRangeOf(view: SheetViewState | undefined): CellRange | null {
  return view?.filter ? parseRangeAddress(view.filter.range) : null
}

/** The filter's header cells with their dropdown buttons, those of filtering columns marked. */
export function filterButtonsOf(view: SheetViewState | undefined): GridFilterButtons | undefined {
  const range = filterRangeOf(view)
  if (!range) return undefined
  return { row: range.startRow, from: range.startCol, to: range.endCol, active: new Set((view?.filter?.columns ?? []).map((column) => column.column)) }
}

/**
 * The block of filled cells around a cell, bounded by empty rows and columns (Excel's current
 * region): what a filter or a sort covers when one cell is selected.
 */
export function currentRegion(start: CellPosition, filled: (pos: CellPosition) => boolean, limits: { rows: number; columns: number }): CellRange {
  const range: CellRange = { startCol: start.col, startRow: start.row, endCol: start.col, endRow: start.row }
  const rowFilled = (row: number) => {
    for (let col = range.startCol; col <= range.endCol; col++) if (filled({ col, row })) return true
    return false
  }
  const columnFilled = (col: number) => {
    for (let row = range.startRow; row <= range.endRow; row++) if (filled({ col, row })) return true
    return false
  }
  // Grown until no row or column next to it holds anything; a guard keeps a runaway sheet bounded.
  for (let grown = true, steps = 0; grown && steps < 100_000; steps++) {
    grown = false
    if (range.startRow > 0 && rowFilled(range.startRow - 1)) {
      range.startRow--
      grown = true
    }
    if (range.endRow < limits.rows - 1 && rowFilled(range.endRow + 1)) {
      range.endRow++
      grown = true
    }
    if (range.startCol > 0 && columnFilled(range.startCol - 1)) {
      range.startCol--
      grown = true
    }
    if (range.endCol < limits.columns - 1 && columnFilled(range.endCol + 1)) {
      range.endCol++
      grown = true
    }
  }
  return range
}

/** What a sort or a new filter covers: the selection, or the current region around a single selected cell. */
export function dataRange(selection: CellRange, filled: (pos: CellPosition) => boolean, limits: { rows: number; columns: number }): CellRange {
  const single = selection.startCol === selection.endCol && selection.startRow === selection.endRow
  return single ? currentRegion({ col: selection.startCol, row: selection.startRow }, filled, limits) : selection
}

/** Create a filter over a range: no column filters yet. */
export function createFilter(sheet: string, range: CellRange): SetFilterCommand {
  return { type: 'set-filter', sheet, filter: { range: rangeAddress(range) } }
}

export function removeFilter(sheet: string): SetFilterCommand {
  return { type: 'set-filter', sheet, filter: null }
}

/**
 * The filter with one column showing only `shown` (null: every value, the column no longer filters),
 * applied again over the cells as they are now.
 */
export function filterColumn(sheet: string, filter: SheetFilter, column: number, shown: readonly string[] | null): SetFilterCommand {
  const others = (filter.columns ?? []).filter((entry) => entry.column !== column)
  const columns = shown === null ? others : [...others, { column, values: [...shown] }].sort((a, b) => a.column - b.column)
  return { type: 'set-filter', sheet, filter: { range: filter.range, ...(columns.length > 0 ? { columns } : {}) } }
}

/** Clear filter: every column shows everything again, the filter and its buttons stay. */
export function clearFilter(sheet: string, filter: SheetFilter): SetFilterCommand {
  return { type: 'set-filter', sheet, filter: { range: filter.range } }
}

/** Excel's status bar while a filter hides rows: 'N of M records found'. */
export function recordsFoundText(view: SheetViewState | undefined): string | null {
  if (!view?.filter?.columns || view.filter.columns.length === 0) return null
  const records = filterRecords(view)
  return records ? `${records.shown.toLocaleString('en-US')} of ${records.total.toLocaleString('en-US')} records found` : null
}

/** A dropdown's values ticked now: those the column shows, or all when it does not filter. */
export function shownValues(filter: SheetFilter | undefined, column: number, all: readonly string[]): Set<string> {
  const entry = filter?.columns?.find((candidate) => candidate.column === column)
  return new Set(entry ? all.filter((value) => entry.values.includes(value)) : all)
}
