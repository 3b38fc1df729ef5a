import type { WorkbookCommand } from '@finsheet/contracts'
import { rangeAddress, type CellRange } from '../grid/address'
import { selectionRange } from '../grid/selection'
import { clearFilter, createFilter, dataRange, filterRangeOf, removeFilter } from '../spreadsheet/data-tools'
import { toast } from '../toasts/toast-store'
import type { Action, ActionContext } from './action-registry'

/** The Data menu's sort and filter actions (and the toolbar's filter button). */

const hasWorkbook = (ctx: ActionContext) => ctx.workspace.state.store !== null
const activeFilter = (ctx: ActionContext) => {
  const { store, sheet } = ctx.workspace.state
  return store?.sheet(sheet)?.layout?.filter
}

/** A change the workbook's rules refuse (a sort across a merge) says why, and nothing is written. */
function dispatchOrExplain(ctx: ActionContext, title: string, build: () => WorkbookCommand | null): void {
  const { store } = ctx.workspace.state
  if (!store) return
  try {
    const command = build()
    if (command) store.dispatch(command)
  } catch (error) {
    toast({ title, description: error instanceof Error ? error.message : String(error), variant: 'destructive' })
  }
  ctx.workspace.refresh()
}

/** What a sort or a filter covers now: the selection, or the block of filled cells around the active cell. */
export function selectedData(ctx: ActionContext): CellRange | null {
  const { store, sheet, selection } = ctx.workspace.state
  const view = store?.sheet(sheet)
  if (!store || !view) return null
  // Whole rows or columns are cut to what the sheet uses.
  return dataRange(store.clampToUsed(sheet, selectionRange(selection)), (pos) => store.isFilled(sheet, pos), { rows: view.rowCount, columns: view.columnCount })
}

/**
 * Excel's guess for a quick sort: the first row is headers when it holds only text and the sorted
 * column's next row does not.
 */
export function looksLikeHeaders(range: CellRange, column: number, valueAt: (row: number, col: number) => unknown): boolean {
  if (range.endRow <= range.startRow) return false
  for (let col = range.startCol; col <= range.endCol; col++) {
    const value = valueAt(range.startRow, col)
    if (typeof value !== 'string' || value === '') return false
  }
  return typeof valueAt(range.startRow + 1, column) !== 'string'
}

function quickSort(ctx: ActionContext, descending: boolean): void {
  const { store, sheet, selection } = ctx.workspace.state
  if (!store) return
  const column = selection.active.col
  const filter = activeFilter(ctx)
  const filterRange = filterRangeOf(store.sheet(sheet)?.layout)
  // Inside a filter's range the sort covers its rows below the headers, as the dropdown's does.
  const inFilter = filter && filterRange && column >= filterRange.startCol && column <= filterRange.endCol && selection.active.row >= filterRange.startRow && selection.active.row <= filterRange.endRow
  const range = inFilter ? filterRange : selectedData(ctx)
  if (!range) return
  const hasHeaders = inFilter ? true : looksLikeHeaders(range, column, (row, col) => store.getValue(sheet, { row, col }))
  dispatchOrExplain(ctx, 'Sort', () => store.sortCommand(sheet, { range: rangeAddress(range), hasHeaders, keys: [{ column, descending }] }))
}

export const DATA_ACTIONS: readonly Action[] = [
  {
    id: 'sort-range',
    label: 'Sort range…',
    group: 'Editing',
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.openTool('sort'),
  },
  {
    id: 'sort-ascending',
    label: 'Sort A → Z',
    group: 'Editing',
    enabled: hasWorkbook,
    run: (ctx) => quickSort(ctx, false),
  },
  {
    id: 'sort-descending',
    label: 'Sort Z → A',
    group: 'Editing',
    enabled: hasWorkbook,
    run: (ctx) => quickSort(ctx, true),
  },
  {
    id: 'toggle-filter',
    label: 'Create a filter',
    group: 'Editing',
    keys: ['Ctrl+Shift+L'],
    title: (ctx) => (activeFilter(ctx) ? 'Remove filter' : 'Create a filter'),
    enabled: hasWorkbook,
    active: (ctx) => activeFilter(ctx) !== undefined,
    run: (ctx) => {
      const { sheet } = ctx.workspace.state
      if (activeFilter(ctx)) {
        ctx.workspace.closeFilterMenu()
        return dispatchOrExplain(ctx, 'Filter', () => removeFilter(sheet))
      }
      const range = selectedData(ctx)
      if (range) dispatchOrExplain(ctx, 'Filter', () => createFilter(sheet, range))
    },
  },
  {
    id: 'clear-filter',
    label: 'Clear filter',
    group: 'Editing',
    enabled: (ctx) => (activeFilter(ctx)?.columns?.length ?? 0) > 0,
    run: (ctx) => {
      const filter = activeFilter(ctx)
      if (filter) dispatchOrExplain(ctx, 'Filter', () => clearFilter(ctx.workspace.state.sheet, filter))
    },
  },
  {
    // As in Excel, Alt+Down opens a filter header's dropdown, or else the list a cell's data validation offers.
    id: 'open-cell-list',
    label: "Open the selected cell's list: a filter header's dropdown, or its data validation's values",
    group: 'Editing',
    keys: ['Alt+ArrowDown'],
    enabled: (ctx) => onFilterHeader(ctx) || (ctx.workspace.state.store !== null && ctx.grid?.openList !== undefined),
    run: (ctx) => {
      if (onFilterHeader(ctx)) ctx.workspace.openFilterMenu({ column: ctx.workspace.state.selection.active.col, at: null })
      else ctx.grid?.openList?.()
    },
  },
]

/** Whether the active cell is a header cell of the sheet's filter. */
function onFilterHeader(ctx: ActionContext): boolean {
  const { store, sheet, selection } = ctx.workspace.state
  const range = filterRangeOf(store?.sheet(sheet)?.layout)
  const { row, col } = selection.active
  return range !== null && row === range.startRow && col >= range.startCol && col <= range.endCol
}
