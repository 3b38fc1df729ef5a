/**
 * Data validation in a real browser through the real gateway and services: a list from a range set
 * with Data → Data validation…, its input message beside the selected cell, a value chosen from the
 * cell's dropdown (by mouse and with Alt+Down), a value that breaks the rule refused with the rule's
 * Stop alert and nothing written, a warning rule's "Continue?" answered Yes, a list source that does
 * not parse refused in the dialog, and the rules kept through a reload.
 * Cells are read the accessible way: the cell-reference box, then the focused cell's label.
 */
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { E2E_TIMEOUT, POLL } from './support/chromium.js'
import { typeEntry } from './support/grid-page.js'
import { signedInBrowser, type SignedInBrowser } from './support/signed-in-browser.js'

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))

let session: SignedInBrowser
let page: Page

const user = { name: 'Ada Lovelace', email: `ada.${Date.now()}@example.com`, password: 'analytical-1843' }

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true })
  session = await signedInBrowser(user, 'finsheet-e2e-validation-')
  ;({ page } = session)
})

afterAll(async () => {
  await session?.close()
})

/** Selects a cell or range through the cell-reference box and reads the active cell from its label. */
async function shownIn(address: string): Promise<string> {
  const box = page.getByLabel('Cell reference')
  await box.click()
  await box.fill(address)
  await box.press('Enter')
  const active = address.split(':')[0]
  const label = (await page.locator('[data-testid="cell-editor"]').getAttribute('aria-label')) ?? ''
  return label === active ? '' : label.slice(active.length + 1)
}

/** Opens Data → Data validation… for the selection. */
async function openValidation(): Promise<void> {
  await page.getByRole('menubar', { name: 'Menu bar' }).getByRole('button', { name: 'Data', exact: true }).click()
  await page.getByRole('menuitem', { name: /^Data validation…/ }).click()
  await page.getByRole('dialog', { name: 'Data validation' }).waitFor()
}

const saveState = () => page.getByTestId('workbook-title').locator('..').innerText()

describe('data validation', { timeout: E2E_TIMEOUT }, () => {
  it('sets a list through the dialog, chooses from the dropdown, refuses a wrong value and keeps the rules through a reload', async () => {
    await page.getByRole('button', { name: /Start Blank/ }).click()
    await page.getByLabel('Formula bar').waitFor()
    // The list's items, in F1:F3
    await shownIn('F1')
    for (const region of ['North', 'South', 'East']) await typeEntry(page, region)

    // A source that is not a row or a column is refused in the dialog, and nothing is set
    await shownIn('B2:B6')
    await openValidation()
    const dialog = page.getByRole('dialog', { name: 'Data validation' })
    await dialog.getByRole('combobox', { name: 'Allow' }).selectOption({ label: 'List from a range' })
    await dialog.getByRole('textbox', { name: 'Source range' }).fill('=$F$1:$G$3')
    await dialog.getByRole('button', { name: 'OK' }).click()
    await expect.poll(() => dialog.getByRole('alert').innerText(), POLL).toBe('The list source must be a delimited list, or a reference to a single row or column.')
    await dialog.getByRole('textbox', { name: 'Source range' }).fill('=$F$1:$F$3')
    const inputMessage = dialog.getByRole('group', { name: 'Input message' })
    await inputMessage.getByRole('textbox', { name: 'Title' }).fill('Region')
    await inputMessage.getByRole('textbox', { name: 'Input message' }).fill('Pick a sales region')
    await dialog.getByRole('group', { name: 'Error alert' }).getByRole('textbox', { name: 'Error message' }).fill('Only North, South or East.')
    await dialog.getByRole('button', { name: 'OK' }).click()
    await dialog.waitFor({ state: 'hidden' })

    // The selected cell shows its arrow and its input message; the list writes the chosen value
    await shownIn('B3')
    await expect.poll(() => page.getByRole('tooltip').innerText(), POLL).toContain('Pick a sales region')
    await page.getByRole('button', { name: 'Choose a value for B3' }).click()
    const list = page.getByRole('listbox', { name: 'Values for B3' })
    expect(await list.getByRole('option').allInnerTexts()).toEqual(['North', 'South', 'East'])
    await page.screenshot({ path: join(OUTPUT, 'validation-dropdown.png') })
    await list.getByRole('option', { name: 'South' }).click()
    expect(await shownIn('B3')).toBe('South')

    // Alt+Down opens the list from the keyboard
    await shownIn('B4')
    await page.keyboard.press('Alt+ArrowDown')
    await page.getByRole('listbox', { name: 'Values for B4' }).waitFor()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    expect(await shownIn('B4')).toBe('South')

    // Typing a value off the list: the Stop alert with the rule's message, and nothing is written
    await shownIn('B5')
    await typeEntry(page, 'West')
    const alert = page.getByRole('dialog', { name: 'Finsheet' })
    await expect.poll(() => alert.getByRole('alert').innerText(), POLL).toBe('Only North, South or East.')
    await alert.getByRole('button', { name: 'Cancel' }).click()
    await alert.waitFor({ state: 'hidden' })
    expect(await shownIn('B5')).toBe('')
    // A value of the list in another case is taken
    await typeEntry(page, 'east')
    expect(await shownIn('B5')).toBe('east')

    // A warning rule asks "Continue?"; Yes writes the value
    await shownIn('C2')
    await openValidation()
    await dialog.getByRole('combobox', { name: 'Allow' }).selectOption({ label: 'Whole number' })
    await dialog.getByRole('combobox', { name: 'Data' }).selectOption({ label: 'less than' })
    await dialog.getByRole('textbox', { name: 'Value' }).fill('100')
    await dialog.getByRole('combobox', { name: 'Style' }).selectOption({ label: 'Warning' })
    await dialog.getByRole('button', { name: 'OK' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await shownIn('C2')
    await typeEntry(page, '250')
    await expect.poll(() => alert.getByRole('alert').innerText(), POLL).toContain("This value doesn't match the data validation restrictions defined for this cell.\n")
    expect(await alert.getByRole('alert').innerText()).toContain('Continue?')
    await alert.getByRole('button', { name: 'Yes' }).click()
    await alert.waitFor({ state: 'hidden' })
    expect(await shownIn('C2')).toBe('250')

    // Reload: the rules are the workbook's, kept by the service
    await expect.poll(saveState, { ...POLL, timeout: 30_000 }).toContain('Saved')
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    await shownIn('B6')
    await page.getByRole('button', { name: 'Choose a value for B6' }).waitFor()
    await typeEntry(page, 'Central')
    await expect.poll(() => alert.getByRole('alert').innerText(), POLL).toBe('Only North, South or East.')
    await alert.getByRole('button', { name: 'Cancel' }).click()
    expect(await shownIn('B6')).toBe('')
    expect(await shownIn('B3')).toBe('South')
  })
})
