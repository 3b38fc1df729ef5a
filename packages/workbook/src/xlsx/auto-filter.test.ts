import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import JSZip from 'jszip'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeXlsx } from '../export/xlsx.js'
import { WorkbookModel } from '../model/workbook-model.js'
import { autoFilterXml, readAutoFilter, withAutoFilter } from './auto-filter.js'
import { readXlsx } from './read-xlsx.js'
import { importedSheetView } from './sheet-layout.js'
import { readXlsxFile } from './stream-xlsx.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'auto-filter-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

function filteredWorkbook(): WorkbookModel {
  const model = new WorkbookModel({ sheets: [{ id: 's1', name: 'Sales', columnWidths: {}, merges: [] }] })
  const rows = [['Region', 'Units'], ['East', 5], ['West & Co', 7], ['', 9], ['East', 3]]
  model.apply([{ type: 'set-cells', sheet: 'Sales', cells: rows.flatMap((row, index) => row.map((input, col) => ({ address: `${'BC'[col]}${index + 2}`, input }))) }])
  model.apply([{ type: 'set-filter', sheet: 'Sales', filter: { range: 'B2:C6', columns: [{ column: 1, values: ['East', ''] }] } }])
  model.apply([{ type: 'merge-cells', sheet: 'Sales', range: 'E1:F1' }])
  return model
}

describe('a sheet filter in xlsx', () => {
  it('writes the autoFilter with its column’s values, blanks as blank="1", before the merged cells, and its rows hidden', async () => {
    const zip = await JSZip.loadAsync(await writeXlsx(filteredWorkbook().snapshot('Filtered')))
    const sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string')
    expect(sheet).toContain('<autoFilter ref="B2:C6"><filterColumn colId="0"><filters blank="1"><filter val="East"/></filters></filterColumn></autoFilter>')
    expect(sheet.indexOf('<autoFilter')).toBeLessThan(sheet.indexOf('<mergeCells'))
    expect(sheet).toMatch(/<row r="4"[^>]*hidden="1"/)
    expect(sheet).not.toMatch(/<row r="3"[^>]*hidden="1"/)
  })

  it('reads the filter and its filtered rows back through both readers', async () => {
    const model = filteredWorkbook()
    const path = join(dir, 'filtered.xlsx')
    await writeFile(path, await writeXlsx(model.snapshot('Filtered')))
    const expected = model.sheets[0].view
    expect(expected?.rows).toEqual({ 3: { filtered: true } })
    expect(importedSheetView((await readXlsxFile(path)).sheets[0])).toEqual(expected)
    expect((await readXlsx(path)).sheets[0].layout).toEqual(expected)
  })

  it('keeps text that needs escaping and places the element before what follows it', () => {
    const filter = { range: 'A1:B3', columns: [{ column: 1, values: ['R&D <"x">'] }] }
    expect(readAutoFilter(autoFilterXml(filter))).toEqual(filter)
    expect(withAutoFilter('<worksheet><sheetData/><pageMargins left="0.7"/></worksheet>', { range: 'A1:B3' })).toBe('<worksheet><sheetData/><autoFilter ref="A1:B3"/><pageMargins left="0.7"/></worksheet>')
    // Criteria other than a list of values leave the column showing everything.
    expect(readAutoFilter('<autoFilter ref="A1:B3"><filterColumn colId="1"><customFilters><customFilter operator="greaterThan" val="5"/></customFilters></filterColumn></autoFilter>')).toEqual({ range: 'A1:B3' })
  })
})
