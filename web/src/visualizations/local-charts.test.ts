import { describe, expect, it } from 'vitest'
import type { Chart } from '@finsheet/contracts'
import { withLocalCharts } from './local-charts'

const chart = (id: string, value: number, createdAt: string, placed = false): Chart => ({
  id,
  type: 'bar',
  title: id,
  sheet: 'Sheet1',
  dataRange: 'A1:B2',
  seriesInColumns: true,
  createdAt,
  ...(placed ? { anchor: { from: { row: 0, col: 3, dx: 0, dy: 0 }, to: { row: 10, col: 8, dx: 0, dy: 0 } } } : {}),
  data: { labels: ['a'], series: [{ name: 's', values: [value] }] },
})

describe('withLocalCharts', () => {
  it("shows the open workbook's values, not the saved ones, and its new charts first", () => {
    const saved = [chart('c1', 10, '2026-01-01T00:00:00Z')]
    const local = [chart('c1', 99, '2026-01-01T00:00:00Z'), chart('c2', 5, '2026-02-01T00:00:00Z', true)]
    const shown = withLocalCharts(saved, local)
    expect(shown.map((c) => [c.id, c.data.series[0].values[0]])).toEqual([
      ['c2', 5],
      ['c1', 99],
    ])
  })

  it('keeps the saved list when the workbook is not open here', () => {
    expect(withLocalCharts([chart('c1', 10, '2026-01-01T00:00:00Z')], null).map((c) => c.id)).toEqual(['c1'])
  })

  it('a placed chart deleted here is not shown again from the saved list', () => {
    expect(withLocalCharts([chart('c9', 1, '2026-01-01T00:00:00Z', true)], [])).toEqual([])
  })
})
