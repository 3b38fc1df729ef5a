/**
 * A local server speaking OpenAI's Chat Completions API (`POST /v1/chat/completions`), whole and
 * streamed (server-sent `data:` chunks ending with `[DONE]`, tool-call arguments in pieces), for the
 * real `openai` SDK. Its `url` is what OPENAI_BASE_URL takes.
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

const FINISH_REASONS = { end_turn: 'stop', tool_use: 'tool_calls', max_tokens: 'length', content_filter: 'content_filter' } as const

const ERROR_TYPES: Record<number, [type: string, code: string | null]> = {
  400: ['invalid_request_error', null],
  401: ['invalid_request_error', 'invalid_api_key'],
  404: ['invalid_request_error', 'model_not_found'],
  429: ['requests', 'rate_limit_exceeded'],
}

let completions = 0

const openAiDialect: ApiDialect = {
  name: 'OpenAI',
  isCompletionRoute: (method, path) => method === 'POST' && (path === '/v1/chat/completions' || path === '/chat/completions'),
  credentialOf: (request) => /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1],
  sendError(response, status, message, headers) {
    const [type, code] = ERROR_TYPES[status] ?? ['server_error', null]
    sendJson(response, status, { error: { message, type, param: null, code } }, headers)
  },
  async sendReply(request, reply, response) {
    const id = `chatcmpl-${++completions}`
    const created = Math.floor(Date.now() / 1000)
    const model = String(request.body?.model ?? 'gpt-4o')
    const calls = (reply.toolCalls ?? []).map((call, index) => ({ id: call.id ?? `call_${completions}_${index}`, name: call.name, text: argumentText(call) }))
    const finish = FINISH_REASONS[reply.stopReason ?? (calls.length > 0 ? 'tool_use' : 'end_turn')]
    const usage = defaultUsage(request, reply)
    const openAiUsage = { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: usage.inputTokens + usage.outputTokens }
    if (request.body?.stream !== true) {
      sendJson(response, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: reply.text ?? null,
              refusal: null,
              ...(calls.length > 0 ? { tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.text } })) } : {}),
            },
            logprobs: null,
            finish_reason: finish,
          },
        ],
        usage: openAiUsage,
      })
      return
    }
    startEventStream(response)
    const write = pacedWriter(response, reply.paceMs)
    const chunk = (delta: object, finishReason: string | null = null) =>
      write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`)
    await chunk({ role: 'assistant', content: '', refusal: null })
    for (const piece of textPieces(reply.text ?? '')) await chunk({ content: piece })
    if (reply.cutOff) return cutOff(response)
    for (const [index, call] of calls.entries()) {
      await chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] })
      for (const piece of jsonPieces(call.text)) await chunk({ tool_calls: [{ index, function: { arguments: piece } }] })
    }
    await chunk({}, finish)
    if (request.body?.stream_options?.include_usage) await write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: openAiUsage })}\n\n`)
    await write('data: [DONE]\n\n')
    response.end()
  },
}

/** Starts the stub; `url` ends in /v1, as OpenAI's own base URL does. */
export async function startOpenAiStub(options: StubOptions = {}): Promise<StubServer> {
  const server = await startStubServer(openAiDialect, options)
  return { ...server, url: `${server.url}/v1` }
}
