/**
 * Workflows in a real browser through the real gateway and services: a workflow made from a
 * built-in template is run on one of the user's workbooks as a job, its progress ends in Recent
 * Workflows with its steps and changeset, and the workbook it links to shows the changed cells.
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

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))

let browser: Browser
let stack: AllInOne
let dataDir: string
let context: BrowserContext
let page: Page
let token: string
let workbookId: string

const user = { name: 'Ada Lovelace', email: `ada.${Date.now()}@example.com`, password: 'engine-1843' }

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
  mkdirSync(OUTPUT, { recursive: true })
  const webRoot = await buildWebForTests()
  dataDir = mkdtempSync(join(tmpdir(), 'finsheet-e2e-workflows-'))
  stack = await startAllInOne({ port: 0, dataDir, logger: false, webRoot, env: { ...process.env, LOG_LEVEL: 'silent' } })
  const registered = await fetch(`${stack.url}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password, fullName: user.name }),
  })
  expect(registered.status).toBe(201)
  token = ((await registered.json()) as { token: string }).token
  // A forecast whose revenue is flat after the first year: the template's growth step changes it.
  workbookId = (await api<{ workbookId: string }>('POST', '/spreadsheet/workbooks', { name: 'Forecast' })).workbookId
  const columns = ['B', 'C', 'D', 'E', 'F']
  await api('POST', '/spreadsheet/update-cells', {
    workbookId,
    sheetName: 'Sheet1',
    updates: [
      { cellAddress: 'A1', value: '($k)' },
      ...columns.map((column, i) => ({ cellAddress: `${column}1`, value: `FY${2024 + i}` })),
      { cellAddress: 'A2', value: 'Revenue' },
      ...columns.map((column) => ({ cellAddress: `${column}2`, value: 1000 })),
    ],
  })
  await api('POST', '/spreadsheet/workbooks', { name: 'Scratch' })
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
async function shownIn(address: string): Promise<string> {
  const box = page.getByLabel('Cell reference')
  await box.click()
  await box.fill(address)
  await box.press('Enter')
  const label = (await page.locator('[data-testid="cell-editor"]').getAttribute('aria-label')) ?? ''
  return label === address ? '' : label.slice(address.length + 1)
}

describe('workflows', { timeout: E2E_TIMEOUT }, () => {
  it('makes a workflow from a template, runs it on a chosen workbook, lists the run and shows the changed cells', async () => {
    await page.goto(`${stack.url}/login`)
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password').fill(user.password)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL((url) => url.pathname !== '/login')
    await page.goto(`${stack.url}/workflows`)
    await page.getByRole('heading', { name: 'Workflows', level: 1 }).waitFor(POLL)
    await page.getByText('No workflows yet.').waitFor(POLL)

    await page.getByRole('button', { name: 'Use template Revenue Forecast Update' }).click()
    const saved = page.getByRole('list', { name: 'Your workflows' }).getByRole('listitem', { name: 'Revenue Forecast Update' })
    await saved.waitFor(POLL)
    expect(await saved.innerText()).toContain('Assistant command: grow revenue 10% a year in years 2 to 5')
    expect(await saved.innerText()).toContain('Not run yet.')

    await page.locator('.section-row').getByLabel('Workbook').selectOption({ label: 'Forecast' })
    await saved.getByRole('button', { name: 'Run' }).click()
    const recent = page.getByRole('list', { name: 'Recent Workflows' }).getByRole('listitem', { name: 'Revenue Forecast Update on Forecast' })
    await expect.poll(() => recent.locator('.badge').first().innerText(), POLL).toBe('Completed')
    await expect.poll(() => saved.innerText(), POLL).toContain('on Forecast: Completed')
    const text = await recent.innerText()
    expect(text).toContain('Save a version: Before the revenue forecast update')
    expect(text).toContain('Audit the workbook')
    await page.screenshot({ path: join(OUTPUT, 'workflows.png'), fullPage: true })

    // The run's record agrees with the page.
    const runs = (await api<{ runs: { id: string; status: string; steps: { changesetId: string | null; cellsChanged: number }[] }[] }>('GET', '/ai/workflows/runs')).runs
    expect(runs).toHaveLength(1)
    expect(runs[0].status).toBe('completed')
    expect(runs[0].steps[1].cellsChanged).toBe(4)

    // The changeset's link opens the workbook, whose revenue now grows 10% a year.
    await recent.getByRole('link', { name: /Changeset .*: 4 cells changed/ }).click()
    await page.waitForURL(`${stack.url}/workbooks/${workbookId}`)
    await page.getByLabel('Formula bar').waitFor(POLL)
    await expect.poll(() => shownIn('C2'), POLL).toBe('1100')
    expect(await shownIn('F2')).toMatch(/^1,?464\.1$/)
    expect(await page.getByLabel('Formula bar').inputValue()).toBe('=E2*(1+10%)')
  })

  it('writes a workflow in the form, with steps added and reordered, and undoes a run from Recent Workflows', async () => {
    await page.goto(`${stack.url}/workflows`)
    await page.locator('.action-card', { hasText: 'Create New Workflow' }).click()
    const form = page.getByRole('region', { name: 'New workflow' })
    await form.getByLabel('Name', { exact: true }).fill('Bold and check')
    await form.getByRole('button', { name: 'Create workflow' }).click()
    expect(await form.getByRole('alert').innerText()).toBe('Step 1: write the command the assistant carries out.')
    await form.getByRole('combobox', { name: /^Step 1/ }).selectOption({ label: 'Audit the workbook' })
    await form.getByRole('button', { name: 'Add step' }).click()
    await form.getByLabel('Command', { exact: true }).fill('make row 1 bold')
    await form.getByRole('button', { name: 'Move step 2 up' }).click()
    await form.getByRole('button', { name: 'Create workflow' }).click()
    await form.waitFor({ state: 'detached', ...POLL })
    const saved = page.getByRole('list', { name: 'Your workflows' }).getByRole('listitem', { name: 'Bold and check' })
    await saved.waitFor(POLL)
    expect(await saved.locator('.saved-workflow-steps li').allInnerTexts()).toEqual(['Assistant command: make row 1 bold', 'Audit the workbook'])

    await page.locator('.section-row').getByLabel('Workbook').selectOption({ label: 'Forecast' })
    await saved.getByRole('button', { name: 'Run' }).click()
    const recent = page.getByRole('list', { name: 'Recent Workflows' }).getByRole('listitem', { name: 'Bold and check on Forecast' })
    await expect.poll(() => recent.locator('.badge').first().innerText(), POLL).toBe('Completed')
    const bold = async () => {
      const answer = await api<{ workbook: { sheets: { cells: Record<string, { style: { bold?: boolean } | null }> }[] } }>('GET', `/spreadsheet/workbook/${workbookId}`)
      return answer.workbook.sheets[0].cells.B1.style?.bold === true
    }
    expect(await bold()).toBe(true)
    await recent.getByRole('button', { name: 'Undo run' }).click()
    await expect.poll(() => recent.innerText(), POLL).toContain('Undone')
    expect(await bold()).toBe(false)
  })
})
