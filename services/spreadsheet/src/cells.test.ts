import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_FORMULA_LENGTH } from '@finsheet/contracts'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let call: Call

beforeAll(async () => {
  t = await startTestApp()
  call = clientFor(t.app, await t.tokenFor('ada', 'Ada Lovelace'))
})
afterAll(async () => {
  await t.close()
})

async function newWorkbook(name = 'Model'): Promise<string> {
  const created = await call('POST', '/workbooks', { name })
  expect(created.status).toBe(201)
  return created.json.workbookId
}

const cellsOf = async (id: string, sheet?: string) => {
  const answer = await call('GET', `/workbook/${id}/cells${sheet ? `?sheet=${encodeURIComponent(sheet)}` : ''}`)
  expect(answer.status).toBe(200)
  return answer.json.workbook
}

const valueOf = async (id: string, sheet: string, address: string) => (await cellsOf(id, sheet)).sheets[0].cells[address]?.value ?? null

describe('update-cell and update-cells', () => {
  it('recalculates on the server and answers every cell whose value changed, on every sheet', async () => {
    const id = await newWorkbook()
    expect((await call('POST', `/workbook/${id}/sheets`, { name: 'Summary' })).status).toBe(201)
    const batch = await call('POST', '/update-cells', {
      workbookId: id,
      sheetName: 'Sheet1',
      updates: [
        { cellAddress: 'A1', value: 10 },
        { cellAddress: 'A2', value: '15%' },
        { cellAddress: 'A3', formula: 'A1*(1+A2)' },
        { cellAddress: 'B1', sheetName: 'Summary', formula: '=Sheet1!A3*2' },
      ],
    })
    expect(batch.status).toBe(200)
    expect(batch.json.changedCells).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sheet: 'Sheet1', address: 'A2', value: 0.15, input: '15%', format: '0%', display: '15%', type: 'number' }),
        expect.objectContaining({ sheet: 'Sheet1', address: 'A3', formula: '=A1*(1+A2)' }),
        expect.objectContaining({ sheet: 'Summary', address: 'B1', value: 23 }),
      ]),
    )
    const single = await call('POST', '/update-cell', { workbookId: id, sheetName: 'Sheet1', cellAddress: 'a1', value: 20, revision: batch.json.revision })
    expect(single.status).toBe(200)
    expect(single.json.merged).toBe(false)
    const changed = Object.fromEntries(single.json.changedCells.map((cell: { sheet: string; address: string; value: unknown }) => [`${cell.sheet}!${cell.address}`, cell.value]))
    expect(changed).toEqual({ 'Sheet1!A1': 20, 'Sheet1!A3': 23, 'Summary!B1': 46 })
    expect(single.json.revision).toBe(batch.json.revision + 1)

    const stored = await cellsOf(id)
    expect(stored.sheets.map((sheet: { name: string }) => sheet.name)).toEqual(['Sheet1', 'Summary'])
    expect(stored.sheets[0].cells.A3).toEqual({ value: 23, formula: '=A1*(1+A2)', input: '=A1*(1+A2)', type: 'number', format: null, style: null, display: '23' })
    expect(stored.totalCells).toBe(4)
    expect(stored.sheets[0]).toMatchObject({ rowCount: 3, columnCount: 1 })
  })

  it('keeps styles and number formats, clears content with null, and reports errors as values', async () => {
    const id = await newWorkbook()
    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'B2', value: 1234.5, format: '#,##0.00', style: { bold: true, fill: '#FFEEAA' } })
    let cell = (await cellsOf(id)).sheets[0].cells.B2
    expect(cell).toMatchObject({ value: 1234.5, display: '1,234.50', format: '#,##0.00', style: { bold: true, fill: '#FFEEAA' } })
    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'B2', value: null })
    cell = (await cellsOf(id)).sheets[0].cells.B2
    expect(cell).toMatchObject({ value: null, type: 'empty', input: '', style: { bold: true } })
    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'B2', style: null, format: null })
    expect((await cellsOf(id)).sheets[0].cells.B2).toBeUndefined()
    const error = await call('POST', '/update-cell', { workbookId: id, cellAddress: 'C1', formula: '=1/0' })
    expect(error.json.changedCells[0]).toMatchObject({ value: '#DIV/0!', type: 'error', display: '#DIV/0!' })
  })

  it('reads inputs, a table of styles and formats row by row without values, for a client that calculates', async () => {
    const id = await newWorkbook()
    const bold = { bold: true }
    await call('POST', '/update-cells', {
      workbookId: id,
      updates: [
        { cellAddress: 'B1', value: '15%' },
        { cellAddress: 'A1', value: 1234.5, format: '#,##0.00', style: bold },
        { cellAddress: 'A2', formula: '=SEQUENCE(2)' },
        { cellAddress: 'C2', value: null, style: bold },
      ],
    })
    await call('POST', `/workbook/${id}/sheets`, { name: 'Other' })
    await call('POST', '/update-cell', { workbookId: id, sheetName: 'Other', cellAddress: 'A1', formula: '=Sheet1!A1*2', style: { italic: true } })

    const all = await call('GET', `/workbook/${id}/inputs`)
    expect(all.status).toBe(200)
    const { workbook } = all.json
    expect(workbook).toMatchObject({ workbookId: id, sheetOrder: ['Sheet1', 'Other'], styles: [bold, { italic: true }] })
    // A3 is only filled by the spill: the client calculates it. B1's format is the one its input suggests.
    expect(workbook.sheets[0]).toMatchObject({
      name: 'Sheet1',
      cells: [
        ['A1', '1234.5', 0, '#,##0.00'],
        ['B1', '15%', -1, '0%'],
        ['A2', '=SEQUENCE(2)', -1, ''],
        ['C2', '', 0, ''],
      ],
      rowCount: 2,
      columnCount: 3,
    })
    expect(JSON.stringify(workbook)).not.toContain('1234.50')
    expect(workbook.sheets[1].cells).toEqual([['A1', '=Sheet1!A1*2', 1, '']])

    const one = (await call('GET', `/workbook/${id}/inputs?sheet=other`)).json.workbook
    expect(one.sheets.map((sheet: { name: string }) => sheet.name)).toEqual(['Other'])
    expect(one.styles).toEqual([{ italic: true }])
    expect((await call('GET', `/workbook/${id}/inputs?sheet=Missing`)).status).toBe(400)

    // rows inserted above: the cells are read where they stand now, still row by row
    expect((await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 1 }] })).status).toBe(200)
    const moved = (await call('GET', `/workbook/${id}/inputs?sheet=Sheet1`)).json.workbook.sheets[0]
    expect(moved).toMatchObject({
      cells: [
        ['A2', '1234.5', 0, '#,##0.00'],
        ['B2', '15%', -1, '0%'],
        ['A3', '=SEQUENCE(2)', -1, ''],
        ['C3', '', 0, ''],
      ],
      rowCount: 3,
      columnCount: 3,
    })
  })

  it('refuses bad input with 400 and a message, and writes nothing', async () => {
    const id = await newWorkbook()
    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'A1', value: 1 })
    const before = await cellsOf(id)
    const bad = [
      [{ workbookId: id, cellAddress: 'XFE1', value: 1 }, 'INVALID_ADDRESS', /Invalid cell address: "XFE1"/],
      [{ workbookId: id, cellAddress: 'A1048577', value: 1 }, 'INVALID_ADDRESS', /A1 to XFD1048576/],
      [{ workbookId: id, cellAddress: 'A0', value: 1 }, 'INVALID_ADDRESS', /A0/],
      [{ workbookId: id, sheetName: 'Nope', cellAddress: 'A1', value: 1 }, 'SHEET_NOT_FOUND', /Sheet not found: Nope/],
      [{ workbookId: id, cellAddress: 'A1', formula: '=' + '1+'.repeat(MAX_FORMULA_LENGTH / 2) + '1' }, 'FORMULA_TOO_LONG', /at most 8,192/],
      [{ workbookId: id, cellAddress: 'A1' }, 'NOTHING_TO_UPDATE', /Nothing to update/],
      [{ workbookId: id, cellAddress: 'A1', value: 2, format: '0.00"' }, 'INVALID_FORMAT', /Invalid number format/],
      [{ workbookId: id, cellAddress: 'A1', value: { nested: true } }, 'VALIDATION_FAILED', /value/],
    ] as const
    for (const [body, code, message] of bad) {
      const answer = await call('POST', '/update-cell', body)
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(answer.json.error.code).toBe(code)
      expect(answer.json.error.message).toMatch(message)
    }
    // One bad cell in a batch refuses the whole batch.
    const batch = await call('POST', '/update-cells', {
      workbookId: id,
      updates: [
        { cellAddress: 'A2', value: 5 },
        { cellAddress: 'ZZZZ9', value: 6 },
      ],
    })
    expect(batch.status).toBe(400)
    const tooMany = await call('POST', '/update-cells', { workbookId: id, updates: Array.from({ length: 20_001 }, (_, i) => ({ cellAddress: `A${i + 1}`, value: i })) })
    expect(tooMany.status).toBe(400)
    expect(tooMany.json.error.message).toMatch(/at most 20,000 cell updates/)
    const after = await cellsOf(id)
    expect(after).toEqual(before)
    // The service is still up and the engine still in step with the store.
    const next = await call('POST', '/update-cell', { workbookId: id, cellAddress: 'A2', formula: '=A1+1' })
    expect(next.json.changedCells[0].value).toBe(2)
  })

  it('loses nothing with 20 concurrent writers on one workbook, merging stale revisions cell by cell', async () => {
    const id = await newWorkbook()
    const base = (await call('GET', `/workbooks/${id}`)).json.workbook.revision
    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'Z1', formula: '=SUM(A1:A20)' })
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call('POST', '/update-cell', { workbookId: id, cellAddress: `A${i + 1}`, value: i + 1, revision: base })),
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200))
    expect(new Set(answers.map((answer) => answer.json.revision)).size).toBe(20)
    expect(answers.every((answer) => answer.json.merged)).toBe(true)
    const cells = (await cellsOf(id)).sheets[0].cells
    for (let i = 1; i <= 20; i++) expect(cells[`A${i}`]?.value).toBe(i)
    expect(cells.Z1.value).toBe(210)
    // The last writer was told about the cells the others changed meanwhile.
    const last = answers.find((answer) => answer.json.revision === base + 21)
    expect(last?.json.concurrentChanges.length).toBeGreaterThanOrEqual(19)
  })

  it('lets the latest write to a cell win and names the conflict', async () => {
    const id = await newWorkbook()
    const first = await call('POST', '/update-cell', { workbookId: id, cellAddress: 'C3', value: 'first' })
    const base = first.json.revision
    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'C3', value: 'theirs', revision: base })
    const mine = await call('POST', '/update-cell', { workbookId: id, cellAddress: 'C3', value: 'mine', revision: base })
    expect(mine.json).toMatchObject({ merged: true, conflicts: [{ sheet: 'Sheet1', address: 'C3' }] })
    expect(mine.json.message).toMatch(/latest write won/)
    expect(await valueOf(id, 'Sheet1', 'C3')).toBe('mine')
    const ahead = await call('POST', '/update-cell', { workbookId: id, cellAddress: 'C3', value: 'x', revision: mine.json.revision + 5 })
    expect(ahead.status).toBe(409)
    expect(ahead.json.error.code).toBe('UNKNOWN_REVISION')
  })
})

describe('edits made on an older revision', () => {
  it('land where their cells went after another client inserted a row, and are refused naming the cells when their row was deleted', async () => {
    const id = await newWorkbook()
    const typed = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A5', input: '10' }, { address: 'A9', input: '1' }] }] })
    const stale = typed.json.revision
    const inserted = await call('POST', `/workbook/${id}/changes`, { revision: stale, commands: [{ type: 'insert-rows', sheet: 'Sheet1', at: 2, count: 1 }] })
    expect(inserted.status).toBe(200)
    const late = await call('POST', `/workbook/${id}/changes`, { revision: stale, commands: [{ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'C5', input: '=A5*2' }] }] })
    expect(late.status).toBe(200)
    const sheet = (await cellsOf(id)).sheets[0]
    expect(sheet.cells.C5).toBeUndefined()
    expect(sheet.cells.C6).toMatchObject({ formula: '=A6*2', value: 20 })
    const deleted = await call('POST', `/workbook/${id}/changes`, { revision: late.json.revision, commands: [{ type: 'delete-rows', sheet: 'Sheet1', at: 9, count: 1 }] })
    expect(deleted.status).toBe(200)
    const lost = await call('POST', `/workbook/${id}/changes`, { revision: late.json.revision, commands: [{ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'B10', input: 'note' }] }] })
    expect(lost.status).toBe(409)
    expect(lost.json.error).toMatchObject({ code: 'STALE_EDIT' })
    expect(lost.json.error.message).toContain('Sheet1!B10')
    expect((await cellsOf(id)).sheets[0].cells.B10).toBeUndefined()
  })

  it('refuse a cell address that does not parse with 400 after a row was inserted since (a 500 before)', async () => {
    const id = await newWorkbook()
    const stale = (await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A1', input: '1' }] }] })).json.revision
    await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 2 }] })
    const late = await call('POST', `/workbook/${id}/changes`, { revision: stale, commands: [{ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'B2', input: '2' }, { address: 'A&s', input: '3' }] }] })
    expect(late.status).toBe(400)
    expect(late.json.error).toMatchObject({ code: 'INVALID_ADDRESS', message: 'Invalid cell address: "A&s" (addresses run from A1 to XFD1048576)' })
    expect((await cellsOf(id)).sheets[0].cells.B4).toBeUndefined()
  })

  it('follow a sheet renamed since, in the sheet they name and in their formulas', async () => {
    const id = await newWorkbook()
    const added = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'add-sheet', name: 'Inputs' }, { type: 'set-cells', sheet: 'Inputs', cells: [{ address: 'B2', input: '4' }] }] })
    const stale = added.json.revision
    await call('POST', `/workbook/${id}/changes`, { revision: stale, commands: [{ type: 'rename-sheet', from: 'Inputs', to: 'Drivers' }] })
    const late = await call('POST', `/workbook/${id}/changes`, {
      revision: stale,
      commands: [{ type: 'set-cells', sheet: 'Inputs', cells: [{ address: 'C2', input: 'x' }] }, { type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A1', input: '=Inputs!B2*3' }] }],
    })
    expect(late.status).toBe(200)
    expect((await cellsOf(id, 'Drivers')).sheets[0].cells.C2).toMatchObject({ value: 'x' })
    expect((await cellsOf(id, 'Sheet1')).sheets[0].cells.A1).toMatchObject({ formula: '=Drivers!B2*3', value: 12 })
  })
})

describe('undo per client', () => {
  it('reverts the change of the tab that asks, not the newest change of the user in another tab', async () => {
    const id = await newWorkbook()
    await call('POST', `/workbook/${id}/changes`, { clientId: 'tab-a', commands: [{ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A1', input: 'from a' }] }] })
    await call('POST', `/workbook/${id}/changes`, { clientId: 'tab-b', commands: [{ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'B1', input: 'from b' }] }] })
    const undone = await call('POST', `/workbook/${id}/undo`, { clientId: 'tab-a' })
    expect(undone.status).toBe(200)
    const cells = (await cellsOf(id)).sheets[0].cells
    expect(cells.A1).toBeUndefined()
    expect(cells.B1).toMatchObject({ value: 'from b' })
    expect(undone.json.canUndo).toBe(false)
    expect((await call('POST', `/workbook/${id}/redo`, { clientId: 'tab-b' })).status).toBe(409)
    expect((await call('POST', `/workbook/${id}/redo`, { clientId: 'tab-a' })).status).toBe(200)
  })
})

describe('history, undo and redo', () => {
  it('lists each change of a cell with old and new input, who and when', async () => {
    const id = await newWorkbook()
    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'B2', value: 1 })
    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'B2', formula: '=1+1' })
    const history = await call('GET', `/workbook/${id}/cell/Sheet1!B2/history`)
    expect(history.status).toBe(200)
    expect(history.json.history.map((entry: { oldInput: string; newInput: string }) => [entry.oldInput, entry.newInput])).toEqual([
      ['1', '=1+1'],
      ['', '1'],
    ])
    expect(history.json.history[0]).toMatchObject({ userId: 'ada', userName: 'Ada Lovelace', kind: 'edit', timestamp: expect.any(String) })
    expect((await call('GET', `/workbook/${id}/cell/b2/history?sheet=Sheet1`)).json.history).toHaveLength(2)
    expect((await call('GET', `/workbook/${id}/cell/B2:C3/history`)).status).toBe(400)
    expect((await call('GET', `/workbook/${id}/cell/B2/history?sheet=Nope`)).status).toBe(400)
  })

  it('undoes and redoes a whole batch, and a new edit clears redo', async () => {
    const id = await newWorkbook()
    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'A1', value: 1 })
    await call('POST', '/update-cells', {
      workbookId: id,
      label: 'Paste',
      source: 'paste',
      updates: [
        { cellAddress: 'A1', value: 100 },
        { cellAddress: 'A2', value: 200 },
        { cellAddress: 'A3', formula: '=A1+A2' },
      ],
    })
    const undo = await call('POST', `/workbook/${id}/undo`, {})
    expect(undo.status).toBe(200)
    expect(undo.json).toMatchObject({ target: { label: 'Paste' }, canUndo: true, canRedo: true })
    let cells = (await cellsOf(id)).sheets[0].cells
    expect(cells.A1.value).toBe(1)
    expect(cells.A2).toBeUndefined()
    expect(cells.A3).toBeUndefined()
    const redo = await call('POST', `/workbook/${id}/redo`, {})
    expect(redo.json.changedCells).toEqual(expect.arrayContaining([expect.objectContaining({ address: 'A3', value: 300 })]))
    expect((await call('POST', `/workbook/${id}/redo`, {})).status).toBe(409)
    await call('POST', `/workbook/${id}/undo`, {})
    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'D1', value: 'new' })
    const noRedo = await call('POST', `/workbook/${id}/redo`, {})
    expect(noRedo.status).toBe(409)
    expect(noRedo.json.error.message).toBe('Nothing to redo')
    cells = (await cellsOf(id)).sheets[0].cells
    expect(cells.A1.value).toBe(1)
  })

  it('redoes a change that added a sheet and filled it', async () => {
    const id = await newWorkbook()
    await call('POST', `/workbook/${id}/changes`, {
      commands: [
        { type: 'add-sheet', name: 'Notes', index: 0 },
        { type: 'set-cells', sheet: 'Notes', cells: [{ address: 'A1', input: 'hello' }, { address: 'A2', input: '=A1&"!"' }] },
      ],
    })
    await call('POST', `/workbook/${id}/undo`, {})
    expect((await call('GET', `/workbook/${id}/sheets`)).json.sheetOrder).toEqual(['Sheet1'])
    const redo = await call('POST', `/workbook/${id}/redo`, {})
    expect(redo.json.skipped).toEqual([])
    expect((await call('GET', `/workbook/${id}/sheets`)).json.sheetOrder).toEqual(['Notes', 'Sheet1'])
    expect((await cellsOf(id, 'Notes')).sheets[0].cells.A2.value).toBe('hello!')
  })

  it('answers an inserted row with the cells that show something new, not with every cell it moved', async () => {
    const id = await newWorkbook()
    await call('POST', '/update-cells', {
      workbookId: id,
      updates: [
        { cellAddress: 'A1', value: 1 },
        { cellAddress: 'A2', value: 2 },
        { cellAddress: 'A3', formula: '=SUM(A1:A2)' },
      ],
    })
    await call('POST', `/workbook/${id}/sheets`, { name: 'Other' })
    await call('POST', '/update-cell', { workbookId: id, sheetName: 'Other', cellAddress: 'A1', formula: '=Sheet1!A2*10' })

    const inserted = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'insert-rows', sheet: 'Sheet1', at: 1, count: 1 }] })
    expect(inserted.status).toBe(200)
    expect(inserted.json.structureChanged).toBe(true)
    expect(inserted.json.changedCells).toEqual([])
    const sheet = (await cellsOf(id, 'Sheet1')).sheets[0]
    expect(Object.keys(sheet.cells).sort()).toEqual(['A1', 'A3', 'A4'])
    expect(sheet.cells.A4).toMatchObject({ formula: '=SUM(A1:A3)', value: 3 })
    expect((await cellsOf(id, 'Other')).sheets[0].cells.A1).toMatchObject({ formula: '=Sheet1!A3*10', value: 20 })

    // With an edit in the same change, the edit and what it recalculates are listed, at their new places.
    const mixed = await call('POST', `/workbook/${id}/changes`, {
      commands: [
        { type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 1 },
        { type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A2', input: '5' }] },
      ],
    })
    expect(mixed.json.changedCells.map((cell: { sheet: string; address: string; value: unknown }) => [cell.sheet, cell.address, cell.value])).toEqual([
      ['Sheet1', 'A2', 5],
      ['Sheet1', 'A5', 7],
    ])
    expect(await valueOf(id, 'Sheet1', 'A5')).toBe(7)
    expect(await valueOf(id, 'Other', 'A1')).toBe(20)
  })

  it('undoes row deletion with the deleted cells and the formulas it broke', async () => {
    const id = await newWorkbook()
    await call('POST', '/update-cells', {
      workbookId: id,
      updates: [
        { cellAddress: 'A1', value: 1 },
        { cellAddress: 'A2', value: 2 },
        { cellAddress: 'A3', value: 3 },
        { cellAddress: 'A4', value: 4 },
        { cellAddress: 'B1', formula: '=A3*10' },
        { cellAddress: 'B2', formula: '=SUM(A2:A4)' },
        { cellAddress: 'C5', value: 'below', style: { italic: true } },
      ],
    })
    await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'merge-cells', sheet: 'Sheet1', range: 'A3:B3' }] })
    const deleted = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'delete-rows', sheet: 'Sheet1', at: 2, count: 2 }] })
    expect(deleted.status).toBe(200)
    expect(deleted.json.structureChanged).toBe(true)
    // Only what shows differently is listed: C5 moving up to C3 is the client's to do.
    expect(deleted.json.changedCells.map((cell: { address: string; value: unknown }) => [cell.address, cell.value])).toEqual([
      ['B1', '#REF!'],
      ['B2', 2],
    ])
    let sheet = (await cellsOf(id)).sheets[0]
    expect(sheet.cells.B1).toMatchObject({ formula: '=#REF!*10', value: '#REF!' })
    expect(sheet.cells.B2).toMatchObject({ formula: '=SUM(A2:A2)', value: 2 })
    expect(sheet.cells.C3).toMatchObject({ value: 'below', style: { italic: true } })
    expect(sheet.cells.C5).toBeUndefined()
    expect(sheet.merges).toEqual([])
    // History moves with the cells; the deleted cells' history goes with them.
    expect((await call('GET', `/workbook/${id}/cell/C3/history`)).json.history).toEqual([expect.objectContaining({ oldInput: '', newInput: 'below' })])
    expect((await call('GET', `/workbook/${id}/cell/C5/history`)).json.history).toEqual([])
    await call('POST', `/workbook/${id}/undo`, {})
    expect((await call('GET', `/workbook/${id}/cell/C5/history`)).json.history).toEqual([expect.objectContaining({ newInput: 'below' })])
    sheet = (await cellsOf(id)).sheets[0]
    expect(sheet.cells.B1).toMatchObject({ formula: '=A3*10', value: 30 })
    expect(sheet.cells.B2).toMatchObject({ formula: '=SUM(A2:A4)', value: 9 })
    expect(sheet.cells.A4.value).toBe(4)
    expect(sheet.cells.C5).toMatchObject({ value: 'below', style: { italic: true } })
    expect(sheet.cells.C3).toBeUndefined()
    expect(sheet.merges).toEqual(['A3:B3'])
  })
})

describe('cut and paste', () => {
  it('moves cells as one change that formulas follow, keeps it after a reload, and one undo puts everything back', async () => {
    const id = await newWorkbook()
    await call('POST', '/update-cells', {
      workbookId: id,
      updates: [
        { cellAddress: 'A1', value: 100, style: { bold: true } },
        { cellAddress: 'B1', formula: '=A1*2' },
        { cellAddress: 'D1', value: 7 },
        { cellAddress: 'E1', formula: '=D1+1' },
      ],
    })
    const moved = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'move-cells', sheet: 'Sheet1', range: 'A1', target: 'D1' }] })
    expect(moved.json).toMatchObject({ success: true })
    expect(moved.status).toBe(200)
    expect(moved.json.structureChanged).toBe(true)
    let sheet = (await cellsOf(id)).sheets[0]
    expect(sheet.cells.A1).toBeUndefined()
    expect(sheet.cells.D1).toMatchObject({ value: 100, style: { bold: true } })
    expect(sheet.cells.B1).toMatchObject({ formula: '=D1*2', value: 200 })
    // A reference to a cell the block landed on is lost, as in Excel.
    expect(sheet.cells.E1).toMatchObject({ formula: '=#REF!+1', value: '#REF!' })
    t.app.spreadsheet.cache.drop(id)
    sheet = (await cellsOf(id)).sheets[0]
    expect(sheet.cells.B1).toMatchObject({ formula: '=D1*2', value: 200 })
    expect((await call('POST', `/workbook/${id}/undo`, {})).status).toBe(200)
    sheet = (await cellsOf(id)).sheets[0]
    expect(sheet.cells.A1).toMatchObject({ value: 100, style: { bold: true } })
    expect(sheet.cells.B1).toMatchObject({ formula: '=A1*2', value: 200 })
    expect(sheet.cells.D1).toMatchObject({ value: 7 })
    expect(sheet.cells.E1).toMatchObject({ formula: '=D1+1', value: 8 })
  })

  it('refuses a move that cuts across a merged cell with 400, and changes nothing', async () => {
    const id = await newWorkbook()
    await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'merge-cells', sheet: 'Sheet1', range: 'A1:B1' }] })
    const refused = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'move-cells', sheet: 'Sheet1', range: 'A1', target: 'A5' }] })
    expect(refused.status).toBe(400)
    expect(refused.json.error.code).toBe('OVERLAPPING_MERGE')
    expect((await cellsOf(id)).sheets[0].merges).toEqual(['A1:B1'])
  })
})

describe('sheets', () => {
  it('adds, renames, reorders and deletes sheets; formulas follow and undo brings a sheet back', async () => {
    const id = await newWorkbook()
    const added = await call('POST', `/workbook/${id}/sheets`, {})
    expect(added.status).toBe(201)
    expect(added.json.sheetOrder).toEqual(['Sheet1', 'Sheet2'])
    await call('POST', '/update-cells', {
      workbookId: id,
      updates: [
        { sheetName: 'Sheet2', cellAddress: 'A1', value: 7 },
        { sheetName: 'Sheet1', cellAddress: 'A1', formula: '=Sheet2!A1*3' },
      ],
    })
    const renamed = await call('PATCH', `/workbook/${id}/sheets/Sheet2`, { name: 'Inputs', index: 0 })
    expect(renamed.status).toBe(200)
    expect(renamed.json.sheetOrder).toEqual(['Inputs', 'Sheet1'])
    let cells = await cellsOf(id, 'Sheet1')
    expect(cells.sheets[0].cells.A1).toMatchObject({ formula: '=Inputs!A1*3', value: 21 })
    expect((await call('PATCH', `/workbook/${id}/sheets/Inputs`, { name: 'sheet1' })).status).toBe(409)
    expect((await call('PATCH', `/workbook/${id}/sheets/Inputs`, { name: 'Bad[name]' })).status).toBe(400)
    expect((await call('PATCH', `/workbook/${id}/sheets/Nope`, { name: 'X' })).status).toBe(400)

    const removed = await call('DELETE', `/workbook/${id}/sheets/Inputs`)
    expect(removed.status).toBe(200)
    expect(removed.json.changedCells).toEqual(expect.arrayContaining([expect.objectContaining({ sheet: 'Sheet1', address: 'A1', value: '#REF!' })]))
    expect((await call('DELETE', `/workbook/${id}/sheets/Sheet1`)).json.error.code).toBe('LAST_SHEET')
    await call('POST', `/workbook/${id}/undo`, {})
    const sheets = await call('GET', `/workbook/${id}/sheets`)
    expect(sheets.json.sheetOrder).toEqual(['Inputs', 'Sheet1'])
    expect(sheets.json.sheets[0]).toMatchObject({ name: 'Inputs', cellCount: 1, formulaCount: 0 })
    cells = await cellsOf(id, 'Sheet1')
    expect(cells.sheets[0].cells.A1).toMatchObject({ formula: '=Inputs!A1*3', value: 21 })
    // Reads of one sheet carry only that sheet.
    expect(cells.sheets).toHaveLength(1)
    expect(cells.sheetOrder).toEqual(['Inputs', 'Sheet1'])
    expect((await call('GET', `/workbook/${id}/cells?sheet=Missing`)).status).toBe(400)
  })

  it('merges as the browser does: only the top-left content survives, the same after a reload, and unmerge undoes every merge it touches', async () => {
    const id = await newWorkbook()
    await call('POST', '/update-cells', {
      workbookId: id,
      sheetName: 'Sheet1',
      updates: [
        { cellAddress: 'A1', value: 1 },
        { cellAddress: 'B1', value: 2 },
        { cellAddress: 'C1', value: 3 },
        { cellAddress: 'D1', formula: '=SUM(A1:C1)' },
      ],
    })
    const merged = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'merge-cells', sheet: 'Sheet1', range: 'A1:C1' }] })
    expect(merged.status).toBe(200)
    const changed = Object.fromEntries(merged.json.changedCells.map((cell: { address: string; value: unknown }) => [cell.address, cell.value]))
    expect(changed).toEqual({ B1: null, C1: null, D1: 1 })
    const replica = await startTestApp({ replicaOf: t })
    try {
      const reloaded = clientFor(replica.app, await t.tokenFor('ada', 'Ada Lovelace'))
      const sheet = (await reloaded('GET', `/workbook/${id}/cells`)).json.workbook.sheets[0]
      expect(sheet.merges).toEqual(['A1:C1'])
      expect(sheet.cells.D1.value).toBe(1)
      expect(sheet.cells.B1).toBeUndefined()
    } finally {
      await replica.close()
    }
    await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'merge-cells', sheet: 'Sheet1', range: 'A5:B5' }, { type: 'merge-cells', sheet: 'Sheet1', range: 'D5:E6' }] })
    await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'unmerge-cells', sheet: 'Sheet1', range: 'B5:D5' }] })
    expect((await cellsOf(id)).sheets[0].merges).toEqual(['A1:C1'])
    await call('POST', `/workbook/${id}/undo`, {})
    expect([...(await cellsOf(id)).sheets[0].merges].sort()).toEqual(['A1:C1', 'A5:B5', 'D5:E6'])
  })

  it('applies a batch of commands atomically: a failing command leaves everything as it was', async () => {
    const id = await newWorkbook()
    const bad = await call('POST', `/workbook/${id}/changes`, {
      commands: [
        { type: 'add-sheet', name: 'Extra' },
        { type: 'set-cells', sheet: 'Extra', cells: [{ address: 'A1', input: 5 }] },
        { type: 'set-cells', sheet: 'Nowhere', cells: [{ address: 'A1', input: 5 }] },
      ],
    })
    expect(bad.status).toBe(400)
    expect((await call('GET', `/workbook/${id}/sheets`)).json.sheetOrder).toEqual(['Sheet1'])
    const good = await call('POST', `/workbook/${id}/changes`, {
      label: 'Set up inputs',
      commands: [
        { type: 'add-sheet', name: 'Extra' },
        { type: 'batch', label: 'fill', commands: [{ type: 'set-cells', sheet: 'Extra', cells: [{ address: 'A1', input: 5 }, { address: 'A2', input: '=A1*2' }] }] },
        { type: 'format-cells', sheet: 'Extra', ranges: ['A1:A2'], style: { bold: true }, format: '0.0' },
        { type: 'resize-column', sheet: 'Extra', column: 0, width: 150 },
      ],
    })
    expect(good.status).toBe(200)
    const extra = (await cellsOf(id, 'Extra')).sheets[0]
    expect(extra.cells.A2).toMatchObject({ value: 10, display: '10.0', style: { bold: true } })
    expect(extra.columnWidths).toEqual({ '0': 150 })
    const log = await call('GET', `/workbook/${id}/changes?since=${good.json.revision - 1}`)
    expect(log.json.changes).toEqual([
      expect.objectContaining({ revision: good.json.revision, kind: 'edit', label: 'Set up inputs', userName: 'Ada Lovelace', commands: expect.arrayContaining([{ type: 'resize-column', sheet: 'Extra', column: 0, width: 150 }]) }),
    ])
    await call('POST', `/workbook/${id}/undo`, {})
    expect((await call('GET', `/workbook/${id}/sheets`)).json.sheetOrder).toEqual(['Sheet1'])
  })
})
