import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CellError } from '@finsheet/formula'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compareWithCachedValues } from './compare.js'
import { readExternalLinkPart } from './external-links.js'
import { loadXlsxIntoEngine } from './load-xlsx.js'
import type { LoadedWorkbook } from './load-xlsx.js'
import { readXlsx } from './read-xlsx.js'
import { readXlsxFile } from './stream-xlsx.js'
import { BUDGET_LINK_XML, makeExternalLinkWorkbook } from './test-workbook.js'

const BUDGET_RECORD = {
  target: 'file:///C:/Models/Budget.xlsx',
  sheets: [
    { name: 'Sheet1', cells: { A1: 1, B1: 'North & South', A2: 2, B2: true, A3: 3, B3: { error: '#DIV/0!' }, C8: 1250.5 } },
    { name: 'Q1 Plan', cells: { B2: 10, B3: 20, B9: 90 } },
  ],
}

describe('an external-link part', () => {
  it('gives the linked file, its sheets and every cached value with its type', () => {
    expect(readExternalLinkPart(BUDGET_LINK_XML, new Map([['rId1', 'file:///C:/Models/Budget.xlsx']]))).toEqual(BUDGET_RECORD)
  })

  it('marks a sheet whose refresh failed and keeps a cell held without a value', () => {
    const xml =
      '<externalLink><externalBook r:id="rId1"><sheetNames><sheetName val="A"/><sheetName val="B"/></sheetNames><sheetDataSet>' +
      '<sheetData sheetId="0" refreshError="1"/><sheetData sheetId="1"><row r="1"><cell r="C1"/></row></sheetData><sheetData sheetId="7"/></sheetDataSet></externalBook></externalLink>'
    expect(readExternalLinkPart(xml, new Map())).toEqual({
      target: 'unknown',
      sheets: [
        { name: 'A', cells: {}, refreshError: true },
        { name: 'B', cells: { C1: null } },
      ],
    })
  })
})

describe('an xlsx workbook linked to another workbook', () => {
  let bytes: Buffer
  let loaded: LoadedWorkbook
  beforeAll(async () => {
    bytes = await makeExternalLinkWorkbook()
    loaded = await loadXlsxIntoEngine(bytes)
  })
  const value = (address: string) => {
    const result = loaded.engine.getValue('Model', address)
    return result instanceof CellError ? result.code : result
  }

  it('reads the links in formula-number order', async () => {
    expect((await readXlsx(bytes)).externalLinks).toEqual([BUDGET_RECORD])
  })

  it('calculates external references from the cached values, matching every value Excel saved', () => {
    expect([value('A1'), value('A2'), value('A3'), value('A4'), value('A5'), value('B1'), value('B2')]).toEqual([1250.5, 6, 240, 'North & South', 1251.5, true, '#DIV/0!'])
    const report = compareWithCachedValues(loaded)
    expect(report.mismatches).toEqual([])
    expect(report.passed).toBe(loaded.formulaCells.length)
  })

  it('gives #REF! for a cell the file holds no value of, as Excel does with the source closed', () => {
    expect(value('D1')).toBe('#REF!')
  })

  it('keeps the formulas as the file wrote them', () => {
    expect(loaded.engine.getFormula('Model', 'A1')).toBe('=[1]Sheet1!$C$8')
    expect(loaded.engine.getFormula('Model', 'A3')).toBe("=SUM('[1]Q1 Plan'!B2:B9)*2")
  })

  it('lists the link with its sheets and the formula cells that read it', () => {
    expect(loaded.engine.getExternalLinks()).toEqual([
      { index: 1, target: 'file:///C:/Models/Budget.xlsx', fileName: 'Budget.xlsx', sheets: ['Sheet1', 'Q1 Plan'], formulaCells: 7 },
    ])
  })

  describe('through the streaming importer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'external-links-'))
    afterAll(() => rmSync(dir, { recursive: true, force: true }))

    it('reads the same links, and the formulas as written', async () => {
      const path = join(dir, 'linked.xlsx')
      writeFileSync(path, bytes)
      const imported = await readXlsxFile(path)
      expect(imported.externalLinks).toEqual([BUDGET_RECORD])
      const cells = imported.sheets[0].cells
      expect(cells.find((cell) => cell.address === 'A3')?.formula).toBe("SUM('[1]Q1 Plan'!B2:B9)*2")
    })

    it('reads no links from a workbook without any', async () => {
      const path = join(dir, 'plain.xlsx')
      writeFileSync(path, await makeExternalLinkWorkbook().then(async (linked) => {
        const JSZip = (await import('jszip')).default
        const zip = await JSZip.loadAsync(linked)
        const workbookXml = await zip.file('xl/workbook.xml')!.async('string')
        zip.file('xl/workbook.xml', workbookXml.replace(/<externalReferences>[\s\S]*?<\/externalReferences>/, ''))
        return zip.generateAsync({ type: 'nodebuffer' })
      }))
      expect((await readXlsxFile(path)).externalLinks).toBeUndefined()
    })
  })
})
