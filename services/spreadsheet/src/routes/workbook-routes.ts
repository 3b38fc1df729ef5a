import {
  CellsQuery,
  CellsResponse,
  InputsResponse,
  CreateWorkbookBody,
  CreateWorkbookResponse,
  DeleteWorkbookResponse,
  ErrorBody,
  FullWorkbookResponse,
  ImportWorkbookBody,
  ImportWorkbookResponse,
  IMPORT_STREAM_CONTENT_TYPE,
  ListWorkbooksQuery,
  ListWorkbooksResponse,
  RenameWorkbookBody,
  WorkbookMetadataResponse,
  WindowQuery,
  WindowResponse,
  INPUTS_LINES_CONTENT_TYPE,
  MAX_WINDOW_ROWS,
  WorkbookParams,
  DEFAULT_WORKBOOK_LIST_LIMIT,
  DefaultWorkbookResponse,
  DuplicateWorkbookBody,
  EnsureDefaultWorkbookBody,
  TRASH_RETENTION_DAYS,
  copyName,
} from '@finsheet/contracts'
import { currentUser, errorResponses, type AuthUser, type ServiceApp } from '@finsheet/platform'
import { Readable } from 'node:stream'
import { Type } from 'typebox'
import { cellsAnswerChunks, findTemplate, inputsAnswerChunks, inputsAnswerLines, toSheetCells } from '@finsheet/workbook'
import { spreadsheetErrors } from '../errors.js'
import { checkWorkbookName } from '../engine/translate.js'
import type { WorkbookState } from '../engine/workbook-state.js'
import type { WorkbookDoc } from '../storage/documents.js'
import { toChart } from '../workbooks/charts.js'
import { blankSnapshot, templateSnapshot } from '../workbooks/new-workbooks.js'
import { readImportStream } from '../workbooks/import-stream.js'
import { WorkbookImport } from '../workbooks/workbook-import.js'
import type { CreatedWorkbook, NewWorkbook } from '../workbooks/workbook-service.js'
import type { SpreadsheetServices } from './services.js'
import { answerStream, toMetadata, workbookTotals } from './responses.js'
import { ensureDefaultWorkbook } from './default-workbook.js'

const TRASH_RETENTION_MS = TRASH_RETENTION_DAYS * 24 * 60 * 60_000

const tags = ['workbooks']

export function workbookRoutes(app: ServiceApp, services: SpreadsheetServices, options: { importLimit: number }) {
  const { workbooks, versions } = services

  /** Stores a new workbook and its first version, described by `message` once its cells are counted. */
  const create = (user: AuthUser, input: NewWorkbook, firstVersion: { message: (counts: string) => string; tags: string[] }) =>
    workbooks.createWorkbook(user, input, async (workbook: WorkbookDoc, state: WorkbookState) => {
      await versions.createVersion(workbook, state, user, { type: 'major', message: firstVersion.message(describe(workbook)), tags: firstVersion.tags })
    })

  const describe = (workbook: WorkbookDoc) => {
    const totals = workbookTotals(workbook)
    const count = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`
    return `${count(workbook.sheets.length, 'sheet')}, ${count(totals.cells, 'cell')}, ${count(totals.formulas, 'formula')}`
  }

  /** Stores an import (either form) and answers with its recalculation report. */
  const storeImport = async (
    user: AuthUser,
    details: Pick<ImportWorkbookBody, 'name' | 'importId' | 'isAIGenerated' | 'iterativeCalculation' | 'storageUrl' | 'defaultFont'>,
    importer: WorkbookImport,
  ): Promise<{ status: 200 | 201; body: ImportWorkbookResponse }> => {
    const started = performance.now()
    const { state, recalculation } = importer.finish()
    services.metrics.recordRecalculation(performance.now() - started, 0)
    // The file's charts and pictures are stored before the workbook, which names where they are.
    const keptDrawings = await Promise.all(
      importer.drawings.map(async ({ sheetId, sheetIds, drawing }) => ({
        sheetId,
        sheetIds,
        key: await services.snapshots.putKeptDrawing(drawing),
        charts: drawing.charts.length,
        pictures: drawing.pictures,
      })),
    )
    const created = await create(
      user,
      {
        name: details.name.trim(),
        state,
        kind: 'import',
        label: 'Import workbook',
        isAIGenerated: details.isAIGenerated ?? false,
        iterativeCalculation: details.iterativeCalculation ?? false,
        storageUrl: details.storageUrl ?? null,
        importId: details.importId,
        recalculation,
        ...(keptDrawings.length > 0 ? { keptDrawings } : {}),
        ...(details.defaultFont ? { defaultFont: details.defaultFont } : {}),
      },
      { message: (counts) => `Imported ${counts}.`, tags: ['import'] },
    )
    return { status: created.repeated ? 200 : 201, body: importAnswer(created) }
  }

  const importAnswer = (created: CreatedWorkbook): ImportWorkbookResponse => {
    const totals = workbookTotals(created.workbook)
    return {
      success: true as const,
      workbookId: created.workbook.id,
      cellCount: totals.cells,
      formulaCount: totals.formulas,
      workbook: toMetadata(created.workbook),
      recalculation: created.recalculation ?? { checked: 0, matched: 0, mismatchCount: 0, mismatches: [] },
      repeated: created.repeated,
    }
  }

  /** An import whose id was stored already: its first answer, without reading its cells again. */
  const earlierImport = (user: AuthUser, importId: string | undefined) => (importId === undefined ? null : workbooks.findImport(user, importId))

  // The streamed import is read line by line in the route, never parsed whole.
  app.addContentTypeParser(IMPORT_STREAM_CONTENT_TYPE, (_request, payload, done) => done(null, payload))

  app.post(
    '/workbooks',
    {
      schema: {
        tags,
        summary: 'Create a workbook, blank (one sheet, Sheet1) or copied from a built-in template',
        body: CreateWorkbookBody,
        response: { 201: CreateWorkbookResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const { templateId } = request.body
      const template = templateId === undefined ? undefined : findTemplate(templateId)
      if (templateId !== undefined && !template) throw spreadsheetErrors.templateNotFound(templateId)
      const name = request.body.name === undefined ? (template?.name ?? 'Untitled workbook') : checkWorkbookName(request.body.name)
      const snapshot = template ? templateSnapshot(name, template) : blankSnapshot(name)
      const { workbook } = await create(
        user,
        { name, snapshot, templateId: template?.id ?? null, kind: 'create', label: template ? `Create from template ${template.name}` : 'Create workbook' },
        template
          ? { message: (counts) => `Created from the ${template.name} template: ${counts}.`, tags: ['template', template.category] }
          : { message: () => 'Created a blank workbook with Sheet1.', tags: ['created'] },
      )
      return reply.status(201).send({ success: true as const, workbookId: workbook.id, workbook: toMetadata(workbook) })
    },
  )

  app.post(
    '/workbooks/import',
    {
      bodyLimit: options.importLimit,
      schema: {
        tags,
        summary: 'Store a parsed workbook (every sheet, cell, formula, format, merge and width) in one atomic write',
        description:
          'The entry point of file imports: the files service parses an upload and sends the result here with the user’s token, as one JSON ' +
          'body or, for workbooks of any size, streamed as application/x-ndjson (a header line, lines of cells, an end line). Formulas sent ' +
          'with the value the file cached are checked after recalculation (`recalculation`). A request repeating an `importId` answers 200 ' +
          'with the workbook the first one stored.',
        body: {
          content: {
            'application/json': { schema: ImportWorkbookBody },
            [IMPORT_STREAM_CONTENT_TYPE]: { schema: Type.Unknown({ description: 'ImportStreamHeader, then ImportCellsLine lines, then ImportEndLine, one JSON value per line' }) },
          },
        },
        response: { 200: ImportWorkbookResponse, 201: ImportWorkbookResponse, 413: ErrorBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const body = request.body as ImportWorkbookBody | Readable
      if (body instanceof Readable) {
        let importer: WorkbookImport | undefined
        let repeated: CreatedWorkbook | null = null
        const { header } = await readImportStream(body, options.importLimit, async (header) => {
          checkWorkbookName(header.name)
          repeated = await earlierImport(user, header.importId)
          return repeated ? 'skip' : (importer = new WorkbookImport(header))
        })
        if (repeated) return reply.status(200).send(importAnswer(repeated))
        const answer = await storeImport(user, header, importer as WorkbookImport)
        return reply.status(answer.status).send(answer.body)
      }
      checkWorkbookName(body.name)
      const repeated = await earlierImport(user, body.importId)
      if (repeated) return reply.status(200).send(importAnswer(repeated))
      const importer = new WorkbookImport(body)
      for (const [index, sheet] of body.sheets.entries()) importer.addCells(index, sheet.cells)
      const answer = await storeImport(user, body, importer)
      return reply.status(answer.status).send(answer.body)
    },
  )

  app.post(
    '/workbooks/default',
    {
      schema: {
        tags,
        summary: "The user's first workbook (the one `defaultWorkbook` names), created on first use",
        description:
          'Creates it blank with Sheet1, or with the `sheets` sent (cells a browser kept for it before), and answers 201; once it exists, ' +
          'answers it with 200 and ignores `sheets`. Any route given the id `defaultWorkbook` creates it the same way.',
        body: EnsureDefaultWorkbookBody,
        response: { 200: DefaultWorkbookResponse, 201: DefaultWorkbookResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { workbook, created } = await ensureDefaultWorkbook(services, currentUser(request), request.body?.sheets)
      return reply.status(created ? 201 : 200).send({ success: true as const, workbookId: workbook.id, created, workbook: toMetadata(workbook) })
    },
  )

  app.post(
    '/workbooks/:id/duplicate',
    {
      schema: {
        tags,
        summary: 'Copy a workbook: every sheet, cell, style, format, name and chart, as a new workbook with its first version',
        params: WorkbookParams,
        body: DuplicateWorkbookBody,
        response: { 201: CreateWorkbookResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const asked = request.body?.name
      const name = asked === undefined ? null : checkWorkbookName(asked)
      const workbook = await workbooks.duplicateWorkbook(
        request.params.id,
        user,
        (source) => name ?? copyName(source.name),
        async (copy, state, source) => {
          await versions.createVersion(copy, state, user, { type: 'major', message: `Copied from ${source.name}: ${describe(copy)}.`, tags: ['copy'] })
        },
      )
      return reply.status(201).send({ success: true as const, workbookId: workbook.id, workbook: toMetadata(workbook) })
    },
  )

  app.post(
    '/workbooks/:id/restore',
    {
      schema: {
        tags,
        summary: 'Bring a deleted workbook back from the trash, with its cells, history and versions',
        params: WorkbookParams,
        response: { 200: WorkbookMetadataResponse, ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, workbook: toMetadata(await workbooks.restoreWorkbook(request.params.id, currentUser(request))) }),
  )

  app.get(
    '/workbooks',
    {
      schema: {
        tags,
        summary: "The user's workbooks, most recently changed first",
        querystring: ListWorkbooksQuery,
        response: { 200: ListWorkbooksResponse, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request)
      const limit = request.query.limit ?? DEFAULT_WORKBOOK_LIST_LIMIT
      const offset = request.query.offset ?? 0
      const [list, total] = await Promise.all([services.repo.listWorkbooks(user.uid, { limit, offset }), services.repo.countWorkbooks(user.uid)])
      return { success: true as const, workbooks: list.map(toMetadata), total, limit, offset }
    },
  )

  app.get(
    '/workbooks/:id',
    { schema: { tags, summary: 'Workbook metadata', params: WorkbookParams, response: { 200: WorkbookMetadataResponse, ...errorResponses } } },
    async (request) => ({ success: true as const, workbook: toMetadata(await workbooks.requireWorkbook(request.params.id, currentUser(request))) }),
  )

  app.patch(
    '/workbooks/:id',
    {
      schema: { tags, summary: 'Rename a workbook', params: WorkbookParams, body: RenameWorkbookBody, response: { 200: WorkbookMetadataResponse, ...errorResponses } },
    },
    async (request) => {
      const name = checkWorkbookName(request.body.name)
      return { success: true as const, workbook: toMetadata(await workbooks.renameWorkbook(request.params.id, currentUser(request), name)) }
    },
  )

  app.get(
    '/workbook/:id',
    {
      schema: {
        tags,
        summary: 'The whole workbook: metadata, every sheet with its cells, and charts with their data',
        params: WorkbookParams,
        response: { 200: FullWorkbookResponse, ...errorResponses },
      },
    },
    async (request) => {
      const workbook = await workbooks.requireWorkbook(request.params.id, currentUser(request))
      const snapshot = await workbooks.storedSnapshot(workbook)
      const totals = workbookTotals(workbook)
      const cellsBySheet = new Map(snapshot.sheets.map((sheet) => [sheet.id, sheet]))
      return {
        success: true as const,
        workbook: {
          workbookId: workbook.id,
          name: workbook.name,
          revision: workbook.revision,
          sheets: snapshot.sheets.map(toSheetCells),
          sheetOrder: snapshot.sheets.map((sheet) => sheet.name),
          totalCells: totals.cells,
          totalSheets: workbook.sheets.length,
          totalFormulas: totals.formulas,
          metadata: {
            createdAt: workbook.createdAt,
            updatedAt: workbook.updatedAt,
            lastModified: workbook.updatedAt,
            workbookName: workbook.name,
            sheetCount: workbook.sheets.length,
            cellCount: totals.cells,
            formulaCount: totals.formulas,
            templateId: workbook.templateId,
            charts: workbook.charts.map((chart) => {
              const sheet = cellsBySheet.get(chart.sheetId)
              return toChart(chart, sheet?.name ?? '', sheet?.cells ?? [])
            }),
          },
          createdBy: workbook.ownerId,
          isAIGenerated: workbook.isAIGenerated,
          storageUrl: workbook.storageUrl,
        },
      }
    },
  )

  app.delete(
    '/workbook/:id',
    {
      schema: {
        tags,
        summary: `Delete a workbook: it goes to the trash with its cells, history and versions, restorable for ${TRASH_RETENTION_DAYS} days`,
        params: WorkbookParams,
        response: { 200: DeleteWorkbookResponse, ...errorResponses },
      },
    },
    async (request) => {
      const trashed = await workbooks.deleteWorkbook(request.params.id, currentUser(request), TRASH_RETENTION_MS)
      return { success: true as const, workbookId: trashed.id, restorableUntil: trashed.restorableUntil }
    },
  )

  app.get(
    '/workbook/:id/cells',
    {
      schema: {
        tags: ['cells'],
        summary: 'Cells keyed by address, with value, formula, style, format and type; ?sheet= reads that sheet only',
        params: WorkbookParams,
        querystring: CellsQuery,
        // A CellsResponse, sent as a stream of its JSON text (see cellsAnswerChunks).
        response: { 200: Type.Unsafe<Readable>(CellsResponse), ...errorResponses },
      },
    },
    async (request, reply) => {
      const workbook = await workbooks.requireWorkbook(request.params.id, currentUser(request))
      const onlySheet = sheetIdOf(workbook, request.query.sheet)
      // Written cell by cell as it is sent, a band of rows decoded at a time: the search index reads
      // whole workbooks this way, and a million cells made into one answer held the service for seconds.
      const snapshot = await workbooks.storedSnapshotInBands(workbook, onlySheet)
      const chunks = cellsAnswerChunks(snapshot, { workbookId: workbook.id, sheetOrder: workbook.sheets.map((sheet) => sheet.name), totalCells: workbookTotals(workbook).cells })
      return reply.header('content-type', 'application/json; charset=utf-8').send(answerStream(chunks))
    },
  )

  app.get(
    '/workbook/:id/inputs',
    {
      schema: {
        tags: ['cells'],
        summary: 'Inputs, styles and formats row by row, without values: how the web app opens a workbook it recalculates itself; ?sheet= reads that sheet only',
        description: 'With Accept: application/x-ndjson the answer comes as lines of JSON (InputsLine), for a client that loads the cells as they arrive.',
        params: WorkbookParams,
        querystring: CellsQuery,
        // An InputsResponse, sent as a stream of its JSON text (see inputsAnswerChunks).
        response: { 200: Type.Unsafe<Readable>(InputsResponse), ...errorResponses },
      },
    },
    async (request, reply) => {
      const workbook = await workbooks.requireWorkbook(request.params.id, currentUser(request))
      const onlySheet = sheetIdOf(workbook, request.query.sheet)
      const snapshot = await workbooks.storedSnapshotInBands(workbook, onlySheet)
      const sheetOrder = workbook.sheets.map((sheet) => sheet.name)
      const options = { iterativeCalculation: workbook.iterativeCalculation === true, iterationLimits: workbook.iterationLimits }
      // Written cell by cell as it is sent: a million cells never become a million tuples or one string.
      // As lines of JSON, a client loads the cells as they arrive (see InputsLine).
      const lines = request.headers.accept?.includes(INPUTS_LINES_CONTENT_TYPE) === true
      const chunks = lines ? inputsAnswerLines(snapshot, workbook.id, sheetOrder, options) : inputsAnswerChunks(snapshot, workbook.id, sheetOrder, options)
      return reply.header('content-type', lines ? `${INPUTS_LINES_CONTENT_TYPE}; charset=utf-8` : 'application/json; charset=utf-8').send(answerStream(chunks))
    },
  )

  app.get(
    '/workbook/:id/window',
    {
      schema: {
        tags: ['cells'],
        summary: `Rows of one sheet with their calculated values, its layout and extent, and the sheet list: the first screen of a large workbook (at most ${MAX_WINDOW_ROWS} rows)`,
        description:
          'Reads only the stored blocks covering the rows (bands of 32 rows), never the whole workbook. `startRow` and `endRow` are 1-based and ' +
          'both included; rows past the end of the sheet answer no cells. Without `sheet`, the first sheet is read.',
        params: WorkbookParams,
        querystring: WindowQuery,
        response: { 200: WindowResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { startRow, endRow } = request.query
      if (endRow < startRow) throw spreadsheetErrors.invalidWindow(`endRow (${endRow}) is before startRow (${startRow})`)
      if (endRow - startRow + 1 > MAX_WINDOW_ROWS) throw spreadsheetErrors.invalidWindow(`A window spans at most ${MAX_WINDOW_ROWS} rows; rows ${startRow} to ${endRow} are ${endRow - startRow + 1}`)
      const asked = await workbooks.requireWorkbook(request.params.id, currentUser(request))
      const sheetId = sheetIdOf(asked, request.query.sheet) ?? asked.sheets[0].id
      const first = startRow - 1
      const last = endRow - 1
      const {
        workbook,
        read: [stored, extent],
      } = await workbooks.readThroughLayouts(
        asked,
        (layouts) => Promise.all([services.repo.bandCells(asked.id, sheetId, first, last, layouts?.[sheetId]), services.repo.sheetExtent(asked.id, sheetId, layouts?.[sheetId])]),
        sheetId,
      )
      const sheet = workbook.sheets.find((candidate) => candidate.id === sheetId)!
      const cells = stored.filter((cell) => cell.row >= first && cell.row <= last)
      const shown = toSheetCells({ ...sheet, cells })
      return {
        success: true as const,
        workbook: {
          workbookId: workbook.id,
          name: workbook.name,
          revision: workbook.revision,
          sheetOrder: workbook.sheets.map((candidate) => candidate.name),
          hiddenSheets: workbook.sheets.filter((candidate) => candidate.view?.hidden).map((candidate) => candidate.name),
          totalCells: workbookTotals(workbook).cells,
          iterativeCalculation: workbook.iterativeCalculation === true,
          ...(workbook.defaultFont ? { defaultFont: workbook.defaultFont } : {}),
          startRow,
          endRow,
          sheet: { ...shown, rowCount: Math.max(extent.rows, shown.rowCount), columnCount: Math.max(extent.columns, shown.columnCount) },
        },
      }
    },
  )
}

/** The id of the sheet a `?sheet=` names (exactly, else ignoring case); undefined for every sheet. */
function sheetIdOf(workbook: WorkbookDoc, sheetName: string | undefined): string | undefined {
  if (sheetName === undefined) return undefined
  const sheet = workbook.sheets.find((candidate) => candidate.name === sheetName) ?? workbook.sheets.find((candidate) => candidate.name.toUpperCase() === sheetName.toUpperCase())
  if (!sheet) throw spreadsheetErrors.sheetNotFound(sheetName)
  return sheet.id
}
