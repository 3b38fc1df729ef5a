import type { Locator, Page } from 'playwright-core'
import { POLL } from './chromium.js'
import { onSpreadsheet } from './spreadsheet-url.js'

/** A user made through the API (the sign-up form's own checks are other suites' business). */
export async function signUp(stackUrl: string, name: string): Promise<{ email: string; password: string; token: string }> {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${Date.now()}@example.com`
  const password = 'amber-otter-lantern-42'
  const response = await fetch(`${stackUrl}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, fullName: name }),
  })
  if (response.status !== 201) throw new Error(`sign-up answered ${response.status}: ${await response.text()}`)
  return { email, password, token: ((await response.json()) as { token: string }).token }
}

export async function signIn(page: Page, appUrl: string, user: { email: string; password: string }): Promise<void> {
  await page.goto(`${appUrl}/login`)
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.waitForURL(onSpreadsheet)
}

/** The assistant panel, found by its name. */
export const panel = (page: Page): Locator => page.getByRole('complementary', { name: 'AI assistant' })
export const messageInput = (page: Page): Locator => panel(page).getByRole('combobox', { name: 'Message' })
export const conversation = (page: Page): Locator => panel(page).getByRole('log', { name: 'Conversation' })

/** Types a message into the panel and sends it with Enter. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  const input = messageInput(page)
  await input.fill(text)
  await input.press('Enter')
}

/** Selects a cell through the cell-reference box and reads what it shows from the grid cell's label. */
export async function shownIn(page: Page, address: string): Promise<string> {
  const box = page.getByLabel('Cell reference')
  await box.click()
  await box.fill(address)
  await box.press('Enter')
  const label = (await page.locator('[data-testid="cell-editor"]').getAttribute('aria-label')) ?? ''
  return label === address ? '' : label.slice(address.length + 1)
}

/** Chooses the panel's mode from its mode menu. */
export async function chooseMode(page: Page, mode: 'Chat' | 'Agent'): Promise<void> {
  await panel(page).getByRole('button', { name: /^Mode: / }).click()
  await page.getByRole('menuitem', { name: new RegExp(`^${mode}`) }).click()
  await panel(page).getByRole('heading', { name: mode === 'Chat' ? 'AI Assistant' : 'Agent' }).waitFor(POLL)
}

/** Chooses a model in the picker by its label. */
export async function chooseModel(page: Page, label: string): Promise<void> {
  await panel(page).getByRole('button', { name: /^Model: / }).click()
  await page.getByRole('listbox', { name: 'Models' }).getByRole('option', { name: label, exact: true }).click()
  await panel(page).getByRole('button', { name: `Model: ${label}` }).waitFor(POLL)
}

/** Closes the notifications on screen, so that a screenshot shows what is under them. */
export async function dismissNotifications(page: Page): Promise<void> {
  const close = page.getByRole('button', { name: 'Dismiss notification' })
  for (let i = await close.count(); i > 0; i--) await close.first().click()
}
