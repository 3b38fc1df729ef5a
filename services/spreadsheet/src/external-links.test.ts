/**
 * A workbook imported with links to other workbooks (`[1]Sheet1!$C$8`) calculates its external
 * references from the values the file kept of them: on this replica, on another that loads it from the
 * store, through edits of other cells and a version restored, in the inputs route a calculating client reads, in a copy, and
 * back out in the xlsx export's link part. Links keeping more values than a workbook may are refused.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IMPORT_STREAM_CONTENT_TYPE, MAX_EXTERNAL_CACHED_CELLS, type ExternalLink } from '@finsheet/contracts'
import { readXlsxFile } from '@finsheet/workbook'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let replica: TestApp
let call: Call
let callReplica: Call
let token: string

beforeAll(async () => {
  t = await startTestApp()
  replica = await startTestApp({ replicaOf: t })
  token = await t.tokenFor('modeller')
  call = clientFor(t.app, token)
  callReplica = clientFor(replica.app, await replica.tokenFor('modeller'))
})
afterAll(async () => {
  await replica.close()
  await t.close()
})

const BUDGET: ExternalLink = {
  target: 'file:///C:/Models/Budget.xlsx',
  sheets: [
    { name: 'Sheet1', cells: { C8: 1250.5, A1: 1, A2: 2, A3: 3, B1: 'North & South', B2: true, B3: { error: '#DIV/0!' } } },
    { name: 'Q1 Plan', cells: { B2: 10, B3: 20, B9: 90 } },
  ],
}

const modelSheet = {
  name: 'Model',
  cells: [
    { address: 'A1', input: '=[1]Sheet1!$C$8', legacy: true, cached: 1250.5 },
    { address: 'A2', input: '=SUM([1]Sheet1!A1:A3)', legacy: true, cached: 6 },
    { address: 'A3', input: "=SUM('[1]Q1 Plan'!B2:B9)*2", legacy: true, cached: 240 },
    { address: 'A4', input: '=[1]Sheet1!B1', legacy: true, cached: 'North & South' },
    { address: 'A5', input: '=A1+C1', legacy: true, cached: 1255.5 },
    { address: 'B1', input: '=[1]Sheet1!B2', legacy: true, cached: true },
    { address: 'B2', input: '=[1]Sheet1!B3', legacy: true, cached: { error: '#DIV/0!' } },
    { address: 'C1', input: 5 },
    { address: 'D1', input: '=[1]Sheet1!Z99', legacy: true, cached: { error: '#REF!' } },
  ],
}

const EXPECTED = { A1: 1250.5, A2: 6, A3: 240, A4: 'North & South', A5: 1255.5, B1: true, B2: '#DIV/0!', D1: '#REF!' }

async function valuesOf(client: Call, id: string): Promise<Record<string, unknown>> {
  const answer = await client('GET', `/workbook/${id}/cells?sheet=Model`)
  expect(answer.status).toBe(200)
  const cells = answer.json.workbook.sheets[0].cells as Record<string, { value: unknown }>
  return Object.fromEntries(Object.keys(EXPECTED).map((address) => [address, cells[address]?.value]))
}

async function importLinked(name: string): Promise<string> {
  const imported = await call('POST', '/workbooks/import', { name, sheets: [modelSheet], externalLinks: [BUDGET] })
  expect(imported.status).toBe(201)
  expect(imported.json.recalculation).toMatchObject({ checked: 8, matched: 8, mismatchCount: 0 })
  return imported.json.workbookId as string
}

describe('a workbook linked to another workbook', () => {
  it('calculates external references from the kept values, here and on a replica loading it from the store', async () => {
    const id = await importLinked('Linked model')
    expect(await valuesOf(call, id)).toEqual(EXPECTED)
    expect(await valuesOf(callReplica, id)).toEqual(EXPECTED)
  })

  it('keeps the links through an edit of another cell, on both replicas', async () => {
    const id = await importLinked('Linked model, edited')
    const edit = await callReplica('POST', '/update-cell', { workbookId: id, sheetName: 'Model', cellAddress: 'C1', value: 7 })
    expect(edit.status).toBe(200)
    const edited = { ...EXPECTED, A5: 1257.5 }
    expect(await valuesOf(callReplica, id)).toEqual(edited)
    expect(await valuesOf(call, id)).toEqual(edited)
    // Loaded from the store again after the edit wrote the workbook document.
    t.app.spreadsheet.cache.drop(id)
    expect(await valuesOf(call, id)).toEqual(edited)
  })

  it('hands the links to a client calculating for itself, and to a copy', async () => {
    const id = await importLinked('Linked model, read')
    const inputs = await call('GET', `/workbook/${id}/inputs`)
    expect(inputs.status).toBe(200)
    expect(inputs.json.workbook.externalLinks).toEqual([BUDGET])
    const copy = await call('POST', `/workbooks/${id}/duplicate`, {})
    expect(copy.status).toBe(201)
    expect(await valuesOf(call, copy.json.workbookId)).toEqual(EXPECTED)
    const plain = await call('POST', '/workbooks/import', { name: 'Unlinked', sheets: [{ name: 'Sheet1', cells: [{ address: 'A1', input: 1 }] }] })
    expect((await call('GET', `/workbook/${plain.json.workbookId}/inputs`)).json.workbook).not.toHaveProperty('externalLinks')
  })

  it('keeps the links through a version restored and undone, as stored', async () => {
    const id = await importLinked('Linked model, restored')
    const imported = (await call('GET', `/workbook/${id}/versions`)).json.versions.at(-1)
    await call('POST', '/update-cell', { workbookId: id, sheetName: 'Model', cellAddress: 'C1', value: 7 })
    const restored = await call('POST', `/workbook/${id}/versions/${imported.id}/restore`, {})
    expect(restored.status).toBe(200)
    expect(await valuesOf(callReplica, id)).toEqual(EXPECTED)
    expect((await call('POST', `/workbook/${id}/undo`, {})).status).toBe(200)
    t.app.spreadsheet.cache.drop(id)
    expect(await valuesOf(call, id)).toEqual({ ...EXPECTED, A5: 1257.5 })
    expect((await call('GET', `/workbook/${id}/inputs`)).json.workbook.externalLinks).toEqual([BUDGET])
  })

  it('writes the link part, with its kept values, into the xlsx export', async () => {
    const id = await importLinked('Linked model, exported')
    const exported = await call('GET', `/workbook/${id}/export?format=xlsx`)
    expect(exported.status).toBe(200)
    const dir = mkdtempSync(join(tmpdir(), 'finsheet-links-'))
    try {
      const path = join(dir, 'linked.xlsx')
      writeFileSync(path, exported.raw)
      const read = await readXlsxFile(path)
      expect(read.externalLinks).toEqual([BUDGET])
      const formulas = Object.fromEntries(read.sheets[0].cells.map((cell) => [cell.address, cell.formula]))
      expect(formulas).toMatchObject({ A1: '[1]Sheet1!$C$8', A3: "SUM('[1]Q1 Plan'!B2:B9)*2" })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('takes the links in the header of the streamed form', async () => {
    const lines = [
      { name: 'Linked model, streamed', externalLinks: [BUDGET], sheets: [{ name: 'Model' }] },
      { sheet: 0, cells: modelSheet.cells.map(({ address, input, ...options }) => (Object.keys(options).length > 0 ? [address, input, options] : [address, input])) },
      { end: { cells: modelSheet.cells.length } },
    ]
    const response = await t.app.inject({
      method: 'POST',
      url: '/workbooks/import',
      headers: { authorization: `Bearer ${token}`, 'content-type': IMPORT_STREAM_CONTENT_TYPE },
      payload: lines.map((line) => JSON.stringify(line)).join('\n') + '\n',
    })
    expect(response.statusCode).toBe(201)
    expect(await valuesOf(callReplica, response.json().workbookId)).toEqual(EXPECTED)
  })

  it('refuses links it cannot keep and stores nothing', async () => {
    const before = (await call('GET', '/workbooks?limit=100')).json.total
    const badAddress = await call('POST', '/workbooks/import', {
      name: 'Bad link',
      sheets: [modelSheet],
      externalLinks: [{ target: 'Budget.xlsx', sheets: [{ name: 'Sheet1', cells: { $C$8: 1 } }] }],
    })
    expect(badAddress.status).toBe(400)
    const half = Math.floor(MAX_EXTERNAL_CACHED_CELLS / 2) + 1
    const column = (letter: string) => Object.fromEntries(Array.from({ length: half }, (_, row) => [`${letter}${row + 1}`, row]))
    const tooMany = await call('POST', '/workbooks/import', {
      name: 'Too many kept values',
      sheets: [modelSheet],
      externalLinks: [{ target: 'Budget.xlsx', sheets: [{ name: 'Sheet1', cells: column('A') }, { name: 'Sheet2', cells: column('B') }] }],
    })
    expect(tooMany.status).toBe(400)
    expect(tooMany.json.error).toMatchObject({
      code: 'INVALID_IMPORT',
      message: `The links to other workbooks keep ${(half * 2).toLocaleString('en-US')} values; a workbook may keep at most ${MAX_EXTERNAL_CACHED_CELLS.toLocaleString('en-US')}`,
    })
    expect((await call('GET', '/workbooks?limit=100')).json.total).toBe(before)
  })
})
