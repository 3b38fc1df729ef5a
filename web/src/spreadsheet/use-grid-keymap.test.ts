// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react'
import type { KeyboardEvent as ReactKeyboardEvent } from 'react'
import { describe, expect, it, vi } from 'vitest'
import type { GridControls } from '../actions/action-registry'
import { spreadsheetActions } from '../actions/spreadsheet-actions'
import type { NavigationContext } from '../grid/navigation'
import type { FunctionSuggestion } from './FormulaAssist'
import { useCellEditor } from './use-cell-editor'
import { useGridKeymap } from './use-grid-keymap'
import { Workspace } from './workspace'

const bounds = { columnCount: 50, rowCount: 100 }
const navigation = (): NavigationContext => ({ bounds, pageRows: 20, isFilled: () => false, lastUsedCell: () => ({ col: 0, row: 0 }) })

/** A key press as React hands it to the handlers, with its default-prevention recorded. */
function key(name: string, mods: Partial<{ ctrl: boolean; shift: boolean; alt: boolean }> = {}) {
  const event = {
    key: name,
    ctrlKey: mods.ctrl ?? false,
    metaKey: false,
    shiftKey: mods.shift ?? false,
    altKey: mods.alt ?? false,
    nativeEvent: { isComposing: false },
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true
    },
  }
  return event as typeof event & ReactKeyboardEvent<HTMLElement>
}

function setup(suggestions: FunctionSuggestion[] = []) {
  const workspace = new Workspace()
  workspace.open({ id: 'wb', sheets: [{ name: 'Sheet1', cells: { A1: { input: '3' } } }] })
  const grid: GridControls = {
    bounds,
    navigation,
    select: (next) => workspace.setSelection(next),
    reveal: vi.fn(),
    editCell: vi.fn(),
    openCellMenu: vi.fn(),
    leaveGrid: vi.fn(),
    focus: vi.fn(),
  }
  const go = vi.fn()
  const hook = renderHook(() => {
    const editor = useCellEditor({ workspace, sheet: workspace.state.sheet, activeCell: workspace.state.selection.active, navigation, select: grid.select, reveal: grid.reveal, focusGrid: grid.focus })
    let index = 0
    const keymap = useGridKeymap({ registry: spreadsheetActions, workspace, grid, editor, suggestions, suggestionIndex: index, setSuggestionIndex: (update) => (index = update(index)), go })
    return { editor, keymap }
  })
  const press = (event: ReturnType<typeof key>) => {
    act(() => hook.result.current.keymap.onGridKey(event))
    return event
  }
  return { workspace, grid, hook, press }
}

describe('useGridKeymap', () => {
  it('runs grid actions by their keys and leaves other keys to the browser', () => {
    const { workspace, grid, press } = setup()
    expect(press(key('b', { ctrl: true })).defaultPrevented).toBe(true)
    expect(workspace.activeStyle()).toEqual({ bold: true })
    expect(press(key('ArrowRight')).defaultPrevented).toBe(true)
    expect(workspace.state.selection.active).toEqual({ col: 1, row: 0 })
    press(key('F10', { shift: true }))
    expect(grid.openCellMenu).toHaveBeenCalledOnce()
    expect(press(key('c', { ctrl: true })).defaultPrevented).toBe(false)
    expect(press(key('x')).defaultPrevented).toBe(false)
  })

  it('gives the keys to the edit while one is open: Enter writes and moves, Escape drops', () => {
    const { workspace, hook, press } = setup()
    act(() => hook.result.current.editor.input('42', 2))
    press(key('Enter'))
    expect(workspace.state.store!.getInput('Sheet1', { col: 0, row: 0 })).toBe('42')
    expect(workspace.state.selection.active).toEqual({ col: 0, row: 1 })
    act(() => hook.result.current.editor.input('dropped', 7))
    press(key('Escape'))
    expect(workspace.state.store!.getInput('Sheet1', { col: 0, row: 1 })).toBe('')
    expect(hook.result.current.editor.editor).toBeNull()
  })

  it('points at cells with the arrows while a formula can take a reference, and commits on an arrow otherwise', () => {
    const { workspace, hook, press } = setup()
    act(() => workspace.setSelection({ anchor: { col: 1, row: 1 }, focus: { col: 1, row: 1 }, active: { col: 1, row: 1 } }))
    hook.rerender()
    act(() => hook.result.current.editor.input('=', 1))
    press(key('ArrowUp'))
    expect(hook.result.current.editor.editor?.text).toBe('=B1')
    press(key('Enter'))
    expect(workspace.state.store!.getInput('Sheet1', { col: 1, row: 1 })).toBe('=B1')
    act(() => hook.result.current.editor.input('7', 1))
    press(key('ArrowRight'))
    expect(workspace.state.store!.getInput('Sheet1', { col: 1, row: 2 })).toBe('7')
    expect(workspace.state.selection.active).toEqual({ col: 2, row: 2 })
  })

  it('lets the function list take Tab while it shows', () => {
    const { hook, press } = setup([{ name: 'SUM', syntax: 'SUM(number1, ...)', description: 'Adds' }])
    act(() => hook.result.current.editor.input('=SU', 3))
    press(key('Tab'))
    expect(hook.result.current.editor.editor?.text).toBe('=SUM(')
  })
})
