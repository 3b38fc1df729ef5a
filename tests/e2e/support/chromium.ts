import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import type { Browser, LaunchOptions } from 'playwright-core'
import { chromium } from 'playwright-core'

/** The Debian package that provides the browser the tests drive. */
export const CHROMIUM_PACKAGE = 'chromium'

/**
 * Where Chromium is: CHROMIUM_PATH when set, else the first of chromium, chromium-browser or
 * google-chrome on the PATH. Throws, naming the package to install, when there is none — browser
 * tests never skip silently.
 */
export function findChromium(): string {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH points to ${fromEnv}, which does not exist`)
    return fromEnv
  }
  for (const command of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      const path = execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim()
      if (path) return path
    } catch {
      // not on the PATH; try the next name
    }
  }
  throw new Error(
    `Chromium was not found. The browser tests need the Debian package "${CHROMIUM_PACKAGE}": apt-get install -y ${CHROMIUM_PACKAGE} (or set CHROMIUM_PATH).`,
  )
}

/** Flags for a quiet headless browser that reaches nothing but the test's own servers. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]

export function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    headless: true,
    ...options,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  })
}

/**
 * A browser context for the tests. The TypeScript loaders (tsx, vitest) compile functions with a
 * `__name` helper to keep their names; functions passed to `page.evaluate` run in the page, so
 * the page gets the same helper.
 */
export async function newTestContext(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}) {
  const context = await browser.newContext(options)
  await context.addInitScript('globalThis.__name = globalThis.__name || ((target) => target)')
  return context
}

/**
 * How long the browser tests wait for the page to catch up, and for one scenario: generous,
 * because the whole suite shares two cores and a busy machine is not a failure.
 */
export const POLL = { timeout: 15_000 }
export const E2E_TIMEOUT = 180_000
