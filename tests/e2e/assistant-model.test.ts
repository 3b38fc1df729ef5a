/**
 * Agent mode's commands that need a workbook of their own, in a real browser through the real
 * gateway and services:
 * - on the session's default workbook (which the agent cannot change) the panel offers to copy it
 *   into a new workbook, opens that copy and sends the command there, to the real agent (OpenAI's
 *   API played by the local stub);
 * - 'Create a DCF model for Acme' goes without a workbook id to the model generator (the model,
 *   played by the stub, proposes Acme's assumptions), and the panel ends on the new workbook with the
 *   spec's steps, 'Model Created Successfully!' and the 'Workbook Switched' notice.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startOpenAiStub, type StubServer } from '@finsheet/ai-service/testing'
import type { AllInOne } from '@finsheet/standalone'
import { startAllInOne } from '@finsheet/standalone'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversation, dismissNotifications, panel, sendMessage, shownIn, signIn, signUp } from './support/assistant-page.js'
import { buildWebForTests } from './support/build-web.js'
import { E2E_TIMEOUT, launchChromium, newTestContext, POLL } from './support/chromium.js'
import { clickCell, typeEntry } from './support/grid-page.js'

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))
const OPENAI_KEY = 'sk-e2e-model-0123456789'

let browser: Browser
let stack: AllInOne
let openai: StubServer
let dataDir: string
let page: Page
let token: string
let workbookId: string

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any
async function api(path: string): Promise<Json> {
  return (await fetch(`${stack.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } })).json()
}

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true })
  openai = await startOpenAiStub({ apiKey: OPENAI_KEY })
  const webRoot = await buildWebForTests()
  dataDir = mkdtempSync(join(tmpdir(), 'finsheet-e2e-assistant-model-'))
  stack = await startAllInOne({
    port: 0,
    dataDir,
    logger: false,
    webRoot,
    env: { ...process.env, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '100000', AUTOSAVE_QUIET_MS: '300', OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: openai.url },
  })
  const user = await signUp(stack.url, 'Katherine Johnson')
  token = user.token
  browser = await launchChromium()
  const context = await newTestContext(browser, { viewport: { width: 1440, height: 900 } })
  await context.addInitScript(() => localStorage.setItem('hasSeenTour', 'true'))
  page = await context.newPage()
  await signIn(page, stack.url, user)
  await page.getByRole('button', { name: /Start Blank/ }).click()
  await page.getByLabel('Formula bar').waitFor()
}, E2E_TIMEOUT)

afterAll(async () => {
  await browser?.close()
  await stack?.close()
  await openai?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

const lastAnswer = () => conversation(page).locator('.from-assistant').last()
const tabs = () => page.getByRole('tab').allInnerTexts()

describe('agent commands that need a workbook of their own', { timeout: E2E_TIMEOUT }, () => {
  it("sends agent commands to the user's first workbook, which the spreadsheet service keeps like any other", async () => {
    await clickCell(page, 'A1')
    for (const [label, units] of [['Year', 'Units'], ['2024', '40'], ['2025', '55']]) {
      await typeEntry(page, label, 'Tab')
      await typeEntry(page, units)
      await page.keyboard.press('Home')
    }
    await page.keyboard.press('Alt+A')
    await panel(page).waitFor()
    openai.enqueue({ reply: { text: 'The units are in B2:B3. Tell me where the doubled row should go.' } })
    const asked = page.waitForRequest((request) => request.url().endsWith('/api/spreadsheet/process-action'))
    await sendMessage(page, 'Add a row that doubles the units')
    const body = (await asked).postDataJSON()
    const workbooks = (await api('/spreadsheet/workbooks')).workbooks
    expect(workbooks).toMatchObject([{ name: 'Default Workbook', isDefault: true }])
    expect(body).toMatchObject({ command: 'Add a row that doubles the units', workbookId: workbooks[0].id })
    expect(await lastAnswer().getByRole('button', { name: 'Copy into a new workbook and continue' }).count()).toBe(0)
    await lastAnswer().getByText('Tell me where the doubled row should go.').waitFor(POLL)
    expect(await shownIn(page, 'B2')).toBe('40')
    workbookId = workbooks[0].id
    expect(await page.getByTestId('workbook-title').innerText()).toBe('Default Workbook')
  })

  it('previews a chart in Visualization and Data tabs, and places it on the sheet when applied', async () => {
    openai.enqueue(
      {
        reply: {
          toolCalls: [
            { id: 'total-1', name: 'write_cells', arguments: { sheet: 'Sheet1', cells: [{ address: 'A4', input: 'Total' }, { address: 'B4', input: '=SUM(B2:B3)' }] } },
            { id: 'chart-1', name: 'create_chart', arguments: { sheet: 'Sheet1', range: 'A1:B3', type: 'bar', title: 'Units by year' } },
          ],
        },
      },
      { reply: { text: 'I added a total and a bar chart of the units by year.' } },
    )
    await sendMessage(page, 'Add a total and create a bar chart of the units by year')
    const chart = lastAnswer().getByRole('region', { name: 'Chart: Units by year' })
    await chart.waitFor(POLL)
    await chart.getByRole('img', { name: 'bar chart: Units by year' }).waitFor()
    expect(await chart.innerText()).toContain('Apply to place it on the sheet.')
    await chart.getByRole('tab', { name: 'Data' }).click()
    const rows = await chart.getByRole('table', { name: 'Units by year data' }).locator('tbody tr').allInnerTexts()
    expect(rows.map((row) => row.replace(/\s+/g, ' ').trim())).toEqual(['2024 40', '2025 55'])
    await chart.getByRole('tab', { name: 'Visualization' }).click()
    await dismissNotifications(page)
    await chart.scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(OUTPUT, 'assistant-chart-preview.png') })
    expect((await api(`/spreadsheet/workbook/${workbookId}/charts`)).charts).toHaveLength(0)
    await lastAnswer().getByRole('region', { name: 'Proposed changes' }).getByRole('button', { name: 'Apply' }).click()
    await chart.getByText('Placed on Sheet1').waitFor(POLL)
    expect((await api(`/spreadsheet/workbook/${workbookId}/charts`)).charts.map((placed: Json) => placed.title)).toEqual(['Units by year'])
  })

  it("ends 'Create a DCF model for Acme' on the new workbook with the spec's notices", async () => {
    openai.enqueue({ reply: { toolCalls: [{ id: 'propose-1', name: 'propose_assumptions', arguments: { taxRate: 21 } }] } })
    const asked = page.waitForRequest((request) => request.url().endsWith('/api/spreadsheet/process-action'))
    await sendMessage(page, 'Create a DCF model for Acme')
    const body = (await asked).postDataJSON()
    expect(body.command).toBe('Create a DCF model for Acme')
    expect(body.workbookId).toBeUndefined()
    await lastAnswer().getByText('Model Created Successfully!').waitFor({ timeout: 60_000 })
    // one notice at a time over the spreadsheet: the success, then the switch
    const notices = page.getByRole('list', { name: 'Notifications' })
    await notices.getByText('Model Created Successfully!').waitFor(POLL)
    await page.screenshot({ path: join(OUTPUT, 'assistant-model-created.png') })
    await notices.getByRole('button', { name: 'Dismiss notification' }).click()
    await notices.getByText('Workbook Switched').waitFor(POLL)
    expect(await notices.innerText()).toContain('Now showing Acme — DCF Model')
    expect(await lastAnswer().getByRole('list', { name: 'Opening the model' }).innerText()).toMatch(/Refreshing the workbook list[\s\S]*Reloading the session[\s\S]*Opening the new workbook[\s\S]*Loading its cells/)
    await expect.poll(tabs, POLL).toEqual(['Assumptions', 'Revenue', 'Operating', 'FCF', 'Valuation'])
    expect(await shownIn(page, 'A1')).toBe('Acme — DCF Model')
    const listed = (await api('/spreadsheet/workbooks')).workbooks
    expect(listed[0].name).toBe('Acme — DCF Model')
    // the tax rate the model proposed for Acme, the other assumptions at their defaults
    const assumptions = (await api(`/spreadsheet/workbook/${listed[0].id}/cells?sheet=Assumptions`)).workbook.sheets[0].cells
    const taxRow = Object.entries(assumptions as Record<string, { value: unknown }>).find(([address, cell]) => address.startsWith('A') && cell.value === 'Tax rate')
    expect(taxRow).toBeDefined()
    expect(assumptions[`B${taxRow![0].slice(1)}`].value).toBeCloseTo(0.21, 10)
    // the new workbook's conversation begins with the request that made it
    expect(await conversation(page).locator('.from-user').allInnerTexts()).toEqual(['Create a DCF model for Acme'])
    await dismissNotifications(page)
  })
})
