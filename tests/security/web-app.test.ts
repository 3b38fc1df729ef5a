/**
 * The web app as its users get it, under the Content Security Policy the gateway sends: the build
 * has no inline script, Chromium reports no violation while a new user signs up and lands in the
 * app, the register page shows why a password is refused, and the login page shows the lockout
 * notice and waits it out.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildWebForTests } from '../e2e/support/build-web.js'
import { E2E_TIMEOUT, launchChromium, newTestContext, POLL } from '../e2e/support/chromium.js'
import { call, printTable, startStack, type Stack } from './support/stack.js'
import { onSpreadsheet } from '../e2e/support/spreadsheet-url.js'

let webRoot: string
let stack: Stack
let browser: Browser
const user = { name: 'Vera Violet', email: `vera.${Date.now()}@example.com`, password: 'violet-heron-7' }

beforeAll(async () => {
  webRoot = await buildWebForTests()
  stack = await startStack({ WEB_ROOT: webRoot })
  browser = await launchChromium()
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

/** A page that records every Content Security Policy violation it meets. */
async function watchedPage(): Promise<{ page: Page; violations: () => Promise<string[]> }> {
  const context = await newTestContext(browser, { viewport: { width: 1280, height: 800 } })
  await context.addInitScript(() => {
    const seen: string[] = []
    ;(globalThis as unknown as { cspViolations: string[] }).cspViolations = seen
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`))
  })
  const page = await context.newPage()
  const fromConsole: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) fromConsole.push(message.text())
  })
  return { page, violations: async () => [...fromConsole, ...(await page.evaluate(() => (globalThis as unknown as { cspViolations: string[] }).cspViolations))] }
}

describe('the web app under its Content Security Policy', { timeout: E2E_TIMEOUT }, () => {
  it('is built without inline script', () => {
    const pages = readdirSync(webRoot).filter((name) => name.endsWith('.html'))
    expect(pages).toContain('index.html')
    for (const name of pages) {
      const html = readFileSync(join(webRoot, name), 'utf8')
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
      expect(scripts.length, name).toBeGreaterThan(0)
      for (const [, attributes, body] of scripts) {
        expect(attributes, `${name}: every script has a src`).toMatch(/\bsrc=/)
        expect(body.trim(), `${name}: no script body`).toBe('')
      }
      expect(html, `${name}: no inline event handler`).not.toMatch(/\son[a-z]+\s*=/i)
      expect(html, `${name}: no javascript: URL`).not.toMatch(/javascript:/i)
    }
  })

  it('sends the policy with the page and its assets', async () => {
    const page = await call(stack, 'GET', '/login')
    const asset = readdirSync(join(webRoot, 'assets')).find((name) => name.endsWith('.js'))!
    const script = await fetch(`${stack.url}/assets/${asset}`)
    for (const headers of [page.headers, script.headers]) {
      expect(headers.get('content-security-policy')).toContain("script-src 'self';")
      expect(headers.get('x-content-type-options')).toBe('nosniff')
    }
    printTable('Security headers of the web app', ['header', 'value'], [
      ...['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'cross-origin-opener-policy'].map((name) => [name, page.headers.get(name) ?? '(none)']),
    ])
  })

  it('signs a new user up with no violation, showing why a weak password is refused', async () => {
    const { page, violations } = await watchedPage()
    await page.goto(`${stack.url}/register`)
    await page.getByLabel('Full name').fill(user.name)
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password', { exact: true }).fill('123456')
    await page.getByLabel('Confirm password').fill('123456')
    await page.getByRole('button', { name: 'Create Account' }).click()
    await expect.poll(() => page.getByRole('alert').innerText(), POLL).toBe('This password is too easy to guess. This is a heavily used password. Add more words that are less common.')
    await page.getByLabel('Password', { exact: true }).fill(user.password)
    await page.getByLabel('Confirm password').fill(user.password)
    await page.getByRole('button', { name: 'Create Account' }).click()
    await page.waitForURL(onSpreadsheet)
    await page.getByRole('dialog', { name: 'Welcome to Finsheet' }).getByRole('button', { name: 'Skip' }).click()
    await page.getByRole('button', { name: /Start Blank/ }).click()
    await page.getByLabel('Formula bar').waitFor()
    expect(await violations()).toEqual([])
    await page.context().close()
  })

  it('shows the lockout notice after repeated wrong passwords, and keeps Sign In off until it ends', async () => {
    const { page, violations } = await watchedPage()
    await page.goto(`${stack.url}/login`)
    await page.getByLabel('Email').fill(user.email)
    const alert = page.locator('.form-alert')
    const attempt = async (password: string) => {
      await page.getByLabel('Password').fill(password)
      const answered = page.waitForResponse((response) => response.url().endsWith('/api/users/login'))
      await page.getByRole('button', { name: 'Sign In' }).click()
      return (await answered).status()
    }
    for (let i = 1; i <= 4; i++) {
      expect(await attempt(`wrong-guess-${i}`)).toBe(401)
      await expect.poll(() => alert.innerText(), POLL).toBe('invalid login: the email or password is incorrect, try again later')
    }
    expect(await attempt('wrong-guess-5')).toBe(429)
    await expect.poll(() => alert.innerText(), POLL).toBe('invalid login: too many failed sign-in attempts, try again later')
    const notice = page.locator('.lockout-notice')
    await expect.poll(() => notice.innerText(), POLL).toMatch(/^Too many failed sign-in attempts\. Try again in (30|29|28|27|26|25) seconds\.$/)
    expect(await page.getByRole('button', { name: 'Sign In' }).isDisabled()).toBe(true)
    // The countdown moves.
    const first = await notice.innerText()
    await expect.poll(() => notice.innerText(), POLL).not.toBe(first)
    expect(await violations()).toEqual([])
    printTable('Login page after 5 wrong passwords', ['shown', 'text'], [
      ['alert', await alert.innerText()],
      ['notice', await notice.innerText()],
      ['Sign In', 'disabled until the lockout ends'],
    ])
    await page.context().close()
  })
})
