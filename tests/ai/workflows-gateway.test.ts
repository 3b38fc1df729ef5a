/**
 * Workflows as the web app reaches them: /api/ai/workflows through the gateway on the all-in-one
 * stack. Runs go through the ai service's embedded job queue (the worker asks the users service for
 * the user's token), carry out their command steps with the offline planner on a real workbook,
 * audit it, save versions and import uploads; every case reads the workbook back.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_WORKFLOW_STEPS, MAX_WORKFLOWS_PER_USER, WORKFLOW_TEMPLATES, WorkflowRun } from '@finsheet/contracts'
import { startAllInOne, type AllInOne } from '@finsheet/standalone'

const root = mkdtempSync(join(tmpdir(), 'finsheet-workflows-'))
let stack: AllInOne
let ada: Api
let eve: Api

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any
type Answer = { status: number; json: Json; text: string }
type Api = (method: string, path: string, body?: unknown) => Promise<Answer>

function api(token: string): Api {
  return async (method, path, body) => {
    const response = await fetch(`${stack.url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, text, json: (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined }
  }
}

async function signUp(email: string): Promise<{ api: Api; token: string }> {
  const response = await fetch(`${stack.url}/api/users/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'amber-otter-42', fullName: email }) })
  expect(response.status).toBe(201)
  const token = ((await response.json()) as { token: string }).token
  return { api: api(token), token }
}

let adaToken: string
beforeAll(async () => {
  stack = await startAllInOne({ port: 0, dataDir: join(root, 'data'), logger: false, webRoot: join(root, 'no-web-build'), env: { RATE_LIMIT_MAX: '100000', AUTOSAVE_QUIET_MS: '0' } })
  const signedUp = await signUp('ada@example.com')
  ada = signedUp.api
  adaToken = signedUp.token
  eve = (await signUp('eve@example.com')).api
})
afterAll(async () => {
  await stack?.close()
  rmSync(root, { recursive: true, force: true })
})

const YEARS = ['FY2024', 'FY2025', 'FY2026', 'FY2027', 'FY2028']
/** A forecast sheet: years across, Revenue and Costs down, flat revenue after the first year. */
async function forecastWorkbook(name: string): Promise<string> {
  const created = await ada('POST', '/spreadsheet/workbooks', { name })
  expect(created.status).toBe(201)
  const id: string = created.json.workbookId
  const columns = ['B', 'C', 'D', 'E', 'F']
  const updates = [
    { cellAddress: 'A1', value: '($k)' },
    ...YEARS.map((year, i) => ({ cellAddress: `${columns[i]}1`, value: year })),
    { cellAddress: 'A2', value: 'Revenue' },
    ...columns.map((column) => ({ cellAddress: `${column}2`, value: 1000 })),
    { cellAddress: 'A3', value: 'Costs' },
    ...columns.map((column) => ({ cellAddress: `${column}3`, value: 600 })),
  ]
  expect((await ada('POST', '/spreadsheet/update-cells', { workbookId: id, sheetName: 'Sheet1', updates })).status).toBe(200)
  return id
}

type Cell = { value: unknown; input: string; style: { bold?: boolean } | null }
async function cellsOf(id: string): Promise<Record<string, Cell>> {
  const answer = await ada('GET', `/spreadsheet/workbook/${id}`)
  expect(answer.status).toBe(200)
  return answer.json.workbook.sheets[0].cells
}

async function finished(runId: string, as: Api = ada): Promise<WorkflowRun> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const answer = await as('GET', `/ai/workflows/runs/${runId}`)
    expect(answer.status, answer.text).toBe(200)
    const run = answer.json.run as WorkflowRun
    if (run.status === 'completed' || run.status === 'failed') return run
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const template = (id: string) => WORKFLOW_TEMPLATES.find((candidate) => candidate.id === id)!
const createFrom = async (id: string) => {
  const { name, description, steps } = template(id)
  const answer = await ada('POST', '/ai/workflows', { name, description, steps, templateId: id })
  expect(answer.status, answer.text).toBe(201)
  return answer.json.workflow
}

describe('workflows', () => {
  it('lists the built-in templates, and saves, reads, updates, lists and deletes a workflow of the user’s own', async () => {
    const templates = await ada('GET', '/ai/workflows/templates')
    expect(templates.json.templates.map((t: { name: string }) => t.name)).toEqual(['Monthly Financial Report', 'Data Validation Check', 'Revenue Forecast Update'])

    const created = await ada('POST', '/ai/workflows', { name: '  Close the month ', steps: [{ kind: 'audit' }, { kind: 'snapshot', text: 'Closed' }] })
    expect(created.status, created.text).toBe(201)
    const workflow = created.json.workflow
    expect(workflow).toMatchObject({ name: 'Close the month', description: '', model: 'local', steps: [{ kind: 'audit', text: '' }, { kind: 'snapshot', text: 'Closed' }], templateId: null, lastRun: null })
    expect((await ada('GET', `/ai/workflows/${workflow.id}`)).json.workflow.name).toBe('Close the month')

    const updated = await ada('PUT', `/ai/workflows/${workflow.id}`, { name: 'Close', steps: [{ kind: 'command', text: 'make row 1 bold' }] })
    expect(updated.status, updated.text).toBe(200)
    expect(updated.json.workflow).toMatchObject({ id: workflow.id, name: 'Close', steps: [{ kind: 'command', text: 'make row 1 bold' }], createdAt: workflow.createdAt })
    expect((await ada('GET', '/ai/workflows')).json.workflows.map((w: { id: string }) => w.id)).toContain(workflow.id)

    // Another user's workflow is not found, exactly as a missing one.
    const missing = await ada('GET', '/ai/workflows/no-such-workflow')
    for (const [method, path, body] of [
      ['GET', `/ai/workflows/${workflow.id}`],
      ['PUT', `/ai/workflows/${workflow.id}`, { name: 'Mine now', steps: [{ kind: 'audit' }] }],
      ['DELETE', `/ai/workflows/${workflow.id}`],
      ['POST', `/ai/workflows/${workflow.id}/run`, { workbookId: 'defaultWorkbook' }],
      ['GET', `/ai/workflows/${workflow.id}/runs`],
    ] as const) {
      const answer = await eve(method, path, body)
      expect(answer.status, `${method} ${path}`).toBe(404)
      expect(answer.json).toEqual(missing.json)
    }
    expect((await eve('GET', '/ai/workflows')).json.workflows).toEqual([])
    expect((await ada('GET', `/ai/workflows/${workflow.id}`)).json.workflow.name).toBe('Close')

    expect((await ada('DELETE', `/ai/workflows/${workflow.id}`)).status).toBe(200)
    expect((await ada('GET', `/ai/workflows/${workflow.id}`)).status).toBe(404)
  })

  it('refuses a bad workflow with a 400 saying what to fix, and stores nothing', async () => {
    const before = (await ada('GET', '/ai/workflows')).json.workflows.length
    const cases: Array<[unknown, RegExp]> = [
      [{ name: '   ', steps: [{ kind: 'audit' }] }, /name is empty/],
      [{ name: 'Empty', steps: [] }, /at least one step/],
      [{ name: 'Long', steps: Array.from({ length: MAX_WORKFLOW_STEPS + 1 }, () => ({ kind: 'audit' })) }, /21 steps; at most 20/],
      [{ name: 'Odd', steps: [{ kind: 'audit' }, { kind: 'email' }] }, /Step 2: unknown kind "email". The kinds are command, audit, import, snapshot/],
      [{ name: 'Blank', steps: [{ kind: 'command', text: ' ' }] }, /Step 1: write the command/],
      [{ name: 'Model', model: 'no-such-model', steps: [{ kind: 'audit' }] }, /Unknown model/],
      [{ steps: [{ kind: 'audit' }] }, /name/],
    ]
    for (const [body, message] of cases) {
      const answer = await ada('POST', '/ai/workflows', body)
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(answer.json.error.message).toMatch(message)
    }
    const workflow = await createFrom('data-validation-check')
    const refused = await ada('PUT', `/ai/workflows/${workflow.id}`, { name: 'Renamed', steps: [] })
    expect(refused.status).toBe(400)
    expect((await ada('GET', `/ai/workflows/${workflow.id}`)).json.workflow).toMatchObject({ name: 'Data Validation Check', steps: [{ kind: 'audit' }] })
    expect((await ada('GET', '/ai/workflows')).json.workflows.length).toBe(before + 1)
    // A workbook that is not the user's is not run on.
    expect((await ada('POST', `/ai/workflows/${workflow.id}/run`, { workbookId: 'not-a-workbook' })).status).toBe(404)
    expect((await ada('GET', `/ai/workflows/${workflow.id}/runs`)).json.runs).toEqual([])
  })

  it('runs the Revenue Forecast Update on a workbook: a version, the growth changeset applied, the audit stored, the history right, and undo reverts it', async () => {
    const id = await forecastWorkbook('Forecast')
    // A cell showing an error, for the audit to find.
    expect((await ada('POST', '/spreadsheet/update-cells', { workbookId: id, sheetName: 'Sheet1', updates: [{ cellAddress: 'H10', formula: '=B2/0' }] })).status).toBe(200)
    const versionsBefore = (await ada('GET', `/spreadsheet/workbook/${id}/versions`)).json.total as number
    const workflow = await createFrom('revenue-forecast-update')
    const queued = await ada('POST', `/ai/workflows/${workflow.id}/run`, { workbookId: id })
    expect(queued.status, queued.text).toBe(202)
    expect(queued.json.run).toMatchObject({ status: 'queued', workbookId: id, workbookName: 'Forecast', progress: 0 })

    const run = await finished(queued.json.run.id)
    expect(Value.Check(WorkflowRun, run)).toBe(true)
    expect(run.status, run.error ?? '').toBe('completed')
    expect(run.progress).toBe(100)
    expect(run.steps.map((step) => [step.kind, step.status])).toEqual([
      ['snapshot', 'completed'],
      ['command', 'completed'],
      ['audit', 'completed'],
    ])
    expect(run.durationMs).toBeGreaterThanOrEqual(0)
    for (const step of run.steps) expect(step.durationMs).toBeGreaterThanOrEqual(0)

    // The growth: each year from the second is the one before grown by 10%.
    const cells = await cellsOf(id)
    expect(cells.C2.input).toBe('=B2*(1+10%)')
    expect(cells.F2.value as number).toBeCloseTo(1000 * 1.1 ** 4, 6)
    expect(cells.B2.value).toBe(1000)
    expect(cells.C3.value).toBe(600)
    const command = run.steps[1]
    expect(command.changesetId).toBeTruthy()
    expect(command.cellsChanged).toBe(4)
    const changeset = (await ada('GET', `/spreadsheet/changesets/${command.changesetId}`)).json.changeset
    expect(changeset).toMatchObject({ status: 'applied', changeId: command.changeId, workbookId: id })

    // The version the first step saved, and the audit's findings kept with the run.
    const versions = (await ada('GET', `/spreadsheet/workbook/${id}/versions`)).json
    expect(versions.versions.map((v: { id: string }) => v.id)).toContain(run.steps[0].versionId)
    expect(versions.versions.find((v: { id: string }) => v.id === run.steps[0].versionId)).toMatchObject({ changes: 'Before the revenue forecast update', tags: expect.arrayContaining(['workflow']) })
    expect(versions.total).toBeGreaterThan(versionsBefore)
    const findings = run.steps[2].findings ?? []
    expect(findings.find((finding) => finding.rule === 'error-cell')).toMatchObject({ severity: 'error', cells: ['Sheet1!H10'] })
    expect(run.steps[2].message).toMatch(/^1 error/)

    // The history: the workflow's runs and the user's recent runs, and the workflow's last run.
    const history = (await ada('GET', `/ai/workflows/${workflow.id}/runs`)).json.runs
    expect(history.map((r: WorkflowRun) => r.id)).toEqual([run.id])
    expect((await ada('GET', '/ai/workflows/runs')).json.runs[0].id).toBe(run.id)
    expect((await ada('GET', `/ai/workflows/${workflow.id}`)).json.workflow.lastRun).toMatchObject({ id: run.id, status: 'completed' })
    expect((await eve('GET', `/ai/workflows/runs/${run.id}`)).status).toBe(404)
    expect((await eve('POST', `/ai/workflows/runs/${run.id}/undo`)).status).toBe(404)

    // Undo: the run's changeset goes, through the workbook's own undo; a second undo is refused.
    const undone = await ada('POST', `/ai/workflows/runs/${run.id}/undo`)
    expect(undone.status, undone.text).toBe(200)
    expect(undone.json.run.undone).toBe(true)
    const after = await cellsOf(id)
    expect(after.C2.input).toBe('1000')
    expect(after.F2.value).toBe(1000)
    expect((await ada('POST', `/ai/workflows/runs/${run.id}/undo`)).status).toBe(409)
  })

  it('refuses to undo a run when the workbook changed after it, or when it changed nothing, and undoes nothing', async () => {
    const id = await forecastWorkbook('Edited after')
    const created = await ada('POST', '/ai/workflows', { name: 'Bold header', steps: [{ kind: 'command', text: 'make row 1 bold' }] })
    const run = await finished((await ada('POST', `/ai/workflows/${created.json.workflow.id}/run`, { workbookId: id })).json.run.id)
    expect(run.status, run.error ?? '').toBe('completed')
    expect((await ada('POST', '/spreadsheet/update-cells', { workbookId: id, sheetName: 'Sheet1', updates: [{ cellAddress: 'B2', value: 2000 }] })).status).toBe(200)
    const refused = await ada('POST', `/ai/workflows/runs/${run.id}/undo`)
    expect(refused.status).toBe(409)
    expect(refused.json.error.message).toMatch(/changed after the run/)
    const cells = await cellsOf(id)
    expect(cells.B1.style?.bold).toBe(true)
    expect(cells.B2.value).toBe(2000)
    expect((await ada('GET', `/ai/workflows/runs/${run.id}`)).json.run.undone).toBe(false)

    const audit = await createFrom('data-validation-check')
    const checked = await finished((await ada('POST', `/ai/workflows/${audit.id}/run`, { workbookId: id })).json.run.id)
    expect(checked.status).toBe('completed')
    expect((await ada('POST', `/ai/workflows/runs/${checked.id}/undo`)).status).toBe(409)
  })

  it('runs the Monthly Financial Report: totals and a bold header row, with a version before and after', async () => {
    const id = await forecastWorkbook('Monthly')
    const workflow = await createFrom('monthly-financial-report')
    const run = await finished((await ada('POST', `/ai/workflows/${workflow.id}/run`, { workbookId: id })).json.run.id)
    expect(run.status, run.error ?? '').toBe('completed')
    expect(run.steps.filter((step) => step.kind === 'snapshot').every((step) => step.versionId !== null)).toBe(true)
    const cells = await cellsOf(id)
    expect(cells.A4.input).toBe('Total')
    expect(cells.B4.value).toBe(1600)
    expect(cells.B1.style?.bold).toBe(true)
  })

  it('marks a run failed at the failing step, naming it, keeps what the earlier steps did and skips the rest', async () => {
    const id = await forecastWorkbook('Failing')
    const created = await ada('POST', '/ai/workflows', {
      name: 'Needs an upload',
      steps: [{ kind: 'command', text: 'make row 1 bold' }, { kind: 'import' }, { kind: 'audit' }],
    })
    const run = await finished((await ada('POST', `/ai/workflows/${created.json.workflow.id}/run`, { workbookId: id })).json.run.id)
    expect(run.status).toBe('failed')
    expect(run.failedStep).toBe(1)
    expect(run.error).toBe('Step 2 (Import the latest upload) failed: There is no uploaded spreadsheet to import: upload an Excel or CSV file on the Files page first')
    expect(run.steps.map((step) => step.status)).toEqual(['completed', 'failed', 'skipped'])
    expect(run.steps[0].changesetId).toBeTruthy()
    expect((await cellsOf(id)).B1.style?.bold).toBe(true)
  })

  it('imports the latest upload and works on it in the later steps', async () => {
    const form = new FormData()
    form.append('file', new Blob(['Item,Amount\nRent,1200\nPayroll,5400\n'], { type: 'text/csv' }), 'costs.csv')
    const upload = await fetch(`${stack.url}/api/files/upload`, { method: 'POST', headers: { authorization: `Bearer ${adaToken}` }, body: form })
    expect(upload.status, await upload.clone().text()).toBe(201)
    const id = await forecastWorkbook('Import target')
    const created = await ada('POST', '/ai/workflows', { name: 'Import and total', steps: [{ kind: 'import' }, { kind: 'command', text: 'total B2:B3 in B4' }, { kind: 'audit' }] })
    const run = await finished((await ada('POST', `/ai/workflows/${created.json.workflow.id}/run`, { workbookId: id })).json.run.id)
    expect(run.status, run.error ?? '').toBe('completed')
    const imported = run.steps[0].importedWorkbookId!
    expect(imported).toBeTruthy()
    expect(run.steps[1].workbookId).toBe(imported)
    expect((await cellsOf(imported)).B4.value).toBe(6600)
    // The chosen workbook was left alone.
    expect((await cellsOf(id)).B4).toBeUndefined()
  })

  it(`keeps at most ${MAX_WORKFLOWS_PER_USER} workflows per user`, async () => {
    const { api: many } = await signUp('many@example.com')
    for (let i = 0; i < MAX_WORKFLOWS_PER_USER; i++) expect((await many('POST', '/ai/workflows', { name: `Check ${i}`, steps: [{ kind: 'audit' }] })).status).toBe(201)
    const refused = await many('POST', '/ai/workflows', { name: 'One more', steps: [{ kind: 'audit' }] })
    expect(refused.status).toBe(409)
    expect(refused.json.error.message).toMatch(/delete one to make another/)
    expect((await many('GET', '/ai/workflows')).json.workflows).toHaveLength(MAX_WORKFLOWS_PER_USER)
  })
})
