/**
 * One home for every workbook, in a real browser through the real gateway and services:
 * - a new user's first workbook lives in the spreadsheet service: it is listed by
 *   GET /api/spreadsheet/workbooks, its address names it (and the sheet), and what is typed into it is
 *   there after a reload and in a second tab opened at the same address;
 * - cells an older session still held for the default workbook move into the first workbook once;
 * - the workbooks list (File → Open): rename (the top bar and Version Control follow), duplicate,
 *   delete with a confirmation and Undo, open; File → New and Make a copy.
 * Cells are read the accessible way: the cell-reference box, then the focused cell's label.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AllInOne } from '@finsheet/standalone'
import { startAllInOne } from '@finsheet/standalone'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildWebForTests } from './support/build-web.js'
import { E2E_TIMEOUT, launchChromium, newTestContext, POLL } from './support/chromium.js'
import { typeEntry } from './support/grid-page.js'

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))
const WORKBOOK_URL = /\/workbooks\/([^/?]+)(\?sheet=([^&]+))?$/

let browser: Browser
let stack: AllInOne
let dataDir: string
let context: BrowserContext
let page: Page

const user = { name: 'Grace Hopper', email: `grace.${Date.now()}@example.com`, password: 'compiler-1952' }

async function register(who: { name: string; email: string; password: string }): Promise<string> {
  const registered = await fetch(`${stack.url}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: who.email, password: who.password, fullName: who.name }),
  })
  expect(registered.status).toBe(201)
  const login = await fetch(`${stack.url}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: who.email, password: who.password }) })
  return ((await login.json()) as { token: string }).token
}

async function api<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await fetch(`${stack.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  expect(answer.status, `${method} ${path}`).toBeLessThan(300)
  return (await answer.json()) as T
}

interface Listed {
  workbooks: { id: string; name: string; isDefault: boolean; totalCells: number; totalFormulas: number; sheets: string[] }[]
  total: number
}

let token: string

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true })
  const webRoot = await buildWebForTests()
  dataDir = mkdtempSync(join(tmpdir(), 'finsheet-e2e-workbooks-'))
  stack = await startAllInOne({ port: 0, dataDir, logger: false, webRoot, env: { ...process.env, LOG_LEVEL: 'silent' } })
  token = await register(user)
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

async function signIn(on: Page, who: { email: string; password: string }): Promise<void> {
  await on.goto(`${stack.url}/login`)
  await on.getByLabel('Email').fill(who.email)
  await on.getByLabel('Password').fill(who.password)
  await on.getByRole('button', { name: 'Sign In' }).click()
}

/** Selects a cell through the cell-reference box and reads what it shows from the cell's label. */
async function shownIn(on: Page, address: string): Promise<string> {
  const box = on.getByLabel('Cell reference')
  await box.click()
  await box.fill(address)
  await box.press('Enter')
  const label = (await on.locator('[data-testid="cell-editor"]').getAttribute('aria-label')) ?? ''
  return label === address ? '' : label.slice(address.length + 1)
}

const title = (on: Page) => on.getByTestId('workbook-title').innerText()
const saveState = (on: Page) => on.getByTestId('workbook-title').locator('..').innerText()
const activeTab = (on: Page) => on.getByRole('tab', { selected: true }).innerText()
const addressOf = (on: Page) => {
  const match = WORKBOOK_URL.exec(new URL(on.url()).pathname + new URL(on.url()).search)
  return { id: match?.[1] ?? null, sheet: match?.[3] ? decodeURIComponent(match[3]) : null }
}

async function fileMenu(on: Page, item: string): Promise<void> {
  await on.getByRole('button', { name: 'File', exact: true }).click()
  await on.getByRole('menuitem', { name: item }).click()
}

describe("a new user's first workbook", { timeout: E2E_TIMEOUT }, () => {
  let firstId = ''

  it('is created in the spreadsheet service on Start Blank, listed there, and named by the address', async () => {
    await signIn(page, user)
    await page.getByRole('button', { name: /Start Blank/ }).click()
    await page.waitForURL(WORKBOOK_URL)
    await page.getByLabel('Formula bar').waitFor()
    firstId = addressOf(page).id!
    expect(firstId).not.toBe('defaultWorkbook')
    expect(await title(page)).toBe('Default Workbook')
    await typeEntry(page, 'Revenue', 'Tab')
    await typeEntry(page, '1200')
    await page.getByLabel('Cell reference').fill('B2')
    await page.getByLabel('Cell reference').press('Enter')
    await typeEntry(page, '=B1*2')
    await expect.poll(() => saveState(page), { ...POLL, timeout: 30_000 }).toContain('Saved')

    const listed = await api<Listed>(token, 'GET', '/spreadsheet/workbooks')
    expect(listed.total).toBe(1)
    expect(listed.workbooks[0]).toMatchObject({ id: firstId, name: 'Default Workbook', isDefault: true, totalCells: 3, totalFormulas: 1 })
    // the session keeps where the user is, not cells
    const session = await api<{ session: { activeWorkbook: string; workbooks: Record<string, { activeSheet: string; sheets: object }> } }>(token, 'GET', '/users/spreadsheet-session/current')
    expect(session.session.activeWorkbook).toBe(firstId)
    expect(session.session.workbooks[firstId]).toMatchObject({ activeSheet: 'Sheet1', sheets: {} })
  })

  it('keeps its cells after a reload, and a second tab at the same address opens the same workbook and sheet', async () => {
    await page.getByRole('button', { name: 'Add sheet' }).click()
    await expect.poll(() => activeTab(page), POLL).toBe('Sheet2')
    await expect.poll(() => addressOf(page), POLL).toEqual({ id: firstId, sheet: 'Sheet2' })
    await typeEntry(page, '=Sheet1!B2+1')
    await expect.poll(() => saveState(page), { ...POLL, timeout: 30_000 }).toContain('Saved')

    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    await expect.poll(() => activeTab(page), POLL).toBe('Sheet2')
    expect(await shownIn(page, 'A1')).toBe('2401')

    const second = await context.newPage()
    await second.goto(page.url())
    await second.getByLabel('Formula bar').waitFor()
    await expect.poll(() => activeTab(second), POLL).toBe('Sheet2')
    expect(await shownIn(second, 'A1')).toBe('2401')
    await second.getByRole('tab', { name: 'Sheet1' }).click()
    await expect.poll(() => addressOf(second), POLL).toEqual({ id: firstId, sheet: 'Sheet1' })
    expect(await shownIn(second, 'A1')).toBe('Revenue')
    expect(await shownIn(second, 'B2')).toBe('2400')
    await second.close()

    // `/` opens it again, at its own address
    await page.goto(`${stack.url}/`)
    await page.waitForURL(WORKBOOK_URL)
    expect(addressOf(page).id).toBe(firstId)
    await page.getByLabel('Formula bar').waitFor()
  })
})

describe('the workbooks list', { timeout: E2E_TIMEOUT }, () => {
  it('renames the open workbook, and the top bar, the list and Version Control say the new name', async () => {
    await fileMenu(page, 'Rename…')
    const dialog = page.getByRole('dialog', { name: 'Rename workbook' })
    await dialog.getByLabel('Workbook name').fill('   ')
    await dialog.getByRole('button', { name: 'Rename' }).click()
    expect(await dialog.getByRole('alert').innerText()).toBe('A workbook needs a name.')
    await dialog.getByLabel('Workbook name').fill('Q3 model')
    await dialog.getByRole('button', { name: 'Rename' }).click()
    await expect.poll(() => title(page), POLL).toBe('Q3 model')
    const versions = await api<{ versions: { fileName: string }[] }>(token, 'GET', '/spreadsheet/versions')
    expect(new Set(versions.versions.map((version) => version.fileName))).toEqual(new Set(['Q3 model']))

    await fileMenu(page, 'Open…')
    await page.waitForURL('**/workbooks')
    const row = page.getByRole('row', { name: /Q3 model/ })
    await row.waitFor()
    expect(await row.innerText()).toContain('2 sheets: Sheet1, Sheet2')
    expect(await row.innerText()).toContain('4 cells, 2 formulas')
    expect(await row.innerText()).toContain('First workbook')
  })

  it('duplicates a workbook, deletes the copy after a confirmation, brings it back with Undo, and opens it', async () => {
    await page.getByRole('button', { name: 'Duplicate Q3 model' }).click()
    const copyRow = page.getByRole('row', { name: /Copy of Q3 model/ })
    await copyRow.waitFor()
    expect(await page.getByRole('row').nth(1).innerText()).toContain('Copy of Q3 model')

    await page.getByRole('button', { name: 'Delete Copy of Q3 model' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete Copy of Q3 model?' })
    expect(await confirm.innerText()).toContain('Undo brings it back; after 30 days it is erased for good.')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    expect(await copyRow.count()).toBe(1)
    await page.getByRole('button', { name: 'Delete Copy of Q3 model' }).click()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await expect.poll(() => copyRow.count(), POLL).toBe(0)
    expect((await api<Listed>(token, 'GET', '/spreadsheet/workbooks')).total).toBe(1)
    await page.screenshot({ path: join(OUTPUT, 'workbooks-list-deleted.png') })
    await page.getByRole('button', { name: 'Undo' }).click()
    await expect.poll(() => copyRow.count(), POLL).toBe(1)
    expect((await api<Listed>(token, 'GET', '/spreadsheet/workbooks')).total).toBe(2)

    await page.getByRole('button', { name: 'Open Copy of Q3 model' }).click()
    await page.waitForURL(WORKBOOK_URL)
    const copyId = addressOf(page).id
    expect(copyId).not.toBe(null)
    await page.getByLabel('Formula bar').waitFor()
    await expect.poll(() => title(page), POLL).toBe('Copy of Q3 model')
    await page.getByRole('tab', { name: 'Sheet1' }).click()
    expect(await shownIn(page, 'B2')).toBe('2400')
  })

  it('makes a new workbook with File → New, and a copy of the open one with Make a copy', async () => {
    const before = addressOf(page).id
    await fileMenu(page, 'New Spreadsheet')
    await expect.poll(() => addressOf(page).id !== before && addressOf(page).id !== null, POLL).toBe(true)
    await page.getByLabel('Formula bar').waitFor()
    await expect.poll(() => title(page), POLL).toBe('Untitled workbook')
    await typeEntry(page, 'fresh')
    await expect.poll(() => saveState(page), { ...POLL, timeout: 30_000 }).toContain('Saved')
    const fresh = addressOf(page).id

    await fileMenu(page, 'Make a copy')
    await expect.poll(() => title(page), POLL).toBe('Copy of Untitled workbook')
    expect(addressOf(page).id).not.toBe(fresh)
    expect(await shownIn(page, 'A1')).toBe('fresh')

    await fileMenu(page, 'Open…')
    // the list is read once it has come: rows read before are none
    const listed = async () => (await page.getByRole('row').allInnerTexts()).slice(1).map((text) => text.split('\n')[0].trim())
    await expect.poll(listed, POLL).toEqual(['Copy of Untitled workbook', 'Untitled workbook', 'Copy of Q3 model', 'Q3 model'])
    await page.screenshot({ path: join(OUTPUT, 'workbooks-list.png') })
  })
})

describe('a session from before every workbook lived in the service', { timeout: E2E_TIMEOUT }, () => {
  it('moves the cells it kept for the default workbook into the first workbook, once', async () => {
    const old = { name: 'Ada Lovelace', email: `ada.${Date.now()}@example.com`, password: 'analytical-1843' }
    const oldToken = await register(old)
    const loaded = await api<{ session: { id: string; workbooks: Record<string, { sheets: Record<string, { state: { cells?: object } }> }> } }>(oldToken, 'POST', '/users/spreadsheet-session/load-or-create', {})
    const session = loaded.session
    session.workbooks.defaultWorkbook.sheets.Sheet1.state.cells = { A1: { value: 'kept in the session' }, B1: { value: 21 }, B2: { formula: '=B1*2', value: 42 } }
    await api(oldToken, 'POST', '/users/spreadsheet-session', { session, userId: session.id })

    const other = await newTestContext(browser, { viewport: { width: 1280, height: 800 } })
    await other.addInitScript(() => localStorage.setItem('hasSeenTour', 'true'))
    const tab = await other.newPage()
    await signIn(tab, old)
    await tab.waitForURL(WORKBOOK_URL)
    await tab.getByLabel('Formula bar').waitFor()
    expect(await shownIn(tab, 'A1')).toBe('kept in the session')
    expect(await shownIn(tab, 'B2')).toBe('42')
    const listed = await api<Listed>(oldToken, 'GET', '/spreadsheet/workbooks')
    expect(listed.workbooks).toMatchObject([{ id: addressOf(tab).id, isDefault: true, totalCells: 3 }])
    const after = await api<{ session: { workbooks: Record<string, unknown> } }>(oldToken, 'GET', '/users/spreadsheet-session/current')
    expect(Object.keys(after.session.workbooks)).toEqual([addressOf(tab).id])

    await tab.reload()
    await tab.getByLabel('Formula bar').waitFor()
    expect(await shownIn(tab, 'B2')).toBe('42')
    expect((await api<Listed>(oldToken, 'GET', '/spreadsheet/workbooks')).total).toBe(1)
    await other.close()
  })
})
