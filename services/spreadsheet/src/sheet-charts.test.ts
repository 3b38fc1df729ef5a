/**
 * Charts placed on a sheet through the change route: stored with the workbook, handed to the browser
 * with the inputs, moved by the rows inserted since an older revision, undone, listed under
 * Visualizations and exported to xlsx as pictures over the same cells.
 */
import JSZip from 'jszip'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXPORT_NOTES_HEADER, type ChartSpec } from '@finsheet/contracts'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let call: Call
let id: string

const bridge: ChartSpec = {
  type: 'waterfall',
  title: 'EV bridge',
  dataRange: 'A1:B3',
  seriesInColumns: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  anchor: { from: { row: 0, col: 3, dx: 12, dy: 0 }, to: { row: 12, col: 8, dx: 0, dy: 0 } },
}

beforeAll(async () => {
  t = await startTestApp()
  call = clientFor(t.app, await t.tokenFor('charter'))
  const created = await call('POST', '/workbooks', { name: 'Valuation' })
  expect(created.status, created.body).toBe(201)
  id = created.json.workbookId
  const filled = await call('POST', `/workbook/${id}/changes`, {
    commands: [
      {
        type: 'set-cells',
        sheet: 'Sheet1',
        cells: [
          { address: 'A1', input: 'Enterprise value' },
          { address: 'B1', input: 1200 },
          { address: 'A2', input: 'Less: debt' },
          { address: 'B2', input: -350 },
          { address: 'A3', input: 'Equity value' },
          { address: 'B3', input: '=B1+B2' },
        ],
      },
    ],
  })
  expect(filled.status, filled.body).toBe(200)
})
afterAll(async () => {
  await t.close()
})

describe('charts on a sheet', () => {
  it('stores a placed chart, follows rows inserted from an older revision, and undoes it', async () => {
    const base = (await call('GET', `/workbook/${id}/inputs`)).json.workbook.revision as number
    const inserted = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 2 }], revision: base })
    expect(inserted.status, inserted.body).toBe(200)
    // made on the revision before the insertion: it lands on the cells as they are now
    const placed = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-chart', sheet: 'Sheet1', id: 'bridge', chart: bridge }], revision: base })
    expect(placed.status, placed.body).toBe(200)
    const inputs = (await call('GET', `/workbook/${id}/inputs`)).json.workbook
    expect(inputs.charts).toEqual([{ id: 'bridge', sheet: 'Sheet1', ...bridge, dataRange: 'A3:B5', anchor: { from: { ...bridge.anchor!.from, row: 2 }, to: { ...bridge.anchor!.to, row: 14 } } }])
    const listed = (await call('GET', `/workbook/${id}/charts`)).json.charts
    expect(listed[0].data).toEqual({ labels: ['Enterprise value', 'Less: debt', 'Equity value'], series: [{ name: 'Series 1', values: [1200, -350, 850] }] })

    const undone = await call('POST', `/workbook/${id}/undo`, {})
    expect(undone.status, undone.body).toBe(200)
    expect((await call('GET', `/workbook/${id}/inputs`)).json.workbook.charts).toBeUndefined()
    expect((await call('POST', `/workbook/${id}/redo`, {})).status).toBe(200)
    expect((await call('GET', `/workbook/${id}/inputs`)).json.workbook.charts).toHaveLength(1)
  })

  it('refuses a bad chart with a clear 400, writing nothing', async () => {
    const before = (await call('GET', `/workbook/${id}/inputs`)).json.workbook
    const tooLarge = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-chart', sheet: 'Sheet1', id: 'big', chart: { ...bridge, dataRange: 'A1:Z1000' } }] })
    expect(tooLarge.status).toBe(400)
    expect(tooLarge.json.error.message).toBe('A chart can draw at most 10,000 cells')
    const unknownType = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-chart', sheet: 'Sheet1', id: 'x', chart: { ...bridge, type: 'radar' } }] })
    expect(unknownType.status).toBe(400)
    const after = (await call('GET', `/workbook/${id}/inputs`)).json.workbook
    expect(after.revision).toBe(before.revision)
    expect(after.charts).toEqual(before.charts)
  })

  it('exports the chart as a picture anchored over its cells, and says so', async () => {
    const answer = await call('GET', `/workbook/${id}/export?format=xlsx`)
    expect(answer.status).toBe(200)
    expect(answer.headers[EXPORT_NOTES_HEADER]).toBe('charts exported as pictures: 1')
    const zip = await JSZip.loadAsync(answer.raw)
    expect(Object.keys(zip.files).filter((name) => name.startsWith('xl/media/') && !zip.files[name].dir)).toEqual(['xl/media/image1.png'])
    const drawing = await zip.file('xl/drawings/drawing1.xml')!.async('string')
    expect(drawing).toContain('<xdr:from><xdr:col>3</xdr:col><xdr:colOff>114300</xdr:colOff><xdr:row>2</xdr:row>')
  })
})
