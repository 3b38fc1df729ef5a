/**
 * The caps on what one request may make the service do: merges, inserted rows and columns, formulas
 * over their budget, and names that are not valid text. Each is refused with a clear 4xx, or shown as
 * an error value with its reason, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INVALID_NAME_TEXT_MESSAGE, MAX_MERGED_CELLS } from '@finsheet/contracts'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let call: Call

beforeAll(async () => {
  t = await startTestApp()
  call = clientFor(t.app, await t.tokenFor('ada', 'Ada Lovelace'))
})
afterAll(async () => {
  await t.close()
})

async function newWorkbook(cells: Record<string, string | number> = {}): Promise<string> {
  const created = await call('POST', '/workbooks', { name: 'Model' })
  expect(created.status).toBe(201)
  const id = created.json.workbookId as string
  if (Object.keys(cells).length > 0) await change(id, [setCells(cells)])
  return id
}

const setCells = (cells: Record<string, string | number>, sheet = 'Sheet1') => ({
  type: 'set-cells',
  sheet,
  cells: Object.entries(cells).map(([address, input]) => ({ address, input })),
})

const change = (id: string, commands: unknown[]) => call('POST', `/workbook/${id}/changes`, { commands })

async function sheet(id: string) {
  const answer = await call('GET', `/workbook/${id}/cells`)
  expect(answer.status).toBe(200)
  return answer.json.workbook.sheets[0]
}

describe('merges', () => {
  it('refuses a merge over the whole sheet with 422 naming the limit, and stores nothing', async () => {
    const id = await newWorkbook({ A1: 1 })
    const answer = await change(id, [{ type: 'merge-cells', sheet: 'Sheet1', range: 'A1:XFD1048576' }])
    expect(answer.status).toBe(422)
    expect(answer.json.error).toEqual({
      code: 'MERGE_TOO_LARGE',
      message: `The range A1:XFD1048576 spans 17,179,869,184 cells; a merge can span at most ${MAX_MERGED_CELLS.toLocaleString('en-US')}`,
    })
    expect((await sheet(id)).merges).toEqual([])
  })

  it('merges up to the limit, and unmerges over any range', async () => {
    const id = await newWorkbook()
    expect((await change(id, [{ type: 'merge-cells', sheet: 'Sheet1', range: 'A1:J10000' }])).status).toBe(200)
    expect((await sheet(id)).merges).toEqual(['A1:J10000'])
    expect((await change(id, [{ type: 'merge-cells', sheet: 'Sheet1', range: 'A1:J10001' }])).status).toBe(422)
    const unmerge = await change(id, [{ type: 'unmerge-cells', sheet: 'Sheet1', range: 'A1:XFD1048576' }])
    expect(unmerge.status).toBe(200)
  })
})

describe('inserted rows and columns', () => {
  it('refuses rows that would push non-empty cells off the sheet, as Excel does, and moves nothing', async () => {
    const id = await newWorkbook({ A1: 5, B2: '=A1*2' })
    const answer = await change(id, [{ type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 1_048_576 }])
    expect(answer.status).toBe(422)
    expect(answer.json.error.code).toBe('CELLS_OFF_SHEET')
    expect(answer.json.error.message).toMatch(/^To prevent possible loss of data, 1,048,576 rows cannot be inserted there: .* which has 1,048,576 rows\./)
    const cells = (await sheet(id)).cells
    expect(cells.A1.value).toBe(5)
    expect(cells.B2.value).toBe(10)
  })

  it('refuses columns that would push a cell off the last column (it was lost silently before)', async () => {
    const id = await newWorkbook({ A1: 5 })
    const answer = await change(id, [{ type: 'insert-columns', sheet: 'Sheet1', at: 0, count: 16_384 }])
    expect(answer.status).toBe(422)
    expect(answer.json.error.message).toContain('16,384 columns cannot be inserted there')
    expect((await sheet(id)).cells.A1.value).toBe(5)
  })

  it('counts styles and merges as non-empty cells', async () => {
    const id = await newWorkbook()
    await change(id, [{ type: 'format-cells', sheet: 'Sheet1', ranges: ['C1048576'], style: { bold: true } }])
    expect((await change(id, [{ type: 'insert-rows', sheet: 'Sheet1', at: 5, count: 1 }])).status).toBe(422)
    const merged = await newWorkbook()
    await change(merged, [{ type: 'merge-cells', sheet: 'Sheet1', range: 'XFC1:XFD2' }])
    expect((await change(merged, [{ type: 'insert-columns', sheet: 'Sheet1', at: 0, count: 1 }])).status).toBe(422)
  })

  it('inserts as many as fit, and any number below the last non-empty row', async () => {
    const id = await newWorkbook({ A1: 5 })
    expect((await change(id, [{ type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 1_048_575 }])).status).toBe(200)
    expect((await sheet(id)).cells.A1048576.value).toBe(5)
    const below = await newWorkbook({ A1: 5 })
    expect((await change(below, [{ type: 'insert-rows', sheet: 'Sheet1', at: 1, count: 1_048_575 }])).status).toBe(200)
  })

  it('caps the count of columns at the columns a sheet has (400)', async () => {
    const id = await newWorkbook()
    expect((await change(id, [{ type: 'insert-columns', sheet: 'Sheet1', at: 0, count: 16_385 }])).status).toBe(400)
    expect((await change(id, [{ type: 'delete-columns', sheet: 'Sheet1', at: 0, count: 1_048_576 }])).status).toBe(400)
  })
})

describe('formulas over their budget', () => {
  it('answers a formula stopped by its budget with its error value and says why in the message', async () => {
    const id = await newWorkbook({ A1: 5 })
    const answer = await change(id, [setCells({ B1: '=SUM(MAKEARRAY(4096,4096,LAMBDA(r,c,r*c)))', C1: '=A:A*2', D1: '=A1+1' })])
    expect(answer.status).toBe(200)
    const values = Object.fromEntries(answer.json.changedCells.map((cell: { address: string; value: unknown }) => [cell.address, cell.value]))
    expect(values).toMatchObject({ B1: '#NUM!', C1: '#SPILL!', D1: 6 })
    expect(answer.json.message).toContain("Sheet1!B1 is #NUM!: The array would hold 16,777,216 cells; a formula's arrays may hold up to 4,194,304 cells each")
    expect(answer.json.message).toContain('Sheet1!C1 is #SPILL!: The array would spill into 1,048,576 cells')
    // The workbook stays usable.
    const next = await change(id, [setCells({ A1: 6 })])
    expect(next.status).toBe(200)
    expect((await sheet(id)).cells.D1.value).toBe(7)
  })
})

describe('names', () => {
  const loneSurrogate = 'Budget \ud800'

  it('refuses a workbook name with half a character or a control character (400)', async () => {
    for (const name of [loneSurrogate, 'Tab\tname', 'Nul\u0000']) {
      const created = await call('POST', '/workbooks', { name })
      expect(created.status).toBe(400)
      expect(created.json.error).toEqual({ code: 'INVALID_NAME_TEXT', message: INVALID_NAME_TEXT_MESSAGE })
    }
    const id = await newWorkbook()
    expect((await call('PATCH', `/workbooks/${id}`, { name: loneSurrogate })).status).toBe(400)
    expect((await call('PATCH', `/workbooks/${id}`, { name: 'Budget 📈' })).status).toBe(200)
  })

  it('refuses such sheet names when a sheet is added or renamed, and keeps the sheets as they were', async () => {
    const id = await newWorkbook()
    expect((await change(id, [{ type: 'add-sheet', name: loneSurrogate }])).status).toBe(400)
    expect((await change(id, [{ type: 'rename-sheet', from: 'Sheet1', to: 'Q1\u001b' }])).status).toBe(400)
    expect((await call('POST', `/workbook/${id}/sheets`, { name: '\udc00' })).status).toBe(400)
    const metadata = await call('GET', `/workbooks/${id}`)
    expect(metadata.json.workbook.sheets).toEqual(['Sheet1'])
  })
})
