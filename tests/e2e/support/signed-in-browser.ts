import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AllInOne } from '@finsheet/standalone'
import { startAllInOne } from '@finsheet/standalone'
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { buildWebForTests } from './build-web.js'
import { launchChromium, newTestContext } from './chromium.js'
import { onSpreadsheet } from './spreadsheet-url.js'

export interface TestUser {
  name: string
  email: string
  password: string
}

/** The whole product on loopback ports, and a Chromium page signed in to it on the spreadsheet. */
export interface SignedInBrowser {
  stack: AllInOne
  browser: Browser
  context: BrowserContext
  page: Page
  close(): Promise<void>
}

/** What a suite needs beyond the usual: settings of the services, and of the browser's page (clipboard permissions). */
export interface SignedInOptions {
  env?: Record<string, string>
  context?: BrowserContextOptions
}

/**
 * Builds the web app, starts every service in this process with its data in a fresh folder (auto-save
 * after 300 ms of quiet, so that versions come quickly), registers `user`, and signs them in through the
 * login screen of a 1440×900 page with the welcome tour already seen.
 */
export async function signedInBrowser(user: TestUser, dataDirPrefix: string, options: SignedInOptions = {}): Promise<SignedInBrowser> {
  const webRoot = await buildWebForTests()
  const dataDir = mkdtempSync(join(tmpdir(), dataDirPrefix))
  const stack = await startAllInOne({ port: 0, dataDir, logger: false, webRoot, env: { ...process.env, LOG_LEVEL: 'silent', AUTOSAVE_QUIET_MS: '300', ...options.env } })
  const registered = await fetch(`${stack.url}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password, fullName: user.name }),
  })
  if (registered.status !== 201) throw new Error(`registering ${user.email} answered ${registered.status}: ${await registered.text()}`)
  const browser = await launchChromium()
  const context = await newTestContext(browser, { viewport: { width: 1440, height: 900 }, ...options.context })
  await context.addInitScript(() => localStorage.setItem('hasSeenTour', 'true'))
  const page = await context.newPage()
  await page.goto(`${stack.url}/login`)
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.waitForURL(onSpreadsheet)
  return {
    stack,
    browser,
    context,
    page,
    async close() {
      await browser.close()
      await stack.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
