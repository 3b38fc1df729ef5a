/**
 * The formula help finds functions by description in a real browser, through the real gateway and
 * vector search: words typed where a function belongs list the functions they describe, and
 * choosing one replaces the words; when the vector search is away the catalogue still answers.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AllInOne } from '@finsheet/standalone'
import { startAllInOne } from '@finsheet/standalone'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildWebForTests } from './support/build-web.js'
import { launchChromium, newTestContext, E2E_TIMEOUT } from './support/chromium.js'
import { clickCell } from './support/grid-page.js'

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))

let browser: Browser
let stack: AllInOne
let dataDir: string
let page: Page

beforeAll(async () => {
  const webRoot = await buildWebForTests()
  dataDir = mkdtempSync(join(tmpdir(), 'finsheet-e2e-formula-search-'))
  stack = await startAllInOne({ port: 0, dataDir, logger: false, webRoot, env: { ...process.env, LOG_LEVEL: 'silent' } })
  browser = await launchChromium()
  const context = await newTestContext(browser, { viewport: { width: 1280, height: 800 } })
  page = await context.newPage()
  await page.goto(`${stack.url}/register`)
  await page.getByLabel('Full name').fill('Fran Search')
  await page.getByLabel('Email').fill(`fran.${Date.now()}@example.com`)
  await page.getByLabel('Password', { exact: true }).fill('amber-lantern-search-58')
  await page.getByLabel('Confirm password').fill('amber-lantern-search-58')
  await page.getByRole('button', { name: 'Create Account' }).click()
  await page.waitForURL(`${stack.url}/`)
  await page.getByRole('dialog', { name: 'Welcome to Finsheet' }).getByRole('button', { name: 'Skip' }).click()
  await page.getByRole('button', { name: /Start Blank/ }).click()
  await page.getByLabel('Formula bar').waitFor()
}, E2E_TIMEOUT)

afterAll(async () => {
  await browser?.close()
  await stack?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

describe('the formula help by description', { timeout: E2E_TIMEOUT }, () => {
  it("lists PMT for '=monthly payment' and completes it in place of the words", async () => {
    await clickCell(page, 'A1')
    await page.keyboard.type('=monthly payment')
    await page.getByRole('option', { name: /^PMT\b/, selected: true }).waitFor()
    await page.keyboard.press('Tab')
    expect(await page.getByLabel('Formula bar').inputValue()).toBe('=PMT(')
    await page.keyboard.press('Escape')
  })

  it("asks the vector search, which knows words the descriptions lack ('remove duplicates' → UNIQUE)", async () => {
    await clickCell(page, 'A2')
    const asked = page.waitForRequest((request) => request.url().endsWith('/api/vectordb/search/formulas'))
    await page.keyboard.type('=remove duplicates')
    expect((await asked).postDataJSON()).toMatchObject({ query: 'remove duplicates' })
    await page.getByRole('option', { name: /^UNIQUE\b/, selected: true }).waitFor()
    await page.keyboard.press('Escape')
  })

  it('keeps answering from the catalogue when the vector search is away', async () => {
    await page.route('**/api/vectordb/**', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'SERVICE_UNAVAILABLE', message: 'The vectordb service is unavailable' } }) }))
    await clickCell(page, 'A3')
    await page.keyboard.type('=net present value')
    await page.getByRole('option', { name: /^NPV\b/, selected: true }).waitFor()
    mkdirSync(OUTPUT, { recursive: true })
    await page.screenshot({ path: join(OUTPUT, 'formula-help.png') })
    await page.keyboard.press('Escape')
    await page.unroute('**/api/vectordb/**')
  })
})
