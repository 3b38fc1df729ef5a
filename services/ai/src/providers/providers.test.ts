/**
 * The three providers, each through its real SDK against a local server speaking its HTTP API:
 * answers whole and streamed, tool calls in a row and in parallel, malformed arguments, and every
 * failure the retry policy and the error mapping must handle.
 */
import { OAuth2Client } from 'google-auth-library'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startAnthropicStub, startOpenAiStub, startVertexStub, type RecordedRequest, type StubServer } from '../testing/index.js'
import { createAnthropicProvider } from './anthropic-provider.js'
import type { ChatProvider, CompletionResult, ConversationMessage, ToolSpec } from './conversation.js'
import { createOpenAiProvider } from './openai-provider.js'
import { ProviderError } from './provider-error.js'
import { createVertexProvider } from './vertex-provider.js'

const KEY = 'sk-test-4f9a2c7e1b3d5f60'
const TIMEOUT_MS = 400

/** What a test reads back from the requests a stub received, in that API's own format. */
interface WireFormat {
  toolsOffered(body: RecordedRequest['body']): string[]
  /** The tool results the last message carries: id (or name for Gemini), text, error flag. */
  resultsSent(body: RecordedRequest['body']): Array<{ ref: string; content: string; isError: boolean }>
  /** The tool calls of the assistant turn sent back: name and argument text. */
  callsSentBack(body: RecordedRequest['body']): Array<{ name: string; args: string }>
  system(body: RecordedRequest['body']): string | undefined
}

interface Harness {
  name: string
  model: string
  start(): Promise<StubServer>
  provider(stub: StubServer, options?: { key?: string; timeoutMs?: number }): ChatProvider
  wire: WireFormat
}

const offlineToken = (token: string) => {
  const client = new OAuth2Client()
  client.setCredentials({ access_token: token, expiry_date: Date.now() + 3_600_000 })
  return { authClient: client }
}

const harnesses: Harness[] = [
  {
    name: 'OpenAI Chat Completions',
    model: 'gpt-4o',
    start: () => startOpenAiStub({ apiKey: KEY }),
    provider: (stub, options = {}) => createOpenAiProvider({ provider: 'openai', apiKey: options.key ?? KEY, baseUrl: stub.url, timeoutMs: options.timeoutMs ?? 5000 }),
    wire: {
      toolsOffered: (body) => (body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name),
      resultsSent: (body) =>
        body.messages
          .slice(body.messages.findLastIndex((message: { role: string }) => message.role === 'assistant') + 1)
          .filter((message: { role: string }) => message.role === 'tool')
          .map((message: { tool_call_id: string; content: string }) => ({ ref: message.tool_call_id, content: message.content, isError: message.content.startsWith('Error:') })),
      callsSentBack: (body) => {
        const assistant = [...body.messages].reverse().find((message: { role: string; tool_calls?: unknown }) => message.role === 'assistant' && message.tool_calls)
        return (assistant?.tool_calls ?? []).map((call: { function: { name: string; arguments: string } }) => ({ name: call.function.name, args: call.function.arguments }))
      },
      system: (body) => body.messages.find((message: { role: string }) => message.role === 'system')?.content,
    },
  },
  {
    name: 'Anthropic Messages',
    model: 'claude-sonnet-4-6',
    start: () => startAnthropicStub({ apiKey: KEY }),
    provider: (stub, options = {}) => createAnthropicProvider({ apiKey: options.key ?? KEY, baseUrl: stub.url, timeoutMs: options.timeoutMs ?? 5000 }),
    wire: {
      toolsOffered: (body) => (body.tools ?? []).map((tool: { name: string }) => tool.name),
      resultsSent: (body) => {
        const last = body.messages[body.messages.length - 1]
        return (Array.isArray(last.content) ? last.content : [])
          .filter((block: { type: string }) => block.type === 'tool_result')
          .map((block: { tool_use_id: string; content: string; is_error: boolean }) => ({ ref: block.tool_use_id, content: block.content, isError: block.is_error }))
      },
      callsSentBack: (body) => {
        const assistant = [...body.messages].reverse().find((message: { role: string }) => message.role === 'assistant')
        return (assistant?.content ?? [])
          .filter((block: { type: string }) => block.type === 'tool_use')
          .map((block: { name: string; input: unknown }) => ({ name: block.name, args: JSON.stringify(block.input) }))
      },
      system: (body) => body.system,
    },
  },
  {
    name: 'Vertex AI Gemini',
    model: 'gemini-2.5-flash',
    start: () => startVertexStub({ apiKey: KEY }),
    provider: (stub, options = {}) =>
      createVertexProvider({
        project: 'finsheet-test',
        location: 'europe-west4',
        baseUrl: stub.url,
        googleAuthOptions: offlineToken(options.key ?? KEY),
        timeoutMs: options.timeoutMs ?? 5000,
        retry: { baseDelayMs: 50 },
      }),
    wire: {
      toolsOffered: (body) => (body.tools ?? []).flatMap((tool: { functionDeclarations: Array<{ name: string }> }) => tool.functionDeclarations.map((declaration) => declaration.name)),
      resultsSent: (body) => {
        const last = body.contents[body.contents.length - 1]
        return last.parts
          .filter((part: { functionResponse?: unknown }) => part.functionResponse)
          .map((part: { functionResponse: { name: string; response: { output?: string; error?: string } } }) => ({
            ref: part.functionResponse.name,
            content: part.functionResponse.response.output ?? part.functionResponse.response.error ?? '',
            isError: part.functionResponse.response.error !== undefined,
          }))
      },
      callsSentBack: (body) => {
        const model = [...body.contents].reverse().find((content: { role: string }) => content.role === 'model')
        return (model?.parts ?? [])
          .filter((part: { functionCall?: unknown }) => part.functionCall)
          .map((part: { functionCall: { name: string; args: unknown } }) => ({ name: part.functionCall.name, args: JSON.stringify(part.functionCall.args) }))
      },
      system: (body) => body.systemInstruction?.parts?.map((part: { text: string }) => part.text).join(''),
    },
  },
]

const TOOLS: ToolSpec[] = [
  {
    name: 'read_range',
    description: 'Reads cells of a sheet',
    parameters: { type: 'object', properties: { sheet: { type: 'string' }, range: { type: 'string' } }, required: ['sheet', 'range'] },
  },
  { name: 'get_workbook_overview', description: 'Lists the sheets', parameters: { type: 'object', properties: {} } },
]

const question = (text: string): ConversationMessage[] => [
  { role: 'system', content: 'You are a spreadsheet assistant.' },
  { role: 'user', content: text },
]

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(ProviderError)
  return error as ProviderError
}

describe.each(harnesses)('$name through its SDK', (harness) => {
  let stub: StubServer
  let provider: ChatProvider

  beforeAll(async () => {
    stub = await harness.start()
    provider = harness.provider(stub)
  })
  afterAll(async () => {
    await stub.close()
  })
  beforeEach(() => stub.reset())

  for (const streamed of [false, true]) {
    const mode = streamed ? 'streamed' : 'whole'
    const complete = (messages: ConversationMessage[], deltas: string[] = [], started: string[] = []) =>
      provider.complete(
        { model: harness.model, messages, tools: TOOLS },
        streamed ? { onTextDelta: (text) => deltas.push(text), onToolCallStart: (call) => started.push(call.name) } : undefined,
      )

    it(`answers text (${mode}) with usage, the system prompt and the tools sent`, async () => {
      stub.enqueue({ reply: { text: 'Revenue grows 15% a year from year 2 to year 5 in this model.', usage: { inputTokens: 120, outputTokens: 17 } } })
      const deltas: string[] = []
      const result = await complete(question('How fast does revenue grow?'), deltas)
      expect(result.message).toEqual({ role: 'assistant', content: 'Revenue grows 15% a year from year 2 to year 5 in this model.', toolCalls: [] })
      expect(result.stopReason).toBe('end_turn')
      expect(result.usage).toEqual({ inputTokens: 120, outputTokens: 17 })
      if (streamed) {
        expect(deltas.length).toBeGreaterThan(2)
        expect(deltas.join('')).toBe(result.message.content)
      }
      const [request] = stub.requests
      expect(harness.wire.toolsOffered(request.body)).toEqual(['read_range', 'get_workbook_overview'])
      expect(harness.wire.system(request.body)).toBe('You are a spreadsheet assistant.')
      expect(request.body.stream === true || request.path.endsWith(':streamGenerateContent')).toBe(streamed)
    })

    it(`runs several tool calls in a row, sending each result back (${mode})`, async () => {
      stub.enqueue(
        { reply: { toolCalls: [{ id: 'call_overview', name: 'get_workbook_overview', arguments: {} }] } },
        { reply: { text: 'Let me read the revenue row.', toolCalls: [{ id: 'call_read', name: 'read_range', arguments: { sheet: 'Revenue', range: 'A1:H3' } }] } },
        { reply: { text: 'Revenue is 1.2m in FY2024.' } },
      )
      const started: string[] = []
      const messages = question('What is revenue in FY2024?')
      const first = await complete(messages, [], started)
      expect(first.stopReason).toBe('tool_use')
      expect(first.message.toolCalls).toMatchObject([{ name: 'get_workbook_overview', arguments: {} }])
      messages.push(first.message, { role: 'tool', results: [{ toolCallId: first.message.toolCalls[0].id, content: '{"sheets":["Revenue"]}', isError: false }] })
      const second = await complete(messages, [], started)
      expect(second.message.content).toBe('Let me read the revenue row.')
      expect(second.message.toolCalls).toMatchObject([{ name: 'read_range', arguments: { sheet: 'Revenue', range: 'A1:H3' } }])
      messages.push(second.message, { role: 'tool', results: [{ toolCallId: second.message.toolCalls[0].id, content: 'A1=FY2024 B1=1200000', isError: false }] })
      const third = await complete(messages, [], started)
      expect(third.message.content).toBe('Revenue is 1.2m in FY2024.')
      if (streamed) expect(started).toEqual(['get_workbook_overview', 'read_range'])

      expect(stub.requests).toHaveLength(3)
      const ref = (call: { id: string; name: string }) => (harness.name.startsWith('Vertex') ? call.name : call.id)
      expect(harness.wire.resultsSent(stub.requests[1].body)).toEqual([{ ref: ref(first.message.toolCalls[0]), content: '{"sheets":["Revenue"]}', isError: false }])
      expect(harness.wire.callsSentBack(stub.requests[2].body)).toEqual([{ name: 'read_range', args: JSON.stringify({ sheet: 'Revenue', range: 'A1:H3' }) }])
      expect(harness.wire.resultsSent(stub.requests[2].body)).toEqual([{ ref: ref(second.message.toolCalls[0]), content: 'A1=FY2024 B1=1200000', isError: false }])
    })

    it(`takes parallel tool calls from one message and returns their results in one turn (${mode})`, async () => {
      stub.enqueue(
        {
          reply: {
            toolCalls: [
              { id: 'call_a', name: 'read_range', arguments: { sheet: 'Revenue', range: 'A1:A5' } },
              { id: 'call_b', name: 'read_range', arguments: { sheet: 'Costs', range: 'B1:B5' } },
            ],
          },
        },
        { reply: { text: 'Both read.' } },
      )
      const messages = question('Compare revenue and costs')
      const first = await complete(messages)
      expect(first.message.toolCalls.map((call) => call.arguments)).toEqual([
        { sheet: 'Revenue', range: 'A1:A5' },
        { sheet: 'Costs', range: 'B1:B5' },
      ])
      expect(new Set(first.message.toolCalls.map((call) => call.id)).size).toBe(2)
      messages.push(first.message, {
        role: 'tool',
        results: [
          { toolCallId: first.message.toolCalls[0].id, content: 'revenue values', isError: false },
          { toolCallId: first.message.toolCalls[1].id, content: 'Sheet not found: Costs', isError: true },
        ],
      })
      expect((await complete(messages)).message.content).toBe('Both read.')
      const sent = harness.wire.resultsSent(stub.requests[1].body)
      expect(sent.map((result) => [result.content.replace(/^Error: /, ''), result.isError])).toEqual([
        ['revenue values', false],
        ['Sheet not found: Costs', true],
      ])
      expect(harness.wire.callsSentBack(stub.requests[1].body).map((call) => call.name)).toEqual(['read_range', 'read_range'])
    })

    it(`passes an unknown tool name through and reads malformed arguments as an error, not a crash (${mode})`, async () => {
      stub.enqueue({
        reply: {
          toolCalls: [
            { id: 'call_x', name: 'delete_everything', arguments: {} },
            { id: 'call_y', name: 'read_range', arguments: '{"sheet": "Revenue", "range": ' },
          ],
        },
      })
      const result = await complete(question('Do something odd'))
      expect(result.message.toolCalls[0]).toMatchObject({ name: 'delete_everything', arguments: {} })
      const malformed = result.message.toolCalls[1]
      expect(malformed.name).toBe('read_range')
      expect(malformed.arguments).toBeNull()
      expect(malformed.argumentsError).toMatch(/JSON/)
    })

    it(`returns an empty reply as an empty message (${mode})`, async () => {
      stub.enqueue({ reply: { text: '' } })
      const result = await complete(question('Say nothing'))
      expect(result.message).toEqual({ role: 'assistant', content: '', toolCalls: [] })
      expect(result.stopReason).toBe('end_turn')
    })
  }

  it('retries a 429 after the wait retry-after asks for, then answers', async () => {
    stub.enqueue({ error: { status: 429, message: 'Rate limit reached', headers: { 'retry-after': '1' } } }, { reply: { text: 'After the wait.' } })
    const result = await provider.complete({ model: harness.model, messages: question('hello') })
    expect(result.message.content).toBe('After the wait.')
    expect(stub.requests).toHaveLength(2)
    expect(stub.requests[1].at - stub.requests[0].at).toBeGreaterThanOrEqual(950)
  })

  it('fails a 429 asking for a longer wait than we give at once, saying when to retry', async () => {
    stub.enqueue({ error: { status: 429, message: 'Quota exceeded', headers: { 'retry-after': '120' } } })
    const error = await failure(provider.complete({ model: harness.model, messages: question('hello') }))
    expect(error.kind).toBe('rate_limited')
    expect(error.retryAfterSeconds).toBe(120)
    expect(error.message).toMatch(/429 Too Many Requests\); try again in 120 seconds/)
    expect(stub.requests).toHaveLength(1)
  })

  it('gives up on a 500 after 3 attempts with an unavailable error', async () => {
    stub.enqueue(...Array.from({ length: 3 }, () => ({ error: { status: 500, message: 'Internal failure with stack trace' } })))
    const error = await failure(provider.complete({ model: harness.model, messages: question('hello') }, { onTextDelta: () => undefined }))
    expect(error.kind).toBe('unavailable')
    expect(error.status).toBe(500)
    expect(error.message).not.toMatch(/stack trace/)
    expect(stub.requests).toHaveLength(3)
  })

  it('recovers when a 5xx is followed by an answer', async () => {
    stub.enqueue({ error: { status: 503, message: 'Overloaded' } }, { reply: { text: 'Fine now.' } })
    expect((await provider.complete({ model: harness.model, messages: question('hello') })).message.content).toBe('Fine now.')
    expect(stub.requests).toHaveLength(2)
  })

  it('times out a request that gets no answer, after 3 attempts', async () => {
    const slow = harness.provider(stub, { timeoutMs: TIMEOUT_MS })
    stub.enqueue({ hang: true }, { hang: true }, { hang: true })
    const error = await failure(slow.complete({ model: harness.model, messages: question('hello') }))
    expect(error.kind).toBe('timeout')
    expect(error.message).toMatch(/did not answer within 0\.4 seconds/)
    expect(stub.requests).toHaveLength(3)
  })

  it('reports a refused key as an authentication error, once, without the key', async () => {
    const wrongKey = 'sk-wrong-9d8c7b6a5f4e3d2c'
    const refused = harness.provider(stub, { key: wrongKey })
    const error = await failure(refused.complete({ model: harness.model, messages: question('hello') }))
    expect(error.kind).toBe('authentication')
    expect(error.status).toBe(401)
    expect(error.message).toMatch(/401 Unauthorized/)
    expect(error.message).not.toContain(wrongKey)
    expect(JSON.stringify(error)).not.toContain(wrongKey)
    expect(stub.requests).toHaveLength(1)
  })

  it('stops at once when the caller aborts', async () => {
    stub.enqueue({ hang: true })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const error = await failure(provider.complete({ model: harness.model, messages: question('hello'), signal: controller.signal }))
    expect(error.kind).toBe('aborted')
    expect(stub.requests).toHaveLength(1)
  })

  it('reports a streamed reply whose connection drops midway as unreachable, after the text it got', async () => {
    stub.enqueue({ reply: { text: 'Half an answer and then nothing more arrives here', cutOff: true } })
    const deltas: string[] = []
    const error = await failure(provider.complete({ model: harness.model, messages: question('hello') }, { onTextDelta: (text) => deltas.push(text) }))
    expect(error.kind).toBe('unreachable')
    expect(deltas.join('')).toMatch(/^Half an answer/)
  })

  it('passes a refused request’s reason on (an unknown model)', async () => {
    stub.enqueue({ error: { status: 404, message: 'The model `gpt-99` does not exist' } })
    const error = await failure(provider.complete({ model: 'gpt-99', messages: question('hello') }))
    expect(error.kind).toBe('rejected')
    expect(error.message).toMatch(/status 404.*does not exist/)
  })
})

describe('Vertex AI credentials', () => {
  it('reports missing application default credentials as an authentication error before any request', async () => {
    const stub = await startVertexStub()
    const provider = createVertexProvider({ project: 'finsheet-test', location: 'us-central1', baseUrl: stub.url, googleAuthOptions: { authClient: new OAuth2Client() }, timeoutMs: 2000 })
    const error = await failure(provider.complete({ model: 'gemini-2.5-flash', messages: question('hello') }))
    expect(error.kind).toBe('authentication')
    expect(error.message).toMatch(/Unauthorized.*application default credentials for finsheet-test/)
    expect(stub.requests).toHaveLength(0)
    await stub.close()
  })
})

describe('the stubs', () => {
  it('answer from a fallback when no turn is scripted, and 500 with a reason when there is none', async () => {
    const stub = await startOpenAiStub({ fallback: (request) => ({ reply: { text: `echo: ${request.body.messages.at(-1).content}` } }) })
    const provider = createOpenAiProvider({ provider: 'openai-compatible', apiKey: 'none', baseUrl: stub.url, timeoutMs: 2000 })
    const result: CompletionResult = await provider.complete({ model: 'llama-3.1-8b', messages: [{ role: 'user', content: 'ping' }] })
    expect(result.message.content).toBe('echo: ping')
    expect(stub.requests[0].body.max_tokens).toBe(4096)
    expect(stub.requests[0].body.max_completion_tokens).toBeUndefined()
    await stub.close()
  })
})
