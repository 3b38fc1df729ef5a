/**
 * GET /workbook/{id}/window: a band of rows with the values the service calculated, the sheet's
 * layout and extent and the sheet list, read from the blocks covering the rows only.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSqliteDocumentStore } from '@finsheet/platform'
import { MAX_WINDOW_ROWS } from '@finsheet/contracts'
import { BLOCK_ROWS, type CellBlockDoc } from './storage/cell-blocks.js'
import { clientFor, type Call } from './testing/client.js'
import { ObservedStore } from './testing/observed-store.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let base: TestApp
let t: TestApp
let store: ObservedStore
let call: Call
let other: Call
let id: string

const ROWS = 1000
const COLUMNS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P', 'Q', 'R', 'S', 'T']

beforeAll(async () => {
  base = await startTestApp()
  // A second app on the same data folder, whose store is observed.
  store = new ObservedStore(createSqliteDocumentStore({ path: join(base.dir, 'observed.sqlite') }))
  t = await startTestApp({ replicaOf: base, store })
  call = clientFor(t.app, await t.tokenFor('windowed'))
  other = clientFor(t.app, await t.tokenFor('someone-else'))
  const data = []
  for (let row = 1; row <= ROWS; row++) for (const [index, column] of COLUMNS.entries()) data.push({ address: `${column}${row}`, input: index === 19 ? `=A${row}*2` : row * 100 + index })
  const imported = await call('POST', '/workbooks/import', {
    name: 'Windowed',
    sheets: [
      { name: 'Data', cells: data, columnWidths: { '0': 140 }, merges: ['C2000:D2000'] },
      { name: 'Notes', cells: [{ address: 'A1', input: 'hello' }] },
    ],
  })
  expect(imported.status, imported.body.slice(0, 300)).toBe(201)
  id = imported.json.workbookId
  const layout = await call('POST', `/workbook/${id}/changes`, {
    revision: imported.json.workbook.revision,
    commands: [
      { type: 'set-sheet-view', sheet: 'Data', frozenRows: 1 },
      { type: 'set-sheet-view', sheet: 'Notes', hidden: true },
    ],
  })
  expect(layout.status, layout.body.slice(0, 300)).toBe(200)
}, 60_000)

afterAll(async () => {
  await t.close()
  await base.close()
})

const blocksRead = () => store.of('cell_blocks').flatMap((event) => event.documents as CellBlockDoc[])

describe('GET /workbook/{id}/window', () => {
  it('answers the rows with their stored values and display text, the layout, the extent and the sheets', async () => {
    t.app.spreadsheet.cache.drop(id)
    const loads = t.app.spreadsheet.metrics.report(t.app.spreadsheet.cache.stats()).engineLoads.count
    store.events.length = 0
    const answer = await call('GET', `/workbook/${id}/window?sheet=Data&startRow=40&endRow=60`)
    expect(answer.status, answer.body.slice(0, 300)).toBe(200)
    const { workbook } = answer.json
    expect(workbook).toMatchObject({ workbookId: id, name: 'Windowed', sheetOrder: ['Data', 'Notes'], hiddenSheets: ['Notes'], startRow: 40, endRow: 60, totalCells: ROWS * 20 + 1 })
    const sheet = workbook.sheet
    expect(Object.keys(sheet.cells)).toHaveLength(21 * 20)
    expect(sheet.cells.A40).toMatchObject({ value: 4000, input: '4000', display: '4000', type: 'number' })
    expect(sheet.cells.T60).toMatchObject({ value: 12_000, formula: '=A60*2', display: '12000' })
    expect(sheet.cells.A39).toBeUndefined()
    expect(sheet.cells.A61).toBeUndefined()
    expect(sheet).toMatchObject({ name: 'Data', rowCount: ROWS, columnCount: 20, columnWidths: { '0': 140 }, merges: ['C2000:D2000'], view: { frozenRows: 1 } })

    // Only the band the rows sit in, the sheet's last band and its furthest column's block: never the whole sheet, nor the engine.
    const read = blocksRead()
    expect(read.every((block) => block.sheetId === read[0].sheetId)).toBe(true)
    const windowBand = Math.floor(39 / BLOCK_ROWS)
    const lastBand = Math.floor((ROWS - 1) / BLOCK_ROWS)
    expect(read.filter((block) => block.blockRow === windowBand)).toHaveLength(2)
    expect(read.filter((block) => block.blockRow !== windowBand && block.blockRow !== lastBand).length).toBeLessThanOrEqual(1)
    expect(new Set(read.map((block) => block.id)).size).toBeLessThanOrEqual(5)
    expect(t.app.spreadsheet.metrics.report(t.app.spreadsheet.cache.stats()).engineLoads.count).toBe(loads)
  })

  it('shows what an edit wrote since, and reads the first sheet without ?sheet=', async () => {
    const before = await call('GET', `/workbook/${id}/window?startRow=1&endRow=2`)
    const edit = await call('POST', `/workbook/${id}/changes`, { revision: before.json.workbook.revision, commands: [{ type: 'set-cells', sheet: 'Data', cells: [{ address: 'A2', input: '7' }] }] })
    expect(edit.status, edit.body.slice(0, 300)).toBe(200)
    const after = await call('GET', `/workbook/${id}/window?startRow=1&endRow=2`)
    expect(after.json.workbook.sheet.name).toBe('Data')
    expect(after.json.workbook.revision).toBe(edit.json.revision)
    expect(after.json.workbook.sheet.cells.A2.value).toBe(7)
    expect(after.json.workbook.sheet.cells.T2).toMatchObject({ value: 14, display: '14' })
  })

  it('answers no cells for rows past the end of the sheet, with its extent', async () => {
    const answer = await call('GET', `/workbook/${id}/window?sheet=Data&startRow=5000&endRow=5031`)
    expect(answer.status).toBe(200)
    expect(answer.json.workbook.sheet.cells).toEqual({})
    expect(answer.json.workbook.sheet).toMatchObject({ rowCount: ROWS, columnCount: 20 })
    const small = await call('GET', `/workbook/${id}/window?sheet=notes&startRow=1&endRow=50`)
    expect(small.json.workbook.sheet).toMatchObject({ name: 'Notes', rowCount: 1, columnCount: 1, cells: { A1: { value: 'hello' } } })
  })

  it('refuses a bad range with 400', async () => {
    for (const query of ['startRow=10&endRow=9', 'startRow=0&endRow=5', `startRow=1&endRow=${MAX_WINDOW_ROWS + 1}`, 'startRow=1', 'startRow=a&endRow=3']) {
      const answer = await call('GET', `/workbook/${id}/window?${query}`)
      expect(answer.status, query).toBe(400)
    }
    const tooMany = await call('GET', `/workbook/${id}/window?startRow=1&endRow=${MAX_WINDOW_ROWS + 1}`)
    expect(tooMany.json.error.message).toContain(`at most ${MAX_WINDOW_ROWS} rows`)
    expect((await call('GET', `/workbook/${id}/window?sheet=Nope&startRow=1&endRow=2`)).status).toBe(400)
  })

  it("answers 404 for another user's workbook, as for a missing one", async () => {
    store.events.length = 0
    const answer = await other('GET', `/workbook/${id}/window?startRow=1&endRow=10`)
    expect(answer.status).toBe(404)
    expect(blocksRead()).toEqual([])
    expect((await call('GET', '/workbook/missing/window?startRow=1&endRow=10')).status).toBe(404)
  })
})
