import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import JSZip from 'jszip'
import { afterAll, describe, expect, it } from 'vitest'
import { writeXlsx } from '../export/xlsx.js'
import { WorkbookModel } from '../model/workbook-model.js'
import { dataTableAttributes, dataTableFormula } from './data-table-formula.js'
import { loadXlsxIntoEngine } from './load-xlsx.js'
import { readXlsxFile } from './stream-xlsx.js'

const dir = mkdtempSync(join(tmpdir(), 'finsheet-data-tables-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('data tables in xlsx files', () => {
  it('read the three kinds of dataTable formula as TABLE, and write them back', () => {
    const read = (attributes: Record<string, string>) => dataTableFormula((name) => attributes[name])
    expect(read({ ref: 'C3:F6', dt2D: '1', dtr: '1', r1: 'B1', r2: 'B2' })).toEqual({ formula: 'TABLE(B1,B2)', ref: 'C3:F6' })
    expect(read({ ref: 'C3:D6', dtr: '0', r1: 'B1' })).toEqual({ formula: 'TABLE(,B1)', ref: 'C3:D6' })
    expect(read({ ref: 'C3:F3', dtr: '1', r1: 'B2' })).toEqual({ formula: 'TABLE(B2,)', ref: 'C3:F3' })
    expect(read({ ref: 'C3:F3', dtr: '1', r1: 'B2', del1: '1' })).toEqual({ formula: 'TABLE(#REF!,)', ref: 'C3:F3' })
    expect(read({ dtr: '1', r1: 'B2' })).toBeUndefined()
    expect(dataTableAttributes('=TABLE(B1,B2)')).toEqual({ dt2D: '1', dtr: '1', r1: 'B1', r2: 'B2' })
    expect(dataTableAttributes('=TABLE(,$B$1)')).toEqual({ dtr: '0', r1: 'B1' })
    expect(dataTableAttributes('=TABLE(B2,)')).toEqual({ dtr: '1', r1: 'B2' })
    expect(dataTableAttributes('=SUM(B1,B2)')).toBeUndefined()
  })

  it('go out through export as data tables and come back through both readers, calculated', async () => {
    const model = WorkbookModel.build({
      revision: 1,
      sheets: [{ id: 's1', name: 'Model', columnWidths: {}, merges: [] }],
      definedNames: [],
      charts: [],
      cells: [
        { sheetId: 's1', address: 'B1', input: '2' },
        { sheetId: 's1', address: 'B2', input: '=B1^2+1' },
        { sheetId: 's1', address: 'D1', input: '=B2' },
        { sheetId: 's1', address: 'C2', input: '3' },
        { sheetId: 's1', address: 'C3', input: '4' },
        { sheetId: 's1', address: 'D2', input: '=TABLE(,B1)', arrayRange: 'D2:D3' },
      ],
    })
    expect([model.engine.getValue('Model', 'D2'), model.engine.getValue('Model', 'D3')]).toEqual([10, 17])
    const bytes = await writeXlsx(model.snapshot('Book'))
    const sheetXml = await (await JSZip.loadAsync(bytes)).file('xl/worksheets/sheet1.xml')!.async('string')
    expect(sheetXml).toMatch(/<c r="D2"[^>]*><f t="dataTable" ref="D2:D3" dtr="0" r1="B1"\/><v>10<\/v><\/c>/)
    const loaded = await loadXlsxIntoEngine(bytes)
    expect(loaded.engine.getCell('Model', 'D2')).toMatchObject({ formula: '=TABLE(,B1)', arrayRange: 'D2:D3', value: 10 })
    expect(loaded.engine.getValue('Model', 'D3')).toBe(17)
    const path = join(dir, 'table.xlsx')
    writeFileSync(path, bytes)
    const imported = await readXlsxFile(path)
    expect(imported.sheets[0].cells.find((cell) => cell.address === 'D2')).toMatchObject({ formula: 'TABLE(,B1)', arrayRange: 'D2:D3', value: 10 })
  })
})
