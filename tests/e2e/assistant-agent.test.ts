/**
 * Agent mode in the assistant panel, in a real browser, through the real gateway, AI service and
 * spreadsheet service, with OpenAI's API played by the local stub replaying scripted tool calls:
 * - an upload opens the panel with what can be asked next;
 * - a command is previewed as a diff (each tool call a line with its result, cells before → after,
 *   the downstream effect) with its cells outlined on the grid; Apply writes it, outlines what
 *   changed for 3 s, and one Undo (the message's, or Ctrl+Z in the grid) reverts all of it;
 * - Discard leaves the workbook untouched, revision and all;
 * - 'Apply agent changes without asking' applies at once and shows the same diff with Undo;
 * - a changeset whose cells were edited meanwhile names them and offers to run it again.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startOpenAiStub, type ScriptedTurn, type StubServer } from '@finsheet/ai-service/testing'
import type { AllInOne } from '@finsheet/standalone'
import { startAllInOne } from '@finsheet/standalone'
import ExcelJS from 'exceljs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversation, dismissNotifications, panel, sendMessage, shownIn, signIn, signUp } from './support/assistant-page.js'
import { buildWebForTests } from './support/build-web.js'
import { E2E_TIMEOUT, launchChromium, newTestContext, POLL } from './support/chromium.js'
import { clickCell, typeEntry } from './support/grid-page.js'

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))
const OPENAI_KEY = 'sk-e2e-agent-0123456789'

let browser: Browser
let stack: AllInOne
let openai: StubServer
let dataDir: string
let page: Page
let token: string
let workbookId: string

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any
async function api(method: string, path: string): Promise<Json> {
  const response = await fetch(`${stack.url}/api${path}`, { method, headers: { authorization: `Bearer ${token}` } })
  return response.json()
}

async function planWorkbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook()
  const revenue = book.addWorksheet('Revenue')
  revenue.addRow(['Year', 2024, 2025])
  revenue.addRow(['Revenue', 100, 110])
  revenue.getCell('C3').value = { formula: 'C2/B2-1', result: 0.1 }
  revenue.getCell('A3').value = 'Growth'
  const summary = book.addWorksheet('Summary')
  summary.getCell('A1').value = 'Total revenue'
  summary.getCell('B1').value = { formula: 'SUM(Revenue!B2:C2)', result: 210 }
  return Buffer.from(await book.xlsx.writeBuffer())
}

/** The model's side of one command: it reads the block, writes revenue, then answers. */
function revenueUpdate(values: [number, number], answer: string): ScriptedTurn[] {
  return [
    { reply: { toolCalls: [{ id: 'read-1', name: 'read_range', arguments: { sheet: 'Revenue', range: 'A1:C3' } }] } },
    {
      reply: {
        toolCalls: [
          {
            id: 'write-1',
            name: 'write_cells',
            arguments: {
              sheet: 'Revenue',
              cells: [
                { address: 'B2', input: values[0] },
                { address: 'C2', input: values[1] },
              ],
              overwrite: true,
            },
          },
        ],
      },
    },
    { reply: { text: answer } },
  ]
}

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true })
  openai = await startOpenAiStub({ apiKey: OPENAI_KEY })
  const webRoot = await buildWebForTests()
  dataDir = mkdtempSync(join(tmpdir(), 'finsheet-e2e-assistant-agent-'))
  stack = await startAllInOne({
    port: 0,
    dataDir,
    logger: false,
    webRoot,
    env: { ...process.env, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '100000', AUTOSAVE_QUIET_MS: '300', OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: openai.url },
  })
  const user = await signUp(stack.url, 'Ada Lovelace')
  token = user.token
  browser = await launchChromium()
  const context = await newTestContext(browser, { viewport: { width: 1440, height: 900 } })
  await context.addInitScript(() => localStorage.setItem('hasSeenTour', 'true'))
  page = await context.newPage()
  await signIn(page, stack.url, user)
}, E2E_TIMEOUT)

afterAll(async () => {
  await browser?.close()
  await stack?.close()
  await openai?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

const lastAnswer = () => conversation(page).locator('.from-assistant').last()
const outlines = () => page.getByTestId('assistant-outlines')

describe('agent mode in the panel', { timeout: E2E_TIMEOUT }, () => {
  it('opens the panel after an upload with what can be asked next', async () => {
    await page.getByRole('button', { name: 'Import Document' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Import Document' })
    await dialog.getByTestId('import-file-input').setInputFiles({ name: 'Plan.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await planWorkbook() })
    await dialog.getByRole('button', { name: 'Process Document' }).click()
    await dialog.waitFor({ state: 'hidden', timeout: 60_000 })
    await panel(page).waitFor(POLL)
    const greeting = await lastAnswer().innerText()
    for (const topic of ['Update a tab', 'Add rows or columns', 'Formulas', 'Charts', 'Formatting']) expect(greeting).toContain(topic)
    await panel(page).getByRole('button', { name: 'Model: GPT-4o' }).waitFor(POLL)
    await expect.poll(async () => (await page.getByRole('tab', { selected: true }).innerText()).trim(), POLL).toBe('Revenue')
    workbookId = (await api('GET', '/spreadsheet/workbooks')).workbooks[0].id
  })

  it('previews a command as a diff with its tool calls, applies it, highlights it, and undoes it in one step', async () => {
    openai.enqueue(...revenueUpdate([120, 150], 'I set revenue to 120 for 2024 and 150 for 2025.'))
    await sendMessage(page, 'Update revenue to 120 for 2024 and 150 for 2025')
    const diff = lastAnswer().getByRole('region', { name: 'Proposed changes' })
    await diff.waitFor(POLL)
    const steps = await lastAnswer().getByRole('list', { name: 'What the assistant did' }).innerText()
    expect(steps).toMatch(/Reading Revenue!A1:C3/)
    expect(steps).toMatch(/Writing 2 cells on Revenue/)
    const rows = await diff.getByRole('table', { name: 'Changed cells' }).locator('tbody tr').allInnerTexts()
    expect(rows.map((row) => row.replace(/\s+/g, ' ').trim())).toEqual([expect.stringMatching(/^Revenue!B2.* 100 → 120$/), expect.stringMatching(/^Revenue!C2.* 110 → 150$/)])
    expect(await diff.getByRole('list', { name: 'Downstream effect' }).innerText()).toContain('Summary!B1')
    // proposed, not written: outlined on the grid, the workbook as it was
    expect(await outlines().innerText()).toBe('Outlined for review: B2:C2')
    expect(await shownIn(page, 'B2')).toBe('100')
    await dismissNotifications(page)
    await diff.getByRole('button', { name: 'Apply' }).scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(OUTPUT, 'assistant-agent-diff.png') })

    await diff.getByRole('button', { name: 'Apply' }).click()
    const applied = lastAnswer().getByRole('region', { name: 'Changes applied' })
    await applied.waitFor(POLL)
    await expect.poll(() => outlines().innerText(), POLL).toBe('Just changed: B2:C2')
    await expect.poll(() => shownIn(page, 'B2'), POLL).toBe('120')
    // the highlight clears by itself after 3 s
    await outlines().waitFor({ state: 'detached', timeout: 6000 })

    await applied.getByRole('button', { name: 'Undo' }).click()
    await lastAnswer().getByRole('region', { name: 'Changes undone' }).waitFor(POLL)
    await expect.poll(() => shownIn(page, 'B2'), POLL).toBe('100')
    expect(await shownIn(page, 'C2')).toBe('110')
    const log = await api('GET', `/spreadsheet/workbook/${workbookId}/changes`)
    const ai = log.changes.filter((change: Json) => change.source === 'ai' && change.kind === 'edit')
    expect(ai).toHaveLength(1)
    expect(ai[0].undone).toBe(true)
    expect(log.changes.filter((change: Json) => change.kind === 'undo')).toHaveLength(1)
  })

  it('leaves the workbook untouched when the preview is discarded', async () => {
    const before = (await api('GET', `/spreadsheet/workbooks/${workbookId}`)).workbook.revision
    openai.enqueue(...revenueUpdate([500, 600], 'I changed revenue to 500 and 600.'))
    await sendMessage(page, 'Change revenue to 500 and 600')
    const diff = lastAnswer().getByRole('region', { name: 'Proposed changes' })
    await diff.waitFor(POLL)
    await diff.getByRole('button', { name: 'Discard' }).click()
    await lastAnswer().getByRole('region', { name: 'Changes discarded' }).waitFor(POLL)
    await outlines().waitFor({ state: 'detached' })
    expect(await shownIn(page, 'B2')).toBe('100')
    expect((await api('GET', `/spreadsheet/workbooks/${workbookId}`)).workbook.revision).toBe(before)
  })

  it('undoes an applied changeset as one step with Ctrl+Z in the grid', async () => {
    openai.enqueue(...revenueUpdate([130, 140], 'Revenue is now 130 and 140.'))
    await sendMessage(page, 'Update revenue to 130 and 140')
    const diff = lastAnswer().getByRole('region', { name: 'Proposed changes' })
    await diff.waitFor(POLL)
    await diff.getByRole('button', { name: 'Apply' }).click()
    await lastAnswer().getByRole('region', { name: 'Changes applied' }).waitFor(POLL)
    await expect.poll(() => shownIn(page, 'C2'), POLL).toBe('140')
    await clickCell(page, 'E5')
    await page.keyboard.press('Control+z')
    await expect.poll(() => shownIn(page, 'B2'), POLL).toBe('100')
    expect(await shownIn(page, 'C2')).toBe('110')
    await lastAnswer().getByRole('region', { name: 'Changes undone' }).waitFor(POLL)
  })

  it("applies at once with 'Apply agent changes without asking', showing the same diff with Undo", async () => {
    await panel(page).getByRole('button', { name: 'Assistant settings' }).click()
    await page.getByRole('menuitemcheckbox', { name: 'Apply agent changes without asking' }).click()
    openai.enqueue(...revenueUpdate([200, 220], 'Revenue is now 200 and 220.'))
    const asked = page.waitForRequest((request) => request.url().endsWith('/api/spreadsheet/process-action'))
    await sendMessage(page, 'Update revenue to 200 and 220')
    expect((await asked).postDataJSON()).toMatchObject({ command: 'Update revenue to 200 and 220', workbookId, preview: false, preferredModel: 'gpt-4o' })
    const applied = lastAnswer().getByRole('region', { name: 'Changes applied' })
    await applied.waitFor(POLL)
    expect(await applied.getByRole('heading', { level: 3 }).innerText()).toBe('Changes applied (without asking)')
    expect((await applied.getByRole('table', { name: 'Changed cells' }).innerText()).replace(/\s+/g, ' ')).toContain('100 → 200')
    await expect.poll(() => shownIn(page, 'B2'), POLL).toBe('200')
    await applied.getByRole('button', { name: 'Undo' }).click()
    await expect.poll(() => shownIn(page, 'B2'), POLL).toBe('100')
    await panel(page).getByRole('button', { name: 'Assistant settings' }).click()
    await page.getByRole('menuitemcheckbox', { name: 'Apply agent changes without asking', checked: true }).click()
  })

  it('names the cells that changed since a preview and offers to run it again', async () => {
    openai.enqueue(...revenueUpdate([300, 330], 'Revenue is now 300 and 330.'))
    await sendMessage(page, 'Update revenue to 300 and 330')
    const diff = lastAnswer().getByRole('region', { name: 'Proposed changes' })
    await diff.waitFor(POLL)
    await clickCell(page, 'B2')
    await typeEntry(page, '99')
    // Apply sends the edit first (it waits on no save timer), so the changeset meets the edited cell
    await diff.getByRole('button', { name: 'Apply' }).click()
    const conflict = diff.getByRole('alert')
    await conflict.waitFor(POLL)
    expect(await conflict.innerText()).toContain('These cells changed since the assistant worked this out: Revenue!B2.')
    expect(await shownIn(page, 'B2')).toBe('99')
    expect((await api('GET', `/spreadsheet/workbook/${workbookId}/cells?sheet=Revenue`)).workbook.sheets[0].cells.B2.value).toBe(99)
    expect(await conflict.getByRole('button', { name: 'Run again' }).isEnabled()).toBe(true)
  })

  // "Move …" has none of the action words: it reaches the agent because it opens with a command verb.
  it('moves a row and freezes the panes as one change: the plan lists both, Apply shows them, Undo takes both back', async () => {
    openai.enqueue(
      { reply: { toolCalls: [{ id: 'move-1', name: 'move_cells', arguments: { sheet: 'Revenue', range: 'A3:C3', to: 'A5' } }] } },
      { reply: { toolCalls: [{ id: 'view-1', name: 'set_sheet_view', arguments: { sheet: 'Revenue', freeze: { rows: 1, columns: 1 } } }] } },
      { reply: { text: 'I moved the growth row down to row 5 and froze the year row and the labels.' } },
    )
    await sendMessage(page, 'Move the growth row to row 5 and freeze the headers')
    const diff = lastAnswer().getByRole('region', { name: 'Proposed changes' })
    await diff.waitFor(POLL)
    const steps = await lastAnswer().getByRole('list', { name: 'What the assistant did' }).innerText()
    expect(steps).toMatch(/Moving Revenue!A3:C3 to Revenue!A5:C5 \(2 cells\)/)
    expect(steps).toMatch(/Freeze the top 1 row and the left 1 column of Revenue/)
    const plan = await diff.getByRole('list', { name: 'Plan' }).innerText()
    expect(plan).toContain('Move Revenue!A3:C3 to Revenue!A5:C5')
    expect(plan).toContain('Freeze the top 1 row and the left 1 column of Revenue')
    expect(await shownIn(page, 'A3')).toBe('Growth')

    await diff.getByRole('button', { name: 'Apply' }).click()
    const applied = lastAnswer().getByRole('region', { name: 'Changes applied' })
    await applied.waitFor(POLL)
    await expect.poll(() => shownIn(page, 'A5'), POLL).toBe('Growth')
    expect(await shownIn(page, 'A3')).toBe('')
    const sheet = (await api('GET', `/spreadsheet/workbook/${workbookId}/cells?sheet=Revenue`)).workbook.sheets[0]
    // The moved formula still reads the revenue row it read.
    expect(sheet.cells.C5.input).toBe('=C2/B2-1')
    expect(sheet.view).toMatchObject({ frozenRows: 1, frozenColumns: 1 })

    await applied.getByRole('button', { name: 'Undo' }).click()
    await expect.poll(() => shownIn(page, 'A3'), POLL).toBe('Growth')
    expect(await shownIn(page, 'A5')).toBe('')
    expect((await api('GET', `/spreadsheet/workbook/${workbookId}/cells?sheet=Revenue`)).workbook.sheets[0].view?.frozenRows ?? 0).toBe(0)
  })
})
