import type { CellPosition, CellRange } from './address'
import { isSingleCell, normaliseRange, rangeContains } from './address'

/**
 * A rectangular selection as Excel keeps it: the anchor corner stays put while Shift+arrows or a
 * drag move the focus corner, and the active cell (the one the formula bar shows and typing edits)
 * lies inside the rectangle — Enter and Tab move it without losing the rectangle.
 */
export interface Selection {
  anchor: CellPosition
  focus: CellPosition
  active: CellPosition
}

export interface GridBounds {
  columnCount: number
  rowCount: number
}

export function singleCellSelection(pos: CellPosition): Selection {
  return { anchor: pos, focus: pos, active: pos }
}

export function selectionRange(selection: Selection): CellRange {
  return normaliseRange(selection.anchor, selection.focus)
}

export function isMultiCellSelection(selection: Selection): boolean {
  return !isSingleCell(selectionRange(selection))
}

/** Moves the focus corner (Shift+click, Shift+arrow, drag); the active cell returns to the anchor. */
export function extendSelection(selection: Selection, focus: CellPosition): Selection {
  return { anchor: selection.anchor, focus, active: selection.anchor }
}

export function rangeSelection(range: CellRange): Selection {
  const anchor = { col: range.startCol, row: range.startRow }
  return { anchor, focus: { col: range.endCol, row: range.endRow }, active: anchor }
}

export function selectColumns(fromCol: number, toCol: number, bounds: GridBounds): Selection {
  return {
    anchor: { col: fromCol, row: 0 },
    focus: { col: toCol, row: bounds.rowCount - 1 },
    active: { col: fromCol, row: 0 },
  }
}

export function selectRows(fromRow: number, toRow: number, bounds: GridBounds): Selection {
  return {
    anchor: { col: 0, row: fromRow },
    focus: { col: bounds.columnCount - 1, row: toRow },
    active: { col: 0, row: fromRow },
  }
}

export function selectAll(bounds: GridBounds): Selection {
  return {
    anchor: { col: 0, row: 0 },
    focus: { col: bounds.columnCount - 1, row: bounds.rowCount - 1 },
    active: { col: 0, row: 0 },
  }
}

export type CycleDirection = 'down' | 'up' | 'right' | 'left'

/**
 * Enter/Tab inside a multi-cell selection: the active cell walks the rectangle (Enter goes down a
 * column then on to the next column, Tab goes along a row then on to the next row), wrapping at the
 * end, and the rectangle stays selected.
 */
export function cycleActiveCell(selection: Selection, direction: CycleDirection): Selection {
  const range = selectionRange(selection)
  let { col, row } = selection.active
  if (!rangeContains(range, selection.active)) ({ col, row } = { col: range.startCol, row: range.startRow })
  const vertical = direction === 'down' || direction === 'up'
  const forward = direction === 'down' || direction === 'right'
  if (vertical) {
    row += forward ? 1 : -1
    if (row > range.endRow) {
      row = range.startRow
      col = col + 1 > range.endCol ? range.startCol : col + 1
    } else if (row < range.startRow) {
      row = range.endRow
      col = col - 1 < range.startCol ? range.endCol : col - 1
    }
  } else {
    col += forward ? 1 : -1
    if (col > range.endCol) {
      col = range.startCol
      row = row + 1 > range.endRow ? range.startRow : row + 1
    } else if (col < range.startCol) {
      col = range.endCol
      row = row - 1 < range.startRow ? range.endRow : row - 1
    }
  }
  return { ...selection, active: { col, row } }
}
