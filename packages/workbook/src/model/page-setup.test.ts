import { describe, expect, it } from 'vitest'
import type { PageSetup } from '@finsheet/contracts'
import { CommandError } from './command-checks.js'
import { rebaseCommands, type LayoutStep } from './rebase.js'
import { WorkbookModel } from './workbook-model.js'

const oneSheet = () => new WorkbookModel({ sheets: [{ id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] }] })

const setup: PageSetup = { orientation: 'landscape', paperSize: 'a4', fitToWidth: true, printArea: 'B2:F20', titleRows: { first: 0, last: 1 }, gridlines: true, headings: false }

describe('page setup (set-sheet-view pageSetup)', () => {
  it('is stored with the sheet and its inverse puts back what was there', () => {
    const model = oneSheet()
    model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', frozenRows: 1 }])
    const { inverse } = model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', pageSetup: setup }])
    expect(model.sheets[0].view).toEqual({ frozenRows: 1, pageSetup: setup })
    const second = model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', pageSetup: { orientation: 'portrait' } }])
    expect(model.sheets[0].view?.pageSetup).toEqual({ orientation: 'portrait' })
    model.apply(second.inverse)
    expect(model.sheets[0].view?.pageSetup).toEqual(setup)
    model.apply(inverse)
    expect(model.sheets[0].view).toEqual({ frozenRows: 1 })
  })

  it('null clears it, and undo brings it back', () => {
    const model = oneSheet()
    model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', pageSetup: setup }])
    const { inverse } = model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', pageSetup: null }])
    expect(model.sheets[0].view).toBeUndefined()
    model.apply(inverse)
    expect(model.sheets[0].view?.pageSetup).toEqual(setup)
  })

  it('refuses a scale outside 10–400% and a print area that is no range, changing nothing', () => {
    const model = oneSheet()
    expect(() => model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', pageSetup: { scale: 5 } }])).toThrow(CommandError)
    expect(() => model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', pageSetup: { printArea: 'B2:ZZZZ1' } }])).toThrow(CommandError)
    expect(() => model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', pageSetup: { titleRows: { first: 3, last: 1 } } }])).toThrow('repeat at the top')
    expect(model.sheets[0].view).toBeUndefined()
  })

  it('moves the print area and title rows with inserted rows and columns', () => {
    const model = oneSheet()
    model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', pageSetup: setup }])
    const { inverse } = model.apply([{ type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 2 }])
    expect(model.sheets[0].view?.pageSetup).toMatchObject({ printArea: 'B4:F22', titleRows: { first: 2, last: 3 } })
    model.apply([{ type: 'insert-columns', sheet: 'Sheet1', at: 3, count: 1 }])
    expect(model.sheets[0].view?.pageSetup?.printArea).toBe('B4:G22')
    model.apply([{ type: 'delete-columns', sheet: 'Sheet1', at: 3, count: 1 }])
    model.apply(inverse)
    expect(model.sheets[0].view?.pageSetup).toEqual(setup)
  })

  it('narrows the print area when rows at its edge are deleted, and undo restores it exactly', () => {
    const model = oneSheet()
    model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', pageSetup: setup }])
    const { inverse } = model.apply([{ type: 'delete-rows', sheet: 'Sheet1', at: 0, count: 3 }])
    // rows 1–3 went: the titles (rows 1–2) are gone, the area starts where row 4 went
    expect(model.sheets[0].view?.pageSetup?.printArea).toBe('B1:F17')
    expect(model.sheets[0].view?.pageSetup?.titleRows).toBeUndefined()
    model.apply(inverse)
    expect(model.sheets[0].view?.pageSetup).toEqual(setup)
  })

  it('a page setup made before another client inserted rows follows them', () => {
    const steps: LayoutStep[] = [{ type: 'structure', sheetId: 's1', sheetName: 'Sheet1', edit: { axis: 'rows', kind: 'insert', at: 0, count: 1 } }]
    const moved = rebaseCommands([{ type: 'set-sheet-view', sheet: 's1', pageSetup: setup }], steps, new Map([['s1', 'Sheet1']]))
    expect(moved).toEqual({ commands: [{ type: 'set-sheet-view', sheet: 's1', pageSetup: { ...setup, printArea: 'B3:F21', titleRows: { first: 1, last: 2 } } }] })
  })
})
