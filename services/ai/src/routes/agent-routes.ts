/**
 * Agent mode and model generation. The web app names both under /api/spreadsheet; the contracts'
 * SPREADSHEET_AI_ROUTES send them here, since running a model is this service's work.
 */
import {
  ErrorBody,
  FinancialModelResult,
  GenerateFinancialModelBody,
  PROCESS_ACTION_STREAM_EVENTS,
  ProcessActionBody,
  ProcessActionResponse,
  SPREADSHEET_AI_ROUTES,
} from '@finsheet/contracts'
import { bearerTokenFrom, currentUser, errorResponses, type ServiceApp } from '@finsheet/platform'
import { processAction, type AgentServices } from '../agent/agent-service.js'
import { aiErrors } from '../errors.js'
import { ProviderError } from '../providers/provider-error.js'
import { EventStream, wantsEventStream } from './event-stream.js'
import { clientGoneSignal } from './request-signal.js'

export function agentRoutes(app: ServiceApp, services: AgentServices) {
  const events = PROCESS_ACTION_STREAM_EVENTS

  app.post(
    SPREADSHEET_AI_ROUTES.processAction.servicePath,
    {
      schema: {
        tags: ['agent'],
        summary: 'Carry out a command on a workbook with the chosen model and the workbook tools, or create a new financial model',
        description:
          'Public path: POST /api/spreadsheet/process-action. Every write goes into one changeset, applied as one change (one undo reverts it) when the model finishes; ' +
          'with preview: true it stays a draft for POST /api/spreadsheet/changesets/{id}/apply or /discard. A command that does not finish writes nothing and answers success: false with the reason. ' +
          'Sent with `Accept: text/event-stream`, progress streams as server-sent events: `delta` {text}, `tool_call` {id, name, description} before a tool runs, `tool_result` (the step), ' +
          '`changeset` (where it stands after a turn that wrote), `progress` {percent, message} while a model is generated, then `done` with the whole response (or `error` {error} once the stream has begun).',
        body: ProcessActionBody,
        response: { 200: ProcessActionResponse, 413: ErrorBody, 429: ErrorBody, 502: ErrorBody, 503: ErrorBody, 504: ErrorBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      const input = { user: currentUser(request), token: bearerTokenFrom(request.headers.authorization), body: request.body, signal: clientGoneSignal(reply) }
      if (!wantsEventStream(request)) return processAction(services, input)
      const stream = new EventStream(request, reply)
      try {
        const result = await processAction(services, {
          ...input,
          events: {
            delta: (text) => stream.send(events.delta, { text }),
            toolCall: (call) => stream.send(events.toolCall, call),
            toolResult: (step) => stream.send(events.toolResult, step),
            changeset: (changeset) => stream.send(events.changeset, { changeset }),
            progress: (progress) => stream.send(events.progress, progress),
          },
        })
        stream.send(events.done, result)
        stream.end()
      } catch (error) {
        if (!stream.started) throw error
        stream.fail(error)
      }
      return reply
    },
  )

  app.post(
    SPREADSHEET_AI_ROUTES.generateFinancialModel.servicePath,
    {
      schema: {
        tags: ['agent'],
        summary: 'Generate a financial model (DCF, LBO, ...) for a company as a new workbook',
        description: 'Public path: POST /api/spreadsheet/generate-financial-model. Parameters default to projectionYears 5 and terminalGrowthRate 2.5. 503 when this server has no model generator.',
        body: GenerateFinancialModelBody,
        response: { 200: FinancialModelResult, 429: ErrorBody, 502: ErrorBody, 503: ErrorBody, 504: ErrorBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      const generator = services.modelGenerator
      if (!generator) throw aiErrors.modelGenerationUnavailable()
      try {
        return await generator.generate(currentUser(request), request.body, { signal: clientGoneSignal(reply), token: bearerTokenFrom(request.headers.authorization) })
      } catch (error) {
        if (error instanceof ProviderError) throw aiErrors.provider(error)
        throw error
      }
    },
  )
}
