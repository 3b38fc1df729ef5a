/**
 * A local server speaking Vertex AI's Gemini API (`POST /v1beta1/projects/{project}/locations/
 * {location}/publishers/google/models/{model}:generateContent`, and `:streamGenerateContent?alt=sse`
 * with `data:` chunks), for the real `@google/genai` client in Vertex mode pointed at its `url`.
 * Requests must carry `Authorization: Bearer <apiKey>` when an apiKey is set.
 */
import { argumentText, cutOff, defaultUsage, pacedWriter, sendJson, startEventStream, startStubServer, textPieces, type ApiDialect, type StubOptions, type StubServer } from './scripted-server.js'

const ROUTE = /^\/v1(beta1)?\/projects\/[^/]+\/locations\/[^/]+\/publishers\/google\/models\/[^/:]+:(generateContent|streamGenerateContent)$/
const FINISH_REASONS = { end_turn: 'STOP', tool_use: 'STOP', max_tokens: 'MAX_TOKENS', content_filter: 'SAFETY' } as const
const STATUSES: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 503: 'UNAVAILABLE' }

let responses = 0

const vertexDialect: ApiDialect = {
  name: 'Vertex AI',
  isCompletionRoute: (method, path) => method === 'POST' && ROUTE.test(path),
  credentialOf: (request) => /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1],
  sendError(response, status, message, headers) {
    sendJson(response, status, { error: { code: status, message, status: STATUSES[status] ?? 'INTERNAL' } }, headers)
  },
  async sendReply(request, reply, response) {
    const responseId = `stub-${++responses}`
    const modelVersion = /models\/([^/:]+):/.exec(request.path)?.[1] ?? 'gemini-2.5-flash'
    const usage = defaultUsage(request, reply)
    const usageMetadata = { promptTokenCount: usage.inputTokens, candidatesTokenCount: usage.outputTokens, totalTokenCount: usage.inputTokens + usage.outputTokens }
    const finishReason = FINISH_REASONS[reply.stopReason ?? 'end_turn']
    const callParts = (reply.toolCalls ?? []).map((call) => ({
      functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: typeof call.arguments === 'string' ? safeParse(argumentText(call)) : call.arguments },
    }))
    if (!request.path.endsWith(':streamGenerateContent')) {
      const parts = [...(reply.text ? [{ text: reply.text }] : []), ...callParts]
      sendJson(response, 200, { candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }], usageMetadata, modelVersion, responseId })
      return
    }
    startEventStream(response)
    const write = pacedWriter(response, reply.paceMs)
    const chunk = (data: object) => write(`data: ${JSON.stringify(data)}\r\n\r\n`)
    for (const piece of textPieces(reply.text ?? '')) await chunk({ candidates: [{ content: { role: 'model', parts: [{ text: piece }] }, index: 0 }], modelVersion, responseId })
    if (reply.cutOff) return cutOff(response)
    // Gemini sends each function call whole, in one chunk.
    for (const part of callParts) await chunk({ candidates: [{ content: { role: 'model', parts: [part] }, index: 0 }], modelVersion, responseId })
    await chunk({ candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason, index: 0 }], usageMetadata, modelVersion, responseId })
    response.end()
  },
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export function startVertexStub(options: StubOptions = {}): Promise<StubServer> {
  return startStubServer(vertexDialect, options)
}
