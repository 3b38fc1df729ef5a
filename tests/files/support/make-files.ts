/**
 * Files for the import tests, good and bad, made on the spot: workbooks through exceljs, hostile zips
 * through JSZip with streamed parts (a 10-million-cell sheet never sits in memory), PDFs through pdfkit.
 */
import { createWriteStream } from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import ExcelJS from 'exceljs'
import PDFDocument from 'pdfkit'
import JSZip from 'jszip'

export async function xlsxBuffer(build: (workbook: ExcelJS.Workbook) => void): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  build(workbook)
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

/** A small workbook with values, a formula, formats, a style, a merge, a width and a defined name. */
export function sampleWorkbook(): Promise<Buffer> {
  return xlsxBuffer((workbook) => {
    const sheet = workbook.addWorksheet('Inputs')
    sheet.getCell('A1').value = 'Revenue'
    sheet.getCell('A1').font = { bold: true, color: { argb: 'FF1F4E79' } }
    sheet.getCell('A1').fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFDDEBF7' } }
    sheet.getCell('B1').value = 1200
    sheet.getCell('B1').numFmt = '#,##0'
    sheet.getCell('B2').value = 0.1
    sheet.getCell('B2').numFmt = '0%'
    sheet.getCell('B3').value = { formula: 'B1*(1+B2)', result: 1320 }
    sheet.getCell('B3').alignment = { horizontal: 'right' }
    sheet.mergeCells('C1:D1')
    sheet.getCell('C1').value = 'Merged'
    sheet.getColumn(1).width = 20
    workbook.definedNames.add('Inputs!$B$2', 'Growth')
    const second = workbook.addWorksheet('Summary')
    second.getCell('A1').value = { formula: 'Inputs!B3+Growth', result: 1320.1 }
  })
}

/** The first bytes of an OLE2 compound file (legacy .xls, or an encrypted .xlsx with EncryptedPackage). */
export function ole2File(options: { encrypted?: boolean } = {}): Buffer {
  const header = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
  const body = Buffer.alloc(4096, 0)
  if (options.encrypted) Buffer.from('EncryptedPackage', 'utf16le').copy(body, 1024)
  else Buffer.from('Workbook', 'utf16le').copy(body, 1024)
  return Buffer.concat([header, body])
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>'
const WORKBOOK =
  '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
const WORKBOOK_RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'

/** A minimal xlsx whose one sheet's XML comes from `sheetXml` as a stream, written as a stream. */
function workbookZip(sheetXml: Readable, level: number): NodeJS.ReadableStream {
  const zip = new JSZip()
  zip.file('[Content_Types].xml', CONTENT_TYPES)
  zip.file('xl/workbook.xml', WORKBOOK)
  zip.file('xl/_rels/workbook.xml.rels', WORKBOOK_RELS)
  zip.file('xl/worksheets/sheet1.xml', sheetXml)
  return zip.generateNodeStream({ type: 'nodebuffer', streamFiles: true, compression: 'DEFLATE', compressionOptions: { level } })
}

function streamToBuffer(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.on('end', () => resolve(Buffer.concat(chunks)))
    stream.on('error', reject)
  })
}

/** An xlsx whose sheet inflates from a little to `megabytes` MB of one repeated byte: a zip bomb. */
export function zipBomb(megabytes: number): Promise<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024, 0x20)
  const open = '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
  async function* xml() {
    yield Buffer.from(open)
    for (let i = 0; i < megabytes; i++) yield chunk
    yield Buffer.from('</sheetData></worksheet>')
  }
  return streamToBuffer(workbookZip(Readable.from(xml()), 9))
}

/** An xlsx of `rows` × `columns` numeric cells, its sheet XML streamed into the zip. */
export async function manyCellsXlsx(path: string, rows: number, columns: number): Promise<void> {
  const letters = Array.from({ length: columns }, (_, i) => String.fromCharCode(65 + i))
  async function* xml() {
    yield Buffer.from('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>')
    let batch = ''
    for (let row = 1; row <= rows; row++) {
      batch += `<row r="${row}">`
      for (const letter of letters) batch += `<c r="${letter}${row}"><v>${row % 97}</v></c>`
      batch += '</row>'
      if (batch.length > 1 << 20) {
        yield Buffer.from(batch)
        batch = ''
      }
    }
    yield Buffer.from(batch + '</sheetData></worksheet>')
  }
  await pipeline(workbookZip(Readable.from(xml()), 1), createWriteStream(path))
}

/** A PDF made with pdfkit: text lines, a drawing only, or encrypted with a user password. */
export function pdfBuffer(options: { lines?: string[]; imageOnly?: boolean; userPassword?: string }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ userPassword: options.userPassword, pdfVersion: options.userPassword ? '1.7' : undefined })
    const chunks: Buffer[] = []
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
    if (options.imageOnly) doc.rect(50, 50, 200, 100).fill('#336699')
    for (const line of options.lines ?? []) doc.text(line)
    doc.end()
  })
}

/** A PNG's signature and header, enough to be recognised as an image. */
export function pngBytes(): Buffer {
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(512, 7)])
}

/** A multipart body as a browser sends it, for app.inject. */
export async function multipart(fields: Record<string, string>, file?: { field?: string; name: string; type?: string; bytes: Buffer }): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  if (file) form.append(file.field ?? 'file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name)
  const request = new Request('http://localhost/', { method: 'POST', body: form })
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type') as string } }
}
