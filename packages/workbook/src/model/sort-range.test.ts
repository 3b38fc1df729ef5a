import { describe, expect, it } from 'vitest'
import type { CellEdit } from '@finsheet/contracts'
import { CommandError } from './command-checks.js'
import { compareSortValues, repointSortedFormula, sortRangeCommand } from './sort-range.js'
import { WorkbookModel } from './workbook-model.js'

function sheetWith(cells: Record<string, string>): WorkbookModel {
  const model = new WorkbookModel({ sheets: [{ id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] }] })
  const edits: CellEdit[] = Object.entries(cells).map(([address, input]) => ({ address, input }))
  if (edits.length > 0) model.apply([{ type: 'set-cells', sheet: 'Sheet1', cells: edits }])
  return model
}

const column = (model: WorkbookModel, letter: string, from: number, to: number) => {
  const shown: unknown[] = []
  for (let row = from; row <= to; row++) shown.push(model.engine.getValue('Sheet1', `${letter}${row}`))
  return shown
}

function sort(model: WorkbookModel, range: string, keys: { column: number; descending?: boolean }[], hasHeaders = false) {
  const command = sortRangeCommand(model, 's1', { range, hasHeaders, keys })
  return command ? model.apply([command]) : undefined
}

describe('sort order', () => {
  it('puts numbers before text before logical values before errors, blanks last, text without regard to case', () => {
    const model = sheetWith({ A1: 'banana', A2: '=1/0', A3: '10', A4: 'TRUE', A5: 'Apple', A7: '2', A8: 'apricot' })
    sort(model, 'A1:A8', [{ column: 0 }])
    expect(column(model, 'A', 1, 8).map(String)).toEqual(['2', '10', 'Apple', 'apricot', 'banana', 'true', '#DIV/0!', 'null'])
  })

  it('reverses every kind in Z to A but keeps blanks last', () => {
    const model = sheetWith({ A1: 'banana', A2: '=1/0', A3: '10', A4: 'TRUE', A5: 'Apple', A7: '2' })
    sort(model, 'A1:A7', [{ column: 0, descending: true }])
    expect(column(model, 'A', 1, 7).map(String)).toEqual(['#DIV/0!', 'true', 'banana', 'Apple', '10', '2', 'null'])
  })

  it('compares blanks after everything in both orders', () => {
    expect(compareSortValues(null, 5, 1)).toBe(1)
    expect(compareSortValues(null, 5, -1)).toBe(1)
    expect(compareSortValues('a', 'A', 1)).toBe(0)
  })

  it('sorts by a second key where the first ties, and keeps tied rows in order (stable)', () => {
    const model = sheetWith({ A1: 'Region', B1: 'Units', C1: 'Id', A2: 'West', B2: '5', C2: 'w5', A3: 'East', B3: '7', C3: 'e7a', A4: 'West', B4: '9', C4: 'w9', A5: 'East', B5: '7', C5: 'e7b', A6: 'East', B6: '1', C6: 'e1' })
    sort(model, 'A1:C6', [{ column: 0 }, { column: 1, descending: true }], true)
    expect(column(model, 'A', 1, 6)).toEqual(['Region', 'East', 'East', 'East', 'West', 'West'])
    expect(column(model, 'C', 2, 6)).toEqual(['e7a', 'e7b', 'e1', 'w9', 'w5'])
  })

  it('sorts formulas by their results', () => {
    const model = sheetWith({ A1: '=10*3', A2: '=2+2', A3: '5' })
    sort(model, 'A1:A3', [{ column: 0 }])
    expect(column(model, 'A', 1, 3)).toEqual([4, 5, 30])
  })

  it('answers null when the rows are in order already', () => {
    const model = sheetWith({ A1: '1', A2: '2' })
    expect(sortRangeCommand(model, 's1', { range: 'A1:A2', hasHeaders: false, keys: [{ column: 0 }] })).toBeNull()
  })
})

describe('sorting rows', () => {
  it('moves styles and number formats with their rows, and one undo puts everything back', () => {
    const model = sheetWith({ A1: '3', B1: 'c', A2: '1', B2: 'a', A3: '2', B3: 'b' })
    model.apply([{ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'B2', style: { bold: true } }, { address: 'A2', format: '0.00%' }] }])
    const before = model.sheetRecords('s1')
    const result = sort(model, 'A1:B3', [{ column: 0 }])!
    expect(column(model, 'B', 1, 3)).toEqual(['a', 'b', 'c'])
    expect(model.styleAt('s1', 'B1')).toEqual({ bold: true })
    expect(model.styleAt('s1', 'B2')).toBeUndefined()
    expect(model.formatAtPosition('s1', 0, 0)).toBe('0.00%')
    model.apply(result.inverse)
    expect(model.sheetRecords('s1')).toEqual(before)
  })

  it('re-points relative references into the sorted rows and leaves others and absolute ones alone', () => {
    const model = sheetWith({ A1: 'Name', B1: 'Units', C1: 'Share', E1: '100', A2: 'x', B2: '30', C2: '=B2/$E$1+E1', A3: 'y', B3: '10', C3: '=B3*2', A4: 'z', B4: '20', C4: '=SUM(B2:B4)' })
    sort(model, 'A1:C4', [{ column: 1 }], true)
    expect(column(model, 'A', 2, 4)).toEqual(['y', 'z', 'x'])
    // y's formula moved from row 3 to row 2, x's from row 2 to row 4: each reads its own row still; E1 ($E$1 too) stays.
    expect(model.engine.getInput('Sheet1', 'C2')).toBe('=B2*2')
    expect(model.engine.getInput('Sheet1', 'C4')).toBe('=B4/$E$1+E1')
    // A range within the sorted rows keeps its offsets, as Excel moves it.
    expect(model.engine.getInput('Sheet1', 'C3')).toBe('=SUM(B1:B3)')
    expect(model.engine.getValue('Sheet1', 'C4')).toBeCloseTo(100.3)
  })

  it('leaves the rows a filter hides where they are and sorts the rows it shows', () => {
    const model = sheetWith({ A1: 'Region', B1: 'Units', A2: 'West', B2: '9', A3: 'East', B3: '7', A4: 'West', B4: '1', A5: 'East', B5: '3' })
    model.apply([{ type: 'set-filter', sheet: 'Sheet1', filter: { range: 'A1:B5', columns: [{ column: 0, values: ['East'] }] } }])
    sort(model, 'A1:B5', [{ column: 1 }], true)
    expect(column(model, 'B', 2, 5)).toEqual([9, 3, 1, 7])
    expect(column(model, 'A', 2, 5)).toEqual(['West', 'East', 'West', 'East'])
  })

  it('keeps references to other sheets as they were', () => {
    expect(repointSortedFormula('=Other!B5+B5', 2, 4, 1, 'Sheet1', 1, 9)).toBe('=Other!B5+B2')
  })

  it('leaves the header row and cells outside the range where they are', () => {
    const model = sheetWith({ A1: 'H', A2: 'b', A3: 'a', B2: 'stay2', B3: 'stay3' })
    sort(model, 'A1:A3', [{ column: 0 }], true)
    expect(column(model, 'A', 1, 3)).toEqual(['H', 'a', 'b'])
    expect(column(model, 'B', 2, 3)).toEqual(['stay2', 'stay3'])
  })

  it('refuses a range that cuts a merged cell or holds part of a spilled array', () => {
    const merged = sheetWith({ A1: '2', A2: '1' })
    merged.apply([{ type: 'merge-cells', sheet: 'Sheet1', range: 'A1:B1' }])
    expect(() => sortRangeCommand(merged, 's1', { range: 'A1:A2', hasHeaders: false, keys: [{ column: 0 }] })).toThrow(/merged cells \(A1:B1\)/)
    const spilled = sheetWith({ A1: '=SEQUENCE(3)', B1: '3', B2: '1', B3: '2' })
    expect(() => sortRangeCommand(spilled, 's1', { range: 'A1:B3', hasHeaders: false, keys: [{ column: 1 }] })).toThrow(CommandError)
    expect(() => sortRangeCommand(spilled, 's1', { range: 'A2:B3', hasHeaders: false, keys: [{ column: 1 }] })).toThrow(/part of an array/)
  })

  it('refuses a key outside the range', () => {
    const model = sheetWith({ A1: '2', A2: '1' })
    expect(() => sortRangeCommand(model, 's1', { range: 'A1:A2', hasHeaders: false, keys: [{ column: 3 }] })).toThrow(/Sort by a column of A1:A2/)
  })
})
