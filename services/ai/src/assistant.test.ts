/**
 * The ai service's assistant routes with its providers pointed at local servers speaking their APIs:
 * the model list, chat whole and streamed, the offline assistant, formula suggestions, bad input,
 * provider failures as the user sees them, token usage and the daily limit.
 */
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AvailableModelsResponse, ChatResponse, FormulaSuggestionsResponse, MAX_ASSISTANT_MESSAGE_LENGTH, assistantErrorText } from '@finsheet/contracts'
import { createUsageStore } from './usage/usage-store.js'
import { loggerOptions } from '@finsheet/platform'
import { parseEventStream, startAiTestApp, startAnthropicStub, startOpenAiStub, startVertexStub, type AiTestApp, type StubServer } from './testing/index.js'

const OPENAI_KEY = 'sk-proj-openai-4c1d8e9f2a7b6c5d'
const ANTHROPIC_KEY = 'sk-ant-api03-anthropic-9e8d7c6b5a4f'
const VERTEX_TOKEN = 'ya29.vertex-offline-token-1234'

let openai: StubServer
let anthropic: StubServer
let vertex: StubServer
let t: AiTestApp
let token: string

beforeAll(async () => {
  openai = await startOpenAiStub({ apiKey: OPENAI_KEY })
  anthropic = await startAnthropicStub({ apiKey: ANTHROPIC_KEY })
  vertex = await startVertexStub({ apiKey: VERTEX_TOKEN })
  t = await startAiTestApp({
    env: {
      OPENAI_API_KEY: OPENAI_KEY,
      OPENAI_BASE_URL: openai.url,
      ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      ANTHROPIC_BASE_URL: anthropic.url,
      AI_REQUEST_TIMEOUT_MS: '2000',
    },
  })
  token = await t.tokenFor('ada')
})
afterAll(async () => {
  await t?.close()
  await Promise.all([openai?.close(), anthropic?.close(), vertex?.close()])
})
beforeEach(() => {
  openai.reset()
  anthropic.reset()
  vertex.reset()
})

const post = (app: AiTestApp, url: string, payload: object, headers: Record<string, string> = {}, as = token) =>
  app.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${as}`, ...headers }, payload })

describe('GET /availableModels', () => {
  it('groups the models Anthropic, OpenAI, Google Vertex AI, then local, with the unconfigured ones unavailable and why', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/availableModels', headers: { authorization: `Bearer ${token}` } })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(Value.Check(AvailableModelsResponse, body)).toBe(true)
    const providers = body.models.map((model: { provider: string }) => model.provider)
    expect([...new Set(providers)]).toEqual(['anthropic', 'openai', 'vertex', 'local'])
    expect(body.defaultModel).toBe('gpt-4o')
    const byValue = Object.fromEntries(body.models.map((model: { value: string }) => [model.value, model]))
    expect(byValue['gpt-4o']).toMatchObject({ label: 'GPT-4o', tier: 'standard', available: true })
    expect(byValue['claude-sonnet-4-6']).toMatchObject({ provider: 'anthropic', available: true })
    expect(byValue['gemini-2.5-pro']).toMatchObject({ provider: 'vertex', available: false, unavailableReason: expect.stringMatching(/GOOGLE_CLOUD_PROJECT/) })
    expect(byValue.local).toMatchObject({ label: 'Local (offline)', available: true })
    expect(response.body).not.toContain(OPENAI_KEY)
    expect(response.body).not.toContain(ANTHROPIC_KEY)
  })

  it('lists an OpenAI-compatible server’s models as their own group, and Vertex AI when a project is set', async () => {
    const local = await startAiTestApp({
      env: { OPENAI_BASE_URL: openai.url, OPENAI_MODELS: 'llama-3.1-8b-instruct, qwen2.5-7b', GOOGLE_CLOUD_PROJECT: 'finsheet-test', GOOGLE_VERTEX_BASE_URL: vertex.url },
      vertexToken: VERTEX_TOKEN,
    })
    try {
      const body = (await local.app.inject({ method: 'GET', url: '/availableModels', headers: { authorization: `Bearer ${await local.tokenFor('ada')}` } })).json()
      const available = body.models.filter((model: { available: boolean }) => model.available).map((model: { value: string; provider: string }) => `${model.provider}:${model.value}`)
      expect(available).toEqual([
        'vertex:gemini-2.5-pro',
        'vertex:gemini-2.5-flash',
        'vertex:gemini-2.5-flash-lite',
        'openai-compatible:llama-3.1-8b-instruct',
        'openai-compatible:qwen2.5-7b',
        'local:local',
      ])
      // Without OpenAI the default is the first available model.
      expect(body.defaultModel).toBe('gemini-2.5-pro')
      expect(body.models.find((model: { value: string }) => model.value === 'gpt-4o').unavailableReason).toMatch(/OpenAI-compatible server/)
    } finally {
      await local.close()
    }
  })
})

describe('the OpenAPI document', () => {
  it('documents the assistant routes', async () => {
    const docs = await t.app.inject({ method: 'GET', url: '/docs/json' })
    expect(docs.statusCode).toBe(200)
    expect(Object.keys(docs.json().paths)).toEqual(expect.arrayContaining(['/availableModels', '/chat', '/generate-formula', '/suggestions', '/processDocument', '/analyze-document']))
  })
})

describe('POST /chat', () => {
  it('answers with the chosen model, sending the question and the system prompt, and records the tokens', async () => {
    openai.enqueue({ reply: { text: 'WACC blends the cost of equity and the after-tax cost of debt.', usage: { inputTokens: 210, outputTokens: 14 } } })
    const response = await post(t, '/chat', { message: 'What is WACC?', model: 'gpt-4o' })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(Value.Check(ChatResponse, body)).toBe(true)
    expect(body).toMatchObject({ response: 'WACC blends the cost of equity and the after-tax cost of debt.', model: 'gpt-4o', provider: 'openai', usage: { inputTokens: 210, outputTokens: 14 } })
    const sent = openai.requests[0].body
    expect(sent.model).toBe('gpt-4o')
    expect(sent.messages[0]).toMatchObject({ role: 'system' })
    expect(sent.messages[0].content).toMatch(/never instructions/)
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'What is WACC?' })
    expect(sent.tools).toBeUndefined()
    const usage = createUsageStore(t.store)
    expect(await usage.usedToday('ada')).toBeGreaterThanOrEqual(224)
  })

  it('uses the default model when none is named, and passes earlier turns along', async () => {
    openai.enqueue({ reply: { text: 'It was 8%.' } })
    const response = await post(t, '/chat', {
      message: 'And the year before?',
      history: [
        { role: 'user', content: 'What is the growth in FY2024?' },
        { role: 'assistant', content: '10%.' },
      ],
    })
    expect(response.json().model).toBe('gpt-4o')
    expect(openai.requests[0].body.messages.slice(1).map((message: { role: string; content: string }) => [message.role, message.content])).toEqual([
      ['user', 'What is the growth in FY2024?'],
      ['assistant', '10%.'],
      ['user', 'And the year before?'],
    ])
  })

  it('streams the answer as server-sent events, delta by delta, then done with the whole message', async () => {
    anthropic.enqueue({ reply: { text: 'Terminal value captures the cash flows beyond the forecast years, usually most of a DCF.' } })
    const response = await post(t, '/chat', { message: 'Explain terminal value', model: 'claude-sonnet-4-6' }, { accept: 'text/event-stream' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/)
    expect(response.headers['x-request-id']).toBeDefined()
    const events = parseEventStream(response.body)
    const deltas = events.filter((event) => event.event === 'delta')
    expect(deltas.length).toBeGreaterThan(3)
    const done = events.at(-1)
    expect(done?.event).toBe('done')
    expect((done?.data as { response: string }).response).toBe(deltas.map((event) => (event.data as { text: string }).text).join(''))
    expect(anthropic.requests[0].body.stream).toBe(true)
  })

  it('answers offline with model local: the catalogue, the glossary, and what works offline', async () => {
    const formula = (await post(t, '/chat', { message: 'How does XLOOKUP work?', model: 'local' })).json()
    expect(formula).toMatchObject({ model: 'local', provider: 'local', usage: { inputTokens: 0, outputTokens: 0 } })
    expect(formula.response).toContain('XLOOKUP(lookup_value, lookup_array, return_array')
    const term = (await post(t, '/chat', { message: 'what is MOIC?', model: 'local' })).json()
    expect(term.response).toMatch(/multiple on invested capital/i)
    const other = (await post(t, '/chat', { message: 'Tell me a joke', model: 'local' })).json()
    expect(other.response).toMatch(/offline/)
    const streamed = parseEventStream((await post(t, '/chat', { message: 'What is EBITDA?', model: 'local' }, { accept: 'text/event-stream' })).body)
    expect(streamed.filter((event) => event.event === 'delta').length).toBeGreaterThan(5)
    expect(streamed.at(-1)?.event).toBe('done')
    expect(openai.requests).toHaveLength(0)
  })

  it('answers a question about a PDF’s figures sent along, offline and with a model', async () => {
    const document = {
      fileName: 'fy2024.pdf',
      data: [
        { label: 'Total revenue', value: 1000, notes: '900.0; page 1' },
        { label: 'Net income', value: 150, notes: 'page 1' },
      ],
    }
    const offline = (await post(t, '/chat', { message: 'What was net income?', model: 'local', context: { document } })).json()
    expect(offline.response).toContain('**Net income**: 150')
    expect(offline.response).not.toContain('Total revenue')
    const margin = (await post(t, '/chat', { message: 'What is the net margin in the document?', model: 'local', context: { document } })).json()
    expect(margin.response).toContain('Net margin**: 15.0%')
    openai.enqueue({ reply: { text: 'Net income was 150, a 15% margin.' } })
    await post(t, '/chat', { message: 'How profitable was the year?', model: 'gpt-4o', context: { document } })
    const system = openai.requests[0].body.messages[0].content as string
    expect(system).toContain('<document name="fy2024.pdf">')
    expect(system).toContain('"Net income": 150')
  })

  it('refuses bad input with a clear 4xx and never calls a model', async () => {
    const unknown = await post(t, '/chat', { message: 'hi', model: 'gpt-99' })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().error.code).toBe('UNKNOWN_MODEL')
    expect(unknown.json().error.message).toMatch(/Available models: claude-opus-4-6, .*gpt-4o.*, local$/)
    const unconfigured = await post(t, '/chat', { message: 'hi', model: 'gemini-2.5-flash' })
    expect(unconfigured.statusCode).toBe(400)
    expect(unconfigured.json().error).toMatchObject({ code: 'MODEL_NOT_CONFIGURED', message: expect.stringMatching(/not configured: set GOOGLE_CLOUD_PROJECT/) })
    for (const message of ['', '   \n\t ']) {
      const empty = await post(t, '/chat', { message, model: 'gpt-4o' })
      expect(empty.statusCode).toBe(400)
      expect(empty.json().error.code).toBe('EMPTY_MESSAGE')
    }
    const long = await post(t, '/chat', { message: 'x'.repeat(MAX_ASSISTANT_MESSAGE_LENGTH + 1), model: 'gpt-4o' })
    expect(long.statusCode).toBe(413)
    expect(long.json().error.message).toBe('The message has 20,001 characters; at most 20,000 are accepted')
    expect((await post(t, '/chat', { model: 'gpt-4o' })).statusCode).toBe(400)
    expect(openai.requests).toHaveLength(0)
    // Exactly at the limit is accepted.
    openai.enqueue({ reply: { text: 'Long read.' } })
    expect((await post(t, '/chat', { message: 'y'.repeat(MAX_ASSISTANT_MESSAGE_LENGTH), model: 'gpt-4o' })).statusCode).toBe(200)
  })

  it('turns provider failures into the service’s errors, which the panel words as the spec says', async () => {
    openai.enqueue(...Array.from({ length: 3 }, () => ({ error: { status: 500, message: 'upstream exploded at line 42' } })))
    const failed = await post(t, '/chat', { message: 'hi', model: 'gpt-4o' })
    expect(failed.statusCode).toBe(502)
    expect(failed.json().error).toEqual({ code: 'AI_PROVIDER_UNAVAILABLE', message: 'OpenAI failed (status 500) after 3 attempts; try again in a moment' })
    expect(assistantErrorText({ status: 502, ...failed.json().error }).text).toBe('Error: OpenAI failed (status 500) after 3 attempts; try again in a moment')

    anthropic.enqueue({ error: { status: 429, message: 'rate limited', headers: { 'retry-after': '90' } } })
    const limited = await post(t, '/chat', { message: 'hi', model: 'claude-haiku-4-5' })
    expect(limited.statusCode).toBe(429)
    expect(limited.headers['retry-after']).toBe('90')
    expect(limited.json().error.code).toBe('AI_PROVIDER_RATE_LIMITED')

    openai.enqueue({ reply: { text: '   ' } })
    const empty = await post(t, '/chat', { message: 'hi', model: 'gpt-4o' })
    expect(empty.statusCode).toBe(502)
    expect(empty.json().error).toEqual({ code: 'AI_EMPTY_RESPONSE', message: 'OpenAI returned an empty answer; try again or choose another model' })

    openai.enqueue({ hang: true }, { hang: true }, { hang: true })
    const slow = await post(t, '/chat', { message: 'hi', model: 'gpt-4o' })
    expect(slow.statusCode).toBe(504)
    expect(slow.json().error).toEqual({ code: 'AI_PROVIDER_TIMEOUT', message: expect.stringMatching(/^OpenAI did not answer within 2 seconds/) })
  })

  it('answers a failure before any text with its status, and one after the stream began as an error event', async () => {
    openai.enqueue(...Array.from({ length: 3 }, () => ({ error: { status: 503, message: 'overloaded' } })))
    const before = await post(t, '/chat', { message: 'hi', model: 'gpt-4o' }, { accept: 'text/event-stream' })
    expect(before.statusCode).toBe(502)
    expect(before.headers['content-type']).toMatch(/json/)
    expect(before.json().error.code).toBe('AI_PROVIDER_UNAVAILABLE')
    openai.enqueue({ reply: { text: 'The first words arrive and then the line drops', cutOff: true } })
    const after = await post(t, '/chat', { message: 'hi', model: 'gpt-4o' }, { accept: 'text/event-stream' })
    expect(after.statusCode).toBe(200)
    const events = parseEventStream(after.body)
    expect(events[0].event).toBe('delta')
    expect(events.at(-1)).toEqual({ event: 'error', data: { error: { code: 'AI_PROVIDER_UNAVAILABLE', message: expect.stringMatching(/^OpenAI could not be reached/) } } })
    expect(events.some((event) => event.event === 'done')).toBe(false)
  })
})

describe('keys and logs', () => {
  it('never writes a provider key into a log line or an answer, through success, retries and a refused key', async () => {
    const lines: string[] = []
    const capture = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'))
        done()
      },
    })
    const logger = pino({ ...loggerOptions('ai', 'trace') }, capture)
    const wrongKey = 'sk-proj-WRONG-7a6b5c4d3e2f1a0b'
    const app = await startAiTestApp({ env: { OPENAI_API_KEY: wrongKey, OPENAI_BASE_URL: openai.url, ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: anthropic.url }, logger })
    try {
      const as = await app.tokenFor('ada')
      const refused = await post(app, '/chat', { message: 'hi', model: 'gpt-4o' }, {}, as)
      expect(refused.statusCode).toBe(502)
      expect(refused.json().error.code).toBe('AI_PROVIDER_AUTHENTICATION')
      expect(refused.json().error.message).toMatch(/401 Unauthorized.*OPENAI_API_KEY/)
      expect(assistantErrorText({ status: 502, ...refused.json().error }).text).toBe('Authentication error. Please refresh the page and try again.')
      anthropic.enqueue({ error: { status: 429, message: 'slow down', headers: { 'retry-after': '1' } } }, { reply: { text: 'ok' } })
      expect((await post(app, '/chat', { message: 'hi', model: 'claude-sonnet-4-6' }, { accept: 'text/event-stream' }, as)).statusCode).toBe(200)
      anthropic.enqueue(...Array.from({ length: 3 }, () => ({ error: { status: 500, message: 'boom' } })))
      expect((await post(app, '/chat', { message: 'hi', model: 'claude-sonnet-4-6' }, {}, as)).statusCode).toBe(502)
      const everything = lines.join('')
      expect(lines.length).toBeGreaterThan(10)
      // The stub echoed the wrong key in its 401 body, as OpenAI does with part of it.
      expect(openai.requests.at(-1)?.headers.authorization).toBe(`Bearer ${wrongKey}`)
      for (const secret of [wrongKey, ANTHROPIC_KEY, 'WRONG-7a6b5c4d', as]) {
        expect(everything).not.toContain(secret)
        expect(refused.body).not.toContain(secret)
      }
    } finally {
      await app.close()
    }
  })
})

describe('daily token limit', () => {
  it('refuses a user past AI_DAILY_TOKEN_LIMIT with 429 and a readable message until the next UTC day; local keeps working', async () => {
    let now = new Date('2025-03-10T21:30:00Z')
    const app = await startAiTestApp({ env: { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: openai.url, AI_DAILY_TOKEN_LIMIT: '1000' }, clock: () => now })
    try {
      const ada = await app.tokenFor('ada')
      const bob = await app.tokenFor('bob')
      openai.enqueue({ reply: { text: 'First.', usage: { inputTokens: 900, outputTokens: 150 } } })
      expect((await post(app, '/chat', { message: 'one', model: 'gpt-4o' }, {}, ada)).statusCode).toBe(200)
      const refused = await post(app, '/chat', { message: 'two', model: 'gpt-4o' }, {}, ada)
      expect(refused.statusCode).toBe(429)
      expect(refused.headers['retry-after']).toBe(String(2.5 * 3600))
      expect(refused.json().error).toEqual({
        code: 'AI_DAILY_LIMIT_REACHED',
        message: 'You have used today’s AI allowance (1,050 of 1,000 tokens). It renews at midnight UTC, in 2 h 30 min; the Local (offline) model keeps working meanwhile.',
      })
      const formula = await post(app, '/generate-formula', { description: 'loan payment', model: 'gpt-4o' }, {}, ada)
      expect(formula.statusCode).toBe(429)
      expect((await post(app, '/chat', { message: 'what is IRR', model: 'local' }, {}, ada)).statusCode).toBe(200)
      // Another user has an allowance of their own.
      openai.enqueue({ reply: { text: 'Hi Bob.' } })
      expect((await post(app, '/chat', { message: 'hi', model: 'gpt-4o' }, {}, bob)).statusCode).toBe(200)
      expect(openai.requests).toHaveLength(2)
      now = new Date('2025-03-11T00:00:01Z')
      openai.enqueue({ reply: { text: 'A new day.' } })
      expect((await post(app, '/chat', { message: 'three', model: 'gpt-4o' }, {}, ada)).statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })
})

describe('formula suggestions without a workbook', () => {
  it('finds functions offline by what the user describes, with each formula evaluated by the engine', async () => {
    const response = await post(t, '/generate-formula', { description: 'monthly loan payment', model: 'local' })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(Value.Check(FormulaSuggestionsResponse, body)).toBe(true)
    expect(body.source).toBe('catalogue')
    expect(body.suggestions[0]).toMatchObject({
      formula: '=PMT(5%/12, 360, 300000)',
      syntax: 'PMT(rate, nper, pv, [fv], [type])',
      example: '=PMT(5%/12, 360, 300000)',
      result: { type: 'number', display: expect.stringMatching(/1,610\.46/) },
    })
    expect(body.suggestions[0].result.value).toBeCloseTo(-1610.46, 2)
    expect(body.suggestions.map((suggestion: { formula: string }) => suggestion.formula.replace(/\(.*/, ''))).toEqual(['=PMT', '=IPMT', '=PPMT', '=CUMIPMT', '=CUMPRINC'])
  })

  it('reads the selection instead of the example’s range', async () => {
    const body = (await post(t, '/generate-formula', { description: 'internal rate of return', model: 'local', context: { selectedRange: 'C2:C8' } })).json()
    expect(body.suggestions[0].formula).toBe('=IRR(C2:C8)')
    // On an empty sheet IRR has no cash flows to read.
    expect(body.suggestions[0].result).toMatchObject({ type: 'error' })
  })

  it('asks the model when one is chosen, and checks its formulas with the engine', async () => {
    openai.enqueue({
      reply: {
        text: '```json\n{"suggestions":[{"formula":"=ROUND(1234.567, 1)","explanation":"Rounds to one decimal"},{"formula":"=1/0","explanation":"Broken on purpose"}]}\n```',
      },
    })
    const body = (await post(t, '/generate-formula', { description: 'round to one decimal', model: 'gpt-4o' })).json()
    expect(body.source).toBe('model')
    expect(body.suggestions[0]).toMatchObject({ formula: '=ROUND(1234.567, 1)', syntax: 'ROUND(number, num_digits)', description: 'Rounds to one decimal', result: { value: 1234.6 } })
    expect(body.suggestions[1]).toMatchObject({ formula: '=1/0', result: { type: 'error', value: '#DIV/0!', error: expect.stringMatching(/zero/) } })
    expect(openai.requests[0].body.messages[1].content).toMatch(/Request: round to one decimal/)

    openai.enqueue({ reply: { text: 'I cannot answer in JSON, sorry.' } })
    const fallback = (await post(t, '/generate-formula', { description: 'net present value', model: 'gpt-4o' })).json()
    expect(fallback.source).toBe('catalogue')
    expect(fallback.suggestions[0].formula).toMatch(/^=NPV\(/)
  })

  it('calculates suggestions for a whole column beside it, not past the last row (a 500 before)', async () => {
    const column = await post(t, '/suggestions', { context: { selectedRange: 'A:A' }, query: 'B2', model: 'local' })
    expect(column.statusCode, column.body).toBe(200)
    expect((await post(t, '/suggestions', { context: { selectedRange: 'A:A' } })).json().suggestions[0]).toMatchObject({ formula: '=COUNTA(A:A)', result: { value: 0 } })
    expect((await post(t, '/suggestions', { context: { selectedRange: '1:1' } })).statusCode).toBe(200)
    expect((await post(t, '/suggestions', { context: { selectedRange: 'A1:XFD1048576' } })).statusCode).toBe(200)
  })

  it('suggests formulas for a selection and refuses a bad one', async () => {
    const body = (await post(t, '/suggestions', { context: { selectedRange: 'B2:B9' } })).json()
    // Nothing to count on an empty sheet: the counts of the selection are offered.
    expect(body.suggestions.map((suggestion: { formula: string }) => suggestion.formula)).toEqual(['=COUNTA(B2:B9)', '=COUNTBLANK(B2:B9)'])
    expect(body.suggestions[1].result.value).toBe(8)
    const popular = (await post(t, '/suggestions', {})).json()
    expect(popular.suggestions.map((suggestion: { formula: string }) => suggestion.formula.slice(0, 4))).toEqual(['=SUM', '=AVE', '=IF(', '=XLO', '=NPV'])
    const bad = await post(t, '/suggestions', { context: { selectedRange: 'B2:nowhere' } })
    expect(bad.statusCode).toBe(400)
    expect((await post(t, '/generate-formula', { description: '   ' })).statusCode).toBe(400)
  })
})
