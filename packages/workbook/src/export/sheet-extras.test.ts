/**
 * The round trip of what a sheet carries around its cells: an xlsx file made by another writer with
 * notes (and a threaded comment), tab colours, gridlines off and hyperlinks is imported, exported and
 * read again, and each feature is compared.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { afterAll, describe, expect, it } from 'vitest'
import { WorkbookModel } from '../model/workbook-model.js'
import { importedSheetView } from '../xlsx/sheet-layout.js'
import { readXlsxFile } from '../xlsx/stream-xlsx.js'
import type { ImportedWorkbook } from '../import/imported-workbook.js'
import { writeXlsx } from './xlsx.js'

const folder = mkdtempSync(join(tmpdir(), 'finsheet-extras-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

async function readBuffer(bytes: Buffer, name: string): Promise<ImportedWorkbook> {
  const path = join(folder, name)
  writeFileSync(path, bytes)
  return readXlsxFile(path)
}

const THREADED_TYPE = 'http://schemas.microsoft.com/office/2017/10/relationships/threadedComment'

/** A workbook as Excel users send them: notes, a threaded comment with a reply, tab colours, gridlines off, links, and a chart. */
async function makeExtrasWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const summary = workbook.addWorksheet('Summary', { properties: { tabColor: { argb: 'FF00B050' } }, views: [{ showGridLines: false, zoomScale: 80 }] })
  summary.getCell('A1').value = 'Revenue'
  summary.getCell('A1').note = 'Ann:\nFrom the audited accounts'
  summary.getCell('B2').value = 1200
  summary.getCell('B2').font = { color: { theme: 4 } as ExcelJS.Color }
  summary.getCell('B2').fill = { type: 'pattern', pattern: 'solid', fgColor: { theme: 5, tint: 0.4 } as Partial<ExcelJS.Color> }
  summary.getCell('C3').value = { text: 'Company site', hyperlink: 'https://example.com/acme' }
  summary.getCell('C4').value = { text: 'Inputs', hyperlink: '#Inputs!A1' }
  const inputs = workbook.addWorksheet('Inputs', { properties: { tabColor: { argb: 'FFFF0000' } } })
  inputs.getCell('A1').value = 0.21
  const bytes = Buffer.from((await workbook.xlsx.writeBuffer()) as ArrayBuffer)
  // exceljs writes neither threaded comments nor charts: they are added as Excel writes them.
  const zip = await JSZip.loadAsync(bytes)
  zip.file(
    'xl/threadedComments/threadedComment1.xml',
    '<?xml version="1.0" encoding="UTF-8"?><ThreadedComments xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments">' +
      '<threadedComment ref="A1" dT="2024-01-01T00:00:00.00" personId="{P1}" id="{T1}"><text>Tax rate &amp; basis</text></threadedComment>' +
      '<threadedComment ref="A1" dT="2024-01-02T00:00:00.00" personId="{P2}" id="{T2}" parentId="{T1}"><text>Agreed</text></threadedComment></ThreadedComments>',
  )
  zip.file('xl/persons/person.xml', '<personList xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments"><person displayName="Bo Li" id="{P1}"/><person displayName="Cy" id="{P2}"/></personList>')
  zip.file('xl/worksheets/_rels/sheet2.xml.rels', `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdT" Type="${THREADED_TYPE}" Target="../threadedComments/threadedComment1.xml"/><Relationship Id="rIdD" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" Target="../drawings/drawing1.xml"/></Relationships>`)
  zip.file('xl/drawings/drawing1.xml', '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"/>')
  zip.file(
    'xl/drawings/_rels/drawing1.xml.rels',
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="../charts/chart1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="../charts/chart2.xml"/></Relationships>',
  )
  return zip.generateAsync({ type: 'nodebuffer' })
}

/** The look of a cell of an imported workbook, in the workbook's terms. */
function lookOf(read: ImportedWorkbook, sheet: number, address: string) {
  const style = read.styles[read.sheets[sheet].cells.find((cell) => cell.address === address)?.style ?? -1]
  return style && { color: style.color, colorTheme: style.colorTheme, fill: style.fill, fillTheme: style.fillTheme }
}

function modelOf(read: ImportedWorkbook): WorkbookModel {
  const model = new WorkbookModel({
    sheets: read.sheets.map((sheet, index) => {
      const view = importedSheetView(sheet)
      return { id: `s${index}`, name: sheet.name, columnWidths: {}, merges: [], ...(view ? { view } : {}) }
    }),
  })
  for (const sheet of read.sheets) {
    const cells = sheet.cells
      .filter((cell) => cell.value !== null)
      .map((cell) => {
        const look = cell.style === undefined ? undefined : read.styles[cell.style]
        const style = look && { ...(look.color ? { color: look.color } : {}), ...(look.colorTheme ? { colorTheme: look.colorTheme } : {}), ...(look.fill ? { fill: look.fill } : {}), ...(look.fillTheme ? { fillTheme: look.fillTheme } : {}) }
        return { address: cell.address, input: String(cell.value), ...(style && Object.keys(style).length > 0 ? { style } : {}) }
      })
    if (cells.length > 0) model.apply([{ type: 'set-cells', sheet: sheet.name, cells }])
  }
  return model
}

describe('notes, tab colours, gridlines and links through an xlsx round trip', () => {
  it('imports each from a file written by another application', async () => {
    const read = await readBuffer(await makeExtrasWorkbook(), 'in.xlsx')
    const [summary, inputs] = read.sheets
    expect(summary.tabColor).toBe('#00B050')
    expect(summary.showGridLines).toBe(false)
    expect(summary.zoom).toBe(80)
    expect(inputs.zoom).toBeUndefined()
    expect(summary.notes).toEqual({ A1: { text: 'Ann:\nFrom the audited accounts', author: 'Author' } })
    expect(summary.links).toEqual({ C3: 'https://example.com/acme', C4: '#Inputs!A1' })
    expect(inputs.tabColor).toBe('#FF0000')
    expect(inputs.showGridLines).toBeUndefined()
    // The threaded comment, with its reply, is kept as one note by its first author.
    expect(inputs.notes).toEqual({ A1: { text: 'Tax rate & basis\nCy: Agreed', author: 'Bo Li' } })
    expect(inputs.carries).toEqual({ charts: 2 })
  })

  it('exports them and reads the same back', async () => {
    const first = await readBuffer(await makeExtrasWorkbook(), 'in.xlsx')
    const model = modelOf(first)
    const exported = await readBuffer(await writeXlsx(model.snapshot('Extras')), 'out.xlsx')
    for (const [index, sheet] of first.sheets.entries()) {
      const again = exported.sheets[index]
      expect(again.name).toBe(sheet.name)
      expect(again.tabColor).toBe(sheet.tabColor)
      expect(again.showGridLines).toBe(sheet.showGridLines)
      expect(again.zoom).toBe(sheet.zoom)
      expect(again.notes).toEqual(sheet.notes)
      expect(again.links).toEqual(sheet.links)
    }
    // Theme colours stay theme colours, resolving to the colours the cells showed.
    expect(lookOf(first, 0, 'B2')).toMatchObject({ colorTheme: { theme: 4 }, fillTheme: { theme: 5, tint: 0.4 } })
    expect(lookOf(exported, 0, 'B2')).toEqual(lookOf(first, 0, 'B2'))
    const valueOf = (address: string) => exported.sheets[0].cells.find((cell) => cell.address === address)?.value
    expect(valueOf('C3')).toBe('Company site')
    expect(valueOf('B2')).toBe(1200)
  })

  it('writes a colour set over a theme colour as that colour, and a theme colour another theme would change as its colour', async () => {
    const model = new WorkbookModel({ sheets: [{ id: 's', name: 'S', columnWidths: {}, merges: [] }] })
    model.apply([
      { type: 'set-cells', sheet: 'S', cells: [{ address: 'A1', input: 'a', style: { color: '#4F81BD', colorTheme: { theme: 4 } } }, { address: 'A2', input: 'b', style: { color: '#123456', colorTheme: { theme: 4 } } }] },
      { type: 'format-cells', sheet: 'S', ranges: ['A1'], style: { fill: '#FFFF00' } },
    ])
    expect(model.styleAt('s', 'A1')).toEqual({ color: '#4F81BD', colorTheme: { theme: 4 }, fill: '#FFFF00' })
    model.apply([{ type: 'format-cells', sheet: 'S', ranges: ['A1'], style: { color: '#FF0000' } }])
    expect(model.styleAt('s', 'A1')).toEqual({ color: '#FF0000', fill: '#FFFF00' })
    const read = await readBuffer(await writeXlsx(model.snapshot('Themes')), 'themes.xlsx')
    expect(lookOf(read, 0, 'A1')).toEqual({ color: '#FF0000', colorTheme: undefined, fill: '#FFFF00', fillTheme: undefined })
    expect(lookOf(read, 0, 'A2')).toEqual({ color: '#123456', colorTheme: undefined, fill: undefined, fillTheme: undefined })
  })

  it('writes a link on a number and a formula without changing the cell', async () => {
    const model = new WorkbookModel({ sheets: [{ id: 's', name: 'S', columnWidths: {}, merges: [] }] })
    model.apply([
      { type: 'set-cells', sheet: 'S', cells: [{ address: 'A1', input: '42' }, { address: 'A2', input: '=A1*2' }] },
      { type: 'set-sheet-view', sheet: 'S', links: [{ address: 'A1', url: 'https://example.com/a?b=1&c=2' }, { address: 'A2', url: 'mailto:cfo@example.com' }], notes: [{ address: 'B5', note: { text: 'Empty cell note', author: 'Dee' } }] },
    ])
    const read = await readBuffer(await writeXlsx(model.snapshot('Links')), 'links.xlsx')
    expect(read.sheets[0].links).toEqual({ A1: 'https://example.com/a?b=1&c=2', A2: 'mailto:cfo@example.com' })
    expect(read.sheets[0].notes).toEqual({ B5: { text: 'Empty cell note', author: 'Dee' } })
    expect(read.sheets[0].cells.find((cell) => cell.address === 'A2')).toMatchObject({ formula: 'A1*2', value: 84 })
  })

  it('writes print names as Excel stores them (a union of rows and columns without parentheses), read back as the page setup of the sheet', async () => {
    const model = new WorkbookModel({ sheets: [{ id: 's', name: 'Report', columnWidths: {}, merges: [] }] })
    model.apply([
      { type: 'define-name', name: 'Print_Area', sheet: 'Report', formula: '=Report!$A$1:$D$20' },
      { type: 'define-name', name: 'Print_Titles', sheet: 'Report', formula: '=(Report!$A:$A,Report!$1:$1)' },
    ])
    const bytes = await writeXlsx(model.snapshot('Print'))
    const workbookXml = await (await JSZip.loadAsync(bytes)).file('xl/workbook.xml')!.async('string')
    expect(workbookXml).toContain('<definedName name="_xlnm.Print_Area" localSheetId="0">Report!$A$1:$D$20</definedName>')
    expect(workbookXml).toContain('<definedName name="_xlnm.Print_Titles" localSheetId="0">Report!$A:$A,Report!$1:$1</definedName>')
    // read back, they are the sheet's page setup (File → Page setup): its title rows and columns
    const read = await readBuffer(bytes, 'print.xlsx')
    expect(read.definedNames).toEqual([])
    expect(read.sheets[0].pageSetup).toEqual({ printArea: 'A1:D20', titleRows: { first: 0, last: 0 }, titleColumns: { first: 0, last: 0 } })
  })

  it('keeps a very hidden sheet very hidden through the round trip, and unhiding it shows it plainly, undone exactly', async () => {
    const workbook = new ExcelJS.Workbook()
    workbook.addWorksheet('Shown').getCell('A1').value = 1
    workbook.addWorksheet('Secret', { state: 'veryHidden' }).getCell('A1').value = 2
    workbook.addWorksheet('Tucked', { state: 'hidden' }).getCell('A1').value = 3
    const first = await readBuffer(Buffer.from((await workbook.xlsx.writeBuffer()) as ArrayBuffer), 'hidden.xlsx')
    const model = modelOf(first)
    expect(model.sheets.map((sheet) => sheet.view)).toEqual([undefined, { hidden: true, veryHidden: true }, { hidden: true }])
    const again = await readBuffer(await writeXlsx(model.snapshot('Hidden')), 'hidden-out.xlsx')
    expect(again.sheets.map((sheet) => sheet.state)).toEqual(['visible', 'veryHidden', 'hidden'])
    const { inverse } = model.apply([{ type: 'set-sheet-view', sheet: 'Secret', hidden: false }])
    expect(model.sheets[1].view).toBeUndefined()
    model.apply(inverse)
    expect(model.sheets[1].view).toEqual({ hidden: true, veryHidden: true })
  })
})
