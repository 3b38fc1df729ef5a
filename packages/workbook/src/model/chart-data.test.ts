import { describe, expect, it } from 'vitest'
import { chartData } from './chart-data.js'
import { WorkbookModel } from './workbook-model.js'

function recordsOf(cells: Record<string, string>) {
  const model = WorkbookModel.build({
    revision: 0,
    sheets: [{ id: 's1', name: 'Plan', columnWidths: {}, merges: [] }],
    definedNames: [],
    charts: [],
    cells: Object.entries(cells).map(([address, input]) => ({ sheetId: 's1', address, input })),
  })
  return model.sheetRecords('s1')
}

describe('chartData', () => {
  it('takes labels from the first column and series names from a text header row', () => {
    const records = recordsOf({ A1: 'Year', B1: 'Units', C1: 'Price', A2: '2024', B2: '40', C2: '=B2/4', A3: '2025', B3: '55', C3: 'n/a' })
    expect(chartData({ dataRange: 'A1:C3', seriesInColumns: true }, records)).toEqual({
      labels: ['2024', '2025'],
      series: [
        { name: 'Units', values: [40, 55] },
        { name: 'Price', values: [10, null] },
      ],
    })
  })

  it('numbers the points of a lone column without a header, and reads rows as series when asked', () => {
    const records = recordsOf({ A1: '3', A2: '4', B1: '5', B2: '6' })
    expect(chartData({ dataRange: 'A1:A2', seriesInColumns: true }, records)).toEqual({ labels: ['1', '2'], series: [{ name: 'Series 1', values: [3, 4] }] })
    expect(chartData({ dataRange: 'A1:B2', seriesInColumns: false }, records).series).toEqual([{ name: 'Series 1', values: [4, 6] }])
    expect(chartData({ dataRange: 'not a range', seriesInColumns: true }, records)).toEqual({ labels: [], series: [] })
  })
})
