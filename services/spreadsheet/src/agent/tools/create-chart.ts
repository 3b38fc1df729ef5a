/**
 * create_chart: a chart of a range, added to the workbook's charts when the changeset is applied
 * (charts are stored with the workbook, not as cell commands). The result previews the labels and
 * series the chart will draw, read as the charts route reads them.
 */
import { chartData, formatAddress, formatRange, rangeSize, seriesInColumnsFor, type CellRecord } from '@finsheet/workbook'
import { MAX_CHART_CELLS } from '../../workbooks/charts.js'
import { resolveRange } from '../targets.js'
import { ToolError } from '../tool-error.js'
import { count, defineTool, echo } from '../tool-kit.js'

const PREVIEW_LABELS = 12

export const createChart = defineTool({
  name: 'create_chart',
  writes: true,
  attempt: (args) => `Adding a ${args.type} chart of ${echo(args.range)} on ${args.sheet}`,
  run(args, context) {
    const { state } = context
    const target = resolveRange(context, args.sheet, args.range)
    const size = rangeSize(target.range)
    if (size > MAX_CHART_CELLS) throw new ToolError(`${target.ref} has ${count(size, 'cell')}; a chart can draw at most ${MAX_CHART_CELLS.toLocaleString('en-US')}.`)
    const records: CellRecord[] = []
    for (let row = target.range.top; row <= target.range.bottom; row++) {
      for (let col = target.range.left; col <= target.range.right; col++) {
        const record = state.record(target.sheet.id, formatAddress(row, col))
        if (record) records.push(record)
      }
    }
    const range = formatRange(target.range)
    // As the app's new charts: a wide range (periods across, as models run) has its series in rows.
    const seriesInColumns = seriesInColumnsFor({ width: target.range.right - target.range.left + 1, height: target.range.bottom - target.range.top + 1 })
    const data = chartData({ dataRange: range, seriesInColumns }, records)
    if (data.series.every((series) => series.values.every((value) => value === null))) {
      throw new ToolError(`${target.ref} holds no numbers to chart. Give the range of labels and numbers (e.g. a label column and a value column).`)
    }
    const title = args.title?.trim() || `${target.sheet.name} ${range}`
    context.record.charts.push({ sheet: target.sheet.name, range, type: args.type, title })
    return {
      summary: `Adding a ${args.type} chart of ${target.ref}`,
      content: {
        chart: { type: args.type, title, range: target.ref, ...(target.via ? { via: target.via } : {}) },
        preview: {
          labels: data.labels.slice(0, PREVIEW_LABELS),
          ...(data.labels.length > PREVIEW_LABELS ? { moreLabels: data.labels.length - PREVIEW_LABELS } : {}),
          series: data.series.map((series) => ({ name: series.name, points: series.values.filter((value) => value !== null).length })),
        },
        note: 'The chart is added to the workbook when the changeset is applied.',
      },
    }
  },
})
