/**
 * Output in a real browser through the real gateway and services: a three-sheet model given a page
 * setup (landscape, gridlines, the header row repeated) and exported as a PDF of the expected pages,
 * orientation and cell text, and printed through File → Print as the same pages; the workbook saved
 * as .json and imported again as a new workbook equal to it; a Help & Support request that fails
 * visibly, then is sent, stored and listed for a support admin.
 * Cells are read the accessible way: the cell-reference box, then the focused cell's label.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AllInOne } from '@finsheet/standalone'
import { startAllInOne } from '@finsheet/standalone'
import { PDFDocument } from 'pdf-lib'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readPdfPages } from '../../packages/workbook/src/pdf/extract-pdf.js'
import { buildWebForTests } from './support/build-web.js'
import { E2E_TIMEOUT, launchChromium, newTestContext, POLL } from './support/chromium.js'
import { onSpreadsheet } from './support/spreadsheet-url.js'

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))

let browser: Browser
let stack: AllInOne
let dataDir: string
let context: BrowserContext
let page: Page
let token: string

const stamp = Date.now()
const user = { name: 'Mary Jackson', email: `mary.${stamp}@example.com`, password: 'wind-tunnel-1958' }
const admin = { name: 'Support Desk', email: `support.${stamp}@example.com`, password: 'help-desk-2026' }
const MODEL_YEARS = 60

async function register(account: typeof user): Promise<string> {
  const answer = await fetch(`${stack.url}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password, fullName: account.name }),
  })
  expect(answer.status).toBe(201)
  return ((await answer.json()) as { token: string }).token
}

const api = async (path: string, init: { method?: string; body?: unknown; as?: string } = {}) => {
  const answer = await fetch(`${stack.url}/api${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${init.as ?? token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  })
  return { status: answer.status, json: (await answer.json()) as Record<string, unknown> & { workbook: { sheets: Record<string, unknown>[] } } }
}

/** Inputs, an assumption sheet; Model, sixty years of revenue; Summary, their total. */
function threeSheetModel() {
  const years = Array.from({ length: MODEL_YEARS }, (_, i) => [
    { address: `A${i + 2}`, input: String(2025 + i) },
    { address: `B${i + 2}`, input: i === 0 ? '=Inputs!B3' : `=B${i + 1}*(1+Inputs!$B$2)`, format: '#,##0.0' },
  ]).flat()
  return {
    name: 'Output model',
    sheets: [
      {
        name: 'Inputs',
        cells: [
          { address: 'A1', input: 'Assumption', style: { bold: true } },
          { address: 'B1', input: 'Value', style: { bold: true } },
          { address: 'A2', input: 'Growth' },
          { address: 'B2', input: '0.05', format: '0.0%' },
          { address: 'A3', input: 'First revenue' },
          { address: 'B3', input: '1000' },
        ],
      },
      { name: 'Model', cells: [{ address: 'A1', input: 'Year', style: { bold: true, fill: '#dbeafe' } }, { address: 'B1', input: 'Revenue', style: { bold: true, fill: '#dbeafe' } }, ...years] },
      { name: 'Summary', cells: [{ address: 'A1', input: 'Total revenue' }, { address: 'B1', input: `=SUM(Model!B2:B${MODEL_YEARS + 1})`, format: '#,##0' }] },
    ],
    definedNames: [{ name: 'Growth', formula: '=Inputs!$B$2' }],
  }
}

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true })
  const webRoot = await buildWebForTests()
  dataDir = mkdtempSync(join(tmpdir(), 'finsheet-e2e-output-'))
  stack = await startAllInOne({ port: 0, dataDir, logger: false, webRoot, env: { ...process.env, LOG_LEVEL: 'silent', AUTOSAVE_QUIET_MS: '300', SUPPORT_ADMIN_EMAILS: admin.email } })
  token = await register(user)
  browser = await launchChromium()
  context = await newTestContext(browser, { viewport: { width: 1440, height: 900 }, acceptDownloads: true })
  await context.addInitScript(() => localStorage.setItem('hasSeenTour', 'true'))
  page = await context.newPage()
  await page.goto(`${stack.url}/login`)
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.waitForURL(onSpreadsheet)
})

afterAll(async () => {
  await browser?.close()
  await stack?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

/** Selects a cell through the cell-reference box and reads the active cell from its label. */
async function shownIn(address: string): Promise<string> {
  const box = page.getByLabel('Cell reference')
  await box.click()
  await box.fill(address)
  await box.press('Enter')
  const label = (await page.locator('[data-testid="cell-editor"]').getAttribute('aria-label')) ?? ''
  return label === address ? '' : label.slice(address.length + 1)
}

async function menu(name: string, item: string): Promise<void> {
  await page.getByRole('menubar', { name: 'Menu bar' }).getByRole('button', { name, exact: true }).click()
  await page.getByRole('menuitem', { name: new RegExp(`^${item.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).click()
}

async function openSheet(name: string): Promise<void> {
  const tab = page.getByRole('tab', { name })
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click()
  await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe(name)
}

/** What a workbook holds, as the inputs route answers it, without what names the copy. */
async function contentOf(workbookId: string) {
  const { json } = await api(`/spreadsheet/workbook/${workbookId}/inputs`)
  const { workbookId: _id, name: _name, revision: _revision, iterationLimits, ...rest } = json.workbook as Record<string, unknown>
  // Excel's default limits (100 passes, 0.001) stated or left out are the same settings.
  const limits = iterationLimits as { maxIterations: number; maxChange: number } | undefined
  return limits && (limits.maxIterations !== 100 || limits.maxChange !== 0.001) ? { ...rest, iterationLimits: limits } : rest
}

describe('output', () => {
  it(
    'exports a page-set-up model as a PDF of the right pages, and a .json save imports again as an equal workbook',
    async () => {
      const created = await api('/spreadsheet/workbooks/import', { method: 'POST', body: threeSheetModel() })
      expect(created.status).toBe(201)
      const workbookId = created.json.workbookId as string
      await page.goto(`${stack.url}/workbooks/${workbookId}?sheet=Model`)
      await openSheet('Model')
      expect(await shownIn('B3')).toBe('1,050.0')

      // Page setup of Model: landscape, gridlines, headings, row 1 repeated; the PDF takes all sheets.
      await menu('File', 'Page setup')
      const dialog = page.getByRole('dialog', { name: 'Page setup: Model' })
      await dialog.getByLabel('Landscape').check()
      await dialog.getByLabel('Gridlines').check()
      await dialog.getByLabel('Rows to repeat at top').fill('$1:$1')
      await dialog.getByLabel('Scale (% of normal size)').fill('5')
      await dialog.getByRole('button', { name: 'OK' }).click()
      expect(await dialog.getByRole('alert').innerText()).toContain('Scale')
      await dialog.getByLabel('Scale (% of normal size)').fill('100')
      await dialog.getByLabel('Sheets to print').selectOption('all')
      const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export PDF' }).click()])
      expect(download.suggestedFilename()).toBe('Output model.pdf')
      const pdf = readFileSync((await download.path())!)
      writeFileSync(join(OUTPUT, 'output-model.pdf'), pdf)

      // Inputs: 1 page; Model, landscape: 28 rows, then 27 under the repeated header, then 5; Summary: 1.
      const pages = await readPdfPages(new Uint8Array(pdf))
      expect(pages).toHaveLength(5)
      expect(pages[0].text).toContain('Growth')
      expect(pages[0].text).toContain('5.0%')
      for (const modelPage of pages.slice(1, 4)) expect(modelPage.text).toContain('Revenue')
      expect(pages[1].text).toContain('2025')
      expect(pages[3].text).toContain(String(2025 + MODEL_YEARS - 1))
      expect(pages[3].text).not.toContain('2030')
      expect(pages[4].text).toContain('Total revenue')
      const landscape = (await PDFDocument.load(pdf)).getPages().map((pdfPage) => pdfPage.getWidth() > pdfPage.getHeight())
      expect(landscape).toEqual([false, true, true, true, false])
      if (existsSync('/usr/bin/pdftoppm')) {
        execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '2', '-l', '2', '-singlefile', join(OUTPUT, 'output-model.pdf'), join(OUTPUT, 'printed-page')])
      }

      // File → Print lays out the same pages in the document, then opens the browser's print dialog
      // (counted here instead); what the browser prints is those pages alone, one sheet of paper each.
      await page.evaluate(() => {
        const counted = window as unknown as { printDialogs: number }
        counted.printDialogs = 0
        window.print = () => void counted.printDialogs++
      })
      await menu('File', 'Print')
      const printView = page.getByTestId('print-view')
      await expect.poll(() => page.evaluate(() => (window as unknown as { printDialogs: number }).printDialogs), POLL).toBe(1)
      await page.emulateMedia({ media: 'print' })
      expect(await printView.getByRole('region').evaluateAll((sections) => sections.map((section) => section.getAttribute('aria-label')))).toEqual([
        'Page 1 of 5: Inputs',
        'Page 2 of 5: Model',
        'Page 3 of 5: Model',
        'Page 4 of 5: Model',
        'Page 5 of 5: Summary',
      ])
      const printed = await readPdfPages(new Uint8Array(await page.pdf({ preferCSSPageSize: true, printBackground: true })))
      expect(printed).toHaveLength(5)
      expect(printed[1].text).toContain('Revenue')
      expect(printed[4].text).toContain('Total revenue')
      // The app around the pages (its menus, the status bar's "Sheet 2 of 3") is not printed.
      expect(printed.map((printedPage) => printedPage.text).join(' ')).not.toMatch(/Sheet \d of \d|Data Validation|Help/)
      await page.emulateMedia({ media: null })
      await page.evaluate(() => window.dispatchEvent(new Event('afterprint')))
      await printView.waitFor({ state: 'detached', timeout: 10_000 })

      // The page setup is kept with the sheet: the service answers it.
      await expect
        .poll(async () => (await api(`/spreadsheet/workbook/${workbookId}/inputs`)).json.workbook.sheets.find((sheet) => sheet.name === 'Model')?.view, POLL)
        .toEqual({ pageSetup: { orientation: 'landscape', paperSize: 'letter', titleRows: { first: 0, last: 0 }, gridlines: true } })

      // Save (.json), then import it as a new workbook that holds the same.
      const [saved] = await Promise.all([page.waitForEvent('download'), menu('File', 'Save (.json)')])
      expect(saved.suggestedFilename()).toBe('spreadsheet-save.json')
      const file = readFileSync((await saved.path())!)
      const parsed = JSON.parse(file.toString('utf8')) as { workbook: { sheets: unknown[] }; activeSheet: string }
      expect(parsed.workbook.sheets).toHaveLength(3)
      expect(parsed.activeSheet).toBe('Model')
      await menu('File', 'Import Document Data')
      const importDialog = page.getByRole('dialog', { name: 'Import Document' })
      await importDialog.getByTestId('import-file-input').setInputFiles({ name: 'spreadsheet-save.json', mimeType: 'application/json', buffer: file })
      await importDialog.getByRole('button', { name: 'Process Document' }).click()
      await expect.poll(() => importDialog.getByRole('status').innerText(), POLL).toContain('spreadsheet-save.json was imported')
      await importDialog.waitFor({ state: 'hidden', timeout: 10_000 })
      await expect.poll(() => new URL(page.url()).pathname, POLL).not.toBe(`/workbooks/${workbookId}`)
      const copyId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!)
      await openSheet('Summary')
      expect(await shownIn('B1')).toBe(await summaryTotal(workbookId))
      expect(await contentOf(copyId)).toEqual(await contentOf(workbookId))
    },
    E2E_TIMEOUT,
  )

  it(
    'sends a Help & Support request, says so when sending fails, and lists it for a support admin only',
    async () => {
      await page.getByRole('menubar', { name: 'Menu bar' }).getByRole('button', { name: 'Help', exact: true }).click()
      const dialog = page.getByRole('dialog', { name: 'Help & Support' })
      expect(await dialog.getByLabel('Email').inputValue()).toBe(user.email)
      await dialog.getByLabel('Issue Category').selectOption('Feature Request')
      await dialog.getByLabel('Describe the Issue').fill('Please add a waterfall chart to the PDF export.')
      // A route that refuses the request: the form stays, with the reason.
      await page.route('**/api/users/support-requests', (route) =>
        route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: { code: 'INVALID_BODY', message: 'body/email must match format "email"' } }) }),
      )
      await dialog.getByRole('button', { name: 'Submit' }).click()
      await expect.poll(() => dialog.getByRole('alert').innerText(), POLL).toContain('could not be sent')
      await page.unroute('**/api/users/support-requests')
      await dialog.getByRole('button', { name: 'Submit' }).click()
      await expect.poll(() => dialog.getByRole('status').innerText(), POLL).toContain('Request Submitted')

      const adminToken = await register(admin)
      const listed = await api('/users/support-requests', { as: adminToken })
      expect(listed.status).toBe(200)
      expect(listed.json.requests).toEqual([
        expect.objectContaining({ name: user.name, email: user.email, category: 'Feature Request', description: 'Please add a waterfall chart to the PDF export.' }),
      ])
      expect((await api('/users/support-requests')).status).toBe(403)
    },
    E2E_TIMEOUT,
  )
})

/** The Summary total as the original workbook shows it. */
async function summaryTotal(workbookId: string): Promise<string> {
  const { json } = await api(`/spreadsheet/workbook/${workbookId}/cells?sheet=Summary`)
  return (json.workbook.sheets[0] as { cells: Record<string, { display: string }> }).cells.B1.display
}
