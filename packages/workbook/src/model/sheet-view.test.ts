import { describe, expect, it } from 'vitest'
import type { WorkbookCommand } from '@finsheet/contracts'
import { CommandError } from './command-checks.js'
import { WorkbookModel } from './workbook-model.js'

const twoSheets = () =>
  new WorkbookModel({
    sheets: [
      { id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] },
      { id: 's2', name: 'Sheet2', columnWidths: {}, merges: [] },
    ],
  })

function undo(model: WorkbookModel, inverse: WorkbookCommand[]) {
  model.apply(inverse)
}

describe('set-sheet-view', () => {
  it('freezes panes and its inverse unfreezes them', () => {
    const model = twoSheets()
    const { inverse } = model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', frozenRows: 2, frozenColumns: 1 }])
    expect(model.sheets[0].view).toEqual({ frozenRows: 2, frozenColumns: 1 })
    undo(model, inverse)
    expect(model.sheets[0].view).toBeUndefined()
  })

  it('hides rows, sizes others, and undo restores each row as it was', () => {
    const model = twoSheets()
    model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', rows: [{ from: 3, to: 3, height: 40 }] }])
    const before = structuredClone(model.sheets[0].view)
    const { inverse } = model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', rows: [{ from: 2, to: 5, hidden: true, height: 30 }] }])
    expect(model.sheets[0].view?.rows).toEqual({
      2: { hidden: true, height: 30 },
      3: { hidden: true, height: 30 },
      4: { hidden: true, height: 30 },
      5: { hidden: true, height: 30 },
    })
    undo(model, inverse)
    expect(model.sheets[0].view).toEqual(before)
  })

  it('groups rows into levels and collapses them, undone in one step', () => {
    const model = twoSheets()
    const { inverse } = model.apply([
      { type: 'set-sheet-view', sheet: 'Sheet1', rows: [{ from: 1, to: 4, level: 1 }, { from: 2, to: 3, level: 2 }, { from: 1, to: 4, hidden: true }, { from: 5, to: 5, collapsed: true }] },
    ])
    expect(model.sheets[0].view?.rows?.['2']).toEqual({ level: 2, hidden: true })
    expect(model.sheets[0].view?.rows?.['5']).toEqual({ collapsed: true })
    undo(model, inverse)
    expect(model.sheets[0].view).toBeUndefined()
  })

  it('keeps at least one visible sheet', () => {
    const model = twoSheets()
    model.apply([{ type: 'set-sheet-view', sheet: 'Sheet2', hidden: true }])
    expect(() => model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', hidden: true }])).toThrow(CommandError)
    expect(() => model.apply([{ type: 'delete-sheet', name: 'Sheet1' }])).toThrow('at least one visible sheet')
    expect(model.sheets[0].view).toBeUndefined()
  })

  it('refuses bad spans and changes nothing', () => {
    const model = twoSheets()
    expect(() => model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', rows: [{ from: 5, to: 2, hidden: true }] }])).toThrow(CommandError)
    expect(() => model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', columns: [{ from: 0, to: 20_000, hidden: true }] }])).toThrow(CommandError)
    expect(() => model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', rows: [{ from: 0, to: 200_000, hidden: true }] }])).toThrow('At most 100,000 rows')
    expect(() => model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', columns: [{ from: 0, to: 1, height: 20 }] }])).toThrow(CommandError)
    expect(model.sheets[0].view).toBeUndefined()
  })

  it('moves row layout with inserted and deleted rows, and the deletion undo brings it back', () => {
    const model = twoSheets()
    model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', rows: [{ from: 4, to: 4, hidden: true }, { from: 6, to: 6, height: 50 }] }])
    model.apply([{ type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 2 }])
    expect(model.sheets[0].view?.rows).toEqual({ 6: { hidden: true }, 8: { height: 50 } })
    const before = structuredClone(model.sheets[0].view)
    const { inverse } = model.apply([{ type: 'delete-rows', sheet: 'Sheet1', at: 5, count: 2 }])
    expect(model.sheets[0].view?.rows).toEqual({ 6: { height: 50 } })
    undo(model, inverse)
    expect(model.sheets[0].view).toEqual(before)
  })

  it('gives a deleted sheet its layout back on undo, and keeps it in the snapshot', () => {
    const model = twoSheets()
    model.apply([{ type: 'set-sheet-view', sheet: 'Sheet2', frozenRows: 1, columns: [{ from: 2, to: 3, hidden: true }] }])
    const view = structuredClone(model.sheets[1].view)
    const { inverse } = model.apply([{ type: 'delete-sheet', name: 'Sheet2' }])
    undo(model, inverse)
    expect(model.sheets[1].view).toEqual(view)
    const rebuilt = WorkbookModel.fromSnapshot(model.snapshot('Book'), 1)
    expect(rebuilt.sheets[1].view).toEqual(view)
  })

  it('leaves formulas reading hidden cells', () => {
    const model = twoSheets()
    model.apply([{ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A2', input: 5 }, { address: 'B1', input: '=A2*2' }] }])
    model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', rows: [{ from: 1, to: 1, hidden: true }] }])
    expect(model.engine.getValue('Sheet1', 'B1')).toBe(10)
  })
})
