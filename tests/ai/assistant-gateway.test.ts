/**
 * The assistant as the web app reaches it: /api/ai behind the gateway on the all-in-one stack, with
 * OPENAI_BASE_URL and ANTHROPIC_BASE_URL pointed at local servers speaking those APIs. Formulas are
 * evaluated against real workbooks by the spreadsheet service, PDFs come through the files service,
 * chat streams through the gateway, and the chat tools hook reads a workbook for a model.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startAllInOne, type AllInOne } from '@finsheet/standalone'
import { parseEventStream, startAiTestApp, startAnthropicStub, startOpenAiStub, type StubServer } from '@finsheet/ai-service/testing'
import type { Toolset } from '@finsheet/ai-service'
import { multipart, pdfBuffer } from '../files/support/make-files.js'

const OPENAI_KEY = 'sk-gateway-openai-0123456789'
const ANTHROPIC_KEY = 'sk-ant-gateway-0123456789'
const root = mkdtempSync(join(tmpdir(), 'finsheet-ai-gateway-'))
let stack: AllInOne
let openai: StubServer
let anthropic: StubServer
let adaToken: string
let eveToken: string
let workbookId: string

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

async function call(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Json; text: string; headers: Headers }> {
  const response = await fetch(`${stack.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, text, headers: response.headers, json: (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined }
}

async function signUp(email: string): Promise<string> {
  const response = await fetch(`${stack.url}/api/users/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'amber-otter-42', fullName: email }) })
  expect(response.status).toBe(201)
  return ((await response.json()) as { token: string }).token
}

beforeAll(async () => {
  openai = await startOpenAiStub({ apiKey: OPENAI_KEY })
  anthropic = await startAnthropicStub({ apiKey: ANTHROPIC_KEY })
  stack = await startAllInOne({
    port: 0,
    dataDir: join(root, 'data'),
    logger: false,
    webRoot: join(root, 'no-web-build'),
    env: {
      RATE_LIMIT_MAX: '100000',
      AUTOSAVE_QUIET_MS: '0',
      OPENAI_API_KEY: OPENAI_KEY,
      OPENAI_BASE_URL: openai.url,
      ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      ANTHROPIC_BASE_URL: anthropic.url,
    },
  })
  adaToken = await signUp('ada@example.com')
  eveToken = await signUp('eve@example.com')
  const created = await call('POST', '/api/spreadsheet/workbooks', adaToken, { name: 'Plan' })
  expect(created.status).toBe(201)
  workbookId = created.json.workbookId
  const cells = await call('POST', '/api/spreadsheet/update-cells', adaToken, {
    workbookId,
    sheetName: 'Sheet1',
    updates: [
      { cellAddress: 'A1', value: 'Revenue' },
      { cellAddress: 'B2', value: 100 },
      { cellAddress: 'B3', value: 200 },
      { cellAddress: 'B4', value: 300 },
    ],
  })
  expect(cells.status).toBe(200)
})
afterAll(async () => {
  await stack?.close()
  await Promise.all([openai?.close(), anthropic?.close()])
  rmSync(root, { recursive: true, force: true })
})
beforeEach(() => {
  openai.reset()
  anthropic.reset()
})

describe('formulas against a workbook', () => {
  it('evaluates a formula at a cell through the gateway, for the owner only', async () => {
    const answer = await call('POST', `/api/spreadsheet/workbook/${workbookId}/evaluate`, adaToken, { sheet: 'Sheet1', address: 'B5', formula: '=SUM(B2:B4)' })
    expect(answer.status).toBe(200)
    expect(answer.json).toMatchObject({ value: 600, display: '600', type: 'number', sheet: 'Sheet1', address: 'B5' })
    expect((await call('POST', `/api/spreadsheet/workbook/${workbookId}/evaluate`, eveToken, { sheet: 'Sheet1', formula: '=B2' })).status).toBe(404)
  })

  it('generates a formula for the selection and shows its result in the workbook', async () => {
    const answer = await call('POST', '/api/ai/generate-formula', adaToken, { description: 'total', workbookId, context: { activeSheet: 'Sheet1', selectedRange: 'B2:B4' }, model: 'local' })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.json.suggestions[0]).toMatchObject({ formula: '=SUM(B2:B4)', syntax: 'SUM(number1, [number2], ...)', result: { value: 600, display: '600' } })
  })

  it('suggests totals and growth for a selected column, each calculated from its cells', async () => {
    const answer = await call('POST', '/api/ai/suggestions', adaToken, { workbookId, context: { activeSheet: 'Sheet1', selectedRange: 'B2:B4' } })
    expect(answer.status, answer.text).toBe(200)
    const results = Object.fromEntries(answer.json.suggestions.map((suggestion: Json) => [suggestion.formula, suggestion.result.value]))
    expect(results['=SUM(B2:B4)']).toBe(600)
    expect(results['=AVERAGE(B2:B4)']).toBe(200)
    expect(results['=MAX(B2:B4)']).toBe(300)
    expect(results['=MIN(B2:B4)']).toBe(100)
    expect(results['=RRI(2, B2, B4)']).toBeCloseTo(Math.sqrt(3) - 1, 10)
  })

  it('lets a model propose a formula that the engine checks against the workbook', async () => {
    openai.enqueue({ reply: { text: '{"suggestions":[{"formula":"=B4/B2-1","explanation":"Growth from the first to the last year"}]}' } })
    const answer = await call('POST', '/api/ai/generate-formula', adaToken, { description: 'growth over the period', workbookId, context: { selectedRange: 'B2:B4' }, model: 'gpt-4o' })
    expect(answer.json).toMatchObject({ source: 'model', suggestions: [{ formula: '=B4/B2-1', description: 'Growth from the first to the last year', result: { value: 2 } }] })
    expect(openai.requests[0].body.messages[1].content).toContain('Active sheet: "Sheet1". Selected range: B2:B4. The formula goes into B5.')
  })

  it('answers 404 for another user’s workbook, writing nothing and calling no model', async () => {
    expect((await call('POST', '/api/ai/generate-formula', eveToken, { description: 'total', workbookId, model: 'local' })).status).toBe(404)
    expect((await call('POST', '/api/ai/suggestions', eveToken, { workbookId, context: { selectedRange: 'B2:B4' } })).status).toBe(404)
    const chat = await call('POST', '/api/ai/chat', eveToken, { message: 'What is in this workbook?', model: 'gpt-4o', workbookId })
    expect(chat.status).toBe(404)
    expect(chat.json.error.code).toBe('WORKBOOK_NOT_FOUND')
    expect(openai.requests).toHaveLength(0)
  })
})

describe('chat through the gateway', () => {
  it('streams the answer as it is generated', async () => {
    anthropic.enqueue({ reply: { text: 'A DCF discounts the free cash flows of the forecast years and a terminal value at the WACC.', paceMs: 40 } })
    const started = Date.now()
    const response = await fetch(`${stack.url}/api/ai/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adaToken}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ message: 'What is a DCF?', model: 'claude-sonnet-4-6' }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const arrivals: number[] = []
    let text = ''
    const decoder = new TextDecoder()
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      arrivals.push(Date.now() - started)
      text += decoder.decode(chunk, { stream: true })
    }
    const events = parseEventStream(text)
    expect(events.filter((event) => event.event === 'delta').length).toBeGreaterThan(4)
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { response: 'A DCF discounts the free cash flows of the forecast years and a terminal value at the WACC.' } })
    // The events came through the gateway over time, not in one piece at the end.
    expect(arrivals.length).toBeGreaterThan(3)
    expect(arrivals.at(-1)! - arrivals[0]).toBeGreaterThan(200)
  })

  it('tells the model which workbook is open, and refuses an unknown model with the available ones', async () => {
    openai.enqueue({ reply: { text: 'Your plan has one sheet.' } })
    const answer = await call('POST', '/api/ai/chat', adaToken, { message: 'What is in my workbook?', model: 'gpt-4o', workbookId, context: { activeSheet: 'Sheet1', selectedRange: 'B2:B4' } })
    expect(answer.json.response).toBe('Your plan has one sheet.')
    const system = openai.requests[0].body.messages[0].content
    expect(system).toContain('<workbook name="Plan" sheets="Sheet1" />')
    expect(system).toContain('Selected range: B2:B4')
    const unknown = await call('POST', '/api/ai/chat', adaToken, { message: 'hi', model: 'nope' })
    expect(unknown.status).toBe(400)
    expect(unknown.json.error.message).toMatch(/Available models: .*gpt-4o.*local/)
  })

  it('answers about an uploaded PDF’s figures, for its owner only', async () => {
    const form = await multipart({}, { name: 'fy2024.pdf', type: 'application/pdf', bytes: await pdfBuffer({ lines: ['Income statement FY2024', 'Total revenue 1,000.0', 'Net income 150.0'] }) })
    const upload = await fetch(`${stack.url}/api/files/upload`, { method: 'POST', headers: { authorization: `Bearer ${adaToken}`, ...form.headers }, body: new Uint8Array(form.payload) })
    expect(upload.status).toBe(201)
    const { file, jobId } = (await upload.json()) as { file: { id: string }; jobId: string }
    for (let attempt = 0; ; attempt++) {
      const job = await call('GET', `/api/files/jobs/${jobId}`, adaToken)
      if (job.json.state === 'completed') break
      expect(job.json.state).not.toBe('failed')
      expect(attempt).toBeLessThan(600)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const answer = await call('POST', '/api/ai/chat', adaToken, { message: 'What was net income?', model: 'local', context: { fileId: file.id } })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.json.response).toContain('**Net income**: 150')
    const stranger = await call('POST', '/api/ai/chat', eveToken, { message: 'What was net income?', model: 'local', context: { fileId: file.id } })
    expect(stranger.status).toBe(404)
    expect(stranger.json.error.code).toBe('FILE_NOT_FOUND')
  })
})

describe('the chat tools hook', () => {
  it('offers tools when a workbook is open; the model reads cells through them and answers from the result', async () => {
    const reads: string[] = []
    // A read-only tool over the spreadsheet service's cells route, as the agent step's tools will be.
    const assistant = await startAiTestApp({
      keysOf: stack.dataDir,
      env: { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: openai.url, SPREADSHEET_URL: stack.services.spreadsheet },
      chatTools: ({ token, workbook }): Toolset => ({
        specs: [{ name: 'read_sheet', description: 'Reads the values of a sheet', parameters: { type: 'object', properties: { sheet: { type: 'string' } }, required: ['sheet'] } }],
        async run(toolCall) {
          const sheet = String(toolCall.arguments.sheet)
          reads.push(sheet)
          const response = await fetch(`${stack.services.spreadsheet}/workbook/${workbook.id}/cells?sheet=${encodeURIComponent(sheet)}`, { headers: { authorization: `Bearer ${token}` } })
          if (!response.ok) return { content: `No sheet ${sheet}`, isError: true }
          const body = (await response.json()) as Json
          const cells = body.workbook.sheets[0].cells as Record<string, { value: unknown }>
          return { content: Object.entries(cells).map(([address, cell]) => `${address}=${String(cell.value)}`).join(' '), isError: false }
        },
      }),
    })
    try {
      openai.enqueue(
        { reply: { toolCalls: [{ id: 'call_1', name: 'read_sheet', arguments: { sheet: 'Sheet1' } }] } },
        { reply: { text: 'Revenue adds up to 600 across B2:B4.' } },
      )
      const response = await assistant.app.inject({
        method: 'POST',
        url: '/chat',
        headers: { authorization: `Bearer ${adaToken}`, accept: 'text/event-stream' },
        payload: { message: 'What is total revenue?', model: 'gpt-4o', workbookId },
      })
      const events = parseEventStream(response.body)
      expect(events.map((event) => event.event)).toEqual(['tool_call', 'tool_result', ...events.slice(2, -1).map(() => 'delta'), 'done'])
      expect(events.at(-1)?.data).toMatchObject({ response: 'Revenue adds up to 600 across B2:B4.', toolCalls: [{ name: 'read_sheet', arguments: { sheet: 'Sheet1' }, isError: false }] })
      expect(reads).toEqual(['Sheet1'])
      expect(openai.requests[0].body.tools.map((tool: Json) => tool.function.name)).toEqual(['read_sheet'])
      expect(openai.requests[0].body.messages[0].content).toContain('You can read the user’s workbook with the tools offered')
      const result = openai.requests[1].body.messages.at(-1)
      expect(result).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'A1=Revenue B2=100 B3=200 B4=300' })
      // Without a workbook no tools are offered.
      openai.enqueue({ reply: { text: 'No workbook.' } })
      await assistant.app.inject({ method: 'POST', url: '/chat', headers: { authorization: `Bearer ${adaToken}` }, payload: { message: 'hi', model: 'gpt-4o' } })
      expect(openai.requests[2].body.tools).toBeUndefined()
    } finally {
      await assistant.close()
    }
  })
})
