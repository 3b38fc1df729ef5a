/**
 * A sheet's filter, Excel's AutoFilter: a range whose first row holds the headers (each with a
 * dropdown), and per filtered column the values it shows, as the cells display them. Applying it hides
 * the rows below the headers that some filtered column does not show; those rows are marked
 * `filtered` in the sheet's view, apart from rows the user hid, and stay as they are when cells change
 * afterwards until the filter is applied again, as in Excel. The range follows inserted and deleted
 * rows and columns as a merge does.
 */
import type { AxisEntry, FilterColumn, SetFilterCommand, SheetFilter, SheetViewState } from '@finsheet/contracts'
import { MAX_FILTER_VALUES } from '@finsheet/contracts'
import { formatRange, moveIndex, moveRange, tryParseRange, type RangeAddress, type StructuralEdit } from './a1.js'
import { checkRange, commandErrors } from './command-checks.js'
import { compareSortValues } from './sort-range.js'
import type { WorkbookModel } from './workbook-model.js'

export type { FilterColumn, SheetFilter }
type RowSpan = { from: number; to: number }

export function copyFilter(filter: SheetFilter): SheetFilter {
  const copy: SheetFilter = { range: filter.range }
  if (filter.columns && filter.columns.length > 0) copy.columns = filter.columns.map((column) => ({ column: column.column, values: [...column.values] }))
  return copy
}

/** The filter after rows or columns were inserted or deleted; undefined when its header row or all its columns were deleted. */
export function movedFilter(filter: SheetFilter, edit: StructuralEdit): SheetFilter | undefined {
  const range = tryParseRange(filter.range)
  if (!range) return undefined
  if (edit.axis === 'rows' && edit.kind === 'delete' && range.top >= edit.at && range.top < edit.at + edit.count) return undefined
  const moved = moveRange(range, edit)
  if (!moved) return undefined
  const next: SheetFilter = { range: formatRange(moved) }
  if (filter.columns && edit.axis === 'columns') {
    const columns = filter.columns.flatMap((column) => {
      const to = moveIndex(column.column, edit)
      return to === undefined ? [] : [{ column: to, values: [...column.values] }]
    })
    if (columns.length > 0) next.columns = columns
  } else if (filter.columns && filter.columns.length > 0) next.columns = filter.columns.map((column) => ({ column: column.column, values: [...column.values] }))
  return next
}

/** A filter checked and in canonical form: its range as A1:C9, its columns inside it, each once, in order. */
export function checkedFilter(filter: SheetFilter): { filter: SheetFilter; range: RangeAddress } {
  const { range, text } = checkRange(filter.range)
  const columns = new Map<number, FilterColumn>()
  for (const column of filter.columns ?? []) {
    if (!Number.isInteger(column.column) || column.column < range.left || column.column > range.right) throw commandErrors.invalidCommand(`A filtered column must lie within ${text}`)
    if (column.values.length > MAX_FILTER_VALUES) throw commandErrors.invalidCommand(`A filter can list at most ${MAX_FILTER_VALUES.toLocaleString('en-US')} values`)
    columns.set(column.column, { column: column.column, values: [...new Set(column.values)] })
  }
  const checked: SheetFilter = { range: text }
  if (columns.size > 0) checked.columns = [...columns.values()].sort((a, b) => a.column - b.column)
  return { filter: checked, range }
}

/** A cell as the filter sees it: the text it shows, '' for a blank. */
export function shownText(model: WorkbookModel, sheetId: string, row: number, col: number): string {
  const sheet = model.sheetById(sheetId)
  return model.engine.getDisplayAt(sheet.name, row, col, model.formatAtPosition(sheetId, row, col))
}

/** The rows below a filter's headers that its columns hide now, as spans. */
export function rowsFilteredBy(model: WorkbookModel, sheetId: string, filter: SheetFilter): RowSpan[] {
  const range = tryParseRange(filter.range)
  if (!range || !filter.columns || filter.columns.length === 0) return []
  const shown = filter.columns.map((column) => ({ column: column.column, values: new Set(column.values) }))
  const spans: RowSpan[] = []
  for (let row = range.top + 1; row <= range.bottom; row++) {
    const hidden = shown.some((column) => !column.values.has(shownText(model, sheetId, row, column.column)))
    if (!hidden) continue
    const last = spans[spans.length - 1]
    if (last && last.to === row - 1) last.to = row
    else spans.push({ from: row, to: row })
  }
  return spans
}

/** The rows marked filtered in a view, as spans. */
export function filteredSpans(view: SheetViewState | undefined): RowSpan[] {
  const rows = Object.entries(view?.rows ?? {})
    .filter(([, entry]) => entry.filtered)
    .map(([index]) => Number(index))
    .sort((a, b) => a - b)
  const spans: RowSpan[] = []
  for (const row of rows) {
    const last = spans[spans.length - 1]
    if (last && last.to === row - 1) last.to = row
    else spans.push({ from: row, to: row })
  }
  return spans
}

/** The number of data rows of a filter (below its headers) and how many of them it shows. */
export function filterRecords(view: SheetViewState | undefined): { shown: number; total: number } | undefined {
  const range = view?.filter ? tryParseRange(view.filter.range) : undefined
  if (!range) return undefined
  const total = range.bottom - range.top
  let hidden = 0
  for (const [index, entry] of Object.entries(view?.rows ?? {})) {
    const row = Number(index)
    if (entry.filtered && row > range.top && row <= range.bottom) hidden++
  }
  return { shown: total - hidden, total }
}

/**
 * Applies a set-filter command to a view: the filter replaced (or removed), the rows it hides marked.
 * Returns the new view and the command that undoes it (the old filter and the rows it hid).
 */
export function applyFilter(model: WorkbookModel, sheetId: string, view: SheetViewState | undefined, command: SetFilterCommand): { view: SheetViewState | undefined; undo: Omit<SetFilterCommand, 'type' | 'sheet'> } {
  const checked = command.filter === null ? null : checkedFilter(command.filter)
  let filtered: RowSpan[] = []
  if (checked && command.filteredRows !== undefined) {
    for (const span of command.filteredRows) {
      if (!Number.isInteger(span.from) || !Number.isInteger(span.to) || span.from > span.to || span.from <= checked.range.top || span.to > checked.range.bottom) {
        throw commandErrors.invalidCommand(`Filtered rows lie below the headers of ${checked.filter.range}`)
      }
    }
    filtered = command.filteredRows.map((span) => ({ from: span.from, to: span.to }))
  } else if (checked) filtered = rowsFilteredBy(model, sheetId, checked.filter)

  const undo: Omit<SetFilterCommand, 'type' | 'sheet'> = view?.filter ? { filter: copyFilter(view.filter), filteredRows: filteredSpans(view) } : { filter: null }
  const rows: Record<string, AxisEntry> = {}
  for (const [index, entry] of Object.entries(view?.rows ?? {})) {
    const { filtered: _filtered, ...rest } = entry
    if (Object.keys(rest).length > 0) rows[index] = rest
  }
  for (const span of filtered) {
    for (let row = span.from; row <= span.to; row++) rows[String(row)] = { ...rows[String(row)], filtered: true }
  }
  const next: SheetViewState = { ...view }
  delete next.filter
  delete next.rows
  if (Object.keys(rows).length > 0) next.rows = rows
  if (checked) next.filter = checked.filter
  return { view: Object.keys(next).length > 0 ? next : undefined, undo }
}

export interface FilterValue {
  /** The text the cells show ('' for blanks). */
  text: string
  /** How many rows below the headers show it. */
  count: number
}

/**
 * The distinct values a column of a filter's range shows below its headers, in ascending order
 * (numbers, text, logical values, errors, then blanks), for the column's dropdown.
 */
export function filterColumnValues(model: WorkbookModel, sheetId: string, filter: SheetFilter, column: number): FilterValue[] {
  const range = tryParseRange(filter.range)
  if (!range || column < range.left || column > range.right) return []
  const sheet = model.sheetById(sheetId)
  const found = new Map<string, { count: number; value: ReturnType<WorkbookModel['engine']['getValueAt']> }>()
  for (let row = range.top + 1; row <= range.bottom; row++) {
    const text = shownText(model, sheetId, row, column)
    const known = found.get(text)
    if (known) known.count++
    else found.set(text, { count: 1, value: text === '' ? null : model.engine.getValueAt(sheet.name, row, column) })
  }
  return [...found]
    .sort(([, a], [, b]) => compareSortValues(a.value, b.value, 1))
    .map(([text, { count }]) => ({ text, count }))
}
