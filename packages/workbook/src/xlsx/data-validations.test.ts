import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import JSZip from 'jszip'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DataValidationRule } from '@finsheet/contracts'
import { writeXlsx } from '../export/xlsx.js'
import { WorkbookModel } from '../model/workbook-model.js'
import { ruleFromXml, withDataValidations } from './data-validations.js'
import { readXlsxFile } from './stream-xlsx.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'data-validations-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** One rule of every kind, each field Excel keeps set somewhere. */
const EVERY_RULE: DataValidationRule[] = [
  { ranges: ['B2:B20'], type: 'list', formula1: '"Low,Base,High"', allowBlank: true, showInputMessage: true, inputTitle: 'Scenario', inputMessage: 'Pick a case', showErrorMessage: true },
  { ranges: ['C2:C20', 'E2'], type: 'list', formula1: 'Lists!$A$1:$A$5', showDropdown: false, showErrorMessage: true, errorStyle: 'warning', errorTitle: 'Region', errorMessage: 'Not a region we sell in' },
  { ranges: ['D2'], type: 'whole', operator: 'between', formula1: '1', formula2: '$H$1', showErrorMessage: true },
  { ranges: ['D3'], type: 'decimal', operator: 'greaterThanOrEqual', formula1: '0', showErrorMessage: true, errorStyle: 'information' },
  { ranges: ['D4'], type: 'date', operator: 'notBetween', formula1: 'DATE(2024,1,1)', formula2: '45657', showErrorMessage: true },
  { ranges: ['D5'], type: 'time', operator: 'lessThan', formula1: '0.5', showErrorMessage: true },
  { ranges: ['D6'], type: 'textLength', operator: 'lessThanOrEqual', formula1: '10', showErrorMessage: false },
  { ranges: ['F2:F9'], type: 'custom', formula1: 'AND(F2>0,F2<E2)', showErrorMessage: true, errorMessage: 'Must be below "E" & positive <always>' },
  { ranges: ['G2'], type: 'none', showInputMessage: true, inputMessage: 'Enter the tax rate\nas a percentage' },
]

function validatedWorkbook(): WorkbookModel {
  const model = new WorkbookModel({
    sheets: [
      { id: 's1', name: 'Model', columnWidths: {}, merges: ['A1:B1'] },
      { id: 's2', name: 'Lists', columnWidths: {}, merges: [] },
    ],
  })
  model.apply([
    { type: 'set-cells', sheet: 'Lists', cells: ['North', 'South', 'East', 'West', 'Export'].map((input, row) => ({ address: `A${row + 1}`, input })) },
    { type: 'set-data-validation', sheet: 'Model', clear: [], rules: EVERY_RULE },
  ])
  return model
}

describe('data validation in xlsx', () => {
  it('writes every rule where Excel expects it, with its quirks (showDropDown hides the arrow)', async () => {
    const zip = await JSZip.loadAsync(await writeXlsx(validatedWorkbook().snapshot('Validated')))
    const sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string')
    expect(sheet).toMatch(/<\/mergeCells><dataValidations count="9">/)
    expect(sheet.indexOf('<dataValidations')).toBeLessThan(sheet.indexOf('<pageMargins'))
    expect(sheet).toMatch(/<dataValidation type="list" errorStyle="warning" showDropDown="1" showErrorMessage="1"[^>]*sqref="C2:C20 E2"><formula1>Lists!\$A\$1:\$A\$5<\/formula1>/)
    expect(sheet).toContain('<formula1>AND(F2&gt;0,F2&lt;E2)</formula1>')
    expect(sheet).toContain('error="Must be below &quot;E&quot; &amp; positive &lt;always&gt;"')
  })

  it('reads back every rule as it was written (round trip)', async () => {
    const path = join(dir, 'validated.xlsx')
    await writeFile(path, await writeXlsx(validatedWorkbook().snapshot('Validated')))
    const read = await readXlsxFile(path)
    expect(read.sheets[0].validations).toEqual(EVERY_RULE)
    expect(read.sheets[1].validations).toBeUndefined()
  })

  it("reads Excel 2010's extension form of a list from another sheet", () => {
    expect(ruleFromXml({ attributes: { type: 'list', allowBlank: '1', showErrorMessage: '1' }, formula1: 'Lists!$A$1:$A$3', sqref: 'B2:B5 D1' })).toEqual({
      ranges: ['B2:B5', 'D1'],
      type: 'list',
      formula1: 'Lists!$A$1:$A$3',
      allowBlank: true,
      showErrorMessage: true,
    })
    expect(ruleFromXml({ attributes: { type: 'whole' }, formula1: '1' })).toBeUndefined()
  })

  it('replaces rules a part already held', () => {
    const xml = '<worksheet><sheetData/><dataValidations count="1"><dataValidation type="whole" sqref="A1"><formula1>1</formula1></dataValidation></dataValidations><pageMargins/></worksheet>'
    expect(withDataValidations(xml, [])).toBe('<worksheet><sheetData/><pageMargins/></worksheet>')
    expect(withDataValidations(xml, [{ ranges: ['B1'], type: 'custom', formula1: 'B1<>""' }])).toBe(
      '<worksheet><sheetData/><dataValidations count="1"><dataValidation type="custom" showErrorMessage="1" sqref="B1"><formula1>B1&lt;&gt;""</formula1></dataValidation></dataValidations><pageMargins/></worksheet>',
    )
  })
})
