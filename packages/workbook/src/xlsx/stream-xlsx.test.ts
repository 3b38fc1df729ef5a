import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { afterAll, describe, expect, it } from 'vitest'
import { ImportFileError } from '../import/imported-workbook.js'
import { openXlsxImport, readXlsxFile } from './stream-xlsx.js'

const dir = mkdtempSync(join(tmpdir(), 'stream-xlsx-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let fileNumber = 0
async function writeWorkbook(build: (workbook: ExcelJS.Workbook) => void): Promise<string> {
  const workbook = new ExcelJS.Workbook()
  build(workbook)
  const path = join(dir, `book-${++fileNumber}.xlsx`)
  await workbook.xlsx.writeFile(path)
  return path
}

async function rezip(path: string, change: (zip: JSZip) => void | Promise<void>): Promise<string> {
  const zip = await JSZip.loadAsync(await import('node:fs/promises').then((fs) => fs.readFile(path)))
  await change(zip)
  const out = join(dir, `changed-${++fileNumber}.xlsx`)
  writeFileSync(out, await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }))
  return out
}

describe('readXlsxFile', () => {
  it('keeps values, formulas with cached results, formats, fonts, fills, alignment, merges, widths and names', async () => {
    const path = await writeWorkbook((workbook) => {
      const inputs = workbook.addWorksheet('Inputs')
      inputs.getCell('A1').value = 'Revenue'
      inputs.getCell('A1').font = { bold: true, italic: true, color: { argb: 'FFFF0000' } }
      inputs.getCell('A1').fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFFF00' } }
      inputs.getCell('A1').alignment = { horizontal: 'center', vertical: 'top', wrapText: true }
      inputs.getCell('B1').value = 1234.5
      inputs.getCell('B1').numFmt = '#,##0.00'
      inputs.getCell('B2').value = 0.25
      inputs.getCell('B2').numFmt = '0%'
      inputs.getCell('B3').value = { formula: 'B1*B2', result: 308.625 }
      inputs.getCell('B4').value = true
      inputs.getCell('B5').value = { error: '#DIV/0!' }
      inputs.getCell('C1').value = new Date(Date.UTC(2024, 0, 31))
      inputs.getCell('C1').numFmt = 'yyyy-mm-dd'
      inputs.mergeCells('D1:F2')
      inputs.getColumn(1).width = 24
      inputs.getColumn(2).width = 13.5
      inputs.getRow(3).height = 30
      workbook.definedNames.add('Inputs!$B$2', 'Growth')
      const calc = workbook.addWorksheet('Calc')
      calc.getCell('A1').value = { formula: 'Inputs!B1*2', result: 2469 }
      calc.getCell('A2').value = { formula: 'SUM(Growth,1)', result: 1.25 }
    })
    const workbook = await readXlsxFile(path)
    expect(workbook.sheets.map((sheet) => sheet.name)).toEqual(['Inputs', 'Calc'])
    const inputs = workbook.sheets[0]
    const cell = (address: string) => inputs.cells.find((c) => c.address === address)
    const style = (address: string) => workbook.styles[cell(address)?.style ?? -1]
    expect(cell('A1')?.value).toBe('Revenue')
    expect(style('A1')).toMatchObject({ bold: true, italic: true, color: '#FF0000', fill: '#FFFF00', align: 'center', verticalAlign: 'top', wrapText: true })
    expect(cell('B1')).toMatchObject({ row: 0, col: 1, value: 1234.5 })
    expect(style('B1').numberFormat).toBe('#,##0.00')
    expect(style('B2').numberFormat).toBe('0%')
    expect(cell('B3')).toMatchObject({ formula: 'B1*B2', value: 308.625 })
    expect(cell('B4')?.value).toBe(true)
    expect(cell('B5')?.value).toEqual({ error: '#DIV/0!' })
    expect(cell('C1')?.value).toBe(45322)
    expect(style('C1').numberFormat).toBe('yyyy-mm-dd')
    expect(inputs.merges).toEqual(['D1:F2'])
    expect(inputs.columns).toEqual([
      { col: 0, width: 24 },
      { col: 1, width: 13.5 },
    ])
    expect(inputs.rows).toContainEqual({ row: 2, height: 30 })
    expect(inputs.rowCount).toBe(5)
    expect(inputs.columnCount).toBe(6)
    expect(workbook.definedNames).toEqual([{ name: 'Growth', formula: 'Inputs!$B$2' }])
    expect(workbook.sheets[1].cells.map((c) => c.formula)).toEqual(['Inputs!B1*2', 'SUM(Growth,1)'])
    expect(workbook.cellCount).toBe(9)
    expect(workbook.formulaCount).toBe(3)
  })

  it('expands shared formulas to each cell and reads inline strings and theme colours', async () => {
    const base = await writeWorkbook((workbook) => {
      const sheet = workbook.addWorksheet('Data')
      for (let row = 1; row <= 4; row++) sheet.getCell(`A${row}`).value = row
      sheet.getCell('B1').value = { formula: 'A1*2+$A$1', result: 3 }
      for (let row = 2; row <= 4; row++) sheet.getCell(`B${row}`).value = { sharedFormula: 'B1', result: row * 2 + 1 }
      sheet.getCell('C1').value = 'x'
    })
    const path = await rezip(base, async (zip) => {
      const part = 'xl/worksheets/sheet1.xml'
      let xml = await zip.file(part)!.async('string')
      xml = xml.replace(/<c r="C1"[^>]*>.*?<\/c>/, '<c r="C1" t="inlineStr"><is><r><t>in</t></r><r><t>line_x000D_</t></r></is></c><c r="D1" t="str"><f>"a"</f><v>tab_x0009_ and _x005F_x0041_</v></c>')
      zip.file(part, xml)
    })
    const workbook = await readXlsxFile(path)
    const cells = workbook.sheets[0].cells
    expect(cells.filter((c) => c.col === 1).map((c) => c.formula)).toEqual(['A1*2+$A$1', 'A2*2+$A$1', 'A3*2+$A$1', 'A4*2+$A$1'])
    expect(cells.find((c) => c.address === 'B4')?.value).toBe(9)
    expect(cells.find((c) => c.address === 'C1')?.value).toBe('inline\r')
    expect(cells.find((c) => c.address === 'D1')?.value).toBe('tab\t and _x0041_')
  })

  it('reports progress up to 1', async () => {
    const path = await writeWorkbook((workbook) => {
      const sheet = workbook.addWorksheet('S')
      for (let row = 1; row <= 2000; row++) sheet.addRow([row, `text ${row}`, row / 3])
    })
    const seen: number[] = []
    const workbook = await readXlsxFile(path, { onProgress: (fraction) => seen.push(fraction) })
    expect(workbook.cellCount).toBe(6000)
    expect(seen.at(-1)).toBe(1)
    expect(seen.every((value, index) => index === 0 || value >= seen[index - 1])).toBe(true)
  })

  it('refuses a workbook with more cells than the limit while reading, with the count in the message', async () => {
    const path = await writeWorkbook((workbook) => {
      const sheet = workbook.addWorksheet('S')
      for (let row = 1; row <= 300; row++) sheet.addRow([1, 2, 3, 4])
    })
    await expect(readXlsxFile(path, { limits: { maxCells: 1000 } })).rejects.toMatchObject({
      code: 'TOO_MANY_CELLS',
      message: 'The workbook has more than 1,000 cells, the most one import takes. Split it into smaller workbooks.',
    })
  })

  it('refuses a truncated file and a zip that is not a workbook', async () => {
    const path = await writeWorkbook((workbook) => workbook.addWorksheet('S').addRow([1, 2]))
    const bytes = await import('node:fs/promises').then((fs) => fs.readFile(path))
    const truncated = join(dir, 'truncated.xlsx')
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)))
    const error = await readXlsxFile(truncated).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ImportFileError)
    expect((error as ImportFileError).code).toBe('CORRUPT_FILE')
    expect((error as Error).message).toMatch(/^The file is not a readable xlsx workbook \(it is damaged or truncated/)

    const notWorkbook = new JSZip()
    notWorkbook.file('hello.txt', 'hi')
    const zipPath = join(dir, 'not-a-workbook.xlsx')
    writeFileSync(zipPath, await notWorkbook.generateAsync({ type: 'nodebuffer' }))
    await expect(readXlsxFile(zipPath)).rejects.toMatchObject({ code: 'CORRUPT_FILE', message: 'The file is a zip archive but not an xlsx workbook: it has no xl/workbook.xml part.' })
  })

  it('refuses a damaged sheet part with the part named', async () => {
    const base = await writeWorkbook((workbook) => workbook.addWorksheet('S').addRow([1, 2]))
    const path = await rezip(base, (zip) => {
      zip.file('xl/worksheets/sheet1.xml', '<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></row></sheetData>')
    })
    await expect(readXlsxFile(path)).rejects.toMatchObject({ code: 'CORRUPT_FILE', message: expect.stringContaining('xl/worksheets/sheet1.xml') })
  })

  it('refuses a sheet that declares expanding entities (a billion laughs) without expanding them', async () => {
    const base = await writeWorkbook((workbook) => workbook.addWorksheet('S').addRow([1]))
    const laughs = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('')
    const path = await rezip(base, (zip) => {
      zip.file(
        'xl/worksheets/sheet1.xml',
        `<?xml version="1.0"?><!DOCTYPE w [<!ENTITY l0 "lol">${laughs}]><worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&l9;</t></is></c></row></sheetData></worksheet>`,
      )
    })
    await expect(readXlsxFile(path)).rejects.toMatchObject({ code: 'CORRUPT_FILE', message: expect.stringContaining('undefined entity') })
  })

  it('reads #SPILL! and #CALC! that Excel stores as #VALUE! pointing at a rich value', async () => {
    const base = await writeWorkbook((workbook) => {
      const sheet = workbook.addWorksheet('S')
      sheet.getCell('A1').value = 1
      sheet.getCell('B1').value = 2
    })
    const path = await rezip(base, async (zip) => {
      const part = 'xl/worksheets/sheet1.xml'
      const xml = (await zip.file(part)!.async('string')).replace(
        /<c r="B1"[^>]*>.*?<\/c>/,
        '<c r="B1" t="e" vm="1"><f>SEQUENCE(2)</f><v>#VALUE!</v></c><c r="C1" t="e" vm="2"><f>FILTER(A1,FALSE)</f><v>#VALUE!</v></c><c r="D1" t="e"><f>1/0</f><v>#DIV/0!</v></c>',
      )
      zip.file(part, xml)
      zip.file(
        'xl/metadata.xml',
        '<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:xlrd="http://schemas.microsoft.com/office/spreadsheetml/2017/richdata"><metadataTypes count="1"><metadataType name="XLRICHVALUE"/></metadataTypes>' +
          '<futureMetadata name="XLRICHVALUE" count="2"><bk><extLst><ext><xlrd:rvb i="0"/></ext></extLst></bk><bk><extLst><ext><xlrd:rvb i="1"/></ext></extLst></bk></futureMetadata>' +
          '<valueMetadata count="2"><bk><rc t="1" v="0"/></bk><bk><rc t="1" v="1"/></bk></valueMetadata></metadata>',
      )
      zip.file('xl/richData/rdrichvaluestructure.xml', '<rvStructures count="1"><s t="_error"><k n="errorType" t="i"/><k n="subType" t="i"/></s></rvStructures>')
      zip.file('xl/richData/rdrichvalue.xml', '<rvData count="2"><rv s="0"><v>8</v><v>1</v></rv><rv s="0"><v>13</v><v>0</v></rv></rvData>')
    })
    const cells = (await readXlsxFile(path)).sheets[0].cells
    expect(cells.find((c) => c.address === 'B1')?.value).toEqual({ error: '#SPILL!' })
    expect(cells.find((c) => c.address === 'C1')?.value).toEqual({ error: '#CALC!' })
    expect(cells.find((c) => c.address === 'D1')?.value).toEqual({ error: '#DIV/0!' })
  })

  it('reads error results cached as text by applications other than Excel as errors', async () => {
    const base = await writeWorkbook((workbook) => workbook.addWorksheet('S').addRow([1]))
    const withErrorText = async (zip: JSZip): Promise<void> => {
      const xml = await zip.file('xl/worksheets/sheet1.xml')!.async('string')
      zip.file('xl/worksheets/sheet1.xml', xml.replace(/<c r="A1"[^>]*>.*?<\/c>/, '<c r="A1" t="str"><f>NA()</f><v>#N/A</v></c><c r="B1" t="str"><v>#N/A</v></c>'))
    }
    const fromExcel = await rezip(base, withErrorText)
    const fromElsewhere = await rezip(base, async (zip) => {
      await withErrorText(zip)
      zip.remove('docProps/app.xml')
    })
    const values = async (path: string) => (await readXlsxFile(path)).sheets[0].cells.map((cell) => cell.value)
    expect(await values(fromExcel)).toEqual(['#N/A', '#N/A'])
    expect(await values(fromElsewhere)).toEqual([{ error: '#N/A' }, '#N/A'])
  })
})

describe('openXlsxImport', () => {
  /** Rows with layout scattered through thousands of cells, so that rows cross the inflated chunks' edges. */
  const layoutWorkbook = () =>
    writeWorkbook((workbook) => {
      const data = workbook.addWorksheet('Data', { views: [{ state: 'frozen', ySplit: 1, xSplit: 1 }] })
      for (let row = 1; row <= 3000; row++) {
        const added = data.addRow([row, `Item ${row % 97}`, { formula: `A${row}*2`, result: row * 2 }, row % 5 === 0 ? null : row / 7])
        if (row % 211 === 0) added.hidden = true
        if (row % 389 === 0) added.height = 31
        if (row % 503 === 0) added.outlineLevel = 2
      }
      data.getCell('B2').font = { bold: true }
      data.getCell('D3').numFmt = '0.00%'
      data.getColumn(2).width = 30
      data.mergeCells('F1:G2')
      data.getCell('E2').dataValidation = { type: 'whole', operator: 'between', formulae: [1, 9], allowBlank: true }
      data.addConditionalFormatting({ ref: 'A1:A3000', rules: [{ type: 'cellIs', operator: 'greaterThan', formulae: [2990], priority: 1, style: { font: { bold: true } } }] })
      const empty = workbook.addWorksheet('Empty')
      empty.getCell('A1').value = 'only'
    })

  it.each([
    ['rows that say where they are', (path: string) => Promise.resolve(path)],
    // Some writers leave the row number out, a row then counting from the one before: here the hidden
    // rows, each after a row that carries no layout.
    ['hidden rows counted from the one before', (path: string) => rezip(path, async (zip) => {
      const part = 'xl/worksheets/sheet1.xml'
      zip.file(part, ((await zip.file(part)?.async('string')) ?? '').replace(/<row r="\d+"([^>]*hidden="1")/g, '<row$1'))
    })],
  ])('reads the same sheets, layout and cells as a whole read, the cells in a second pass: %s', async (_case, change) => {
    const path = await change(await layoutWorkbook())
    const whole = await readXlsxFile(path)
    const seen: number[] = []
    const source = await openXlsxImport(path, { onProgress: (fraction) => seen.push(fraction) })
    try {
      const { workbook } = source
      expect(workbook.sheets.every((sheet) => sheet.cells.length === 0)).toBe(true)
      expect(workbook.cellCount).toBe(0)
      for (const [index, sheet] of workbook.sheets.entries()) {
        const { cells: _cells, rowCount: _rows, columnCount: _columns, ...layout } = whole.sheets[index]
        const { cells: _none, rowCount: _r, columnCount: _c, ...streamedLayout } = sheet
        expect(streamedLayout).toEqual(layout)
        const cells = []
        for await (const batch of source.cells(index)) cells.push(...batch)
        // Styles are numbered apart (every look of the file up front), so they are compared by look.
        const look = (cell: { style?: number }, styles: typeof whole.styles) => (cell.style === undefined ? undefined : styles[cell.style])
        expect(cells.map((cell) => ({ ...cell, style: look(cell, workbook.styles) }))).toEqual(whole.sheets[index].cells.map((cell) => ({ ...cell, style: look(cell, whole.styles) })))
      }
      expect(whole.sheets[0].rows.filter((row) => row.hidden)).toHaveLength(14)
      expect(whole.sheets[0].validations).toHaveLength(1)
      expect(whole.sheets[0].conditionalFormats).toHaveLength(1)
      expect(workbook.cellCount).toBe(whole.cellCount)
      expect(workbook.formulaCount).toBe(whole.formulaCount)
      expect(seen.at(-1)).toBe(1)
      expect(seen.every((value, index) => index === 0 || value >= seen[index - 1])).toBe(true)
    } finally {
      source.close()
    }
  })

  it('refuses the cells past the limit as they are read', async () => {
    const path = await writeWorkbook((workbook) => {
      const sheet = workbook.addWorksheet('S')
      for (let row = 1; row <= 300; row++) sheet.addRow([1, 2, 3, 4])
    })
    const source = await openXlsxImport(path, { limits: { maxCells: 1000 } })
    try {
      const read = async () => {
        for await (const _batch of source.cells(0)) continue
      }
      await expect(read()).rejects.toMatchObject({ code: 'TOO_MANY_CELLS' })
    } finally {
      source.close()
    }
  })
})
