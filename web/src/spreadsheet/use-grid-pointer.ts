import { useCallback, useRef } from 'react'
import type { GridTarget, PointerModifiers } from '../grid/Grid'
import type { CellPosition } from '../grid/address'
import { dragPointTo, isPointable, pointAtCell } from '../grid/editor-state'
import type { MergeIndex } from '../grid/merges'
import type { GridBounds } from '../grid/selection'
import { extendSelection, selectAll, selectColumns, selectionRange, selectRows, singleCellSelection } from '../grid/selection'
import type { CellEditor } from './use-cell-editor'
import type { Workspace } from './workspace'

type DragKind = 'cells' | 'columns' | 'rows' | 'point' | null

export interface GridPointerOptions {
  workspace: Workspace
  editor: CellEditor
  bounds: GridBounds
  merges: MergeIndex | undefined
  focusGrid(): void
  /** opens the cell menu at a point of the page */
  openCellMenu(x: number, y: number): void
  /** Ctrl+click: the link the cell opens, if any, and following it */
  linkAt?(pos: CellPosition): string | undefined
  followLink?(url: string): void
}

export interface GridPointer {
  onPointerDown(target: GridTarget, mods: PointerModifiers): void
  onPointerDrag(target: GridTarget): void
  onPointerUp(): void
  onDoubleClick(target: GridTarget): void
  onContextMenu(target: GridTarget, x: number, y: number): void
}

/**
 * The mouse on the grid, as in Excel: a click selects a cell (Shift extends), a header its column or
 * row, the corner everything; dragging extends; while a formula can take a reference a click or a
 * drag points at cells instead; a double click edits the cell in place; a right click outside the
 * selection selects the cell (or header) under it first, then opens the cell menu.
 */
export function useGridPointer({ workspace, editor, bounds, merges, focusGrid, openCellMenu, linkAt, followLink }: GridPointerOptions): GridPointer {
  const drag = useRef<DragKind>(null)

  const onPointerDown = useCallback(
    (target: GridTarget, mods: PointerModifiers) => {
      const edit = editor.current.current
      const selection = workspace.state.selection
      if (edit && target.kind === 'cell' && isPointable(edit)) {
        const pointed = pointAtCell(edit, target.pos, mods.shift, editor.pointingPrefix(edit))
        if (pointed) {
          editor.setEditor(pointed)
          drag.current = 'point'
          return
        }
      }
      if (edit) editor.commit(null)
      // Ctrl+click follows a cell's link, as in Excel; a plain click only selects the cell
      const linked = !edit && mods.ctrl && !mods.shift && target.kind === 'cell' ? (merges ? merges.anchorOf(target.pos) : target.pos) : undefined
      const link = linked ? linkAt?.(linked) : undefined
      if (linked && link !== undefined && followLink) {
        workspace.setSelection(singleCellSelection(linked))
        drag.current = null
        followLink(link)
        return
      }
      switch (target.kind) {
        case 'cell':
          workspace.setSelection(mods.shift ? extendSelection(selection, target.pos) : singleCellSelection(merges ? merges.anchorOf(target.pos) : target.pos))
          drag.current = 'cells'
          break
        case 'column':
          workspace.setSelection(selectColumns(mods.shift ? selection.anchor.col : target.col, target.col, bounds))
          drag.current = 'columns'
          break
        case 'row':
          workspace.setSelection(selectRows(mods.shift ? selection.anchor.row : target.row, target.row, bounds))
          drag.current = 'rows'
          break
        case 'corner':
          workspace.setSelection(selectAll(bounds))
          drag.current = null
          break
      }
      focusGrid()
    },
    [workspace, editor, bounds, merges, focusGrid, linkAt, followLink],
  )

  const onPointerDrag = useCallback(
    (target: GridTarget) => {
      const edit = editor.current.current
      const selection = workspace.state.selection
      if (drag.current === 'point' && edit && target.kind === 'cell') editor.setEditor(dragPointTo(edit, target.pos, editor.pointingPrefix(edit)))
      else if (drag.current === 'cells' && target.kind === 'cell') workspace.setSelection(extendSelection(selection, target.pos))
      else if (drag.current === 'columns') {
        const col = target.kind === 'cell' ? target.pos.col : target.kind === 'column' ? target.col : selection.focus.col
        workspace.setSelection(selectColumns(selection.anchor.col, col, bounds))
      } else if (drag.current === 'rows') {
        const row = target.kind === 'cell' ? target.pos.row : target.kind === 'row' ? target.row : selection.focus.row
        workspace.setSelection(selectRows(selection.anchor.row, row, bounds))
      }
    },
    [workspace, editor, bounds],
  )

  const onPointerUp = useCallback(() => {
    drag.current = null
  }, [])

  // a double click edits the cell in place, caret at the end (F2's edit mode)
  const onDoubleClick = useCallback(
    (target: GridTarget) => {
      if (target.kind !== 'cell' || editor.current.current || !workspace.state.store) return
      editor.startAt(merges ? merges.anchorOf(target.pos) : target.pos)
      drag.current = null
      focusGrid()
    },
    [workspace, editor, merges, focusGrid],
  )

  const onContextMenu = useCallback(
    (target: GridTarget, x: number, y: number) => {
      if (editor.current.current) editor.commit(null)
      const r = selectionRange(workspace.state.selection)
      if (target.kind === 'cell' && !(target.pos.col >= r.startCol && target.pos.col <= r.endCol && target.pos.row >= r.startRow && target.pos.row <= r.endRow)) {
        workspace.setSelection(singleCellSelection(target.pos))
      } else if (target.kind === 'column' && !(target.col >= r.startCol && target.col <= r.endCol && r.startRow === 0 && r.endRow === bounds.rowCount - 1)) {
        workspace.setSelection(selectColumns(target.col, target.col, bounds))
      } else if (target.kind === 'row' && !(target.row >= r.startRow && target.row <= r.endRow && r.startCol === 0 && r.endCol === bounds.columnCount - 1)) {
        workspace.setSelection(selectRows(target.row, target.row, bounds))
      }
      openCellMenu(x, y)
    },
    [workspace, editor, bounds, openCellMenu],
  )

  return { onPointerDown, onPointerDrag, onPointerUp, onDoubleClick, onContextMenu }
}
