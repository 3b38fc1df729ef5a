import { describe, expect, it } from 'vitest'
import type { CellEdit, WorkbookCommand } from '@finsheet/contracts'
import { WorkbookModel } from './workbook-model.js'
import { CommandError } from './command-checks.js'
import { hiddenRowsOf } from './hidden-rows.js'

/** Regions and units in A1:B6, SUBTOTAL 9 and 109 and a SUM of the units in D1:D3. */
function regions(): WorkbookModel {
  const model = new WorkbookModel({ sheets: [{ id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] }] })
  const rows = [['Region', 'Units'], ['East', '5'], ['West', '7'], ['East', '9'], ['North', '0.5'], ['', '3']]
  const cells: CellEdit[] = []
  rows.forEach((row, index) => row.forEach((input, col) => input && cells.push({ address: `${'AB'[col]}${index + 1}`, input })))
  cells.push({ address: 'D1', input: '=SUBTOTAL(9,B2:B6)' }, { address: 'D2', input: '=SUBTOTAL(109,B2:B6)' }, { address: 'D3', input: '=SUM(B2:B6)' })
  model.apply([{ type: 'set-cells', sheet: 'Sheet1', cells }])
  return model
}

const totals = (model: WorkbookModel, sheet = 'Sheet1') => ['D1', 'D2', 'D3'].map((address) => model.engine.getValue(sheet, address))
const EAST: WorkbookCommand = { type: 'set-filter', sheet: 'Sheet1', filter: { range: 'A1:B6', columns: [{ column: 0, values: ['East'] }] } }
const CLEAR: WorkbookCommand = { type: 'set-filter', sheet: 'Sheet1', filter: null }

describe('SUBTOTAL and AGGREGATE follow the rows a sheet hides', () => {
  it('filtering changes SUBTOTAL 9 and reports it; clearing the filter and undo bring it back', () => {
    const model = regions()
    expect(totals(model)).toEqual([24.5, 24.5, 24.5])
    const filtered = model.apply([EAST])
    // East keeps rows 2 and 4 (5 and 9).
    expect(totals(model)).toEqual([14, 14, 24.5])
    expect(filtered.engineChanges.map((change) => change.address).sort()).toEqual(['D1', 'D2'])
    const cleared = model.apply([CLEAR])
    expect(totals(model)).toEqual([24.5, 24.5, 24.5])
    model.apply(cleared.inverse)
    expect(totals(model)).toEqual([14, 14, 24.5])
    model.apply(filtered.inverse)
    expect(totals(model)).toEqual([24.5, 24.5, 24.5])
  })

  it('rows the user hides, or an outline group collapsed, change SUBTOTAL 109 but not 9', () => {
    const model = regions()
    const hid = model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', rows: [{ from: 2, to: 2, hidden: true }] }])
    expect(totals(model)).toEqual([24.5, 17.5, 24.5])
    model.apply(hid.inverse)
    model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', rows: [{ from: 3, to: 4, level: 1 }] }])
    expect(totals(model)).toEqual([24.5, 24.5, 24.5])
    model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', rows: [{ from: 3, to: 4, hidden: true }, { from: 5, to: 5, collapsed: true }] }])
    expect(totals(model)).toEqual([24.5, 15, 24.5])
    // A user-hidden row the filter also hides is skipped by both; clearing the filter leaves it hidden.
    model.apply([EAST])
    expect(totals(model)).toEqual([14, 5, 24.5])
    model.apply([CLEAR])
    expect(totals(model)).toEqual([24.5, 15, 24.5])
  })

  it('hidden rows move with rows inserted and deleted above them', () => {
    const model = regions()
    model.apply([EAST])
    model.apply([{ type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 2 }])
    expect(model.engine.getFormula('Sheet1', 'D3')).toBe('=SUBTOTAL(9,B4:B8)')
    expect(['D3', 'D4'].map((address) => model.engine.getValue('Sheet1', address))).toEqual([14, 14])
    // Deleting the filtered row of 7 units leaves the same rows shown.
    model.apply([{ type: 'delete-rows', sheet: 'Sheet1', at: 4, count: 1 }])
    expect(model.engine.getHiddenRows('Sheet1')).toEqual({ hidden: [], filtered: [5, 6] })
    expect(['D3', 'D4'].map((address) => model.engine.getValue('Sheet1', address))).toEqual([14, 14])
  })

  it('a workbook loaded with hidden rows calculates SUBTOTAL without them, and so does a rebuilt engine', () => {
    const source = regions()
    source.apply([EAST, { type: 'set-sheet-view', sheet: 'Sheet1', rows: [{ from: 3, to: 3, hidden: true }] }])
    const loaded = WorkbookModel.fromSnapshot(source.snapshot('Regions'), 1)
    expect(totals(loaded)).toEqual([14, 5, 24.5])
    // A sheet added before the first rebuilds the engine.
    loaded.apply([{ type: 'add-sheet', name: 'Cover', index: 0 }])
    expect(totals(loaded)).toEqual([14, 5, 24.5])
    const blank = regions()
    blank.replaceContents(source.snapshot('Regions'))
    expect(totals(blank)).toEqual([14, 5, 24.5])
  })

  it('a deleted sheet comes back with its filter, and a refused change leaves the totals as they were', () => {
    const model = regions()
    model.apply([{ type: 'add-sheet', name: 'Sheet2' }, EAST])
    const deleted = model.apply([{ type: 'delete-sheet', name: 'Sheet1' }])
    model.apply(deleted.inverse)
    expect(totals(model)).toEqual([14, 14, 24.5])
    expect(() => model.apply([CLEAR, { type: 'set-filter', sheet: 'Sheet1', filter: { range: 'nowhere' } }])).toThrow(CommandError)
    expect(totals(model)).toEqual([14, 14, 24.5])
    model.apply([{ type: 'rename-sheet', from: 'Sheet1', to: 'Data' }, { type: 'set-cells', sheet: 'Data', cells: [{ address: 'E1', input: '=AGGREGATE(9,5,B2:B6)' }] }])
    expect(model.engine.getValue('Data', 'E1')).toBe(14)
  })

  it('reads the rows a stored view hides, leaving out indexes past the last row of a sheet', () => {
    const rows = { 1: { hidden: true }, 2: { filtered: true }, 3: { hidden: true, filtered: true }, 4: { height: 30 }, 1048576: { hidden: true } }
    expect(hiddenRowsOf({ rows })).toEqual({ hidden: [1, 3], filtered: [2, 3] })
    expect(hiddenRowsOf(undefined)).toEqual({ hidden: [], filtered: [] })
  })
})
