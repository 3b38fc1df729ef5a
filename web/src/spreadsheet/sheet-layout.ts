import type { AxisEntry, AxisSpan, SetSheetViewCommand, SheetViewState } from '@finsheet/contracts'
import { MAX_OUTLINE_LEVEL } from '@finsheet/contracts'
import type { CellPosition, CellRange } from '../grid/address'

/**
 * The sheet-layout commands the View, Format and Data menus send, built from the selection and the
 * sheet's layout as it is: freeze panes, hide and unhide, group and ungroup, collapse and expand.
 */

export type Axis = 'rows' | 'columns'
type Layout = SheetViewState | undefined

const entryAt = (view: Layout, axis: Axis, index: number): AxisEntry | undefined => view?.[axis]?.[String(index)]
const levelAt = (view: Layout, axis: Axis, index: number) => entryAt(view, axis, index)?.level ?? 0
export const isHidden = (view: Layout, axis: Axis, index: number) => entryAt(view, axis, index)?.hidden === true

/** Freeze Panes: rows above and columns left of the active cell stay put (Excel's rule). */
export function freezeAt(sheet: string, active: CellPosition): SetSheetViewCommand {
  return { type: 'set-sheet-view', sheet, frozenRows: active.row, frozenColumns: active.col }
}

export function freeze(sheet: string, rows: number, columns: number): SetSheetViewCommand {
  return { type: 'set-sheet-view', sheet, frozenRows: rows, frozenColumns: columns }
}

const bounds = (range: CellRange, axis: Axis) => (axis === 'rows' ? { from: range.startRow, to: range.endRow } : { from: range.startCol, to: range.endCol })

export function hide(sheet: string, axis: Axis, range: CellRange): SetSheetViewCommand {
  return { type: 'set-sheet-view', sheet, [axis]: [{ ...bounds(range, axis), hidden: true }] }
}

/**
 * Unhide shows the hidden rows (columns) inside the selection; a selection of one row next to hidden
 * ones shows those beside it, as a selection spanning them would.
 */
export function unhide(sheet: string, axis: Axis, range: CellRange, view: Layout): SetSheetViewCommand | null {
  let { from, to } = bounds(range, axis)
  while (from > 0 && isHidden(view, axis, from - 1)) from--
  while (isHidden(view, axis, to + 1)) to++
  const spans: AxisSpan[] = []
  for (let index = from; index <= to; index++) {
    if (!isHidden(view, axis, index)) continue
    const last = spans[spans.length - 1]
    if (last && last.to === index - 1) last.to = index
    else spans.push({ from: index, to: index, hidden: false })
  }
  return spans.length > 0 ? { type: 'set-sheet-view', sheet, [axis]: spans } : null
}

/** Group (Alt+Shift+Right) puts the rows one outline level deeper; Ungroup one level out. */
export function regroup(sheet: string, axis: Axis, range: CellRange, view: Layout, step: 1 | -1): SetSheetViewCommand | null {
  const { from, to } = bounds(range, axis)
  const spans: AxisSpan[] = []
  for (let index = from; index <= to; index++) {
    const level = Math.max(0, Math.min(MAX_OUTLINE_LEVEL, levelAt(view, axis, index) + step))
    if (level === levelAt(view, axis, index)) continue
    const last = spans[spans.length - 1]
    if (last && last.to === index - 1 && last.level === level) last.to = index
    else spans.push({ from: index, to: index, level })
  }
  return spans.length > 0 ? { type: 'set-sheet-view', sheet, [axis]: spans } : null
}

/** A group of rows (columns) at one outline level: its first and last, and the row (column) after it that holds its button. */
export interface OutlineGroup {
  axis: Axis
  from: number
  to: number
  level: number
  /** whether its rows are hidden */
  collapsed: boolean
}

/**
 * The outermost groups of an axis, each followed by its summary row (Excel's default: the button sits
 * on the row below the group, the column right of it).
 */
export function outlineGroups(view: Layout, axis: Axis): OutlineGroup[] {
  const entries = view?.[axis]
  if (!entries) return []
  const grouped = Object.entries(entries)
    .filter(([, entry]) => (entry.level ?? 0) > 0)
    .map(([index]) => Number(index))
    .sort((a, b) => a - b)
  const groups: OutlineGroup[] = []
  for (const index of grouped) {
    const last = groups[groups.length - 1]
    if (last && last.to === index - 1) last.to = index
    else groups.push({ axis, from: index, to: index, level: 1, collapsed: false })
  }
  for (const group of groups) {
    let hidden = true
    for (let index = group.from; index <= group.to && hidden; index++) hidden = isHidden(view, axis, index)
    group.collapsed = hidden
  }
  return groups
}

/** The group a row (column) is in or sums (the one right after it), if any. */
export function groupAt(view: Layout, axis: Axis, index: number): OutlineGroup | undefined {
  return outlineGroups(view, axis).find((group) => index >= group.from && index <= group.to + 1)
}

/** Collapse (−) hides a group's rows and marks its summary row; expand (+) shows them again. */
export function setCollapsed(sheet: string, group: OutlineGroup, collapsed: boolean): SetSheetViewCommand {
  return {
    type: 'set-sheet-view',
    sheet,
    [group.axis]: [
      { from: group.from, to: group.to, hidden: collapsed },
      { from: group.to + 1, to: group.to + 1, collapsed },
    ],
  }
}
