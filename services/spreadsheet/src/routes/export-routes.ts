import { Type } from 'typebox'
import { EXPORT_NOTES_HEADER, ExportQuery, MAX_EXPORT_BYTES, MAX_XLSX_EXPORT_CELLS, WorkbookParams } from '@finsheet/contracts'
import { currentUser, errorResponses, type ServiceApp } from '@finsheet/platform'
import { cellsJsonChunks, chartPictures, chartsExportNote, csvByteLength, csvChunks, withKeptDrawings, writeXlsx, writeXlsxOffThread, XlsxExportError } from '@finsheet/workbook'
import { spreadsheetErrors } from '../errors.js'
import type { SpreadsheetServices } from './services.js'
import { answerStream, attachment, workbookTotals } from './responses.js'

/**
 * Exports are bounded and never hold the event loop for long: CSV and JSON are streamed in chunks
 * (never built as one string or grid), a CSV larger than MAX_EXPORT_BYTES is refused before a byte is
 * sent, a JSON export stops at it and says so in `workbook.truncated`, and xlsx is written in a worker
 * thread for workbooks of up to MAX_XLSX_EXPORT_CELLS cells. Workbooks of up to INLINE_XLSX_CELLS
 * are written on the request's thread: two thousand cells take exceljs about 50 milliseconds, less than
 * starting a worker (a second on a busy machine).
 */
const INLINE_XLSX_CELLS = 2_000

export function exportRoutes(app: ServiceApp, services: SpreadsheetServices) {
  const { workbooks } = services

  app.get(
    '/workbook/:id/export',
    {
      schema: {
        tags: ['export'],
        summary: 'Download the workbook as xlsx (every sheet), csv (one sheet, RFC 4180) or json (the shape of the cells route)',
        description:
          `A csv export larger than ${MAX_EXPORT_BYTES / (1024 * 1024)} MB is refused (413); a json export stops there and says so in workbook.truncated; ` +
          `an xlsx export holds at most ${MAX_XLSX_EXPORT_CELLS.toLocaleString('en-US')} cells (413 past it).`,
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
        const bytes = csvByteLength(cells, MAX_EXPORT_BYTES)
        if (bytes > MAX_EXPORT_BYTES) throw spreadsheetErrors.csvExportTooLarge(bytes)
        const name = workbook.sheets.length > 1 ? `${workbook.name} - ${target.name}` : workbook.name
        return reply
          .header('content-type', 'text/csv; charset=utf-8; header=present')
          .header('content-disposition', attachment(name, 'csv'))
          .header('content-length', bytes)
          .send(answerStream(csvChunks(cells)))
      }
      const snapshot = await workbooks.storedSnapshot(workbook, format === 'json' ? sheet?.id : undefined)
      if (format === 'json') {
        const chunks = cellsJsonChunks(
          {
            workbookId: workbook.id,
            name: snapshot.name,
            revision: snapshot.revision,
            sheetOrder: workbook.sheets.map((s) => s.name),
            totalCells: workbookTotals(workbook).cells,
            sheets: snapshot.sheets,
          },
          MAX_EXPORT_BYTES,
        )
        return reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('content-disposition', attachment(workbook.name, 'json'))
          .send(answerStream(chunks))
      }
      let cells = 0
      for (const part of snapshot.sheets) cells += part.cells.length
      if (cells > MAX_XLSX_EXPORT_CELLS) throw spreadsheetErrors.xlsxExportTooLarge(cells)
      let bytes: Buffer
      const pictures = await chartPictures(snapshot)
      try {
        bytes = cells <= INLINE_XLSX_CELLS ? await writeXlsx(snapshot, { pictures }) : await writeXlsxOffThread(snapshot, { pictures })
      } catch (error) {
        if (!(error instanceof XlsxExportError)) throw error
        if (error.reason === 'busy') throw spreadsheetErrors.exportsBusy()
        // A workbook too large for the export's memory or time is refused like one past the cell limit.
        if (error.reason !== 'failed') throw spreadsheetErrors.xlsxExportTooLarge(cells, error.message)
        throw error
      }
      // Charts and pictures of the file the workbook was imported from go back in as the file held them.
      let notExported: string[] = []
      if (workbook.keptDrawings && workbook.keptDrawings.length > 0) {
        const placements = await Promise.all(
          workbook.keptDrawings.map(async (kept) => ({ sheetId: kept.sheetId, sheetIds: kept.sheetIds, drawing: await services.snapshots.getKeptDrawing(kept.key) })),
        )
        ;({ bytes, notExported } = await withKeptDrawings(bytes, snapshot.sheets, placements))
      }
      // What the file could not hold as the workbook has it (charts drawn as pictures or left out), for the client to say.
      const note = [chartsExportNote(pictures), ...notExported].filter((part) => part).join('; ')
      if (note) reply.header(EXPORT_NOTES_HEADER, note)
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', attachment(workbook.name, 'xlsx'))
        .send(bytes)
    },
  )
}
