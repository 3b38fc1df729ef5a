import { AvailableModelsResponse, CHAT_STREAM_EVENTS, ChatBody, ChatResponse, ErrorBody } from '@finsheet/contracts'
import { bearerTokenFrom, currentUser, errorResponses, type ServiceApp } from '@finsheet/platform'
import { runChat, type AssistantServices } from '../chat/chat-service.js'
import { EventStream, wantsEventStream } from './event-stream.js'
import { clientGoneSignal } from './request-signal.js'

export function chatRoutes(app: ServiceApp, services: AssistantServices) {
  const tags = ['assistant']

  app.get(
    '/availableModels',
    {
      schema: {
        tags,
        summary: 'The models the assistant offers, grouped by provider; unconfigured ones are listed unavailable with the reason, and defaultModel names the default',
        response: { 200: AvailableModelsResponse, ...errorResponses },
      },
    },
    async () => ({ models: services.registry.list(), defaultModel: services.registry.defaultModel }),
  )

  app.post(
    '/chat',
    {
      schema: {
        tags,
        summary: 'Answer a message with the chosen model (or offline with model local)',
        description:
          'Sent with `Accept: text/event-stream`, the answer streams as server-sent events: `delta` {text} as it is generated, `tool_call` and `tool_result` when the model reads the workbook, then `done` with the whole response (or `error` {error} once the stream has begun).',
        body: ChatBody,
        response: { 200: ChatResponse, 413: ErrorBody, 429: ErrorBody, 502: ErrorBody, 504: ErrorBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      const input = { user: currentUser(request), token: bearerTokenFrom(request.headers.authorization), body: request.body, signal: clientGoneSignal(reply) }
      if (!wantsEventStream(request)) return runChat(services, input)
      const stream = new EventStream(request, reply)
      try {
        const result = await runChat(services, {
          ...input,
          events: {
            delta: (text) => stream.send(CHAT_STREAM_EVENTS.delta, { text }),
            toolCall: (call) => stream.send(CHAT_STREAM_EVENTS.toolCall, call),
            toolResult: (result) => stream.send(CHAT_STREAM_EVENTS.toolResult, result),
          },
        })
        stream.send(CHAT_STREAM_EVENTS.done, result)
        stream.end()
      } catch (error) {
        if (!stream.started) throw error
        stream.fail(error)
      }
      return reply
    },
  )
}
