/**
 * Files out, replayed through the gateway as a free anonymous account against the stack in a process
 * of its own: exports are bounded (CSV refused past its size before a byte is sent, far-apart cells
 * streamed without a grid, a whole-sheet merge written as one range), they never hold the event loop
 * that answers other users, and what they write is safe to open (CSV injection on every line of a
 * field, XML-illegal characters in xlsx). Names must be valid Unicode text.
 */
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startIsolatedStack, type Api, type IsolatedStack } from './support/isolated-stack.js'
import { newWorkbook, printFigures, setCells, whileAnotherUserEdits, type Figures, type Workbook } from './support/hostile.js'

const figures: Figures[] = []
let stack: IsolatedStack
let attacker: Api
let otherUser: Workbook

beforeAll(async () => {
  stack = await startIsolatedStack()
  attacker = await stack.anonymousUser()
  otherUser = await newWorkbook(await stack.anonymousUser(), 'Other user')
})

afterAll(async () => {
  printFigures('Exports: each reproduction through the gateway, while another user edits', figures)
  await stack?.stop()
})

const exportOf = (workbook: Workbook, format: string) => attacker('GET', `/api/spreadsheet/workbook/${workbook.id}/export?format=${format}`)

/** A workbook imported in one request, as the files service stores a parsed file. */
async function imported(name: string, sheets: { name: string; merges?: string[]; cells: { address: string; input: string | number }[] }[]): Promise<Workbook> {
  const answer = await attacker('POST', '/api/spreadsheet/workbooks/import', { name, sheets })
  expect(answer.status).toBe(201)
  const id = answer.json.workbookId as string
  return { id, change: (commands) => attacker('POST', `/api/spreadsheet/workbook/${id}/changes`, { commands }), cells: async () => ({}) }
}

const XML_FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

describe('CSV exports', () => {
  it('streams cells at A1 and XFD2000 (32.8 MB of commas) row by row', async () => {
    const workbook = await newWorkbook(attacker, 'Far apart')
    await workbook.change([setCells({ A1: 'first', XFD2000: 'last' })])
    const run = await whileAnotherUserEdits(stack, otherUser, 'CSV of A1 and XFD2000', () => exportOf(workbook, 'csv'))
    figures.push(run.figures)
    expect(run.answer.status).toBe(200)
    expect(Number(run.answer.headers.get('content-length'))).toBe(run.answer.bytes.length)
    expect(run.answer.bytes.length).toBe(2000 * (16_383 + 2) + 'first'.length + 'last'.length)
    expect(run.answer.text.startsWith('first,,')).toBe(true)
    expect(run.answer.text.endsWith(',last\r\n')).toBe(true)
  }, 120_000)

  it('refuses cells at A1 and XFD1048576 (17 GB; the process died of heap exhaustion) with 413 before sending a byte', async () => {
    const workbook = await newWorkbook(attacker, 'Corners')
    await workbook.change([setCells({ A1: 'first', XFD1048576: 'last' })])
    const run = await whileAnotherUserEdits(stack, otherUser, 'CSV of A1 and XFD1048576', () => exportOf(workbook, 'csv'))
    figures.push(run.figures)
    expect(run.answer.status).toBe(413)
    expect(run.answer.json.error.code).toBe('EXPORT_TOO_LARGE')
    expect(run.answer.json.error.message).toContain('an export can hold at most 256 MB')
    // The JSON and xlsx exports of the same sheet hold two cells and are answered.
    expect((await exportOf(workbook, 'json')).json.workbook.truncated).toBeNull()
    expect((await exportOf(workbook, 'xlsx')).status).toBe(200)
  }, 120_000)

  it("quotes a field with a bare line break and neutralises a formula on its second line (Note\\r=cmd|'/C calc'!A0)", async () => {
    const workbook = await newWorkbook(attacker, 'Injection')
    await workbook.change([setCells({ A1: "Note\r=cmd|'/C calc'!A0", B1: 'Line one\n@SUM(1)', C1: '=cmd' })])
    const answer = await exportOf(workbook, 'csv')
    expect(answer.status).toBe(200)
    expect(answer.text).toBe(`"Note\r'=cmd|'/C calc'!A0","Line one\n'@SUM(1)",#NAME?\r\n`)
    const rows = parse(answer.text) as string[][]
    expect(rows).toHaveLength(1)
    for (const field of rows[0]) for (const line of field.split(/\r\n|\r|\n/)) expect(line).not.toMatch(/^[=+\-@]/)
  })
})

describe('xlsx exports', () => {
  it('writes a whole-sheet merge from an import as one range (the process died after 110 s)', async () => {
    const workbook = await imported('Merged sheet', [{ name: 'Sheet1', merges: ['A1:XFD1048576'], cells: [{ address: 'A1', input: 'title' }] }])
    const run = await whileAnotherUserEdits(stack, otherUser, 'xlsx of a whole-sheet merge', () => exportOf(workbook, 'xlsx'))
    figures.push(run.figures)
    expect(run.answer.status).toBe(200)
    const sheet = await (await JSZip.loadAsync(run.answer.bytes)).file('xl/worksheets/sheet1.xml')!.async('string')
    expect(sheet).toContain('<mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells>')
  }, 120_000)

  it('answers another user while a large export is written: the edit is answered before the export', async () => {
    const cells = Array.from({ length: 100_000 }, (_, i) => ({ address: `${String.fromCharCode(65 + (i % 10))}${Math.floor(i / 10) + 1}`, input: i % 10 === 0 ? `label ${i}` : i }))
    const workbook = await imported('Large', [{ name: 'Data', cells }])
    const exporting = exportOf(workbook, 'xlsx')
    // The edit is sent once the export is under way, and answered while the worker writes the file.
    await new Promise((resolve) => setTimeout(resolve, 500))
    const edit = await otherUser.change([setCells({ B1: 'during the export' })])
    const exported = await exporting
    expect(edit.status).toBe(200)
    expect(exported.status).toBe(200)
    expect(edit.at).toBeLessThan(exported.at)
    figures.push({
      reproduction: 'xlsx of 100,000 cells (another user edits once, 500 ms in)',
      answer: `200, ${(exported.bytes.length / 1024).toFixed(0)} KB; the edit answered ${Math.round(exported.at - edit.at)} ms before it`,
      ms: Math.round(exported.ms),
      peakMb: stack.peakMemoryMb(),
      otherEdits: 1,
      otherEditsAnsweredFirst: 1,
      otherEditMaxMs: Math.round(edit.ms),
    })
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(exported.bytes as unknown as ExcelJS.Buffer)
    expect(book.worksheets[0].getCell('J10000').value).toBe(99_999)
  }, 180_000)

  it('writes characters XML forbids in cell text as escapes, so that strict readers open the file', async () => {
    const workbook = await newWorkbook(attacker, 'Control characters')
    const hostile = 'nul\u0000 esc\u001b bom\ufffe'
    await workbook.change([setCells({ A1: hostile, A2: '="a"&A1' })])
    const answer = await exportOf(workbook, 'xlsx')
    expect(answer.status).toBe(200)
    const zip = await JSZip.loadAsync(answer.bytes)
    for (const name of Object.keys(zip.files).filter((part) => !zip.files[part].dir)) {
      expect(await zip.file(name)!.async('string'), name).not.toMatch(XML_FORBIDDEN)
    }
    expect(await zip.file('xl/sharedStrings.xml')!.async('string')).toContain('nul_x0000_ esc_x001B_ bom_xFFFE_')
  })
})

describe('names', () => {
  it('refuses a workbook or sheet name with half a character (400), and the export of a good one is answered', async () => {
    const refused = await attacker('POST', '/api/spreadsheet/workbooks', { name: 'Q1 \ud83d' })
    expect(refused.status).toBe(400)
    expect(refused.json.error.code).toBe('INVALID_NAME_TEXT')
    const workbook = await newWorkbook(attacker, 'Q1 📈')
    expect((await workbook.change([{ type: 'add-sheet', name: 'Data \udc00' }])).status).toBe(400)
    expect((await attacker('PATCH', `/api/spreadsheet/workbooks/${workbook.id}`, { name: '\u0007bell' })).status).toBe(400)
    const exported = await exportOf(workbook, 'xlsx')
    expect(exported.status).toBe(200)
    expect(exported.headers.get('content-disposition')).toContain(encodeURIComponent('Q1 📈'))
  })
})
