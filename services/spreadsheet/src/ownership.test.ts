import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let owner: Call
let intruder: Call
let id: string
let versionId: string
let chartId: string

beforeAll(async () => {
  t = await startTestApp()
  owner = clientFor(t.app, await t.tokenFor('owner'))
  intruder = clientFor(t.app, await t.tokenFor('intruder'))
  id = (await owner('POST', '/workbooks', { name: 'Private' })).json.workbookId
  await owner('POST', '/update-cells', { workbookId: id, updates: [{ cellAddress: 'A1', value: 'secret' }, { cellAddress: 'B1', value: 1 }, { cellAddress: 'B2', value: 2 }] })
  versionId = (await owner('POST', `/workbook/${id}/save`, {})).json.version.id
  chartId = (await owner('POST', '/create-chart', { workbookId: id, type: 'line', dataRange: 'B1:B2' })).json.chart.id
})
afterAll(async () => {
  await t.close()
})

describe("another user's workbook", () => {
  it('answers 404 on every route, exactly as for a workbook that does not exist, and changes nothing', async () => {
    const routes: [Parameters<Call>[0], string, unknown?][] = [
      ['GET', `/workbooks/${id}`],
      ['PATCH', `/workbooks/${id}`, { name: 'Mine now' }],
      ['GET', `/workbook/${id}`],
      ['GET', `/workbook/${id}/cells`],
      ['GET', `/workbook/${id}/cells?sheet=Sheet1`],
      ['GET', `/workbook/${id}/inputs`],
      ['GET', `/workbook/${id}/sheets`],
      ['POST', `/workbook/${id}/sheets`, { name: 'Mine' }],
      ['PATCH', `/workbook/${id}/sheets/Sheet1`, { name: 'Mine' }],
      ['DELETE', `/workbook/${id}/sheets/Sheet1`],
      ['POST', '/update-cell', { workbookId: id, cellAddress: 'A1', value: 'hacked' }],
      ['POST', '/update-cells', { workbookId: id, updates: [{ cellAddress: 'A1', value: 'hacked' }] }],
      ['POST', `/workbook/${id}/changes`, { commands: [{ type: 'delete-rows', sheet: 'Sheet1', at: 0, count: 1 }] }],
      ['GET', `/workbook/${id}/changes`],
      ['GET', `/workbook/${id}/cell/A1/history`],
      ['POST', `/workbook/${id}/undo`, {}],
      ['POST', `/workbook/${id}/redo`, {}],
      ['GET', `/workbook/${id}/versions`],
      ['POST', `/workbook/${id}/save`, {}],
      ['GET', `/workbook/${id}/versions/${versionId}`],
      ['GET', `/workbook/${id}/versions/compare?from=${versionId}&to=current`],
      ['POST', `/workbook/${id}/versions/${versionId}/restore`, {}],
      ['GET', `/workbook/${id}/export?format=xlsx`],
      ['GET', `/workbook/${id}/export?format=csv`],
      ['GET', `/workbook/${id}/export?format=json`],
      ['POST', '/create-chart', { workbookId: id, type: 'bar', dataRange: 'A1:B2' }],
      ['GET', `/workbook/${id}/charts`],
      ['DELETE', `/workbook/${id}/charts/${chartId}`],
      ['POST', '/search-cells', { query: 'secret', workbookId: id }],
      ['DELETE', `/workbook/${id}`],
    ]
    const missing = '00000000-0000-4000-8000-000000000000'
    for (const [method, url, body] of routes) {
      const theirs = await intruder(method, url, body)
      expect(theirs.status, `${method} ${url}`).toBe(404)
      expect(theirs.json.error).toEqual({ code: 'WORKBOOK_NOT_FOUND', message: 'Workbook not found' })
      const none = await owner(method, url.replace(id, missing), JSON.parse(JSON.stringify(body ?? null)?.replace(id, missing) ?? 'null') ?? undefined)
      expect(none.json, `${method} ${url} on a missing workbook`).toEqual(theirs.json)
    }
    expect((await intruder('POST', '/search-cells', { query: 'secret' })).json.results).toEqual([])
    expect((await intruder('GET', '/versions')).json.versions).toEqual([])
    expect((await intruder('GET', '/workbooks')).json.workbooks).toEqual([])

    const cells = (await owner('GET', `/workbook/${id}/cells`)).json.workbook
    expect(cells.sheets[0].cells.A1.value).toBe('secret')
    expect(cells.sheetOrder).toEqual(['Sheet1'])
    expect((await owner('GET', `/workbooks/${id}`)).json.workbook.name).toBe('Private')
    expect((await owner('GET', `/workbook/${id}/charts`)).json.charts).toHaveLength(1)
  })

  it('refuses every route without a valid token', async () => {
    for (const url of ['/workbooks', `/workbook/${id}/cells`, '/templates', '/metrics/performance']) {
      const response = await t.app.inject({ method: 'GET', url })
      expect(response.statusCode).toBe(401)
    }
    const forged = await t.app.inject({ method: 'GET', url: '/workbooks', headers: { authorization: 'Bearer abc.def.ghi' } })
    expect(forged.statusCode).toBe(401)
  })
})
