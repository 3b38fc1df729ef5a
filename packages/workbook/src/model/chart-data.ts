import type { ChartData } from '@finsheet/contracts'
import { formatAddress, tryParseRange } from './a1.js'
import { displayOf, type CellRecord } from './cell-record.js'
import type { ChartRecord } from './snapshot.js'

/**
 * The labels and series of a chart's range, read from its cells. With series in columns, the first
 * column holds the labels when the range has more than one column, and the first row holds the series
 * names when it is text. The spreadsheet service draws stored charts with it, and the browser the
 * charts an assistant changeset proposes.
 */
export function chartData(chart: Pick<ChartRecord, 'dataRange' | 'seriesInColumns'>, cells: readonly CellRecord[]): ChartData {
  const range = tryParseRange(chart.dataRange)
  if (!range) return { labels: [], series: [] }
  const byAddress = new Map(cells.map((cell) => [cell.address, cell]))
  const grid: (CellRecord | undefined)[][] = []
  for (let row = range.top; row <= range.bottom; row++) {
    const line: (CellRecord | undefined)[] = []
    for (let col = range.left; col <= range.right; col++) line.push(byAddress.get(formatAddress(row, col)))
    grid.push(line)
  }
  // Rows as series is the transpose of columns as series.
  const table = chart.seriesInColumns ? grid : grid[0]?.map((_, col) => grid.map((line) => line[col])) ?? []
  if (table.length === 0) return { labels: [], series: [] }
  const width = table[0].length
  const hasLabels = width > 1
  const firstSeriesColumn = hasLabels ? 1 : 0
  const header = table[0].slice(firstSeriesColumn)
  const hasHeader = table.length > 1 && header.some((cell) => cell?.type === 'text') && header.every((cell) => cell === undefined || cell.type === 'text' || cell.type === 'empty')
  const body = hasHeader ? table.slice(1) : table
  const labels = body.map((line, index) => (hasLabels && line[0] ? displayOf(line[0]) : String(index + 1)))
  const series = []
  for (let col = firstSeriesColumn; col < width; col++) {
    const name = hasHeader && table[0][col] ? String(table[0][col]?.value ?? '') : `Series ${col - firstSeriesColumn + 1}`
    series.push({ name, values: body.map((line) => (typeof line[col]?.value === 'number' ? (line[col]?.value as number) : null)) })
  }
  return { labels, series }
}
