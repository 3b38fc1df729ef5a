import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let call: Call
let token: string
let bigId: string
const ROWS = 50_000

beforeAll(async () => {
  t = await startTestApp({ bodyLimit: 64 * 1024 * 1024 })
  token = await t.tokenFor('bigdata')
  call = clientFor(t.app, token)
})
afterAll(async () => {
  await t.close()
})

describe('a workbook of 200,000 cells', () => {
  it('loads, recalculates after an edit, reloads from the store, and reads one sheet without the others', async () => {
    const data = []
    const calc = []
    for (let row = 1; row <= ROWS; row++) {
      data.push({ address: `A${row}`, input: row }, { address: `B${row}`, input: 2 })
      calc.push({ address: `A${row}`, input: `=Data!A${row}*Data!B${row}` }, { address: `B${row}`, input: `=A${row}+1` })
    }
    calc.push({ address: 'D1', input: `=SUM(B1:B${ROWS})` })
    const imported = await call('POST', '/workbooks/import', { name: 'Big', sheets: [{ name: 'Data', cells: data }, { name: 'Calc', cells: calc }] })
    expect(imported.status, imported.body.slice(0, 200)).toBe(201)
    expect(imported.json).toMatchObject({ cellCount: 4 * ROWS + 1, formulaCount: 2 * ROWS + 1 })
    const id = imported.json.workbookId
    bigId = id
    const sum = (n: number) => n * (n + 1) + n // Σ(2i + 1)

    const edit = await call('POST', '/update-cell', { workbookId: id, sheetName: 'Data', cellAddress: 'A5', value: 1005 })
    expect(edit.status).toBe(200)
    const changed = Object.fromEntries(edit.json.changedCells.map((cell: { sheet: string; address: string; value: number }) => [`${cell.sheet}!${cell.address}`, cell.value]))
    expect(changed).toEqual({ 'Data!A5': 1005, 'Calc!A5': 2010, 'Calc!B5': 2011, 'Calc!D1': sum(ROWS) + 2000 })

    // Another replica (or an evicted engine) loads the whole workbook from the store before editing.
    t.app.spreadsheet.cache.drop(id)
    const loadsBefore = t.app.spreadsheet.metrics.report(t.app.spreadsheet.cache.stats()).engineLoads.count
    const again = await call('POST', '/update-cell', { workbookId: id, sheetName: 'Data', cellAddress: 'B50000', value: 3 })
    expect(again.json.changedCells).toEqual(
      expect.arrayContaining([expect.objectContaining({ sheet: 'Calc', address: 'D1', value: sum(ROWS) + 2000 + ROWS })]),
    )
    const report = t.app.spreadsheet.metrics.report(t.app.spreadsheet.cache.stats())
    expect(report.engineLoads.count).toBe(loadsBefore + 1)

    // A read of one sheet goes to the store for that sheet alone and never opens the engine.
    t.app.spreadsheet.cache.drop(id)
    const one = await call('GET', `/workbook/${id}/cells?sheet=Calc`)
    expect(one.status).toBe(200)
    expect(one.json.workbook.sheets).toHaveLength(1)
    expect(Object.keys(one.json.workbook.sheets[0].cells)).toHaveLength(2 * ROWS + 1)
    expect(one.json.workbook.sheets[0].cells.B50000.value).toBe(3 * ROWS + 1)
    expect(one.json.workbook.totalCells).toBe(4 * ROWS + 1)
    expect(t.app.spreadsheet.metrics.report(t.app.spreadsheet.cache.stats()).engineLoads.count).toBe(loadsBefore + 1)
  }, 180_000)

  it('sends the whole workbook over a socket as it reads it, answering a request made meanwhile', async () => {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' })
    const headers = { authorization: `Bearer ${token}` }
    const cells = await fetch(`${url}/workbook/${bigId}/cells`, { headers })
    expect(cells.status).toBe(200)
    const reader = cells.body!.getReader()
    const pieces: Uint8Array[] = []
    let ended = false
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        pieces.push(value)
      }
      ended = true
    })()
    // the answer has begun: a request for the same workbook is answered before it ends
    while (pieces.length === 0) await new Promise((resolve) => setTimeout(resolve, 1))
    const window = await fetch(`${url}/workbook/${bigId}/window?startRow=1&endRow=2&sheet=Data`, { headers })
    expect(window.status).toBe(200)
    expect(ended).toBe(false)
    await reading
    const answer = JSON.parse(Buffer.concat(pieces).toString('utf8'))
    expect(answer.workbook.sheets.map((sheet: { cells: object }) => Object.keys(sheet.cells).length)).toEqual([2 * ROWS, 2 * ROWS + 1])
  }, 60_000)
})

