import { describe, expect, it } from 'vitest'
import { looksLikeHeaders } from '../actions/data-actions'
import { clearFilter, currentRegion, dataRange, filterButtonsOf, filterColumn, recordsFoundText, shownValues } from './data-tools'

const filled = (cells: string[]) => (pos: { col: number; row: number }) => cells.includes(`${pos.col},${pos.row}`)

describe('the range a sort or a filter covers', () => {
  it('grows from one cell to the block of filled cells around it, stopping at empty rows and columns', () => {
    // A1:C3 filled, then a gap column D, and E1 filled
    const cells = ['0,0', '1,0', '2,0', '0,1', '2,1', '0,2', '1,2', '4,0', '0,5']
    expect(currentRegion({ col: 1, row: 1 }, filled(cells), { rows: 100, columns: 50 })).toEqual({ startCol: 0, startRow: 0, endCol: 2, endRow: 2 })
  })

  it('keeps a selection of several cells as it is', () => {
    const selection = { startCol: 1, startRow: 1, endCol: 2, endRow: 4 }
    expect(dataRange(selection, () => true, { rows: 100, columns: 50 })).toEqual(selection)
  })

  it('guesses a header row when the first row is all text and the sorted column is not text below it', () => {
    const values: Record<string, unknown> = { '0,0': 'Region', '0,1': 'Units', '1,0': 'East', '1,1': 5 }
    const valueAt = (row: number, col: number) => values[`${row},${col}`] ?? null
    const range = { startCol: 0, startRow: 0, endCol: 1, endRow: 1 }
    expect(looksLikeHeaders(range, 1, valueAt)).toBe(true)
    expect(looksLikeHeaders(range, 0, valueAt)).toBe(false)
  })
})

describe('filter commands and texts', () => {
  const filter = { range: 'A1:C9', columns: [{ column: 2, values: ['x'] }] }

  it('filters one column, keeping the others, and lets a column show everything again', () => {
    expect(filterColumn('Sheet1', filter, 0, ['East', ''])).toEqual({
      type: 'set-filter',
      sheet: 'Sheet1',
      filter: { range: 'A1:C9', columns: [{ column: 0, values: ['East', ''] }, { column: 2, values: ['x'] }] },
    })
    expect(filterColumn('Sheet1', filter, 2, null)).toEqual({ type: 'set-filter', sheet: 'Sheet1', filter: { range: 'A1:C9' } })
    expect(clearFilter('Sheet1', filter)).toEqual({ type: 'set-filter', sheet: 'Sheet1', filter: { range: 'A1:C9' } })
  })

  it('puts the buttons on the header row, marking the filtering columns', () => {
    expect(filterButtonsOf({ filter })).toEqual({ row: 0, from: 0, to: 2, active: new Set([2]) })
    expect(filterButtonsOf(undefined)).toBeUndefined()
  })

  it('counts the records found only while a column filters', () => {
    expect(recordsFoundText({ filter, rows: { 3: { filtered: true }, 4: { filtered: true, height: 30 }, 5: { hidden: true } } })).toBe('6 of 8 records found')
    expect(recordsFoundText({ filter: { range: 'A1:C9' } })).toBeNull()
  })

  it('ticks the values a column shows, or all of them when it does not filter', () => {
    expect([...shownValues(filter, 2, ['x', 'y'])]).toEqual(['x'])
    expect([...shownValues(filter, 0, ['East', 'West'])]).toEqual(['East', 'West'])
  })
})
