import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatAddress } from '@finsheet/formula'
import { MAX_EXTERNAL_CACHED_CELLS } from '@finsheet/contracts'
import { readXlsxFile, type ExternalLinkRecord, type ImportedWorkbook } from '@finsheet/workbook'
import { makeChartWorkbook } from '../../../../packages/workbook/src/xlsx/test-chart-workbook.js'
import { DATE_1904_OFFSET, inputOf, notKeptByFeature, prepareImport, type WorkbookImportBody } from './workbook-import-body.js'

function workbook(overrides: Partial<ImportedWorkbook> = {}): ImportedWorkbook {
  return {
    sheets: [
      {
        name: 'Data',
        state: 'visible',
        cells: [
          { row: 0, col: 0, address: 'A1', value: 10 },
          { row: 0, col: 1, address: 'B1', value: '0123', style: 0 },
          { row: 1, col: 0, address: 'A2', value: 20, formula: 'A1*2', style: 1 },
          { row: 2, col: 0, address: 'A3', value: 1, formula: 'SEQUENCE(2)', arrayRange: 'A3:A4' },
          { row: 3, col: 0, address: 'A4', value: 2 },
          { row: 2, col: 1, address: 'B3', value: 1, formula: 'SEQUENCE(2)', arrayRange: 'B3:B4', dynamicArray: true },
          { row: 3, col: 1, address: 'B4', value: 2 },
          { row: 4, col: 0, address: 'A5', value: null, style: 2 },
          { row: 5, col: 0, address: 'A6', value: { error: '#N/A' } },
        ],
        merges: ['C1:D1'],
        columns: [{ col: 0, width: 20 }, { col: 2, width: 10, hidden: true }],
        rows: [{ row: 0, height: 30 }],
        validations: [{ ranges: ['B1:B4'], type: 'list', formula1: '"Low,High"', showErrorMessage: true }],
        rowCount: 6,
        columnCount: 4,
      },
    ],
    definedNames: [{ name: 'Rate', formula: 'Data!$A$1' }],
    styles: [{ bold: true, fill: '#FFFF00', wrapText: true }, { numberFormat: '0.00', align: 'justify' }, { borders: { top: { style: 'thin' } } }],
    date1904: false,
    cellCount: 9,
    formulaCount: 3,
    ...overrides,
  }
}

describe('prepareImport', () => {
  it('sends inputs as typed, how each formula calculates with its cached value, formats and looks the model holds, and names what it leaves out', () => {
    const prepared = prepareImport(workbook(), 'Book')
    const body = prepared.body('job-1')
    expect(body.name).toBe('Book')
    expect(body.importId).toBe('job-1')
    expect(body.definedNames).toEqual([{ name: 'Rate', formula: '=Data!$A$1' }])
    expect(body.styles).toEqual([{ bold: true, fill: '#FFFF00', wrap: true }, { borders: { top: { line: 'thin' } } }])
    expect(body.sheets[0].cells).toEqual([
      { address: 'A1', input: 10 },
      { address: 'B1', input: "'0123", styleRef: 0 },
      // A plain formula is calculated as Excel did before dynamic arrays; a Ctrl+Shift+Enter array fills its range; a dynamic array spills.
      { address: 'A2', input: '=A1*2', format: '0.00', legacy: true, cached: 20 },
      { address: 'A3', input: '=SEQUENCE(2)', arrayRange: 'A3:A4', cached: 1 },
      { address: 'B3', input: '=SEQUENCE(2)', cached: 1 },
      { address: 'A5', input: null, styleRef: 1 },
      { address: 'A6', input: '#N/A' },
    ])
    // A hidden column keeps its width for when it is shown again; row heights come in pixels.
    expect(body.sheets[0].columnWidths).toEqual({ '0': 145, '2': 75 })
    expect(body.sheets[0].view).toEqual({ columns: { 2: { hidden: true } }, rows: { 0: { height: 40 } } })
    expect(body.sheets[0].merges).toEqual(['C1:D1'])
    // Data validation is kept, so it is not named among what is left out.
    expect(body.sheets[0].validations).toEqual([{ ranges: ['B1:B4'], type: 'list', formula1: '"Low,High"', showErrorMessage: true }])
    expect(prepared.notKept.sort()).toEqual(['justify alignment'])
  })

  it('writes the same workbook as the streamed form, a header, lines of cells and an end line, releasing each sheet once written', () => {
    const expected = prepareImport(workbook(), 'Book').body('job-2')
    const source = workbook()
    const lines = [...prepareImport(source, 'Book').lines({ importId: 'job-2' })]
    expect(lines.every((line) => line.endsWith('\n'))).toBe(true)
    const [header, ...rest] = lines.map((line) => JSON.parse(line))
    const end = rest.pop()
    const rebuilt: WorkbookImportBody = { ...header, sheets: header.sheets.map((sheet: object) => ({ ...sheet, cells: [] })) }
    for (const line of rest) {
      // Cells in columns, options by index: rebuilt as the cells of the JSON form.
      expect(line.rows).toHaveLength(line.inputs.length)
      expect(line.cols).toHaveLength(line.inputs.length)
      const optionsAt: number[] = line.optionsAt ?? []
      line.inputs.forEach((input: unknown, i: number) => {
        const options = optionsAt.includes(i) ? line.options[optionsAt.indexOf(i)] : {}
        rebuilt.sheets[line.sheet].cells.push({ address: formatAddress(line.rows[i], line.cols[i]), input, ...options })
      })
    }
    expect(rebuilt).toEqual(expected)
    expect(end).toEqual({ end: { cells: 7 } })
    expect(source.sheets[0].cells).toEqual([])
  })

  it('streams the same lines from cells read in batches, naming only the looks the cells sent use', async () => {
    const expected = [...prepareImport(workbook(), 'Book').lines({ importId: 'job-3' })]
    const streamed = async (keep: (address: string) => boolean) => {
      const cells = workbook().sheets.map((sheet) => sheet.cells.filter((cell) => keep(cell.address)))
      // As the file is read: the workbook holds every look but no cells, which arrive two at a time.
      const prepared = prepareImport(workbook({ sheets: workbook().sheets.map((sheet) => ({ ...sheet, cells: [] })) }), 'Book')
      const batches = async function* (index: number) {
        for (let at = 0; at < cells[index].length; at += 2) yield cells[index].slice(at, at + 2)
      }
      const lines: string[] = []
      for await (const line of prepared.streamLines(batches, { importId: 'job-3' })) lines.push(line)
      return { lines, notKept: prepared.notKept }
    }
    const all = await streamed(() => true)
    expect(all.lines).toEqual(expected)
    expect(all.notKept).toEqual(['justify alignment'])
    // A2 alone has the justified look: without it nothing is left out.
    const withoutA2 = await streamed((address) => address !== 'A2')
    expect(withoutA2.notKept).toEqual([])
    expect(JSON.parse(withoutA2.lines.at(-1) as string)).toEqual({ end: { cells: 6 } })
  })

  it('sends the tables of the file in the body and in the header of the streamed form, and no tables key without them', () => {
    const table = { name: 'Sales', sheet: 'Data', range: 'A1:B6', headerRow: true, totalsRow: false, columns: ['Units', 'Price'], style: 'TableStyleMedium2' }
    expect(prepareImport(workbook({ tables: [table] }), 'Book').body().tables).toEqual([table])
    const header = JSON.parse([...prepareImport(workbook({ tables: [table] }), 'Book').lines()][0].split('\n')[0]) as WorkbookImportBody
    expect(header.tables).toEqual([table])
    expect('tables' in prepareImport(workbook(), 'Book').body()).toBe(false)
  })

  it('sends the links to other workbooks with the values the file kept, in both forms', () => {
    const budget: ExternalLinkRecord = { target: 'file:///C:/Models/Budget.xlsx', sheets: [{ name: 'Sheet1', cells: { C8: 1250.5, B3: { error: '#DIV/0!' } } }, { name: 'Q1', cells: {}, refreshError: true }] }
    const dde = { target: 'Excel|Prices', sheets: [] }
    const body = prepareImport(workbook({ externalLinks: [budget, dde] }), 'Linked').body()
    expect(body.externalLinks).toEqual([budget, dde])
    const [header] = [...prepareImport(workbook({ externalLinks: [budget, dde] }), 'Linked').lines()].map((line) => JSON.parse(line))
    expect(header.externalLinks).toEqual([budget, dde])
    expect(prepareImport(workbook(), 'Plain').body()).not.toHaveProperty('externalLinks')
  })

  it('leaves out kept values under addresses the service does not take, and links past what a workbook may keep', () => {
    const odd = { target: 'Budget.xlsx', sheets: [{ name: 'Sheet1', cells: { A1: 1, $B$2: 2, c3: 3 } }] }
    expect(prepareImport(workbook({ externalLinks: [odd] }), 'Odd').body().externalLinks).toEqual([{ target: 'Budget.xlsx', sheets: [{ name: 'Sheet1', cells: { A1: 1 } }] }])
    const cells = Object.fromEntries(Array.from({ length: MAX_EXTERNAL_CACHED_CELLS + 1 }, (_, row) => [`A${row + 1}`, row]))
    const prepared = prepareImport(workbook({ externalLinks: [{ target: 'Huge.xlsx', sheets: [{ name: 'Data', cells }] }] }), 'Huge')
    expect(prepared.body()).not.toHaveProperty('externalLinks')
    expect(prepared.notKept).toContain('links to other workbooks (more than a workbook may keep)')
  })

  it('splits a large sheet into lines of about 64 KB', () => {
    const book = workbook({ sheets: [{ ...workbook().sheets[0], cells: Array.from({ length: 20_000 }, (_, i) => ({ row: i, col: 0, address: `A${i + 1}`, value: i })) }] })
    const lines = [...prepareImport(book, 'Big').lines()]
    expect(lines.length).toBeGreaterThan(4)
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(70 * 1024)
    expect(lines.slice(1, -1).reduce((sum, line) => sum + JSON.parse(line).rows.length, 0)).toBe(20_000)
  })

  it('moves dates of a 1904 workbook to the 1900 system, and only dates', () => {
    const book = workbook({
      date1904: true,
      styles: [{ numberFormat: 'yyyy-mm-dd' }, { numberFormat: '0.00' }],
      sheets: [
        {
          ...workbook().sheets[0],
          cells: [
            { row: 0, col: 0, address: 'A1', value: 43_859, style: 0 },
            { row: 1, col: 0, address: 'A2', value: 43_860, formula: 'A1+1', style: 0 },
            { row: 2, col: 0, address: 'A3', value: 5, style: 1 },
          ],
        },
      ],
    })
    const prepared = prepareImport(book, 'Mac')
    const cells = prepared.body().sheets[0].cells
    expect(cells.map((cell) => cell.input)).toEqual([43_859 + DATE_1904_OFFSET, '=A1+1', 5])
    expect(cells[1].cached).toBe(43_860 + DATE_1904_OFFSET)
  })

  it('keeps text that would read as something else as text', () => {
    expect(inputOf('TRUE')).toBe("'TRUE")
    expect(inputOf('=1+1')).toBe("'=1+1")
    expect(inputOf('1,000')).toBe("'1,000")
    expect(inputOf('plain')).toBe('plain')
    expect(inputOf('')).toBe("'")
    expect(inputOf({ error: '#DIV/0!' })).toBe('#DIV/0!')
  })
})

describe('notKeptByFeature', () => {
  const sheet = (name: string, carries?: ImportedWorkbook['sheets'][number]['carries']) => ({ name, state: 'visible' as const, cells: [], merges: [], columns: [], rows: [], rowCount: 0, columnCount: 0, ...(carries ? { carries } : {}) })

  it('names each feature the workbook does not keep with its count and the sheets it is on', () => {
    const lines = notKeptByFeature({
      sheets: [sheet('Summary', { charts: 4, pictures: 1 }), sheet('Returns', { charts: 2, pivotTables: 1 }), sheet('Cover', { pictures: 1, formControls: 3 }), sheet('Data')],
      chartSheets: ['Chart1'],
      macros: true,
    })
    expect(lines).toEqual([
      'charts: 7, on sheets Summary, Returns and Chart1',
      'pictures: 2, on sheets Summary and Cover',
      'pivot tables: 1, on sheet Returns',
      'form controls: 3, on sheet Cover',
      'macros (vbaProject)',
    ])
  })

  it('names nothing for a workbook carrying only what it keeps', () => {
    expect(notKeptByFeature({ sheets: [sheet('Data')] })).toEqual([])
  })

  it('reports them in the import body next to the looks it leaves out', () => {
    const prepared = prepareImport(workbook({ sheets: [{ ...workbook().sheets[0], carries: { slicers: 2 } }] }), 'Book')
    expect(prepared.notKept).toContain('slicers: 2, on sheet Data')
  })
})

describe('charts and pictures of an xlsx file', () => {
  it('travel in the import header as the file held them, and are not listed as not kept', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'import-body-charts-'))
    try {
      writeFileSync(join(folder, 'charts.xlsx'), await makeChartWorkbook())
      const prepared = prepareImport(await readXlsxFile(join(folder, 'charts.xlsx')), 'Charts')
      const header = JSON.parse(prepared.lines().next().value as string) as WorkbookImportBody
      expect(header.sheets.map((sheet) => sheet.drawing?.charts.length)).toEqual([0, undefined, 2])
      expect(header.sheets[0].drawing?.pictures).toBe(1)
      expect(header.sheets[2].drawing?.charts.map((chart) => chart.sheets)).toEqual([['Data'], ['Q1 Costs']])
      expect(prepared.notKept.filter((line) => /charts|pictures/.test(line))).toEqual([])
      // The file's first font is the workbook's default font.
      expect(header.defaultFont).toEqual({ family: 'Calibri', size: 11 })
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
