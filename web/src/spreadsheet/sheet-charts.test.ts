import { describe, expect, it } from 'vitest'
import type { ChartRecord } from '@finsheet/workbook/model'
import { cornerPoint } from '../grid/floats'
import { chartChange, chartGeometry, insertChartCommand, NEW_CHART_HEIGHT, NEW_CHART_WIDTH, nextChartTitle } from './sheet-charts'

const source = { columnWidths: new Map<number, number>(), rowHeights: new Map<number, number>() }
const options = { id: 'c1', now: new Date('2026-01-01T00:00:00Z'), title: 'Chart 1' }

describe('insertChartCommand', () => {
  it('charts the selection and places the chart right of it, at its top row', () => {
    const result = insertChartCommand('Sheet1', { startCol: 0, startRow: 1, endCol: 1, endRow: 6 }, source, options)
    if (!('command' in result)) throw new Error(result.problem)
    const { chart } = result.command
    expect(chart).toMatchObject({ type: 'bar', dataRange: 'A2:B7', seriesInColumns: true, title: 'Chart 1' })
    const geo = chartGeometry(source)
    const from = cornerPoint(geo, chart!.anchor!.from)
    const to = cornerPoint(geo, chart!.anchor!.to)
    expect(from).toEqual({ x: 224, y: 24 })
    expect([to.x - from.x, to.y - from.y]).toEqual([NEW_CHART_WIDTH, NEW_CHART_HEIGHT])
  })

  it('a wide block has its series in rows', () => {
    const result = insertChartCommand('Sheet1', { startCol: 0, startRow: 0, endCol: 5, endRow: 1 }, source, options)
    expect('command' in result && result.command.chart?.seriesInColumns).toBe(false)
  })

  it('refuses a single cell and a block past the chart limit', () => {
    expect(insertChartCommand('Sheet1', { startCol: 0, startRow: 0, endCol: 0, endRow: 0 }, source, options)).toHaveProperty('problem')
    expect(insertChartCommand('Sheet1', { startCol: 0, startRow: 0, endCol: 9, endRow: 1000 }, source, options)).toHaveProperty('problem', 'A chart can draw at most 10,000 cells.')
  })
})

describe('chartChange', () => {
  const chart: ChartRecord = { id: 'c1', sheetId: 's1', type: 'combo', title: 'T', dataRange: 'A1:C4', seriesInColumns: true, createdAt: '2026-01-01T00:00:00.000Z', seriesKinds: ['bar', 'line'] }

  it('writes the chart back with the change, dropping settings of another type', () => {
    expect(chartChange('Sheet1', chart, { type: 'waterfall' })).toEqual({
      type: 'set-chart',
      sheet: 'Sheet1',
      id: 'c1',
      chart: { type: 'waterfall', title: 'T', dataRange: 'A1:C4', seriesInColumns: true, createdAt: '2026-01-01T00:00:00.000Z' },
    })
  })
})

describe('nextChartTitle', () => {
  it('takes the next unused number', () => {
    expect(nextChartTitle(['Chart 2', 'EV bridge'])).toBe('Chart 3')
    expect(nextChartTitle(['Chart 1'])).toBe('Chart 2')
  })
})
