/**
 * The vector search through the gateway of the all-in-one stack: formula search, a workbook indexed
 * by the spreadsheet service's own job after edits (and removed when deleted), cell search among the
 * caller's own workbooks only, semantic search-cells, the index route with its job, the analysis,
 * and bad input answered 400 or 404 with the service still up.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAllInOne, type AllInOne } from '@finsheet/standalone'
import type { CellMatch, FormulaMatch, JobStatusResponse, WorkbookAnalysis } from '@finsheet/contracts'

let stack: AllInOne
let dataDir: string

interface User {
  token: string
  uid: string
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function signUp(email: string): Promise<User> {
  const response = await fetch(`${stack.url}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'secret-pass', fullName: email.split('@')[0] }),
  })
  expect(response.status).toBe(201)
  const { token, user } = (await response.json()) as { token: string; user: { uid: string } }
  return {
    token,
    uid: user.uid,
    async call(method, path, body) {
      const answer = await fetch(`${stack.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      })
      const text = await answer.text()
      return { status: answer.status, json: text ? JSON.parse(text) : null }
    },
  }
}

/** A small DCF laid out as models are: years across, labels down, inputs on their own sheet. */
async function createModel(user: User, name: string): Promise<string> {
  const created = await user.call('POST', '/api/spreadsheet/workbooks', { name })
  expect(created.status, JSON.stringify(created.json)).toBe(201)
  const workbookId = created.json.workbookId as string
  const rows: Array<Array<string | number>> = [
    ['', 2025, 2026, 2027],
    ['Revenue', 1000, '=B1*0+B2*1.1', '=C2*1.1'],
    ['EBITDA', '=B2*0.25', '=C2*0.25', '=D2*0.25'],
    ['Capital expenditures', '=-B2*0.05', '=-C2*0.05', 40],
    ['Unlevered free cash flow', '=B3+B4', '=C3+C4', '=D3+D4'],
    ['Discount rate (WACC)', 0.09],
    ['Enterprise value', '=NPV(B6,B5:D5)'],
    ['Headcount', 42, 45, 51],
    ['Margin check', '=B3/0'],
  ]
  const updates = rows.flatMap((row, r) => row.map((value, c) => ({ address: `${'ABCD'[c]}${r + 1}`, value })).filter((update) => update.value !== ''))
  const written = await user.call('POST', '/api/spreadsheet/update-cells', { workbookId, sheetName: 'Sheet1', updates })
  expect(written.status, JSON.stringify(written.json)).toBe(200)
  return workbookId
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 150))
  }
}

let ana: User
let bob: User
let anaModel: string
let bobModel: string

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'finsheet-vectordb-'))
  stack = await startAllInOne({ port: 0, dataDir, logger: false, webRoot: join(dataDir, 'no-web'), env: { SEARCH_INDEX_QUIET_MS: '200', AUTOSAVE_QUIET_MS: '0' } })
  ana = await signUp('ana@example.com')
  bob = await signUp('bob@example.com')
  anaModel = await createModel(ana, 'Ana DCF')
  bobModel = await createModel(bob, 'Bob secret model')
  // The spreadsheet service queues the index jobs itself after the edits' quiet period.
  for (const [user, workbookId] of [[ana, anaModel], [bob, bobModel]] as const) {
    await waitFor(`${workbookId} indexed`, async () => ((await user.call('GET', '/api/vectordb/indexed-workbooks')).json.workbooks as Array<{ workbookId: string; points: number }>).find((w) => w.workbookId === workbookId && w.points > 0))
  }
}, 120_000)
afterAll(async () => {
  await stack?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('formula search', () => {
  it("finds the function for what it does ('monthly loan payment' → PMT) and a name typed exactly first", async () => {
    const payment = await ana.call('POST', '/api/vectordb/search/formulas', { query: 'monthly loan payment', options: { limit: 5 } })
    expect(payment.status).toBe(200)
    const results = payment.json.results as FormulaMatch[]
    expect(results.length).toBe(5)
    expect(results.slice(0, 3).map((r) => r.name)).toContain('PMT')
    expect(results[0]).toMatchObject({ syntax: expect.stringContaining('('), description: expect.any(String), category: expect.any(String), score: expect.any(Number) })
    const typed = await ana.call('POST', '/api/vectordb/search/formulas', { query: 'xirr' })
    expect(typed.json.results[0].name).toBe('XIRR')
    expect(typed.json.results.length).toBeLessThanOrEqual(20)
  })
})

describe('cell search', () => {
  it("finds a row by meaning among the caller's own workbooks only", async () => {
    const found = await ana.call('POST', '/api/vectordb/search/cells', { query: 'free cash flow', options: { limit: 3 } })
    expect(found.status).toBe(200)
    const results = found.json.results as CellMatch[]
    expect(results[0]).toMatchObject({ workbookId: anaModel, workbookName: 'Ana DCF', sheet: 'Sheet1', label: 'Unlevered free cash flow' })
    expect(results.every((r) => r.workbookId === anaModel)).toBe(true)
    const discount = (await ana.call('POST', '/api/vectordb/search/cells', { query: 'cost of capital', workbookId: anaModel })).json.results as CellMatch[]
    expect(discount[0].label).toBe('Discount rate (WACC)')
    const employees = (await ana.call('POST', '/api/vectordb/search/cells', { query: 'how many employees', options: { limit: 3 } })).json.results as CellMatch[]
    expect(employees.map((r) => r.label)).toContain('Headcount')
  })

  it("answers 404 for another user's workbook id, and never shows their cells", async () => {
    const theirs = await ana.call('POST', '/api/vectordb/search/cells', { query: 'revenue', workbookId: bobModel })
    expect(theirs.status).toBe(404)
    const all = (await ana.call('POST', '/api/vectordb/search/cells', { query: 'Bob secret model revenue', options: { limit: 100 } })).json.results as CellMatch[]
    expect(all.every((r) => r.workbookId !== bobModel)).toBe(true)
    expect((await ana.call('POST', `/api/vectordb/index/workbook/${bobModel}`)).status).toBe(404)
    expect((await ana.call('POST', '/api/vectordb/analyze/claude', { workbookId: bobModel, analysisType: 'overview', options: {} })).status).toBe(404)
    expect((await ana.call('POST', '/api/vectordb/search/cells', { query: 'revenue', workbookId: 'no-such-workbook' })).status).toBe(404)
  })

  it('refuses empty, blank, punctuation-only and 10,000-character queries with 400, and stays up', async () => {
    for (const query of ['', '   ', '?!…—', 'x'.repeat(10_000)]) {
      for (const path of ['/api/vectordb/search/cells', '/api/vectordb/search/formulas']) {
        const answer = await ana.call('POST', path, { query })
        expect(answer.status, `${path} ${query.slice(0, 10)}`).toBe(400)
        expect(answer.json.error.code).toEqual(expect.any(String))
      }
    }
    expect((await ana.call('POST', '/api/vectordb/search/cells', { query: 'revenue', options: { limit: 0 } })).status).toBe(400)
    expect((await ana.call('POST', '/api/vectordb/search/cells', { words: 'revenue' })).status).toBe(400)
    // a long query of real words is read as its first words
    const long = await ana.call('POST', '/api/vectordb/search/cells', { query: `headcount ${'and more words '.repeat(100)}` })
    expect(long.status).toBe(200)
    expect((await ana.call('POST', '/api/vectordb/search/formulas', { query: 'net present value' })).json.results[0].name).toBe('NPV')
  })

  it('search-cells in the spreadsheet area finds by meaning with semantic: true', async () => {
    const semantic = await ana.call('POST', '/api/spreadsheet/search-cells', { query: 'capex', semantic: true, limit: 3 })
    expect(semantic.status, JSON.stringify(semantic.json)).toBe(200)
    expect(semantic.json.results[0]).toMatchObject({ workbookId: anaModel, metadata: { matchedIn: 'meaning', label: 'Capital expenditures', workbookName: 'Ana DCF' } })
    // the text search does not know that capex means capital expenditures
    expect((await ana.call('POST', '/api/spreadsheet/search-cells', { query: 'capex' })).json.results).toEqual([])
    expect((await ana.call('POST', '/api/spreadsheet/search-cells', { query: 'capex', semantic: true, workbookId: bobModel })).status).toBe(404)
  })
})

describe('indexing', () => {
  it('indexes on request with a job whose progress the owner reads, and re-indexes after a change', async () => {
    const queued = await ana.call('POST', `/api/vectordb/index/workbook/${anaModel}`)
    expect(queued.status).toBe(202)
    const job = await waitFor('the index job', async () => {
      const status = (await ana.call('GET', `/api/vectordb/jobs/${queued.json.jobId}`)).json as JobStatusResponse
      return status.state === 'completed' ? status : null
    })
    expect(job).toMatchObject({ progress: 100, result: { workbookId: anaModel, removed: false } })
    expect((await bob.call('GET', `/api/vectordb/jobs/${queued.json.jobId}`)).status).toBe(404)

    await ana.call('POST', '/api/spreadsheet/update-cells', { workbookId: anaModel, sheetName: 'Sheet1', updates: [{ address: 'A10', value: 'Terminal value' }, { address: 'B10', value: '=D5*20' }] })
    await waitFor('the edit indexed', async () => {
      const found = (await ana.call('POST', '/api/vectordb/search/cells', { query: 'terminal value', workbookId: anaModel, options: { limit: 1 } })).json.results as CellMatch[]
      return found[0]?.label === 'Terminal value'
    })
  })

  it('keeps no token in the index jobs it stores', async () => {
    const db = new Database(join(dataDir, 'jobs.sqlite'), { readonly: true })
    try {
      const rows = db.prepare("SELECT data FROM jobs WHERE queue = 'vectordb.index-workbook'").all() as Array<{ data: string }>
      expect(rows.length).toBeGreaterThan(0)
      for (const row of rows) {
        expect(Object.keys(JSON.parse(row.data)).sort()).toEqual(['action', 'userId', 'workbookId'])
        expect(row.data).not.toMatch(/eyJ/)
      }
    } finally {
      db.close()
    }
  })

  it('removes a deleted workbook from the index', async () => {
    const doomed = await createModel(ana, 'Doomed model')
    await waitFor('indexed', async () => ((await ana.call('GET', '/api/vectordb/indexed-workbooks')).json.workbooks as Array<{ workbookId: string }>).some((w) => w.workbookId === doomed))
    expect((await ana.call('DELETE', `/api/spreadsheet/workbook/${doomed}`)).status).toBe(200)
    await waitFor('removed', async () => !((await ana.call('GET', '/api/vectordb/indexed-workbooks')).json.workbooks as Array<{ workbookId: string }>).some((w) => w.workbookId === doomed))
    const results = (await ana.call('POST', '/api/vectordb/search/cells', { query: 'free cash flow', options: { limit: 100 } })).json.results as CellMatch[]
    expect(results.some((r) => r.workbookId === doomed)).toBe(false)
  })
})

describe('analysis', () => {
  it('names the key drivers, the outputs, the errors and the numbers typed into formula rows', async () => {
    const answer = await ana.call('POST', '/api/vectordb/analyze/claude', { workbookId: anaModel, analysisType: 'overview', options: { limit: 5 } })
    expect(answer.status, JSON.stringify(answer.json)).toBe(200)
    const analysis = answer.json.analysis as WorkbookAnalysis
    expect(analysis.keyDrivers[0]).toMatchObject({ address: 'B2', label: 'Revenue' })
    expect(analysis.outputs.map((o) => o.label)).toContain('Enterprise value')
    expect(analysis.errors).toContainEqual(expect.objectContaining({ address: 'B9', value: '#DIV/0!' }))
    expect(analysis.hardcodedNumbers).toContainEqual(expect.objectContaining({ address: 'D4', label: 'Capital expenditures' }))
    expect(analysis.narrator).toBe('rules')
    expect(analysis.summary).toMatch(/key driver is Revenue/)
    const errorsOnly = (await ana.call('POST', '/api/vectordb/analyze/claude', { workbookId: anaModel, analysisType: 'errors' })).json.analysis as WorkbookAnalysis
    expect(errorsOnly.keyDrivers).toEqual([])
    expect(errorsOnly.errors.length).toBeGreaterThan(0)
    expect((await ana.call('POST', '/api/vectordb/analyze/claude', { workbookId: anaModel, analysisType: 'everything' })).status).toBe(400)
  })
})

describe('the gateway', () => {
  it('serves the area behind a token', async () => {
    const anonymous = await fetch(`${stack.url}/api/vectordb/search/formulas`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'sum' }) })
    expect(anonymous.status).toBe(401)
  })
})
