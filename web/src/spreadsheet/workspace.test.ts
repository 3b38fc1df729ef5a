import { describe, expect, it } from 'vitest'
import { singleCellSelection } from '../grid/selection'
import { Workspace } from './workspace'

function open(): Workspace {
  const workspace = new Workspace()
  workspace.open({ id: 'wb', sheets: [{ name: 'Sheet1', cells: {} }, { name: 'Inputs', cells: { B2: { input: '42' } } }] })
  return workspace
}

describe('Workspace', () => {
  it('shows another sheet at once, at A1 unless told where', () => {
    const workspace = open()
    workspace.setSelection(singleCellSelection({ col: 3, row: 3 }))
    workspace.switchSheet('Inputs')
    expect(workspace.state.sheet).toBe('Inputs')
    expect(workspace.state.selection.active).toEqual({ col: 0, row: 0 })
    workspace.switchSheet('Nope')
    expect(workspace.state.sheet).toBe('Inputs')
    workspace.stepSheet(1)
    expect(workspace.state.sheet).toBe('Sheet1')
    expect(workspace.addSheet()).toBe('Sheet2')
    expect(workspace.state.sheet).toBe('Sheet2')
  })

  it('brings a deleted sheet back on undo and shows it, and shows a neighbour when undo removes the shown sheet', () => {
    const workspace = open()
    workspace.switchSheet('Inputs')
    workspace.deleteSheet('Inputs')
    expect(workspace.state.sheet).toBe('Sheet1')
    workspace.undo()
    expect(workspace.state.store!.sheetNames).toEqual(['Sheet1', 'Inputs'])
    expect(workspace.state.sheet).toBe('Inputs')
    expect(workspace.state.store!.getInput('Inputs', { col: 1, row: 1 })).toBe('42')
    workspace.addSheet()
    workspace.undo()
    expect(workspace.state.store!.sheetNames).toEqual(['Sheet1', 'Inputs'])
    expect(workspace.state.sheet).toBe('Inputs')
  })

  it('follows the shown sheet through an undone rename', () => {
    const workspace = open()
    workspace.switchSheet('Inputs')
    workspace.renameSheet('Inputs', 'Drivers')
    expect(workspace.state.sheet).toBe('Drivers')
    workspace.undo()
    expect(workspace.state.sheet).toBe('Inputs')
  })

  it('reopens the workbook as the server has it without moving the user', () => {
    const workspace = open()
    workspace.switchSheet('Inputs')
    workspace.setSelection(singleCellSelection({ col: 4, row: 9 }))
    const before = workspace.state.store
    workspace.reopen({ id: 'wb', sheets: [{ name: 'Sheet1', cells: {} }, { name: 'Inputs', cells: { B2: { input: '43' } } }] })
    expect(workspace.state.store).not.toBe(before)
    expect(workspace.state.sheet).toBe('Inputs')
    expect(workspace.state.selection.active).toEqual({ col: 4, row: 9 })
    workspace.reopen({ id: 'wb', sheets: [{ name: 'Sheet1', cells: {} }] })
    expect(workspace.state.sheet).toBe('Sheet1')
  })
})
