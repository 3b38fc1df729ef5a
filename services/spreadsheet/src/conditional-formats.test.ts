/**
 * Conditional formats through the service: set-conditional-formats is stored with the workbook,
 * answered by the inputs and sheets routes, moved by inserted rows, undone, imported from an import
 * body, and refused (400, nothing written) when a rule cannot be evaluated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let call: Call

beforeAll(async () => {
  t = await startTestApp()
  call = clientFor(t.app, await t.tokenFor('conditional-user'))
})
afterAll(async () => {
  await t.close()
})

const scale = { type: 'colorScale', ranges: ['B1:B5'], thresholds: [{ kind: 'min' }, { kind: 'max' }], colors: ['#F8696B', '#63BE7B'] }
const greater = { type: 'cellIs', ranges: ['A1:A5'], operator: 'greaterThan', formulas: ['3'], style: { fill: '#FFC7CE', color: '#9C0006' } }

async function newWorkbook(): Promise<string> {
  const answer = await call('POST', '/workbooks/import', {
    name: 'Rules',
    sheets: [{ name: 'Model', cells: [{ address: 'A1', input: 5 }], conditionalFormats: [scale] }],
  })
  expect(answer.status, answer.body).toBe(201)
  return answer.json.workbookId
}

const rulesOf = async (id: string) => ((await call('GET', `/workbook/${id}/inputs`)).json.workbook.sheets as { name: string; conditionalFormats?: unknown }[])[0].conditionalFormats

describe('set-conditional-formats', () => {
  it('keeps imported rules, stores a change, moves it with inserted rows and undoes it', async () => {
    const id = await newWorkbook()
    expect(await rulesOf(id)).toEqual([scale])
    const change = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-conditional-formats', sheet: 'Model', rules: [greater, scale] }], clientId: 'tab-1' })
    expect(change.status, change.body).toBe(200)
    expect(await rulesOf(id)).toEqual([greater, scale])
    const summaries = (await call('GET', `/workbook/${id}/sheets`)).json.sheets as { conditionalFormats?: unknown }[]
    expect(summaries[0].conditionalFormats).toEqual([greater, scale])
    const inserted = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'insert-rows', sheet: 'Model', at: 0, count: 1 }], clientId: 'tab-1' })
    expect(inserted.status, inserted.body).toBe(200)
    expect(((await rulesOf(id)) as { ranges: string[] }[]).map((rule) => rule.ranges)).toEqual([['A2:A6'], ['B2:B6']])
    expect((await call('POST', `/workbook/${id}/undo`, { clientId: 'tab-1' })).status).toBe(200)
    expect((await call('POST', `/workbook/${id}/undo`, { clientId: 'tab-1' })).status).toBe(200)
    expect(await rulesOf(id)).toEqual([scale])
  })

  it('refuses a formula that cannot be read, and an unknown kind, writing nothing', async () => {
    const id = await newWorkbook()
    const before = (await call('GET', `/workbook/${id}/inputs`)).json.workbook.revision
    const bad = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-conditional-formats', sheet: 'Model', rules: [{ type: 'expression', ranges: ['A1:A3'], formulas: ['=A1>>2'] }] }] })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatch(/cannot be read/)
    const kind = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-conditional-formats', sheet: 'Model', rules: [{ type: 'sparkle', ranges: ['A1'] }] }] })
    expect(kind.status).toBe(400)
    expect((await call('GET', `/workbook/${id}/inputs`)).json.workbook.revision).toBe(before)
    const imported = await call('POST', '/workbooks/import', { name: 'Bad', sheets: [{ name: 'S', cells: [], conditionalFormats: [{ type: 'cellIs', ranges: ['A1'], operator: 'between', formulas: ['1'] }] }] })
    expect(imported.status).toBe(400)
  })
})
