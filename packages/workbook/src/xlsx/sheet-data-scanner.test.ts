import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SaxesParser } from 'saxes'
import { describe, expect, it } from 'vitest'
import { SheetDataScanner, type ScannedCell } from './sheet-data-scanner.js'

/** What the scanner hands over for a part fed in `pieces`. */
function scan(pieces: string[]): Array<{ row: string | undefined } | ScannedCell> {
  const seen: Array<{ row: string | undefined } | ScannedCell> = []
  const scanner = new SheetDataScanner({ row: (r) => seen.push({ row: r }), cell: (cell) => seen.push(cell) })
  for (const piece of pieces) scanner.write(piece)
  scanner.end()
  return seen
}

/**
 * The same through a general XML parser (saxes, as the layout pass and a whole read use it), with the
 * rules the sheet reader applies to its events: the reference the scanner must agree with.
 */
function parse(xml: string): Array<{ row: string | undefined } | ScannedCell> {
  const seen: Array<{ row: string | undefined } | ScannedCell> = []
  const parser = new SaxesParser({ xmlns: false, position: false })
  const local = (name: string) => name.slice(name.indexOf(':') + 1)
  let cell: ScannedCell | null = null
  let collecting: 'v' | 'f' | 't' | null = null
  let text = ''
  let phonetic = 0
  let inside = false
  parser.on('opentag', (tag) => {
    const name = local(tag.name)
    const a = tag.attributes as Record<string, string>
    if (name === 'sheetData') inside = true
    if (!inside) return
    if (name === 'row') seen.push({ row: a.r })
    else if (name === 'c') cell = { r: a.r, t: a.t, s: a.s, vm: a.vm, cm: a.cm, value: null, inline: null, formula: null, formulaAttributes: null }
    else if (cell && (name === 'v' || name === 'f' || (name === 't' && phonetic === 0))) {
      collecting = name
      text = ''
      if (name === 'f') cell.formulaAttributes = { ...a }
    } else if (name === 'rPh') phonetic++
  })
  parser.on('text', (chunk) => {
    if (collecting) text += chunk
  })
  parser.on('cdata', (chunk) => {
    if (collecting) text += chunk
  })
  parser.on('closetag', (tag) => {
    const name = local(tag.name)
    if (name === 'sheetData') inside = false
    if (!cell) return
    if (name === 'v' || name === 'f' || name === 't') {
      if (collecting === name) {
        if (name === 'v') cell.value = text
        else if (name === 'f') cell.formula = text
        else cell.inline = (cell.inline ?? '') + text
      }
      collecting = null
    } else if (name === 'rPh') phonetic--
    else if (name === 'c') {
      seen.push(cell)
      cell = null
    }
  })
  parser.write(xml).close()
  return seen
}

/** Every way of cutting `xml` in two, and cuts every `step` characters. */
function cuts(xml: string, step: number): string[][] {
  const ways: string[][] = []
  for (let at = 1; at < xml.length; at++) ways.push([xml.slice(0, at), xml.slice(at)])
  const pieces: string[] = []
  for (let at = 0; at < xml.length; at += step) pieces.push(xml.slice(at, at + step))
  ways.push(pieces)
  return ways
}

const SHEET = (data: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:D9"/><sheetViews><sheetView workbookViewId="0"/></sheetViews>${data}<mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells></worksheet>`

describe('SheetDataScanner', () => {
  const sheet = SHEET(
    '<sheetData>' +
      '<row r="1" spans="1:4" x14ac:dyDescent="0.25"><c r="A1" s="3" t="s"><v>0</v></c><c r="B1"><v>1.5E-3</v></c><c r="C1" s="2"/><c r="D1" t="b"><v>1</v></c></row>\n' +
      // shared formulas, an array formula, a data table's attributes, an empty formula, formula text with entities and a line end
      '<row r="2"><c r="A2"><f t="shared" ref="A2:A4" si="0">B2&amp;"&lt;&gt;"&amp;C2</f><v>x</v></c><c r="B2"><f t="shared" si="0"/><v>2</v></c>' +
      "<c r='C2' t='str' cm=\"1\"><f t=\"array\" ref=\"C2:C3\" aca='false'>IF(A1&gt;1,\r\n\"a&#10;b\",&quot;c&quot;)</f><v>a&#x42;</v></c>" +
      '<c r="D2"><f t="dataTable" ref="D2:D3" dt2D="1" dtr="1" r1="A1" r2="B1"/><v/></c></row>' +
      // rich inline text with a phonetic run, CDATA, a comment and whitespace between the parts
      '<row r="3" ht="30" customHeight="1"><c r="A3" t="inlineStr"><is><r><rPr><b/><sz val="11"/></rPr><t xml:space="preserve"> in </t></r><r><t>line</t></r><rPh sb="0" eb="1"><t>ふりがな</t></rPh><phoneticPr fontId="1"/></is></c>\n  ' +
      '<!-- a comment with <c r="Z9"><v>9</v></c> inside --><c r="B3" t="e" vm="1"><v>#VALUE!</v></c><c r="C3" t="str"><v><![CDATA[a <b> & c]]></v></c></row>' +
      // cells and rows that do not say where they are, prefixed names, an extension element
      '<row><c><v>7</v></c><c t="inlineStr"><is><t/></is></c></row><x:row r="9"><x:c r="D9"><x:v>9</x:v><x:extLst><x:ext uri="{X}"><x14:note>left out</x14:note></x:ext></x:extLst></x:c></x:row>' +
      '<extLst><ext uri="{Y}"><x:y z="1"/></ext></extLst>' +
      '</sheetData>',
  )

  it('hands over what a general XML parser reads, however the part is cut into chunks', () => {
    const expected = parse(sheet.replace('<worksheet ', '<worksheet xmlns:x="x" xmlns:x14="x14" xmlns:x14ac="a" '))
    expect(expected).toHaveLength(19)
    expect(scan([sheet])).toEqual(expected)
    for (const pieces of cuts(sheet, 7)) expect(scan(pieces)).toEqual(expected)
  })

  it('reads values, formulas and their attributes, inline text and what is left out', () => {
    const seen = scan([sheet])
    const cell = (r: string) => seen.find((item): item is ScannedCell => 'r' in item && item.r === r)
    expect(cell('A1')).toMatchObject({ t: 's', s: '3', value: '0', formula: null })
    expect(cell('C1')).toMatchObject({ s: '2', value: null, inline: null })
    expect(cell('A2')).toMatchObject({ formula: 'B2&"<>"&C2', formulaAttributes: { t: 'shared', ref: 'A2:A4', si: '0' } })
    expect(cell('B2')).toMatchObject({ formula: '', formulaAttributes: { t: 'shared', si: '0' }, value: '2' })
    expect(cell('C2')).toMatchObject({ cm: '1', formula: 'IF(A1>1,\n"a\nb","c")', formulaAttributes: { t: 'array', ref: 'C2:C3', aca: 'false' }, value: 'aB' })
    expect(cell('D2')).toMatchObject({ value: '', formula: '', formulaAttributes: { t: 'dataTable', dt2D: '1', dtr: '1', r1: 'A1', r2: 'B1' } })
    expect(cell('A3')?.inline).toBe(' in line')
    expect(cell('B3')).toMatchObject({ t: 'e', vm: '1', value: '#VALUE!' })
    expect(cell('C3')?.value).toBe('a <b> & c')
    expect(cell('D9')?.value).toBe('9')
    expect(seen.filter((item) => 'row' in item).map((item) => (item as { row: string | undefined }).row)).toEqual(['1', '2', '3', undefined, '9'])
  })

  it('reads nothing of a sheet without cells', () => {
    expect(scan([SHEET('<sheetData/>')])).toEqual([])
    expect(scan([SHEET('<sheetData></sheetData>')])).toEqual([])
    expect(scan(['<worksheet><dimension ref="A1"/></worksheet>'])).toEqual([])
  })

  it.each([
    ['a cell left open', '<sheetData><row r="1"><c r="A1"><v>1</v></row></sheetData>', 'where the cell A1 should close'],
    ['closing tags that do not match', '<sheetData><row r="1"><c r="A1"><v>1</f></c></row></sheetData>', 'where </v> should be'],
    ['an entity XML does not define', '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&l9;</t></is></c></row></sheetData>', 'undefined entity &l9;'],
    ['a character XML cannot hold', '<sheetData><row r="1"><c r="A1" t="str"><v>&#0;</v></c></row></sheetData>', 'a character XML cannot hold'],
    ['a bare ampersand', '<sheetData><row r="1"><c r="A1" t="str"><v>a & b</v></c></row></sheetData>', 'a bare &'],
    ['an unquoted attribute', '<sheetData><row r="1"><c r=A1><v>1</v></c></row></sheetData>', 'an unquoted attribute value: r'],
  ])('refuses %s', (_case, data, message) => {
    expect(() => scan([`<worksheet>${data}</worksheet>`])).toThrow(message)
  })

  it.each([
    ['sheet data that never closes', '<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row>', 'the sheet data is not closed'],
    ['a part that ends inside a cell', '<worksheet><sheetData><row r="1"><c r="A1"><v>1', 'the sheet data ends inside'],
  ])('refuses %s', (_case, part, message) => {
    expect(() => scan([part])).toThrow(message)
  })
})

/** Excel's own files, when they are beside the project: scanned as a general parser reads them. */
const oracleRoot = fileURLToPath(new URL('../../../../../shared/oracle/', import.meta.url))
function sheetParts(): string[] {
  if (!existsSync(oracleRoot)) return []
  const found: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith('.xlsx')) found.push(path)
    }
  }
  walk(oracleRoot)
  return found
}

describe.skipIf(sheetParts().length === 0)('SheetDataScanner on the oracle workbooks', () => {
  it('hands over what a general XML parser reads from every sheet of every file', async () => {
    const JSZip = (await import('jszip')).default
    const { readFile } = await import('node:fs/promises')
    let sheets = 0
    let cells = 0
    for (const path of sheetParts()) {
      const zip = await JSZip.loadAsync(await readFile(path))
      for (const part of Object.keys(zip.files).filter((name) => /^xl\/worksheets\/[^/]+\.xml$/.test(name))) {
        const xml = await zip.file(part)!.async('string')
        const expected = parse(xml)
        const pieces: string[] = []
        for (let at = 0; at < xml.length; at += 4093) pieces.push(xml.slice(at, at + 4093))
        expect(scan(pieces), `${path} ${part}`).toEqual(expected)
        sheets++
        cells += expected.filter((item) => !('row' in item)).length
      }
    }
    expect(sheets).toBeGreaterThan(100)
    expect(cells).toBeGreaterThan(10_000)
  })
})
