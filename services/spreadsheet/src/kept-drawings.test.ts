/**
 * Charts and pictures of an imported xlsx: kept with the workbook, through edits, renames, copies and a
 * restart of the service, written back by the xlsx export, and named in its notes when left out.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import JSZip from 'jszip'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXPORT_NOTES_HEADER } from '@finsheet/contracts'
import { readXlsxFile, type ImportedWorkbook } from '@finsheet/workbook'
import { makeChartWorkbook } from '../../../packages/workbook/src/xlsx/test-chart-workbook.js'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let call: Call
let token: string
let imported: ImportedWorkbook
const dir = mkdtempSync(join(tmpdir(), 'finsheet-kept-drawings-'))

beforeAll(async () => {
  t = await startTestApp()
  token = await t.tokenFor('charts')
  call = clientFor(t.app, token)
  writeFileSync(join(dir, 'charts.xlsx'), await makeChartWorkbook())
  imported = await readXlsxFile(join(dir, 'charts.xlsx'))
})
afterAll(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

/** The import body the files service sends for the chart workbook. */
function body(name: string) {
  return {
    name,
    sheets: imported.sheets.map((sheet) => ({
      name: sheet.name,
      ...(sheet.drawing ? { drawing: sheet.drawing } : {}),
      cells: sheet.cells.map((cell) => ({ address: cell.address, input: cell.formula !== undefined ? `=${cell.formula}` : cell.value })),
    })),
  }
}

async function importCharts(name: string): Promise<string> {
  const answer = await call('POST', '/workbooks/import', body(name))
  expect(answer.status, answer.body).toBe(201)
  return answer.json.workbookId as string
}

/** The chart formulas (`<c:f>`) of an exported file, chart by chart, and the sheets holding a drawing. */
async function exportedCharts(id: string, through = call): Promise<{ charts: string[][]; notes: string | undefined; drawings: number }> {
  const answer = await through('GET', `/workbook/${id}/export?format=xlsx`)
  expect(answer.status).toBe(200)
  const zip = await JSZip.loadAsync(answer.raw)
  const parts = Object.keys(zip.files).filter((name) => /^xl\/charts\/chart\d+\.xml$/.test(name)).sort()
  const charts = await Promise.all(parts.map(async (part) => [...(await zip.file(part)!.async('string')).matchAll(/<c:f>([^<]*)<\/c:f>/g)].map((match) => match[1].replace(/&apos;/g, "'"))))
  const sheets = Object.keys(zip.files).filter((name) => /^xl\/worksheets\/sheet\d+\.xml$/.test(name))
  let drawings = 0
  for (const sheet of sheets) if ((await zip.file(sheet)!.async('string')).includes('<drawing ')) drawings++
  return { charts, notes: answer.headers[EXPORT_NOTES_HEADER] as string | undefined, drawings }
}

describe('charts and pictures of an imported workbook', () => {
  it('are written back by the xlsx export, after edits and a copy of the workbook', async () => {
    const id = await importCharts('Charts')
    await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-cells', sheet: 'Data', cells: [{ address: 'B2', input: 999 }] }] })
    const { charts, notes, drawings } = await exportedCharts(id)
    expect(notes).toBeUndefined()
    expect(drawings).toBe(2)
    expect(charts.map((formulas) => formulas.at(-1))).toEqual(['Data!$B$2:$B$5', "'Q1 Costs'!$B$2:$B$4"])
    const copy = await call('POST', `/workbooks/${id}/duplicate`, {})
    expect(copy.status, copy.body).toBe(201)
    expect((await exportedCharts(copy.json.workbookId as string)).charts).toHaveLength(2)
  })

  it('follow a renamed sheet and survive a restart of the service', async () => {
    const id = await importCharts('Renamed')
    const renamed = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'rename-sheet', from: 'Q1 Costs', to: 'Costs' }] })
    expect(renamed.status, renamed.body).toBe(200)
    // Another process over the same stores, as after a restart: it knows only what was stored.
    const second = await startTestApp({ replicaOf: t })
    try {
      const { charts, notes } = await exportedCharts(id, clientFor(second.app, token))
      expect(notes).toBeUndefined()
      expect(charts[1]).toEqual(['Costs!$B$1', 'Costs!$B$1', 'Costs!$A$2:$A$4', 'Costs!$B$2:$B$4'])
    } finally {
      await second.close()
    }
    const { charts, notes } = await exportedCharts(id)
    expect(notes).toBeUndefined()
    expect(charts[1]).toEqual(['Costs!$B$1', 'Costs!$B$1', 'Costs!$A$2:$A$4', 'Costs!$B$2:$B$4'])
  })

  it('leave out a chart whose sheet was deleted and say so in the export notes', async () => {
    const id = await importCharts('Deleted')
    const deleted = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'delete-sheet', name: 'Q1 Costs' }] })
    expect(deleted.status, deleted.body).toBe(200)
    const { charts, notes } = await exportedCharts(id)
    expect(charts).toHaveLength(1)
    expect(notes).toBe('charts: 1 not exported, the sheets they read were deleted (Q1 Costs)')
  })

  it('refuses a drawing that is not what the contract says, storing nothing', async () => {
    const bad = body('Bad')
    ;(bad.sheets[2] as { drawing?: unknown }).drawing = { root: 'xl/drawings/drawing1.xml', parts: 'not a list', charts: [], pictures: 0 }
    const answer = await call('POST', '/workbooks/import', bad)
    expect(answer.status).toBe(400)
    const list = await call('GET', '/workbooks')
    expect(JSON.stringify(list.json)).not.toContain('"Bad"')
  })
})
