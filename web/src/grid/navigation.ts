import type { CellPosition } from './address'
import type { MergeIndex } from './merges'
import type { GridBounds, Selection } from './selection'
import { cycleActiveCell, extendSelection, isMultiCellSelection, singleCellSelection } from './selection'

/** The parts of a keyboard event that navigation depends on (Cmd counts as Ctrl on a Mac). */
export interface NavigationKey {
  key: string
  shift: boolean
  ctrl: boolean
  alt: boolean
}

export interface NavigationContext {
  bounds: GridBounds
  /** how many rows PageUp/PageDown move: the rows that fit on screen */
  pageRows: number
  /** whether a cell holds anything, for Ctrl+arrow jumps */
  isFilled: (col: number, row: number) => boolean
  /** the bottom-right corner of the used area, for Ctrl+End */
  lastUsedCell: () => CellPosition
  /** merged areas: arrows step over them and land on their top-left cell */
  merges?: MergeIndex
  /** hidden rows and columns, which moves step over as Excel does */
  hiddenRow?: (row: number) => boolean
  hiddenColumn?: (col: number) => boolean
}

/**
 * The target moved on past hidden rows and columns in the direction of the move; when only hidden
 * ones lie that way, the move goes back to the last shown one (or stays where it was).
 */
export function skipHidden(target: CellPosition, dCol: number, dRow: number, from: CellPosition, ctx: NavigationContext): CellPosition {
  const { bounds } = ctx
  let { col, row } = target
  const hiddenRow = ctx.hiddenRow
  const hiddenColumn = ctx.hiddenColumn
  if (hiddenRow && dRow !== 0) {
    const step = Math.sign(dRow)
    while (row >= 0 && row < bounds.rowCount && hiddenRow(row)) row += step
    if (row < 0 || row >= bounds.rowCount) {
      row = target.row
      while (row !== from.row && hiddenRow(row)) row -= step
    }
  }
  if (hiddenColumn && dCol !== 0) {
    const step = Math.sign(dCol)
    while (col >= 0 && col < bounds.columnCount && hiddenColumn(col)) col += step
    if (col < 0 || col >= bounds.columnCount) {
      col = target.col
      while (col !== from.col && hiddenColumn(col)) col -= step
    }
  }
  return { col, row }
}

export function clampPosition(pos: CellPosition, bounds: GridBounds): CellPosition {
  return {
    col: Math.min(Math.max(pos.col, 0), bounds.columnCount - 1),
    row: Math.min(Math.max(pos.row, 0), bounds.rowCount - 1),
  }
}

export function stepPosition(pos: CellPosition, dCol: number, dRow: number, bounds: GridBounds): CellPosition {
  return clampPosition({ col: pos.col + dCol, row: pos.row + dRow }, bounds)
}

/**
 * Ctrl+arrow as Excel does it: inside a block of filled cells go to the block's last cell; from a
 * block's edge or from an empty cell go to the next filled cell; with none, go to the grid's edge.
 */
export function jumpToDataEdge(
  pos: CellPosition,
  dCol: number,
  dRow: number,
  bounds: GridBounds,
  isFilled: (col: number, row: number) => boolean,
): CellPosition {
  const inside = (c: number, r: number) => c >= 0 && r >= 0 && c < bounds.columnCount && r < bounds.rowCount
  let col = pos.col
  let row = pos.row
  if (!inside(col + dCol, row + dRow)) return pos
  const startFilled = isFilled(col, row)
  const nextFilled = isFilled(col + dCol, row + dRow)
  if (startFilled && nextFilled) {
    while (inside(col + dCol, row + dRow) && isFilled(col + dCol, row + dRow)) {
      col += dCol
      row += dRow
    }
    return { col, row }
  }
  col += dCol
  row += dRow
  while (inside(col, row) && !isFilled(col, row)) {
    if (!inside(col + dCol, row + dRow)) return { col, row }
    col += dCol
    row += dRow
  }
  return { col, row }
}

const ARROWS: Record<string, [number, number]> = {
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
}

/**
 * The selection after a navigation key, or null when the key does not navigate. Plain keys
 * collapse the selection onto the moved active cell; Shift moves the focus corner instead.
 */
export function navigate(selection: Selection, key: NavigationKey, ctx: NavigationContext): Selection | null {
  const { bounds } = ctx
  const move = (target: CellPosition): Selection =>
    key.shift ? extendSelection(selection, target) : singleCellSelection(target)
  const from = key.shift ? selection.focus : selection.active

  const arrow = ARROWS[key.key]
  if (arrow && !key.alt) {
    const [dCol, dRow] = arrow
    const target = key.ctrl
      ? jumpToDataEdge(from, dCol, dRow, bounds, ctx.isFilled)
      : ctx.merges && !key.shift
        ? ctx.merges.step(from, dCol, dRow, (pos) => clampPosition(pos, bounds))
        : stepPosition(from, dCol, dRow, bounds)
    return move(skipHidden(target, dCol, dRow, from, ctx))
  }

  switch (key.key) {
    case 'Home':
      return move(key.ctrl ? { col: 0, row: 0 } : { col: 0, row: from.row })
    case 'End':
      if (!key.ctrl) return null
      return move(clampPosition(ctx.lastUsedCell(), bounds))
    case 'PageDown':
    case 'PageUp': {
      if (key.ctrl || key.alt) return null
      const rows = Math.max(1, ctx.pageRows) * (key.key === 'PageDown' ? 1 : -1)
      return move(skipHidden(stepPosition(from, 0, rows, bounds), 0, rows, from, ctx))
    }
    case 'Enter':
    case 'Tab': {
      if (key.ctrl || key.alt) return null
      const vertical = key.key === 'Enter'
      if (isMultiCellSelection(selection)) {
        const direction = vertical ? (key.shift ? 'up' : 'down') : key.shift ? 'left' : 'right'
        return cycleActiveCell(selection, direction)
      }
      const step = key.shift ? -1 : 1
      const [dCol, dRow] = vertical ? [0, step] : [step, 0]
      const target = ctx.merges
        ? ctx.merges.step(selection.active, dCol, dRow, (pos) => clampPosition(pos, bounds))
        : stepPosition(selection.active, dCol, dRow, bounds)
      return singleCellSelection(skipHidden(target, dCol, dRow, selection.active, ctx))
    }
    default:
      return null
  }
}
