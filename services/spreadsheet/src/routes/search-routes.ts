import { SearchCellsBody, SearchCellsResponse } from '@finsheet/contracts'
import { currentUser, errorResponses, type ServiceApp } from '@finsheet/platform'
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
        response: { 200: SearchCellsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request)
      const workbooks = request.body.workbookId
        ? [await services.workbooks.requireWorkbook(request.body.workbookId, user)]
        : await services.repo.allWorkbooks(user.uid)
      const { results, truncated } = await searchCells(services.repo, workbooks, request.body)
      return { success: true as const, query: request.body.query, results, truncated }
    },
  )
}
