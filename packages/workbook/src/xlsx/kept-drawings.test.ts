import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import JSZip from 'jszip'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WorkbookModel } from '../model/workbook-model.js'
import { writeXlsx } from '../export/xlsx.js'
import { formulaSheetNames, renameFormulaSheets, withKeptDrawings, type KeptDrawingPlacement } from './kept-drawings.js'
import { readXlsxFile } from './stream-xlsx.js'
import { CHART_WORKBOOK, makeChartWorkbook, PIXEL_PNG } from './test-chart-workbook.js'
import type { ImportedWorkbook } from '../import/imported-workbook.js'

const hasLibreOffice = spawnSync('soffice', ['--version'], { stdio: 'ignore', timeout: 60_000 }).status === 0

let folder: string
let imported: ImportedWorkbook

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'kept-drawings-'))
  writeFileSync(join(folder, 'charts.xlsx'), await makeChartWorkbook())
  imported = await readXlsxFile(join(folder, 'charts.xlsx'))
})

afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** The imported workbook as the app holds it (sheets s1, s2, s3), with each sheet's drawing placed by id. */
function workbookOf(): { model: WorkbookModel; placements: KeptDrawingPlacement[] } {
  const ids = ['s1', 's2', 's3']
  const model = new WorkbookModel({ sheets: imported.sheets.map((sheet, index) => ({ id: ids[index], name: sheet.name, columnWidths: {}, merges: [] })) })
  model.apply(
    imported.sheets.map((sheet) => ({
      type: 'set-cells' as const,
      sheet: sheet.name,
      cells: sheet.cells.map((cell) => ({ address: cell.address, input: cell.formula !== undefined ? `=${cell.formula}` : String(cell.value) })),
    })),
  )
  const sheetIds = Object.fromEntries(imported.sheets.map((sheet, index) => [sheet.name, ids[index]]))
  const placements = imported.sheets.flatMap((sheet, index) => (sheet.drawing ? [{ sheetId: ids[index], sheetIds, drawing: sheet.drawing }] : []))
  return { model, placements }
}

async function exported(model: WorkbookModel, placements: KeptDrawingPlacement[]) {
  const snapshot = model.snapshot('Charts')
  return withKeptDrawings(await writeXlsx(snapshot), snapshot.sheets, placements)
}

async function partText(zip: JSZip, path: string): Promise<string> {
  const file = zip.file(path)
  if (!file) throw new Error(`no part ${path}`)
  return file.async('string')
}

/** Each sheet's drawing part in an xlsx, by sheet name, following the sheet's relationships. */
async function drawingsBySheet(zip: JSZip): Promise<Map<string, string>> {
  const workbookXml = await partText(zip, 'xl/workbook.xml')
  const workbookRels = await partText(zip, 'xl/_rels/workbook.xml.rels')
  const drawings = new Map<string, string>()
  for (const match of workbookXml.matchAll(/<sheet [^>]*name="([^"]*)"[^>]*r:id="([^"]*)"/g)) {
    const target = new RegExp(`Id="${match[2]}"[^>]*Target="([^"]*)"`).exec(workbookRels)?.[1] ?? ''
    const part = target.startsWith('/') ? target.slice(1) : `xl/${target}`
    const rels = zip.file(part.replace(/([^/]+)$/, '_rels/$1.rels'))
    if (!rels) continue
    const drawing = /Type="[^"]*\/drawing" Target="\.\.\/drawings\/([^"]+)"/.exec(await rels.async('string'))?.[1]
    if (drawing) drawings.set(match[1].replace(/&apos;/g, "'"), `xl/drawings/${drawing}`)
  }
  return drawings
}

describe('charts and pictures of an imported workbook', () => {
  it('are read at import with the sheets their charts read, and left out of notKept counts', () => {
    const [data, costs, summary] = imported.sheets
    expect(data.drawing?.pictures).toBe(1)
    expect(data.drawing?.charts).toEqual([])
    expect(costs.drawing).toBeUndefined()
    expect(summary.drawing?.charts.map((chart) => chart.sheets)).toEqual([['Data'], ['Q1 Costs']])
    expect(summary.drawing?.parts.map((part) => part.path).sort()).toEqual(['xl/charts/chart1.xml', 'xl/charts/chart2.xml', 'xl/drawings/drawing2.xml'])
    expect(summary.carries?.charts).toBeUndefined()
    expect(data.carries?.pictures).toBeUndefined()
  })

  it('are written back unchanged on export, with content types, relationships and the drawing element', async () => {
    const { model, placements } = workbookOf()
    const { bytes, notExported } = await exported(model, placements)
    expect(notExported).toEqual([])
    const zip = await JSZip.loadAsync(bytes)
    const drawings = await drawingsBySheet(zip)
    expect([...drawings.keys()]).toEqual(['Data', 'Summary'])
    const summaryDrawing = await partText(zip, drawings.get('Summary') as string)
    expect(summaryDrawing.match(/<xdr:graphicFrame/g)).toHaveLength(2)
    const rels = await partText(zip, (drawings.get('Summary') as string).replace(/([^/]+)$/, '_rels/$1.rels'))
    const charts = [...rels.matchAll(/Target="\.\.\/charts\/([^"]+)"/g)].map((match) => `xl/charts/${match[1]}`)
    expect(charts).toHaveLength(2)
    const original = await JSZip.loadAsync(readFileSync(join(folder, 'charts.xlsx')))
    expect(await partText(zip, charts[0])).toBe(await partText(original, 'xl/charts/chart1.xml'))
    expect(await partText(zip, charts[1])).toBe(await partText(original, 'xl/charts/chart2.xml'))
    const types = await partText(zip, '[Content_Types].xml')
    for (const chart of charts) expect(types).toContain(`<Override PartName="/${chart}" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/>`)
    const pictureRels = await partText(zip, (drawings.get('Data') as string).replace(/([^/]+)$/, '_rels/$1.rels'))
    const image = /Target="\.\.\/media\/([^"]+)"/.exec(pictureRels)?.[1]
    expect(Buffer.from(await zip.file(`xl/media/${image}`)!.async('uint8array'))).toEqual(PIXEL_PNG)
    const summarySheet = await partText(zip, 'xl/worksheets/sheet3.xml')
    expect(summarySheet).toMatch(/<drawing r:id="rIdKeptDrawing"\/><\/worksheet>$/)
  })

  it('follow a renamed sheet: the chart formulas name it as the workbook does now', async () => {
    const { model, placements } = workbookOf()
    model.apply([{ type: 'rename-sheet', from: 'Q1 Costs', to: 'Costs' }, { type: 'rename-sheet', from: 'Summary', to: 'Overview' }])
    const { bytes, notExported } = await exported(model, placements)
    expect(notExported).toEqual([])
    const zip = await JSZip.loadAsync(bytes)
    const drawing = (await drawingsBySheet(zip)).get('Overview') as string
    const rels = await partText(zip, drawing.replace(/([^/]+)$/, '_rels/$1.rels'))
    const charts = await Promise.all([...rels.matchAll(/Target="\.\.\/charts\/([^"]+)"/g)].map((match) => partText(zip, `xl/charts/${match[1]}`)))
    expect(charts[0]).toContain('<c:f>Data!$B$2:$B$5</c:f>')
    expect(charts[1]).toContain('<c:f>Costs!$B$2:$B$4</c:f>')
    expect(charts[1]).not.toContain('Q1 Costs')
  })

  it('leave out a chart whose sheet was deleted, and say so, instead of writing a broken file', async () => {
    const { model, placements } = workbookOf()
    model.apply([{ type: 'delete-sheet', name: 'Q1 Costs' }])
    const { bytes, notExported } = await exported(model, placements)
    expect(notExported).toEqual(['charts: 1 not exported, the sheets they read were deleted (Q1 Costs)'])
    const zip = await JSZip.loadAsync(bytes)
    const drawing = await partText(zip, (await drawingsBySheet(zip)).get('Summary') as string)
    expect(drawing.match(/<xdr:graphicFrame/g)).toHaveLength(1)
    expect(Object.keys(zip.files).filter((name) => /^xl\/charts\/[^/]+\.xml$/.test(name))).toHaveLength(1)
  })

  it('leave out the drawing of a deleted sheet, counting its charts', async () => {
    const { model, placements } = workbookOf()
    model.apply([{ type: 'delete-sheet', name: 'Summary' }])
    const { bytes, notExported } = await exported(model, placements)
    expect(notExported).toEqual(['charts: 2 not exported, their sheets were deleted'])
    const zip = await JSZip.loadAsync(bytes)
    expect([...(await drawingsBySheet(zip)).keys()]).toEqual(['Data'])
  })

  it('join the pictures of charts made in Finsheet on the same sheet in one drawing', async () => {
    const { model, placements } = workbookOf()
    model.apply([
      {
        type: 'set-chart',
        sheet: 'Data',
        id: 'c1',
        chart: { type: 'bar', title: 'Made here', dataRange: 'A1:B5', seriesInColumns: true, createdAt: '2026-01-01T00:00:00.000Z', anchor: { from: { col: 3, row: 1, dx: 0, dy: 0 }, to: { col: 8, row: 12, dx: 0, dy: 0 } } },
      },
    ])
    const snapshot = model.snapshot('Charts')
    const { bytes, notExported } = await withKeptDrawings(await writeXlsx(snapshot), snapshot.sheets, placements)
    expect(notExported).toEqual([])
    const zip = await JSZip.loadAsync(bytes)
    const drawingPart = (await drawingsBySheet(zip)).get('Data') as string
    const drawing = await partText(zip, drawingPart)
    // The chart made here, drawn as a picture by the export, and the imported picture.
    expect(drawing.match(/<xdr:pic>/g)).toHaveLength(2)
    expect((await partText(zip, 'xl/worksheets/sheet1.xml')).match(/<drawing /g)).toHaveLength(1)
    const rels = await partText(zip, drawingPart.replace(/([^/]+)$/, '_rels/$1.rels'))
    const embeds = [...drawing.matchAll(/r:embed="([^"]+)"/g)].map((match) => match[1])
    for (const id of embeds) expect(rels).toMatch(new RegExp(`Id="${id}"[^>]*Target="\\.\\./media/[^"]+"`))
    expect(new Set(embeds).size).toBe(2)
  })

  it.skipIf(!hasLibreOffice)('open in LibreOffice with their charts and the same values', async () => {
    const { model, placements } = workbookOf()
    const { bytes } = await exported(model, placements)
    const work = mkdtempSync(join(tmpdir(), 'kept-drawings-office-'))
    try {
      writeFileSync(join(work, 'book.xlsx'), bytes)
      const office = (format: string, out: string) =>
        execFileSync('soffice', ['--headless', '--norestore', `-env:UserInstallation=file://${work}/profile`, '--convert-to', format, '--outdir', join(work, out), join(work, 'book.xlsx')], { timeout: 120_000, stdio: 'ignore' })
      // Saved again by LibreOffice: the charts it read come back as its own chart parts, reading the same ranges.
      office('xlsx', 'again')
      const again = await JSZip.loadAsync(readFileSync(join(work, 'again', 'book.xlsx')))
      const charts = await Promise.all(Object.keys(again.files).filter((name) => /^xl\/charts\/chart\d+\.xml$/.test(name)).map(async (name) => (await partText(again, name)).replace(/&apos;/g, "'")))
      expect(charts).toHaveLength(2)
      expect(charts.join('')).toContain('Data!$B$2:$B$5')
      expect(charts.join('')).toContain("'Q1 Costs'!$B$2:$B$4")
      expect(Object.keys(again.files).some((name) => /^xl\/media\//.test(name))).toBe(true)
      office('csv', 'csv')
      const [csv] = readdirSync(join(work, 'csv'))
      const rows = readFileSync(join(work, 'csv', csv), 'utf8').trim().split(/\r?\n/)
      expect(rows[0]).toBe('Year,Revenue')
      expect(rows.slice(1).map((row) => Number(row.split(',')[1]))).toEqual(CHART_WORKBOOK.revenue)
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  }, 240_000)
})

describe('chart formulas', () => {
  it('name the sheets they read, quoted or not', () => {
    expect(formulaSheetNames("(Data!$A$1,'Q1 ''x'''!$B$2:$B$4)")).toEqual(['Data', "Q1 'x'"])
  })

  it('are renamed sheet by sheet, quoting a name that needs it', () => {
    const renames = new Map([['DATA', 'Q1 Data'], ["Q1 'X'", 'Plain']])
    expect(renameFormulaSheets("(Data!$A$1,'Q1 ''x'''!$B$2,Other!$C$3)", (name) => renames.get(name.toUpperCase()))).toBe("('Q1 Data'!$A$1,Plain!$B$2,Other!$C$3)")
  })
})
