import { Type } from 'typebox'
import { ExportQuery, WorkbookParams } from '@finsheet/contracts'
import { currentUser, errorResponses, type ServiceApp } from '@finsheet/platform'
import { toCellsJson, writeCsv, writeXlsx } from '@finsheet/workbook'
import { spreadsheetErrors } from '../errors.js'
import type { SpreadsheetServices } from './services.js'
import { attachment, workbookTotals } from './responses.js'

export function exportRoutes(app: ServiceApp, services: SpreadsheetServices) {
  const { workbooks } = services

  app.get(
    '/workbook/:id/export',
    {
      schema: {
        tags: ['export'],
        summary: 'Download the workbook as xlsx (every sheet), csv (one sheet, RFC 4180) or json (the shape of the cells route)',
        params: WorkbookParams,
        querystring: ExportQuery,
        response: { 200: Type.Unknown({ description: 'The file' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const workbook = await workbooks.requireWorkbook(request.params.id, user)
      const format = request.query.format ?? 'xlsx'
      const sheetName = request.query.sheet
      const sheet =
        sheetName === undefined
          ? undefined
          : (workbook.sheets.find((candidate) => candidate.name === sheetName) ?? workbook.sheets.find((candidate) => candidate.name.toUpperCase() === sheetName.toUpperCase()))
      if (sheetName !== undefined && !sheet) throw spreadsheetErrors.sheetNotFound(sheetName)

      if (format === 'csv') {
        const target = sheet ?? workbook.sheets[0]
        const cells = await workbooks.sheetRecords(workbook, target.id)
        const name = workbook.sheets.length > 1 ? `${workbook.name} - ${target.name}` : workbook.name
        return reply
          .header('content-type', 'text/csv; charset=utf-8; header=present')
          .header('content-disposition', attachment(name, 'csv'))
          .send(writeCsv(cells))
      }
      const snapshot = await workbooks.storedSnapshot(workbook, format === 'json' ? sheet?.id : undefined)
      if (format === 'json') {
        const json = toCellsJson({ ...snapshot, sheets: snapshot.sheets }, { workbookId: workbook.id })
        return reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('content-disposition', attachment(workbook.name, 'json'))
          .send({ success: true, workbook: { ...json, sheetOrder: workbook.sheets.map((s) => s.name), totalSheets: workbook.sheets.length, totalCells: workbookTotals(workbook).cells } })
      }
      const bytes = await writeXlsx(snapshot)
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', attachment(workbook.name, 'xlsx'))
        .send(bytes)
    },
  )
}
