import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConditionalFormatRule } from '@finsheet/contracts'
import { writeXlsx } from '../export/xlsx.js'
import { WorkbookModel } from '../model/workbook-model.js'
import { readXlsxFile } from './stream-xlsx.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conditional-formats-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** One rule of every kind Finsheet keeps, in priority order. */
const EVERY_KIND: ConditionalFormatRule[] = [
  { type: 'cellIs', ranges: ['A1:A10'], operator: 'greaterThan', formulas: ['100'], style: { fill: '#FFC7CE', color: '#9C0006' }, stopIfTrue: true },
  { type: 'cellIs', ranges: ['A1:A10', 'C1:C10'], operator: 'between', formulas: ['$D$1', '50'], style: { bold: true, italic: true, format: '0.0%' } },
  { type: 'expression', ranges: ['B2:B10'], formulas: ['AND($A2>0,B2<SUM($A$1:$A$10))'], style: { underline: true, strike: true } },
  { type: 'containsText', ranges: ['E1:E10'], operator: 'containsText', text: 'loss', style: { color: '#FF0000' } },
  { type: 'containsText', ranges: ['E1:E10'], operator: 'beginsWith', text: 'Net "x"', style: { fill: '#FFEB9C' } },
  { type: 'containsText', ranges: ['E1:E10'], operator: 'notContains', text: 'ok', style: { fill: '#C6EFCE' } },
  { type: 'top10', ranges: ['A1:A10'], rank: 20, percent: true, bottom: true, style: { fill: '#C6EFCE', color: '#006100' } },
  { type: 'aboveAverage', ranges: ['A1:A10'], below: true, equalAverage: true, style: { italic: true } },
  { type: 'aboveAverage', ranges: ['A1:A10'], stdDev: 2, style: { bold: true } },
  { type: 'duplicateValues', ranges: ['F1:F10'], style: { fill: '#FFC7CE' } },
  { type: 'uniqueValues', ranges: ['F1:F10'], style: { fill: '#C6EFCE' } },
  { type: 'colorScale', ranges: ['G1:G10'], thresholds: [{ kind: 'min' }, { kind: 'percentile', value: '50' }, { kind: 'max' }], colors: ['#F8696B', '#FFEB84', '#63BE7B'] },
  { type: 'colorScale', ranges: ['H1:H10'], thresholds: [{ kind: 'num', value: '0' }, { kind: 'formula', value: 'MAX($H$1:$H$10)' }], colors: ['#FFFFFF', '#63BE7B'] },
  { type: 'dataBar', ranges: ['I1:I10'], thresholds: [{ kind: 'min' }, { kind: 'max' }], colors: ['#638EC6'] },
  { type: 'dataBar', ranges: ['J1:J10'], thresholds: [{ kind: 'num', value: '0' }, { kind: 'percent', value: '90' }], colors: ['#63C384'], hideValue: true },
  { type: 'iconSet', ranges: ['K1:K10'], iconSet: '3TrafficLights1', thresholds: [{ kind: 'percent', value: '0' }, { kind: 'percent', value: '33' }, { kind: 'percent', value: '67' }] },
  { type: 'iconSet', ranges: ['L1:L10'], iconSet: '4Arrows', thresholds: [{ kind: 'percent', value: '0' }, { kind: 'percent', value: '25' }, { kind: 'num', value: '50' }, { kind: 'percentile', value: '75' }], reverse: true, hideValue: true },
]

function workbookWith(rules: ConditionalFormatRule[]): WorkbookModel {
  const model = new WorkbookModel({ sheets: [{ id: 's1', name: 'Rules', columnWidths: {}, merges: [] }] })
  model.apply([
    { type: 'set-cells', sheet: 'Rules', cells: Array.from({ length: 10 }, (_, i) => ({ address: `A${i + 1}`, input: String((i + 1) * 15) })) },
    { type: 'set-conditional-formats', sheet: 'Rules', rules },
  ])
  return model
}

async function roundTrip(rules: ConditionalFormatRule[]): Promise<{ bytes: Buffer; back: ConditionalFormatRule[] | undefined; notKept: number | undefined }> {
  const bytes = await writeXlsx(workbookWith(rules).snapshot('Rules'))
  const path = join(dir, `rules-${Math.random().toString(36).slice(2)}.xlsx`)
  await writeFile(path, bytes)
  const read = await readXlsxFile(path)
  return { bytes, back: read.sheets[0].conditionalFormats, notKept: read.sheets[0].conditionalFormatsNotKept }
}

describe('conditional formats in xlsx', () => {
  it('round-trips a rule of every kind, with its format, priority, ranges and options', async () => {
    const { back, notKept } = await roundTrip(EVERY_KIND)
    expect(notKept).toBeUndefined()
    expect(back).toEqual(EVERY_KIND)
  })

  it('writes them as Excel states them: priorities, dxf styles, stopIfTrue, duplicate values, a text rule with its text and formula', async () => {
    const { bytes } = await roundTrip(EVERY_KIND)
    const zip = await JSZip.loadAsync(bytes)
    const sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string')
    expect(sheet).toMatch(/<conditionalFormatting sqref="A1:A10 C1:C10">/)
    expect(sheet).toMatch(/<cfRule type="cellIs" dxfId="\d+" priority="1" operator="greaterThan" stopIfTrue="1"><formula>100<\/formula>/)
    expect(sheet).toMatch(/<cfRule type="duplicateValues" dxfId="\d+" priority="10"\/>/)
    expect(sheet).toMatch(/<cfRule type="containsText" dxfId="\d+" priority="4"[^>]* text="loss"[^>]*><formula>NOT\(ISERROR\(SEARCH\(&quot;loss&quot;,E1\)\)\)<\/formula>/)
    expect(sheet).toMatch(/<cfRule type="notContainsText"[^>]* operator="notContains"/)
    const styles = await zip.file('xl/styles.xml')!.async('string')
    expect(styles).toMatch(/<dxfs count="\d+">/)
    expect(styles).toContain('FFFFC7CE')
  })

  it('reads a file Excel wrote through exceljs, with theme-free dxf colours, and counts kinds not kept', async () => {
    const workbook = new ExcelJS.Workbook()
    const sheet = workbook.addWorksheet('Sheet1')
    sheet.getCell('A1').value = 5
    sheet.addConditionalFormatting({
      ref: 'A1:A5',
      rules: [
        { type: 'expression', priority: 2, formulae: ['MOD(ROW(),2)=0'], style: { fill: { type: 'pattern', pattern: 'solid', bgColor: { argb: 'FF00B050' } }, font: { bold: true } } },
        { type: 'timePeriod', priority: 1, timePeriod: 'today', style: { font: { italic: true } } },
      ],
    })
    const path = join(dir, 'excel.xlsx')
    await writeFile(path, Buffer.from(await workbook.xlsx.writeBuffer()))
    const read = await readXlsxFile(path)
    expect(read.sheets[0].conditionalFormats).toEqual([{ type: 'expression', ranges: ['A1:A5'], formulas: ['MOD(ROW(),2)=0'], style: { fill: '#00B050', bold: true } }])
    expect(read.sheets[0].conditionalFormatsNotKept).toBe(1)
  })

  it('a workbook without rules writes no conditional formatting', async () => {
    const { bytes, back } = await roundTrip([])
    const sheet = await (await JSZip.loadAsync(bytes)).file('xl/worksheets/sheet1.xml')!.async('string')
    expect(sheet).not.toContain('conditionalFormatting')
    expect(back).toBeUndefined()
  })
})
