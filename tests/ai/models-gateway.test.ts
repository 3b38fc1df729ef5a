/**
 * Financial model generation as the web app reaches it: POST /api/spreadsheet/generate-financial-model
 * and agent mode's model-creation commands through the gateway on the all-in-one stack. The AI service
 * checks the request, runs an ai.generate-model job on its embedded queue (the worker asks the users
 * service for the user's token) and stores the model in the spreadsheet service as a new workbook;
 * every case reads the workbook back. A local server speaking OpenAI's API stands in for a hosted
 * model that proposes assumptions.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DCF_MODEL_SHEETS, FINANCIAL_MODEL_TYPES, FinancialModelResult } from '@finsheet/contracts'
import { buildFinancialModel, calculateTemplate } from '@finsheet/workbook'
import { startAllInOne, type AllInOne } from '@finsheet/standalone'
import { parseEventStream, startOpenAiStub, type StubServer } from '@finsheet/ai-service/testing'
import { createModelProcessor, createSpreadsheetClient, type ModelJobData } from '@finsheet/ai-service'
import { UnrecoverableJobError, type ActiveJob } from '@finsheet/platform'

const OPENAI_KEY = 'sk-models-openai-0123456789'
const root = mkdtempSync(join(tmpdir(), 'finsheet-models-'))
let stack: AllInOne
let openai: StubServer
let ada: Api
let adaToken: string
let eve: Api

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any
type Answer = { status: number; json: Json; text: string; headers: Headers }
type Api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Answer>

function api(token: string): Api {
  return async (method, path, body, headers = {}) => {
    const response = await fetch(`${stack.url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, text, headers: response.headers, json: (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined }
  }
}

async function signUp(email: string): Promise<string> {
  const response = await fetch(`${stack.url}/api/users/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'amber-otter-42', fullName: email }) })
  expect(response.status).toBe(201)
  return ((await response.json()) as { token: string }).token
}

beforeAll(async () => {
  openai = await startOpenAiStub({ apiKey: OPENAI_KEY })
  stack = await startAllInOne({
    port: 0,
    dataDir: join(root, 'data'),
    logger: false,
    webRoot: join(root, 'no-web-build'),
    env: { RATE_LIMIT_MAX: '100000', AUTOSAVE_QUIET_MS: '0', OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: openai.url, AI_REQUEST_TIMEOUT_MS: '2000' },
  })
  adaToken = await signUp('ada@example.com')
  ada = api(adaToken)
  eve = api(await signUp('eve@example.com'))
})
afterAll(async () => {
  await stack?.close()
  await openai?.close()
  rmSync(root, { recursive: true, force: true })
})
beforeEach(() => openai.reset())

const generate = (body: object, as: Api = ada) => as('POST', '/spreadsheet/generate-financial-model', body)

type Cell = { value: unknown; input: string; type: string; style: { color?: string } | null }
/** Every sheet's cells of a workbook, by sheet name. */
async function workbookCells(id: string, as: Api = ada): Promise<Record<string, Record<string, Cell>>> {
  const answer = await as('GET', `/spreadsheet/workbook/${id}`)
  expect(answer.status).toBe(200)
  return Object.fromEntries(answer.json.workbook.sheets.map((sheet: { name: string; cells: Record<string, Cell> }) => [sheet.name, sheet.cells]))
}

const workbookCount = async (as: Api = ada) => (await as('GET', '/spreadsheet/workbooks')).json.total as number

describe('generate-financial-model', () => {
  it('builds a DCF for a company as a new AI-generated workbook with the DCF tabs, whose values are the model’s', async () => {
    const answer = await generate({ modelType: 'dcf', companyName: 'Acme Corp', parameters: { projectionYears: 7, terminalGrowthRate: 3 } })
    expect(answer.status, answer.text).toBe(200)
    expect(Value.Check(FinancialModelResult, answer.json)).toBe(true)
    expect(answer.json).toMatchObject({ success: true, model: { name: 'Acme Corp — DCF Model', modelType: 'dcf', company: 'Acme Corp', sheets: [...DCF_MODEL_SHEETS] } })
    const id = answer.json.workbookId
    const meta = (await ada('GET', `/spreadsheet/workbooks/${id}`)).json.workbook
    expect(meta).toMatchObject({ name: 'Acme Corp — DCF Model', isAIGenerated: true, iterativeCalculation: false, sheets: [...DCF_MODEL_SHEETS] })
    expect(answer.json.cellsCreated).toBe(meta.totalCells)

    const cells = await workbookCells(id)
    const { template } = buildFinancialModel('dcf', 'Acme Corp', { projectionYears: 7, terminalGrowthRate: 3, baseYear: new Date().getUTCFullYear() - 1 })
    const engine = calculateTemplate(template)
    for (const output of template.keyOutputs.filter((key) => !key.address.includes(':'))) {
      expect(cells[output.sheet][output.address].value as number, output.label).toBeCloseTo(engine.getValue(output.sheet, output.address) as number, 6)
    }
    // Seven projection years: the FCF row runs B to H.
    expect(Object.keys(cells.FCF).filter((address) => /^[B-Z]3$/.test(address)).sort()).toEqual(['B3', 'C3', 'D3', 'E3', 'F3', 'G3', 'H3'])
    // Someone else cannot read it.
    expect((await eve('GET', `/spreadsheet/workbook/${id}`)).status).toBe(404)
  })

  it('builds every model type with the default parameters, without a single error cell', async () => {
    for (const modelType of FINANCIAL_MODEL_TYPES) {
      const answer = await generate({ modelType, companyName: 'Acme', parameters: { projectionYears: 5, terminalGrowthRate: 2.5 } })
      expect(answer.status, `${modelType}: ${answer.text}`).toBe(200)
      const cells = await workbookCells(answer.json.workbookId)
      const errors = Object.entries(cells).flatMap(([sheet, sheetCells]) => Object.entries(sheetCells).filter(([, cell]) => cell.type === 'error').map(([address, cell]) => `${sheet}!${address} ${String(cell.value)}`))
      expect(errors, modelType).toEqual([])
      expect(answer.json.model.sheets).toEqual(Object.keys(cells))
      if (modelType === 'lbo') {
        expect((await ada('GET', `/spreadsheet/workbooks/${answer.json.workbookId}`)).json.workbook.iterativeCalculation).toBe(true)
        const irr = Object.values(cells.Returns).find((cell) => cell.input.startsWith('=IRR('))
        expect(irr?.value as number).toBeGreaterThan(0.05)
      }
    }
  })

  it('refuses bad input with a 400 naming it, and writes nothing', async () => {
    const before = await workbookCount()
    const unknown = await generate({ modelType: 'gordon', companyName: 'Acme' })
    expect(unknown.status).toBe(400)
    expect(unknown.json.error).toEqual({ code: 'UNKNOWN_MODEL_TYPE', message: 'Unknown model type "gordon". Model types: dcf, lbo, three-statement, startup, saas, real-estate' })
    for (const projectionYears of [0, 21, 2.5, 'seven']) {
      const answer = await generate({ modelType: 'dcf', companyName: 'Acme', parameters: { projectionYears } })
      expect(answer.status).toBe(400)
      expect(answer.json.error.code).toBe('INVALID_MODEL_PARAMETER')
      expect(answer.json.error.message).toMatch(/^projectionYears must be/)
    }
    const text = await generate({ modelType: 'lbo', companyName: 'Acme', parameters: { exitMultiple: 'high' } })
    expect(text.json.error.message).toMatch(/^exitMultiple must be a number/)
    const contradictory = await generate({ modelType: 'dcf', companyName: 'Acme', parameters: { terminalGrowthRate: 9.5 } })
    expect(contradictory.json.error.message).toMatch(/^terminalGrowthRate .* must be below the WACC/)
    expect((await generate({ modelType: 'dcf', companyName: '   ' })).json.error.code).toBe('INVALID_COMPANY_NAME')
    expect((await generate({ modelType: 'dcf', companyName: 'x'.repeat(501) })).status).toBe(400)
    expect((await generate({ companyName: 'Acme' })).status).toBe(400)
    expect(await workbookCount()).toBe(before)
    // The service is still up and generating.
    expect((await generate({ modelType: 'startup', companyName: 'Acme' })).status).toBe(200)
  })

  it('keeps a company name with quotes, markup or 500 characters as text', async () => {
    for (const companyName of [`O'Brien "Holdings" & Co`, '<script>alert(1)</script>', '=HYPERLINK("http://x.example")', 'x'.repeat(500)]) {
      const answer = await generate({ modelType: 'dcf', companyName })
      expect(answer.status, answer.text).toBe(200)
      expect(answer.json.model.company).toBe(companyName)
      const cells = await workbookCells(answer.json.workbookId)
      expect(cells.Assumptions.B4).toMatchObject({ value: companyName, type: 'text' })
      expect(cells.Assumptions.A1.value).toBe(`${companyName} — DCF Model`)
      expect((await ada('GET', `/spreadsheet/workbooks/${answer.json.workbookId}`)).json.workbook.name.length).toBeLessThanOrEqual(200)
    }
  })

  it('takes the assumptions a hosted model proposes, clamped, under the user’s own', async () => {
    openai.enqueue({ reply: { toolCalls: [{ name: 'propose_assumptions', arguments: { revenueGrowthRate: 250, grossMargin: 70, taxRate: 'a lot', equityRiskPremium: 6 } }] } })
    const answer = await generate({ modelType: 'dcf', companyName: 'Acme', model: 'gpt-4o', parameters: { equityRiskPremium: 5 } })
    expect(answer.status, answer.text).toBe(200)
    expect(openai.requests).toHaveLength(1)
    const request = openai.requests[0].body
    expect(request.tools.map((tool: Json) => tool.function.name)).toEqual(['propose_assumptions'])
    // The user's own parameter is not offered; the company is quoted.
    expect(Object.keys(request.tools[0].function.parameters.properties)).not.toContain('equityRiskPremium')
    expect(request.messages.at(-1)).toEqual({ role: 'user', content: 'Company: "Acme"' })
    const cells = await workbookCells(answer.json.workbookId)
    const rowOf = (label: string) => Object.entries(cells.Assumptions).find(([address, cell]) => address.startsWith('A') && cell.value === label)![0].slice(1)
    // Revenue growth was clamped to 100%.
    expect(cells.Assumptions[`B${rowOf('Revenue growth')}`].value).toBe(1)
    expect(cells.Assumptions[`B${rowOf('Gross margin')}`].value).toBe(0.7)
    expect(cells.Assumptions[`B${rowOf('Tax rate')}`].value).toBe(0.25)
    expect(cells.Assumptions[`B${rowOf('Equity risk premium')}`].value).toBe(0.05)
  })

  it('keeps the defaults when the hosted model fails', async () => {
    openai.enqueue({ error: { status: 400, message: 'bad request' } })
    const answer = await generate({ modelType: 'saas', companyName: 'Acme', model: 'gpt-4o' })
    expect(answer.status, answer.text).toBe(200)
    expect(openai.requests).toHaveLength(1)
  })
})

describe('the ai.generate-model job', () => {
  const job = (id: string, data: ModelJobData, attempt = 1): ActiveJob<ModelJobData> => ({ id, name: 'generate', data, attempt, updateProgress: async () => undefined })
  const data: ModelJobData = { userId: 'ada', modelType: 'three-statement', companyName: 'Retried Co', parameters: { projectionYears: 3 } }

  it('stores one workbook however often a job runs', async () => {
    const processor = createModelProcessor({ spreadsheet: createSpreadsheetClient(stack.services.spreadsheet), userTokens: { tokenFor: async () => adaToken } })
    const before = await workbookCount()
    const first = await processor(job('model-retried', data))
    const again = await processor(job('model-retried', data, 2))
    expect(again.workbookId).toBe(first.workbookId)
    expect(await workbookCount()).toBe(before + 1)
    const other = await processor(job('model-another', data))
    expect(other.workbookId).not.toBe(first.workbookId)
  })

  it('fails for good when the spreadsheet service refuses the workbook', async () => {
    const processor = createModelProcessor({ spreadsheet: createSpreadsheetClient(stack.services.spreadsheet), userTokens: { tokenFor: async () => 'not-a-token' } })
    await expect(processor(job('model-refused', data))).rejects.toBeInstanceOf(UnrecoverableJobError)
  })
})

describe('agent mode', () => {
  it('creates a model from a command, streaming the generation’s progress', async () => {
    const answer = await ada('POST', '/spreadsheet/process-action', { command: 'Create a DCF model for Acme with 7 years and 3% terminal growth', preferredModel: 'local' }, { accept: 'text/event-stream' })
    const events = parseEventStream(answer.text) as Array<{ event: string; data: Json }>
    const progress = events.filter((event) => event.event === 'progress').map((event) => event.data)
    expect(progress.length).toBeGreaterThan(1)
    expect(progress.map((step) => step.percent)).toEqual([...progress.map((step) => step.percent)].sort((a, b) => a - b))
    expect(progress.at(-1)).toEqual({ percent: 100, message: 'Model created' })
    const done = events.find((event) => event.event === 'done')!.data
    expect(done).toMatchObject({ success: true, action: { type: 'create_model' }, result: { model: { model: { modelType: 'dcf', company: 'Acme', sheets: [...DCF_MODEL_SHEETS] } } } })
    const cells = await workbookCells(done.result.model.workbookId)
    expect(Object.keys(cells.FCF).filter((address) => /^[B-Z]3$/.test(address))).toHaveLength(7)
  })
})

describe('workbook audit', () => {
  /** Inputs holds the growth; Model divides by an empty cell, multiplies by a typed 1.05 and totals too little. */
  async function flawedWorkbook(): Promise<string> {
    const answer = await ada('POST', '/spreadsheet/workbooks/import', {
      name: 'Flawed',
      sheets: [
        { name: 'Inputs', cells: [{ address: 'A1', input: 'Growth' }, { address: 'B1', input: '5%' }] },
        {
          name: 'Model',
          cells: [
            { address: 'A2', input: 'Revenue' },
            { address: 'B2', input: '=Inputs!B1*1000' },
            { address: 'C2', input: '=B2*1.05' },
            { address: 'A3', input: 'Margin' },
            { address: 'B3', input: '=B2/B9' },
            ...[4, 5, 6, 7].map((row) => ({ address: `D${row}`, input: '=Inputs!$B$1*$B$2' })),
            { address: 'D8', input: '=SUM(D5:D7)' },
          ],
        },
      ],
    })
    expect(answer.status).toBe(201)
    return answer.json.workbookId
  }

  it('answers the findings, errors first, with a summary, and reads nothing it may not', async () => {
    const id = await flawedWorkbook()
    const before = (await ada('GET', `/spreadsheet/workbooks/${id}`)).json.workbook.revision
    const answer = await ada('POST', '/ai/audit', { workbookId: id })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.json).toMatchObject({ success: true, workbookId: id, inputSheet: 'Inputs', explanation: null, unlisted: 0 })
    const rules = answer.json.findings.map((finding: Json) => [finding.rule, finding.severity, finding.cells[0]])
    expect(rules).toEqual([
      ['error-cell', 'error', 'Model!B3'],
      ['incomplete-total', 'error', 'Model!D8'],
      ['number-in-formula', 'warning', 'Model!C2'],
      ['empty-reference', 'warning', 'Model!B3'],
    ])
    expect(answer.json.summary).toMatch(/^2 errors and 2 warnings\. First: Model!B3 shows #DIV\/0!/)
    expect(answer.json.findings[1].fix).toBe('Extend the total to =SUM(D4:D7)')
    expect((await ada('GET', `/spreadsheet/workbooks/${id}`)).json.workbook.revision).toBe(before)
    expect((await eve('POST', '/ai/audit', { workbookId: id })).status).toBe(404)
    expect((await ada('POST', '/ai/audit', { workbookId: id, sheet: 'Nope' })).status).toBe(400)
    expect((await ada('POST', '/ai/audit', {})).status).toBe(400)
  })

  it('finds nothing to fix in a generated model', async () => {
    const generated = await generate({ modelType: 'three-statement', companyName: 'Acme' })
    const answer = await ada('POST', '/ai/audit', { workbookId: generated.json.workbookId })
    expect(answer.json).toMatchObject({ findings: [], counts: { error: 0, warning: 0, info: 0 }, summary: 'No problems found.' })
  })

  it('has a chosen hosted model explain the findings in prose', async () => {
    openai.enqueue({ reply: { text: 'Fix the division by an empty cell first: everything below it depends on it.' } })
    const answer = await ada('POST', '/ai/audit', { workbookId: await flawedWorkbook(), model: 'gpt-4o' })
    expect(answer.json.explanation).toBe('Fix the division by an empty cell first: everything below it depends on it.')
    expect(JSON.parse(openai.requests[0].body.messages.at(-1).content)[0]).toMatchObject({ rule: 'error-cell', cells: ['Model!B3'] })
  })
})
