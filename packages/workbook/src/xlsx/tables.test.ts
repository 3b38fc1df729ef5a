import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { compareWithCachedValues } from './compare.js'
import { loadXlsxIntoEngine } from './load-xlsx.js'
import type { LoadedWorkbook } from './load-xlsx.js'
import { readXlsx } from './read-xlsx.js'
import { readXlsxFile } from './stream-xlsx.js'
import { parseTablePart, relationshipsPath, tablePartsOf } from './table-parts.js'
import { makeTableWorkbook, SALES_ROWS, TABLE_FORMULAS } from './test-workbook.js'

describe('table parts', () => {
  it('finds the relationships part of a sheet and the tables it lists, relative to the sheet', () => {
    expect(relationshipsPath('xl/worksheets/sheet3.xml')).toBe('xl/worksheets/_rels/sheet3.xml.rels')
    const rels =
      '<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/table" Target="../tables/table4.xml"/>' +
      '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com" TargetMode="External"/></Relationships>'
    expect(tablePartsOf('xl/worksheets/sheet3.xml', rels)).toEqual(['xl/tables/table4.xml'])
  })

  it('reads a header escaped as Excel writes it, and a table without a style', () => {
    const table = parseTablePart(
      '<table name="T" displayName="Costs" ref="$B$2:$C$9" totalsRowShown="0"><tableColumns count="2"><tableColumn id="1" name="Cost_x000a_(USD)"/><tableColumn id="2" name="R&amp;D"/></tableColumns></table>',
      'S',
    )
    expect(table).toEqual({ name: 'Costs', sheet: 'S', range: 'B2:C9', headerRow: true, totalsRow: false, columns: ['Cost\n(USD)', 'R&D'] })
  })

  it('refuses a part without a name or range', () => {
    expect(parseTablePart('<table id="1"/>', 'S')).toBeUndefined()
  })
})

describe('xlsx tables', () => {
  let loaded: LoadedWorkbook
  beforeAll(async () => {
    loaded = await loadXlsxIntoEngine(await makeTableWorkbook())
  })

  it('reads each table with its range, header and totals rows, column names and style', async () => {
    const workbook = await readXlsx(await makeTableWorkbook())
    expect(workbook.tables).toEqual([
      { name: 'Sales', sheet: 'Data', range: 'A1:D6', headerRow: true, totalsRow: true, columns: ['Region', 'Units', 'Unit Price', 'Amount'], style: 'TableStyleMedium2' },
      { name: 'Rates', sheet: 'Report', range: 'C1:C3', headerRow: false, totalsRow: false, columns: ['Rate'], style: 'TableStyleLight9' },
    ])
  })

  it('reads the same tables when an import streams the file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tables-'))
    try {
      const path = join(folder, 'tables.xlsx')
      writeFileSync(path, await makeTableWorkbook())
      const imported = await readXlsxFile(path)
      expect(imported.tables).toEqual((await readXlsx(await makeTableWorkbook())).tables)
      const report = imported.sheets.find((sheet) => sheet.name === 'Report')
      expect(report?.cells.find((cell) => cell.address === 'A2')?.formula).toBe('Sales[[#Headers],[Unit Price]]')
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  it('loads the tables into the engine', () => {
    expect(loaded.engine.getTables().map((table) => [table.name, table.range])).toEqual([
      ['Sales', 'A1:D6'],
      ['Rates', 'C1:C3'],
    ])
    expect(loaded.skippedNames).toEqual([])
  })

  it.each(TABLE_FORMULAS)('Report!%s =%s gives what Excel cached', (address, _formula, expected) => {
    expect(loaded.engine.getValue('Report', address)).toBe(expected)
  })

  it('calculates the calculated column and the totals row', () => {
    expect(['D2', 'D3', 'D4', 'D5'].map((address) => loaded.engine.getValue('Data', address))).toEqual(SALES_ROWS.map(([, units, price]) => units * price))
    expect(loaded.engine.getValue('Data', 'B6')).toBe(100)
    expect(loaded.engine.getValue('Data', 'D6')).toBe(265)
  })

  it('matches every value Excel cached', () => {
    const report = compareWithCachedValues(loaded)
    expect(report.mismatches).toEqual([])
    expect(report.passed).toBe(TABLE_FORMULAS.length + 6)
  })

  it('recalculates the table formulas after an edit, as Excel would', () => {
    loaded.engine.setCell('Data', 'B3', 25)
    expect(loaded.engine.getValue('Data', 'D3')).toBe(75)
    expect(loaded.engine.getValue('Report', 'A1')).toBe(105)
    expect(loaded.engine.getValue('Report', 'A7')).toBe(280)
  })
})
