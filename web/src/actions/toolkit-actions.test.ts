import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { CellPosition } from '../grid/address'
import { parseCellAddress, parseRangeAddress, rangeAddress } from '../grid/address'
import { rangeSelection, selectionRange, singleCellSelection } from '../grid/selection'
import { fillByHandle, pasteSpecial } from '../spreadsheet/grid-actions'
import { Workspace } from '../spreadsheet/workspace'
import type { ActionContext, GridControls } from './action-registry'
import { parseChord } from './keys'
import { spreadsheetActions } from './spreadsheet-actions'

const at = (address: string): CellPosition => parseCellAddress(address)!

function open(cells: Record<string, { input?: string; format?: string; style?: { bold?: boolean } }>, other: Record<string, { input: string }> = {}): Workspace {
  const workspace = new Workspace()
  workspace.open({ id: 'wb', sheets: [{ name: 'Sheet1', cells }, { name: 'Sheet2', cells: other }] })
  return workspace
}

const bounds = { columnCount: 50, rowCount: 100 }
function context(workspace: Workspace): ActionContext {
  const grid: GridControls = {
    bounds,
    navigation: () => ({ bounds, pageRows: 20, isFilled: () => false, lastUsedCell: () => ({ col: 0, row: 1 }) }),
    select: (next) => workspace.setSelection(next),
    reveal: vi.fn(),
    editCell: vi.fn(),
    openCellMenu: vi.fn(),
    leaveGrid: vi.fn(),
    focus: vi.fn(),
  }
  return { workspace, grid, editor: null, go: vi.fn(), key: null }
}

const press = (workspace: Workspace, chord: string) => spreadsheetActions.handleKey(parseChord(chord), 'grid', context(workspace))
const selected = (workspace: Workspace) => `${workspace.state.sheet}!${rangeAddress(selectionRange(workspace.state.selection))}`

/** Marks A1:B2 of Sheet1 copied, as Ctrl+C does. */
function copyBlock(workspace: Workspace, cut = false): void {
  const store = workspace.state.store!
  const range = parseRangeAddress('A1:B2')!
  workspace.setCopy({
    sheet: 'Sheet1',
    range,
    cut,
    text: '',
    inputs: store.inputsOf('Sheet1', range),
    styles: [0, 1].map((row) => [0, 1].map((col) => store.getStyle('Sheet1', { col, row }))),
    formats: [0, 1].map((row) => [0, 1].map((col) => store.getFormat('Sheet1', { col, row }))),
  })
}

beforeEach(() => {
  vi.stubGlobal('requestAnimationFrame', (run: (time: number) => void) => {
    run(0)
    return 0
  })
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('Format Cells and Paste Special keys', () => {
  it('opens Format Cells with Ctrl+1', () => {
    const workspace = open({})
    expect(press(workspace, 'Ctrl+1').taken).toBe(true)
    expect(workspace.state.formatCellsOpen).toBe(true)
  })

  it('opens Paste Special with Ctrl+Shift+V only over copied cells, not cut ones', () => {
    const workspace = open({ A1: { input: '1' } })
    press(workspace, 'Ctrl+Shift+V')
    expect(workspace.state.pasteSpecialOpen).toBe(false)
    copyBlock(workspace, true)
    press(workspace, 'Ctrl+Shift+V')
    expect(workspace.state.pasteSpecialOpen).toBe(false)
    copyBlock(workspace)
    press(workspace, 'Ctrl+Shift+V')
    expect(workspace.state.pasteSpecialOpen).toBe(true)
  })

  it('pastes the values transposed as one change that one undo reverts', () => {
    const workspace = open({ A1: { input: '1', format: '$#,##0.00' }, B1: { input: '2' }, A2: { input: '=A1*10' }, B2: { input: '=B1*10' } })
    const store = workspace.state.store!
    copyBlock(workspace)
    workspace.setSelection(singleCellSelection(at('D1')))
    const pasted = pasteSpecial(workspace, { part: 'values', transpose: true })
    expect(pasted && rangeAddress(pasted)).toBe('D1:E2')
    expect(['D1', 'E1', 'D2', 'E2'].map((a) => store.getInput('Sheet1', at(a)))).toEqual(['1', '10', '2', '20'])
    expect(store.getFormat('Sheet1', at('D1'))).toBeUndefined()
    store.undo()
    expect(['D1', 'E1', 'D2', 'E2'].map((a) => store.getInput('Sheet1', at(a)))).toEqual(['', '', '', ''])
  })
})

describe('fill carries formats', () => {
  it('gives the cells the fill handle writes their source cell’s number format and style', () => {
    const workspace = open({ A1: { input: '0.25', format: '0.0%', style: { bold: true } } })
    const store = workspace.state.store!
    fillByHandle(workspace, parseRangeAddress('A1')!, parseRangeAddress('A1:A3')!)
    expect(store.getDisplay('Sheet1', at('A3'))).toBe('25.0%')
    expect(store.getStyle('Sheet1', at('A3'))).toEqual({ bold: true })
    store.undo()
    expect(store.getInput('Sheet1', at('A3'))).toBe('')
    expect(store.getFormat('Sheet1', at('A3'))).toBeUndefined()
  })
})

describe('Ctrl+[ and Ctrl+]', () => {
  it('selects the first precedent, on its own sheet, and the first dependent', () => {
    const workspace = open({ A1: { input: '5' }, C1: { input: '=Sheet2!B4+A1' } }, { B4: { input: '2' }, D9: { input: '=Sheet1!A1' } })
    workspace.setSelection(singleCellSelection(at('C1')))
    press(workspace, 'Ctrl+[')
    expect(selected(workspace)).toBe('Sheet2!B4')
    workspace.switchSheet('Sheet1', singleCellSelection(at('A1')))
    press(workspace, 'Ctrl+]')
    expect(selected(workspace)).toBe('Sheet1!C1')
  })

  it('stays put when there is nothing to go to', () => {
    const workspace = open({ A1: { input: '5' } })
    workspace.setSelection(rangeSelection(parseRangeAddress('A1')!))
    press(workspace, 'Ctrl+[')
    press(workspace, 'Ctrl+]')
    expect(selected(workspace)).toBe('Sheet1!A1')
  })
})
