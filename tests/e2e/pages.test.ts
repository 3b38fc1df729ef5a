/**
 * The screens beside the spreadsheet, in a real browser through the real gateway and services:
 * the templates library (filters, preview, Use Template), Version Control (versions made by edits,
 * the computed summary, View Changes, Compare Versions, Restore), Visualizations (a chart of a range,
 * its analytics, a refused range, delete), file management (upload, import, the vector search,
 * delete with its confirmation and a deletion that finds the file already gone), Insights (an
 * error found in a workbook, trends of a model) and Workflows. Screenshots go to test-output/.
 */
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AllInOne } from '@finsheet/standalone'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { unnamedControls } from './support/accessibility.js'
import { E2E_TIMEOUT, POLL } from './support/chromium.js'
import { signedInBrowser, type SignedInBrowser } from './support/signed-in-browser.js'
import { typeEntry } from './support/grid-page.js'
import { onSpreadsheet } from './support/spreadsheet-url.js'

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))

let stack: AllInOne
let session: SignedInBrowser
let page: Page

const user = { name: 'Grace Hopper', email: `grace.${Date.now()}@example.com`, password: 'compiler-1952' }

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true })
  session = await signedInBrowser(user, 'finsheet-e2e-pages-')
  ;({ page, stack } = session)
})

afterAll(async () => {
  await session?.close()
})

/** Goes to a screen the way a user does, from the side bar. */
async function openScreen(name: string, path: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click()
  await page.waitForURL(path === '/' ? onSpreadsheet : `${stack.url}${path}`)
}

/** Selects a cell through the cell-reference box ('Assumptions!B5') and reads what it shows. */
async function shownIn(reference: string): Promise<string> {
  const box = page.getByLabel('Cell reference')
  await box.click()
  await box.fill(reference)
  await box.press('Enter')
  const address = reference.split('!').pop() as string
  const label = (await page.locator('[data-testid="cell-editor"]').getAttribute('aria-label')) ?? ''
  return label === address ? '' : label.slice(address.length + 1)
}

async function waitUntilSaved(): Promise<void> {
  await expect.poll(() => page.getByTestId('workbook-title').locator('..').innerText(), POLL).toContain('Saved')
}

/** The open toasts' texts. */
function toastTexts(): Promise<string[]> {
  return page.getByRole('list', { name: 'Notifications' }).locator('li').allInnerTexts()
}

/** A second session of the same user, for changes made behind the page's back. */
async function apiToken(): Promise<string> {
  const answer = await fetch(`${stack.url}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  })
  return ((await answer.json()) as { token: string }).token
}

describe('the screens beside the spreadsheet', { timeout: E2E_TIMEOUT }, () => {
  it('filters the templates library, previews a model and opens it as a new workbook', async () => {
    await openScreen('Financial Models', '/models')
    await page.getByRole('heading', { name: 'Financial Model Templates Library' }).waitFor()
    const cards = page.locator('article.template-card')
    await expect.poll(() => cards.count(), POLL).toBe(5)

    await page.getByLabel('Search models').fill('SAAS')
    await expect.poll(() => cards.allInnerTexts(), POLL).toEqual([expect.stringContaining('SaaS Metrics Dashboard')])
    await page.getByLabel('Search models').fill('')
    await page.getByLabel('Category', { exact: true }).selectOption('Personal Finance')
    expect(await page.getByText('No models found. Try adjusting your filters or search terms').count()).toBe(1)
    await page.getByLabel('Category', { exact: true }).selectOption('All')
    await page.getByRole('group', { name: 'Popular tags' }).getByRole('button', { name: 'Cash Flow' }).click()
    expect(await cards.locator('h2').allInnerTexts()).toEqual(['DCF Model', 'Real Estate Investment Analysis'])
    await page.getByLabel('Difficulty', { exact: true }).selectOption('Advanced')
    expect(await cards.locator('h2').allInnerTexts()).toEqual(['DCF Model'])
    await page.getByRole('group', { name: 'Popular tags' }).getByRole('button', { name: 'All', exact: true }).click()
    await page.getByLabel('Difficulty', { exact: true }).selectOption('All')
    expect(await cards.count()).toBe(5)
    expect(await unnamedControls(page)).toEqual([])

    await page.getByRole('button', { name: 'Preview DCF Model' }).click()
    const preview = page.getByRole('dialog', { name: 'DCF Model' })
    expect(await preview.locator('tbody tr').count()).toBe(15)
    expect(await preview.locator('tbody tr').nth(5).innerText()).toContain('Revenue in the last actual year')
    await page.screenshot({ path: join(OUTPUT, 'templates-preview.png') })
    await preview.getByRole('button', { name: 'Cancel' }).click()
    await preview.waitFor({ state: 'hidden' })
    await page.getByRole('button', { name: 'Preview DCF Model' }).click()
    await preview.getByRole('button', { name: 'Use This Template' }).click()
    await page.waitForURL(onSpreadsheet)
    await page.getByLabel('Formula bar').waitFor()
    await expect.poll(() => page.getByTestId('workbook-title').innerText(), POLL).toBe('DCF Model')
    await expect.poll(() => shownIn('Assumptions!B10'), POLL).toBe('4.0%')
  })

  it('keeps versions of the edits, shows and compares their cells, and restores one for real', async () => {
    // Assumptions!B10 is the risk-free rate, one of the parts of the WACC.
    await shownIn('Assumptions!B10')
    await typeEntry(page, '0.05')
    await waitUntilSaved()
    await openScreen('Version Control', '/version-control')
    await page.getByRole('heading', { name: 'Version Control' }).waitFor()
    expect(await page.getByText('Track every change, find any version instantly').count()).toBe(1)
    const cards = page.locator('article.version-card')
    await expect
      .poll(async () => {
        await page.reload()
        await page.getByRole('heading', { name: 'Version Control' }).waitFor()
        await page.locator('article.version-card, .empty-state').first().waitFor()
        return cards.count()
      }, POLL)
      .toBe(2)
    const stat = (label: string) => page.locator('.stat-card', { hasText: label }).locator('.stat-value').innerText()
    expect(await stat('Active Workbooks')).toBe('1')
    expect(await stat('Total Versions')).toBe('2')
    expect(await stat('Team Members')).toBe('4')
    expect(await stat('All Changes Saved')).toBe("You're protected")

    const newest = page.getByRole('article', { name: 'DCF Model, version 2' })
    const first = page.getByRole('article', { name: 'DCF Model, version 1' })
    expect(await newest.locator('.badge').allInnerTexts()).toEqual(['Current Version', 'Minor'])
    expect(await first.locator('.badge').allInnerTexts()).toEqual(['Major'])
    expect(await newest.getByRole('button', { name: /Restore/ }).count()).toBe(0)
    expect(await newest.innerText()).toContain('Grace Hopper')
    expect(await newest.innerText()).toMatch(/\d+ minutes? ago/)
    expect(await newest.locator('.version-changes').innerText()).toContain('Assumptions!B10 (Risk-free rate) 4.0% → 5.0%')
    expect(await newest.locator('.ai-summary p').nth(1).innerText()).toBe('A small edit on Assumptions that changed contents in place since version 1. Now 376 cells and 215 formulas on 5 sheets.')

    // search, type and workbook filters
    const search = page.getByPlaceholder('Search by filename, author, changes, or tags...')
    await search.fill('A SMALL EDIT')
    expect(await cards.count()).toBe(1)
    await search.fill('nobody wrote this')
    expect(await page.getByText('No versions match these filters.').count()).toBe(1)
    await search.fill('')
    await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Major Changes' })
    expect(await cards.count()).toBe(1)
    await page.getByLabel('Type', { exact: true }).selectOption({ label: 'All Changes' })
    await page.getByRole('tab', { name: 'By Workbook' }).click()
    expect(await page.locator('.workbook-row').innerText()).toContain('2 versions tracked')
    await page.getByRole('button', { name: 'View Versions of DCF Model' }).click()
    expect(await page.getByRole('tab', { name: 'Timeline View' }).getAttribute('aria-selected')).toBe('true')
    await page.getByRole('button', { name: 'Workbook: DCF Model. Show All' }).click()

    // View Changes: the real cells against the version before
    await newest.getByRole('button', { name: /View Changes/ }).click()
    const changes = page.getByRole('dialog', { name: 'Changes in version 2 of DCF Model' })
    const edited = changes.getByRole('table', { name: 'Differences on Assumptions' }).locator('tbody tr')
    await expect.poll(() => edited.count(), POLL).toBe(1)
    expect(await edited.locator('th').innerText()).toBe('B10\nChanged')
    expect(await edited.locator('td').allInnerTexts()).toEqual(['0.04', '0.05'])
    expect(await changes.locator('.diff-headline').innerText()).toMatch(/^1 cell edited, \d+ values recalculated$/)
    await changes.getByRole('button', { name: 'Close' }).click()

    // Compare Versions: two versions chosen on the timeline, side by side
    await page.getByRole('tab', { name: 'Compare Versions' }).click()
    expect(await page.getByRole('heading', { name: 'Version Comparison' }).count()).toBe(1)
    expect(await page.getByText('Select two versions from the timeline to compare changes side-by-side').count()).toBe(1)
    await page.getByRole('button', { name: 'Choose Versions' }).click()
    await page.getByLabel('Compare DCF Model, version 2').check()
    await page.getByLabel('Compare DCF Model, version 1').check()
    await page.getByRole('tab', { name: 'Compare Versions' }).click()
    await page.getByRole('heading', { name: 'DCF Model: version 1 → version 2' }).waitFor()
    await expect.poll(() => page.getByRole('table', { name: 'Differences on Valuation' }).locator('tbody tr').count(), POLL).toBeGreaterThan(10)
    await page.screenshot({ path: join(OUTPUT, 'version-compare.png') })
    expect(await unnamedControls(page)).toEqual([])

    // Restore the first version: a new current version, and the open workbook follows
    await page.getByRole('tab', { name: 'Timeline View' }).click()
    await first.getByRole('button', { name: /Restore/ }).click()
    await page.getByRole('dialog', { name: 'Restore this version?' }).getByRole('button', { name: 'Restore' }).click()
    await expect.poll(toastTexts, POLL).toContainEqual(expect.stringContaining('Restored version 1 of DCF Model as version 3'))
    const restored = page.getByRole('article', { name: 'DCF Model, version 3' })
    await restored.waitFor()
    expect(await restored.locator('.badge').allInnerTexts()).toEqual(['Current Version', 'Major'])
    expect(await restored.locator('.ai-summary').innerText()).toContain('Brings back version 1 of')
    await page.getByRole('button', { name: 'Learn More' }).click()
    await page.getByRole('dialog', { name: 'How versions work' }).getByRole('button', { name: 'Close' }).click()
    expect(await page.getByRole('heading', { name: 'Never lose your work again' }).count()).toBe(1)

    // The AI Version Assistant opens the workbook with the assistant, asked about the newest version's changes
    await page.getByRole('button', { name: 'AI Version Assistant' }).click()
    await page.waitForURL(/\/workbooks\//)
    const assistantPanel = page.getByRole('complementary', { name: 'AI assistant' })
    await expect.poll(() => assistantPanel.getByRole('combobox', { name: 'Message' }).inputValue(), POLL).toMatch(/^Version 3 of DCF Model changed: .+ Explain what these changes do/s)
    await assistantPanel.getByRole('button', { name: 'Close AI assistant' }).click()
    await expect.poll(() => shownIn('Assumptions!B10'), POLL).toBe('4.0%')
  })

  it("draws a chart from a range of the workbook, sums its series up, and deletes it", async () => {
    await openScreen('Visualizations', '/visualizations')
    await expect.poll(() => page.getByLabel('Workbook', { exact: true }).locator('option:checked').innerText(), POLL).toBe('DCF Model')
    await page.getByText('No charts in this workbook yet.', { exact: false }).waitFor()
    await page.getByRole('button', { name: 'New Bar chart' }).click()
    const dialog = page.getByRole('dialog', { name: 'New Chart' })
    await expect.poll(() => dialog.getByLabel('Sheet').locator('option').allInnerTexts(), POLL).toEqual(['Assumptions', 'Revenue', 'Operating', 'FCF', 'Valuation'])
    await dialog.getByLabel('Sheet').selectOption('Operating')
    await dialog.getByLabel('Data range').fill('revenue')
    await dialog.getByRole('button', { name: 'Create Chart' }).click()
    expect(await dialog.getByRole('alert').innerText()).toBe('revenue is not a range. Write it as A1:F6.')
    await dialog.getByLabel('Data range').fill('A3:F5')
    await dialog.getByLabel('Title').fill('Revenue and costs')
    await dialog.getByRole('button', { name: 'Create Chart' }).click()
    const chart = page.getByRole('img', { name: 'bar chart: Revenue and costs' })
    await chart.waitFor()
    expect(await chart.locator('rect').count()).toBe(10)
    expect(await page.locator('.chart-legend li').allInnerTexts()).toEqual(['Revenue', 'Cost of goods sold'])
    await page.screenshot({ path: join(OUTPUT, 'visualizations.png') })

    await page.getByRole('button', { name: /Analytics/ }).click()
    const revenue = page.locator('.analytics-table tbody tr', { hasText: 'Revenue' })
    expect(await revenue.locator('td').allInnerTexts()).toEqual(['5', '6,336', '1,267', '1,080', '1,469', '+36.0%', '+8.0%'])
    await page.getByRole('button', { name: /Analytics/ }).click()
    expect(await unnamedControls(page)).toEqual([])
    await page.getByRole('button', { name: 'Delete chart Revenue and costs' }).click()
    await page.getByText('No charts in this workbook yet.', { exact: false }).waitFor()
  })

  it('uploads, imports and deletes files, and says when a file was already deleted', async () => {
    await openScreen('Files', '/files')
    await page.getByRole('heading', { name: 'File Management' }).waitFor()
    await page.getByText('No files yet.', { exact: false }).waitFor()
    for (const tab of ['All Files (0)', 'Excel Workbooks (0)', 'PDF Documents (0)', 'Other Files (0)']) expect(await page.getByRole('tab', { name: tab }).count()).toBe(1)

    // the DCF model made from the template is indexed by a background job once it has been quiet a while
    const reader = await apiToken()
    const indexed = async () => {
      const answer = await fetch(`${stack.url}/api/vectordb/indexed-workbooks`, { headers: { authorization: `Bearer ${reader}` } })
      return ((await answer.json()) as { workbooks: { name: string }[] }).workbooks.map((workbook) => workbook.name)
    }
    await expect.poll(indexed, { ...POLL, timeout: 120_000 }).toContain('DCF Model')
    await page.getByRole('button', { name: 'Import from Vector DB' }).click()
    const vector = page.getByRole('dialog', { name: 'Import from Vector DB' })
    await vector.getByRole('listitem').filter({ hasText: /^DCF Model · \d+ cells indexed/ }).waitFor()
    await vector.getByRole('button', { name: 'Close' }).click()

    await page.getByRole('button', { name: 'Upload File' }).click()
    const upload = page.getByRole('dialog', { name: 'Upload File' })
    const input = upload.getByTestId('upload-file-input')
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a workbook') })
    expect(await upload.getByRole('alert').innerText()).toBe('Invalid file type. Please upload an Excel file (.xlsx, .xls, .csv) or a PDF document (.pdf)')
    const csv = 'Item,Q1,Q2,Q3\nRevenue,100,120,150\nCosts,60,70,80\n'
    await input.setInputFiles({ name: 'plan.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
    await upload.getByRole('button', { name: 'Upload', exact: true }).click()
    await expect.poll(() => upload.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow'), POLL).toBe('100')
    await expect.poll(toastTexts, POLL).toContainEqual(expect.stringContaining('File uploaded successfully'))
    // a spreadsheet goes into the grid
    await page.waitForURL(onSpreadsheet, { timeout: 15_000 })
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('plan')
    expect(await shownIn('D2')).toBe('150')

    await openScreen('Files', '/files')
    const row = page.locator('.file-table tbody tr', { hasText: 'plan.csv' })
    await expect.poll(() => row.locator('td').allInnerTexts(), POLL).toEqual([
      'plan.csv',
      'CSV file',
      `${csv.length} B`,
      expect.stringMatching(/\d{4}/),
      '12 cells, 0 formulas',
      expect.stringContaining('Import'),
    ])
    expect(await page.getByRole('tab', { name: 'Excel Workbooks (1)' }).count()).toBe(1)
    await page.getByRole('tab', { name: 'PDF Documents (0)' }).click()
    expect(await page.getByText('No files of this type.').count()).toBe(1)
    await page.getByRole('tab', { name: 'All Files (1)' }).click()
    expect(await unnamedControls(page)).toEqual([])

    // import makes another workbook of the file and opens it; a formula there will show an error
    await page.getByRole('button', { name: 'Import plan.csv' }).click()
    await page.waitForURL(onSpreadsheet)
    await expect.poll(toastTexts, POLL).toContainEqual(expect.stringContaining('Workbook imported successfully'))
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('plan')
    await shownIn('E2')
    await typeEntry(page, '=D2/0')
    expect(await shownIn('E2')).toBe('#DIV/0!')
    await waitUntilSaved()

    // delete: confirmation, optimistic removal, the success toast
    await openScreen('Files', '/files')
    await page.getByRole('button', { name: 'Delete plan.csv' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete file?' })
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    expect(await row.count()).toBe(1)
    await page.getByRole('button', { name: 'Delete plan.csv' }).click()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await expect.poll(toastTexts, POLL).toContainEqual(expect.stringContaining('File deleted successfully'))
    expect(await row.count()).toBe(0)

    // a file deleted elsewhere meanwhile: 'File Already Deleted', and it stays off the list
    const token = await apiToken()
    const form = new FormData()
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'second.csv')
    const uploaded = await fetch(`${stack.url}/api/files/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
    const { file } = (await uploaded.json()) as { file: { id: string } }
    await page.getByRole('button', { name: 'Refresh' }).click()
    // once processed, the list stops refreshing itself and cannot drop the row on its own
    await expect.poll(() => page.locator('.file-table tbody tr', { hasText: 'second.csv' }).locator('.file-status').innerText(), POLL).toBe('12 cells, 0 formulas')
    const removed = await fetch(`${stack.url}/api/files/delete/${file.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } })
    expect(removed.status).toBe(200)
    await page.getByRole('button', { name: 'Delete second.csv' }).click()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await expect.poll(toastTexts, POLL).toContainEqual(expect.stringContaining('File Already Deleted'))
    expect(await page.getByRole('button', { name: 'Delete second.csv' }).count()).toBe(0)
    await page.screenshot({ path: join(OUTPUT, 'files.png') })
  })

  it('computes insights from the workbooks: the error typed into one, the trends of the model', async () => {
    await openScreen('Insights', '/insights')
    const figure = (group: string, label: string) =>
      page.getByRole('group', { name: group }).locator('.stat-card').filter({ has: page.locator('.stat-label', { hasText: new RegExp(`^${label}$`) }) }).locator('.stat-value').innerText()
    // DCF Model, the uploaded plan, its imported copy, and the workbook second.csv became
    await expect.poll(() => figure('Across your workbooks', 'Workbooks'), POLL).toBe('4')
    // the workbook open in the session is the imported plan with its =D2/0
    await expect.poll(() => figure('Figures of plan', 'Cells showing errors'), POLL).toBe('1')
    const recommendations = page.getByRole('region', { name: 'Recommendations' })
    expect(await recommendations.locator('li').first().innerText()).toBe('Fix 1 cell showing errors. Start with plan!E2 (#DIV/0!).')
    expect(await page.getByRole('region', { name: 'Anomalies' }).innerText()).toContain('plan!E2 Revenue shows #DIV/0! (the error starts here)')

    await page.getByLabel('Workbook', { exact: true }).selectOption({ label: 'DCF Model' })
    await expect.poll(() => figure('Figures of DCF Model', 'Formulas'), POLL).toBe('215')
    const trends = page.getByRole('region', { name: 'Trends' })
    await expect.poll(() => trends.innerText(), POLL).toContain('Revenue (Revenue!B7:F7) 1,080 → 1,469 over 4 periods, +8.0% a period')
    expect(await recommendations.innerText()).toContain('No problems found')
    expect(await unnamedControls(page)).toEqual([])
    await page.screenshot({ path: join(OUTPUT, 'insights.png'), fullPage: true })
  })

  it('lists the workflow templates, and opens the form for a new workflow', async () => {
    await openScreen('Workflows', '/workflows')
    await expect.poll(() => page.locator('.workflow-row h3').allInnerTexts(), POLL).toEqual(['Monthly Financial Report', 'Data Validation Check', 'Revenue Forecast Update'])
    for (const card of ['Create New Workflow', 'Browse Templates', 'Recent Workflows']) expect(await page.locator('.action-card', { hasText: card }).count()).toBe(1)
    expect(await unnamedControls(page)).toEqual([])
    // A new workflow is written in a form: a name and its steps, each a kind and its text
    await page.locator('.action-card', { hasText: 'Create New Workflow' }).click()
    const form = page.getByRole('region', { name: 'New workflow' })
    await form.waitFor(POLL)
    await form.getByRole('button', { name: 'Add step' }).click()
    expect(await form.getByRole('combobox', { name: /^Step \d+/ }).count()).toBe(2)
    expect(await unnamedControls(page)).toEqual([])
    await form.getByRole('button', { name: 'Cancel' }).click()
    await form.waitFor({ state: 'detached', ...POLL })
    await page.locator('.action-card', { hasText: 'Browse Templates' }).click()
    expect(new URL(page.url()).pathname).toBe('/workflows')
  })

  it('fills the View and Data menus with working commands, keeps past notifications, and shares a link', async () => {
    await openScreen('Spreadsheet', '/')
    await page.getByRole('button', { name: 'View', exact: true }).click()
    await page.getByRole('menuitem', { name: 'Keyboard shortcuts' }).click()
    await page.waitForURL(`${stack.url}/shortcuts`)
    await openScreen('Spreadsheet', '/')
    await shownIn('Sheet1!A1')
    const above = await shownIn('A1')
    await page.getByRole('button', { name: 'Data', exact: true }).click()
    await page.getByRole('menuitem', { name: /^Insert 1 row above/ }).click()
    await expect.poll(() => shownIn('A2'), POLL).toBe(above)
    expect(await shownIn('A1')).toBe('')
    await page.keyboard.press('Control+z')
    await expect.poll(() => shownIn('A1'), POLL).toBe(above)

    await page.getByRole('button', { name: 'File', exact: true }).click()
    await page.getByRole('menuitem', { name: 'Share' }).click()
    await expect.poll(toastTexts, POLL).toContainEqual(expect.stringMatching(/^(Link copied|Share)/))
    await page.getByRole('button', { name: 'Notifications', exact: true }).click()
    const history = page.getByRole('list', { name: 'Notification history' })
    expect((await history.locator('li').allInnerTexts()).some((text) => /^(Link copied|Share)/.test(text))).toBe(true)
    await page.keyboard.press('Escape')
  })
})
