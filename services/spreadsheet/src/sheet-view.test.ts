/**
 * Sheet layout through the service: set-sheet-view is stored with the workbook, answered by the
 * inputs and sheets routes, undone, imported from an import body, and refused (400, nothing written)
 * when it breaks a rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let call: Call

beforeAll(async () => {
  t = await startTestApp()
  call = clientFor(t.app, await t.tokenFor('layout-user'))
})
afterAll(async () => {
  await t.close()
})

async function newWorkbook(): Promise<string> {
  const answer = await call('POST', '/workbooks/import', {
    name: 'Layout',
    sheets: [
      { name: 'Model', cells: [{ address: 'A1', input: 5 }, { address: 'B1', input: '=A1*2' }] },
      { name: 'Notes', cells: [], view: { hidden: true, rows: { 3: { height: 40 } } } },
    ],
  })
  expect(answer.status, answer.body).toBe(201)
  return answer.json.workbookId
}

const inputs = async (id: string) => (await call('GET', `/workbook/${id}/inputs`)).json.workbook.sheets as { name: string; view?: unknown }[]

describe('set-sheet-view', () => {
  it('keeps an imported layout and answers it', async () => {
    const id = await newWorkbook()
    const sheets = await inputs(id)
    expect(sheets.find((sheet) => sheet.name === 'Notes')?.view).toEqual({ hidden: true, rows: { 3: { height: 40 } } })
    expect(sheets.find((sheet) => sheet.name === 'Model')?.view).toBeUndefined()
  })

  it('stores frozen panes and hidden rows, answers them after the change, and undoes them', async () => {
    const id = await newWorkbook()
    const change = await call('POST', `/workbook/${id}/changes`, {
      commands: [{ type: 'set-sheet-view', sheet: 'Model', frozenRows: 1, frozenColumns: 1, rows: [{ from: 0, to: 0, hidden: true }] }],
      clientId: 'tab-1',
    })
    expect(change.status, change.body).toBe(200)
    expect((await inputs(id)).find((sheet) => sheet.name === 'Model')?.view).toEqual({ frozenRows: 1, frozenColumns: 1, rows: { 0: { hidden: true } } })
    const summaries = (await call('GET', `/workbook/${id}/sheets`)).json.sheets as { name: string; view?: unknown }[]
    expect(summaries.find((sheet) => sheet.name === 'Model')?.view).toEqual({ frozenRows: 1, frozenColumns: 1, rows: { 0: { hidden: true } } })
    // formulas still read the hidden row
    const cells = await call('GET', `/workbook/${id}/cells`)
    expect(cells.json.workbook.sheets.find((sheet: { name: string }) => sheet.name === 'Model').cells.B1.value).toBe(10)
    const undo = await call('POST', `/workbook/${id}/undo`, { clientId: 'tab-1' })
    expect(undo.status, undo.body).toBe(200)
    expect((await inputs(id)).find((sheet) => sheet.name === 'Model')?.view).toBeUndefined()
  })

  it('refuses to hide the last shown sheet, and a bad span, writing nothing', async () => {
    const id = await newWorkbook()
    const before = (await call('GET', `/workbook/${id}/inputs`)).json.workbook.revision
    const last = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-sheet-view', sheet: 'Model', hidden: true }] })
    expect(last.status).toBe(400)
    expect(last.body).toMatch(/at least one visible sheet/)
    const span = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-sheet-view', sheet: 'Model', rows: [{ from: 4, to: 1, hidden: true }] }] })
    expect(span.status).toBe(400)
    const level = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-sheet-view', sheet: 'Model', rows: [{ from: 1, to: 2, level: 9 }] }] })
    expect(level.status).toBe(400)
    expect((await call('GET', `/workbook/${id}/inputs`)).json.workbook.revision).toBe(before)
  })
})
