/**
 * Two replicas of the service on one store, as `--scale spreadsheet=2` runs them: each keeps its own
 * engines; one whose engine is behind the other's writes reloads, and concurrent writes through both
 * lose nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let first: TestApp
let second: TestApp
let a: Call
let b: Call

beforeAll(async () => {
  first = await startTestApp()
  second = await startTestApp({ replicaOf: first })
  const token = await first.tokenFor('replicated')
  a = clientFor(first.app, token)
  b = clientFor(second.app, token)
})
afterAll(async () => {
  await second.close()
  await first.close()
})

describe('replicas', () => {
  it('reload an engine that is behind the store and keep every write of both', async () => {
    const id = (await a('POST', '/workbooks', { name: 'Shared' })).json.workbookId
    await a('POST', '/update-cells', { workbookId: id, updates: [{ cellAddress: 'A1', value: 1 }, { cellAddress: 'B1', formula: '=SUM(A1:A40)' }] })
    // The second replica opens the workbook, then the first one changes it.
    expect((await b('POST', '/update-cell', { workbookId: id, cellAddress: 'A2', value: 2 })).json.changedCells).toEqual(
      expect.arrayContaining([expect.objectContaining({ address: 'B1', value: 3 })]),
    )
    await a('POST', '/update-cell', { workbookId: id, cellAddress: 'A3', value: 3 })
    const behind = await b('POST', '/update-cell', { workbookId: id, cellAddress: 'A4', value: 4 })
    expect(behind.json.changedCells).toEqual(expect.arrayContaining([expect.objectContaining({ address: 'B1', value: 10 })]))
    expect(second.app.spreadsheet.cache.stats().staleReloads).toBeGreaterThanOrEqual(1)

    const writes = await Promise.all(
      Array.from({ length: 36 }, (_, i) => (i % 2 === 0 ? a : b)('POST', '/update-cell', { workbookId: id, cellAddress: `A${i + 5}`, value: i + 5 })),
    )
    expect(writes.map((answer) => answer.status)).toEqual(Array(36).fill(200))
    expect(new Set(writes.map((answer) => answer.json.revision)).size).toBe(36)
    const cells = (await b('GET', `/workbook/${id}/cells`)).json.workbook.sheets[0].cells
    for (let row = 1; row <= 40; row++) expect(cells[`A${row}`]?.value).toBe(row)
    expect(cells.B1.value).toBe(820)
    // Whichever replica answers next recalculates from everything that is stored.
    const last = await a('POST', '/update-cell', { workbookId: id, cellAddress: 'A1', value: 101 })
    expect(last.json.changedCells).toEqual(expect.arrayContaining([expect.objectContaining({ address: 'B1', value: 920 })]))
    expect((await b('GET', `/workbook/${id}/changes?since=0&limit=500`)).json.changes).toHaveLength(42)
  })
})
