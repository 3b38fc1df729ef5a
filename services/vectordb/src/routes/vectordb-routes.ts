import { Type } from 'typebox'
import {
  AnalyzeWorkbookBody,
  AnalyzeWorkbookResponse,
  DEFAULT_SEARCH_LIMIT,
  ErrorBody,
  IndexedWorkbooksResponse,
  IndexWorkbookParams,
  IndexWorkbookResponse,
  JobStatusResponse,
  SearchFormulasBody,
  SearchFormulasResponse,
  VectorSearchCellsBody,
  VectorSearchCellsResponse,
} from '@finsheet/contracts'
import { bearerTokenFrom, currentUser, errorResponses, type AuthUser, type ServiceApp } from '@finsheet/platform'
import type { FastifyRequest } from 'fastify'
import { analyzeWorkbook } from '../analysis/analyze-workbook.js'
import type { AnalysisNarrator } from '../analysis/narrator.js'
import { vectordbErrors } from '../errors.js'
import type { IndexJobs } from '../index-jobs.js'
import type { CellSearch } from '../search/cell-search.js'
import type { FormulaSearch } from '../search/formula-search.js'
import { searchableQuery } from '../search/query.js'
import { SpreadsheetUnavailableError, type SpreadsheetReader } from '../spreadsheet-client.js'

export interface VectordbRouteDependencies {
  formulas: FormulaSearch
  cells: CellSearch
  jobs: IndexJobs
  spreadsheet: SpreadsheetReader
  narrator: AnalysisNarrator
}

const withUnavailable = { ...errorResponses, 503: ErrorBody }

export function vectordbRoutes(app: ServiceApp, deps: VectordbRouteDependencies) {
  /** During a request the service reads the spreadsheet service as the caller, with the caller's token. */
  const callerToken = (request: FastifyRequest) => bearerTokenFrom(request.headers.authorization)
  const spreadsheetCall = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (error) {
      if (error instanceof SpreadsheetUnavailableError) throw vectordbErrors.spreadsheetUnavailable()
      throw error
    }
  }
  /** 404 unless the workbook is the caller's: known from the index, or asked of the spreadsheet service. */
  const requireOwnWorkbook = async (request: FastifyRequest, user: AuthUser, workbookId: string) => {
    const indexed = await deps.cells.indexedWorkbook(workbookId)
    if (indexed) {
      if (indexed.ownerId !== user.uid) throw vectordbErrors.workbookNotFound()
      return
    }
    if (!(await spreadsheetCall(() => deps.spreadsheet.hasWorkbook(callerToken(request), workbookId)))) throw vectordbErrors.workbookNotFound()
  }
  const queryOf = (query: string) => {
    const searchable = searchableQuery(query)
    if (!searchable) throw vectordbErrors.emptyQuery()
    return searchable
  }

  app.post(
    '/search/formulas',
    {
      schema: {
        tags: ['search'],
        summary: "Functions of the engine's catalogue by what they do ('monthly loan payment' → PMT); a name typed exactly comes first",
        body: SearchFormulasBody,
        response: { 200: SearchFormulasResponse, ...errorResponses },
      },
    },
    async (request) => {
      const query = queryOf(request.body.query)
      return { query, results: await deps.formulas.search(query, request.body.options?.limit ?? DEFAULT_SEARCH_LIMIT) }
    },
  )

  app.post(
    '/search/cells',
    {
      schema: {
        tags: ['search'],
        summary: "Cells of the caller's indexed workbooks by meaning ('free cash flow', 'discount rate'): row labels, headers, figures and texts",
        body: VectorSearchCellsBody,
        response: { 200: VectorSearchCellsResponse, ...withUnavailable },
      },
    },
    async (request) => {
      const user = currentUser(request)
      const query = queryOf(request.body.query)
      if (request.body.workbookId) await requireOwnWorkbook(request, user, request.body.workbookId)
      const results = await deps.cells.search(query, user.uid, { workbookId: request.body.workbookId, limit: request.body.options?.limit ?? DEFAULT_SEARCH_LIMIT })
      return { query, results }
    },
  )

  app.post(
    '/index/workbook/:id',
    {
      schema: {
        tags: ['indexing'],
        summary: 'Index (again) one of the caller\'s workbooks on the vectordb.index-workbook queue; answers 202 with the job',
        params: IndexWorkbookParams,
        response: { 202: IndexWorkbookResponse, ...withUnavailable },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      if (!(await spreadsheetCall(() => deps.spreadsheet.hasWorkbook(callerToken(request), request.params.id)))) throw vectordbErrors.workbookNotFound()
      const jobId = await deps.jobs.enqueueIndex(request.params.id, user.uid)
      return reply.status(202).send({ success: true as const, workbookId: request.params.id, jobId })
    },
  )

  app.delete(
    '/index/workbook/:id',
    {
      schema: {
        tags: ['indexing'],
        summary: "Remove one of the caller's workbooks from the index",
        params: IndexWorkbookParams,
        response: { 200: Type.Object({ success: Type.Literal(true), removed: Type.Boolean() }), ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request)
      const indexed = await deps.cells.indexedWorkbook(request.params.id)
      if (indexed && indexed.ownerId !== user.uid) throw vectordbErrors.workbookNotFound()
      return { success: true as const, removed: await deps.cells.remove(request.params.id, user.uid) }
    },
  )

  app.get(
    '/indexed-workbooks',
    {
      schema: {
        tags: ['indexing'],
        summary: "The caller's indexed workbooks, most recently indexed first (Import from Vector DB)",
        response: { 200: IndexedWorkbooksResponse, ...errorResponses },
      },
    },
    async (request) => ({ workbooks: await deps.cells.indexedWorkbooks(currentUser(request).uid) }),
  )

  app.get(
    '/jobs/:id',
    {
      schema: {
        tags: ['indexing'],
        summary: "An index job's state and progress; someone else's job answers 404",
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: JobStatusResponse, ...errorResponses },
      },
    },
    async (request) => {
      const job = await deps.jobs.get(request.params.id).catch(() => null)
      if (!job || job.data.userId !== currentUser(request).uid) throw vectordbErrors.jobNotFound()
      return {
        id: job.id,
        name: job.name,
        state: job.state,
        progress: job.progress,
        attemptsMade: job.attemptsMade,
        ...(job.result !== undefined ? { result: job.result } : {}),
        ...(job.failedReason ? { failedReason: job.failedReason } : {}),
      }
    },
  )

  app.post(
    '/analyze/claude',
    {
      schema: {
        tags: ['analysis'],
        summary: "A structured analysis of one of the caller's workbooks: key drivers, outputs, errors and hard-coded numbers in formula rows",
        body: AnalyzeWorkbookBody,
        response: { 200: AnalyzeWorkbookResponse, ...withUnavailable },
      },
    },
    async (request) => {
      const workbook = await spreadsheetCall(() => deps.spreadsheet.workbookCells(callerToken(request), request.body.workbookId))
      if (!workbook) throw vectordbErrors.workbookNotFound()
      const findings = analyzeWorkbook(workbook, { analysisType: request.body.analysisType, limit: request.body.options?.limit, sheet: request.body.options?.sheet })
      return { success: true as const, analysis: { ...findings, summary: await deps.narrator.narrate(findings), narrator: deps.narrator.name } }
    },
  )
}
