import { CellHistoryParams, CellHistoryQuery, CellHistoryResponse, UndoRedoBody, UndoRedoResponse, WorkbookParams, ErrorBody } from '@finsheet/contracts'
import { currentUser, errorResponses, type ServiceApp } from '@finsheet/platform'
import { splitSheetReference } from '@finsheet/workbook'
import { spreadsheetErrors } from '../errors.js'
import { checkAddress } from '@finsheet/workbook'
import type { SpreadsheetServices } from './services.js'
import { toChangeResponse } from './responses.js'

const tags = ['history']

export function historyRoutes(app: ServiceApp, services: SpreadsheetServices) {
  const { workbooks, repo } = services

  app.get(
    '/workbook/:id/cell/:address/history',
    {
      schema: {
        tags,
        summary: "Each change of a cell's input, newest first: old and new input, who and when",
        description: 'The address may name its sheet (Sheet1!B3); otherwise ?sheet= does, or the first sheet.',
        params: CellHistoryParams,
        querystring: CellHistoryQuery,
        response: { 200: CellHistoryResponse, ...errorResponses },
      },
    },
    async (request) => {
      const workbook = await workbooks.requireWorkbook(request.params.id, currentUser(request))
      const { sheet: named, reference } = splitSheetReference(request.params.address)
      const address = checkAddress(reference)
      const sheetName = named ?? request.query.sheet
      const sheet =
        sheetName === undefined
          ? workbook.sheets[0]
          : (workbook.sheets.find((candidate) => candidate.name === sheetName) ?? workbook.sheets.find((candidate) => candidate.name.toUpperCase() === sheetName.toUpperCase()))
      if (!sheet) throw spreadsheetErrors.sheetNotFound(sheetName ?? '')
      const entries = await repo.cellHistory(workbook.id, sheet.id, address, request.query.limit ?? 50)
      return {
        success: true as const,
        workbookId: workbook.id,
        sheet: sheet.name,
        address,
        history: entries.map((entry) => ({
          revision: entry.revision,
          changeId: entry.changeId,
          kind: entry.kind,
          oldInput: entry.oldInput,
          newInput: entry.newInput,
          userId: entry.userId,
          userName: entry.userName,
          timestamp: entry.at,
        })),
      }
    },
  )

  for (const action of ['undo', 'redo'] as const) {
    app.post(
      `/workbook/:id/${action}`,
      {
        schema: {
          tags,
          summary:
            action === 'undo'
              ? "Undo the user's latest change as a whole (a batch, a paste, an AI changeset); answers with the changed cells"
              : "Redo the user's latest undone change, unless they changed something since",
          params: WorkbookParams,
          body: UndoRedoBody,
          response: { 200: UndoRedoResponse, 409: ErrorBody, ...errorResponses },
        },
      },
      async (request) => {
        const user = currentUser(request)
        const { revision, clientId } = request.body
        const outcome = await workbooks[action](request.params.id, user, revision, clientId)
        const state = await workbooks.undoRedoState(request.params.id, user, clientId)
        return {
          ...toChangeResponse(outcome),
          target: outcome.target ?? { changeId: outcome.changeId, label: outcome.label, revision: outcome.revision },
          skipped: outcome.skipped,
          ...state,
        }
      },
    )
  }
}
