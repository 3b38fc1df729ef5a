/**
 * The modeller's find and replace, named ranges and Goal Seek, in a real browser through the real
 * gateway and services:
 * - Ctrl+F finds in formulas or values, on the sheet or across the workbook (Find Next selects the
 *   cell, switching sheets; Find All lists the cells, each a link); Ctrl+H replaces, Replace All as
 *   one undo, refusing a replacement that would break a formula, and says when nothing matched;
 * - the Name Manager (Ctrl+F3, Data menu) lists names with their values, refuses names Excel
 *   refuses, and its names work in the grid's formulas, in the name box and after a reload;
 * - Goal Seek (Data → What-If Analysis) finds the rate at which an NPV is zero without moving a
 *   cell until OK, which writes it as one undoable edit.
 * Cells are read the accessible way: the cell-reference box, then the focused cell's label.
 */
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { E2E_TIMEOUT, POLL } from './support/chromium.js'
import { signedInBrowser, type SignedInBrowser } from './support/signed-in-browser.js'
import { typeEntry } from './support/grid-page.js'

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))

let session: SignedInBrowser
let page: Page

const user = { name: 'Grace Hopper', email: `grace.${Date.now()}@example.com`, password: 'compiler-1952' }

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true })
  session = await signedInBrowser(user, 'finsheet-e2e-find-names-')
  ;({ page } = session)
  await page.getByRole('button', { name: /Start Blank/ }).click()
  await page.getByLabel('Formula bar').waitFor()
})

afterAll(async () => {
  await session?.close()
})

const cellEditor = () => page.locator('[data-testid="cell-editor"]')
const statusAddress = () => page.locator('[data-testid="status-address"]').innerText()
const activeTab = () => page.getByRole('tablist', { name: 'Sheets' }).getByRole('tab', { selected: true }).innerText()
const saveState = () => page.getByTestId('workbook-title').locator('..').innerText()

/** Selects a cell through the cell-reference box and reads what it shows from the cell's label. */
async function shownIn(address: string): Promise<string> {
  const box = page.getByLabel('Cell reference')
  await box.click()
  await box.fill(address)
  await box.press('Enter')
  return shownInActiveCell(address)
}

async function shownInActiveCell(address: string): Promise<string> {
  const label = (await cellEditor().getAttribute('aria-label')) ?? ''
  return label === address ? '' : label.slice(address.length + 1)
}

async function inputOf(address: string): Promise<string> {
  await shownIn(address)
  return page.getByLabel('Formula bar').inputValue()
}

/** Types entries down a column from `address`. */
async function typeDown(address: string, entries: string[]): Promise<void> {
  await shownIn(address)
  for (const entry of entries) await typeEntry(page, entry)
}

async function menu(name: string, item: string): Promise<void> {
  await page.getByRole('menubar').getByRole('button', { name, exact: true }).click()
  await page.getByRole('menuitem', { name: item }).click()
}

describe('find and replace', { timeout: E2E_TIMEOUT }, () => {
  it('finds, lists, replaces as one undo, refuses broken formulas and says when nothing matches', async () => {
    await typeDown('A1', ['Revenue', 'Cost of revenue', 'Margin'])
    await typeDown('B1', ['100', '=B1*0.4', '=B1-B2'])
    await typeDown('C1', ['200'])
    await page.getByRole('button', { name: 'Add sheet' }).click()
    await expect.poll(activeTab, POLL).toBe('Sheet2')
    await typeDown('A3', ['Revenue bridge'])
    await page.getByRole('tab', { name: 'Sheet1' }).click()
    await shownIn('A1')

    // Ctrl+F: Find Next in formulas goes through the cells holding B1, row by row
    await cellEditor().press('Control+f')
    const dialog = page.getByRole('dialog', { name: 'Find and Replace' })
    await dialog.getByLabel('Find what').fill('B1')
    await dialog.getByRole('button', { name: 'Find Next' }).click()
    await expect.poll(statusAddress, POLL).toBe('B2')
    await dialog.getByRole('button', { name: 'Find Next' }).click()
    await expect.poll(statusAddress, POLL).toBe('B3')

    // in values, 40 is what B2 shows
    await dialog.getByLabel('Find what').fill('40')
    await dialog.getByLabel('Look in').selectOption('values')
    await dialog.getByRole('button', { name: 'Find Next' }).click()
    await expect.poll(statusAddress, POLL).toBe('B2')

    // the whole workbook: Find Next switches sheets; Find All lists every cell, each a link
    await dialog.getByLabel('Find what').fill('revenue')
    await dialog.getByLabel('Within').selectOption('workbook')
    await dialog.getByRole('button', { name: 'Find All' }).click()
    await expect.poll(() => dialog.getByRole('status').innerText(), POLL).toBe('3 cells found')
    const found = dialog.getByRole('table', { name: 'Cells found' })
    expect(await found.getByRole('button').allInnerTexts()).toEqual(['Sheet1!A1', 'Sheet1!A2', 'Sheet2!A3'])
    await found.getByRole('button', { name: 'Sheet2!A3' }).click()
    await expect.poll(activeTab, POLL).toBe('Sheet2')
    await expect.poll(statusAddress, POLL).toBe('A3')
    await dialog.getByRole('button', { name: 'Find Next' }).click()
    await expect.poll(activeTab, POLL).toBe('Sheet1')
    await expect.poll(statusAddress, POLL).toBe('A1')
    await dialog.getByLabel('Match case').check()
    await dialog.getByRole('button', { name: 'Find All' }).click()
    expect(await found.getByRole('button').allInnerTexts()).toEqual(['Sheet1!A2'])
    await dialog.getByLabel('Match entire cell contents').check()
    await dialog.getByRole('button', { name: 'Find Next' }).click()
    await expect.poll(() => dialog.getByRole('alert').innerText(), POLL).toBe("We couldn't find what you were looking for.")

    // Replace: a replacement that would break the formulas is refused, cell by cell
    await dialog.getByRole('tab', { name: 'Replace' }).click()
    await dialog.getByLabel('Match case').uncheck()
    await dialog.getByLabel('Match entire cell contents').uncheck()
    await dialog.getByLabel('Within').selectOption('sheet')
    await dialog.getByLabel('Find what').fill('B1')
    await dialog.getByLabel('Replace with').fill('B1+(')
    await dialog.getByRole('button', { name: 'Replace All' }).click()
    await expect.poll(() => dialog.getByRole('alert').innerText(), POLL).toBe(
      'Left unchanged: the replacement would break the formula in Sheet1!B2, Sheet1!B3.',
    )
    await page.screenshot({ path: join(OUTPUT, 'find-replace.png') })

    await dialog.getByLabel('Replace with').fill('C1')
    await dialog.getByRole('button', { name: 'Replace All' }).click()
    await expect.poll(() => dialog.getByRole('status').innerText(), POLL).toBe('All done. We made 2 replacements.')
    await dialog.getByRole('button', { name: 'Close' }).first().click()
    await dialog.waitFor({ state: 'hidden' })
    expect(await inputOf('B2')).toBe('=C1*0.4')
    expect(await shownIn('B2')).toBe('80')
    expect(await shownIn('B3')).toBe('120')

    // one undo puts both back
    await cellEditor().press('Control+z')
    await expect.poll(() => inputOf('B3'), POLL).toBe('=B1-B2')
    expect(await inputOf('B2')).toBe('=B1*0.4')

    // Ctrl+H opens on the Replace tab; Replace changes the active match and goes to the next
    await shownIn('B2')
    await cellEditor().press('Control+h')
    await expect.poll(() => dialog.getByRole('tab', { name: 'Replace' }).getAttribute('aria-selected'), POLL).toBe('true')
    await dialog.getByLabel('Find what').fill('0.4')
    await dialog.getByLabel('Replace with').fill('0.35')
    await dialog.getByRole('button', { name: 'Replace', exact: true }).click()
    await expect.poll(() => dialog.getByRole('status').innerText(), POLL).toContain('Replaced in B2.')
    await dialog.getByRole('button', { name: 'Close' }).first().click()
    expect(await shownIn('B3')).toBe('65')
    await expect.poll(saveState, { ...POLL, timeout: 30_000 }).toContain('Saved')
  })
})

describe('named ranges', { timeout: E2E_TIMEOUT }, () => {
  it('defines, checks, edits and deletes names that work in formulas, the name box and after a reload', async () => {
    await typeDown('B1', ['100'])
    await shownIn('B1')
    await cellEditor().press('Control+F3')
    const manager = page.getByRole('dialog', { name: 'Name Manager' })
    await expect.poll(() => manager.innerText(), POLL).toContain('No names are defined')

    // New… refers to the selection; names Excel refuses are refused with the reason
    await manager.getByRole('button', { name: 'New…' }).click()
    const editor = page.getByRole('dialog', { name: 'New Name' })
    expect(await editor.getByLabel('Refers to').inputValue()).toBe('=Sheet1!$B$1')
    await editor.getByLabel('Name').fill('Net sales')
    await editor.getByRole('button', { name: 'OK' }).click()
    await expect.poll(() => editor.getByRole('alert').innerText(), POLL).toBe('A name cannot contain spaces.')
    await editor.getByLabel('Name').fill('R1C1')
    await editor.getByRole('button', { name: 'OK' }).click()
    await expect.poll(() => editor.getByRole('alert').innerText(), POLL).toBe('R1C1 is a cell reference (such as A1 or R1C1), not a name.')
    await editor.getByLabel('Name').fill('Sales')
    await editor.getByRole('button', { name: 'OK' }).click()

    await manager.getByRole('button', { name: 'New…' }).click()
    await editor.getByLabel('Name').fill('TaxRate')
    await editor.getByLabel('Refers to').fill('=0.25')
    await editor.getByRole('button', { name: 'OK' }).click()
    await manager.getByRole('button', { name: 'New…' }).click()
    await editor.getByLabel('Name').fill('sales')
    await editor.getByRole('button', { name: 'OK' }).click()
    await expect.poll(() => editor.getByRole('alert').innerText(), POLL).toBe('The name that you entered already exists. Enter a unique name.')
    await editor.getByRole('button', { name: 'Cancel' }).click()

    const rows = manager.getByRole('table', { name: 'Defined names' }).locator('tbody tr')
    await expect.poll(() => rows.allInnerTexts(), POLL).toEqual(['Sales\t100\t=Sheet1!$B$1\tWorkbook', 'TaxRate\t0.25\t=0.25\tWorkbook'])
    await page.screenshot({ path: join(OUTPUT, 'name-manager.png') })
    await manager.getByRole('button', { name: 'Close' }).last().click()
    await manager.waitFor({ state: 'hidden' })

    // the names in a formula, and the name box going to a name's range
    await shownIn('D1')
    await typeEntry(page, '=Sales*TaxRate')
    expect(await shownIn('D1')).toBe('25')
    const box = page.getByLabel('Cell reference')
    await box.click()
    await box.fill('sales')
    await box.press('Enter')
    await expect.poll(statusAddress, POLL).toBe('B1')

    // Edit from the Data menu; Delete, then undo
    await menu('Data', 'Name Manager…')
    await manager.getByRole('button', { name: 'TaxRate' }).click()
    await manager.getByRole('button', { name: 'Edit…' }).click()
    const edit = page.getByRole('dialog', { name: 'Edit Name' })
    await edit.getByLabel('Refers to').fill('=0.5')
    await edit.getByRole('button', { name: 'OK' }).click()
    await manager.getByRole('button', { name: 'Sales' }).click()
    await manager.getByRole('button', { name: 'Delete' }).click()
    await expect.poll(() => rows.allInnerTexts(), POLL).toEqual(['TaxRate\t0.5\t=0.5\tWorkbook'])
    await manager.getByRole('button', { name: 'Close' }).last().click()
    expect(await shownIn('D1')).toBe('#NAME?')
    await cellEditor().press('Control+z')
    await expect.poll(() => shownIn('D1'), POLL).toBe('50')

    await expect.poll(saveState, { ...POLL, timeout: 30_000 }).toContain('Saved')
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    await expect.poll(() => shownIn('D1'), POLL).toBe('50')
    await box.click()
    await box.fill('Sales')
    await box.press('Enter')
    await expect.poll(statusAddress, POLL).toBe('B1')
  })
})

describe('Goal Seek', { timeout: E2E_TIMEOUT }, () => {
  it('finds the rate at which an NPV is zero on a copy, and writes it only on OK, as one undo', async () => {
    await typeDown('F1', ['0.1'])
    await typeDown('G1', ['-1000', '300', '400', '500'])
    await typeDown('F10', ['=NPV(F1,G2:G4)+G1'])
    await shownIn('F1')

    await menu('Data', 'Goal Seek…')
    const dialog = page.getByRole('dialog', { name: 'Goal Seek', exact: true })
    expect(await dialog.getByLabel('Set cell').inputValue()).toBe('F1')
    await dialog.getByLabel('To value').fill('0')
    await dialog.getByLabel('By changing cell').fill('F10')
    await dialog.getByRole('button', { name: 'OK' }).click()
    await expect.poll(() => dialog.getByRole('alert').innerText(), POLL).toBe('Set cell must contain a formula: F1 does not.')
    await dialog.getByLabel('Set cell').fill('F10')
    await dialog.getByRole('button', { name: 'OK' }).click()
    await expect.poll(() => dialog.getByRole('alert').innerText(), POLL).toBe('By changing cell must contain a value, not a formula: F10 holds =NPV(F1,G2:G4)+G1.')
    await dialog.getByLabel('By changing cell').fill('F1')
    await dialog.getByRole('button', { name: 'OK' }).click()

    const status = page.getByRole('dialog', { name: 'Goal Seek Status' })
    await expect.poll(() => status.getByRole('status').innerText(), POLL).toBe('Goal Seeking with Cell F10 found a solution.')
    expect(await status.innerText()).toMatch(/Target value:\s+0/)
    // the search ran on a copy: the rate on screen has not moved
    expect(await shownInActiveCell('F1')).toBe('0.1')
    await status.getByRole('button', { name: 'Cancel' }).click()
    expect(await shownIn('F1')).toBe('0.1')

    await menu('Data', 'Goal Seek…')
    await dialog.getByLabel('Set cell').fill('F10')
    await dialog.getByLabel('To value').fill('0')
    await dialog.getByLabel('By changing cell').fill('F1')
    await dialog.getByRole('button', { name: 'OK' }).click()
    await status.getByRole('button', { name: 'OK' }).click()
    await status.waitFor({ state: 'hidden' })
    // the IRR of -1000, 300, 400, 500
    await expect.poll(async () => Number(await inputOf('F1')), POLL).toBeCloseTo(0.0889633947, 8)
    expect(Math.abs(Number(await shownIn('F10')))).toBeLessThan(0.001)
    await cellEditor().press('Control+z')
    await expect.poll(() => shownIn('F1'), POLL).toBe('0.1')
  })
})

describe('formula auditing', { timeout: E2E_TIMEOUT }, () => {
  const arrows = async () => {
    const list = page.getByRole('list', { name: 'Tracer arrows' })
    if ((await list.count()) === 0) return []
    return list.getByRole('listitem').allInnerTexts()
  }

  it('draws precedent and dependent arrows level by level, follows a formula edit, and removes them', async () => {
    await typeDown('J1', ['100', '0.3', '=J1*J2', '=J3*8'])
    await shownIn('J4')
    await menu('Data', 'Trace Precedents')
    await expect.poll(arrows, POLL).toEqual(['J3 → J4'])
    await menu('Data', 'Trace Precedents')
    await expect.poll(arrows, POLL).toEqual(['J3 → J4', 'J1 → J3', 'J2 → J3'])
    await page.screenshot({ path: join(OUTPUT, 'trace-arrows.png') })

    // the arrows are read from the formulas as they are: an edit adds its reference
    await typeDown('J3', ['=J1*J2+J6'])
    await expect.poll(arrows, POLL).toEqual(['J3 → J4', 'J1 → J3', 'J2 → J3', 'J6 → J3'])

    await menu('Data', 'Remove Arrows')
    await expect.poll(arrows, POLL).toEqual([])

    await shownIn('J1')
    await menu('Data', 'Trace Dependents')
    await expect.poll(arrows, POLL).toEqual(['J1 → J3'])
    await menu('Data', 'Trace Dependents')
    await expect.poll(arrows, POLL).toEqual(['J1 → J3', 'J3 → J4'])
    await menu('Data', 'Remove Arrows')
  })
})
