import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import JSZip from 'jszip'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageSetup } from '@finsheet/contracts'
import { writeXlsx } from '../export/xlsx.js'
import { WorkbookModel } from '../model/workbook-model.js'
import { readPageSetup } from './page-setup-xlsx.js'
import { importedSheetView } from './sheet-layout.js'
import { readXlsxFile } from './stream-xlsx.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'page-setup-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const fitted: PageSetup = { orientation: 'landscape', paperSize: 'a4', fitToWidth: true, printArea: 'A1:F40', titleRows: { first: 0, last: 1 }, gridlines: true, headings: true }
const scaled: PageSetup = { paperSize: 'legal', scale: 75 }

function printedWorkbook(): WorkbookModel {
  const model = new WorkbookModel({
    sheets: [
      { id: 's1', name: 'Model', columnWidths: {}, merges: [] },
      { id: 's2', name: 'Notes', columnWidths: {}, merges: [] },
    ],
  })
  model.apply([
    { type: 'set-cells', sheet: 'Model', cells: [{ address: 'A1', input: 'Year' }, { address: 'B2', input: 5 }] },
    { type: 'set-cells', sheet: 'Notes', cells: [{ address: 'A1', input: 'Note' }] },
    { type: 'set-sheet-view', sheet: 'Model', frozenRows: 1, pageSetup: fitted },
    { type: 'set-sheet-view', sheet: 'Notes', pageSetup: scaled },
  ])
  return model
}

describe('page setup in xlsx', () => {
  it("writes pageSetup, printOptions and the sheet's Print_Area and Print_Titles names as Excel does", async () => {
    const zip = await JSZip.loadAsync(await writeXlsx(printedWorkbook().snapshot('Printed')))
    const sheet1 = await zip.file('xl/worksheets/sheet1.xml')!.async('string')
    expect(sheet1).toMatch(/<pageSetup [^>]*paperSize="9"[^>]*orientation="landscape"|<pageSetup [^>]*orientation="landscape"[^>]*paperSize="9"/)
    expect(sheet1).toMatch(/<printOptions [^>]*headings="1"[^>]*gridLines="1"|<printOptions [^>]*gridLines="1"[^>]*headings="1"/)
    expect(sheet1).toMatch(/<pageSetUpPr [^>]*fitToPage="1"/)
    const workbookXml = await zip.file('xl/workbook.xml')!.async('string')
    expect(workbookXml).toMatch(/<definedName name="_xlnm.Print_Area" localSheetId="0">(&apos;)?Model(&apos;)?!\$A\$1:\$F\$40<\/definedName>/)
    expect(workbookXml).toMatch(/<definedName name="_xlnm.Print_Titles" localSheetId="0">(&apos;)?Model(&apos;)?!\$1:\$2<\/definedName>/)
  })

  it('reads it back through the import reader, each sheet with its own', async () => {
    const model = printedWorkbook()
    const path = join(dir, 'printed.xlsx')
    await writeFile(path, await writeXlsx(model.snapshot('Printed')))
    const streamed = await readXlsxFile(path)
    expect(importedSheetView(streamed.sheets[0])).toEqual(model.sheets[0].view)
    expect(importedSheetView(streamed.sheets[1])).toEqual({ pageSetup: scaled })
    // Print names are the sheet's, not names the user defined.
    expect(streamed.definedNames).toEqual([])
  })

  it('reads what Excel itself writes: fit to one page wide, several print areas (the first kept)', () => {
    const xml = '<worksheet><sheetPr><pageSetUpPr fitToPage="1"/></sheetPr><printOptions gridLines="1"/><pageSetup paperSize="1" orientation="portrait" fitToHeight="0"/></worksheet>'
    expect(readPageSetup(xml, { printArea: "'P&L'!$B$2:$H$90,'P&L'!$J$2:$K$9", printTitles: "'P&L'!$A:$A,'P&L'!$3:$4" })).toEqual({
      paperSize: 'letter',
      fitToWidth: true,
      gridlines: true,
      printArea: 'B2:H90',
      titleRows: { first: 2, last: 3 },
      titleColumns: { first: 0, last: 0 },
    })
    expect(readPageSetup('<worksheet><pageSetup scale="100"/></worksheet>')).toBeUndefined()
  })
})

describe('print titles and print areas in xlsx', () => {
  it('keeps columns to repeat at the left beside rows to repeat at the top', async () => {
    const setup: PageSetup = { titleRows: { first: 0, last: 1 }, titleColumns: { first: 0, last: 1 } }
    const model = new WorkbookModel({ sheets: [{ id: 's1', name: 'Model', columnWidths: {}, merges: [] }] })
    model.apply([
      { type: 'set-cells', sheet: 'Model', cells: [{ address: 'A1', input: 'Year' }] },
      { type: 'set-sheet-view', sheet: 'Model', pageSetup: setup },
    ])
    const bytes = await writeXlsx(model.snapshot('Titles'))
    const workbookXml = await (await JSZip.loadAsync(bytes)).file('xl/workbook.xml')!.async('string')
    expect(workbookXml).toMatch(/<definedName name="_xlnm.Print_Titles" localSheetId="0">(&apos;)?Model(&apos;)?!\$A:\$B,(&apos;)?Model(&apos;)?!\$1:\$2<\/definedName>/)
    const path = join(dir, 'titles.xlsx')
    await writeFile(path, bytes)
    expect(importedSheetView((await readXlsxFile(path)).sheets[0])).toEqual({ pageSetup: setup })
  })

  it('moves the title columns with columns inserted before them, and drops them with their columns', () => {
    const model = new WorkbookModel({ sheets: [{ id: 's1', name: 'Model', columnWidths: {}, merges: [] }] })
    model.apply([{ type: 'set-sheet-view', sheet: 'Model', pageSetup: { titleColumns: { first: 1, last: 2 } } }])
    model.apply([{ type: 'insert-columns', sheet: 'Model', at: 0, count: 2 }])
    expect(model.sheets[0].view?.pageSetup).toEqual({ titleColumns: { first: 3, last: 4 } })
    model.apply([{ type: 'delete-columns', sheet: 'Model', at: 3, count: 2 }])
    expect(model.sheets[0].view?.pageSetup).toBeUndefined()
  })

  it('writes one Print_Area name for a sheet with a print area in its page setup and a Print_Area name defined by the user', async () => {
    const model = new WorkbookModel({
      sheets: [
        { id: 's1', name: 'Model', columnWidths: {}, merges: [] },
        { id: 's2', name: 'Notes', columnWidths: {}, merges: [] },
      ],
    })
    model.apply([
      { type: 'set-cells', sheet: 'Model', cells: [{ address: 'A1', input: 'Year' }] },
      { type: 'set-sheet-view', sheet: 'Model', pageSetup: { printArea: 'A1:F40', titleRows: { first: 0, last: 0 } } },
      { type: 'define-name', name: 'Print_Area', formula: '=Model!$A$1:$C$9', sheet: 'Model' },
      { type: 'define-name', name: 'Print_Titles', formula: '=Model!$1:$3', sheet: 'Model' },
      // On a sheet without a page setup, the user's name is the sheet's print area.
      { type: 'define-name', name: 'Print_Area', formula: '=Notes!$A$1:$B$2', sheet: 'Notes' },
    ])
    const workbookXml = await (await JSZip.loadAsync(await writeXlsx(model.snapshot('Areas')))).file('xl/workbook.xml')!.async('string')
    const names = [...workbookXml.matchAll(/<definedName name="([^"]+)" localSheetId="(\d+)">([^<]*)<\/definedName>/g)].map((match) => [match[1], match[2], match[3].replace(/&apos;/g, "'")])
    expect(names.filter(([name, sheet]) => name === '_xlnm.Print_Area' && sheet === '0')).toEqual([['_xlnm.Print_Area', '0', "'Model'!$A$1:$F$40"]])
    expect(names.filter(([name, sheet]) => name === '_xlnm.Print_Titles' && sheet === '0')).toHaveLength(1)
    expect(names.filter(([name, sheet]) => name === '_xlnm.Print_Area' && sheet === '1')).toEqual([['_xlnm.Print_Area', '1', 'Notes!$A$1:$B$2']])
  })
})
