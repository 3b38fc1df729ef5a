import { useMemo } from 'react'
import type { WorkbookCommand } from '@finsheet/contracts'
import { looksLikeHeaders } from '../actions/data-actions'
import { columnLabel, rangeAddress, type CellPosition } from '../grid/address'
import { selectionRange } from '../grid/selection'
import { toast } from '../toasts/toast-store'
import { dataRange, filterColumn, filterRangeOf } from './data-tools'
import { FilterDropdown } from './FilterDropdown'
import { SortRangeDialog } from './SortRangeDialog'
import type { Workspace } from './workspace'
import { OpenedOnce } from '../ui/OpenedOnce'

interface DataToolsProps {
  workspace: Workspace
  /** a cell's rectangle in the page, or null when it is scrolled out of view */
  cellBox(pos: CellPosition): { x: number; y: number; width: number; height: number } | null
  /** after the dialog or the dropdown closes: the grid takes the keyboard again */
  onClosed(): void
}

/** The Sort range dialog and the filter headers' dropdown over the open sheet. */
export function DataTools({ workspace, cellBox, onClosed }: DataToolsProps) {
  const { store, sheet, selection, tool, filterMenu } = workspace.state
  const view = store?.sheet(sheet)
  const sorting = tool === 'sort'
  const initial = useMemo(() => {
    if (!sorting || !store || !view) return null
    const range = dataRange(store.clampToUsed(sheet, selectionRange(selection)), (pos) => store.isFilled(sheet, pos), { rows: view.rowCount, columns: view.columnCount })
    return { range, headers: looksLikeHeaders(range, selection.active.col, (row, col) => store.getValue(sheet, { row, col })) }
    // The range is chosen when the dialog opens, not as the workbook changes under it.
  }, [sorting])
  if (!store || !view) return null

  const write = (title: string, command: WorkbookCommand | null) => {
    try {
      if (command) store.dispatch(command)
    } catch (error) {
      toast({ title, description: error instanceof Error ? error.message : String(error), variant: 'destructive' })
    }
    workspace.refresh()
  }
  const closeMenu = () => {
    workspace.closeFilterMenu()
    onClosed()
  }

  const filter = view.layout?.filter
  const filterRange = filterRangeOf(view.layout)
  let dropdown = null
  if (filterMenu && filter && filterRange && filterMenu.column >= filterRange.startCol && filterMenu.column <= filterRange.endCol) {
    const column = filterMenu.column
    const box = filterMenu.at ? null : cellBox({ row: filterRange.startRow, col: column })
    const at = filterMenu.at ? { x: filterMenu.at.clientX, y: filterMenu.at.clientY } : box ? { x: box.x, y: box.y + box.height } : { x: 80, y: 120 }
    const header = store.getDisplay(sheet, { row: filterRange.startRow, col: column }) || `Column ${columnLabel(column)}`
    dropdown = (
      <FilterDropdown
        // A fresh dropdown per column starts from what the filter shows; values arriving from the server meanwhile keep the choices made.
        key={`${sheet}:${column}`}
        header={header}
        filter={filter}
        column={column}
        values={store.filterValues(sheet, column)}
        at={at}
        onApply={(shown) => {
          write('Filter', filterColumn(sheet, filter, column, shown))
          closeMenu()
        }}
        onSort={(descending) => {
          write('Sort', (() => {
            try {
              return store.sortCommand(sheet, { range: rangeAddress(filterRange), hasHeaders: true, keys: [{ column, descending }] })
            } catch (error) {
              toast({ title: 'Sort', description: error instanceof Error ? error.message : String(error), variant: 'destructive' })
              return null
            }
          })())
          closeMenu()
        }}
        onClose={closeMenu}
      />
    )
  }

  return (
    <>
      <OpenedOnce open={sorting && initial !== null}>
        {(open) => (
          <SortRangeDialog
            open={open}
            workbook={store}
            sheet={sheet}
            initialRange={initial?.range ?? null}
            initialHeaders={initial?.headers ?? false}
            onSort={(command) => write('Sort', command)}
            onClose={() => {
              workspace.closeTool()
              onClosed()
            }}
          />
        )}
      </OpenedOnce>
      {dropdown}
    </>
  )
}
