/**
 * The whole product in a real browser, through the real gateway and services (all in one process
 * on free loopback ports with a temporary data folder): sign-up and sign-in, the welcome screen,
 * a blank workbook (the user's first, kept by the spreadsheet service) edited with values, formulas,
 * pointing, autocomplete, sheets, a pasted block and undo, all still there after a reload, then
 * sign-out. Screenshots of the login, home and
 * grid screens go to test-output/.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AllInOne } from '@finsheet/standalone'
import ExcelJS from 'exceljs'
import { startAllInOne } from '@finsheet/standalone'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildWebForTests } from './support/build-web.js'
import { launchChromium, newTestContext, POLL, E2E_TIMEOUT } from './support/chromium.js'
import { unnamedControls } from './support/accessibility.js'
import { clickCell, pasteFromOtherProgram, statusAddress, typeEntry } from './support/grid-page.js'
import { onSpreadsheet } from './support/spreadsheet-url.js'

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))

let browser: Browser
let stack: AllInOne
let dataDir: string
let context: BrowserContext
let page: Page

const user = { name: 'Ada Lovelace', email: `ada.${Date.now()}@example.com`, password: 'analytical-1843' }

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true })
  const webRoot = await buildWebForTests()
  dataDir = mkdtempSync(join(tmpdir(), 'finsheet-e2e-'))
  stack = await startAllInOne({ port: 0, dataDir, logger: false, webRoot, env: { ...process.env, LOG_LEVEL: 'silent' } })
  browser = await launchChromium()
  context = await newTestContext(browser, { viewport: { width: 1440, height: 900 } })
  page = await context.newPage()
})

afterAll(async () => {
  await browser?.close()
  await stack?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

/** What a cell shows, read the way a screen reader user would: select it, read the cell's label. */
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

describe('the app through the gateway', { timeout: E2E_TIMEOUT }, () => {
  it('shows the not-found screen for unknown paths', async () => {
    await page.goto(`${stack.url}/no/such/page`)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText(), POLL).toBe('404 Page Not Found')
    expect(await page.getByText('Did you forget to add the page to the router?').count()).toBe(1)
    expect(await page.title()).toBe('AI-Driven Spreadsheet Application')
  })

  it('sends a signed-out visitor to /login', async () => {
    await page.goto(`${stack.url}/version-control`)
    await page.waitForURL('**/login')
    expect(await page.getByRole('button', { name: 'Sign In' }).count()).toBe(1)
    expect(await page.getByLabel('Email').getAttribute('type')).toBe('email')
    await page.screenshot({ path: join(OUTPUT, 'login.png') })
    expect(await unnamedControls(page)).toEqual([])
  })

  it('signs a guest in with a custom token and explains the Google button without Firebase', async () => {
    const guest = await newTestContext(browser, { viewport: { width: 1280, height: 800 } })
    const guestPage = await guest.newPage()
    await guestPage.goto(`${stack.url}/login`)
    await guestPage.getByRole('button', { name: 'Continue with Google' }).click()
    expect(await guestPage.getByRole('status').filter({ hasText: 'Google sign-in needs Firebase Authentication' }).count()).toBe(1)
    await guestPage.getByRole('button', { name: 'Continue as guest' }).click()
    await guestPage.waitForURL(onSpreadsheet)
    await guestPage.getByRole('heading', { name: 'Welcome to Finsheet', level: 1 }).waitFor()
    await guest.close()
  })

  it('clears everything after a confirmation: an empty session, no local data, a reload', async () => {
    const guest = await newTestContext(browser, { viewport: { width: 1280, height: 800 } })
    const guestPage = await guest.newPage()
    await guestPage.goto(`${stack.url}/login`)
    await guestPage.getByRole('button', { name: 'Continue as guest' }).click()
    await guestPage.getByRole('dialog', { name: 'Welcome to Finsheet' }).getByRole('button', { name: 'Skip' }).click()
    await guestPage.getByRole('button', { name: /Start Blank/ }).click()
    await guestPage.getByLabel('Formula bar').waitFor()
    await typeEntry(guestPage, 'to be cleared')
    await guestPage.getByRole('button', { name: 'Clear data' }).click()
    await guestPage.getByRole('menuitem', { name: 'Clear everything…' }).click()
    const confirm = guestPage.getByRole('dialog', { name: 'Clear all data?' })
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    expect(await guestPage.getByLabel('Formula bar').count()).toBe(1)
    await guestPage.getByRole('button', { name: 'Clear data' }).click()
    await guestPage.getByRole('menuitem', { name: 'Clear everything…' }).click()
    await Promise.all([guestPage.waitForEvent('load'), confirm.getByRole('button', { name: 'Clear All Data' }).click()])
    // local storage was wiped: the sign-in and the tour flag went with it
    await guestPage.waitForURL('**/login')
    expect(await guestPage.evaluate(() => Object.keys(localStorage))).toEqual([])
    await guest.close()
  })

  it('validates registration with the spec texts', async () => {
    await page.getByRole('link', { name: 'Create one' }).click()
    await page.waitForURL('**/register')
    const alert = page.getByRole('alert')
    await page.getByRole('button', { name: 'Create Account' }).click()
    expect(await alert.innerText()).toBe('Please fill all required fields')
    await page.getByLabel('Full name').fill(user.name)
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password', { exact: true }).fill('short')
    await page.getByLabel('Confirm password').fill('other')
    await page.getByRole('button', { name: 'Create Account' }).click()
    expect(await alert.innerText()).toBe('Passwords do not match')
    await page.getByLabel('Confirm password').fill('short')
    await page.getByRole('button', { name: 'Create Account' }).click()
    expect(await alert.innerText()).toBe('Password must be at least 6 characters')
  })

  it('registers, and shows the welcome screen and the tour for a new user', async () => {
    await page.getByLabel('Password', { exact: true }).fill(user.password)
    await page.getByLabel('Confirm password').fill(user.password)
    await page.getByRole('button', { name: 'Create Account' }).click()
    await page.waitForURL(onSpreadsheet)
    const tour = page.getByRole('dialog', { name: 'Welcome to Finsheet' })
    await tour.waitFor()
    await tour.getByRole('button', { name: 'Skip' }).click()
    await page.getByRole('heading', { name: 'Welcome to Finsheet' }).waitFor()
    for (const action of ['Upload Excel File', 'Start Blank', 'Continue with existing workbook']) {
      expect(await page.getByRole('button', { name: new RegExp(action) }).count()).toBe(1)
    }
    expect(await page.getByText('Clear All Data & Refresh').count()).toBe(1)
    expect(await page.getByTestId('workbook-title').innerText()).toBe('Default Workbook')
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link').count()).toBe(8)
    expect(await page.getByRole('link', { name: 'Spreadsheet' }).getAttribute('aria-current')).toBe('page')
    await page.screenshot({ path: join(OUTPUT, 'home.png') })
  })

  it('starts blank and computes values, formulas, pointed references and autocompleted functions', async () => {
    await page.getByRole('button', { name: /Start Blank/ }).click()
    await page.getByLabel('Formula bar').waitFor()
    expect(await page.getByLabel('Formula bar').getAttribute('placeholder')).toBe('Enter formula or value')
    await typeEntry(page, 'Revenue', 'Tab')
    await typeEntry(page, '1200')
    await clickCell(page, 'A2')
    await typeEntry(page, 'Costs', 'Tab')
    await typeEntry(page, '700')
    await clickCell(page, 'A3')
    await typeEntry(page, 'Profit', 'Tab')
    await page.keyboard.type('=SUM(')
    await clickCell(page, 'B1')
    await clickCell(page, 'B2', ['Shift'])
    await page.keyboard.press('Enter')
    await clickCell(page, 'A4')
    await typeEntry(page, 'Margin', 'Tab')
    await page.keyboard.type('=ROU')
    await page.getByRole('option', { name: /^ROUND\b/ }).first().waitFor()
    await page.keyboard.press('Tab')
    await page.keyboard.type('(B1-B2)/B1,3')
    await page.keyboard.press('Enter')
    expect(await shownIn('B3')).toBe('1900')
    expect(await inputOf('B3')).toBe('=SUM(B1:B2)')
    expect(await inputOf('B4')).toBe('=ROUND((B1-B2)/B1,3)')
    expect(await shownIn('B4')).toBe('0.417')
    expect(await statusAddress(page)).toBe('B4')
    await page.getByRole('button', { name: 'Bold (Ctrl+B)' }).click()
    await page.getByRole('button', { name: 'Percent format' }).click()
    expect(await shownIn('B4')).toBe('41.70%')
  })

  it('adds and switches sheets, pastes a TSV block and undoes the last change', async () => {
    await page.getByRole('button', { name: 'Add sheet' }).click()
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Sheet2')
    await typeEntry(page, '=Sheet1!B3*2')
    expect(await shownIn('A1')).toBe('3800')
    await clickCell(page, 'C1')
    await pasteFromOtherProgram(page, 'Q1\tQ2\r\n10\t20\r\n')
    expect(await shownIn('D2')).toBe('20')
    await clickCell(page, 'E5')
    await typeEntry(page, 'a mistake')
    await page.keyboard.press('Control+z')
    expect(await shownIn('E5')).toBe('')
    await page.getByRole('tab', { name: 'Sheet1' }).click()
    await expect.poll(() => page.getByText('Sheet 1 of 2').count(), POLL).toBe(1)
    expect(await shownIn('A3')).toBe('Profit')
    await page.screenshot({ path: join(OUTPUT, 'grid.png') })
    expect(await unnamedControls(page)).toEqual([])
    for (const menu of ['File', 'Edit', 'View', 'Format', 'Data', 'Number format', 'Format', 'Sheet options', 'Clear data', 'User menu', 'Notifications']) {
      const button = page.getByRole('button', { name: menu, exact: true }).first()
      await button.click()
      expect(await unnamedControls(page), menu).toEqual([])
      await page.keyboard.press('Escape')
    }
  })

  it('works from the keyboard alone: menus, the side bar and the grid', async () => {
    // the File menu opens from the keyboard and its items take Enter
    await page.getByRole('button', { name: 'File', exact: true }).focus()
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent), POLL).toBe('New Spreadsheet')
    await page.keyboard.press('Escape')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('File')
    // Tab reaches the side bar's links, and Enter follows them
    await page.getByRole('link', { name: 'Shortcuts' }).focus()
    await page.keyboard.press('Enter')
    await page.waitForURL('**/shortcuts')
    expect(await page.getByRole('heading', { name: 'Keyboard Shortcuts' }).count()).toBe(1)
    expect(await unnamedControls(page)).toEqual([])
    await page.keyboard.press('Alt+s')
    await page.waitForURL(onSpreadsheet)
    await page.getByLabel('Formula bar').waitFor()
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')), POLL).toBe('cell-editor')
    // Tab moves between cells; F6 leaves the grid, and Tab goes on from the cell-reference box
    await page.keyboard.press('F6')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Cell reference')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Formula bar')
    await page.keyboard.press('Escape')
  })

  it('takes a help request once every field is filled', async () => {
    await page.getByRole('button', { name: 'Help', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Help & Support' })
    const submit = dialog.getByRole('button', { name: 'Submit' })
    expect(await dialog.getByLabel('Name').inputValue()).toBe(user.name)
    expect(await dialog.getByLabel('Email').getAttribute('type')).toBe('email')
    expect(await submit.isDisabled()).toBe(true)
    await dialog.getByLabel('Issue Category').selectOption('Feature Request')
    expect(await submit.isDisabled()).toBe(true)
    await dialog.getByLabel('Describe the Issue').fill('A waterfall chart, please.')
    expect(await submit.isDisabled()).toBe(false)
    await submit.click()
    await expect.poll(() => dialog.getByRole('heading', { name: 'Request Submitted' }).count(), POLL).toBe(1)
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click()
  })

  it('keeps everything after a reload', async () => {
    await expect.poll(() => page.getByTestId('workbook-title').locator('..').innerText(), POLL).toContain('Saved')
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    expect(await inputOf('B3')).toBe('=SUM(B1:B2)')
    expect(await shownIn('B4')).toBe('41.70%')
    expect(await page.getByRole('button', { name: 'Bold (Ctrl+B)' }).getAttribute('aria-pressed')).toBe('true')
    await page.getByRole('tab', { name: 'Sheet2' }).click()
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Sheet2')
    expect(await shownIn('A1')).toBe('3800')
    expect(await shownIn('C1')).toBe('Q1')
    expect(await shownIn('E5')).toBe('')
  })

  it('saves an edit made just before the page is left', async () => {
    await page.getByRole('tab', { name: 'Sheet2' }).click()
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Sheet2')
    await clickCell(page, 'F1')
    await typeEntry(page, 'typed then reloaded')
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    const sheet2 = page.getByRole('tab', { name: 'Sheet2' })
    if ((await sheet2.getAttribute('aria-selected')) !== 'true') await sheet2.click()
    expect(await shownIn('F1')).toBe('typed then reloaded')
  })

  it('saves edits of the first workbook to the spreadsheet service while the users service cannot save the session', async () => {
    const sessionSave = '**/api/users/spreadsheet-session'
    await page.route(sessionSave, (route) => (route.request().method() === 'POST' ? route.abort('connectionrefused') : route.continue()))
    await clickCell(page, 'G1')
    await typeEntry(page, 'typed while the session could not be saved')
    const saveState = () => page.getByTestId('workbook-title').locator('..').innerText()
    // the edit is the spreadsheet service's business alone: it is saved, whatever the session does
    await expect.poll(saveState, { ...POLL, timeout: 30_000 }).toContain('Saved')
    expect(await page.getByText('Error saving cell edit - changes may not persist after refresh').count()).toBe(0)
    await page.unroute(sessionSave)
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    const sheet2 = page.getByRole('tab', { name: 'Sheet2' })
    if ((await sheet2.getAttribute('aria-selected')) !== 'true') await sheet2.click()
    await expect.poll(() => shownIn('G1'), POLL).toBe('typed while the session could not be saved')
    expect(await shownIn('F1')).toBe('typed then reloaded')
  })

  it('signs out with its toast, refuses a wrong password, and signs back in to the same work', async () => {
    await page.getByRole('button', { name: 'User menu' }).click()
    expect(await page.getByText(user.email).count()).toBe(1)
    await page.getByRole('menuitem', { name: 'Sign out' }).click()
    await page.waitForURL('**/login')
    await expect.poll(() => page.getByText('You have been signed out successfully').count(), POLL).toBe(1)
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password').fill('wrong-password')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await expect.poll(() => page.locator('.form-alert').innerText(), POLL).toMatch(/^invalid login: .* try again later$/)
    await page.getByLabel('Password').fill(user.password)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL(onSpreadsheet)
    await page.getByLabel('Formula bar').waitFor()
    const sheet1 = page.getByRole('tab', { name: 'Sheet1' })
    if ((await sheet1.getAttribute('aria-selected')) !== 'true') await sheet1.click()
    expect(await shownIn('B3')).toBe('1900')
    expect(await shownIn('B4')).toBe('41.70%')
  })

  it("imports an xlsx through the dialog following the job's real progress, and edits it through the spreadsheet service", async () => {
    await page.getByRole('button', { name: 'Import Document' }).click()
    const dialog = page.getByRole('dialog', { name: 'Import Document' })
    await dialog.getByRole('button', { name: 'Process Document' }).click()
    expect(await dialog.getByRole('alert').innerText()).toContain('Please select a file to upload')
    const input = dialog.getByTestId('import-file-input')
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a workbook') })
    expect(await dialog.getByRole('alert').innerText()).toContain('Please upload a PDF or Excel file (.xlsx, .xls, .csv)')
    await input.setInputFiles({ name: 'Forecast.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await forecastWorkbook() })
    await dialog.getByRole('button', { name: 'Process Document' }).click()
    const progress = dialog.getByRole('progressbar', { name: 'Import progress' })
    await expect.poll(() => progress.getAttribute('aria-valuenow'), POLL).toBe('100')
    expect(await dialog.getByRole('status').innerText()).toContain('Forecast.xlsx was imported')
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 })
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Revenue')
    // the top bar names the workbook as the list and downloads do
    expect(await page.getByTestId('workbook-title').innerText()).toBe('Forecast')
    expect(await shownIn('B3')).toBe('110')
    expect(await inputOf('B3')).toBe('=B2*1.1')

    await clickCell(page, 'B2')
    await typeEntry(page, '200')
    expect(await shownIn('B3')).toBe('220')
    await expect.poll(() => page.getByTestId('workbook-title').locator('..').innerText(), POLL).toContain('Saved')
    await page.getByRole('button', { name: /^Undo/ }).click()
    await expect.poll(() => shownIn('B2'), POLL).toBe('100')
    expect(await shownIn('B3')).toBe('110')
    await clickCell(page, 'A5')
    await typeEntry(page, 'kept on the server')

    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Revenue')
    expect(await shownIn('A5')).toBe('kept on the server')
    expect(await shownIn('B3')).toBe('110')

    await page.getByRole('button', { name: 'File' }).click()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Download .xlsx' }).click()])
    const bytes = await streamBytes(await download.createReadStream())
    expect(bytes.subarray(0, 2).toString()).toBe('PK')
    const exported = new ExcelJS.Workbook()
    await exported.xlsx.load(bytes as unknown as ArrayBuffer)
    expect(exported.getWorksheet('Revenue')?.getCell('A5').value).toBe('kept on the server')
  })

  it('keeps edits the spreadsheet service could not take through a reload, and saves them once it answers again', async () => {
    const changes = '**/api/spreadsheet/workbook/*/changes'
    await page.route(changes, (route) => (route.request().method() === 'POST' ? route.abort('connectionrefused') : route.continue()))
    await clickCell(page, 'A7')
    await typeEntry(page, 'typed while offline')
    const saveState = () => page.getByTestId('workbook-title').locator('..').innerText()
    await expect.poll(() => page.getByText('Error saving cell edit - changes may not persist after refresh').count(), POLL).toBeGreaterThan(0)
    await expect.poll(saveState, POLL).toContain('Not saved')

    // Still unreachable across a reload: the edit comes back from the browser, not the service.
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Revenue')
    await expect.poll(() => shownIn('A7'), POLL).toBe('typed while offline')
    const kept = () => page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('finsheet:pending-edits:')).length)
    expect(await kept()).toBe(1)

    // The service is back: the retry saves it and the browser lets it go.
    await page.unroute(changes)
    await expect.poll(saveState, { ...POLL, timeout: 30_000 }).toContain('Saved')
    expect(await kept()).toBe(0)
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    await expect.poll(() => shownIn('A7'), POLL).toBe('typed while offline')
    expect(await shownIn('A5')).toBe('kept on the server')
  })
})

async function forecastWorkbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('Revenue')
  sheet.getCell('A1').value = 'Year'
  sheet.getCell('B1').value = 'Sales'
  sheet.getCell('A2').value = 2024
  sheet.getCell('B2').value = 100
  sheet.getCell('A3').value = 2025
  sheet.getCell('B3').value = { formula: 'B2*1.1', result: 110 }
  return Buffer.from(await book.xlsx.writeBuffer())
}

async function streamBytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks)
}
