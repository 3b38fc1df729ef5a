import { describe, expect, it } from 'vitest'
import type { CellEdit } from '@finsheet/contracts'
import { filterColumnValues, filterRecords } from './sheet-filter.js'
import { rebaseCommands } from './rebase.js'
import { WorkbookModel } from './workbook-model.js'

function regions(): WorkbookModel {
  const model = new WorkbookModel({ sheets: [{ id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] }] })
  const rows = [['Region', 'Units'], ['East', '5'], ['West', '7'], ['East', '9'], ['North', '0.5'], ['', '3']]
  const cells: CellEdit[] = []
  rows.forEach((row, index) => row.forEach((input, col) => input && cells.push({ address: `${'AB'[col]}${index + 1}`, input })))
  model.apply([{ type: 'set-cells', sheet: 'Sheet1', cells }])
  return model
}

const filteredRows = (model: WorkbookModel) =>
  Object.entries(model.sheets[0].view?.rows ?? {})
    .filter(([, entry]) => entry.filtered)
    .map(([index]) => Number(index))

describe('set-filter', () => {
  it('hides the rows whose value a filtered column does not show, and counts the records found', () => {
    const model = regions()
    model.apply([{ type: 'set-filter', sheet: 'Sheet1', filter: { range: 'A1:B6', columns: [{ column: 0, values: ['East', ''] }] } }])
    expect(filteredRows(model)).toEqual([2, 4])
    expect(filterRecords(model.sheets[0].view)).toEqual({ shown: 3, total: 5 })
  })

  it('lists a column’s distinct shown values in sort order with blanks last', () => {
    const model = regions()
    const filter = { range: 'A1:B6' }
    expect(filterColumnValues(model, 's1', filter, 0)).toEqual([
      { text: 'East', count: 2 },
      { text: 'North', count: 1 },
      { text: 'West', count: 1 },
      { text: '', count: 1 },
    ])
    expect(filterColumnValues(model, 's1', filter, 1).map((value) => value.text)).toEqual(['0.5', '3', '5', '7', '9'])
  })

  it('keeps rows the user hid apart: removing the filter shows only the filtered ones again', () => {
    const model = regions()
    model.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', rows: [{ from: 2, to: 2, hidden: true }] }])
    model.apply([{ type: 'set-filter', sheet: 'Sheet1', filter: { range: 'A1:B6', columns: [{ column: 0, values: ['West'] }] } }])
    expect(model.sheets[0].view?.rows?.['2']).toEqual({ hidden: true })
    model.apply([{ type: 'set-filter', sheet: 'Sheet1', filter: null }])
    expect(model.sheets[0].view).toEqual({ rows: { 2: { hidden: true } } })
  })

  it('undoes exactly: the old filter and the rows it hid, even after the cells changed', () => {
    const model = regions()
    model.apply([{ type: 'set-filter', sheet: 'Sheet1', filter: { range: 'A1:B6', columns: [{ column: 0, values: ['East'] }] } }])
    const before = structuredClone(model.sheets[0].view)
    model.apply([{ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A3', input: 'East' }] }])
    // Rows stay as the filter left them until it is applied again, as in Excel.
    expect(filteredRows(model)).toEqual([2, 4, 5])
    const { inverse } = model.apply([{ type: 'set-filter', sheet: 'Sheet1', filter: null }])
    expect(model.sheets[0].view).toBeUndefined()
    model.apply(inverse)
    expect(model.sheets[0].view).toEqual(before)
  })

  it('refuses a filtered column outside its range and filtered rows above its headers', () => {
    const model = regions()
    expect(() => model.apply([{ type: 'set-filter', sheet: 'Sheet1', filter: { range: 'A1:B6', columns: [{ column: 4, values: [] }] } }])).toThrow(/within A1:B6/)
    expect(() => model.apply([{ type: 'set-filter', sheet: 'Sheet1', filter: { range: 'A2:B6' }, filteredRows: [{ from: 1, to: 1 }] }])).toThrow(/below the headers/)
    expect(model.sheets[0].view).toBeUndefined()
  })
})

describe('a filter through inserted and deleted rows and columns', () => {
  it('grows with rows inserted inside its range; the filtered rows move with them', () => {
    const model = regions()
    model.apply([{ type: 'set-filter', sheet: 'Sheet1', filter: { range: 'A1:B6', columns: [{ column: 0, values: ['East'] }] } }])
    model.apply([{ type: 'insert-rows', sheet: 'Sheet1', at: 2, count: 2 }])
    expect(model.sheets[0].view?.filter).toEqual({ range: 'A1:B8', columns: [{ column: 0, values: ['East'] }] })
    expect(filteredRows(model)).toEqual([4, 6, 7])
  })

  it('moves its columns with inserted columns and drops a deleted column’s criteria', () => {
    const model = regions()
    model.apply([{ type: 'set-filter', sheet: 'Sheet1', filter: { range: 'A1:B6', columns: [{ column: 0, values: ['East'] }, { column: 1, values: ['5', '9'] }] } }])
    model.apply([{ type: 'insert-columns', sheet: 'Sheet1', at: 0, count: 1 }])
    expect(model.sheets[0].view?.filter).toEqual({ range: 'B1:C6', columns: [{ column: 1, values: ['East'] }, { column: 2, values: ['5', '9'] }] })
    model.apply([{ type: 'delete-columns', sheet: 'Sheet1', at: 1, count: 1 }])
    expect(model.sheets[0].view?.filter).toEqual({ range: 'B1:B6', columns: [{ column: 1, values: ['5', '9'] }] })
  })

  it('goes with its header row, and undoing the deletion brings it back with its hidden rows', () => {
    const model = regions()
    model.apply([{ type: 'set-filter', sheet: 'Sheet1', filter: { range: 'A1:B6', columns: [{ column: 0, values: ['East'] }] } }])
    const before = structuredClone(model.sheets[0].view)
    const { inverse } = model.apply([{ type: 'delete-rows', sheet: 'Sheet1', at: 0, count: 3 }])
    expect(model.sheets[0].view?.filter).toBeUndefined()
    model.apply(inverse)
    expect(model.sheets[0].view).toEqual(before)
  })

  it('is moved over rows inserted since the revision it was made on', () => {
    const moved = rebaseCommands(
      [{ type: 'set-filter', sheet: 's1', filter: { range: 'A2:B6', columns: [{ column: 0, values: ['x'] }] }, filteredRows: [{ from: 3, to: 4 }] }],
      [{ type: 'structure', sheetId: 's1', sheetName: 'Sheet1', edit: { axis: 'rows', kind: 'insert', at: 0, count: 1 } }],
      new Map([['s1', 'Sheet1']]),
    )
    expect(moved).toEqual({ commands: [{ type: 'set-filter', sheet: 's1', filter: { range: 'A3:B7', columns: [{ column: 0, values: ['x'] }] }, filteredRows: [{ from: 4, to: 5 }] }] })
  })
})
