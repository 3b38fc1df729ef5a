/**
 * Sign-in through Firebase Authentication, as the app runs when it is built with a Firebase
 * project: the browser signs up and in with the Firebase SDK against the firebase-tools Auth
 * emulator (a demo- project, offline), and every service accepts the Firebase ID token.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AllInOne } from '@finsheet/standalone'
import { startAllInOne } from '@finsheet/standalone'
import type { FirebaseAuthEmulator } from '@finsheet/platform/testing'
import { startFirebaseAuthEmulator } from '@finsheet/platform/testing'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildWebForTests } from './support/build-web.js'
import { launchChromium, newTestContext, POLL, E2E_TIMEOUT } from './support/chromium.js'
import { typeEntry } from './support/grid-page.js'
import { onSpreadsheet } from './support/spreadsheet-url.js'

const PROJECT = 'demo-finsheet-web'
let emulator: FirebaseAuthEmulator
let stack: AllInOne
let browser: Browser
let page: Page
let dataDir: string
const user = { name: 'Grace Hopper', email: `grace.${Date.now()}@example.com`, password: 'cobol-1959' }

beforeAll(async () => {
  emulator = await startFirebaseAuthEmulator(PROJECT)
  const webRoot = await buildWebForTests({
    VITE_FIREBASE_API_KEY: 'demo-api-key',
    VITE_FIREBASE_PROJECT_ID: PROJECT,
    VITE_FIREBASE_AUTH_EMULATOR_URL: `http://${emulator.host}`,
  })
  dataDir = mkdtempSync(join(tmpdir(), 'finsheet-e2e-firebase-'))
  stack = await startAllInOne({
    port: 0,
    dataDir,
    logger: false,
    webRoot,
    env: { ...process.env, FIREBASE_PROJECT_ID: PROJECT, FIREBASE_AUTH_EMULATOR_HOST: emulator.host },
  })
  browser = await launchChromium()
  page = await (await newTestContext(browser, { viewport: { width: 1280, height: 800 } })).newPage()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await stack?.close()
  await emulator?.stop()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

async function cellLabel(p: Page, address: string): Promise<string> {
  const box = p.getByLabel('Cell reference')
  await box.click()
  await box.fill(address)
  await box.press('Enter')
  return (await p.locator('[data-testid="cell-editor"]').getAttribute('aria-label')) ?? ''
}

describe('the app with Firebase Authentication', { timeout: E2E_TIMEOUT }, () => {
  it('signs up with the Firebase SDK and works with the ID token it gets', async () => {
    await page.goto(`${stack.url}/register`)
    await page.getByLabel('Full name').fill(user.name)
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password', { exact: true }).fill(user.password)
    await page.getByLabel('Confirm password').fill(user.password)
    await page.getByRole('button', { name: 'Create Account' }).click()
    await page.waitForURL(onSpreadsheet)
    await page.getByRole('dialog', { name: 'Welcome to Finsheet' }).getByRole('button', { name: 'Skip' }).click()
    await page.getByRole('button', { name: /Start Blank/ }).click()
    await page.getByLabel('Formula bar').waitFor()
    await typeEntry(page, '=6*7')
    await expect.poll(() => page.getByTestId('workbook-title').locator('..').innerText(), POLL).toContain('Saved')
    expect(await cellLabel(page, 'A1')).toBe('A1 42')
  })

  it('stays signed in across a reload (the SDK keeps the sign-in) and finds the work', async () => {
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    expect(await cellLabel(page, 'A1')).toBe('A1 42')
    await page.getByRole('button', { name: 'User menu' }).click()
    expect(await page.getByText(user.email).count()).toBe(1)
    await page.keyboard.press('Escape')
  })

  it('signs out, refuses a wrong password, and signs in again with the SDK', async () => {
    await page.getByRole('button', { name: 'User menu' }).click()
    await page.getByRole('menuitem', { name: 'Sign out' }).click()
    await page.waitForURL('**/login')
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password').fill('not-the-password')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await expect.poll(() => page.locator('.form-alert').innerText(), POLL).toBe('invalid login: the email or password is incorrect, try again later')
    await page.getByLabel('Password').fill(user.password)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL(onSpreadsheet)
    await page.getByLabel('Formula bar').waitFor()
    expect(await cellLabel(page, 'A1')).toBe('A1 42')
  })

  it('signs a guest in with the custom token the users service makes', async () => {
    await page.getByRole('button', { name: 'User menu' }).click()
    await page.getByRole('menuitem', { name: 'Sign out' }).click()
    await page.waitForURL('**/login')
    await page.getByRole('button', { name: 'Continue as guest' }).click()
    await page.waitForURL(onSpreadsheet)
    await page.getByRole('heading', { name: 'Welcome to Finsheet', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'User menu' }).click()
    expect(await page.locator('.avatar-fallback').first().innerText()).toBe('U')
  })
})
