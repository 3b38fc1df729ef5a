import { CellError } from '@finsheet/formula'
import { beforeAll, describe, expect, it } from 'vitest'
import { compareWithCachedValues, valuesMatch } from './compare.js'
import { normalizeFormula } from './formula-text.js'
import { loadXlsxIntoEngine } from './load-xlsx.js'
import { cellKey } from '../model/workbook-model.js'
import type { LoadedWorkbook } from './load-xlsx.js'
import { readXlsx, XlsxFormatError } from './read-xlsx.js'
import type { XlsxWorkbook } from './read-xlsx.js'
import { DATE_TIME_SERIAL, makeCircularWorkbook, makeTestWorkbook } from './test-workbook.js'

describe('normalizeFormula', () => {
  it('removes the prefixes of newer functions and parameters, as Excel displays them', () => {
    expect(normalizeFormula('_xlfn.CONCAT(A1,_xlfn._xlws.SORT(B1:B3))')).toBe('CONCAT(A1,SORT(B1:B3))')
    expect(normalizeFormula('=_xlfn.LAMBDA(_xlpm.x,_xlpm.x+1)(2)')).toBe('LAMBDA(x,x+1)(2)')
  })

  it('leaves string literals and quoted sheet names alone', () => {
    expect(normalizeFormula('"_xlfn.CONCAT("&\'_xlfn.Sheet\'!A1')).toBe('"_xlfn.CONCAT("&\'_xlfn.Sheet\'!A1')
    expect(normalizeFormula('"say ""_xlfn.X"""&_xlfn.T(1)')).toBe('"say ""_xlfn.X"""&T(1)')
  })

  it('turns the stored SINGLE function back into the @ operator', () => {
    expect(normalizeFormula('_xlfn.SINGLE(A1:A3)*2')).toBe('@(A1:A3)*2')
  })
})

describe('readXlsx', () => {
  let workbook: XlsxWorkbook
  beforeAll(async () => {
    workbook = await readXlsx(await makeTestWorkbook())
  })

  const cell = (sheet: string, address: string) =>
    workbook.sheets.find((s) => s.name === sheet)?.cells.find((c) => c.address === address)

  it('reads sheets in order with their values', () => {
    expect(workbook.sheets.map((sheet) => sheet.name)).toEqual(['Data', 'Other Sheet'])
    expect(['A1', 'A4', 'A5', 'A6'].map((address) => cell('Data', address)?.value)).toEqual([1, 'text', true, '12'])
  })

  it('keeps the exact number under a date format, finer than a millisecond', () => {
    expect(cell('Data', 'D1')?.value).toBe(DATE_TIME_SERIAL)
    expect(cell('Data', 'D1')?.numberFormat).toBe('yyyy-mm-dd h:mm')
    expect(cell('Data', 'D2')?.value).toBe(DATE_TIME_SERIAL + 1)
  })

  it('keeps an error result under a date format', () => {
    expect(cell('Data', 'C4')?.value).toBe(CellError.DIV0)
  })

  it('decodes characters stored as _xHHHH_ in text, cached formula text included', () => {
    expect(cell('Data', 'J1')?.value).toBe('tab\there _x0041_')
    expect(cell('Data', 'J4')?.value).toBe('\u0001x')
  })

  it('reads errors newer than the file format from their rich value', () => {
    expect(cell('Data', 'J2')?.value).toBe(CellError.CALC)
  })

  it('keeps a text result that looks like an error in files Excel saved, but not in others', async () => {
    expect(workbook.application).toMatch(/Microsoft Excel/)
    expect(cell('Data', 'J3')?.value).toBe('#N/A')
    const google = await readXlsx(await makeTestWorkbook({ googleSheets: true }))
    expect(google.application).toBe('')
    expect(google.sheets[0].cells.find((c) => c.address === 'J3')?.value).toBe(CellError.NA)
  })

  it('marks shared formulas with their master and array formulas with their range', () => {
    expect(cell('Data', 'B1')).toMatchObject({ formula: 'A1*2', value: 2 })
    expect(cell('Data', 'B3')).toMatchObject({ sharedFrom: 'B1', value: 6 })
    expect(cell('Data', 'E1')).toMatchObject({ formula: 'TRANSPOSE(A1:A3)', arrayRange: 'E1:G1', dynamicArray: true })
    expect(cell('Data', 'C1')?.formula).toBe('DAYS(A3,A1)')
  })

  it('reads defined names with their scope, skipping built-in ones', () => {
    expect(workbook.definedNames).toEqual([
      { name: 'Rate', formula: '0.05', hidden: false },
      { name: 'Local', sheet: 'Data', formula: 'Data!$A$3*100/3', hidden: false },
      { name: 'Local', sheet: 'Other Sheet', formula: "'Other Sheet'!$A$1", hidden: false },
    ])
  })

  it('reads merges', () => {
    expect(workbook.sheets[0].merges).toEqual(['H1:I1'])
  })

  it('rejects a file that is not an xlsx workbook', async () => {
    await expect(readXlsx(new TextEncoder().encode('plain text, not a zip'))).rejects.toThrow()
    const JSZip = (await import('jszip')).default
    const zip = new JSZip()
    zip.file('hello.txt', 'hi')
    await expect(readXlsx(await zip.generateAsync({ type: 'uint8array' }))).rejects.toBeInstanceOf(XlsxFormatError)
  })
})

describe('loadXlsxIntoEngine', () => {
  let loaded: LoadedWorkbook
  beforeAll(async () => {
    loaded = await loadXlsxIntoEngine(await makeTestWorkbook())
  })
  const value = (sheet: string, address: string) => loaded.engine.getValue(sheet, address)

  it('expands shared formulas by moving the master formula', () => {
    expect(loaded.engine.getFormula('Data', 'B3')).toBe('=A3*2')
    expect(value('Data', 'B3')).toBe(6)
  })

  it('resolves workbook and sheet-scoped names', () => {
    expect(value('Data', 'C2')).toBe(0.5)
    expect(value('Data', 'C3')).toBe(100)
    expect(value('Other Sheet', 'B1')).toBe(7)
    expect(value('Other Sheet', 'B2')).toBe(13)
  })

  it('intersects ranges in formulas saved without dynamic arrays, and spills dynamic arrays', () => {
    expect(value('Data', 'H2')).toBe(20)
    expect([value('Data', 'E1'), value('Data', 'F1'), value('Data', 'G1')]).toEqual([1, 2, 3])
  })

  it('lists every formula cell with its cached value, array results included', () => {
    const keys = loaded.formulaCells.map((c) => cellKey(c.sheet, c.address))
    expect(keys).toEqual(
      expect.arrayContaining(['Data!B1', 'Data!B2', 'Data!B3', 'Data!E1', 'Data!F1', 'Data!G1', 'Other Sheet!B2']),
    )
    expect(loaded.formulaCells.find((c) => c.address === 'F1')).toMatchObject({ arrayAnchor: 'E1', cached: 2 })
    expect(loaded.formats.get('Data!D1')).toBe('yyyy-mm-dd h:mm')
  })

  it('matches every cached value of the file', () => {
    const report = compareWithCachedValues(loaded)
    expect(report.mismatches).toEqual([])
    expect(report.passed).toBe(loaded.formulaCells.length)
  })

  it('reports a cached value that differs', async () => {
    const wrong = await loadXlsxIntoEngine(await makeTestWorkbook({ wrongCache: true }))
    const report = compareWithCachedValues(wrong)
    expect(report.failed).toBe(1)
    expect(report.mismatches[0]).toMatchObject({ sheet: 'Data', address: 'B3', formula: '=A3*2', ours: 6, excel: 7 })
  })
})

describe('hyperlinked and rich-text cells', () => {
  /** Hyperlinks over text, rich text and a number (Excel keeps a linked number a number), and rich text. */
  async function linkedWorkbook(): Promise<Uint8Array> {
    const ExcelJS = (await import('exceljs')).default
    const JSZip = (await import('jszip')).default
    const workbook = new ExcelJS.Workbook()
    const sheet = workbook.addWorksheet('Links')
    sheet.getCell('A1').value = { text: 'Annual report', hyperlink: 'https://example.com/report.pdf' }
    sheet.getCell('A2').value = { richText: [{ text: 'Net ', font: { bold: true } }, { text: 'debt' }] }
    sheet.getCell('A3').value = { text: { richText: [{ text: 'rich ' }, { text: 'link' }] }, hyperlink: 'https://example.com' } as never
    sheet.getCell('A4').value = 42
    sheet.getCell('B1').value = { formula: 'LEN(A1)&"/"&A2&"/"&A3', result: '13/Net debt/rich link' }
    sheet.getCell('B2').value = { formula: 'A4*2', result: 84 }
    const zip = await JSZip.loadAsync(await workbook.xlsx.writeBuffer())
    const xml = await zip.file('xl/worksheets/sheet1.xml')!.async('string')
    zip.file('xl/worksheets/sheet1.xml', xml.replace('</hyperlinks>', '<hyperlink ref="A4" r:id="rIdNumber"/></hyperlinks>'))
    const rels = await zip.file('xl/worksheets/_rels/sheet1.xml.rels')!.async('string')
    zip.file(
      'xl/worksheets/_rels/sheet1.xml.rels',
      rels.replace('</Relationships>', '<Relationship Id="rIdNumber" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/42" TargetMode="External"/></Relationships>'),
    )
    return zip.generateAsync({ type: 'uint8array' })
  }

  it('load the text they show (a linked number as the number), and formulas read it', async () => {
    const bytes = await linkedWorkbook()
    const read = await readXlsx(bytes)
    const values = Object.fromEntries(read.sheets[0].cells.map((cell) => [cell.address, cell.value]))
    expect(values).toMatchObject({ A1: 'Annual report', A2: 'Net debt', A3: 'rich link', A4: 42 })
    const loaded = await loadXlsxIntoEngine(bytes)
    expect(compareWithCachedValues(loaded).mismatches).toEqual([])
  })
})

describe('functions that need the outside world', () => {
  /** STOCKHISTORY spilling a saved table (a dynamic array, as Excel 365 marks it) and WEBSERVICE, with formulas reading them. */
  async function marketWorkbook(): Promise<Uint8Array> {
    const ExcelJS = (await import('exceljs')).default
    const JSZip = (await import('jszip')).default
    const workbook = new ExcelJS.Workbook()
    const sheet = workbook.addWorksheet('Market')
    sheet.getCell('A1').value = 'MSFT'
    sheet.getCell('B1').value = { formula: '_xlfn.STOCKHISTORY(A1,45292,45293)', shareType: 'array', ref: 'B1:C3', result: 'Date' } as never
    sheet.getCell('C1').value = 'Close'
    sheet.getCell('B2').value = 45292
    sheet.getCell('C2').value = 370.87
    sheet.getCell('B3').value = 45293
    sheet.getCell('C3').value = 367.94
    sheet.getCell('E1').value = { formula: 'AVERAGE(C2:C3)', result: (370.87 + 367.94) / 2 }
    sheet.getCell('E2').value = { formula: '_xlfn.WEBSERVICE("https://example.com/fx/EURUSD")', result: '1.0842' }
    sheet.getCell('E3').value = { formula: 'VALUE(E2)*1000', result: 1084.2 }
    const zip = await JSZip.loadAsync(await workbook.xlsx.writeBuffer())
    const xml = await zip.file('xl/worksheets/sheet1.xml')!.async('string')
    zip.file('xl/worksheets/sheet1.xml', xml.replace('<c r="B1"', '<c r="B1" cm="1"'))
    return zip.generateAsync({ type: 'uint8array' })
  }

  it('keep the values Excel saved, the whole spilled table included, and never show #NAME?', async () => {
    const loaded = await loadXlsxIntoEngine(await marketWorkbook())
    expect(compareWithCachedValues(loaded).mismatches).toEqual([])
    expect(loaded.engine.getCell('Market', 'C3')).toMatchObject({ value: 367.94, spilled: true, savedValue: true })
    expect(loaded.engine.isSavedValue('Market', 'E2')).toBe(true)
    expect(loaded.engine.isSavedValue('Market', 'E3')).toBe(false)
  })
})

describe('calculation settings', () => {
  const ITERATE = '<calcPr calcId="191029" iterate="1" iterateCount="50" iterateDelta="0.0001" calcMode="autoNoTable"/>'

  it("reads the file's calcPr, and Excel's defaults from a file without one", async () => {
    const stated = await readXlsx(await makeCircularWorkbook({ calcPr: ITERATE }))
    expect(stated.calculation).toEqual({ iterate: true, maxIterations: 50, maxChange: 0.0001, mode: 'autoNoTable', fullCalcOnLoad: false })
    const silent = await readXlsx(await makeCircularWorkbook())
    expect(silent.calculation).toEqual({ iterate: false, maxIterations: 100, maxChange: 0.001, mode: 'auto', fullCalcOnLoad: false })
  })

  it('iterates a circular workbook saved with iteration on, with its limits', async () => {
    const loaded = await loadXlsxIntoEngine(await makeCircularWorkbook({ calcPr: ITERATE }))
    // From nothing, x = x/2 + 1 settles when a pass moves it by less than 0.0001: the fifteenth.
    expect(loaded.engine.getValue('Model', 'A1')).toBe(2 - 2 ** -14)
    expect(loaded.engine.getIterativeSettings()).toEqual({ enabled: true, maxIterations: 50, maxChange: 0.0001 })
    expect(loaded.calculation.iterate).toBe(true)
  })

  it('keeps settled saved values, so that a circular workbook matches what Excel saved', async () => {
    const loaded = await loadXlsxIntoEngine(await makeCircularWorkbook({ calcPr: ITERATE, cached: 1.99999 }))
    expect(compareWithCachedValues(loaded).failed).toBe(0)
    // A file that asks for a full calculation on opening iterates on from them.
    const full = await loadXlsxIntoEngine(await makeCircularWorkbook({ calcPr: ITERATE.replace('/>', ' fullCalcOnLoad="1"/>'), cached: 1.99999 }))
    expect(full.engine.getValue('Model', 'A1')).toBe(1.99999 / 2 + 1)
  })

  it("shows Excel's circular-reference warning and the saved values when iteration is off", async () => {
    const loaded = await loadXlsxIntoEngine(await makeCircularWorkbook({ cached: 1.5 }))
    expect(loaded.engine.getValue('Model', 'A1')).toBe(1.5)
    expect(loaded.engine.getValue('Model', 'B1')).toBe(4.5)
    expect(loaded.engine.getCircularReferences()).toEqual([[{ sheet: 'Model', address: 'A1' }]])
    // Without a saved value the cell shows 0, never an error.
    const fresh = await loadXlsxIntoEngine(await makeCircularWorkbook())
    expect(fresh.engine.getValue('Model', 'A1')).toBe(0)
  })

  it("lets the caller's settings replace the file's", async () => {
    const loaded = await loadXlsxIntoEngine(await makeCircularWorkbook(), { calculation: { iterate: true, maxIterations: 3 } })
    expect(loaded.engine.getValue('Model', 'A1')).toBe(1.75)
  })
})

describe('valuesMatch', () => {
  it('compares numbers with a relative tolerance of 1e-9 and an absolute one of 1e-12', () => {
    expect(valuesMatch(1_000_000, 1_000_000.0001)).toBe(true)
    expect(valuesMatch(1, 1.00000001)).toBe(false)
    expect(valuesMatch(0, 1e-13)).toBe(true)
    expect(valuesMatch(0, 1e-11)).toBe(false)
  })

  it('compares text, booleans and errors exactly', () => {
    expect(valuesMatch('a', 'A')).toBe(false)
    expect(valuesMatch(true, 1)).toBe(false)
    expect(valuesMatch(CellError.NA, CellError.NA)).toBe(true)
    expect(valuesMatch(CellError.NA, CellError.VALUE)).toBe(false)
    expect(valuesMatch(CellError.NA, '#N/A')).toBe(false)
  })

  it('treats empty text and a missing cached value alike', () => {
    expect(valuesMatch('', null)).toBe(true)
    expect(valuesMatch(0, null)).toBe(false)
  })
})
