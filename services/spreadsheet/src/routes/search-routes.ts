import { ErrorBody, SearchCellsBody, SearchCellsResponse } from '@finsheet/contracts'
import { AppError, bearerTokenFrom, currentUser, errorResponses, type ServiceApp } from '@finsheet/platform'
import type { SearchResult } from '@finsheet/contracts'
import { columnToLetters, parseAddress } from '@finsheet/formula'
import { spreadsheetErrors } from '../errors.js'
import { searchCells } from '../workbooks/search.js'
import type { SpreadsheetServices } from './services.js'

export function searchRoutes(app: ServiceApp, services: SpreadsheetServices) {
  app.post(
    '/search-cells',
    {
      schema: {
        tags: ['search'],
        summary: "Find cells by value or formula text across the user's workbooks (or one of them)",
        body: SearchCellsBody,
        response: { 200: SearchCellsResponse, ...errorResponses, 503: ErrorBody },
      },
    },
    async (request) => {
      const user = currentUser(request)
      if (request.body.semantic) return semanticSearch(services, request.body, bearerTokenFrom(request.headers.authorization))
      const workbooks = request.body.workbookId
        ? [await services.workbooks.requireWorkbook(request.body.workbookId, user)]
        : await services.repo.allWorkbooks(user.uid)
      const { results, truncated } = await searchCells(services.repo, workbooks, request.body)
      return { success: true as const, query: request.body.query, results, truncated }
    },
  )
}

/**
 * search-cells with `semantic: true`: the vector search's cells of the user's own indexed workbooks,
 * in the shape of a text search's results (matched in: meaning), best first.
 */
async function semanticSearch(services: SpreadsheetServices, body: SearchCellsBody, token: string) {
  if (!services.vectorSearch) throw new AppError('VECTOR_SEARCH_UNAVAILABLE', 503, 'The vector search is not configured')
  const limit = body.limit ?? 20
  // The vector search reads more than asked when a sheet filter will drop some.
  const matches = await services.vectorSearch.searchCells(token, { query: body.query, ...(body.workbookId ? { workbookId: body.workbookId } : {}), options: { limit: Math.min(100, body.sheet ? limit * 4 : limit) } })
  if (matches === null) throw spreadsheetErrors.workbookNotFound()
  const results: SearchResult[] = matches
    .filter((match) => body.sheet === undefined || match.sheet.toUpperCase() === body.sheet.toUpperCase())
    .slice(0, limit)
    .map((match) => {
      const { row, col } = parseAddress(match.address)
      const type = match.value === null ? 'empty' : typeof match.value === 'number' ? 'number' : typeof match.value === 'boolean' ? 'boolean' : /^#[A-Z0-9/]+[!?]?$/.test(match.value) ? 'error' : 'text'
      return {
        workbookId: match.workbookId,
        sheet: match.sheet,
        address: match.address,
        value: match.value,
        formula: match.formula,
        display: match.value === null ? '' : String(match.value),
        metadata: { workbookName: match.workbookName, sheetName: match.sheet, row: row + 1, column: columnToLetters(col), type, matchedIn: 'meaning' as const, label: match.label, score: match.score },
      }
    })
  return { success: true as const, query: body.query, results, truncated: matches.length > results.length }
}
