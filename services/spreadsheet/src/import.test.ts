/**
 * The bulk import: legacy (implicitly intersecting) and fixed-size array formulas kept through
 * import, storage, edits, export and reload; the recalculation report against the file's cached
 * values; the streamed form; and import ids that make a repeated import answer with the first one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import JSZip from 'jszip'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IMPORT_STREAM_CONTENT_TYPE } from '@finsheet/contracts'
import { readXlsxFile } from '@finsheet/workbook'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let call: Call
let token: string

beforeAll(async () => {
  t = await startTestApp()
  token = await t.tokenFor('importer')
  call = clientFor(t.app, token)
})
afterAll(async () => {
  await t.close()
})

/** A3:A5 hold 1, 2, 3; B4 reads the column as a legacy formula would (implicit intersection: row 4). */
const legacySheet = {
  name: 'Data',
  cells: [
    { address: 'A3', input: 1 },
    { address: 'A4', input: 2 },
    { address: 'A5', input: 3 },
    { address: 'B4', input: '=A3:A5*10', legacy: true, cached: 20 },
    { address: 'C3', input: '=A3:A5*2', arrayRange: 'C3:C5', cached: 2 },
    { address: 'D1', input: '=SUM(A3:A5)', cached: 6 },
    { address: 'E1', input: '=A3:A5+1', cached: 2 },
  ],
}

const cellsOf = async (id: string, sheet = 'Data') => (await call('GET', `/workbook/${id}/cells?sheet=${sheet}`)).json.workbook.sheets[0].cells

async function streamImport(lines: unknown[], raw?: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/workbooks/import',
    headers: { authorization: `Bearer ${token}`, 'content-type': IMPORT_STREAM_CONTENT_TYPE },
    payload: raw ?? lines.map((line) => JSON.stringify(line)).join('\n') + '\n',
  })
  return { status: response.statusCode, json: response.json() }
}

describe('import fidelity', () => {
  it('calculates legacy formulas with implicit intersection and fixed arrays over their range, and reports cached values that differ', async () => {
    const answer = await call('POST', '/workbooks/import', { name: 'Legacy', sheets: [legacySheet] })
    expect(answer.status, answer.body).toBe(201)
    expect(answer.json.repeated).toBe(false)
    // E1 is a dynamic-array formula (not legacy): it spills, and its own value is the first of the spill.
    expect(answer.json.recalculation).toEqual({ checked: 4, matched: 4, mismatchCount: 0, mismatches: [] })
    const id = answer.json.workbookId
    const cells = await cellsOf(id)
    expect(cells.B4.value).toBe(20)
    expect([cells.C3.value, cells.C4.value, cells.C5.value]).toEqual([2, 4, 6])
    expect([cells.E1.value, cells.E2.value, cells.E3.value]).toEqual([2, 3, 4])
  })

  it('lists formulas whose value differs from the cached one', async () => {
    const answer = await call('POST', '/workbooks/import', {
      name: 'Report',
      sheets: [
        {
          name: 'Sheet1',
          cells: [
            { address: 'A1', input: 2 },
            { address: 'B1', input: '=A1*3', cached: 6 },
            { address: 'B2', input: '=A1/0', cached: { error: '#DIV/0!' } },
            { address: 'B3', input: '=A1+1', cached: 99 },
            { address: 'B4', input: '=A1&"x"', cached: '2x' },
          ],
        },
      ],
    })
    expect(answer.json.recalculation).toEqual({
      checked: 4,
      matched: 3,
      mismatchCount: 1,
      mismatches: [{ sheet: 'Sheet1', address: 'B3', formula: '=A1+1', ours: 3, cached: 99 }],
    })
  })

  it('keeps legacy and array formulas through storage, edits, undo, row insertion and a reload of the engine', async () => {
    const id = (await call('POST', '/workbooks/import', { name: 'Kept', sheets: [legacySheet] })).json.workbookId
    t.app.spreadsheet.cache.drop(id)
    const edit = await call('POST', '/update-cell', { workbookId: id, sheetName: 'Data', cellAddress: 'A4', value: 5 })
    expect(edit.json.changedCells).toEqual(expect.arrayContaining([expect.objectContaining({ address: 'B4', value: 50 }), expect.objectContaining({ address: 'C4', value: 10 })]))

    // Inserting a row above moves the legacy formula with its flag: B5 now intersects row 5.
    await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'insert-rows', sheet: 'Data', at: 0, count: 1 }] })
    t.app.spreadsheet.cache.drop(id)
    let cells = await cellsOf(id)
    expect(cells.B5).toMatchObject({ formula: '=A4:A6*10', value: 50 })
    expect([cells.C4.value, cells.C5.value, cells.C6.value]).toEqual([2, 10, 6])
    await call('POST', '/update-cell', { workbookId: id, sheetName: 'Data', cellAddress: 'A5', value: 6 })
    expect((await cellsOf(id)).B5.value).toBe(60)

    // A formula typed over the legacy one is a dynamic-array formula; undo brings the legacy one back.
    const typed = await call('POST', '/update-cell', { workbookId: id, sheetName: 'Data', cellAddress: 'B5', formula: '=A4:A6*10' })
    expect(typed.status).toBe(200)
    cells = await cellsOf(id)
    expect([cells.B5.value, cells.B6.value, cells.B7.value]).toEqual([10, 60, 30])
    await call('POST', `/workbook/${id}/undo`, {})
    t.app.spreadsheet.cache.drop(id)
    await call('POST', '/update-cell', { workbookId: id, sheetName: 'Data', cellAddress: 'A5', value: 7 })
    cells = await cellsOf(id)
    expect(cells.B5.value).toBe(70)
    expect(cells.B6).toBeUndefined()
  })

  it('exports legacy formulas as plain formulas and fixed arrays over their range, and imports the file back the same', async () => {
    const id = (await call('POST', '/workbooks/import', { name: 'Round trip', sheets: [legacySheet] })).json.workbookId
    const exported = await call('GET', `/workbook/${id}/export?format=xlsx`)
    expect(exported.status).toBe(200)
    const dir = mkdtempSync(join(tmpdir(), 'finsheet-legacy-'))
    try {
      const path = join(dir, 'legacy.xlsx')
      writeFileSync(path, exported.raw)
      const read = await readXlsxFile(path)
      const byAddress = new Map(read.sheets[0].cells.map((cell) => [cell.address, cell]))
      expect(byAddress.get('B4')).toMatchObject({ formula: 'A3:A5*10', value: 20 })
      expect(byAddress.get('B4')?.arrayRange).toBeUndefined()
      expect(byAddress.get('C3')).toMatchObject({ formula: 'A3:A5*2', arrayRange: 'C3:C5', value: 2 })
      expect(byAddress.get('C5')).toMatchObject({ value: 6 })
      expect(byAddress.get('C5')?.formula).toBeUndefined()

      // The dynamic array is written over its spill, its spilled cells with their values, as Excel writes it.
      expect(byAddress.get('E1')).toMatchObject({ formula: 'A3:A5+1', arrayRange: 'E1:E3', dynamicArray: true })
      expect(byAddress.get('E3')).toMatchObject({ value: 4 })

      // As the files service sends a read file: plain formulas as legacy, the arrays' other cells left out.
      const again = await call('POST', '/workbooks/import', {
        name: 'Back',
        sheets: [
          {
            name: 'Data',
            cells: read.sheets[0].cells
              .filter((cell) => !['C4', 'C5', 'E2', 'E3'].includes(cell.address))
              .map((cell) =>
                cell.formula === undefined
                  ? { address: cell.address, input: cell.value as number }
                  : {
                      address: cell.address,
                      input: `=${cell.formula}`,
                      cached: cell.value as number,
                      ...(cell.dynamicArray ? {} : cell.arrayRange ? { arrayRange: cell.arrayRange } : { legacy: true }),
                    },
              ),
          },
        ],
      })
      expect(again.json.recalculation).toMatchObject({ checked: 4, mismatchCount: 0 })
      const cells = await cellsOf(again.json.workbookId)
      expect(cells.B4.value).toBe(20)
      expect([cells.C3.value, cells.C4.value, cells.C5.value]).toEqual([2, 4, 6])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses an array range that does not start at its cell, storing nothing', async () => {
    const before = (await call('GET', '/workbooks?limit=100')).json.total
    const answer = await call('POST', '/workbooks/import', { name: 'Bad', sheets: [{ name: 'S', cells: [{ address: 'B2', input: '=1', arrayRange: 'A1:B2' }] }] })
    expect(answer.status).toBe(400)
    expect(answer.json.error.code).toBe('INVALID_IMPORT')
    expect((await call('GET', '/workbooks?limit=100')).json.total).toBe(before)
  })
})

describe('the first version of an import', () => {
  it('holds every cell, dense or sparse, styled only or spilled, and restores to the imported workbook', async () => {
    const dense = Array.from({ length: 300 }, (_, i) => ({ address: `${'ABC'[i % 3]}${Math.floor(i / 3) + 1}`, input: i }))
    const sparse = [
      { address: 'A1', input: 1 },
      { address: 'XFD1048576', input: 'corner' },
      { address: 'M5000', input: '=SEQUENCE(2,2)' },
      { address: 'Q7', input: null, style: { bold: true } },
      { address: 'R8', input: null, format: '0.00' },
    ]
    const answer = await call('POST', '/workbooks/import', { name: 'Versioned', sheets: [{ name: 'Dense', cells: dense }, { name: 'Sparse', cells: sparse }] })
    const id = answer.json.workbookId
    const before = (await call('GET', `/workbook/${id}/cells`)).json.workbook.sheets
    const [version] = (await call('GET', `/workbook/${id}/versions`)).json.versions
    expect(version).toMatchObject({ number: 1, cells: 306, formulas: 1 })
    const same = await call('GET', `/workbook/${id}/versions/compare?from=${version.id}&to=current`)
    expect(same.json.summary).toEqual({ added: 0, removed: 0, changed: 0, inputsChanged: 0, valuesChanged: 0 })

    await call('POST', '/update-cells', { workbookId: id, sheetName: 'Sparse', updates: [{ cellAddress: 'Q7', value: 5 }, { cellAddress: 'A1', value: null }] })
    expect((await call('POST', `/workbook/${id}/versions/${version.id}/restore`, {})).status).toBe(200)
    expect((await call('GET', `/workbook/${id}/cells`)).json.workbook.sheets).toEqual(before)
  })
})

describe('the streamed import', () => {
  const header = { name: 'Streamed', styles: [{ bold: true }], sheets: [{ name: 'One', columnWidths: { '0': 120 } }, { name: 'Two', merges: ['A1:B1'] }] }

  it('reads a header, lines of cells for any sheet, and an end line', async () => {
    const answer = await streamImport([
      header,
      { sheet: 0, cells: [['A1', 4, { styleRef: 0 }], ['A2', '=A1*Two!A1', { cached: 12 }]] },
      { sheet: 1, cells: [['A1', 3]] },
      { sheet: 0, cells: [['A3', '=SUM(A1:A2)', { legacy: true, format: '0.00' }]] },
      { end: { cells: 4 } },
    ])
    expect(answer.status).toBe(201)
    expect(answer.json).toMatchObject({ cellCount: 4, formulaCount: 2, recalculation: { checked: 1, matched: 1 } })
    const id = answer.json.workbookId as string
    const one = await cellsOf(id, 'One')
    expect(one.A1).toMatchObject({ value: 4, style: { bold: true } })
    expect(one.A3).toMatchObject({ value: 16, format: '0.00', display: '16.00' })
    const full = (await call('GET', `/workbook/${id}`)).json.workbook
    expect(full.sheets.map((sheet: { name: string }) => sheet.name)).toEqual(['One', 'Two'])
  })

  it('reads lines of cells in columns, options by index, as it reads tuples', async () => {
    const answer = await streamImport([
      header,
      { sheet: 0, rows: [0, 1, 3, 4], cols: [0, 0, 0, 1], inputs: [4, '=A1*Two!A1', 'text', ''], optionsAt: [0, 1], options: [{ styleRef: 0 }, { cached: 12 }] },
      { sheet: 1, rows: [0], cols: [0], inputs: [3] },
      { sheet: 0, cells: [['A3', '=SUM(A1:A2)', { legacy: true, format: '0.00' }]] },
      { sheet: 0, rows: [5, 5], cols: [0, 2], inputs: ['=A3+1', null], optionsAt: [1], options: [{ format: '0%' }] },
      { end: { cells: 8 } },
    ])
    expect(answer.status).toBe(201)
    expect(answer.json).toMatchObject({ cellCount: 6, formulaCount: 3, recalculation: { checked: 1, matched: 1 } })
    const one = await cellsOf(answer.json.workbookId as string, 'One')
    expect(one.A1).toMatchObject({ value: 4, style: { bold: true } })
    expect(one.A2).toMatchObject({ value: 12 })
    expect(one.A3).toMatchObject({ value: 16, format: '0.00', display: '16.00' })
    expect(one.A4).toMatchObject({ value: 'text' })
    expect(one.B5).toBeUndefined()
    expect(one.A6).toMatchObject({ value: 17 })
    expect(one.C6).toMatchObject({ format: '0%' })
  })

  it('refuses a line in columns whose columns or options do not line up, or whose input breaks a limit, storing nothing', async () => {
    const before = (await call('GET', '/workbooks?limit=100')).json.total
    const line = (run: object) => streamImport([header, { sheet: 0, rows: [0, 1], cols: [0, 0], inputs: [1, 2], ...run }, { end: { cells: 2 } }])
    expect((await line({ cols: [0] })).json).toMatchObject({ error: { code: 'INVALID_IMPORT', message: 'Line 2 lists 2 rows, 1 columns and 2 inputs' } })
    expect((await line({ optionsAt: [0] })).json).toMatchObject({ error: { code: 'INVALID_IMPORT', message: 'Line 2 lists options at 1 cells but 0 options' } })
    expect((await line({ optionsAt: [1, 0], options: [{}, {}] })).json).toMatchObject({ error: { code: 'INVALID_IMPORT', message: 'Line 2 lists options at cells out of order' } })
    expect((await line({ optionsAt: [5], options: [{}] })).json).toMatchObject({ error: { code: 'INVALID_IMPORT', message: 'Line 2 lists options at cell 5 of 2' } })
    expect((await line({ rows: [0, 1_048_576] })).json).toMatchObject({ error: { code: 'INVALID_IMPORT' } })
    expect((await line({ inputs: [1, `=${'1+'.repeat(5000)}1`] })).json).toMatchObject({ error: { code: 'FORMULA_TOO_LONG', message: expect.stringContaining('A2') } })
    expect((await call('GET', '/workbooks?limit=100')).json.total).toBe(before)
  })

  it('stores nothing of a stream cut short, a line that breaks the contract, or a count that does not add up', async () => {
    const before = (await call('GET', '/workbooks?limit=100')).json.total
    const cut = await streamImport([header, { sheet: 0, cells: [['A1', 1]] }])
    expect(cut.status).toBe(400)
    expect(cut.json).toMatchObject({ error: { code: 'IMPORT_INCOMPLETE' } })
    const badLine = await streamImport([], JSON.stringify(header) + '\n{"sheet":0,"cells":[["A1"]]}\n{"end":{"cells":1}}\n')
    expect(badLine.status).toBe(400)
    expect(badLine.json).toMatchObject({ error: { code: 'INVALID_IMPORT' } })
    const notJson = await streamImport([], JSON.stringify(header) + '\n{"sheet":0,\n')
    expect(notJson.json).toMatchObject({ error: { code: 'INVALID_IMPORT', message: 'Line 2 of the import is not JSON' } })
    const miscounted = await streamImport([header, { sheet: 0, cells: [['A1', 1]] }, { end: { cells: 2 } }])
    expect(miscounted.json).toMatchObject({ error: { code: 'IMPORT_INCOMPLETE' } })
    const unknownSheet = await streamImport([header, { sheet: 5, cells: [] }, { end: { cells: 0 } }])
    expect(unknownSheet.status).toBe(400)
    const badAddress = await streamImport([header, { sheet: 0, cells: [['ZZZZ1', 1]] }, { end: { cells: 1 } }])
    expect(badAddress.json).toMatchObject({ error: { code: 'INVALID_ADDRESS' } })
    expect((await call('GET', '/workbooks?limit=100')).json.total).toBe(before)
  })

  it('answers 413 past the import limit', async () => {
    const small = await startTestApp({ importLimit: 2048 })
    try {
      const response = await small.app.inject({
        method: 'POST',
        url: '/workbooks/import',
        headers: { authorization: `Bearer ${await small.tokenFor('big')}`, 'content-type': IMPORT_STREAM_CONTENT_TYPE },
        payload: [JSON.stringify(header), JSON.stringify({ sheet: 0, cells: Array.from({ length: 200 }, (_, i) => [`A${i + 1}`, i]) }), '{"end":{"cells":200}}'].join('\n'),
      })
      expect(response.statusCode).toBe(413)
      expect((await clientFor(small.app, await small.tokenFor('big'))('GET', '/workbooks')).json.total).toBe(0)
    } finally {
      await small.close()
    }
  })
})

describe('import ids', () => {
  const body = (importId: string) => ({ name: 'Once', importId, sheets: [{ name: 'Sheet1', cells: [{ address: 'A1', input: 1 }, { address: 'A2', input: '=A1+1', cached: 5 }] }] })

  it('answer a repeated import with the workbook and report the first one stored', async () => {
    const first = await call('POST', '/workbooks/import', body('job-1'))
    expect(first.status).toBe(201)
    const second = await call('POST', '/workbooks/import', body('job-1'))
    expect(second.status).toBe(200)
    expect(second.json).toMatchObject({ workbookId: first.json.workbookId, repeated: true, recalculation: first.json.recalculation })
    expect(first.json.recalculation.mismatchCount).toBe(1)
    const streamed = await streamImport([{ name: 'Once', importId: 'job-1', sheets: [{ name: 'Sheet1' }] }, { sheet: 0, cells: [['A1', 1]] }, { end: { cells: 1 } }])
    expect(streamed).toMatchObject({ status: 200, json: { workbookId: first.json.workbookId, repeated: true } })
    const named = (await call('GET', '/workbooks?limit=100')).json.workbooks.filter((workbook: { name: string }) => workbook.name === 'Once')
    expect(named).toHaveLength(1)
  })

  it('store one workbook when the same import runs twice at once, and keep ids apart between users', async () => {
    const [a, b] = await Promise.all([call('POST', '/workbooks/import', { ...body('job-2'), name: 'Twice' }), call('POST', '/workbooks/import', { ...body('job-2'), name: 'Twice' })])
    expect([a.status, b.status].sort()).toEqual([200, 201])
    expect(a.json.workbookId).toBe(b.json.workbookId)
    expect((await call('GET', '/workbooks?limit=100')).json.workbooks.filter((workbook: { name: string }) => workbook.name === 'Twice')).toHaveLength(1)

    const other = clientFor(t.app, await t.tokenFor('someone-else'))
    const theirs = await other('POST', '/workbooks/import', { ...body('job-2'), name: 'Twice' })
    expect(theirs.status).toBe(201)
    expect(theirs.json.workbookId).not.toBe(a.json.workbookId)
  })

  it('import again once the workbook the id stored is deleted', async () => {
    const first = await call('POST', '/workbooks/import', body('job-3'))
    await call('DELETE', `/workbook/${first.json.workbookId}`)
    const again = await call('POST', '/workbooks/import', body('job-3'))
    expect(again.status).toBe(201)
    expect(again.json.workbookId).not.toBe(first.json.workbookId)
  })

  it("keeps the file's default font: the browser opens with it, the export and a copy write it", async () => {
    const answer = await call('POST', '/workbooks/import', { name: 'Fonts', defaultFont: { family: 'Cambria', size: 10 }, sheets: [{ name: 'Data', cells: [{ address: 'A1', input: 'x' }] }] })
    expect(answer.status, answer.body).toBe(201)
    const id = answer.json.workbookId as string
    expect((await call('GET', `/workbook/${id}/inputs`)).json.workbook.defaultFont).toEqual({ family: 'Cambria', size: 10 })
    const copy = await call('POST', `/workbooks/${id}/duplicate`, {})
    for (const workbookId of [id, copy.json.workbookId as string]) {
      const exported = await call('GET', `/workbook/${workbookId}/export?format=xlsx`)
      const styles = await (await JSZip.loadAsync(exported.raw)).file('xl/styles.xml')!.async('string')
      expect(styles).toMatch(/<fonts [^>]*><font><sz val="10"\/><color theme="1"\/><name val="Cambria"\/><\/font>/)
    }
    const bad = await call('POST', '/workbooks/import', { name: 'Bad font', defaultFont: { family: '', size: 0 }, sheets: [{ name: 'Data', cells: [] }] })
    expect(bad.status).toBe(400)
  })
})
