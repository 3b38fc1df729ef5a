import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildFinancialModel, calculateTemplate, TEMPLATE_COMPANY } from '@finsheet/workbook'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

const run = promisify(execFile)
let t: TestApp
let call: Call
let id: string
const dir = mkdtempSync(join(tmpdir(), 'finsheet-export-'))
/** The real estate template, where its IRR sits and what it comes to. */
const realEstate = buildFinancialModel('real-estate', TEMPLATE_COMPANY).template
const IRR = realEstate.keyOutputs.find((output) => output.label === 'Internal rate of return')!.address
const FLOWS = realEstate.keyOutputs.find((output) => output.label === 'Equity cash flows')!.address
const irrValue = calculateTemplate(realEstate).getValue('Analysis', IRR) as number

beforeAll(async () => {
  t = await startTestApp()
  call = clientFor(t.app, await t.tokenFor('exporter'))
  const created = await call('POST', '/workbooks', { name: 'Deal, "Final" €', templateId: 'real-estate-investment-analysis' })
  expect(created.status, created.body).toBe(201)
  id = created.json.workbookId
  await call('POST', `/workbook/${id}/sheets`, { name: 'Notes & Risks' })
  await call('POST', `/workbook/${id}/changes`, {
    commands: [
      {
        type: 'set-cells',
        sheet: 'Notes & Risks',
        cells: [
          { address: 'A1', input: "'=HYPERLINK(\"http://evil\",\"x\")" },
          { address: 'A2', input: "'+1+2" },
          { address: 'A3', input: "'-2" },
          { address: 'A4', input: "'@SUM(1)" },
          { address: 'A5', input: 'plain, with "quotes"\nand a line break' },
          { address: 'B1', input: -42.5 },
          { address: 'B2', input: '=1/0' },
          { address: 'B3', input: '2025-03-31' },
          { address: 'B4', input: 'TRUE' },
          { address: 'C1', input: `=Analysis!${IRR}*100`, format: '0.00' },
        ],
      },
      { type: 'merge-cells', sheet: 'Notes & Risks', range: 'D1:E2' },
      { type: 'resize-column', sheet: 'Notes & Risks', column: 0, width: 250 },
    ],
  })
})
afterAll(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

async function storedCells(sheet: string) {
  return (await call('GET', `/workbook/${id}/cells?sheet=${encodeURIComponent(sheet)}`)).json.workbook.sheets[0].cells as Record<string, { value: unknown; formula: string | null; format: string | null; type: string }>
}

describe('export', () => {
  it('writes csv of one sheet by RFC 4180 with formula-looking text escaped', async () => {
    const answer = await call('GET', `/workbook/${id}/export?format=csv&sheet=${encodeURIComponent('Notes & Risks')}`)
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toMatch(/^text\/csv/)
    expect(answer.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('Deal, "Final" € - Notes & Risks')}.csv`)
    // Values are written as calculated, at full precision (the IRR's last digits follow the engine's iteration).
    expect(answer.body.split('\r\n')[0]).toMatch(/^"'=HYPERLINK\(""http:\/\/evil"",""x""\)",-42\.5,11\.2439356558\d*/)
    const rows = parse(answer.body, { relax_column_count: true }) as string[][]
    expect(rows.map((row) => row[0])).toEqual(["'=HYPERLINK(\"http://evil\",\"x\")", "'+1+2", "'-2", "'@SUM(1)", 'plain, with "quotes"\nand a line break'])
    expect(rows.map((row) => row[1])).toEqual(['-42.5', '#DIV/0!', '2025-03-31', 'TRUE', ''])
    expect(Number(rows[0][2])).toBeCloseTo(irrValue * 100, 10)
    expect(answer.body.endsWith('\r\n')).toBe(true)
    expect((await call('GET', `/workbook/${id}/export?format=csv`)).body.split('\r\n')[0]).toBe(`${TEMPLATE_COMPANY} — Real Estate Investment Analysis,`)
  })

  it('writes json in the shape of the cells route, saying that nothing was left out', async () => {
    const exported = await call('GET', `/workbook/${id}/export?format=json`)
    const cells = await call('GET', `/workbook/${id}/cells`)
    expect(exported.headers['content-disposition']).toMatch(/\.json$/)
    expect(exported.json).toEqual({ ...cells.json, workbook: { ...cells.json.workbook, truncated: null } })
    const one = await call('GET', `/workbook/${id}/export?format=json&sheet=Inputs`)
    expect(one.json.workbook.sheets.map((sheet: { name: string }) => sheet.name)).toEqual(['Inputs'])
    expect((await call('GET', `/workbook/${id}/export?format=pdf`)).status).toBe(400)
    expect((await call('GET', `/workbook/${id}/export?format=csv&sheet=Nope`)).status).toBe(400)
  })

  it('writes xlsx with every sheet, formulas and their values, number formats, widths and merges', async () => {
    const answer = await call('GET', `/workbook/${id}/export?format=xlsx`)
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(answer.raw as unknown as ExcelJS.Buffer)
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Inputs', 'Analysis', 'Notes & Risks'])
    const analysis = workbook.getWorksheet('Analysis')!
    const irr = analysis.getCell(IRR)
    expect(irr.formula).toBe(`IRR(${FLOWS})`)
    expect((irr.value as ExcelJS.CellFormulaValue).result).toBeCloseTo(irrValue, 12)
    expect(irr.numFmt).toBe('0.0%')
    expect(irr.font.bold).toBe(true)
    expect(analysis.getColumn(1).width).toBeCloseTo((340 - 5) / 7, 1)
    const notes = workbook.getWorksheet('Notes & Risks')!
    expect(notes.getCell('A1').value).toBe('=HYPERLINK("http://evil","x")')
    expect(notes.getCell('B2').value).toEqual({ formula: '1/0', result: { error: '#DIV/0!' } })
    expect(notes.getCell('D1').isMerged).toBe(true)
    expect(notes.getCell('E2').master.address).toBe('D1')
  })

  it('opens in LibreOffice with the same values on every sheet', async () => {
    const xlsx = join(dir, 'export.xlsx')
    writeFileSync(xlsx, (await call('GET', `/workbook/${id}/export?format=xlsx`)).raw)
    await run(
      'soffice',
      [
        `-env:UserInstallation=file://${join(dir, 'profile')}`,
        '--headless',
        '--convert-to',
        // every sheet, raw values (not as shown), UTF-8
        'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1',
        '--outdir',
        dir,
        xlsx,
      ],
      { timeout: 120_000 },
    )
    const outputs = readdirSync(dir).filter((name) => name.endsWith('.csv'))
    expect(outputs.sort()).toEqual(['export-Analysis.csv', 'export-Inputs.csv', 'export-Notes & Risks.csv'])
    let compared = 0
    for (const sheet of ['Inputs', 'Analysis', 'Notes & Risks']) {
      const rows = parse(readFileSync(join(dir, `export-${sheet}.csv`), 'utf8'), { relax_column_count: true }) as string[][]
      const cells = await storedCells(sheet)
      for (const [address, cell] of Object.entries(cells)) {
        const col = address.charCodeAt(0) - 65
        const row = Number(address.slice(1)) - 1
        const shown = rows[row]?.[col] ?? ''
        if (cell.type === 'number') {
          const number = shown.endsWith('%') ? Number(shown.slice(0, -1)) / 100 : Number(shown)
          if (cell.format?.includes('/') || cell.format?.includes('yy')) continue
          expect(number, `${sheet}!${address}`).toBeCloseTo(cell.value as number, 8)
          compared++
        } else if (cell.type === 'text') expect(shown, `${sheet}!${address}`).toBe(cell.value)
        else if (cell.type === 'boolean') expect(shown.toUpperCase()).toBe(cell.value ? 'TRUE' : 'FALSE')
        else if (cell.type === 'error') expect(shown).toMatch(/^(#DIV\/0!|Err:)/)
      }
    }
    expect(compared).toBeGreaterThan(90)
  }, 120_000)
})
