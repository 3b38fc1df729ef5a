import { describe, expect, it, vi } from 'vitest'
import { rangeSelection, selectColumns, singleCellSelection } from '../grid/selection'
import { Workspace } from '../spreadsheet/workspace'
import type { ActionContext, GridControls } from './action-registry'
import { isActive, isEnabled, menuItem, titleOf } from './action-registry'
import { parseChord } from './keys'
import { spreadsheetActions } from './spreadsheet-actions'

function open(): Workspace {
  const workspace = new Workspace()
  workspace.open({ id: 'wb', sheets: [{ name: 'Sheet1', cells: { A1: { input: '5' }, A2: { input: '7' } } }, { name: 'Sheet2', cells: {} }] })
  return workspace
}

const bounds = { columnCount: 50, rowCount: 100 }

function gridFor(workspace: Workspace): GridControls {
  return {
    bounds,
    navigation: () => ({ bounds, pageRows: 20, isFilled: () => false, lastUsedCell: () => ({ col: 0, row: 1 }) }),
    select: (next) => workspace.setSelection(next),
    reveal: vi.fn(),
    editCell: vi.fn(),
    openCellMenu: vi.fn(),
    leaveGrid: vi.fn(),
    focus: vi.fn(),
  }
}

function context(workspace: Workspace, extra: Partial<ActionContext> = {}): ActionContext {
  return { workspace, grid: gridFor(workspace), editor: null, go: vi.fn(), key: null, ...extra }
}

const press = (chord: string) => parseChord(chord)
const input = (workspace: Workspace, sheet: string, address: string) => workspace.state.store!.getInput(sheet, { col: address.charCodeAt(0) - 65, row: Number(address.slice(1)) - 1 })

describe('the action registry', () => {
  it('gives each chord of a scope to one action at most, and every chord reads as a key', () => {
    for (const scope of ['grid', 'editor', 'app'] as const) {
      const seen = new Map<string, string>()
      for (const action of spreadsheetActions.actions.filter((a) => (a.scope ?? 'grid') === scope)) {
        for (const chord of action.keys ?? []) {
          const key = JSON.stringify({ ...press(chord), key: press(chord).key.toLowerCase() })
          expect(seen.get(key), `${chord} in ${scope}`).toBeUndefined()
          seen.set(key, action.id)
          expect(press(chord).key).not.toBe('')
        }
      }
    }
  })

  it('runs Ctrl+B on the selection and shows it pressed', () => {
    const workspace = open()
    const ctx = context(workspace)
    expect(spreadsheetActions.handleKey(press('Ctrl+B'), 'grid', ctx)).toEqual({ taken: true, native: false })
    expect(workspace.activeStyle()).toEqual({ bold: true })
    expect(isActive(spreadsheetActions.get('bold'), ctx)).toBe(true)
    expect(spreadsheetActions.get('bold').buttonLabel?.(ctx)).toBe('Bold (Ctrl+B)')
    spreadsheetActions.handleKey(press('Ctrl+B'), 'grid', ctx)
    expect(workspace.activeStyle()).toBeUndefined()
  })

  it('leaves the clipboard keys to the browser, and keys of another scope alone', () => {
    const workspace = open()
    expect(spreadsheetActions.handleKey(press('Ctrl+C'), 'grid', context(workspace))).toEqual({ taken: false, native: true })
    expect(spreadsheetActions.handleKey(press('Alt+S'), 'grid', context(workspace)).taken).toBe(false)
    const go = vi.fn()
    expect(spreadsheetActions.handleKey(press('Alt+S'), 'app', { workspace, grid: null, editor: null, go }).taken).toBe(true)
    expect(go).toHaveBeenCalledWith('/')
  })

  it('moves the selection with the key that ran it', () => {
    const workspace = open()
    spreadsheetActions.handleKey(press('ArrowDown'), 'grid', context(workspace))
    spreadsheetActions.handleKey(press('Tab'), 'grid', context(workspace))
    expect(workspace.state.selection.active).toEqual({ col: 1, row: 1 })
    spreadsheetActions.handleKey(press('Ctrl+Home'), 'grid', context(workspace))
    expect(workspace.state.selection.active).toEqual({ col: 0, row: 0 })
    spreadsheetActions.handleKey(press('Ctrl+PgDn'), 'grid', context(workspace))
    expect(workspace.state.sheet).toBe('Sheet2')
  })

  it('names row and column actions for the selection and shows only those that apply', () => {
    const workspace = open()
    workspace.setSelection(rangeSelection({ startCol: 0, startRow: 2, endCol: 1, endRow: 4 }))
    const ctx = context(workspace)
    expect(titleOf(spreadsheetActions.get('insert-rows-above'), ctx)).toBe('Insert 3 rows above')
    expect(titleOf(spreadsheetActions.get('delete-columns'), ctx)).toBe('Delete 2 columns')
    workspace.setSelection(selectColumns(1, 1, workspace.state.store!.sheet('Sheet1')!.source))
    expect(spreadsheetActions.get('insert-rows-above').visible?.(ctx)).toBe(false)
    expect(spreadsheetActions.get('insert-columns-left').visible?.(ctx)).toBe(true)
    expect(titleOf(spreadsheetActions.get('insert-columns-left'), ctx)).toBe('Insert 1 column left')
  })

  it('inserts a row above the selection and undoes it, enabling undo and redo as the history allows', () => {
    const workspace = open()
    workspace.setSelection(singleCellSelection({ col: 0, row: 1 }))
    const ctx = context(workspace)
    expect(isEnabled(spreadsheetActions.get('undo'), ctx)).toBe(false)
    menuItem(spreadsheetActions.get('insert-rows-above'), ctx).onSelect()
    expect(input(workspace, 'Sheet1', 'A3')).toBe('7')
    expect(isEnabled(spreadsheetActions.get('undo'), ctx)).toBe(true)
    expect(spreadsheetActions.get('undo').buttonLabel?.(ctx)).toBe('Undo Insert 1 row on Sheet1')
    spreadsheetActions.handleKey(press('Ctrl+Z'), 'grid', ctx)
    expect(input(workspace, 'Sheet1', 'A2')).toBe('7')
    expect(menuItem(spreadsheetActions.get('redo'), ctx).disabled).toBe(false)
  })

  it('toggles currency and tells merged cells by the merge button’s name', () => {
    const workspace = open()
    const ctx = context(workspace)
    spreadsheetActions.get('currency').run?.(ctx)
    expect(isActive(spreadsheetActions.get('currency'), ctx)).toBe(true)
    expect(workspace.state.store!.getDisplay('Sheet1', { col: 0, row: 0 })).toBe('$5.00')
    spreadsheetActions.get('currency').run?.(ctx)
    expect(isActive(spreadsheetActions.get('currency'), ctx)).toBe(false)
    workspace.setSelection(rangeSelection({ startCol: 2, startRow: 0, endCol: 3, endRow: 0 }))
    spreadsheetActions.get('merge').run?.(ctx)
    expect(spreadsheetActions.get('merge').buttonLabel?.(ctx)).toBe('Unmerge cells')
  })

  it('clears the selected contents with Delete, and does nothing without a workbook', () => {
    const workspace = open()
    workspace.setSelection(rangeSelection({ startCol: 0, startRow: 0, endCol: 0, endRow: 1 }))
    spreadsheetActions.handleKey(press('Delete'), 'grid', context(workspace))
    expect(input(workspace, 'Sheet1', 'A2')).toBe('')
    const empty = new Workspace()
    expect(spreadsheetActions.handleKey(press('Delete'), 'grid', context(empty)).taken).toBe(false)
  })

  it('hands the grid’s own keys to the grid', () => {
    const workspace = open()
    const ctx = context(workspace)
    spreadsheetActions.handleKey(press('F2'), 'grid', ctx)
    spreadsheetActions.handleKey(press('Shift+F10'), 'grid', ctx)
    spreadsheetActions.handleKey(press('F6'), 'grid', ctx)
    expect(ctx.grid!.editCell).toHaveBeenCalledOnce()
    expect(ctx.grid!.openCellMenu).toHaveBeenCalledOnce()
    expect(ctx.grid!.leaveGrid).toHaveBeenCalledOnce()
  })
})

describe('Alt+A, the assistant panel', () => {
  function panel(open: boolean, onSpreadsheet: boolean) {
    const state = { open, onSpreadsheet }
    return {
      state,
      controls: {
        get open() {
          return state.open
        },
        get onSpreadsheet() {
          return state.onSpreadsheet
        },
        setOpen: (next: boolean) => {
          state.open = next
        },
      },
    }
  }

  it('opens and closes the panel beside the spreadsheet', () => {
    const workspace = open()
    const { state, controls } = panel(false, true)
    const ctx = { workspace, grid: null, editor: null, go: vi.fn(), assistant: controls }
    expect(spreadsheetActions.handleKey(press('Alt+A'), 'app', ctx).taken).toBe(true)
    expect(state.open).toBe(true)
    spreadsheetActions.handleKey(press('Alt+A'), 'app', ctx)
    expect(state.open).toBe(false)
    expect(ctx.go).not.toHaveBeenCalled()
  })

  it('goes to the spreadsheet with the panel open from another screen, even when it was open', () => {
    const workspace = open()
    const { state, controls } = panel(true, false)
    const go = vi.fn()
    spreadsheetActions.handleKey(press('Alt+A'), 'app', { workspace, grid: null, editor: null, go, assistant: controls })
    expect(go).toHaveBeenCalledWith('/')
    expect(state.open).toBe(true)
  })

  it('does nothing where there is no panel to open', () => {
    expect(spreadsheetActions.handleKey(press('Alt+A'), 'app', { workspace: open(), grid: null, editor: null, go: vi.fn() }).taken).toBe(false)
  })
})
