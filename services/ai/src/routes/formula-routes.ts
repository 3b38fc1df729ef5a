import { ErrorBody, FormulaSuggestionsResponse, GenerateFormulaBody, SuggestionsBody } from '@finsheet/contracts'
import { bearerTokenFrom, currentUser, errorResponses, type ServiceApp } from '@finsheet/platform'
import type { AssistantServices } from '../chat/chat-service.js'
import { aiErrors } from '../errors.js'
import { suggestFormulas } from '../formulas/formula-suggestions.js'
import { clientGoneSignal } from './request-signal.js'

export function formulaRoutes(app: ServiceApp, services: AssistantServices) {
  const tags = ['formulas']
  const response = { 200: FormulaSuggestionsResponse, 429: ErrorBody, 502: ErrorBody, 504: ErrorBody, ...errorResponses }

  app.post(
    '/generate-formula',
    {
      schema: {
        tags,
        summary: 'Formulas for what the user describes, each with its function’s help and its result in the workbook',
        body: GenerateFormulaBody,
        response,
      },
    },
    async (request, reply) => {
      if (request.body.description.trim() === '') throw aiErrors.emptyDescription()
      return suggestFormulas(services, {
        user: currentUser(request),
        token: bearerTokenFrom(request.headers.authorization),
        text: request.body.description,
        workbookId: request.body.workbookId,
        context: request.body.context,
        model: request.body.model,
        purpose: 'generate-formula',
        signal: clientGoneSignal(reply),
      })
    },
  )

  app.post(
    '/suggestions',
    {
      schema: {
        tags,
        summary: 'Formulas that fit the selection (or the query), each with its function’s help and its result in the workbook',
        body: SuggestionsBody,
        response,
      },
    },
    async (request, reply) =>
      suggestFormulas(services, {
        user: currentUser(request),
        token: bearerTokenFrom(request.headers.authorization),
        text: request.body.query,
        workbookId: request.body.workbookId,
        context: request.body.context,
        model: request.body.model,
        purpose: 'suggestions',
        signal: clientGoneSignal(reply),
      }),
  )
}
