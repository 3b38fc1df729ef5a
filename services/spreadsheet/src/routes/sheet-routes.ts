import { AddSheetBody, RevisionQuery, SheetChangeResponse, SheetParams, SheetsResponse, UpdateSheetBody, WorkbookParams, type WorkbookCommand } from '@finsheet/contracts'
import { currentUser, errorResponses, type ServiceApp } from '@finsheet/platform'
import { spreadsheetErrors } from '../errors.js'
import { nextSheetName } from '@finsheet/workbook'
import type { ChangeOutcome } from '../workbooks/workbook-service.js'
import type { SpreadsheetServices } from './services.js'
import { toSheetSummaries } from './responses.js'

const tags = ['sheets']

function sheetChangeResponse(outcome: ChangeOutcome) {
  return {
    success: true as const,
    workbookId: outcome.workbook.id,
    revision: outcome.revision,
    changeId: outcome.changeId,
    sheets: toSheetSummaries(outcome.workbook),
    sheetOrder: outcome.workbook.sheets.map((sheet) => sheet.name),
    changedCells: outcome.changedCells,
    message: outcome.message,
  }
}

export function sheetRoutes(app: ServiceApp, services: SpreadsheetServices) {
  const { workbooks } = services

  app.get(
    '/workbook/:id/sheets',
    { schema: { tags, summary: 'The sheets in order, with their counts, column widths and merges', params: WorkbookParams, response: { 200: SheetsResponse, ...errorResponses } } },
    async (request) => {
      const workbook = await workbooks.requireWorkbook(request.params.id, currentUser(request))
      return {
        success: true as const,
        workbookId: workbook.id,
        revision: workbook.revision,
        sheets: toSheetSummaries(workbook),
        sheetOrder: workbook.sheets.map((sheet) => sheet.name),
        totalSheets: workbook.sheets.length,
      }
    },
  )

  app.post(
    '/workbook/:id/sheets',
    {
      schema: {
        tags,
        summary: 'Add a sheet (the next unused SheetN when no name is given), at the end or at an index',
        params: WorkbookParams,
        body: AddSheetBody,
        response: { 201: SheetChangeResponse, 409: errorResponses[400], ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const outcome = await workbooks.change(request.params.id, user, {
        revision: request.body.revision,
        commands: (state) => [{ type: 'add-sheet', name: request.body.name ?? nextSheetName(state.sheets.map((sheet) => sheet.name)), ...(request.body.index !== undefined ? { index: request.body.index } : {}) }],
      })
      return reply.status(201).send(sheetChangeResponse(outcome))
    },
  )

  app.patch(
    '/workbook/:id/sheets/:sheet',
    {
      schema: {
        tags,
        summary: 'Rename a sheet (formulas that name it follow) and/or move it to another position',
        params: SheetParams,
        body: UpdateSheetBody,
        response: { 200: SheetChangeResponse, 409: errorResponses[400], ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request)
      const { name, index, revision } = request.body
      if (name === undefined && index === undefined) throw spreadsheetErrors.nothingToUpdate()
      const outcome = await workbooks.change(request.params.id, user, {
        revision,
        commands: (state) => {
          const sheet = state.sheetByName(request.params.sheet)
          const commands: WorkbookCommand[] = []
          if (name !== undefined && name !== sheet.name) commands.push({ type: 'rename-sheet', from: sheet.name, to: name })
          if (index !== undefined) commands.push({ type: 'move-sheet', name: name ?? sheet.name, index })
          if (commands.length === 0) commands.push({ type: 'move-sheet', name: sheet.name, index: state.sheets.indexOf(sheet) })
          return commands
        },
      })
      return sheetChangeResponse(outcome)
    },
  )

  app.delete(
    '/workbook/:id/sheets/:sheet',
    {
      schema: {
        tags,
        summary: 'Delete a sheet; formulas that read it show #REF! (undo brings both back)',
        params: SheetParams,
        querystring: RevisionQuery,
        response: { 200: SheetChangeResponse, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request)
      const outcome = await workbooks.change(request.params.id, user, {
        revision: request.query.revision,
        commands: (state) => [{ type: 'delete-sheet', name: state.sheetByName(request.params.sheet).name }],
      })
      return sheetChangeResponse(outcome)
    },
  )
}
