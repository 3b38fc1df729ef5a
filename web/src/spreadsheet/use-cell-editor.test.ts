// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { NavigationContext } from '../grid/navigation'
import { rangeSelection } from '../grid/selection'
import { useCellEditor } from './use-cell-editor'
import { Workspace } from './workspace'

const bounds = { columnCount: 50, rowCount: 100 }
const navigation = (): NavigationContext => ({ bounds, pageRows: 20, isFilled: () => false, lastUsedCell: () => ({ col: 0, row: 0 }) })

function setup() {
  const workspace = new Workspace()
  workspace.open({ id: 'wb', sheets: [{ name: 'Sheet1', cells: { A1: { input: '4' } } }, { name: 'Sheet2', cells: {} }] })
  const focusGrid = vi.fn()
  const hook = renderHook(
    ({ sheet }) =>
      useCellEditor({
        workspace,
        sheet,
        activeCell: workspace.state.selection.active,
        navigation,
        select: (next) => workspace.setSelection(next),
        reveal: vi.fn(),
        focusGrid,
      }),
    { initialProps: { sheet: 'Sheet1' } },
  )
  const cell = (sheet: string, col: number, row: number) => workspace.state.store!.getInput(sheet, { col, row })
  return { workspace, hook, focusGrid, cell }
}

describe('useCellEditor', () => {
  it('starts with what is typed, writes it on Enter and moves down', () => {
    const { workspace, hook, focusGrid, cell } = setup()
    act(() => hook.result.current.input('12', 2))
    expect(hook.result.current.editor).toMatchObject({ text: '12', mode: 'enter', sheet: 'Sheet1' })
    act(() => hook.result.current.commit({ key: 'Enter', ctrl: false, shift: false, alt: false }))
    expect(cell('Sheet1', 0, 0)).toBe('12')
    expect(workspace.state.selection.active).toEqual({ col: 0, row: 1 })
    expect(hook.result.current.editor).toBeNull()
    expect(focusGrid).toHaveBeenCalled()
  })

  it('holds a typed value that breaks the cell’s validation until the alert is answered', () => {
    const { workspace, hook, cell } = setup()
    workspace.dispatch({ type: 'set-data-validation', sheet: 'Sheet1', clear: [], rules: [{ ranges: ['A1'], type: 'whole', operator: 'lessThan', formula1: '10', errorStyle: 'warning' }] })
    const enter = { key: 'Enter', ctrl: false, shift: false, alt: false }
    act(() => hook.result.current.input('50', 2))
    act(() => hook.result.current.commit(enter))
    expect(hook.result.current.validationAlert).toEqual({ style: 'warning', title: 'Finsheet', message: "This value doesn't match the data validation restrictions defined for this cell." })
    expect(cell('Sheet1', 0, 0)).toBe('4')
    // the focus the alert takes does not write the edit
    act(() => hook.result.current.commit(null))
    expect(cell('Sheet1', 0, 0)).toBe('4')
    // No goes back to the edit as typed; Yes writes it and moves on, as Enter would
    act(() => hook.result.current.answerValidation('retry'))
    expect(hook.result.current.editor?.text).toBe('50')
    act(() => hook.result.current.commit(enter))
    act(() => hook.result.current.answerValidation('write'))
    expect(cell('Sheet1', 0, 0)).toBe('50')
    expect(workspace.state.selection.active).toEqual({ col: 0, row: 1 })
    expect(hook.result.current.validationAlert).toBeNull()
  })

  it('edits what the cell holds with F2, and drops the edit on Escape', () => {
    const { hook, cell } = setup()
    act(() => void hook.result.current.start(null, 'edit'))
    expect(hook.result.current.editor).toMatchObject({ text: '4', caret: 1, mode: 'edit' })
    act(() => hook.result.current.toggleMode())
    expect(hook.result.current.editor?.mode).toBe('enter')
    act(() => hook.result.current.input('400', 3))
    act(() => hook.result.current.cancel())
    expect(cell('Sheet1', 0, 0)).toBe('4')
  })

  it('writes the entry into every selected cell with its references moved (Ctrl+Enter)', () => {
    const { workspace, hook, cell } = setup()
    act(() => workspace.setSelection(rangeSelection({ startCol: 1, startRow: 0, endCol: 1, endRow: 2 })))
    hook.rerender({ sheet: 'Sheet1' })
    act(() => hook.result.current.input('=A1*2', 5))
    act(() => hook.result.current.commit(null, true))
    expect([cell('Sheet1', 1, 0), cell('Sheet1', 1, 1), cell('Sheet1', 1, 2)]).toEqual(['=A1*2', '=A2*2', '=A3*2'])
  })

  it('writes an edit on the sheet it was typed on, after pointing at another sheet, and goes back there', () => {
    const { workspace, hook, cell } = setup()
    act(() => hook.result.current.input('=', 1))
    act(() => workspace.switchSheet('Sheet2'))
    hook.rerender({ sheet: 'Sheet2' })
    // the edit knows its sheet, so showing another one keeps it
    expect(hook.result.current.editor?.sheet).toBe('Sheet1')
    act(() => hook.result.current.input('=Sheet2!B2', 10))
    act(() => hook.result.current.commit(null))
    expect(cell('Sheet1', 0, 0)).toBe('=Sheet2!B2')
    expect(cell('Sheet2', 0, 0)).toBe('')
    expect(workspace.state.sheet).toBe('Sheet1')
  })

  it('completes a function name at the caret and starts a new line with Alt+Enter', () => {
    const { hook } = setup()
    act(() => hook.result.current.input('=SU', 3))
    act(() => hook.result.current.complete('SUM'))
    expect(hook.result.current.editor).toMatchObject({ text: '=SUM(', caret: 5 })
    act(() => hook.result.current.input('Total', 5))
    act(() => hook.result.current.newLine())
    expect(hook.result.current.editor).toMatchObject({ text: 'Total\n', caret: 6 })
  })

  it('keeps an edit when the same workbook is reopened, and ends it when another opens', () => {
    const { workspace, hook } = setup()
    act(() => hook.result.current.input('typing', 6))
    act(() => void workspace.reopen({ id: 'wb', sheets: [{ name: 'Sheet1', cells: {} }, { name: 'Sheet2', cells: {} }] }))
    hook.rerender({ sheet: 'Sheet1' })
    expect(hook.result.current.editor?.text).toBe('typing')
    act(() => void workspace.open({ id: 'other', sheets: [{ name: 'Sheet1', cells: {} }] }))
    hook.rerender({ sheet: 'Sheet1' })
    expect(hook.result.current.editor).toBeNull()
  })
})
