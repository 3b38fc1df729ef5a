/**
 * Rows and columns inserted and deleted through a sheet's layout: the stored cells stay where they
 * are, and every reader of the store (windows, /cells, /inputs, export, a reload, versions) must see
 * the sheet exactly as the engine that made the edits holds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CellRecord } from '@finsheet/workbook'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'
import { deleteFrom, insertInto, INSERTED_ROWS_FROM, storedIntervals, toLogical, toStored, type AxisMap } from './storage/sheet-layout.js'

describe('axis maps', () => {
  /** The same map as a plain list of stored rows for rows 0…length-1, the rest at their own index plus `shift`. */
  interface Naive {
    stored: number[]
    tail: number
  }
  const naiveStored = (naive: Naive, index: number) => (index < naive.stored.length ? naive.stored[index] : naive.tail + index - naive.stored.length)

  it('keeps every row where a plain list of stored rows would, through random insertions and deletions', () => {
    let seed = 7
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
      return seed % below
    }
    for (let trial = 0; trial < 30; trial++) {
      let map: AxisMap = [0]
      let next = INSERTED_ROWS_FROM
      const naive: Naive = { stored: [], tail: 0 }
      for (let step = 0; step < 25; step++) {
        const at = random(60)
        const count = 1 + random(4)
        // The plain list covers at least the rows the edit reaches.
        while (naive.stored.length < at + count) naive.stored.push(naive.tail++)
        if (random(2) === 0) {
          map = insertInto(map, at, count, next)
          naive.stored.splice(at, 0, ...Array.from({ length: count }, (_, i) => next + i))
          next += count
        } else {
          const { map: after, removed } = deleteFrom(map, at, count)
          const gone = naive.stored.splice(at, count)
          expect(removed.flatMap(([start, length]) => Array.from({ length }, (_, i) => start + i))).toEqual(gone)
          map = after
        }
        for (let index = 0; index < 90; index++) {
          const stored = naiveStored(naive, index)
          expect(toStored(map, index)).toBe(stored)
          expect(toLogical(map, stored, INSERTED_ROWS_FROM)).toBe(index)
        }
        const intervals = storedIntervals(map, 5, 40).flatMap(([first, last]) => Array.from({ length: last - first + 1 }, (_, i) => first + i))
        expect(intervals).toEqual(Array.from({ length: 36 }, (_, i) => naiveStored(naive, 5 + i)))
      }
    }
  })

  it('folds back to the identity when an insertion is deleted again', () => {
    const inserted = insertInto([0], 1000, 1, INSERTED_ROWS_FROM)
    expect(inserted).toEqual([0, 1000, INSERTED_ROWS_FROM, 1, 1000])
    expect(deleteFrom(inserted, 1000, 1).map).toEqual([0])
    // A stored row deleted is never anyone's again.
    expect(toLogical(deleteFrom([0], 3, 1).map, 3, INSERTED_ROWS_FROM)).toBeUndefined()
  })
})

let t: TestApp
let call: Call
let id: string

const ROWS = 120

beforeAll(async () => {
  t = await startTestApp()
  call = clientFor(t.app, await t.tokenFor('layouts'))
  const cells: { address: string; input: string | number }[] = []
  for (let row = 1; row < ROWS; row++) {
    cells.push({ address: `A${row}`, input: row })
    cells.push({ address: `B${row}`, input: `=A${row}*2` })
    cells.push({ address: `C${row}`, input: `=B${row}+$A$1` })
    cells.push({ address: `D${row}`, input: `=SUM($A$1:A${row})` })
    cells.push({ address: `E${row}`, input: `=Other!$A$1+A${row}` })
  }
  for (const column of ['A', 'B', 'C', 'D', 'E']) cells.push({ address: `${column}${ROWS}`, input: `=SUM(${column}1:${column}${ROWS - 1})` })
  const imported = await call('POST', '/workbooks/import', {
    name: 'Layouts',
    sheets: [
      { name: 'Model', cells, merges: ['G5:H6'] },
      { name: 'Other', cells: [{ address: 'A1', input: 5 }, { address: 'B1', input: `=SUM(Model!A1:A${ROWS - 1})` }, { address: 'C1', input: '=Model!B60' }] },
    ],
  })
  expect(imported.status, imported.body.slice(0, 300)).toBe(201)
  id = imported.json.workbookId
}, 60_000)

afterAll(async () => {
  await t.close()
})

type Shown = Record<string, { input: string; value: unknown }>

/** What the engine holds: every cell's input and value, by sheet name and address. */
async function engineCells(): Promise<Shown> {
  const workbook = (await t.app.spreadsheet.repo.workbooks().get(id))!
  await t.app.spreadsheet.workbooks.settle(id)
  const state = t.app.spreadsheet.cache.peek(id, workbook.revision)
  expect(state, 'the workbook is open at its stored revision').toBeDefined()
  const shown: Shown = {}
  for (const sheet of state!.sheets) state!.forEachRecord(sheet.id, (record: CellRecord) => void (shown[`${sheet.name}!${record.address}`] = { input: record.input, value: record.value }))
  return shown
}

/** What the store holds, as GET /cells reads it. */
async function storedCells(): Promise<Shown> {
  const answer = await call('GET', `/workbook/${id}/cells`)
  expect(answer.status, answer.body.slice(0, 300)).toBe(200)
  const shown: Shown = {}
  for (const sheet of answer.json.workbook.sheets as { name: string; cells: Record<string, { input?: string; formula?: string | null; value: unknown }> }[]) {
    for (const [address, cell] of Object.entries(sheet.cells)) shown[`${sheet.name}!${address}`] = { input: String(cell.formula ?? cell.input ?? ''), value: cell.value }
  }
  return shown
}

const edit = async (commands: unknown[]) => {
  const answer = await call('POST', `/workbook/${id}/changes`, { commands })
  expect(answer.status, answer.body.slice(0, 300)).toBe(200)
  return answer
}

/** The store reads as the engine holds the workbook: /cells, a window, /inputs and export, then a reload from the store. */
async function expectStoreAsEngine(): Promise<Shown> {
  const expected = await engineCells()
  const stored = await storedCells()
  // /cells answers the input of a number as its value's text; the engine the typed text: compare values, and formulas exactly.
  const formulas = (shown: Shown) => Object.fromEntries(Object.entries(shown).map(([key, cell]) => [key, cell.input.startsWith('=') ? cell.input : cell.value]))
  expect(formulas(stored)).toEqual(formulas(expected))
  for (const [key, cell] of Object.entries(expected)) expect(stored[key]?.value, key).toEqual(cell.value)

  const window = await call('GET', `/workbook/${id}/window?sheet=Model&startRow=1&endRow=200`)
  expect(window.status).toBe(200)
  const windowed: Record<string, unknown> = {}
  for (const [address, cell] of Object.entries(window.json.workbook.sheet.cells as Record<string, { formula?: string | null; value: unknown }>)) windowed[`Model!${address}`] = cell.formula ?? cell.value
  expect(windowed).toEqual(Object.fromEntries(Object.entries(formulas(expected)).filter(([key]) => key.startsWith('Model!'))))
  const extent = Object.keys(expected)
    .filter((key) => key.startsWith('Model!'))
    .map((key) => Number(/\d+$/.exec(key)![0]))
  expect(window.json.workbook.sheet.rowCount).toBe(Math.max(...extent))

  const inputs = await call('GET', `/workbook/${id}/inputs?sheet=Model`)
  expect(inputs.status).toBe(200)
  const exported = await call('GET', `/workbook/${id}/export?format=csv&sheet=Model`)
  expect(exported.status).toBe(200)
  // The export's rows are as many as the sheet's, its total where the engine has it.
  const lines = exported.body.trim().split('\r\n')
  expect(lines).toHaveLength(Math.max(...extent))

  // Loaded again from the store, the engine calculates the same values.
  t.app.spreadsheet.cache.drop(id)
  const reloaded = await call('POST', `/workbook/${id}/evaluate`, { sheet: 'Model', formula: '=1' })
  expect(reloaded.status, reloaded.body.slice(0, 300)).toBe(200)
  expect(await engineCells()).toEqual(expected)
  return expected
}

describe('rows and columns inserted and deleted through the layout', () => {
  it('keeps the stored cells where they are, and every reader sees the sheet the engine holds', async () => {
    const original = await storedCells()
    const saved = await call('POST', `/workbook/${id}/save`, {})
    expect(saved.status, saved.body.slice(0, 300)).toBe(201)

    const inserted = await edit([{ type: 'insert-rows', sheet: 'Model', at: 10, count: 2 }])
    expect(inserted.json.changedCells).toEqual([])
    const workbook = await t.app.spreadsheet.repo.workbooks().get(id)
    const modelId = workbook!.sheets.find((sheet) => sheet.name === 'Model')!.id
    expect(workbook!.layouts?.[modelId]?.rows).toEqual([0, 10, INSERTED_ROWS_FROM, 2, 10])
    let shown = await expectStoreAsEngine()
    expect(shown['Model!D13'].input).toBe('=SUM($A$1:A13)')
    expect(shown['Other!B1'].input).toBe(`=SUM(Model!A1:A${ROWS + 1})`)

    // A cell typed into an inserted row is stored there, and totals follow it.
    await edit([{ type: 'set-cells', sheet: 'Model', cells: [{ address: 'A11', input: '1000' }, { address: 'B11', input: '=A11*2' }] }])
    shown = await expectStoreAsEngine()
    expect(shown[`Model!A${ROWS + 2}`].value).toBe(1000 + ((ROWS - 1) * ROWS) / 2)

    await edit([{ type: 'delete-rows', sheet: 'Model', at: 40, count: 3 }])
    await expectStoreAsEngine()
    await edit([{ type: 'insert-columns', sheet: 'Model', at: 1, count: 1 }])
    await expectStoreAsEngine()
    // Column A deleted: every formula reading it shows #REF!, on both sheets.
    await edit([{ type: 'delete-columns', sheet: 'Model', at: 0, count: 1 }])
    shown = await expectStoreAsEngine()
    expect(shown['Other!B1'].input).toBe('=SUM(#REF!)')

    // Undone one by one: the deletion's undo puts back the column and the formulas it rewrote.
    for (let undo = 0; undo < 2; undo++) {
      const undone = await call('POST', `/workbook/${id}/undo`, {})
      expect(undone.status, undone.body.slice(0, 300)).toBe(200)
      await expectStoreAsEngine()
    }
    const rowsBack = await call('POST', `/workbook/${id}/undo`, {})
    expect(rowsBack.status).toBe(200)
    await expectStoreAsEngine()
    expect((await call('POST', `/workbook/${id}/redo`, {})).status).toBe(200)
    await expectStoreAsEngine()

    // The version saved before any of it comes back whole, and the sheet is written afresh.
    const restored = await call('POST', `/workbook/${id}/versions/${saved.json.version.id}/restore`, {})
    expect(restored.status, restored.body.slice(0, 300)).toBe(200)
    expect(await expectStoreAsEngine()).toEqual(await engineCells())
    const formulasOf = (shown: Shown) => Object.fromEntries(Object.entries(shown).map(([key, cell]) => [key, cell.input.startsWith('=') ? cell.input : cell.value]))
    expect(formulasOf(await storedCells())).toEqual(formulasOf(original))
    expect((await t.app.spreadsheet.repo.workbooks().get(id))!.layouts).toEqual({})
  }, 120_000)

  it('counts the cells a deletion took away', async () => {
    const before = (await call('GET', `/workbook/${id}/window?sheet=Model&startRow=1&endRow=1`)).json.workbook.totalCells as number
    await edit([{ type: 'delete-rows', sheet: 'Model', at: 0, count: 2 }])
    const after = (await call('GET', `/workbook/${id}/window?sheet=Model&startRow=1&endRow=1`)).json.workbook.totalCells as number
    expect(after).toBe(before - 10)
    await expectStoreAsEngine()
  }, 60_000)
})
