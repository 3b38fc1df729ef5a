import { describe, expect, it } from 'vitest'
import { WorkbookModel } from '@finsheet/workbook/model'
import { freezeAt, groupAt, hide, outlineGroups, regroup, setCollapsed, unhide } from './sheet-layout'
import { Workspace } from './workspace'

const range = (startRow: number, endRow: number, startCol = 0, endCol = 0) => ({ startRow, endRow, startCol, endCol })

function model() {
  return new WorkbookModel({ sheets: [{ id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] }] })
}

describe('sheet layout commands', () => {
  it('freezes the rows above and the columns left of the active cell', () => {
    expect(freezeAt('Sheet1', { col: 2, row: 3 })).toEqual({ type: 'set-sheet-view', sheet: 'Sheet1', frozenRows: 3, frozenColumns: 2 })
  })

  it('unhides the hidden rows inside the selection and those next to a one-row selection', () => {
    const book = model()
    book.apply([hide('Sheet1', 'rows', range(2, 4))])
    const view = book.sheets[0].view
    expect(unhide('Sheet1', 'rows', range(1, 5), view)).toEqual({ type: 'set-sheet-view', sheet: 'Sheet1', rows: [{ from: 2, to: 4, hidden: false }] })
    expect(unhide('Sheet1', 'rows', range(5, 5), view)?.rows).toEqual([{ from: 2, to: 4, hidden: false }])
    expect(unhide('Sheet1', 'rows', range(8, 9), view)).toBeNull()
  })

  it('groups one level deeper, ungroups one level out, and finds the group with its collapsed state', () => {
    const book = model()
    book.apply([regroup('Sheet1', 'rows', range(1, 3), undefined, 1)!])
    book.apply([regroup('Sheet1', 'rows', range(2, 2), book.sheets[0].view, 1)!])
    expect(book.sheets[0].view?.rows).toEqual({ 1: { level: 1 }, 2: { level: 2 }, 3: { level: 1 } })
    const [group] = outlineGroups(book.sheets[0].view, 'rows')
    expect(group).toEqual({ axis: 'rows', from: 1, to: 3, level: 1, collapsed: false })
    expect(groupAt(book.sheets[0].view, 'rows', 4)).toEqual(group)
    book.apply([setCollapsed('Sheet1', group, true)])
    expect(outlineGroups(book.sheets[0].view, 'rows')[0].collapsed).toBe(true)
    expect(book.sheets[0].view?.rows?.['4']).toEqual({ collapsed: true })
    book.apply([setCollapsed('Sheet1', group, false)])
    book.apply([regroup('Sheet1', 'rows', range(1, 3), book.sheets[0].view, -1)!])
    expect(book.sheets[0].view?.rows).toEqual({ 2: { level: 1 } })
    expect(regroup('Sheet1', 'rows', range(5, 6), book.sheets[0].view, -1)).toBeNull()
  })
})

describe('hidden sheets in the workspace', () => {
  it('hides a sheet, shows the next one, keeps one shown, and undo shows the sheet again', () => {
    const workspace = new Workspace()
    workspace.open({ id: 'wb', sheets: [{ name: 'Sheet1', cells: {} }, { name: 'Inputs', cells: {} }] })
    workspace.hideSheet('Sheet1')
    expect(workspace.state.sheet).toBe('Inputs')
    expect(workspace.state.store!.visibleSheetNames).toEqual(['Inputs'])
    expect(workspace.state.store!.hiddenSheetNames).toEqual(['Sheet1'])
    expect(() => workspace.hideSheet('Inputs')).toThrow('at least one visible sheet')
    workspace.undo()
    expect(workspace.state.store!.visibleSheetNames).toEqual(['Sheet1', 'Inputs'])
    expect(workspace.state.sheet).toBe('Sheet1')
    workspace.hideSheet('Inputs')
    workspace.unhideSheet('Inputs')
    expect(workspace.state.sheet).toBe('Inputs')
  })

  it('keeps the zoom between 50% and 200%', () => {
    const workspace = new Workspace()
    workspace.setZoom(3)
    expect(workspace.state.zoom).toBe(2)
    workspace.setZoom(0.1)
    expect(workspace.state.zoom).toBe(0.5)
  })
})
