/**
 * The assistant's tools and changesets as the AI service reaches them: through the gateway at
 * /api/spreadsheet with the user's token, on the all-in-one stack with real users.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAllInOne, type AllInOne } from '@finsheet/standalone'

const root = mkdtempSync(join(tmpdir(), 'finsheet-agent-gateway-'))
let stack: AllInOne
let ada: Api
let eve: Api

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: number; json: any }
type Api = (method: string, path: string, body?: unknown) => Promise<Answer>

function api(token: string): Api {
  return async (method, path, body) => {
    const response = await fetch(`${stack.url}/api/spreadsheet${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, json: await response.json() }
  }
}

async function signUp(email: string): Promise<string> {
  const response = await fetch(`${stack.url}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'amber-otter-42', fullName: email }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { token: string }).token
}

beforeAll(async () => {
  stack = await startAllInOne({ port: 0, dataDir: join(root, 'data'), logger: false, webRoot: join(root, 'no-web-build'), env: { AUTOSAVE_QUIET_MS: '0', RATE_LIMIT_MAX: '100000' } })
  ada = api(await signUp('ada@example.com'))
  eve = api(await signUp('eve@example.com'))
})
afterAll(async () => {
  await stack?.close()
  rmSync(root, { recursive: true, force: true })
})

/** A revenue build: growth on Inputs, four years of revenue and EBITDA on Model, a total that reads them. */
async function newModel(): Promise<string> {
  const years = ['FY2024', 'FY2025', 'FY2026', 'FY2027']
  const model = [
    { address: 'A1', input: '($m)' },
    ...years.map((year, i) => ({ address: `${'BCDE'[i]}1`, input: year })),
    { address: 'A2', input: 'Revenue' },
    { address: 'B2', input: '1000' },
    ...[1, 2, 3].map((i) => ({ address: `${'BCDE'[i]}2`, input: `=${'BCDE'[i - 1]}2*(1+Inputs!$B$1)` })),
    { address: 'A3', input: 'EBITDA' },
    ...[0, 1, 2, 3].map((i) => ({ address: `${'BCDE'[i]}3`, input: `=${'BCDE'[i]}2*Inputs!$B$2` })),
    { address: 'A5', input: 'Total EBITDA' },
    { address: 'B5', input: '=SUM(B3:E3)' },
  ]
  const answer = await ada('POST', '/workbooks/import', {
    name: 'Acme',
    sheets: [
      { name: 'Inputs', cells: [{ address: 'A1', input: 'Growth' }, { address: 'B1', input: '10%' }, { address: 'A2', input: 'Margin' }, { address: 'B2', input: '20%' }] },
      { name: 'Model', cells: model },
    ],
  })
  expect(answer.status).toBe(201)
  return answer.json.workbookId
}

const calls = (...list: [string, unknown][]) => list.map(([name, args], index) => ({ id: `call_${index}`, name, arguments: args }))

async function cellsOf(id: string, sheet: string): Promise<Record<string, { value: unknown; input: string }>> {
  return (await ada('GET', `/workbook/${id}/cells?sheet=${sheet}`)).json.workbook.sheets[0].cells
}

describe('the agent tools through the gateway', () => {
  it('collects several tool calls over two turns in one changeset, applied as one change that one undo reverts', async () => {
    const id = await newModel()
    const before = { inputs: await cellsOf(id, 'Inputs'), model: await cellsOf(id, 'Model') }
    const first = await ada('POST', `/workbook/${id}/agent-tools`, {
      calls: calls(
        ['get_workbook_overview', {}],
        ['write_cells', { sheet: 'Inputs', cells: [{ address: { row: 'Growth', column: 'B' }, input: '12%' }], overwrite: true }],
        ['write_cells', { sheet: 'Model', cells: [{ address: 'F1', input: 'FY2028' }, { address: 'F2', input: '=E2*(1+Inputs!$B$1)' }] }],
      ),
    })
    expect(first.status).toBe(200)
    expect(first.json.results.map((result: { ok: boolean; summary: string }) => [result.ok, result.summary])).toEqual([
      [true, 'Looking over the workbook: 2 sheets, 21 cells'],
      [true, 'Writing 1 cell on Inputs'],
      [true, 'Writing 2 cells on Model'],
    ])
    const changesetId = first.json.changesetId
    const second = await ada('POST', `/workbook/${id}/agent-tools`, {
      changesetId,
      calls: calls(['fill_formula', { sheet: 'Model', source: 'E3', target: 'F3' }], ['write_cells', { sheet: 'Model', cells: [{ address: 'B5', input: '=SUM(B3:F3)' }], overwrite: true }]),
    })
    expect(second.json.results.every((result: { ok: boolean }) => result.ok)).toBe(true)
    expect(second.json.changeset).toMatchObject({ id: changesetId, changeCount: 5, description: '1 cell on Inputs, 4 on Model' })

    const preview = (await ada('GET', `/changesets/${changesetId}`)).json.changeset
    expect(preview.changes.map((change: { sheet: string; address: string }) => `${change.sheet}!${change.address}`)).toEqual(['Inputs!B1', 'Model!F1', 'Model!F2', 'Model!F3', 'Model!B5'])
    expect(preview.downstream.map((effect: { address: string }) => effect.address)).toEqual(['E2', 'E3', 'D2', 'D3', 'C2', 'C3'])
    expect(preview.downstream[0].text).toMatch(/^Model!E2 1,331 → 1,404\.93$/)

    const applied = await ada('POST', `/changesets/${changesetId}/apply`, { label: 'Extend to FY2028', summary: 'Growth to 12%, FY2028 added' })
    expect(applied.status).toBe(200)
    expect(applied.json.changeset).toMatchObject({ status: 'applied', applied: true })
    const model = await cellsOf(id, 'Model')
    expect(model.F3.value).toBeCloseTo(1000 * 1.12 ** 4 * 0.2, 9)
    expect(model.B5.input).toBe('=SUM(B3:F3)')
    const log = (await ada('GET', `/workbook/${id}/changes`)).json.changes
    expect(log.at(-1)).toMatchObject({ source: 'ai', label: 'Extend to FY2028' })

    const undo = await ada('POST', `/workbook/${id}/undo`, {})
    expect(undo.status).toBe(200)
    expect(await cellsOf(id, 'Inputs')).toEqual(before.inputs)
    expect(await cellsOf(id, 'Model')).toEqual(before.model)
  })

  it('previews without writing anything until the changeset is applied', async () => {
    const id = await newModel()
    const revision = (await ada('GET', `/workbooks/${id}`)).json.workbook.revision
    const turn = await ada('POST', `/workbook/${id}/agent-tools`, { calls: calls(['write_cells', { sheet: 'Inputs', cells: [{ address: 'B2', input: '25%' }], overwrite: true }]) })
    expect((await ada('GET', `/workbooks/${id}`)).json.workbook.revision).toBe(revision)
    expect((await cellsOf(id, 'Inputs')).B2.value).toBe(0.2)
    expect((await ada('GET', `/changesets/${turn.json.changesetId}`)).json.changeset).toMatchObject({ status: 'draft', applied: false, changeCount: 1, downstreamCount: 5 })
    expect((await ada('POST', `/changesets/${turn.json.changesetId}/apply`, {})).status).toBe(200)
    expect((await cellsOf(id, 'Inputs')).B2.value).toBe(0.25)
  })

  it('discards a changeset, leaving the workbook untouched', async () => {
    const id = await newModel()
    const before = await cellsOf(id, 'Model')
    const turn = await ada('POST', `/workbook/${id}/agent-tools`, { calls: calls(['modify_structure', { action: 'insert_rows', sheet: 'Model', at: 'EBITDA' }]) })
    const discarded = await ada('POST', `/changesets/${turn.json.changesetId}/discard`, {})
    expect(discarded.json.changeset.status).toBe('discarded')
    expect(await cellsOf(id, 'Model')).toEqual(before)
    expect((await ada('POST', `/changesets/${turn.json.changesetId}/apply`, {})).status).toBe(409)
  })

  it('answers 409 naming the cells when one of them changed after the preview', async () => {
    const id = await newModel()
    const turn = await ada('POST', `/workbook/${id}/agent-tools`, { calls: calls(['write_cells', { sheet: 'Model', cells: [{ address: 'B2', input: '1100' }], overwrite: true }]) })
    await ada('POST', '/update-cell', { workbookId: id, sheetName: 'Model', cellAddress: 'B2', value: 900 })
    const refused = await ada('POST', `/changesets/${turn.json.changesetId}/apply`, {})
    expect(refused.status).toBe(409)
    expect(refused.json.error).toMatchObject({ code: 'CHANGESET_CONFLICT', cells: [{ sheet: 'Model', address: 'B2' }] })
    expect((await cellsOf(id, 'Model')).B2.value).toBe(900)
  })

  it("answers 404 for another user's changeset", async () => {
    const id = await newModel()
    const turn = await ada('POST', `/workbook/${id}/agent-tools`, { calls: calls(['write_cells', { sheet: 'Inputs', cells: [{ address: 'C1', input: 'note' }] }]) })
    const changesetId = turn.json.changesetId
    expect((await eve('GET', `/changesets/${changesetId}`)).status).toBe(404)
    expect((await eve('POST', `/changesets/${changesetId}/apply`, {})).status).toBe(404)
    expect((await eve('POST', `/changesets/${changesetId}/discard`, {})).status).toBe(404)
    expect((await eve('POST', `/workbook/${id}/agent-tools`, { changesetId, calls: calls(['get_workbook_overview', {}]) })).status).toBe(404)
    expect((await ada('GET', `/changesets/${changesetId}`)).json.changeset.status).toBe('draft')
  })
})
