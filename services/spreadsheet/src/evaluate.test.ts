import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Value } from 'typebox/value'
import { EvaluateFormulaResponse } from '@finsheet/contracts'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let call: Call
let intruder: Call
let workbookId: string

beforeAll(async () => {
  t = await startTestApp()
  call = clientFor(t.app, await t.tokenFor('ada'))
  intruder = clientFor(t.app, await t.tokenFor('mallory'))
  workbookId = (await call('POST', '/workbooks', { name: 'Plan' })).json.workbookId
  const setUp = await call('POST', `/workbook/${workbookId}/changes`, {
    commands: [
      { type: 'add-sheet', name: 'Inputs' },
      { type: 'set-cells', sheet: 'Inputs', cells: [{ address: 'B1', input: '8%' }] },
      {
        type: 'set-cells',
        sheet: 'Sheet1',
        cells: [
          { address: 'A1', input: 1000 },
          { address: 'A2', input: 1200 },
          { address: 'A3', input: 1500 },
          { address: 'A4', input: '=SUM(A1:A3)' },
        ],
      },
      { type: 'format-cells', sheet: 'Sheet1', ranges: ['C1'], format: '#,##0.00' },
    ],
  })
  expect(setUp.status).toBe(200)
})
afterAll(async () => {
  await t.close()
})

const evaluate = (body: object, as: Call = call) => as('POST', `/workbook/${workbookId}/evaluate`, body)

describe('POST /workbook/:id/evaluate', () => {
  it('calculates a formula in the context of a cell and answers the contract', async () => {
    const answer = await evaluate({ sheet: 'sheet1', address: 'b4', formula: '=A4*(1+Inputs!B1)' })
    expect(answer.status).toBe(200)
    expect(Value.Check(EvaluateFormulaResponse, answer.json)).toBe(true)
    expect(answer.json).toMatchObject({ sheet: 'Sheet1', address: 'B4', formula: '=A4*(1+Inputs!B1)', type: 'number' })
    expect(answer.json.value).toBeCloseTo(3996)
    // Relative references start at the given cell: from A5, A4 is the cell above.
    expect((await evaluate({ sheet: 'Sheet1', address: 'A5', formula: 'A4/3' })).json.value).toBeCloseTo(1233.333, 2)
  })

  it('shows the value as the cell would: its own number format, else the function’s', async () => {
    expect((await evaluate({ sheet: 'Sheet1', address: 'C1', formula: '=A1/3' })).json.display).toBe('333.33')
    const payment = await evaluate({ sheet: 'Sheet1', address: 'D1', formula: '=PMT(5%/12, 360, 300000)' })
    expect(payment.json.value).toBeCloseTo(-1610.46, 2)
    expect(payment.json.display).toMatch(/1,610\.46/)
  })

  it('answers error values with what they mean, and array results with their size', async () => {
    const division = await evaluate({ sheet: 'Sheet1', address: 'D2', formula: '=A1/Z99' })
    expect(division.json).toMatchObject({ value: '#DIV/0!', type: 'error', display: '#DIV/0!' })
    expect(division.json.error).toMatch(/zero/i)
    const unknown = await evaluate({ sheet: 'Sheet1', formula: '=NOPE(1)' })
    expect(unknown.json).toMatchObject({ value: '#NAME?', type: 'error', address: 'A1' })
    const array = await evaluate({ sheet: 'Sheet1', address: 'F1', formula: '=A1:A3*2' })
    expect(array.json).toMatchObject({ value: 2000, spill: { rows: 3, columns: 1 } })
  })

  it('writes nothing: no revision, no cells, no history', async () => {
    const before = await call('GET', `/workbook/${workbookId}/cells`)
    const log = await call('GET', `/workbook/${workbookId}/changes`)
    await evaluate({ sheet: 'Sheet1', address: 'A1', formula: '=RAND()' })
    await evaluate({ sheet: 'Sheet1', address: 'H9', formula: '=A4*2' })
    const after = await call('GET', `/workbook/${workbookId}/cells`)
    expect(after.json).toEqual(before.json)
    expect((await call('GET', `/workbook/${workbookId}/changes`)).json).toEqual(log.json)
  })

  it('refuses a bad sheet or address with 400, and another user’s workbook with 404', async () => {
    const sheet = await evaluate({ sheet: 'Nowhere', formula: '=1' })
    expect(sheet.status).toBe(400)
    expect(sheet.json.error.code).toBe('SHEET_NOT_FOUND')
    const address = await evaluate({ sheet: 'Sheet1', address: 'ZZZZ0', formula: '=1' })
    expect(address.status).toBe(400)
    expect(address.json.error.code).toBe('INVALID_ADDRESS')
    expect((await evaluate({ sheet: 'Sheet1', formula: '' })).status).toBe(400)
    const stranger = await evaluate({ sheet: 'Sheet1', formula: '=A4' }, intruder)
    expect(stranger.status).toBe(404)
    expect(stranger.json.error.code).toBe('WORKBOOK_NOT_FOUND')
    expect((await call('POST', '/workbook/missing/evaluate', { sheet: 'Sheet1', formula: '=1' })).status).toBe(404)
  })
})
