/**
 * The tools route and changesets through the spreadsheet app: turns that read and write, changesets
 * owned like workbooks, apply as one change, preview, discard, conflicts, approval, and the open
 * workbook left as the store holds it after every turn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AGENT_TOOLS } from '@finsheet/contracts'
import { modelImportBody } from '../testing/agent-workbook.js'
import { clientFor, type Call } from '../testing/client.js'
import { startTestApp, type TestApp } from '../testing/test-app.js'

let t: TestApp
let ada: Call
let eve: Call

beforeAll(async () => {
  t = await startTestApp()
  ada = clientFor(t.app, await t.tokenFor('ada'))
  eve = clientFor(t.app, await t.tokenFor('eve'))
})
afterAll(async () => {
  await t.close()
})

async function newModel(): Promise<string> {
  const answer = await ada('POST', '/workbooks/import', modelImportBody())
  expect(answer.status).toBe(201)
  return answer.json.workbookId
}

const calls = (...list: [string, unknown][]) => list.map(([name, args], index) => ({ id: `c${index}`, name, arguments: args }))

async function cell(id: string, sheet: string, address: string) {
  return (await ada('GET', `/workbook/${id}/cells?sheet=${sheet}`)).json.workbook.sheets[0].cells[address]
}

/** The open workbook's snapshot and the stored one, which every turn must leave equal. */
async function openAndStored(id: string): Promise<[unknown, unknown]> {
  const { workbooks } = t.app.spreadsheet
  const user = { uid: 'ada', email: 'ada@example.com', name: 'ada', anonymous: false }
  const open = await workbooks.withOpenWorkbook(id, user, async (workbook, state) => state.snapshot(workbook.name))
  const workbook = await workbooks.requireWorkbook(id, user)
  return [{ ...open, revision: 0 }, { ...(await workbooks.storedSnapshot(workbook)), revision: 0 }]
}

describe('the tools route', () => {
  it('offers fourteen tools whose parameters are plain JSON schemas', () => {
    expect(AGENT_TOOLS.map((tool) => tool.name)).toEqual([
      'get_workbook_overview',
      'read_range',
      'write_cells',
      'fill_formula',
      'move_cells',
      'validate_formula',
      'modify_structure',
      'format_range',
      'set_sheet_view',
      'search_workbook',
      'trace_dependencies',
      'explain_formula',
      'create_chart',
      'audit_workbook',
    ])
    for (const tool of AGENT_TOOLS) {
      expect(tool.parameters.type).toBe('object')
      expect(JSON.stringify(tool.parameters)).not.toMatch(/\[object|"~kind"/)
      expect(tool.description.length).toBeGreaterThan(60)
    }
  })

  it('runs a turn in order; bad calls answer as tool errors, never as a failed request; the store never sees the draft', async () => {
    const id = await newModel()
    const answer = await ada(
      'POST',
      `/workbook/${id}/agent-tools`,
      {
        calls: calls(
          ['get_workbook_overview', {}],
          ['read_me', {}],
          ['read_range', { sheet: 'FCF', range: 42 }],
          ['write_cells', { sheet: 'Assumptions', cells: [{ address: 'B2', input: '15%' }] }],
          ['write_cells', { sheet: 'Assumptions', cells: [{ address: 'B2', input: '15%' }], overwrite: true }],
          ['read_range', { sheet: 'FCF', range: { row: 'Revenue', column: 'FY2025' } }],
        ),
      },
    )
    expect(answer.status).toBe(200)
    expect(answer.headers['server-timing']).toMatch(/^tools;dur=/)
    const results = answer.json.results
    expect(results.map((result: { ok: boolean }) => result.ok)).toEqual([true, false, false, false, true, true])
    expect(results[1].error).toMatch(/There is no tool named "read_me"/)
    expect(results[2].error).toMatch(/range must be string/)
    expect(results[3].error).toMatch(/^Refused: 1 cell already holds something/)
    expect(results[4].summary).toBe('Writing 1 cell on Assumptions')
    expect(results[5].content.rows[0].cells.C2.value).toBeCloseTo(1150, 9)
    expect(answer.json.changesetId).toEqual(expect.any(String))
    expect(answer.json.changeset).toMatchObject({ status: 'draft', description: '1 cell on Assumptions', changeCount: 1, downstreamCount: 14, needsApproval: false })
    expect((await cell(id, 'Assumptions', 'B2')).value).toBe(0.1)
    const [open, stored] = await openAndStored(id)
    expect(open).toEqual(stored)
  })

  it('answers a turn that only reads with no changeset', async () => {
    const id = await newModel()
    const answer = await ada('POST', `/workbook/${id}/agent-tools`, { calls: calls(['search_workbook', { query: 'EBITDA' }]) })
    expect(answer.json).toMatchObject({ changesetId: null, changeset: null })
  })

  it("answers 404 for another user's workbook or changeset, and refuses more than the calls a turn may carry", async () => {
    const id = await newModel()
    const first = await ada('POST', `/workbook/${id}/agent-tools`, { calls: calls(['write_cells', { sheet: 'FCF', cells: [{ address: 'H1', input: 'x' }] }]) })
    const changesetId = first.json.changesetId
    expect((await eve('POST', `/workbook/${id}/agent-tools`, { calls: calls(['get_workbook_overview', {}]) })).status).toBe(404)
    expect((await eve('GET', `/changesets/${changesetId}`)).status).toBe(404)
    expect((await eve('POST', `/changesets/${changesetId}/apply`, {})).status).toBe(404)
    expect((await eve('POST', `/changesets/${changesetId}/discard`, {})).status).toBe(404)
    const eveBook = (await eve('POST', '/workbooks', { name: 'Eve' })).json.workbookId
    expect((await eve('POST', `/workbook/${eveBook}/agent-tools`, { changesetId, calls: calls(['get_workbook_overview', {}]) })).status).toBe(404)
    expect((await ada('GET', `/changesets/${changesetId}`)).json.changeset.status).toBe('draft')
    const tooMany = await ada('POST', `/workbook/${id}/agent-tools`, { calls: calls(...Array.from({ length: 26 }, (): [string, unknown] => ['get_workbook_overview', {}])) })
    expect(tooMany.status).toBe(400)
  })
})

describe('a changeset', () => {
  it('grows over several turns, reads see earlier turns, and applies as one change that one undo reverts', async () => {
    const id = await newModel()
    const first = await ada('POST', `/workbook/${id}/agent-tools`, {
      calls: calls(['write_cells', { sheet: 'FCF', cells: [{ address: 'F1', input: 'FY2028' }] }], ['fill_formula', { sheet: 'FCF', source: 'E2:E5', target: 'F2:F5' }]),
    })
    const changesetId = first.json.changesetId
    const second = await ada('POST', `/workbook/${id}/agent-tools`, {
      changesetId,
      calls: calls(['read_range', { sheet: 'FCF', range: { row: 'Free cash flow', column: 'FY2028' } }], ['write_cells', { sheet: 'Valuation', cells: [{ address: 'B1', input: '=NPV(Assumptions!B5,FCF!B5:F5)' }], overwrite: true }], ['format_range', { sheet: 'FCF', range: 'F1', style: { bold: true } }], ['create_chart', { sheet: 'FCF', range: 'A1:F2', type: 'bar', title: 'Revenue' }]),
    })
    expect(second.json.changesetId).toBe(changesetId)
    expect(second.json.results[0].content.resolved).toBe('FCF!F5')
    const preview = (await ada('GET', `/changesets/${changesetId}`)).json.changeset
    expect(preview).toMatchObject({ status: 'draft', applied: false, changeCount: 6, toolCalls: 6, description: '5 cells on FCF, 1 on Valuation; 1 range formatted; 1 chart' })
    expect(preview.downstream.map((effect: { text: string }) => effect.text)).toEqual([expect.stringMatching(/^Valuation!B3 \d/)])
    expect(preview.highlights).toEqual([{ sheet: 'FCF', range: 'F1:F5' }, { sheet: 'Valuation', range: 'B1' }])
    const revision = (await ada('GET', `/workbooks/${id}`)).json.workbook.revision

    const applied = await ada('POST', `/changesets/${changesetId}/apply`, { summary: 'Extended the forecast to FY2028' })
    expect(applied.status).toBe(200)
    expect(applied.json.changeset).toMatchObject({ status: 'applied', applied: true, appliedRevision: revision + 1 })
    expect(applied.json.change.revision).toBe(revision + 1)
    expect((await cell(id, 'FCF', 'F2')).formula).toBe('=E2*(1+Assumptions!$B$2)')
    expect((await ada('GET', `/workbook/${id}/charts`)).json.charts).toMatchObject([{ title: 'Revenue', type: 'bar', dataRange: 'A1:F2', sheet: 'FCF' }])
    const versions = (await ada('GET', `/workbook/${id}/versions`)).json.versions
    expect(versions[0]).toMatchObject({ type: 'major', aiSummary: 'Extended the forecast to FY2028' })

    const undone = await ada('POST', `/workbook/${id}/undo`, {})
    expect(undone.status).toBe(200)
    expect((await cell(id, 'FCF', 'F2'))).toBeUndefined()
    expect((await cell(id, 'Valuation', 'B1')).formula).toBe('=NPV(Assumptions!B5,FCF!B5:E5)')
    expect((await ada('POST', `/changesets/${changesetId}/apply`, {})).json.error.code).toBe('CHANGESET_CLOSED')
    const [open, stored] = await openAndStored(id)
    expect(open).toEqual(stored)
  })

  it('is kept when the only thing a turn adds is a chart, which applying adds to the workbook', async () => {
    const id = await newModel()
    const turn = await ada('POST', `/workbook/${id}/agent-tools`, { calls: calls(['create_chart', { sheet: 'FCF', range: 'A1:E2', type: 'line', title: 'Revenue' }]) })
    expect(turn.json.results[0].ok).toBe(true)
    expect(turn.json.changesetId).toEqual(expect.any(String))
    expect(turn.json.changeset).toMatchObject({ description: '1 chart', changeCount: 0 })
    expect((await ada('GET', `/workbook/${id}/charts`)).json.charts).toEqual([])
    expect((await ada('POST', `/changesets/${turn.json.changesetId}/apply`, {})).status).toBe(200)
    expect((await ada('GET', `/workbook/${id}/charts`)).json.charts).toMatchObject([{ type: 'line', title: 'Revenue', sheet: 'FCF', dataRange: 'A1:E2' }])
  })

  it('writes nothing while previewed, and nothing at all once discarded', async () => {
    const id = await newModel()
    const before = (await ada('GET', `/workbooks/${id}`)).json.workbook.revision
    const turn = await ada('POST', `/workbook/${id}/agent-tools`, { calls: calls(['modify_structure', { action: 'add_sheet', name: 'Scenarios' }], ['write_cells', { sheet: 'Scenarios', cells: [{ address: 'A1', input: 'Base' }] }]) })
    const changesetId = turn.json.changesetId
    expect((await ada('GET', `/workbooks/${id}`)).json.workbook).toMatchObject({ revision: before, sheets: ['Assumptions', 'FCF', 'Valuation'] })
    const discarded = await ada('POST', `/changesets/${changesetId}/discard`, {})
    expect(discarded.json.changeset.status).toBe('discarded')
    expect((await ada('POST', `/changesets/${changesetId}/apply`, {})).status).toBe(409)
    expect((await ada('POST', `/workbook/${id}/agent-tools`, { changesetId, calls: calls(['get_workbook_overview', {}]) })).json.error.code).toBe('CHANGESET_CLOSED')
    expect((await ada('GET', `/workbooks/${id}`)).json.workbook.revision).toBe(before)
  })

  it('is refused with 409 naming the cells when one of them changed since the preview, and applies once worked out again', async () => {
    const id = await newModel()
    const turn = await ada('POST', `/workbook/${id}/agent-tools`, { calls: calls(['write_cells', { sheet: 'Assumptions', cells: [{ address: 'B3', input: '30%' }, { address: 'C3', input: 'margin up' }], overwrite: true }]) })
    const changesetId = turn.json.changesetId
    await ada('POST', '/update-cell', { workbookId: id, sheetName: 'Assumptions', cellAddress: 'B3', value: '27%' })
    const refused = await ada('POST', `/changesets/${changesetId}/apply`, {})
    expect(refused.status).toBe(409)
    expect(refused.json.error).toMatchObject({ code: 'CHANGESET_CONFLICT', cells: [{ sheet: 'Assumptions', address: 'B3' }] })
    expect(refused.json.error.message).toMatch(/Assumptions!B3/)
    expect((await cell(id, 'Assumptions', 'C3'))).toBeUndefined()
    // Another turn works the changeset out on the workbook as it is now.
    await ada('POST', `/workbook/${id}/agent-tools`, { changesetId, calls: calls(['read_range', { sheet: 'Assumptions', range: 'B3' }]) })
    expect((await ada('POST', `/changesets/${changesetId}/apply`, {})).status).toBe(409)
    await ada('POST', `/workbook/${id}/agent-tools`, { changesetId, calls: calls(['write_cells', { sheet: 'Assumptions', cells: [{ address: 'B3', input: '30%' }] }]) })
    expect((await ada('POST', `/changesets/${changesetId}/apply`, {})).status).toBe(200)
    expect((await cell(id, 'Assumptions', 'B3')).value).toBe(0.3)
  })

  it('holds formulas that could reach the network until the user approves them', async () => {
    const id = await newModel()
    const turn = await ada('POST', `/workbook/${id}/agent-tools`, { calls: calls(['write_cells', { sheet: 'Valuation', cells: [{ address: 'C1', input: '=WEBSERVICE("https://fx.example/?v="&B1)' }] }]) })
    expect(turn.json.changeset).toMatchObject({ needsApproval: true, approvalReasons: [{ sheet: 'Valuation', address: 'C1', reason: 'WEBSERVICE fetches a web address' }] })
    const refused = await ada('POST', `/changesets/${turn.json.changesetId}/apply`, {})
    expect(refused.status).toBe(409)
    expect(refused.json.error.code).toBe('APPROVAL_REQUIRED')
    expect(refused.json.error.approvalReasons).toHaveLength(1)
    expect((await ada('POST', `/changesets/${turn.json.changesetId}/apply`, { approve: true })).status).toBe(200)
    expect((await cell(id, 'Valuation', 'C1')).formula).toMatch(/^=WEBSERVICE/)
  })

  it('no longer applies once the sheets it writes are gone: the turn says so', async () => {
    const id = await newModel()
    const turn = await ada('POST', `/workbook/${id}/agent-tools`, { calls: calls(['write_cells', { sheet: 'Valuation', cells: [{ address: 'D1', input: '1' }] }]) })
    await ada('DELETE', `/workbook/${id}/sheets/Valuation`)
    const next = await ada('POST', `/workbook/${id}/agent-tools`, { changesetId: turn.json.changesetId, calls: calls(['get_workbook_overview', {}]) })
    expect(next.status).toBe(409)
    expect(next.json.error).toMatchObject({ code: 'CHANGESET_STALE', message: expect.stringMatching(/Sheet not found: Valuation/) })
    expect((await ada('POST', `/changesets/${turn.json.changesetId}/apply`, {})).status).toBe(409)
  })

  it('is a draft again when an apply died part way, and a second apply of it waits while one runs', async () => {
    const id = await newModel()
    const turn = await ada('POST', `/workbook/${id}/agent-tools`, { calls: calls(['write_cells', { sheet: 'FCF', cells: [{ address: 'H2', input: '7' }] }]) })
    const changesetId = turn.json.changesetId
    const changesets = t.app.spreadsheet.repo.changesets()
    await changesets.update({ id: changesetId }, { status: 'applying', updatedAt: new Date().toISOString() })
    expect((await ada('POST', `/changesets/${changesetId}/apply`, {})).json.error.code).toBe('CHANGESET_BUSY')
    await changesets.update({ id: changesetId }, { updatedAt: new Date(Date.now() - 10 * 60_000).toISOString() })
    expect((await ada('POST', `/changesets/${changesetId}/apply`, {})).status).toBe(200)
    expect((await cell(id, 'FCF', 'H2')).value).toBe(7)
  })
})
