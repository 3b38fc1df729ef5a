import {
  ApplyChangeBody,
  ChangeLogQuery,
  ChangeLogResponse,
  ChangeResponse,
  UpdateCellBody,
  UpdateCellsBody,
  WorkbookParams,
  type CellEdit,
  type CellUpdate,
  type WorkbookCommand,
} from '@finsheet/contracts'
import { currentUser, errorResponses, type AuthUser, type ServiceApp } from '@finsheet/platform'
import { spreadsheetErrors } from '../errors.js'
import { commandForClient, fromStoredCommand } from '../engine/commands.js'
import type { ChangeOutcome, ChangeRequest } from '../workbooks/workbook-service.js'
import type { SpreadsheetServices } from './services.js'
import { toChangeResponse } from './responses.js'

const tags = ['cells']

/**
 * A cell update as spec 2 sends it: a formula (with or without '=') wins over the value; a null or
 * empty formula with no value clears the cell.
 */
export function cellEditOf(update: Pick<CellUpdate, 'value' | 'formula' | 'style' | 'format'>, address: string): CellEdit {
  const edit: CellEdit = { address }
  if (typeof update.formula === 'string' && update.formula.trim() !== '') {
    edit.input = update.formula.startsWith('=') ? update.formula : `=${update.formula}`
  } else if (update.value !== undefined) edit.input = update.value
  else if (update.formula !== undefined) edit.input = ''
  if (update.style !== undefined) edit.style = update.style
  if (update.format !== undefined) edit.format = update.format
  if (edit.input === undefined && edit.style === undefined && edit.format === undefined) throw spreadsheetErrors.nothingToUpdate()
  return edit
}

export function cellRoutes(app: ServiceApp, services: SpreadsheetServices) {
  const { workbooks, versions } = services

  /** Runs a change; an AI changeset also makes a major version. */
  const change = (workbookId: string, user: AuthUser, request: ChangeRequest): Promise<ChangeOutcome> =>
    workbooks.change(
      workbookId,
      user,
      request,
      request.source === 'ai' ? (outcome) => versions.afterAiChange(outcome, user, request.summary ?? null) : undefined,
    )

  app.post(
    '/update-cell',
    {
      schema: {
        tags,
        summary: 'Set one cell; answers with every cell whose value changed, on every sheet',
        body: UpdateCellBody,
        response: { 200: ChangeResponse, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request)
      const body = request.body
      const edit = cellEditOf(body, body.cellAddress)
      const outcome = await change(body.workbookId, user, {
        revision: body.revision,
        commands: (state) => [{ type: 'set-cells', sheet: body.sheetName ?? state.sheets[0].name, cells: [edit] }],
      })
      return toChangeResponse(outcome)
    },
  )

  app.post(
    '/update-cells',
    {
      schema: {
        tags,
        summary: 'Set many cells as one atomic change (undone as one); answers with every cell whose value changed',
        body: UpdateCellsBody,
        response: { 200: ChangeResponse, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request)
      const body = request.body
      const edits = body.updates.map((update) => {
        const address = update.cellAddress ?? update.address
        if (address === undefined) throw spreadsheetErrors.missingAddress()
        return { sheet: update.sheetName ?? body.sheetName, edit: cellEditOf(update, address) }
      })
      const outcome = await change(body.workbookId, user, {
        revision: body.revision,
        label: body.label,
        source: body.source,
        commands: (state) => {
          const bySheet = new Map<string, CellEdit[]>()
          for (const { sheet, edit } of edits) {
            const name = sheet ?? state.sheets[0].name
            let list = bySheet.get(name)
            if (!list) bySheet.set(name, (list = []))
            list.push(edit)
          }
          return [...bySheet].map(([sheet, cells]): WorkbookCommand => ({ type: 'set-cells', sheet, cells }))
        },
      })
      return toChangeResponse(outcome)
    },
  )

  app.post(
    '/workbook/:id/changes',
    {
      schema: {
        tags: ['changes'],
        summary: 'Apply commands (cells, formats, rows, columns, sheets, merges) as one atomic, undoable change',
        description: "An 'ai' change is an assistant changeset: it also makes a major version with the summary as its AI summary.",
        params: WorkbookParams,
        body: ApplyChangeBody,
        response: { 200: ChangeResponse, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request)
      const outcome = await change(request.params.id, user, {
        commands: request.body.commands,
        revision: request.body.revision,
        label: request.body.label,
        source: request.body.source,
        summary: request.body.summary,
        clientId: request.body.clientId,
      })
      return toChangeResponse(outcome)
    },
  )

  app.get(
    '/workbook/:id/changes',
    {
      schema: {
        tags: ['changes'],
        summary: 'The change log: changes after a revision, oldest first',
        params: WorkbookParams,
        querystring: ChangeLogQuery,
        response: { 200: ChangeLogResponse, ...errorResponses },
      },
    },
    async (request) => {
      const workbook = await workbooks.requireWorkbook(request.params.id, currentUser(request))
      const changes = await services.repo.changesAfter(workbook.id, request.query.since ?? 0, request.query.limit ?? 100)
      const sheetName = (id: string) => workbook.sheets.find((sheet) => sheet.id === id)?.name ?? '(deleted sheet)'
      return {
        success: true as const,
        workbookId: workbook.id,
        revision: workbook.revision,
        changes: changes.map((entry) => ({
          id: entry.id,
          revision: entry.revision,
          kind: entry.kind,
          source: entry.source,
          label: entry.label,
          userId: entry.userId,
          userName: entry.userName,
          timestamp: entry.at,
          cellCount: entry.cellCount,
          undone: entry.undone,
          commands: entry.commands.flatMap((command) => fromStoredCommand(command)).map((command) => commandForClient(command, sheetName)),
        })),
      }
    },
  )
}
