/**
 * Edits land where they were typed and are never lost, in a real browser through the real gateway
 * and services, with the spreadsheet service slowed (its changes, undo and redo routes answer 2 s
 * late, as a busy service on a large workbook does):
 * - a row inserted on a 3,000-row sheet, then at once a click on another sheet's tab and typing: the
 *   tab opens at once and the typing lands on that sheet, through a reload;
 * - an undo answered late is applied at once, and what is typed meanwhile stays where it was typed;
 * - deleting a sheet asks first, and Undo brings the tab back with its cells;
 * - Clear everything has its own menu, says what it erases, and erases no workbook: the user's first
 *   workbook keeps its cells and opens again after the next sign-in;
 * - the save indicator follows the edits: a sheet switch is no unsaved change; saving, saved and
 *   offline are told as they happen.
 * Cells are read the accessible way: the cell-reference box, then the focused cell's label.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AllInOne } from '@finsheet/standalone'
import { startAllInOne } from '@finsheet/standalone'
import ExcelJS from 'exceljs'
import type { Browser, BrowserContext, Page, Route } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildWebForTests } from './support/build-web.js'
import { E2E_TIMEOUT, launchChromium, newTestContext, POLL } from './support/chromium.js'
import { makeExternalLinkWorkbook } from '../../packages/workbook/src/xlsx/test-workbook.js'
import { typeEntry } from './support/grid-page.js'
import { onSpreadsheet } from './support/spreadsheet-url.js'

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))
/** How late the slowed spreadsheet service answers a change, an undo or a redo. */
const SERVICE_DELAY_MS = 2000
const DATA_ROWS = 3000

let browser: Browser
let stack: AllInOne
let dataDir: string
let context: BrowserContext
let page: Page

const user = { name: 'Katherine Johnson', email: `katherine.${Date.now()}@example.com`, password: 'trajectory-1961' }

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true })
  const webRoot = await buildWebForTests()
  dataDir = mkdtempSync(join(tmpdir(), 'finsheet-e2e-edits-'))
  stack = await startAllInOne({ port: 0, dataDir, logger: false, webRoot, env: { ...process.env, LOG_LEVEL: 'silent', AUTOSAVE_QUIET_MS: '300' } })
  const registered = await fetch(`${stack.url}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password, fullName: user.name }),
  })
  expect(registered.status).toBe(201)
  browser = await launchChromium()
  context = await newTestContext(browser, { viewport: { width: 1440, height: 900 } })
  await context.addInitScript(() => localStorage.setItem('hasSeenTour', 'true'))
  page = await context.newPage()
  await signIn()
})

afterAll(async () => {
  await browser?.close()
  await stack?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

async function signIn(): Promise<void> {
  await page.goto(`${stack.url}/login`)
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.waitForURL(onSpreadsheet)
}

/** Selects a cell through the cell-reference box and reads what it shows from the cell's label. */
async function shownIn(address: string): Promise<string> {
  const box = page.getByLabel('Cell reference')
  await box.click()
  await box.fill(address)
  await box.press('Enter')
  const label = (await page.locator('[data-testid="cell-editor"]').getAttribute('aria-label')) ?? ''
  return label === address ? '' : label.slice(address.length + 1)
}

async function inputOf(address: string): Promise<string> {
  await shownIn(address)
  return page.getByLabel('Formula bar').inputValue()
}

const saveState = () => page.getByTestId('workbook-title').locator('..').innerText()
const activeTab = () => page.getByRole('tab', { selected: true }).innerText()

async function waitUntilSaved(): Promise<void> {
  await expect.poll(saveState, { ...POLL, timeout: 30_000 }).toContain('Saved')
}

/** The spreadsheet service answers changes, undo and redo SERVICE_DELAY_MS late (the change is applied; its answer waits). */
async function slowService(): Promise<() => Promise<void>> {
  const pattern = /\/api\/spreadsheet\/workbook\/[^/]+\/(changes|undo|redo)$/
  const handler = async (route: Route) => {
    if (route.request().method() !== 'POST') return route.continue()
    try {
      const response = await route.fetch()
      await new Promise((resolve) => setTimeout(resolve, SERVICE_DELAY_MS))
      await route.fulfill({ response })
    } catch {
      // the page went away (a reload) while the answer was held
    }
  }
  await page.route(pattern, handler)
  return () => page.unroute(pattern, handler)
}

async function modelWorkbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook()
  const data = book.addWorksheet('Data')
  for (let row = 1; row <= DATA_ROWS; row++) {
    data.getCell(row, 1).value = `Row ${row}`
    data.getCell(row, 2).value = row
    data.getCell(row, 3).value = { formula: `B${row}*2`, result: row * 2 }
  }
  const summary = book.addWorksheet('Summary')
  summary.getCell('B1').value = 'Total'
  summary.getCell('C1').value = { formula: `SUM(Data!B1:B${DATA_ROWS})`, result: (DATA_ROWS * (DATA_ROWS + 1)) / 2 }
  return Buffer.from(await book.xlsx.writeBuffer())
}

async function importModel(): Promise<void> {
  await page.getByRole('button', { name: 'Import Document' }).click()
  const dialog = page.getByRole('dialog', { name: 'Import Document' })
  await dialog.getByTestId('import-file-input').setInputFiles({ name: 'Model.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await modelWorkbook() })
  await dialog.getByRole('button', { name: 'Process Document' }).click()
  await dialog.waitFor({ state: 'hidden', timeout: 60_000 })
  await expect.poll(activeTab, POLL).toBe('Data')
  expect(await shownIn('A10')).toBe('Row 10')
}

describe('edits land on the sheet the user sees', { timeout: E2E_TIMEOUT }, () => {
  it('starts on the default workbook, with a cell that Clear everything must not lose', async () => {
    await page.getByRole('button', { name: /Start Blank/ }).click()
    await page.getByLabel('Formula bar').waitFor()
    await typeEntry(page, 'kept from the default workbook')
    await waitUntilSaved()
  })

  it('opens another sheet at once after a row insertion, and the typing lands there, through a reload', async () => {
    await importModel()
    await waitUntilSaved()
    const restore = await slowService()

    // Shift+F10 → Insert 1 row above, on row 10 of 3,000
    await shownIn('A10')
    await page.keyboard.press('Shift+F10')
    await page.getByRole('menuitem', { name: 'Insert 1 row above' }).click()
    // at once: the other sheet's tab, and typing
    let insertionAnswered = false
    const answered = page
      .waitForResponse((response) => /\/changes$/.test(response.url()) && response.request().method() === 'POST', { timeout: 60_000 })
      .then(() => (insertionAnswered = true))
    await page.getByRole('tab', { name: 'Summary' }).click()
    expect(await page.getByRole('tab', { name: 'Summary' }).getAttribute('aria-selected')).toBe('true')
    // the tab opened while the insertion was still on its way to the service
    expect(insertionAnswered).toBe(false)
    expect(await saveState()).toContain('Saving…')
    await typeEntry(page, 'typed on Summary')
    await answered
    expect(await activeTab()).toBe('Summary')
    expect(await shownIn('A1')).toBe('typed on Summary')
    expect(await shownIn('C1')).toBe(String((DATA_ROWS * (DATA_ROWS + 1)) / 2))

    // the first sheet has its new row and nothing typed over
    await page.getByRole('tab', { name: 'Data' }).click()
    expect(await shownIn('A10')).toBe('')
    expect(await shownIn('A11')).toBe('Row 10')
    expect(await inputOf('C11')).toBe('=B11*2')

    await waitUntilSaved()
    await restore()
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    await expect.poll(activeTab, POLL).toBe('Data')
    expect(await shownIn('A10')).toBe('')
    expect(await shownIn('A11')).toBe('Row 10')
    expect(await shownIn('A3001')).toBe('Row 3000')
    await page.getByRole('tab', { name: 'Summary' }).click()
    expect(await shownIn('A1')).toBe('typed on Summary')
    expect(await inputOf('C1')).toBe(`=SUM(Data!B1:B${DATA_ROWS + 1})`)
  })

  it('applies an undo at once while its answer is late, and keeps what is typed meanwhile where it was typed', async () => {
    const restore = await slowService()
    await page.getByRole('tab', { name: 'Data' }).click()
    await shownIn('A5')
    await page.keyboard.press('Shift+F10')
    await page.getByRole('menuitem', { name: 'Insert 1 row above' }).click()
    expect(await shownIn('A6')).toBe('Row 5')
    await page.getByRole('button', { name: /^Undo/ }).click()
    // undone here at once, long before the service answers
    expect(await shownIn('A5')).toBe('Row 5')
    await shownIn('D5')
    await typeEntry(page, 'beside row 5')
    await page.getByRole('tab', { name: 'Summary' }).click()
    await shownIn('A2')
    await typeEntry(page, 'second line on Summary')
    expect(await activeTab()).toBe('Summary')

    await waitUntilSaved()
    await restore()
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    await expect.poll(activeTab, POLL).toBe('Summary')
    expect(await shownIn('A2')).toBe('second line on Summary')
    await page.getByRole('tab', { name: 'Data' }).click()
    expect(await shownIn('A5')).toBe('Row 5')
    expect(await shownIn('D5')).toBe('beside row 5')
    expect(await shownIn('A6')).toBe('Row 6')
  })
})

describe('sheets and clearing', { timeout: E2E_TIMEOUT }, () => {
  it('asks before deleting a sheet, and Undo brings the tab back with its cells', async () => {
    await page.getByRole('button', { name: 'Add sheet' }).click()
    await expect.poll(activeTab, POLL).toBe('Sheet1')
    await typeEntry(page, 'on the sheet to delete')
    const deleteSheet = async () => {
      await page.getByRole('button', { name: 'Sheet options' }).click()
      // Clear everything is not beside Delete sheet
      expect(await page.getByRole('menuitem', { name: /Clear everything/ }).count()).toBe(0)
      await page.getByRole('menuitem', { name: 'Delete sheet' }).click()
      return page.getByRole('dialog', { name: 'Delete Sheet1?' })
    }
    let dialog = await deleteSheet()
    expect(await dialog.innerText()).toContain('Undo (Ctrl+Z) brings it back')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    expect(await page.getByRole('tab', { name: 'Sheet1' }).count()).toBe(1)
    dialog = await deleteSheet()
    await dialog.getByRole('button', { name: 'Delete' }).click()
    await expect.poll(() => page.getByRole('tab', { name: 'Sheet1' }).count(), POLL).toBe(0)
    // the keyboard is back in the grid: Ctrl+Z undoes the deletion
    await page.keyboard.press('Control+z')
    await expect.poll(() => page.getByRole('tab', { name: 'Sheet1' }).count(), POLL).toBe(1)
    expect(await activeTab()).toBe('Sheet1')
    expect(await shownIn('A1')).toBe('on the sheet to delete')
    await waitUntilSaved()
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    await page.getByRole('tab', { name: 'Sheet1' }).click()
    expect(await shownIn('A1')).toBe('on the sheet to delete')
  })

  it('warns of a formula loop in the status bar, goes to it, and calculates again once it is broken', async () => {
    await shownIn('D1')
    await typeEntry(page, '=E1+1')
    await shownIn('E1')
    await typeEntry(page, '=D1*2')
    const warning = page.getByLabel('Status bar').getByRole('button', { name: /^Circular References: / })
    await expect.poll(() => warning.innerText(), POLL).toBe('Circular References: Sheet1!D1')
    // As in Excel, the cells of the loop are not calculated: D1 keeps what it showed, the new E1 shows 0
    expect(await shownIn('D1')).toBe('1')
    expect(await shownIn('E1')).toBe('0')
    await shownIn('A5')
    await warning.click()
    await expect.poll(() => page.getByLabel('Cell reference').inputValue(), POLL).toBe('D1')
    await shownIn('E1')
    await typeEntry(page, '5')
    await expect.poll(() => warning.count(), POLL).toBe(0)
    expect(await shownIn('D1')).toBe('6')
  })

  it('turns on iterative calculation from the Data menu, undoes and redoes it, and keeps it through a reload', async () => {
    const warning = page.getByLabel('Status bar').getByRole('button', { name: /^Circular References: / })
    const openOptions = async () => {
      await page.getByRole('button', { name: 'Data', exact: true }).click()
      await page.getByRole('menuitem', { name: 'Calculation options…' }).click()
      return page.getByRole('dialog', { name: 'Calculation options' })
    }
    await shownIn('E1')
    await typeEntry(page, '=D1*0+3')
    await expect.poll(() => warning.innerText(), POLL).toBe('Circular References: Sheet1!D1')
    const dialog = await openOptions()
    expect(await dialog.getByLabel('Maximum Iterations').inputValue()).toBe('100')
    expect(await dialog.getByLabel('Maximum Change').inputValue()).toBe('0.001')
    await dialog.getByLabel('Enable iterative calculation').check()
    await dialog.getByLabel('Maximum Iterations').fill('0')
    await dialog.getByRole('button', { name: 'OK' }).click()
    expect(await dialog.getByRole('alert').innerText()).toBe('Maximum Iterations must be a whole number from 1 to 32,767.')
    await dialog.getByLabel('Maximum Iterations').fill('50')
    await dialog.getByRole('button', { name: 'OK' }).click()
    await expect.poll(() => warning.count(), POLL).toBe(0)
    // once the dialog has closed, the keyboard is back in the grid: Ctrl+Z and Ctrl+Y take the setting
    // back and forth as one change
    await expect.poll(() => dialog.count(), POLL).toBe(0)
    await page.keyboard.press('Control+z')
    await expect.poll(() => warning.innerText(), POLL).toBe('Circular References: Sheet1!D1')
    await page.keyboard.press('Control+y')
    await expect.poll(() => warning.count(), POLL).toBe(0)
    expect(await shownIn('D1')).toBe('4')
    expect(await shownIn('E1')).toBe('3')
    await waitUntilSaved()
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    await page.getByRole('tab', { name: 'Sheet1' }).click()
    expect(await shownIn('D1')).toBe('4')
    expect(await warning.count()).toBe(0)
    const reopened = await openOptions()
    expect(await reopened.getByLabel('Enable iterative calculation').isChecked()).toBe(true)
    expect(await reopened.getByLabel('Maximum Iterations').inputValue()).toBe('50')
    await reopened.getByRole('button', { name: 'Cancel' }).click()
    await shownIn('E1')
    await typeEntry(page, '5')
    await waitUntilSaved()
  })

  it('does not call a sheet switch an unsaved change, and tells saving, saved and offline as they happen', async () => {
    await waitUntilSaved()
    await page.getByRole('tab', { name: 'Summary' }).click()
    expect(await saveState()).toContain('Saved')
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(await saveState()).toContain('Saved')
    await page.getByRole('tab', { name: 'Data' }).click()
    expect(await saveState()).toContain('Saved')

    const restore = await slowService()
    await shownIn('E1')
    await typeEntry(page, 'saved slowly')
    expect(await saveState()).toContain('Unsaved changes')
    await page.getByRole('tab', { name: 'Summary' }).click()
    await expect.poll(saveState, POLL).toContain('Saving…')
    await waitUntilSaved()
    await restore()

    const changes = '**/api/spreadsheet/workbook/*/changes'
    await page.route(changes, (route) => (route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue()))
    await shownIn('E2')
    await typeEntry(page, 'typed offline')
    await page.getByRole('tab', { name: 'Data' }).click()
    await expect.poll(saveState, { ...POLL, timeout: 30_000 }).toContain('Not saved (offline): kept in this browser')
    await page.unroute(changes)
    await waitUntilSaved()
    await page.getByRole('tab', { name: 'Summary' }).click()
    expect(await shownIn('E2')).toBe('typed offline')
  })

  it('lists the essential shortcuts first on the shortcuts page, then every other key of the action registry', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shortcuts' }).click()
    await page.waitForURL('**/shortcuts')
    const essentials = page.locator('section', { has: page.getByRole('heading', { name: 'Essentials' }) })
    const keys = await essentials.locator('tr td:first-child').allInnerTexts()
    expect(keys).toEqual(['Tab', 'Shift+Tab', 'Ctrl+PgUp/PgDn', 'Ctrl+G', 'Home', 'Ctrl+End', 'Alt+A', 'Alt+V', 'Alt+M', 'Alt+F', 'Alt+D', 'Alt+S'])
    const formatting = page.locator('section', { has: page.getByRole('heading', { name: 'Formatting' }) })
    expect(await formatting.getByRole('row', { name: /Ctrl\+B\s+Bold/ }).count()).toBe(1)
    await page.keyboard.press('Alt+s')
    await page.waitForURL(onSpreadsheet)
    await page.getByLabel('Formula bar').waitFor()
  })

  it('clears everything from its own menu, says what it erases, and erases no workbook', async () => {
    await page.getByRole('button', { name: 'Sheet options' }).click()
    expect(await page.getByRole('menuitem', { name: /Clear everything/ }).count()).toBe(0)
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: 'Clear data' }).click()
    await page.getByRole('menuitem', { name: 'Clear everything…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Clear all data?' })
    const text = await dialog.innerText()
    expect(text).toContain('Your session forgets which workbook was open and where you were in 2 workbooks.')
    expect(text).toContain('Your 2 workbooks stay in your account with their cells and versions: open them again from the workbooks list (File → Open).')
    expect(text).toContain('your sign-in (you sign in again)')
    expect(text).toContain('Then the page reloads.')
    await page.screenshot({ path: join(OUTPUT, 'clear-everything.png') })
    await Promise.all([page.waitForEvent('load'), dialog.getByRole('button', { name: 'Clear All Data' }).click()])
    await page.waitForURL('**/login')
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key !== 'hasSeenTour'))).toEqual([])

    // the session starts again on the user's first workbook, which kept its cells
    await signIn()
    await page.getByLabel('Formula bar').waitFor()
    await expect.poll(() => page.getByTestId('workbook-title').innerText(), POLL).toBe('Default Workbook')
    await expect.poll(() => shownIn('A1'), POLL).toBe('kept from the default workbook')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Version Control' }).click()
    await page.getByRole('tab', { name: 'By Workbook' }).click()
    await page.getByRole('button', { name: 'Open Model' }).click()
    await page.waitForURL(onSpreadsheet)
    await expect.poll(activeTab, POLL).toBe('Data')
    expect(await shownIn('A11')).toBe('Row 10')
  })

  it('calculates references to another workbook from the values the file kept, and lists the link', async () => {
    await page.getByRole('button', { name: 'Import Document' }).click()
    const dialog = page.getByRole('dialog', { name: 'Import Document' })
    await dialog.getByTestId('import-file-input').setInputFiles({ name: 'Linked.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await makeExternalLinkWorkbook() })
    await dialog.getByRole('button', { name: 'Process Document' }).click()
    await dialog.waitFor({ state: 'hidden', timeout: 60_000 })
    await expect.poll(activeTab, POLL).toBe('Model')
    // =[1]Sheet1!$C$8, the value Budget.xlsx held when the file was saved
    expect(await shownIn('A1')).toBe('1250.5')
    await page.getByRole('button', { name: 'Data', exact: true }).click()
    await page.getByRole('menuitem', { name: 'Edit Links…' }).click()
    const links = page.getByRole('dialog', { name: 'Links to other workbooks' })
    const listed = await links.getByRole('list', { name: 'Linked workbooks' }).locator('li').allInnerTexts()
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatch(/^\[1\] Budget\.xlsx · Sheet1, Q1 Plan\n\d+ formulas? · file:\/\/\/C:\/Models\/Budget\.xlsx$/)
    await links.getByRole('button', { name: 'Close' }).click()
  })
})
