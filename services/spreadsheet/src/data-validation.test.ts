/**
 * Data validation through the service: set-data-validation is stored with the workbook, answered by
 * the inputs and sheets routes, moved by row insertions, undone, imported from an import body, and
 * refused (400, nothing written) when its criteria are bad.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let call: Call

beforeAll(async () => {
  t = await startTestApp()
  call = clientFor(t.app, await t.tokenFor('validation-user'))
})
afterAll(async () => {
  await t.close()
})

const regions = { ranges: ['B2:B9'], type: 'list', formula1: 'Lists!$A$1:$A$3', showErrorMessage: true, errorMessage: 'Pick a region' }

async function newWorkbook(): Promise<string> {
  const answer = await call('POST', '/workbooks/import', {
    name: 'Validated',
    sheets: [
      { name: 'Model', cells: [{ address: 'A1', input: 'Region' }], validations: [regions, { ranges: ['C1'], type: 'whole', operator: 'between', formula1: '1' }] },
      { name: 'Lists', cells: [{ address: 'A1', input: 'North' }] },
    ],
  })
  expect(answer.status, answer.body).toBe(201)
  return answer.json.workbookId
}

const sheetOf = async (id: string, name: string) =>
  ((await call('GET', `/workbook/${id}/inputs`)).json.workbook.sheets as { name: string; validations?: unknown }[]).find((sheet) => sheet.name === name)

describe('set-data-validation', () => {
  it('keeps the imported rules it can hold and answers them', async () => {
    const id = await newWorkbook()
    // The whole-number rule without its maximum is left out; the list is kept.
    expect((await sheetOf(id, 'Model'))?.validations).toEqual([regions])
    expect((await sheetOf(id, 'Lists'))?.validations).toBeUndefined()
  })

  it('stores a rule, moves it with inserted rows, and undoes both', async () => {
    const id = await newWorkbook()
    const rule = { ranges: ['D2'], type: 'decimal', operator: 'greaterThan', formula1: '0', showErrorMessage: true }
    const set = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-data-validation', sheet: 'Model', clear: ['D2'], rules: [rule] }], clientId: 'tab-1' })
    expect(set.status, set.body).toBe(200)
    expect((await sheetOf(id, 'Model'))?.validations).toEqual([regions, rule])
    const inserted = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'insert-rows', sheet: 'Model', at: 0, count: 1 }], clientId: 'tab-1' })
    expect(inserted.status, inserted.body).toBe(200)
    const summaries = (await call('GET', `/workbook/${id}/sheets`)).json.sheets as { name: string; validations?: unknown }[]
    expect(summaries.find((sheet) => sheet.name === 'Model')?.validations).toEqual([{ ...regions, ranges: ['B3:B10'] }, { ...rule, ranges: ['D3'] }])
    for (let i = 0; i < 2; i++) expect((await call('POST', `/workbook/${id}/undo`, { clientId: 'tab-1' })).status).toBe(200)
    expect((await sheetOf(id, 'Model'))?.validations).toEqual([regions])
  })

  it('refuses bad criteria and a range off the sheet, writing nothing', async () => {
    const id = await newWorkbook()
    const before = (await call('GET', `/workbook/${id}/inputs`)).json.workbook.revision
    const noSource = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-data-validation', sheet: 'Model', clear: [], rules: [{ ranges: ['A1'], type: 'list' }] }] })
    expect(noSource.status).toBe(400)
    expect(noSource.body).toMatch(/A list needs a source/)
    const offSheet = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-data-validation', sheet: 'Model', clear: ['A1:A9999999'], rules: [] }] })
    expect(offSheet.status).toBe(400)
    const badType = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-data-validation', sheet: 'Model', clear: [], rules: [{ ranges: ['A1'], type: 'anything' }] }] })
    expect(badType.status).toBe(400)
    expect((await call('GET', `/workbook/${id}/inputs`)).json.workbook.revision).toBe(before)
  })
})
