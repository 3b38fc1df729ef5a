import { ChartParams, ChartResponse, ChartsResponse, CreateChartBody, DeleteChartResponse, WorkbookParams } from '@finsheet/contracts'
import { currentUser, errorResponses, type ServiceApp } from '@finsheet/platform'
import { formatRange, rangeSize, splitSheetReference, tryParseRange, type ChartRecord } from '@finsheet/workbook'
import { spreadsheetErrors } from '../errors.js'
import { newChartId } from '../engine/ids.js'
import { MAX_CHART_CELLS, toChart } from '../workbooks/charts.js'
import type { SpreadsheetServices } from './services.js'

const tags = ['charts']

export function chartRoutes(app: ServiceApp, services: SpreadsheetServices) {
  const { workbooks } = services

  app.post(
    '/create-chart',
    {
      schema: {
        tags,
        summary: 'Store a chart (bar, line, pie, area, combo or waterfall) of a range on the workbook; its data follows the cells',
        body: CreateChartBody,
        response: { 201: ChartResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const body = request.body
      const workbook = await workbooks.requireWorkbook(body.workbookId, user)
      const { sheet: named, reference } = splitSheetReference(body.dataRange)
      const range = tryParseRange(reference)
      if (!range) throw spreadsheetErrors.invalidRange(body.dataRange)
      if (rangeSize(range) > MAX_CHART_CELLS) throw spreadsheetErrors.invalidChart(`A chart can draw at most ${MAX_CHART_CELLS.toLocaleString('en-US')} cells`)
      const record = await workbooks.updateMetadata(workbook.id, user, (state) => {
        const sheetName = named ?? body.sheetName
        const sheet = sheetName === undefined ? state.sheets[0] : state.sheetByName(sheetName)
        const chart: ChartRecord = {
          id: newChartId(),
          type: body.type,
          title: body.title?.trim() || `${sheet.name} ${formatRange(range)}`,
          sheetId: sheet.id,
          dataRange: formatRange(range),
          seriesInColumns: body.seriesInColumns ?? true,
          createdAt: new Date().toISOString(),
        }
        state.charts.push(chart)
        return { chart, sheet }
      })
      const cells = await workbooks.sheetRecords(workbook, record.sheet.id)
      return reply.status(201).send({ success: true as const, chart: toChart(record.chart, record.sheet.name, cells) })
    },
  )

  app.get(
    '/workbook/:id/charts',
    { schema: { tags, summary: "The workbook's charts with their data read from the cells now", params: WorkbookParams, response: { 200: ChartsResponse, ...errorResponses } } },
    async (request) => {
      const workbook = await workbooks.requireWorkbook(request.params.id, currentUser(request))
      const charts = []
      for (const chart of workbook.charts) {
        const sheet = workbook.sheets.find((candidate) => candidate.id === chart.sheetId)
        if (!sheet) continue
        charts.push(toChart(chart, sheet.name, await workbooks.sheetRecords(workbook, sheet.id)))
      }
      return { success: true as const, workbookId: workbook.id, charts }
    },
  )

  app.delete(
    '/workbook/:id/charts/:chartId',
    { schema: { tags, summary: 'Remove a chart', params: ChartParams, response: { 200: DeleteChartResponse, ...errorResponses } } },
    async (request) => {
      const user = currentUser(request)
      await workbooks.requireWorkbook(request.params.id, user)
      await workbooks.updateMetadata(request.params.id, user, (state) => {
        const index = state.charts.findIndex((chart) => chart.id === request.params.chartId)
        if (index < 0) throw spreadsheetErrors.chartNotFound()
        state.charts.splice(index, 1)
      })
      return { success: true as const, workbookId: request.params.id }
    },
  )
}
