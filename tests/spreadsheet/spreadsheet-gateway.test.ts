/**
 * The spreadsheet API as the web app reaches it: every route behind the gateway at /api/spreadsheet,
 * on the all-in-one stack with the embedded adapters, with real users and tokens from the users service.
 * With FINSHEET_API_URL it runs against that deployment instead (npm run test:compose).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAllInOne, type AllInOne } from '@finsheet/standalone'
import { DCF_MODEL_SHEETS } from '@finsheet/contracts'
import { buildFinancialModel, calculateTemplate, TEMPLATE_COMPANY } from '@finsheet/workbook'

const root = mkdtempSync(join(tmpdir(), 'finsheet-spreadsheet-gateway-'))
let stack: Pick<AllInOne, 'url' | 'close'>
/** Emails of this run, so a deployment that keeps its data can run the suite again. */
const run = Date.now().toString(36)
let ada: Api
let eve: Api

interface Answer {
  status: number
  headers: Headers
  text: string
  bytes: Buffer
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any
}
type Api = (method: string, path: string, body?: unknown) => Promise<Answer>

function api(token: string | null): Api {
  return async (method, path, body) => {
    const response = await fetch(`${stack.url}/api/spreadsheet${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })
    const bytes = Buffer.from(await response.arrayBuffer())
    const text = bytes.toString('utf8')
    let json: unknown
    if ((response.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(text)
    return { status: response.status, headers: response.headers, text, bytes, json }
  }
}

async function signUp(email: string, fullName: string): Promise<string> {
  const response = await fetch(`${stack.url}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'amber-otter-42', fullName }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { token: string }).token
}

beforeAll(async () => {
  const deployed = process.env.FINSHEET_API_URL
  stack = deployed
    ? { url: deployed.replace(/\/$/, ''), close: async () => undefined }
    : await startAllInOne({
        port: 0,
        dataDir: join(root, 'data'),
        logger: false,
        webRoot: join(root, 'no-web-build'),
        env: { AUTOSAVE_QUIET_MS: '0', RATE_LIMIT_MAX: '100000' },
      })
  ada = api(await signUp(`ada.${run}@example.com`, 'Ada Lovelace'))
  eve = api(await signUp(`eve.${run}@example.com`, 'Eve'))
})
afterAll(async () => {
  await stack?.close()
  rmSync(root, { recursive: true, force: true })
})

/** The DCF template's enterprise value as the engine calculates the model built with these parameters. */
function dcfEnterpriseValue(parameters: Record<string, number> = {}): number {
  const { template } = buildFinancialModel('dcf', TEMPLATE_COMPANY, parameters)
  return calculateTemplate(template).getValue('Valuation', EV) as number
}
/** Where the DCF template shows its enterprise value, on Valuation. */
const EV = buildFinancialModel('dcf', TEMPLATE_COMPANY).template.keyOutputs.find((output) => output.label === 'Enterprise value')!.address
const sheets = [...DCF_MODEL_SHEETS]

describe('the spreadsheet API through the gateway', () => {
  it('refuses calls without a token at the gateway', async () => {
    const anonymous = api(null)
    expect((await anonymous('GET', '/workbooks')).status).toBe(401)
    expect((await anonymous('POST', '/update-cell', { workbookId: 'x', cellAddress: 'A1', value: 1 })).status).toBe(401)
    expect((await anonymous('GET', '/health')).status).toBe(200)
  })

  it('serves every route: workbooks, cells, sheets, changes, history, undo, versions, templates, search, export, charts, metrics', async () => {
    const templates = await ada('GET', '/templates')
    expect(templates.json.templates).toHaveLength(5)
    expect((await ada('GET', '/templates/dcf-model')).json.template.name).toBe('DCF Model')

    const created = await ada('POST', '/workbooks', { name: 'Acme DCF', templateId: 'dcf-model' })
    expect(created.status).toBe(201)
    const id: string = created.json.workbookId
    expect((await ada('GET', '/workbook/' + id + '/cells?sheet=Valuation')).json.workbook.sheets[0].cells[EV].value).toBeCloseTo(dcfEnterpriseValue(), 6)

    const list = await ada('GET', '/workbooks')
    expect(list.json).toMatchObject({ limit: 10, offset: 0, total: 1, workbooks: [{ id, name: 'Acme DCF', sheets }] })
    expect((await ada('GET', `/workbooks/${id}`)).json.workbook.totalFormulas).toBeGreaterThan(50)
    expect((await ada('PATCH', `/workbooks/${id}`, { name: 'Acme valuation' })).json.workbook.name).toBe('Acme valuation')
    expect((await ada('GET', `/workbook/${id}`)).json.workbook.sheetOrder).toEqual(sheets)

    // Assumptions!B10 is the risk-free rate, a part of the WACC.
    const edit = await ada('POST', '/update-cell', { workbookId: id, sheetName: 'Assumptions', cellAddress: 'B10', value: '5%' })
    expect(edit.status).toBe(200)
    const ev = edit.json.changedCells.find((cell: { sheet: string; address: string }) => cell.sheet === 'Valuation' && cell.address === EV)
    expect(ev.value).toBeCloseTo(dcfEnterpriseValue({ riskFreeRate: 5 }), 6)
    const batch = await ada('POST', '/update-cells', {
      workbookId: id,
      sheetName: 'Assumptions',
      revision: edit.json.revision,
      updates: [
        { cellAddress: 'D1', value: 'Scenario' },
        { cellAddress: 'D2', formula: `=Valuation!${EV}/1000` },
      ],
    })
    expect(batch.json.changedCells).toHaveLength(2)
    expect((await ada('GET', `/workbook/${id}/cell/Assumptions!B10/history`)).json.history[0]).toMatchObject({ oldInput: '0.04', newInput: '5%', userName: 'Ada Lovelace' })
    const change = await ada('POST', `/workbook/${id}/changes`, { commands: [{ type: 'insert-rows', sheet: 'Assumptions', at: 0, count: 1 }] })
    expect(change.json.structureChanged).toBe(true)
    expect((await ada('GET', `/workbook/${id}/cell/Assumptions!B11/history`)).json.history[0]).toMatchObject({ oldInput: '0.04', newInput: '5%' })
    expect((await ada('GET', `/workbook/${id}/changes?since=1`)).json.changes.map((entry: { kind: string }) => entry.kind)).toEqual(['edit', 'edit', 'edit'])
    expect((await ada('POST', `/workbook/${id}/undo`, {})).json.target.label).toBe('Insert 1 row on Assumptions')
    expect((await ada('POST', `/workbook/${id}/redo`, {})).json.canRedo).toBe(false)

    expect((await ada('POST', `/workbook/${id}/sheets`, { name: 'Notes' })).status).toBe(201)
    expect((await ada('PATCH', `/workbook/${id}/sheets/Notes`, { name: 'Memo', index: 0 })).json.sheetOrder).toEqual(['Memo', ...sheets])
    expect((await ada('GET', `/workbook/${id}/sheets`)).json.totalSheets).toBe(sheets.length + 1)
    expect((await ada('DELETE', `/workbook/${id}/sheets/Memo`)).json.sheetOrder).toEqual(sheets)

    const saved = await ada('POST', `/workbook/${id}/save`, { tags: ['board'] })
    expect(saved.json.version).toMatchObject({ number: 2, type: 'major', author: 'Ada Lovelace', fileName: 'Acme valuation' })
    const versions = await ada('GET', `/workbook/${id}/versions`)
    const first = versions.json.versions.find((version: { number: number }) => version.number === 1)
    expect((await ada('GET', '/versions?search=board')).json.versions).toHaveLength(1)
    expect((await ada('GET', `/workbook/${id}/versions/${first.id}`)).json.version.changes).toMatch(/^Created from the DCF Model template/)
    const compared = await ada('GET', `/workbook/${id}/versions/compare?from=${first.id}&to=${saved.json.version.id}`)
    expect(compared.json.summary.inputsChanged).toBeGreaterThan(0)
    const restored = await ada('POST', `/workbook/${id}/versions/${first.id}/restore`, {})
    expect(restored.json.version).toMatchObject({ number: 3, restoredFrom: first.id })
    expect((await ada('GET', `/workbook/${id}/cells?sheet=Valuation`)).json.workbook.sheets[0].cells[EV].value).toBeCloseTo(dcfEnterpriseValue(), 6)

    expect((await ada('POST', '/search-cells', { query: 'enterprise value', limit: 20, includeFormulas: true })).json.results).toContainEqual(
      expect.objectContaining({ workbookId: id, sheet: 'Valuation', address: `A${EV.slice(1)}` }),
    )

    const chart = await ada('POST', '/create-chart', { workbookId: id, type: 'line', dataRange: 'Operating!A3:F4', title: 'Revenue', seriesInColumns: false })
    expect(chart.status).toBe(201)
    const firstYear = new Date().getUTCFullYear()
    expect(chart.json.chart.data.labels).toEqual([0, 1, 2, 3, 4].map((i) => String(firstYear + i)))
    expect((await ada('GET', `/workbook/${id}/charts`)).json.charts).toHaveLength(1)
    expect((await ada('DELETE', `/workbook/${id}/charts/${chart.json.chart.id}`)).status).toBe(200)

    const xlsx = await ada('GET', `/workbook/${id}/export?format=xlsx`)
    expect(xlsx.status).toBe(200)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(xlsx.bytes as unknown as ExcelJS.Buffer)
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual(sheets)
    expect(((book.getWorksheet('Valuation')!.getCell(EV).value as ExcelJS.CellFormulaValue).result as number)).toBeCloseTo(dcfEnterpriseValue(), 6)
    const csv = await ada('GET', `/workbook/${id}/export?format=csv&sheet=Valuation`)
    const [label, value] = csv.text.split('\r\n')[Number(EV.slice(1)) - 1].split(',')
    expect(label).toBe('Enterprise value')
    expect(Number(value)).toBeCloseTo(dcfEnterpriseValue(), 6)
    const json = await ada('GET', `/workbook/${id}/export?format=json`)
    const cells = (await ada('GET', `/workbook/${id}/cells`)).json
    expect(json.json).toEqual({ ...cells, workbook: { ...cells.workbook, truncated: null } })
    const inputs = (await ada('GET', `/workbook/${id}/inputs?sheet=Valuation`)).json.workbook
    expect(inputs.sheets.map((sheet: { name: string }) => sheet.name)).toEqual(['Valuation'])
    expect(inputs.sheets[0].cells.find(([address]: [string]) => address === EV)[1]).toBe((await ada('GET', `/workbook/${id}/cells?sheet=Valuation`)).json.workbook.sheets[0].cells[EV].input)

    const imported = await ada('POST', '/workbooks/import', { name: 'From a file', sheets: [{ name: 'Data', cells: [{ address: 'A1', input: 2 }, { address: 'A2', input: '=A1^10' }] }] })
    expect(imported.json).toMatchObject({ cellCount: 2, formulaCount: 1 })

    const metrics = await ada('GET', '/metrics/performance')
    expect(metrics.json.requests.routes.map((route: { route: string }) => route.route)).toEqual(expect.arrayContaining(['/update-cell', '/workbooks', '/workbook/:id/cells']))

    expect((await ada('DELETE', `/workbook/${id}`)).status).toBe(200)
    expect((await ada('GET', `/workbook/${id}/cells`)).status).toBe(404)
  })

  it('answers bad input with 400 and a message and writes nothing; a body over the limit is refused', async () => {
    const id = (await ada('POST', '/workbooks', { name: 'Strict' })).json.workbookId
    await ada('POST', '/update-cell', { workbookId: id, cellAddress: 'A1', value: 1 })
    for (const body of [
      { workbookId: id, cellAddress: 'XFD1048577', value: 1 },
      { workbookId: id, sheetName: 'Missing', cellAddress: 'A1', value: 1 },
      { workbookId: id, cellAddress: 'A1', formula: '=' + 'A'.repeat(8192) },
    ]) {
      const answer = await ada('POST', '/update-cell', body)
      expect(answer.status).toBe(400)
      expect(answer.json.error.message).toEqual(expect.any(String))
    }
    expect((await ada('POST', '/update-cell', '{"workbookId":')).status).toBe(400)
    const huge = await ada('POST', '/update-cells', { workbookId: id, updates: [{ cellAddress: 'B1', value: 'x'.repeat(11 * 1024 * 1024) }] })
    expect(huge.status).toBe(413)
    const cells = (await ada('GET', `/workbook/${id}/cells`)).json.workbook
    expect(cells.totalCells).toBe(1)
    expect(cells.revision).toBe(2)
  })

  it("answers 404 for another user's workbook on every kind of route", async () => {
    const id = (await ada('POST', '/workbooks', { name: 'Private' })).json.workbookId
    const version = (await ada('GET', `/workbook/${id}/versions`)).json.versions[0].id
    for (const [method, path, body] of [
      ['GET', `/workbooks/${id}`],
      ['GET', `/workbook/${id}/cells`],
      ['POST', '/update-cell', { workbookId: id, cellAddress: 'A1', value: 'x' }],
      ['GET', `/workbook/${id}/cell/A1/history`],
      ['POST', `/workbook/${id}/undo`, {}],
      ['GET', `/workbook/${id}/versions`],
      ['POST', `/workbook/${id}/versions/${version}/restore`, {}],
      ['GET', `/workbook/${id}/export?format=xlsx`],
      ['POST', '/create-chart', { workbookId: id, type: 'bar', dataRange: 'A1:B2' }],
      ['DELETE', `/workbook/${id}`],
    ] as const) {
      const answer = await eve(method, path, body)
      expect(answer.status, `${method} ${path}`).toBe(404)
      expect(answer.json.error.code).toBe('WORKBOOK_NOT_FOUND')
    }
    expect((await ada('GET', `/workbooks/${id}`)).status).toBe(200)
  })

  it('loses nothing when 20 clients write different cells of one workbook at once', async () => {
    const id = (await ada('POST', '/workbooks', { name: 'Busy' })).json.workbookId
    const revision = (await ada('GET', `/workbooks/${id}`)).json.workbook.revision
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => ada('POST', '/update-cell', { workbookId: id, cellAddress: `B${i + 1}`, value: `writer ${i + 1}`, revision })),
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200))
    const cells = (await ada('GET', `/workbook/${id}/cells`)).json.workbook.sheets[0].cells
    for (let i = 1; i <= 20; i++) expect(cells[`B${i}`]?.value).toBe(`writer ${i}`)
    expect((await ada('GET', `/workbooks/${id}`)).json.workbook.revision).toBe(revision + 20)
  })
})
