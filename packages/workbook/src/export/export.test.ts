import { describe, expect, it } from 'vitest'
import type { CellRecord } from '../model/cell-record.js'
import type { WorkbookSnapshot } from '../model/snapshot.js'
import { formatAddress } from '../model/a1.js'
import { parse } from 'csv-parse/sync'
import JSZip from 'jszip'
import { csvByteLength, csvChunks, csvField, writeCsv, neutralizeFormulaText } from './csv.js'
import { cellsAnswerChunks, cellsJsonChunks, inputsAnswerChunks, inputsAnswerLines, toCellsJson, toInputsJson } from './json.js'
import type { InputsLine, InputsResponse } from '@finsheet/contracts'
import type { CellsJsonExport } from './json.js'
import { writeXlsxOffThread } from './xlsx-off-thread.js'
import { storedFormula } from './formula-storage.js'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readXlsxFile } from '../xlsx/stream-xlsx.js'
import { argb, calculatesAlike, writeXlsx, xlsxText, xmlSafe } from './xlsx.js'

const text = (address: string, row: number, col: number, value: string): CellRecord => ({ address, row, col, input: value, value, type: 'text' })

describe('csv', () => {
  it('quotes by RFC 4180 and escapes text a spreadsheet would run as a formula', () => {
    expect(neutralizeFormulaText('=cmd|calc')).toBe("'=cmd|calc")
    for (const lead of ['+', '-', '@', '\t', '\r']) expect(neutralizeFormulaText(`${lead}x`)).toBe(`'${lead}x`)
    expect(neutralizeFormulaText('plain')).toBe('plain')
    const csv = writeCsv([
      text('A1', 0, 0, 'a,b'),
      text('B1', 0, 1, 'say "hi"'),
      { address: 'A2', row: 1, col: 0, input: '-3', value: -3, type: 'number' },
      text('C2', 1, 2, '@SUM(A1)'),
    ])
    expect(csv).toBe('"a,b","say ""hi""",\r\n-3,,\'@SUM(A1)\r\n')
    expect(writeCsv([])).toBe('')
  })
})

describe('xlsx', () => {
  it('stores newer functions with the prefix older readers need, leaving strings and sheet names alone', () => {
    expect(storedFormula('XLOOKUP(A1,B:B,C:C)+SUM(1)')).toBe('_xlfn.XLOOKUP(A1,B:B,C:C)+SUM(1)')
    expect(storedFormula('FILTER(A1:A9,B1:B9>0)')).toBe('_xlfn._xlws.FILTER(A1:A9,B1:B9>0)')
    expect(storedFormula('"IFS(" & \'MINIFS(x\'!A1 & STDEV.S(A1:A3)')).toBe('"IFS(" & \'MINIFS(x\'!A1 & _xlfn.STDEV.S(A1:A3)')
  })

  it('reads CSS colours as ARGB', () => {
    expect(argb('#fff')).toBe('FFFFFFFF')
    expect(argb('#1F4FB4')).toBe('FF1F4FB4')
    expect(argb('rgb(255, 0, 128)')).toBe('FFFF0080')
    expect(argb('red')).toBe('FFFF0000')
    expect(argb('not a colour')).toBeUndefined()
  })
})

describe('xlsx formulas, dynamic arrays and legacy', () => {
  it('writes arithmetic on single cells plain and marks anything implicit intersection could change', () => {
    for (const alike of ['=A1*B1+D1', "=Sheet2!A1-'My Sheet'!$B$2", '=1.5E+3/2', '="a:b"&A1', '=(A1+2)^2%', '=TRUE']) expect(calculatesAlike(alike), alike).toBe(true)
    for (const differs of ['=A1:A3*2', '=SUM(A1)', '=Rate*2', '={1,2}', '=A:A', '=@A1:A2', "='x'!A1:B2"]) expect(calculatesAlike(differs), differs).toBe(false)
  })

  it('keeps how each formula calculates through a file: legacy plain, fixed arrays over their range, dynamic arrays marked', async () => {
    const record = (address: string, row: number, col: number, input: string, value: number, extra: Partial<CellRecord> = {}): CellRecord => ({
      address,
      row,
      col,
      input,
      value,
      type: 'number',
      ...extra,
    })
    const bytes = await writeXlsx({
      format: 'finsheet-workbook',
      formatVersion: 1,
      name: 'Kinds',
      revision: 1,
      sheets: [
        {
          id: 's1',
          name: 'S',
          columnWidths: {},
          merges: [],
          cells: [
            record('A1', 0, 0, '1', 1),
            record('A2', 1, 0, '2', 2),
            record('B2', 1, 1, '=A1:A2*10', 20, { legacy: true }),
            record('C1', 0, 2, '=A1:A2*2', 2, { arrayRange: 'C1:C2' }),
            record('C2', 1, 2, '', 4),
            record('D1', 0, 3, '=A1:A2+1', 2),
            record('D2', 1, 3, '', 3),
            record('E1', 0, 4, '=A1*2', 2),
          ],
        },
      ],
      definedNames: [],
      charts: [],
    })
    const dir = mkdtempSync(join(tmpdir(), 'finsheet-kinds-'))
    try {
      writeFileSync(join(dir, 'kinds.xlsx'), bytes)
      const cells = new Map((await readXlsxFile(join(dir, 'kinds.xlsx'))).sheets[0].cells.map((cell) => [cell.address, cell]))
      expect(cells.get('B2')).toMatchObject({ formula: 'A1:A2*10', value: 20 })
      expect(cells.get('B2')?.arrayRange).toBeUndefined()
      expect(cells.get('C1')).toMatchObject({ formula: 'A1:A2*2', arrayRange: 'C1:C2' })
      expect(cells.get('C1')?.dynamicArray).toBeUndefined()
      expect(cells.get('C2')).toMatchObject({ value: 4 })
      // A dynamic array is written over the range it spilled into, the spilled cell with its value, as Excel writes it.
      expect(cells.get('D1')).toMatchObject({ formula: 'A1:A2+1', arrayRange: 'D1:D2', dynamicArray: true })
      expect(cells.get('D2')).toMatchObject({ value: 3 })
      expect(cells.get('D2')?.formula).toBeUndefined()
      expect(cells.get('E1')).toMatchObject({ formula: 'A1*2' })
      expect(cells.get('E1')?.arrayRange).toBeUndefined()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('csv written safely, in chunks, within a size', () => {
  it('quotes a field with a bare carriage return or line feed and neutralises a formula on any of its lines', () => {
    expect(neutralizeFormulaText("Note\r=cmd|'/C calc'!A0")).toBe("Note\r'=cmd|'/C calc'!A0")
    expect(neutralizeFormulaText('a\n+1\r\n@x\n-')).toBe("a\n'+1\r\n'@x\n'-")
    expect(neutralizeFormulaText('\rx')).toBe("'\rx")
    expect(csvField("Note\r'=cmd")).toBe(`"Note\r'=cmd"`)
    expect(csvField('one\ntwo')).toBe('"one\ntwo"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    const csv = writeCsv([text('A1', 0, 0, "Note\r=cmd|'/C calc'!A0"), text('B1', 0, 1, 'x')])
    expect(csv).toBe(`"Note\r'=cmd|'/C calc'!A0",x\r\n`)
    // Read back as a spreadsheet reads it: one row, and no cell starts with a formula character.
    const rows = parse(csv, { relax_column_count: true }) as string[][]
    expect(rows).toEqual([["Note\r'=cmd|'/C calc'!A0", 'x']])
    for (const line of rows[0][0].split(/\r\n|\r|\n/)) expect(line).not.toMatch(/^[=+\-@]/)
  })

  it('writes far-apart cells row by row, never as a grid, and measures the file before writing it', () => {
    const cells = [text('A1', 0, 0, 'a'), text('XFD2000', 1999, 16_383, 'z')]
    const chunks = [...csvChunks(cells)]
    expect(chunks.length).toBeGreaterThan(100)
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan(100_000)
    const csv = chunks.join('')
    expect(csv.length).toBe(2000 * (16_383 + 2) + 2)
    expect(csvByteLength(cells)).toBe(Buffer.byteLength(csv))
    expect(csv.startsWith('a,,')).toBe(true)
    expect(csv.endsWith(',z\r\n')).toBe(true)
  })

  it('counts bytes exactly for any text, and stops counting past a limit at once', () => {
    const cells: CellRecord[] = [
      text('A1', 0, 0, 'naïve — €'),
      text('C1', 0, 2, 'a,"b"\nc'),
      { address: 'B2', row: 1, col: 1, input: '3.5', value: 3.5, type: 'number' },
      { address: 'A3', row: 2, col: 0, input: '=1/0', value: '#DIV/0!', type: 'error' },
      { address: 'D3', row: 2, col: 3, input: '', value: null, type: 'empty', style: { bold: true } },
    ]
    expect(csvByteLength(cells)).toBe(Buffer.byteLength(writeCsv(cells)))
    const started = performance.now()
    const huge = csvByteLength([text('A1', 0, 0, 'a'), text('XFD1048576', 1_048_575, 16_383, 'z')], 256 * 1024 * 1024)
    expect(huge).toBe(1_048_576 * (16_383 + 2))
    expect(performance.now() - started).toBeLessThan(1000)
  })
})

describe('json export in chunks', () => {
  const sheets: CellsJsonExport['sheets'] = [
    { name: 'One', columnWidths: { '0': 120 }, merges: ['A1:B1'], cells: Array.from({ length: 2000 }, (_, i) => text(`A${i + 1}`, i, 0, `row ${i}`)) },
    { name: 'Two', columnWidths: {}, merges: [], cells: [text('B2', 1, 1, 'two')] },
  ]
  const header = { workbookId: 'w1', name: 'Book', revision: 3, sheetOrder: ['One', 'Two'], totalCells: 2001, sheets }

  it('writes the cells route shape, with truncated null when everything fits', () => {
    const json = JSON.parse([...cellsJsonChunks(header, 1 << 30)].join(''))
    expect(json.success).toBe(true)
    expect(json.workbook).toMatchObject({ workbookId: 'w1', name: 'Book', revision: 3, sheetOrder: ['One', 'Two'], totalSheets: 2, totalCells: 2001, truncated: null })
    expect(json.workbook.sheets.map((sheet: { name: string }) => sheet.name)).toEqual(['One', 'Two'])
    expect(json.workbook.sheets[0]).toMatchObject({ rowCount: 2000, columnCount: 1, columnWidths: { '0': 120 }, merges: ['A1:B1'] })
    expect(json.workbook.sheets[0].cells.A7).toMatchObject({ value: 'row 6', type: 'text', display: 'row 6' })
  })

  it('stops before the limit, stays valid JSON, and says how many cells it left out', () => {
    const text = [...cellsJsonChunks(header, 64 * 1024)].join('')
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(64 * 1024)
    const json = JSON.parse(text)
    const written = Object.keys(json.workbook.sheets[0].cells).length
    expect(written).toBeGreaterThan(100)
    expect(json.workbook.truncated).toEqual({ limitBytes: 64 * 1024, cellsWritten: written, cellsLeftOut: 2001 - written })
    expect(json.workbook.sheets.map((sheet: { name: string }) => sheet.name)).toEqual(['One'])
  })
})

describe('inputs answer in chunks', () => {
  const bold = { bold: true }
  const tinted = { fill: '#FFEE00', color: '#112233' }
  const many = Array.from({ length: 3000 }, (_, i): CellRecord => ({ address: `B${i + 1}`, row: i, col: 1, input: i % 2 === 0 ? `=A${i + 1}*2` : `note "${i}"`, value: null, type: 'empty', ...(i % 3 === 0 ? { style: i % 2 === 0 ? bold : tinted } : {}) }))
  const snapshot: WorkbookSnapshot = {
    format: 'finsheet-workbook',
    formatVersion: 1,
    name: 'Model "Q3"',
    revision: 12,
    sheets: [
      { id: 's1', name: 'Inputs', columnWidths: { '1': 140 }, merges: ['C1:D1'], view: { frozenRows: 1 }, cells: many },
      {
        id: 's2',
        name: 'Out',
        columnWidths: {},
        merges: [],
        cells: [
          { address: 'A1', row: 0, col: 0, input: '42', value: 42, type: 'number', userFormat: '0.0%' },
          // filled by a spill only: the client calculates it
          { address: 'A2', row: 1, col: 0, input: '', value: 3, type: 'number' },
          { address: 'C5', row: 4, col: 2, input: '', value: null, type: 'empty', suggestedFormat: '#,##0', style: bold },
        ],
      },
    ],
    definedNames: [{ name: 'Rate', formula: '=Inputs!$B$2' }],
    charts: [],
  }
  const options = { iterativeCalculation: true, iterationLimits: { maxIterations: 50, maxChange: 0.001 } }

  it('is the answer toInputsJson gives, in pieces of about 64 KB, styles numbered the same way', () => {
    const chunks = [...inputsAnswerChunks(snapshot, 'w9', ['Inputs', 'Out'], options)]
    expect(chunks.length).toBeGreaterThan(1)
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeLessThan(80 * 1024)
    const whole = toInputsJson(snapshot, 'w9', ['Inputs', 'Out'], options)
    expect(JSON.parse(chunks.join(''))).toEqual({ success: true, workbook: whole })
    expect(whole.sheets[1]).toMatchObject({ cells: [['A1', '42', -1, '0.0%'], ['C5', '', 0, '#,##0']], rowCount: 5, columnCount: 3 })
    expect(whole.styles).toEqual([bold, tinted])
  })

  it('as lines of JSON: the head with the sheets\' heads, runs of cells, each sheet\'s extent, the styles last; the same answer', () => {
    const lines = [...inputsAnswerLines(snapshot, 'w9', ['Inputs', 'Out'], options)]
    for (const line of lines) expect(line.endsWith('\n') && !line.slice(0, -1).includes('\n')).toBe(true)
    const parsed = lines.map((line) => JSON.parse(line) as InputsLine)
    expect(Object.keys(parsed[0])).toEqual(['workbook'])
    expect(Object.keys(parsed.at(-1)!)).toEqual(['styles'])
    // rebuilt as a client does, the lines are toInputsJson's answer
    const first = parsed[0] as Extract<InputsLine, { workbook: unknown }>
    const rebuilt: InputsResponse['workbook'] = { ...first.workbook, sheets: first.workbook.sheets.map((head) => ({ ...head, cells: [], rowCount: 0, columnCount: 0 })), styles: [] }
    let runs = 0
    const formattedRuns: boolean[] = []
    for (const line of parsed.slice(1)) {
      if ('rows' in line) {
        // cell i of a run: its row, column and input, its style and format only when the run has any
        expect([line.rows.length, line.cols.length]).toEqual([line.inputs.length, line.inputs.length])
        for (let i = 0; i < line.inputs.length; i++) rebuilt.sheets[line.sheet].cells.push([formatAddress(line.rows[i], line.cols[i]), line.inputs[i], line.styleIndexes?.[i] ?? -1, line.formats?.[i] ?? ''])
        formattedRuns.push(line.formats !== undefined)
        runs++
      } else if ('sheetEnd' in line) Object.assign(rebuilt.sheets[line.sheetEnd.sheet], { rowCount: line.sheetEnd.rowCount, columnCount: line.sheetEnd.columnCount })
      else if ('styles' in line) rebuilt.styles = line.styles
    }
    expect(runs).toBeGreaterThan(2)
    for (const line of lines) expect(line.length).toBeLessThan(80 * 1024)
    // the first sheet's cells have no format: its runs leave the formats out
    expect(formattedRuns.at(0)).toBe(false)
    expect(formattedRuns.at(-1)).toBe(true)
    expect(rebuilt).toEqual(toInputsJson(snapshot, 'w9', ['Inputs', 'Out'], options))
  })

  it("the cells route's answer, cell by cell in pieces, is toCellsJson's to the character, for the workbook or one sheet", () => {
    const head = { workbookId: 'w9', sheetOrder: ['Inputs', 'Out'], totalCells: 3003 }
    const chunks = [...cellsAnswerChunks(snapshot, head)]
    expect(chunks.length).toBeGreaterThan(2)
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeLessThan(80 * 1024)
    expect(chunks.join('')).toBe(JSON.stringify({ success: true, workbook: { ...toCellsJson(snapshot, { workbookId: 'w9' }), totalCells: 3003 } }))
    const out = [...cellsAnswerChunks({ ...snapshot, sheets: [snapshot.sheets[1]] }, head)].join('')
    expect(out).toBe(JSON.stringify({ success: true, workbook: { ...toCellsJson(snapshot, { workbookId: 'w9', sheet: 'Out' }), totalCells: 3003 } }))
    expect(JSON.parse(out).workbook.sheets[0].cells.A1).toMatchObject({ value: 42, input: '42', format: '0.0%' })
  })
})

describe('xlsx text XML can hold, merges of any size', () => {
  const hostile = 'a\u0000b\u001bc\ufffed\ud800e _x0041_'

  async function roundTrip(snapshot: Parameters<typeof writeXlsx>[0], write = writeXlsx) {
    const bytes = await write(snapshot)
    const zip = await JSZip.loadAsync(bytes)
    for (const name of Object.keys(zip.files).filter((part) => !zip.files[part].dir)) {
      const xml = await zip.file(name)!.async('string')
      // eslint-disable-next-line no-control-regex -- control characters are what it looks for
      expect(xml, name).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/)
    }
    const dir = mkdtempSync(join(tmpdir(), 'finsheet-safe-'))
    try {
      writeFileSync(join(dir, 'book.xlsx'), bytes)
      return { zip, read: await readXlsxFile(join(dir, 'book.xlsx')) }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  const snapshot = (cells: CellRecord[], merges: string[] = [], name = 'Data') => ({
    format: 'finsheet-workbook' as const,
    formatVersion: 1 as const,
    name: 'Book',
    revision: 1,
    sheets: [{ id: 's1', name, columnWidths: {}, merges, cells }],
    definedNames: [],
    charts: [],
  })

  it('escapes in cell text every character XML 1.0 forbids, and reads it back as it was', async () => {
    const { read } = await roundTrip(snapshot([text('A1', 0, 0, hostile)]))
    expect(read.sheets[0].cells[0].value).toBe(hostile)
    expect(xlsxText('plain')).toBe('plain')
    expect(xlsxText('\u0000')).toBe('_x0000_')
  })

  it('drops forbidden characters from sheet names, formulas and number formats, which have no escape', async () => {
    const cells: CellRecord[] = [
      { address: 'A1', row: 0, col: 0, input: '="x\u0001y"', value: 'xy', type: 'text' },
      { address: 'A2', row: 1, col: 0, input: '5', value: 5, type: 'number', userFormat: '0.0\u0002' },
    ]
    const { read } = await roundTrip(snapshot(cells, [], 'Q\u001b1\uffff'))
    expect(read.sheets[0].name).toBe('Q1')
    expect(xmlSafe('a\u0000\ud800b')).toBe('ab')
  })

  it('writes a merge over the whole sheet as a range, at once, and the first of overlapping merges', async () => {
    const started = performance.now()
    const { read } = await roundTrip(snapshot([text('A1', 0, 0, 'title')], ['A1:XFD1048576', 'B2:C3']))
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(read.sheets[0].merges).toEqual(['A1:XFD1048576'])
  })

  it('writes the same file in a worker thread', async () => {
    const cells = Array.from({ length: 3000 }, (_, i) => text(`A${i + 1}`, i, 0, i === 7 ? hostile : `row ${i}`))
    const { read } = await roundTrip(snapshot(cells, ['B1:C2']), (s) => writeXlsxOffThread(s, { batchCells: 1000 }))
    expect(read.sheets[0].cells).toHaveLength(3000)
    expect(read.sheets[0].cells[7].value).toBe(hostile)
    expect(read.sheets[0].merges).toEqual(['B1:C2'])
  })

  it('fails an export whose worker runs out of memory, and the process goes on', async () => {
    const cells = Array.from({ length: 200_000 }, (_, i) => text(`A${i + 1}`, i, 0, `a longer text in row ${i}`))
    await expect(writeXlsxOffThread(snapshot(cells), { memoryMb: 24 })).rejects.toMatchObject({ name: 'XlsxExportError', reason: 'memory' })
    expect(await writeXlsxOffThread(snapshot([text('A1', 0, 0, 'after')]))).toBeInstanceOf(Buffer)
  })
})
