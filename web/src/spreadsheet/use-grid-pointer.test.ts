// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { NavigationContext } from '../grid/navigation'
import { rangeSelection, selectionRange } from '../grid/selection'
import { useCellEditor } from './use-cell-editor'
import { useGridPointer } from './use-grid-pointer'
import { Workspace } from './workspace'

const bounds = { columnCount: 50, rowCount: 100 }
const navigation = (): NavigationContext => ({ bounds, pageRows: 20, isFilled: () => false, lastUsedCell: () => ({ col: 0, row: 0 }) })
const none = { shift: false, ctrl: false }

function setup() {
  const workspace = new Workspace()
  workspace.open({ id: 'wb', sheets: [{ name: 'Sheet1', cells: { C3: { input: 'hello' } } }] })
  const openCellMenu = vi.fn()
  const focusGrid = vi.fn()
  const hook = renderHook(() => {
    const editor = useCellEditor({ workspace, sheet: 'Sheet1', activeCell: workspace.state.selection.active, navigation, select: (next) => workspace.setSelection(next), reveal: vi.fn(), focusGrid })
    const pointer = useGridPointer({ workspace, editor, bounds, merges: undefined, focusGrid, openCellMenu })
    return { editor, pointer }
  })
  const range = () => selectionRange(workspace.state.selection)
  return { workspace, hook, openCellMenu, range }
}

describe('useGridPointer', () => {
  it('selects a cell on a click, extends with Shift and by dragging', () => {
    const { hook, range } = setup()
    act(() => hook.result.current.pointer.onPointerDown({ kind: 'cell', pos: { col: 1, row: 1 } }, none))
    expect(range()).toEqual({ startCol: 1, startRow: 1, endCol: 1, endRow: 1 })
    act(() => hook.result.current.pointer.onPointerDrag({ kind: 'cell', pos: { col: 3, row: 4 } }))
    act(() => hook.result.current.pointer.onPointerUp())
    expect(range()).toEqual({ startCol: 1, startRow: 1, endCol: 3, endRow: 4 })
    act(() => hook.result.current.pointer.onPointerDown({ kind: 'cell', pos: { col: 0, row: 0 } }, { ...none, shift: true }))
    expect(range()).toEqual({ startCol: 0, startRow: 0, endCol: 1, endRow: 1 })
  })

  it('selects whole columns from a header and everything from the corner', () => {
    const { hook, range } = setup()
    act(() => hook.result.current.pointer.onPointerDown({ kind: 'column', col: 2 }, none))
    act(() => hook.result.current.pointer.onPointerDrag({ kind: 'column', col: 4 }))
    expect(range()).toEqual({ startCol: 2, startRow: 0, endCol: 4, endRow: 99 })
    act(() => hook.result.current.pointer.onPointerDown({ kind: 'corner' }, none))
    expect(range()).toEqual({ startCol: 0, startRow: 0, endCol: 49, endRow: 99 })
  })

  it('points at a clicked cell while a formula is typed, and writes the edit before a plain click elsewhere', () => {
    const { workspace, hook } = setup()
    act(() => hook.result.current.editor.input('=', 1))
    act(() => hook.result.current.pointer.onPointerDown({ kind: 'cell', pos: { col: 2, row: 2 } }, none))
    expect(hook.result.current.editor.editor?.text).toBe('=C3')
    act(() => hook.result.current.pointer.onPointerUp())
    act(() => hook.result.current.editor.input('=C3&"!"', 7))
    act(() => hook.result.current.pointer.onPointerDown({ kind: 'row', row: 5 }, none))
    expect(workspace.state.store!.getDisplay('Sheet1', { col: 0, row: 0 })).toBe('hello!')
    expect(hook.result.current.editor.editor).toBeNull()
  })

  it('edits a cell in place on a double click', () => {
    const { hook } = setup()
    act(() => hook.result.current.pointer.onDoubleClick({ kind: 'cell', pos: { col: 2, row: 2 } }))
    expect(hook.result.current.editor.editor).toMatchObject({ cell: { col: 2, row: 2 }, text: 'hello', mode: 'edit' })
  })

  it('selects the cell under a right click outside the selection, keeps a selection it falls in, then opens the cell menu', () => {
    const { workspace, hook, openCellMenu, range } = setup()
    act(() => workspace.setSelection(rangeSelection({ startCol: 0, startRow: 0, endCol: 2, endRow: 2 })))
    act(() => hook.result.current.pointer.onContextMenu({ kind: 'cell', pos: { col: 1, row: 1 } }, 10, 20))
    expect(range()).toEqual({ startCol: 0, startRow: 0, endCol: 2, endRow: 2 })
    act(() => hook.result.current.pointer.onContextMenu({ kind: 'cell', pos: { col: 5, row: 5 } }, 30, 40))
    expect(range()).toEqual({ startCol: 5, startRow: 5, endCol: 5, endRow: 5 })
    expect(openCellMenu).toHaveBeenLastCalledWith(30, 40)
  })
})
