/**
 * Cells stored in blocks (tiles of BLOCK_ROWS × BLOCK_COLUMNS per sheet): what an edit writes, what a
 * read touches, that a change spanning many blocks is all or nothing, that stale edits still hear of
 * every cell written since, and that workbooks stored one document per cell move into blocks.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSqliteDocumentStore } from '@finsheet/platform'
import { BLOCK_COLUMNS, BLOCK_ROWS, placeInBlock, type CellBlockDoc } from './storage/cell-blocks.js'
import type { LegacyCellDoc, PendingWorkbookDoc, WorkbookDoc } from './storage/documents.js'
import { clientFor, type Call } from './testing/client.js'
import { ObservedStore } from './testing/observed-store.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let base: TestApp
let t: TestApp
let store: ObservedStore
let call: Call

beforeAll(async () => {
  base = await startTestApp()
  // A second app on the same data folder, whose store is observed.
  store = new ObservedStore(createSqliteDocumentStore({ path: join(base.dir, 'observed.sqlite') }))
  t = await startTestApp({ replicaOf: base, store })
  call = clientFor(t.app, await t.tokenFor('blocky'))
})
afterAll(async () => {
  await t.close()
  await base.close()
})

const blocksWritten = () => [...store.of('cell_blocks', 'putMany'), ...store.of('cell_blocks', 'put')].flatMap((event) => event.documents as CellBlockDoc[])

async function importWorkbook(sheets: { name: string; cells: { address: string; input: string | number }[] }[]): Promise<string> {
  const answer = await call('POST', '/workbooks/import', { name: 'Blocks', sheets })
  expect(answer.status, answer.body).toBe(201)
  return answer.json.workbookId
}

describe('cells stored in blocks', () => {
  it('a one-cell edit rewrites one block, of at most BLOCK_ROWS × BLOCK_COLUMNS cells, however large the sheet', async () => {
    const cells = []
    for (let row = 1; row <= 1000; row++) for (const column of ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P', 'Q', 'R', 'S', 'T']) cells.push({ address: `${column}${row}`, input: row })
    const id = await importWorkbook([{ name: 'Wide', cells }])
    const stored = blocksWritten().filter((block) => block.workbookId === id)
    expect(stored.length).toBe(Math.ceil(1000 / BLOCK_ROWS) * Math.ceil(20 / BLOCK_COLUMNS))
    expect(stored.reduce((sum, block) => sum + block.cells.length, 0)).toBe(20_000)

    store.events.length = 0
    const edit = await call('POST', '/update-cell', { workbookId: id, cellAddress: 'S500', value: 7 })
    expect(edit.status).toBe(200)
    const written = blocksWritten()
    expect(written).toHaveLength(1)
    expect(written[0].cells.length).toBeLessThanOrEqual(BLOCK_ROWS * BLOCK_COLUMNS)
    // S500: row 499, column 18, stored by its place in the block
    expect(written[0].cells.find((cell) => cell[0] === placeInBlock(499, 18))).toEqual([placeInBlock(499, 18), '7', 7, edit.json.revision])
    expect(written[0].revision).toBe(edit.json.revision)
  })

  it('reads one sheet from its own blocks only, without opening the engine', async () => {
    const id = await importWorkbook([
      { name: 'Data', cells: Array.from({ length: 300 }, (_, i) => ({ address: `A${i + 1}`, input: i })) },
      { name: 'Calc', cells: Array.from({ length: 300 }, (_, i) => ({ address: `B${i + 1}`, input: `=Data!A${i + 1}*2` })) },
    ])
    const workbook = (await store.collection<WorkbookDoc>('workbooks').get(id)) as WorkbookDoc
    const calc = workbook.sheets.find((sheet) => sheet.name === 'Calc')?.id
    t.app.spreadsheet.cache.drop(id)
    const loads = t.app.spreadsheet.metrics.report(t.app.spreadsheet.cache.stats()).engineLoads.count
    store.events.length = 0
    const answer = await call('GET', `/workbook/${id}/cells?sheet=Calc`)
    expect(answer.status).toBe(200)
    expect(answer.json.workbook.sheets[0].cells.B300.value).toBe(598)
    const read = store.of('cell_blocks').flatMap((event) => event.documents as CellBlockDoc[])
    expect(read.length).toBeGreaterThan(0)
    expect(read.every((block) => block.sheetId === calc)).toBe(true)
    expect(t.app.spreadsheet.metrics.report(t.app.spreadsheet.cache.stats()).engineLoads.count).toBe(loads)
  })

  it('stores a change across many blocks and sheets in one transaction: a failure leaves every block as it was', async () => {
    const id = await importWorkbook([
      { name: 'Inputs', cells: Array.from({ length: 400 }, (_, i) => ({ address: `A${i + 1}`, input: 1 })) },
      { name: 'Totals', cells: [{ address: 'A1', input: '=SUM(Inputs!A1:A400)' }] },
    ])
    const updates = Array.from({ length: 400 }, (_, i) => ({ cellAddress: `A${i + 1}`, sheetName: 'Inputs', value: 2 }))
    store.failNext = { collection: 'changes', operation: 'insert' }
    store.events.length = 0
    const failed = await call('POST', '/update-cells', { workbookId: id, updates })
    expect(failed.status).toBe(500)
    // The blocks were written inside the transaction before the failure, then rolled back.
    expect(new Set(blocksWritten().map((block) => block.id)).size).toBeGreaterThan(Math.ceil(400 / BLOCK_ROWS))
    const inputs = (await call('GET', `/workbook/${id}/cells?sheet=Inputs`)).json.workbook.sheets[0].cells
    expect(Object.values(inputs).every((cell) => (cell as { value: number }).value === 1)).toBe(true)
    expect((await call('GET', `/workbook/${id}/cells?sheet=Totals`)).json.workbook.sheets[0].cells.A1.value).toBe(400)
    expect((await call('GET', `/workbooks/${id}`)).json.workbook.revision).toBe(1)

    // The engine that ran ahead of the store was dropped: the same change now stores whole.
    const retried = await call('POST', '/update-cells', { workbookId: id, updates })
    expect(retried.status).toBe(200)
    expect((await call('GET', `/workbook/${id}/cells?sheet=Totals`)).json.workbook.sheets[0].cells.A1.value).toBe(800)
  })

  it('tells a stale edit of exactly the cells written since its revision, and clears removed ones', async () => {
    const id = await importWorkbook([{ name: 'Sheet1', cells: Array.from({ length: 200 }, (_, i) => ({ address: `A${i + 1}`, input: i })) }])
    const first = await call('POST', '/update-cell', { workbookId: id, cellAddress: 'A150', value: 'x' })
    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'A10', value: null })
    const stale = await call('POST', '/update-cell', { workbookId: id, cellAddress: 'B1', value: 1, revision: first.json.revision - 1 })
    expect(stale.json.merged).toBe(true)
    const addresses = stale.json.concurrentChanges.map((cell: { address: string }) => cell.address).sort()
    expect(addresses).toEqual(['A10', 'A150'])
    expect(stale.json.concurrentChanges.find((cell: { address: string }) => cell.address === 'A10').value).toBeNull()
  })

  it('counts cells and formulas from what the blocks held and hold, through edits, spills, rows and sheets', async () => {
    const id = (await call('POST', '/workbooks', { name: 'Counts' })).json.workbookId
    const totals = async () => {
      const metadata = (await call('GET', `/workbooks/${id}`)).json.workbook
      const sheets = (await call('GET', `/workbook/${id}/cells`)).json.workbook.sheets as { cells: Record<string, { input: string; value: unknown }> }[]
      const cells = sheets.flatMap((sheet) => Object.values(sheet.cells)).filter((cell) => cell.input !== '' || cell.value !== null)
      expect({ cells: metadata.totalCells, formulas: metadata.totalFormulas }).toEqual({ cells: cells.length, formulas: cells.filter((cell) => cell.input.startsWith('=')).length })
      return metadata.totalCells as number
    }
    await call('POST', '/update-cells', { workbookId: id, updates: [1, 2, 3, 4, 5].map((n) => ({ cellAddress: `A${n * 30}`, value: n })) })
    expect(await totals()).toBe(5)
    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'B1', formula: '=SEQUENCE(3)' })
    expect(await totals()).toBe(8)
    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'B2', value: 'blocks the spill' })
    expect(await totals()).toBe(7)
    await call('POST', '/update-cells', { workbookId: id, updates: [{ cellAddress: 'A30', value: null }, { cellAddress: 'B2', value: null }, { cellAddress: 'C1', format: '0.00' }] })
    expect(await totals()).toBe(7)
    await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'delete-rows', sheet: 'Sheet1', at: 0, count: 90 }] })
    expect(await totals()).toBe(2)
    await call('POST', `/workbook/${id}/sheets`, { name: 'Other' })
    await call('POST', '/update-cells', { workbookId: id, sheetName: 'Other', updates: [{ cellAddress: 'Z900', formula: '=1+1' }] })
    expect(await totals()).toBe(3)
    await call('POST', `/workbook/${id}/undo`, {})
    expect(await totals()).toBe(2)
    await call('POST', `/workbook/${id}/redo`, {})
    expect(await totals()).toBe(3)
    expect((await call('DELETE', `/workbook/${id}/sheets/Other`)).status).toBe(200)
    expect(await totals()).toBe(2)
    // A30 and A60 are left, and the blocks that held the deleted cells are gone.
    expect(await store.collection<CellBlockDoc>('cell_blocks').count({ workbookId: id })).toBe(new Set([29, 59].map((row) => Math.floor(row / BLOCK_ROWS))).size)
  })

  it('leaves nothing of a large new workbook whose last transaction fails, and sweeps what a dead process left', async () => {
    const cells = Array.from({ length: 30_000 }, (_, i) => ({ address: `A${i + 1}`, input: i }))
    const before = await store.collection('cell_blocks').count()
    store.failNext = { collection: 'workbooks', operation: 'insert' }
    store.events.length = 0
    const failed = await call('POST', '/workbooks/import', { name: 'Too late', sheets: [{ name: 'Sheet1', cells }] })
    expect(failed.status).toBe(500)
    // Its blocks went out in more than one transaction before the failure.
    expect(store.of('pending_workbooks', 'put')).toHaveLength(1)
    expect(await store.collection('cell_blocks').count()).toBe(before)
    expect(await store.collection('pending_workbooks').count()).toBe(0)

    // A process that died mid-import: its blocks and its note, an hour and more old.
    const path = join(t.dir, 'died.sqlite')
    const died = createSqliteDocumentStore({ path })
    const orphan: CellBlockDoc = { id: 'wb-gone/sh1/0/0', workbookId: 'wb-gone', sheetId: 'sh1', blockRow: 0, blockColumn: 0, revision: 1, cells: [['A1', '1', 1, 1]] }
    await died.collection<CellBlockDoc>('cell_blocks').put(orphan)
    await died.collection<PendingWorkbookDoc>('pending_workbooks').put({ id: 'wb-gone', ownerId: 'blocky', startedAt: new Date(Date.now() - 2 * 3600_000).toISOString() })
    await died.collection<PendingWorkbookDoc>('pending_workbooks').put({ id: 'wb-still-writing', ownerId: 'blocky', startedAt: new Date().toISOString() })
    await died.close()
    const restarted = await startTestApp({ replicaOf: t, store: createSqliteDocumentStore({ path }) })
    try {
      expect(await restarted.store.collection('cell_blocks').count()).toBe(0)
      expect((await restarted.store.collection<{ id: string }>('pending_workbooks').find()).map((doc) => doc.id)).toEqual(['wb-still-writing'])
    } finally {
      await restarted.close()
    }
  })

  it('moves workbooks stored one document per cell into blocks when the service starts', async () => {
    const dir = t.dir
    const path = join(dir, 'before-blocks.sqlite')
    const old = createSqliteDocumentStore({ path })
    const now = new Date().toISOString()
    const workbook: WorkbookDoc = {
      id: 'wb-old',
      ownerId: 'blocky',
      name: 'Old',
      revision: 3,
      sheets: [{ id: 'sh1', name: 'Sheet1', columnWidths: {}, merges: [] }],
      sheetStats: { sh1: { cells: 2, formulas: 1 } },
      definedNames: [],
      charts: [],
      createdAt: now,
      updatedAt: now,
      isAIGenerated: false,
      storageUrl: null,
      templateId: null,
      versionedRevision: 0,
      versionCount: 0,
    }
    await old.collection<WorkbookDoc>('workbooks').put(workbook)
    const cells: LegacyCellDoc[] = [
      { id: 'wb-old/sh1/A1', workbookId: 'wb-old', sheetId: 'sh1', address: 'A1', row: 0, col: 0, input: '4', value: 4, type: 'number', revision: 2 },
      { id: 'wb-old/sh1/B200', workbookId: 'wb-old', sheetId: 'sh1', address: 'B200', row: 199, col: 1, input: '=A1*2', value: 8, type: 'number', revision: 3, style: { bold: true } },
    ]
    await old.collection<LegacyCellDoc>('cells').putMany(cells)
    await old.close()

    const moved = await startTestApp({ replicaOf: t, store: createSqliteDocumentStore({ path }) })
    try {
      const client = clientFor(moved.app, await moved.tokenFor('blocky'))
      const read = (await client('GET', '/workbook/wb-old/cells')).json.workbook.sheets[0].cells
      expect(read.A1.value).toBe(4)
      expect(read.B200).toMatchObject({ value: 8, formula: '=A1*2', style: { bold: true } })
      expect(await moved.store.collection('cells').count()).toBe(0)
      const blocks = await moved.store.collection<CellBlockDoc>('cell_blocks').find({ workbookId: 'wb-old' })
      expect(blocks.map((block) => block.revision).sort()).toEqual([2, 3])
      const edit = await client('POST', '/update-cell', { workbookId: 'wb-old', cellAddress: 'A1', value: 5, revision: 2 })
      expect(edit.json.concurrentChanges).toEqual([expect.objectContaining({ address: 'B200', value: 8 })])
      expect(edit.json.changedCells).toEqual(expect.arrayContaining([expect.objectContaining({ address: 'B200', value: 10 })]))
    } finally {
      await moved.close()
    }
  })
})
