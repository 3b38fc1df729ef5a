/**
 * A large workbook of the spreadsheet service opens by its first screen, in a real browser through the
 * real gateway and services: with the whole workbook's inputs held back, the cells in view already
 * show the values the service calculated (read the accessible way: the cell-reference box, then the
 * focused cell's label), an edit typed meanwhile shows at once and is not sent before the whole
 * workbook has been read; once the engine has it, the edit and what depends on it are right and saved.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AllInOne } from '@finsheet/standalone'
import { startAllInOne } from '@finsheet/standalone'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildWebForTests } from './support/build-web.js'
import { E2E_TIMEOUT, launchChromium, newTestContext, POLL } from './support/chromium.js'
import { typeEntry } from './support/grid-page.js'

const ROWS = 12_000
/** Σ 1..ROWS, what C1 sums before the edit. */
const SUM = (ROWS * (ROWS + 1)) / 2

let browser: Browser
let stack: AllInOne
let dataDir: string
let context: BrowserContext
let page: Page
let token: string

const user = { name: 'Ada Lovelace', email: `ada.${Date.now()}@example.com`, password: 'analytical-1843' }

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const answer = await fetch(`${stack.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  expect(answer.status, `${method} ${path}`).toBeLessThan(300)
  return (await answer.json()) as T
}

beforeAll(async () => {
  const webRoot = await buildWebForTests()
  dataDir = mkdtempSync(join(tmpdir(), 'finsheet-e2e-streamed-'))
  stack = await startAllInOne({ port: 0, dataDir, logger: false, webRoot, env: { ...process.env, LOG_LEVEL: 'silent' } })
  const registered = await fetch(`${stack.url}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password, fullName: user.name }),
  })
  expect(registered.status).toBe(201)
  const login = await fetch(`${stack.url}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password: user.password }) })
  token = ((await login.json()) as { token: string }).token
  browser = await launchChromium()
  context = await newTestContext(browser, { viewport: { width: 1440, height: 900 } })
  await context.addInitScript(() => localStorage.setItem('hasSeenTour', 'true'))
  page = await context.newPage()
})

afterAll(async () => {
  await browser?.close()
  await stack?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

/** Selects a cell through the cell-reference box and reads what it shows from the cell's label. */
async function shownIn(on: Page, address: string): Promise<string> {
  const box = on.getByLabel('Cell reference')
  await box.click()
  await box.fill(address)
  await box.press('Enter')
  const label = (await on.locator('[data-testid="cell-editor"]').getAttribute('aria-label')) ?? ''
  return label === address ? '' : label.slice(address.length + 1)
}

const saveState = (on: Page) => on.getByTestId('workbook-title').locator('..').innerText()
const loadingShown = (on: Page) => on.locator('.status-loading').count()

/** Signs in on the page and opens the workbook's Model sheet. */
async function signInAndOpen(on: Page, id: string): Promise<void> {
  await on.goto(`${stack.url}/login`)
  await on.getByLabel('Email').fill(user.email)
  await on.getByLabel('Password').fill(user.password)
  await on.getByRole('button', { name: 'Sign In' }).click()
  await on.waitForURL(/\/workbooks/)
  await on.goto(`${stack.url}/workbooks/${id}?sheet=Model`)
  await on.getByLabel('Formula bar').waitFor()
}

describe('a large workbook opened by its first screen', { timeout: E2E_TIMEOUT }, () => {
  it('shows the stored values and takes edits before the engine is ready, then recalculates and saves them', async () => {
    const cells: { address: string; input: string | number }[] = []
    for (let row = 1; row <= ROWS; row++) cells.push({ address: `A${row}`, input: row }, { address: `B${row}`, input: `=A${row}*2` })
    cells.push({ address: 'C1', input: `=SUM(A1:A${ROWS})` }, { address: 'C2', input: '=B2+C1' })
    const imported = await api<{ workbookId: string; cellCount: number }>('POST', '/spreadsheet/workbooks/import', {
      name: 'Big model',
      sheets: [
        { name: 'Model', cells },
        { name: 'Summary', cells: [{ address: 'A1', input: '=Model!C1' }] },
      ],
    })
    expect(imported.cellCount).toBeGreaterThan(20_000)
    const id = imported.workbookId

    // The whole workbook's inputs are held back until the test lets them through.
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/api/spreadsheet/workbook/*/inputs', async (route) => {
      await Promise.race([released, new Promise((resolve) => setTimeout(resolve, 60_000))])
      await route.continue()
    })
    const sentChanges: number[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && /\/api\/spreadsheet\/workbook\/[^/]+\/changes$/.test(new URL(request.url()).pathname)) sentChanges.push(Date.now())
    })

    await signInAndOpen(page, id)

    // Before the engine has the workbook: the service's values, among them a sum of rows far below.
    await expect.poll(() => loadingShown(page), POLL).toBe(1)
    expect(await shownIn(page, 'C1')).toBe(String(SUM))
    expect(await shownIn(page, 'B5')).toBe('10')
    expect(await shownIn(page, 'C2')).toBe(String(SUM + 4))

    // Typed meanwhile: shown at once, kept back from the service until the whole workbook is read.
    expect(await shownIn(page, 'A2')).toBe('2')
    await typeEntry(page, '1002')
    expect(await shownIn(page, 'B2')).toBe('2004')
    // Another sheet, gone to meanwhile, shows its rows the same way.
    await page.getByRole('tab', { name: 'Summary' }).click()
    await expect.poll(() => shownIn(page, 'A1'), POLL).toBe(String(SUM))
    await page.getByRole('tab', { name: 'Model' }).click()
    await page.waitForTimeout(500)
    expect(sentChanges).toEqual([])
    expect(await loadingShown(page)).toBe(1)

    release()
    await expect.poll(() => loadingShown(page), { ...POLL, timeout: 60_000 }).toBe(0)
    // The engine's values now, the edit recalculated through the whole workbook.
    expect(await shownIn(page, 'C1')).toBe(String(SUM + 1000))
    expect(await shownIn(page, 'C2')).toBe(String(SUM + 1000 + 2004))
    expect(await shownIn(page, 'B2')).toBe('2004')
    expect(await shownIn(page, `B${ROWS}`)).toBe(String(ROWS * 2))
    await expect.poll(() => saveState(page), { ...POLL, timeout: 30_000 }).toContain('Saved')
    expect(sentChanges.length).toBeGreaterThan(0)
    await page.getByRole('tab', { name: 'Summary' }).click()
    expect(await shownIn(page, 'A1')).toBe(String(SUM + 1000))

    const saved = await api<{ workbook: { sheets: { cells: Record<string, { input: string; value: unknown }> }[] } }>('GET', `/spreadsheet/workbook/${id}/cells?sheet=Model`)
    const shown = saved.workbook.sheets[0].cells
    expect(shown.A2).toMatchObject({ input: '1002', value: 1002 })
    expect(shown.C1.value).toBe(SUM + 1000)
    expect(shown.C2.value).toBe(SUM + 1000 + 2004)
  })

  it('reads the workbook again whole when its inputs stop short, and takes edits as ever', async () => {
    const cells: { address: string; input: string | number }[] = []
    for (let row = 1; row <= ROWS; row++) cells.push({ address: `A${row}`, input: row }, { address: `B${row}`, input: `=A${row}*2` })
    cells.push({ address: 'C1', input: `=SUM(A1:A${ROWS})` })
    const { workbookId: id } = await api<{ workbookId: string }>('POST', '/spreadsheet/workbooks/import', { name: 'Cut short', sheets: [{ name: 'Model', cells }] })

    // The first answer of the inputs as lines breaks off halfway, in the middle of a line.
    const own = await newTestContext(browser, { viewport: { width: 1440, height: 900 } })
    await own.addInitScript(() => localStorage.setItem('hasSeenTour', 'true'))
    const cutShort = await own.newPage()
    let cut = 0
    await cutShort.route('**/api/spreadsheet/workbook/*/inputs', async (route) => {
      if (cut > 0 || !(route.request().headers().accept ?? '').includes('application/x-ndjson')) return route.continue()
      cut++
      const whole = await (await route.fetch()).body()
      await route.fulfill({ status: 200, headers: { 'content-type': 'application/x-ndjson' }, body: whole.subarray(0, Math.floor(whole.length / 2)) })
    })
    await signInAndOpen(cutShort, id)

    await expect.poll(() => cut, POLL).toBe(1)
    await expect.poll(() => loadingShown(cutShort), { ...POLL, timeout: 60_000 }).toBe(0)
    expect(await shownIn(cutShort, 'C1')).toBe(String(SUM))
    expect(await shownIn(cutShort, `B${ROWS}`)).toBe(String(ROWS * 2))
    expect(await shownIn(cutShort, 'A2')).toBe('2')
    await typeEntry(cutShort, '1002')
    expect(await shownIn(cutShort, 'C1')).toBe(String(SUM + 1000))
    await expect.poll(() => saveState(cutShort), { ...POLL, timeout: 30_000 }).toContain('Saved')
    const saved = await api<{ workbook: { sheets: { cells: Record<string, { input: string; value: unknown }> }[] } }>('GET', `/spreadsheet/workbook/${id}/cells?sheet=Model`)
    expect(saved.workbook.sheets[0].cells.C1.value).toBe(SUM + 1000)
    await own.close()
  })
})
