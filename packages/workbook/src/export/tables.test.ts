import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import JSZip from 'jszip'
import { describe, expect, it } from 'vitest'
import { WorkbookModel } from '../model/workbook-model.js'
import type { TableRecord } from '../model/snapshot.js'
import { loadXlsxIntoEngine } from '../xlsx/load-xlsx.js'
import { readXlsx } from '../xlsx/read-xlsx.js'
import { storedFormula } from './formula-storage.js'
import { writeXlsx } from './xlsx.js'
import { writeXlsxOffThread } from './xlsx-off-thread.js'

const SALES: TableRecord = { name: 'Sales', sheet: 'Data', range: 'A1:D6', headerRow: true, totalsRow: true, columns: ['Region', 'Units', 'Unit Price', 'Amount'], style: 'TableStyleMedium2' }
const RATES: TableRecord = { name: 'Rates', sheet: 'Summary', range: 'D1:D3', headerRow: false, totalsRow: false, columns: ['Rate'] }

/** What each Summary formula gives, as Excel calculates it. */
const SUMMARY: [string, string, number | string][] = [
  ['A1', '=SUM(Sales[Units])', 100],
  ['A2', '=SUMPRODUCT(Sales[Units],Sales[Unit Price])', 265],
  ['A3', '=Sales[[#Headers],[Unit Price]]', 'Unit Price'],
  ['A4', '=Sales[[#Totals],[Units]]', 100],
  // LibreOffice reads `Sales[[#All],[Units]]` but not `Sales[#All]` (a special item in single brackets,
  // which Excel writes as well): the forms here are the ones both read.
  ['A5', '=ROWS(Sales[[#All],[Units]])', 6],
  ['A6', '=SUM(Sales[[Units]:[Unit Price]])', 111],
  ['A7', '=SUM(Rates[Rate])', 1.5],
  ['B3', '=Sales[@Units]*2', 40],
]

function model(): WorkbookModel {
  const workbook = new WorkbookModel({
    sheets: [
      { id: 's1', name: 'Data', columnWidths: {}, merges: [] },
      { id: 's2', name: 'Summary', columnWidths: {}, merges: [] },
    ],
    tables: [SALES, RATES],
  })
  workbook.apply([
    {
      type: 'set-cells',
      sheet: 'Data',
      cells: [
        ['A1', 'Region'], ['B1', 'Units'], ['C1', 'Unit Price'], ['D1', 'Amount'],
        ['A2', 'North'], ['B2', '10'], ['C2', '2.5'],
        ['A3', 'South'], ['B3', '20'], ['C3', '3'],
        ['A4', 'East'], ['B4', '30'], ['C4', '4'],
        ['A5', 'West'], ['B5', '40'], ['C5', '1.5'],
        ['A6', 'Total'], ['B6', '=SUBTOTAL(109,Sales[Units])'],
        ...['D2', 'D3', 'D4', 'D5'].map((address) => [address, '=[@Units]*[@[Unit Price]]']),
      ].map(([address, input]) => ({ address, input })),
    },
    {
      type: 'set-cells',
      sheet: 'Summary',
      cells: [...SUMMARY.map(([address, input]) => ({ address, input })), { address: 'D1', input: '0.25' }, { address: 'D2', input: '0.5' }, { address: 'D3', input: '0.75' }],
    },
  ])
  return workbook
}

describe('storedFormula with table references', () => {
  it('writes @ in full, as Excel stores this-row references', () => {
    expect(storedFormula('Sales[@Units]*Sales[@[Unit Price]]')).toBe('Sales[[#This Row],[Units]]*Sales[[#This Row],[Unit Price]]')
    expect(storedFormula("SUM(Sales[Units],T[a'#b])")).toBe("SUM(Sales[Units],T[a'#b])")
    expect(storedFormula('XLOOKUP(1,Sales[Units],Sales[[#All],[Region]])')).toBe('_xlfn.XLOOKUP(1,Sales[Units],Sales[[#All],[Region]])')
  })
})

/** LibreOffice on the PATH, to check that another spreadsheet computes the exported table formulas. */
const hasLibreOffice = spawnSync('soffice', ['--version'], { stdio: 'ignore', timeout: 60_000 }).status === 0

describe('xlsx export of tables', () => {
  it('writes each table as a table part that the reader reads back as it was', async () => {
    const bytes = await writeXlsx(model().snapshot('Book'))
    const workbook = await readXlsx(bytes)
    expect(workbook.tables).toEqual([SALES, { ...RATES }])
    const zip = await JSZip.loadAsync(bytes)
    const part = await zip.file('xl/tables/table1.xml')!.async('string')
    expect(part).toContain('ref="A1:D6"')
    expect(part).toContain('totalsRowCount="1"')
    expect(part).toContain('<autoFilter ref="A1:D5"/>')
    expect(await zip.file('[Content_Types].xml')!.async('string')).toContain('/xl/tables/table2.xml')
    const sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string')
    expect(sheet).toMatch(/<tableParts count="1"><tablePart r:id="rIdTable1"\/><\/tableParts><\/worksheet>/)
    // The calculated column is a plain formula in the file (a table holds no array formulas).
    expect(sheet).toMatch(/<c r="D2"[^>]*><f>Sales\[\[#This Row\],\[Units\]\]\*Sales\[\[#This Row\],\[Unit Price\]\]<\/f>/)
  })

  it('gives the same values when the export is loaded again', async () => {
    const original = model()
    const loaded = await loadXlsxIntoEngine(await writeXlsx(original.snapshot('Book')))
    for (const [address, , expected] of SUMMARY) {
      expect(loaded.engine.getValue('Summary', address)).toBe(expected)
      expect(original.engine.getValue('Summary', address)).toBe(expected)
    }
    expect(loaded.engine.getValue('Data', 'D4')).toBe(120)
    expect(loaded.engine.getTables().map((table) => table.range)).toEqual(['A1:D6', 'D1:D3'])
  })

  it('writes the tables from the worker thread as well', async () => {
    const workbook = await readXlsx(await writeXlsxOffThread(model().snapshot('Book')))
    expect(workbook.tables.map((table) => table.name)).toEqual(['Sales', 'Rates'])
  })

  it('writes a header the model holds as a number as the column name in text', async () => {
    const workbook = model()
    workbook.apply([{ type: 'set-cells', sheet: 'Data', cells: [{ address: 'C1', input: '2024' }] }])
    const read = await readXlsx(await writeXlsx(workbook.snapshot('Book')))
    expect(read.tables[0].columns).toEqual(['Region', 'Units', '2024', 'Amount'])
    expect(read.sheets[0].cells.find((cell) => cell.address === 'C1')?.value).toBe('2024')
  })

  it.runIf(hasLibreOffice)('computes the same table formulas in LibreOffice', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tables-'))
    try {
      // Only the Summary sheet: csv conversion writes the first sheet, so it is moved first.
      const workbook = model()
      workbook.apply([{ type: 'move-sheet', name: 'Summary', index: 0 }])
      // Without the cached results, so that LibreOffice shows the values it calculates itself.
      const zip = await JSZip.loadAsync(await writeXlsx(workbook.snapshot('Book')))
      for (const part of ['xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml']) {
        const xml = await zip.file(part)!.async('string')
        zip.file(part, xml.replace(/(<\/f>|<f\/>)<v>[^<]*<\/v>/g, '$1').replace(/(<c [^>]*?) t="(?:str|e|b)"([^>]*><f)/g, '$1$2'))
      }
      writeFileSync(join(folder, 'book.xlsx'), await zip.generateAsync({ type: 'nodebuffer' }))
      execFileSync('soffice', ['--headless', '--norestore', `-env:UserInstallation=file://${folder}/profile`, '--convert-to', 'csv', '--outdir', folder, join(folder, 'book.xlsx')], {
        timeout: 120_000,
        stdio: 'ignore',
      })
      const rows = readFileSync(join(folder, 'book.csv'), 'utf8').trim().split(/\r?\n/).map((line) => line.split(','))
      const cell = (address: string) => {
        const col = address.charCodeAt(0) - 65
        return rows[Number(address.slice(1)) - 1]?.[col]?.replace(/^"|"$/g, '')
      }
      for (const [address, , expected] of SUMMARY) expect(cell(address)).toBe(String(expected))
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }, 180_000)
})
