/**
 * A local server speaking Anthropic's Messages API (`POST /v1/messages`), whole and streamed (the
 * named server-sent events message_start, content_block_start/delta/stop, message_delta and
 * message_stop, tool input as input_json_delta pieces), for the real `@anthropic-ai/sdk`. Its `url`
 * is what ANTHROPIC_BASE_URL takes.
 */
import {
  argumentText,
  defaultUsage,
  jsonPieces,
  pacedWriter,
  sendJson,
  startEventStream,
  startStubServer,
  cutOff,
  textPieces,
  type ApiDialect,
  type StubOptions,
  type StubServer,
} from './scripted-server.js'

const STOP_REASONS = { end_turn: 'end_turn', tool_use: 'tool_use', max_tokens: 'max_tokens', content_filter: 'refusal' } as const

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
}

let messages = 0

const anthropicDialect: ApiDialect = {
  name: 'Anthropic',
  isCompletionRoute: (method, path) => method === 'POST' && path === '/v1/messages',
  credentialOf: (request) => request.headers['x-api-key'] || undefined,
  sendError(response, status, message, headers) {
    sendJson(response, status, { type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } }, { 'request-id': `req_stub_${messages}`, ...headers })
  },
  async sendReply(request, reply, response) {
    const id = `msg_stub_${++messages}`
    const model = String(request.body?.model ?? 'claude-sonnet-4-6')
    const calls = (reply.toolCalls ?? []).map((call, index) => ({ id: call.id ?? `toolu_${messages}_${index}`, name: call.name, text: argumentText(call), call }))
    const stopReason = STOP_REASONS[reply.stopReason ?? (calls.length > 0 ? 'tool_use' : 'end_turn')]
    const usage = defaultUsage(request, reply)
    const text = reply.text ?? ''
    if (request.body?.stream !== true) {
      const content: object[] = []
      if (text !== '') content.push({ type: 'text', text })
      for (const { id: callId, name, call } of calls) {
        // The API always sends an object; a scripted text is sent as it is, to test what a client makes of it.
        content.push({ type: 'tool_use', id: callId, name, input: typeof call.arguments === 'string' ? safeParse(call.arguments) : call.arguments })
      }
      sendJson(response, 200, {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
      })
      return
    }
    startEventStream(response)
    const write = pacedWriter(response, reply.paceMs)
    const event = (name: string, data: object) => write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)
    await event('message_start', {
      type: 'message_start',
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.inputTokens, output_tokens: 1 } },
    })
    let index = 0
    if (text !== '') {
      await event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } })
      await event('ping', { type: 'ping' })
      for (const piece of textPieces(text)) await event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } })
      if (reply.cutOff) return cutOff(response)
      await event('content_block_stop', { type: 'content_block_stop', index })
      index++
    }
    for (const call of calls) {
      await event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } })
      for (const piece of jsonPieces(call.text)) await event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } })
      await event('content_block_stop', { type: 'content_block_stop', index })
      index++
    }
    await event('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.outputTokens } })
    await event('message_stop', { type: 'message_stop' })
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

export function startAnthropicStub(options: StubOptions = {}): Promise<StubServer> {
  return startStubServer(anthropicDialect, options)
}
