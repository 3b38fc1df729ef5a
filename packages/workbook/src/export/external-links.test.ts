import { CellError } from '@finsheet/formula'
import JSZip from 'jszip'
import { describe, expect, it } from 'vitest'
import type { ExternalLinkRecord } from '../model/external-links.js'
import { WorkbookModel } from '../model/workbook-model.js'
import { compareWithCachedValues } from '../xlsx/compare.js'
import { loadXlsxIntoEngine } from '../xlsx/load-xlsx.js'
import { readXlsx } from '../xlsx/read-xlsx.js'
import { numberExternalReferences } from './formula-storage.js'
import { calculatesAlike, writeXlsx } from './xlsx.js'
import { writeXlsxOffThread } from './xlsx-off-thread.js'

const BUDGET: ExternalLinkRecord = {
  target: 'file:///C:/Models/Budget.xlsx',
  sheets: [
    { name: 'Sheet1', cells: { A1: 1, A2: 2, A3: 3, B1: 'R&D <north>', B2: false, B3: { error: '#DIV/0!' }, C8: 1250.5, D1: null } },
    { name: 'Q1 Plan', cells: { B2: 10, B9: 90 }, refreshError: true },
  ],
}

function linkedModel(): WorkbookModel {
  return WorkbookModel.build({
    revision: 1,
    sheets: [{ id: 's1', name: 'Model', columnWidths: {}, merges: [] }],
    definedNames: [],
    charts: [],
    externalLinks: [BUDGET],
    cells: [
      { sheetId: 's1', address: 'A1', input: '=[1]Sheet1!$C$8', legacy: true },
      { sheetId: 's1', address: 'A2', input: '=SUM([1]Sheet1!A1:A3)', legacy: true },
      { sheetId: 's1', address: 'A3', input: '=[1]Sheet1!B1', legacy: true },
      { sheetId: 's1', address: 'A4', input: '=[Budget.xlsx]Sheet1!B2', legacy: true },
      { sheetId: 's1', address: 'A5', input: "='C:\\Other\\[Rates.xlsx]Q1 Rates'!B2+[1]Sheet1!A1", legacy: true },
      { sheetId: 's1', address: 'A6', input: '=[1]Sheet1!B3', legacy: true },
      { sheetId: 's1', address: 'A7', input: '="[Budget.xlsx]Sheet1!A1"', legacy: true },
    ],
  })
}

describe('numbering external references for a file', () => {
  it('names linked files by their link number, leaving numbered references and strings alone', () => {
    const links = ['Budget.xlsx']
    const number = (_path: string, file: string) => {
      const index = links.findIndex((name) => name.toUpperCase() === file.toUpperCase())
      return index >= 0 ? index + 1 : links.push(file)
    }
    expect(numberExternalReferences('[budget.xlsx]Q1!B2+[1]Sheet1!A1', number)).toBe('[1]Q1!B2+[1]Sheet1!A1')
    expect(numberExternalReferences("'C:\\Models\\[Rates.xlsx]Q1 Plan'!B2*'[Rates.xlsx]It''s'!A1", number)).toBe("'[2]Q1 Plan'!B2*'[2]It''s'!A1")
    expect(numberExternalReferences('"[Budget.xlsx]Q1!B2"&\'Local Sheet\'!A1', number)).toBe('"[Budget.xlsx]Q1!B2"&\'Local Sheet\'!A1')
  })
})

describe('formulas reading another workbook', () => {
  it('are written plain when they calculate alike with and without dynamic arrays', () => {
    for (const alike of ['=[1]Sheet1!$C$8*2', "='[1]Q1 Plan'!B2+A1", '=[Budget.xlsx]Q1!B2']) expect(calculatesAlike(alike), alike).toBe(true)
    for (const differs of ['=[1]Sheet1!A1:A3*2', '=SUM([1]Sheet1!A1)', '=[1]!Rate', '=[1 Sheet1!A1']) expect(calculatesAlike(differs), differs).toBe(false)
  })
})

describe('an exported workbook linked to another workbook', () => {
  it('writes the external-link parts Excel reads, so the links, formulas and values come back', async () => {
    const model = linkedModel()
    const bytes = await writeXlsx(model.snapshot('Linked'))
    const zip = await JSZip.loadAsync(bytes)
    expect(await zip.file('xl/workbook.xml')!.async('string')).toMatch(/<\/sheets><externalReferences><externalReference r:id="rIdExternalLink1"\/><externalReference r:id="rIdExternalLink2"\/><\/externalReferences>/)
    expect(await zip.file('[Content_Types].xml')!.async('string')).toContain('PartName="/xl/externalLinks/externalLink1.xml"')
    expect(await zip.file('xl/externalLinks/_rels/externalLink2.xml.rels')!.async('string')).toContain('Target="C:\\Other\\Rates.xlsx" TargetMode="External"')

    const read = await readXlsx(bytes)
    expect(read.externalLinks).toEqual([BUDGET, { target: 'C:\\Other\\Rates.xlsx', sheets: [{ name: 'Q1 Rates', cells: {} }] }])
    const formulas = Object.fromEntries(read.sheets[0].cells.map((cell) => [cell.address, cell.formula]))
    expect(formulas).toMatchObject({ A1: '[1]Sheet1!$C$8', A2: 'SUM([1]Sheet1!A1:A3)', A4: '[1]Sheet1!B2', A5: "'[2]Q1 Rates'!B2+[1]Sheet1!A1", A7: '"[Budget.xlsx]Sheet1!A1"' })

    const loaded = await loadXlsxIntoEngine(bytes)
    const values = ['A1', 'A2', 'A3', 'A4', 'A5', 'A6'].map((address) => {
      const result = loaded.engine.getValue('Model', address)
      return result instanceof CellError ? result.code : result
    })
    expect(values).toEqual([1250.5, 6, 'R&D <north>', false, '#REF!', '#DIV/0!'])
    expect(compareWithCachedValues(loaded).mismatches).toEqual([])
  })

  it('writes the same parts off the request thread', async () => {
    const snapshot = linkedModel().snapshot('Linked')
    const read = await readXlsx(await writeXlsxOffThread(snapshot))
    expect(read.externalLinks.map((link) => link.target)).toEqual(['file:///C:/Models/Budget.xlsx', 'C:\\Other\\Rates.xlsx'])
    expect(read.externalLinks[0]).toEqual(BUDGET)
  })
})
