/**
 * Charts stored on a workbook: a type, a title and a data range. Their data is read from the cells
 * each time it is asked for, so a chart follows every edit; the range follows inserted and deleted
 * rows and columns.
 */
import { MAX_CHART_CELLS, type Chart } from '@finsheet/contracts'
import { chartData, type CellRecord, type ChartRecord } from '@finsheet/workbook'

export { MAX_CHART_CELLS }

export function toChart(record: ChartRecord, sheetName: string, cells: readonly CellRecord[]): Chart {
  return {
    id: record.id,
    type: record.type,
    title: record.title,
    sheet: sheetName,
    dataRange: record.dataRange,
    seriesInColumns: record.seriesInColumns,
    createdAt: record.createdAt,
    ...(record.anchor ? { anchor: record.anchor } : {}),
    ...(record.seriesKinds ? { seriesKinds: record.seriesKinds } : {}),
    ...(record.totals ? { totals: record.totals } : {}),
    data: chartData(record, cells),
  }
}
