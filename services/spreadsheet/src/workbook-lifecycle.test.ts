/**
 * A user's workbooks from first use to the trash: the first workbook (the one `defaultWorkbook`
 * names) created once however many ask at once, copies, deletion with restore, and a rename that
 * every version then shows.
 */
import { TRASH_RETENTION_DAYS } from '@finsheet/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp

beforeAll(async () => {
  t = await startTestApp()
})
afterAll(async () => {
  await t.close()
})

const userCall = async (uid: string): Promise<Call> => clientFor(t.app, await t.tokenFor(uid, uid))
const names = (answer: { json: { workbooks: { name: string }[] } }) => answer.json.workbooks.map((workbook) => workbook.name)

describe("the user's first workbook", () => {
  it('is created on first use, blank with Sheet1, listed as the default, and answered again after that', async () => {
    const call = await userCall('first-use')
    expect((await call('GET', '/workbooks')).json.total).toBe(0)
    const created = await call('POST', '/workbooks/default', {})
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ created: true, workbook: { name: 'Default Workbook', sheets: ['Sheet1'], isDefault: true, totalCells: 0 } })
    const again = await call('POST', '/workbooks/default', { sheets: [{ name: 'Ignored', cells: [{ address: 'A1', input: 'not kept' }] }] })
    expect(again.status).toBe(200)
    expect(again.json).toMatchObject({ workbookId: created.json.workbookId, created: false, workbook: { sheets: ['Sheet1'] } })
    const list = await call('GET', '/workbooks')
    expect(list.json.total).toBe(1)
    expect(list.json.workbooks[0]).toMatchObject({ id: created.json.workbookId, isDefault: true })
    const versions = await call('GET', `/workbook/${created.json.workbookId}/versions`)
    expect(versions.json.versions.map((version: { changes: string }) => version.changes)).toEqual(['Created a blank workbook with Sheet1.'])
  })

  it('is what the id defaultWorkbook names in paths and bodies, and each user has their own', async () => {
    const call = await userCall('alias-user')
    const written = await call('POST', '/update-cells', { workbookId: 'defaultWorkbook', sheetName: 'Sheet1', updates: [{ cellAddress: 'A1', value: 20 }, { cellAddress: 'A2', formula: '=A1*2' }] })
    expect(written.status).toBe(200)
    const id = written.json.workbookId
    expect(id).not.toBe('defaultWorkbook')
    const cells = await call('GET', '/workbook/defaultWorkbook/cells')
    expect(cells.json.workbook.workbookId).toBe(id)
    expect(cells.json.workbook.sheets[0].cells.A2).toMatchObject({ value: 40, formula: '=A1*2' })
    expect((await call('GET', '/workbooks/defaultWorkbook')).json.workbook).toMatchObject({ id, isDefault: true })
    const stranger = await userCall('alias-stranger')
    const theirs = await stranger('GET', '/workbook/defaultWorkbook/cells')
    expect(theirs.json.workbook.workbookId).not.toBe(id)
    expect(theirs.json.workbook.sheets[0].cells).toEqual({})
    expect((await stranger('GET', `/workbook/${id}/cells`)).status).toBe(404)
  })

  it('is created once when many requests ask for it at once', async () => {
    const call = await userCall('many-tabs')
    const answers = await Promise.all([
      call('POST', '/workbooks/default', {}),
      call('POST', '/workbooks/default', {}),
      call('GET', '/workbook/defaultWorkbook/inputs'),
      call('POST', '/update-cell', { workbookId: 'defaultWorkbook', cellAddress: 'B2', value: 'typed' }),
      call('POST', '/workbooks/default', {}),
    ])
    expect(answers.map((answer) => answer.status).every((status) => status === 200 || status === 201)).toBe(true)
    // whichever came first created it: the alias routes or one of the POSTs
    expect(answers.filter((answer) => answer.status === 201).length).toBeLessThanOrEqual(1)
    const ids = new Set([answers[0], answers[1], answers[4]].map((answer) => answer.json.workbookId))
    expect(ids.size).toBe(1)
    expect((await call('GET', '/workbooks')).json.total).toBe(1)
  })

  it('takes the cells a browser session kept for it, once, and refuses bad ones storing nothing', async () => {
    const call = await userCall('migrating')
    const refused = await call('POST', '/workbooks/default', { sheets: [{ name: 'Sheet1', cells: [{ address: 'NOT AN ADDRESS', input: 'x' }] }] })
    expect(refused.status).toBe(400)
    expect((await call('GET', '/workbooks')).json.total).toBe(0)
    const moved = await call('POST', '/workbooks/default', {
      sheets: [
        { name: 'Sheet1', cells: [{ address: 'A1', input: 'Revenue' }, { address: 'B1', input: 1200, style: { bold: true } }, { address: 'B2', input: '=B1*2', format: '0.0' }], columnWidths: { '0': 160 } },
        { name: 'Notes', cells: [{ address: 'A1', input: '=Sheet1!B2' }] },
      ],
    })
    expect(moved.status).toBe(201)
    expect(moved.json.workbook).toMatchObject({ sheets: ['Sheet1', 'Notes'], totalCells: 4, totalFormulas: 2 })
    const cells = (await call('GET', `/workbook/${moved.json.workbookId}/cells`)).json.workbook
    expect(cells.sheets[0].cells.B1).toMatchObject({ value: 1200, style: { bold: true } })
    expect(cells.sheets[0].cells.B2).toMatchObject({ value: 2400, display: '2400.0' })
    expect(cells.sheets[0].columnWidths).toEqual({ '0': 160 })
    expect(cells.sheets[1].cells.A1.value).toBe(2400)
    const versions = await call('GET', `/workbook/${moved.json.workbookId}/versions`)
    expect(versions.json.versions[0].changes).toBe('Created from the cells your browser session kept: 2 sheets.')
  })
})

describe('copies', () => {
  it('duplicates every sheet, cell, style, name and chart into a workbook of its own', async () => {
    const call = await userCall('copier')
    const id = (await call('POST', '/workbooks/import', {
      name: 'Budget',
      definedNames: [{ name: 'Rate', formula: '=Sheet1!$B$1' }],
      sheets: [
        { name: 'Sheet1', cells: [{ address: 'A1', input: 'Rate' }, { address: 'B1', input: 0.1, format: '0%' }, { address: 'B2', input: '=Rate*100', style: { italic: true } }], merges: ['C1:D1'] },
        { name: 'Plan', cells: [{ address: 'A1', input: 'Q1' }, { address: 'B1', input: 5 }] },
      ],
    })).json.workbookId
    await call('POST', '/create-chart', { workbookId: id, type: 'bar', dataRange: 'Plan!A1:B1', title: 'Plan' })
    const copy = await call('POST', `/workbooks/${id}/duplicate`, {})
    expect(copy.status).toBe(201)
    expect(copy.json.workbook).toMatchObject({ name: 'Copy of Budget', sheets: ['Sheet1', 'Plan'], totalCells: 5, isDefault: false })
    const copyId = copy.json.workbookId
    expect(copyId).not.toBe(id)
    const sheet = (await call('GET', `/workbook/${copyId}/cells?sheet=Sheet1`)).json.workbook.sheets[0]
    expect(sheet.cells.B1).toMatchObject({ value: 0.1, display: '10%' })
    expect(sheet.cells.B2).toMatchObject({ value: 10, style: { italic: true } })
    expect(sheet.merges).toEqual(['C1:D1'])
    expect((await call('GET', `/workbook/${copyId}/charts`)).json.charts).toMatchObject([{ title: 'Plan', sheet: 'Plan' }])
    expect((await call('GET', `/workbook/${copyId}/versions`)).json.versions[0].changes).toBe('Copied from Budget: 2 sheets, 5 cells, 1 formula.')

    // the copy goes its own way
    await call('POST', '/update-cell', { workbookId: copyId, sheetName: 'Sheet1', cellAddress: 'B1', value: 0.5 })
    expect((await call('GET', `/workbook/${copyId}/cells?sheet=Sheet1`)).json.workbook.sheets[0].cells.B2.value).toBe(50)
    expect((await call('GET', `/workbook/${id}/cells?sheet=Sheet1`)).json.workbook.sheets[0].cells.B2.value).toBe(10)

    const named = await call('POST', `/workbooks/${id}/duplicate`, { name: '  Budget v2 ' })
    expect(named.json.workbook.name).toBe('Budget v2')
    expect((await call('POST', `/workbooks/${id}/duplicate`, { name: '   ' })).json.error.code).toBe('INVALID_WORKBOOK_NAME')
    expect(names(await call('GET', '/workbooks'))).toEqual(['Budget v2', 'Copy of Budget', 'Budget'])
    const stranger = await userCall('copy-stranger')
    expect((await stranger('POST', `/workbooks/${id}/duplicate`, {})).status).toBe(404)
    expect((await stranger('GET', '/workbooks')).json.total).toBe(0)
  })
})

describe('the trash', () => {
  it('takes a deleted workbook out of every list and route, and restores it with its cells and versions', async () => {
    const call = await userCall('deleter')
    const id = (await call('POST', '/workbooks', { name: 'Forecast' })).json.workbookId
    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'A1', value: 'kept in the trash' })
    await call('POST', `/workbook/${id}/save`, {})
    const before = Date.now()
    const deleted = await call('DELETE', `/workbook/${id}`)
    expect(deleted.status).toBe(200)
    expect(deleted.json.workbookId).toBe(id)
    const until = Date.parse(deleted.json.restorableUntil)
    expect(until - before).toBeGreaterThanOrEqual(TRASH_RETENTION_DAYS * 86_400_000 - 5000)
    expect((await call('GET', '/workbooks')).json.total).toBe(0)
    expect((await call('GET', `/workbook/${id}/cells`)).status).toBe(404)
    expect((await call('POST', '/update-cell', { workbookId: id, cellAddress: 'A2', value: 'refused' })).status).toBe(404)
    expect((await call('GET', '/versions')).json.total).toBe(0)
    expect((await call('DELETE', `/workbook/${id}`)).status).toBe(404)

    const stranger = await userCall('restore-stranger')
    expect((await stranger('POST', `/workbooks/${id}/restore`)).status).toBe(404)

    const restored = await call('POST', `/workbooks/${id}/restore`)
    expect(restored.status).toBe(200)
    expect(restored.json.workbook).toMatchObject({ id, name: 'Forecast', totalCells: 1 })
    expect((await call('GET', `/workbook/${id}/cells`)).json.workbook.sheets[0].cells.A1.value).toBe('kept in the trash')
    expect((await call('GET', '/versions')).json.total).toBe(2)
    expect((await call('POST', `/workbooks/${id}/restore`)).status).toBe(404)
    // and it takes edits again
    expect((await call('POST', '/update-cell', { workbookId: id, cellAddress: 'A2', value: 'after' })).status).toBe(200)
  })

  it('erases a workbook for good once its time in the trash is up', async () => {
    const call = await userCall('purger')
    const id = (await call('POST', '/workbooks', { name: 'Old' })).json.workbookId
    await call('DELETE', `/workbook/${id}`)
    const later = new Date(Date.now() + (TRASH_RETENTION_DAYS + 1) * 86_400_000)
    expect(await t.app.spreadsheet.workbooks.purgeExpiredTrash(later)).toBeGreaterThanOrEqual(1)
    expect((await call('POST', `/workbooks/${id}/restore`)).status).toBe(404)
    expect(await t.app.spreadsheet.repo.workbookVersions(id)).toEqual([])
    expect(await t.app.spreadsheet.repo.workbookCells(id)).toEqual([])
  })

  it('gives a user whose first workbook was deleted a new one, and the old one comes back as an ordinary workbook', async () => {
    const call = await userCall('default-deleter')
    const first = (await call('POST', '/workbooks/default', {})).json.workbookId
    await call('DELETE', `/workbook/${first}`)
    const second = await call('POST', '/workbooks/default', {})
    expect(second.status).toBe(201)
    expect(second.json.workbookId).not.toBe(first)
    const restored = await call('POST', `/workbooks/${first}/restore`)
    expect(restored.json.workbook.isDefault).toBe(false)
    expect((await call('GET', '/workbooks/defaultWorkbook')).json.workbook.id).toBe(second.json.workbookId)
  })
})

describe('renaming', () => {
  it('shows the new name on every version of the workbook', async () => {
    const call = await userCall('renamer')
    const id = (await call('POST', '/workbooks', { name: 'Draft' })).json.workbookId
    await call('POST', `/workbook/${id}/save`, {})
    await call('PATCH', `/workbooks/${id}`, { name: 'Final model' })
    const versions = (await call('GET', '/versions')).json.versions
    expect(versions.map((version: { fileName: string }) => version.fileName)).toEqual(['Final model', 'Final model'])
    expect((await call('GET', '/versions?workbook=Final')).json.total).toBe(2)
    const one = await call('GET', `/workbook/${id}/versions/${versions[1].id}`)
    expect(one.json.version.fileName).toBe('Final model')
    const exported = await call('GET', `/workbook/${id}/export?format=csv`)
    expect(String(exported.headers['content-disposition'])).toContain('Final model.csv')
  })
})
