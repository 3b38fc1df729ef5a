/**
 * A sheet's filter through the service: set-filter is stored with the workbook (the filter and the
 * rows it hides), answered by the inputs route, undone, and refused (400, nothing written) when it
 * breaks a rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let call: Call

beforeAll(async () => {
  t = await startTestApp()
  call = clientFor(t.app, await t.tokenFor('filter-user'))
})
afterAll(async () => {
  await t.close()
})

async function newWorkbook(): Promise<string> {
  const rows = [['Region', 'Units'], ['East', 5], ['West', 7], ['East', 9]]
  const cells = rows.flatMap((row, index) => row.map((input, col) => ({ address: `${'AB'[col]}${index + 1}`, input })))
  const answer = await call('POST', '/workbooks/import', { name: 'Filtered', sheets: [{ name: 'Sales', cells }] })
  expect(answer.status, answer.body).toBe(201)
  return answer.json.workbookId
}

const salesView = async (id: string) => ((await call('GET', `/workbook/${id}/inputs`)).json.workbook.sheets as { name: string; view?: unknown }[]).find((sheet) => sheet.name === 'Sales')?.view

describe('set-filter', () => {
  it('stores the filter and the rows it hides, and undoes it', async () => {
    const id = await newWorkbook()
    const change = await call('POST', `/workbook/${id}/changes`, {
      commands: [{ type: 'set-filter', sheet: 'Sales', filter: { range: 'A1:B4', columns: [{ column: 0, values: ['East'] }] } }],
      clientId: 'tab-1',
    })
    expect(change.status, change.body).toBe(200)
    expect(await salesView(id)).toEqual({ rows: { 2: { filtered: true } }, filter: { range: 'A1:B4', columns: [{ column: 0, values: ['East'] }] } })
    const undo = await call('POST', `/workbook/${id}/undo`, { clientId: 'tab-1' })
    expect(undo.status, undo.body).toBe(200)
    expect(await salesView(id)).toBeUndefined()
  })

  it('refuses a filtered column outside the range, writing nothing', async () => {
    const id = await newWorkbook()
    const before = (await call('GET', `/workbook/${id}/inputs`)).json.workbook.revision
    const refused = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-filter', sheet: 'Sales', filter: { range: 'A1:B4', columns: [{ column: 5, values: [] }] } }] })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatch(/within A1:B4/)
    expect((await call('GET', `/workbook/${id}/inputs`)).json.workbook.revision).toBe(before)
  })
})
