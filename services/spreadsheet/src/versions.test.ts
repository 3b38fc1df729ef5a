import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let call: Call
const QUIET_MS = 1500

beforeAll(async () => {
  t = await startTestApp({ autosaveQuietMs: QUIET_MS })
  call = clientFor(t.app, await t.tokenFor('grace', 'Grace Hopper'))
})
afterAll(async () => {
  await t.close()
})

async function versionsOf(id: string, query = '') {
  const answer = await call('GET', `/workbook/${id}/versions${query}`)
  expect(answer.status).toBe(200)
  return answer.json
}

/** Waits until the workbook has `count` versions (the auto-save timer runs on its own). */
async function waitForVersions(id: string, count: number) {
  for (let i = 0; i < 100; i++) {
    const list = await versionsOf(id)
    if (list.total >= count) return list
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`workbook ${id} never reached ${count} versions`)
}

const cells = async (id: string) => (await call('GET', `/workbook/${id}/cells`)).json.workbook.sheets[0].cells

describe('versions', () => {
  it('makes versions by itself after a quiet period: minor for small edits, auto-save for larger ones', async () => {
    const created = await call('POST', '/workbooks', { name: 'Budget 2026' })
    const id = created.json.workbookId
    let list = await versionsOf(id)
    expect(list.versions).toHaveLength(1)
    expect(list.versions[0]).toMatchObject({ number: 1, type: 'major', status: 'current', fileName: 'Budget 2026', author: 'Grace Hopper', changes: 'Created a blank workbook with Sheet1.' })

    await call('POST', '/update-cells', {
      workbookId: id,
      updates: [
        { cellAddress: 'A1', value: 'Revenue' },
        { cellAddress: 'B1', value: 100 },
        { cellAddress: 'A2', value: 'Costs' },
        { cellAddress: 'B2', value: 60 },
        { cellAddress: 'A3', value: 'Profit' },
        { cellAddress: 'B3', formula: '=B1-B2' },
      ],
    })
    // Edits that keep coming push the version back; none is made while they do.
    const lastEdit = Date.now()
    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'B1', value: 120 })
    const totalSoonAfter = (await versionsOf(id)).total
    // On a machine too busy to answer within the quiet period the version may rightly exist already.
    if (Date.now() - lastEdit < QUIET_MS) expect(totalSoonAfter).toBe(1)
    list = await waitForVersions(id, 2)
    expect(list.versions[0]).toMatchObject({ number: 2, type: 'minor', status: 'current', cells: 6, formulas: 1 })
    expect(list.versions[0].changes).toBe('Filled 6 cells on Sheet1.')
    expect(list.versions[1].status).toBe('previous')

    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'B2', value: 70 })
    list = await waitForVersions(id, 3)
    expect(list.versions[0].type).toBe('minor')
    expect(list.versions[0].changes).toBe('Edited 1 cell on Sheet1; 1 value recalculated. Notable: Sheet1!B2 (Costs) 60 → 70; Sheet1!B3 (Profit) 60 → 50.')

    await call('POST', '/update-cells', { workbookId: id, updates: Array.from({ length: 40 }, (_, i) => ({ cellAddress: `D${i + 1}`, value: i })) })
    list = await waitForVersions(id, 4)
    expect(list.versions[0]).toMatchObject({ type: 'auto-save', tags: ['Sheet1'] })
  })

  it('saves a major version, makes one for an AI changeset, and filters by search, type and workbook', async () => {
    const first = (await call('POST', '/workbooks', { name: 'Forecast Q3' })).json.workbookId
    const second = (await call('POST', '/workbooks', { name: 'Pricing' })).json.workbookId
    await call('POST', '/update-cell', { workbookId: first, cellAddress: 'A1', value: 1 })
    const saved = await call('POST', `/workbook/${first}/save`, { tags: ['board pack'] })
    expect(saved.status).toBe(201)
    expect(saved.json.version).toMatchObject({ type: 'major', tags: ['saved', 'board pack', 'Sheet1'], status: 'current', aiSummary: null })
    const ai = await call('POST', `/workbook/${second}/changes`, {
      source: 'ai',
      label: 'Add growth assumption',
      summary: 'Added a 15% growth rate and projected revenue.',
      commands: [{ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A1', input: '15%' }, { address: 'A2', input: '=100*(1+A1)' }] }],
    })
    expect(ai.status).toBe(200)
    const aiVersions = await versionsOf(second)
    expect(aiVersions.versions[0]).toMatchObject({ type: 'major', aiSummary: 'Added a 15% growth rate and projected revenue.', tags: ['ai', 'Sheet1'] })
    expect(aiVersions.versions[0].changes).toMatch(/^AI changeset: Add growth assumption\. Filled 2 cells on Sheet1\./)

    const all = await call('GET', '/versions?type=major&search=BOARD')
    expect(all.json.versions.map((version: { fileName: string }) => version.fileName)).toEqual(['Forecast Q3'])
    const byWorkbook = await call('GET', '/versions?workbook=Pric')
    expect(byWorkbook.json.versions.every((version: { fileName: string }) => version.fileName === 'Pricing')).toBe(true)
    expect(byWorkbook.json.total).toBe(2)
    const byAuthor = await call('GET', '/versions?search=grace&type=minor')
    expect(byAuthor.json.versions.every((version: { type: string }) => version.type === 'minor')).toBe(true)
    expect(all.json.activeWorkbooks).toBeGreaterThanOrEqual(2)
    expect(all.json.totalVersions).toBeGreaterThanOrEqual(4)
    expect((await call('GET', '/versions?type=weekly')).status).toBe(400)
  })

  it('compares two versions cell by cell, restores one as a new version, and undoes the restore', async () => {
    const id = (await call('POST', '/workbooks', { name: 'Compare me' })).json.workbookId
    await call('POST', '/update-cells', {
      workbookId: id,
      updates: [
        { cellAddress: 'A1', value: 10 },
        { cellAddress: 'A2', value: 20 },
        { cellAddress: 'A3', formula: '=A1+A2' },
      ],
    })
    const v2 = (await call('POST', `/workbook/${id}/save`, {})).json.version
    await call('POST', '/update-cells', {
      workbookId: id,
      updates: [
        { cellAddress: 'A1', value: 15 },
        { cellAddress: 'A2', value: null },
        { cellAddress: 'B1', value: 'new' },
      ],
    })
    await call('POST', `/workbook/${id}/sheets`, { name: 'Extra' })

    const compared = await call('GET', `/workbook/${id}/versions/compare?from=${v2.id}&to=current`)
    expect(compared.status).toBe(200)
    expect(compared.json.summary).toEqual({ added: 1, removed: 1, changed: 2, inputsChanged: 3, valuesChanged: 4 })
    expect(compared.json.sheets).toEqual({ added: ['Extra'], removed: [], renamed: [] })
    const byAddress = Object.fromEntries(compared.json.cells.map((cell: { address: string }) => [cell.address, cell]))
    expect(byAddress.A1).toMatchObject({ status: 'changed', inputChanged: true, valueChanged: true, before: { input: '10', value: 10 }, after: { input: '15', value: 15 } })
    expect(byAddress.A2).toMatchObject({ status: 'removed', before: { value: 20 }, after: null })
    expect(byAddress.A3).toMatchObject({ status: 'changed', inputChanged: false, valueChanged: true, before: { value: 30 }, after: { value: 15 } })
    expect(byAddress.B1).toMatchObject({ status: 'added', after: { value: 'new', type: 'text' } })

    const restored = await call('POST', `/workbook/${id}/versions/${v2.id}/restore`, {})
    expect(restored.status).toBe(200)
    expect(restored.json.version).toMatchObject({ type: 'major', status: 'current', restoredFrom: v2.id, tags: expect.arrayContaining(['restore']) })
    expect(restored.json.version.changes).toMatch(/^Restored version 2 of .* UTC\. Removed sheet Extra; edited 1 cell, filled 1 cell, cleared 1 cell on Sheet1/)
    expect(restored.json.structureChanged).toBe(true)
    let now = await cells(id)
    expect([now.A1.value, now.A2.value, now.A3.value, now.B1]).toEqual([10, 20, 30, undefined])
    expect((await call('GET', `/workbook/${id}/sheets`)).json.sheetOrder).toEqual(['Sheet1'])
    const same = await call('GET', `/workbook/${id}/versions/compare?from=${v2.id}&to=${restored.json.version.id}`)
    expect(same.json.summary).toEqual({ added: 0, removed: 0, changed: 0, inputsChanged: 0, valuesChanged: 0 })

    const undo = await call('POST', `/workbook/${id}/undo`, {})
    expect(undo.json.target.label).toBe('Restore version 2')
    now = await cells(id)
    expect([now.A1.value, now.A2, now.A3.value, now.B1.value]).toEqual([15, undefined, 15, 'new'])
    expect((await call('GET', `/workbook/${id}/sheets`)).json.sheetOrder).toEqual(['Sheet1', 'Extra'])

    expect((await call('GET', `/workbook/${id}/versions/${v2.id}`)).json.version).toMatchObject({ number: 2, status: 'previous' })
    expect((await call('GET', `/workbook/${id}/versions/compare?from=nope&to=current`)).status).toBe(404)
    const other = (await call('POST', '/workbooks', { name: 'Other' })).json.workbookId
    expect((await call('POST', `/workbook/${other}/versions/${v2.id}/restore`, {})).status).toBe(404)
  })
})

describe('versions on shutdown', () => {
  it('makes the automatic versions still waiting for their quiet period when the service stops', async () => {
    const stopping = await startTestApp({ autosaveQuietMs: 60_000 })
    const other = await startTestApp({ replicaOf: stopping })
    try {
      const token = await stopping.tokenFor('closer')
      const before = clientFor(stopping.app, token)
      const id = (await before('POST', '/workbooks', { name: 'Unsaved' })).json.workbookId
      await before('POST', '/update-cell', { workbookId: id, cellAddress: 'A1', value: 'typed just before a deploy' })
      await stopping.app.close()
      const versions = (await clientFor(other.app, token)('GET', `/workbook/${id}/versions`)).json.versions
      expect(versions.map((version: { type: string; number: number }) => [version.number, version.type])).toEqual([
        [2, 'minor'],
        [1, 'major'],
      ])
    } finally {
      await other.close()
      await stopping.close()
    }
  })
})
