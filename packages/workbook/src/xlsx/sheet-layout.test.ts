import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import JSZip from 'jszip'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeXlsx } from '../export/xlsx.js'
import { WorkbookModel } from '../model/workbook-model.js'
import { readXlsx } from './read-xlsx.js'
import { importedSheetView, readSheetLayout } from './sheet-layout.js'
import { readXlsxFile } from './stream-xlsx.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sheet-layout-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

function laidOutWorkbook(): WorkbookModel {
  const model = new WorkbookModel({
    sheets: [
      { id: 's1', name: 'Model', columnWidths: { 1: 150 }, merges: [] },
      { id: 's2', name: 'Workings', columnWidths: {}, merges: [] },
    ],
  })
  model.apply([
    { type: 'set-cells', sheet: 'Model', cells: [{ address: 'A1', input: 'Revenue' }, { address: 'A5', input: 7 }, { address: 'B1', input: '=SUM(A2:A6)' }] },
    {
      type: 'set-sheet-view',
      sheet: 'Model',
      frozenRows: 1,
      frozenColumns: 1,
      rows: [{ from: 1, to: 1, height: 40 }, { from: 3, to: 5, level: 1, hidden: true }, { from: 6, to: 6, collapsed: true }],
      columns: [{ from: 2, to: 3, hidden: true }, { from: 4, to: 5, level: 1 }],
    },
    { type: 'set-sheet-view', sheet: 'Workings', hidden: true },
  ])
  return model
}

describe('sheet layout in xlsx', () => {
  it('writes frozen panes, row heights, hidden and grouped rows and columns and a hidden sheet as Excel states them', async () => {
    const bytes = await writeXlsx(laidOutWorkbook().snapshot('Layout'))
    const zip = await JSZip.loadAsync(bytes)
    const sheet1 = await zip.file('xl/worksheets/sheet1.xml')!.async('string')
    expect(sheet1).toMatch(/<pane [^>]*xSplit="1"[^>]*ySplit="1"[^>]*state="frozen"/)
    expect(sheet1).toMatch(/<row r="2"[^>]*ht="30"[^>]*customHeight="1"/)
    expect(sheet1).toMatch(/<row r="4"[^>]*hidden="1"[^>]*outlineLevel="1"|<row r="4"[^>]*outlineLevel="1"[^>]*hidden="1"/)
    const workbookXml = await zip.file('xl/workbook.xml')!.async('string')
    expect(workbookXml).toMatch(/<sheet [^>]*name="Workings"[^>]*state="hidden"/)
    expect(sheet1).toMatch(/<sheetFormatPr[^>]*outlineLevelRow="1"[^>]*outlineLevelCol="1"/)
  })

  it('reads the layout back through both readers', async () => {
    const model = laidOutWorkbook()
    const expected = model.sheets.map((sheet) => sheet.view)
    const path = join(dir, 'layout.xlsx')
    await writeFile(path, await writeXlsx(model.snapshot('Layout')))
    const streamed = await readXlsxFile(path)
    const read = await readXlsx(path)
    for (const [index, view] of expected.entries()) {
      expect(importedSheetView(streamed.sheets[index])).toEqual(view)
      expect(read.sheets[index].layout).toEqual(view)
    }
    // The formula still reads the hidden rows.
    expect(streamed.sheets[0].cells.find((cell) => cell.address === 'B1')?.formula).toBe('SUM(A2:A6)')
  })

  it('reads a pane that is split but not frozen as no frozen panes, and the collapsed mark on a row', () => {
    const xml =
      '<worksheet><sheetViews><sheetView><pane xSplit="2000" ySplit="1500" state="split"/></sheetView></sheetViews>' +
      '<sheetData><row r="3" outlineLevel="2" hidden="1"/><row r="4" collapsed="1"/></sheetData></worksheet>'
    expect(readSheetLayout(xml, false)).toEqual({ rows: { 2: { level: 2, hidden: true }, 3: { collapsed: true } } })
  })
})
