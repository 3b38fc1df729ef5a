/**
 * Excel tables through the service: an import that names them, structured references calculated
 * against them, rows inserted inside a table kept through storage and a reload, and the export that
 * writes them back as tables.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IMPORT_STREAM_CONTENT_TYPE } from '@finsheet/contracts'
import { readXlsxFile } from '@finsheet/workbook'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let call: Call
let token: string

beforeAll(async () => {
  t = await startTestApp()
  token = await t.tokenFor('tables')
  call = clientFor(t.app, token)
})
afterAll(async () => {
  await t.close()
})

const SALES = { name: 'Sales', sheet: 'Data', range: 'A1:B4', headerRow: true, totalsRow: false, columns: ['Region', 'Units'], style: 'TableStyleMedium2' }
const sheets = [
  {
    name: 'Data',
    cells: [
      { address: 'A1', input: 'Region' },
      { address: 'B1', input: 'Units' },
      { address: 'A2', input: 'North' },
      { address: 'B2', input: 10 },
      { address: 'A3', input: 'South' },
      { address: 'B3', input: 20 },
      { address: 'A4', input: 'East' },
      { address: 'B4', input: 30 },
      { address: 'D1', input: '=SUM(Sales[Units])', legacy: true, cached: 60 },
      { address: 'D3', input: '=Sales[[#This Row],[Units]]*2', legacy: true, cached: 40 },
    ],
  },
]

const cellsOf = async (id: string) => (await call('GET', `/workbook/${id}/cells?sheet=Data`)).json.workbook.sheets[0].cells

describe('tables through the service', () => {
  it('imports tables, keeps rows inserted inside them through storage, and exports them as tables', async () => {
    const answer = await call('POST', '/workbooks/import', { name: 'Tables', sheets, tables: [SALES] })
    expect(answer.status, answer.body).toBe(201)
    expect(answer.json.recalculation).toMatchObject({ checked: 2, mismatchCount: 0 })
    const id = answer.json.workbookId
    expect((await cellsOf(id)).D1.value).toBe(60)

    await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'insert-rows', sheet: 'Data', at: 2, count: 1 }] })
    await call('POST', '/update-cell', { workbookId: id, sheetName: 'Data', cellAddress: 'B3', value: 5 })
    t.app.spreadsheet.cache.drop(id)
    const cells = await cellsOf(id)
    expect(cells.D1.value).toBe(65)
    expect(cells.D4.value).toBe(40)
    // a browser calculating for itself gets the table as it stands now, with the inputs
    const inputs = (await call('GET', `/workbook/${id}/inputs`)).json.workbook
    expect(inputs.tables).toEqual([{ ...SALES, range: 'A1:B5' }])
    expect(inputs).not.toHaveProperty('definedNames')
    const named = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'define-name', name: 'Target', formula: '=Data!$B$2' }] })
    expect(named.status, named.body).toBe(200)
    expect((await call('GET', `/workbook/${id}/inputs`)).json.workbook.definedNames).toEqual([{ name: 'Target', formula: '=Data!$B$2' }])

    const exported = await call('GET', `/workbook/${id}/export?format=xlsx`)
    expect(exported.status).toBe(200)
    const dir = mkdtempSync(join(tmpdir(), 'finsheet-tables-'))
    try {
      const path = join(dir, 'tables.xlsx')
      writeFileSync(path, exported.raw)
      const read = await readXlsxFile(path)
      expect(read.tables).toEqual([{ ...SALES, range: 'A1:B5' }])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('reads tables from the header of a streamed import', async () => {
    const header = { name: 'Streamed tables', tables: [SALES], sheets: [{ name: 'Data' }] }
    const body = [header, { sheet: 0, cells: sheets[0].cells.map((cell) => [cell.address, cell.input]) }, { end: { cells: sheets[0].cells.length } }]
    const response = await t.app.inject({
      method: 'POST',
      url: '/workbooks/import',
      headers: { authorization: `Bearer ${token}`, 'content-type': IMPORT_STREAM_CONTENT_TYPE },
      payload: body.map((line) => JSON.stringify(line)).join('\n') + '\n',
    })
    expect(response.statusCode, response.body).toBe(201)
    const cells = await cellsOf(response.json().workbookId)
    expect(cells.D1.value).toBe(60)
  })

  it('refuses a table that breaks the contract, storing nothing', async () => {
    const answer = await call('POST', '/workbooks/import', { name: 'Bad table', sheets, tables: [{ ...SALES, columns: [] }] })
    expect(answer.status).toBe(400)
  })
})
