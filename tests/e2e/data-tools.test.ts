/**
 * Sort and filter in a real browser through the real gateway and services: a range sorted by two
 * columns through Data → Sort range… with a header row (formulas follow their rows), then undone;
 * a filter created from the Data menu, a column filtered through its header's dropdown (the status
 * bar counts the records found, arrows step over the hidden rows), kept through a reload, and
 * cleared; a SUBTOTAL over a filtered column skips the rows the filter hides. Cells are read the
 * accessible way: the cell-reference box, then the focused cell's label.
 */
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { E2E_TIMEOUT, POLL } from './support/chromium.js'
import { cellPoint, COLUMN_WIDTH, ROW_HEIGHT, statusAddress, typeEntry } from './support/grid-page.js'
import { signedInBrowser, type SignedInBrowser } from './support/signed-in-browser.js'

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))

let session: SignedInBrowser
let page: Page

const user = { name: 'Ada Lovelace', email: `ada.${Date.now()}@example.com`, password: 'engine-1843' }

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true })
  session = await signedInBrowser(user, 'finsheet-e2e-data-')
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

async function column(letter: string, from: number, to: number): Promise<string[]> {
  const shown: string[] = []
  for (let row = from; row <= to; row++) shown.push(await shownIn(`${letter}${row}`))
  return shown
}

/** Opens a menu of the menu bar and runs an item, named as it begins (its shortcut follows the name). */
async function menu(name: string, item: string): Promise<void> {
  await page.getByRole('menubar', { name: 'Menu bar' }).getByRole('button', { name, exact: true }).click()
  await page.getByRole('menuitem', { name: new RegExp(`^${item.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).click()
}

const saveState = () => page.getByTestId('workbook-title').locator('..').innerText()
const records = () => page.getByTestId('status-records').innerText()

/** Presses a key in the grid and answers where the selection went. */
async function after(key: string): Promise<string> {
  await page.keyboard.press(key)
  return statusAddress(page)
}

describe('sort and filter', { timeout: E2E_TIMEOUT }, () => {
  it('sorts by two columns with a header row and undoes it, then filters a column through its dropdown, kept through a reload, and clears it', async () => {
    await page.getByRole('button', { name: /Start Blank/ }).click()
    await page.getByLabel('Formula bar').waitFor()
    const rows = [
      ['Region', 'Units', 'Rep', 'Tenfold'],
      ['West', '5', 'Ann'],
      ['East', '7', 'Bob'],
      ['West', '9', 'Cid'],
      ['East', '7', 'Dee'],
      ['North', '3', 'Eve'],
      ['East', '1', 'Fay'],
    ]
    for (const [index, row] of rows.entries()) {
      await shownIn(`A${index + 1}`)
      for (const text of row) await typeEntry(page, text, 'Tab')
      if (index > 0) await typeEntry(page, `=B${index + 1}*10`, 'Enter')
    }
    expect(await shownIn('D3')).toBe('70')

    // Data → Sort range… from one cell takes the block around it and sees the header row
    await shownIn('B3')
    await menu('Data', 'Sort range…')
    const dialog = page.getByRole('dialog', { name: 'Sort range' })
    expect(await dialog.getByLabel('Range').inputValue()).toBe('A1:D7')
    expect(await dialog.getByRole('checkbox', { name: 'My data has headers' }).isChecked()).toBe(true)
    await dialog.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Region (column A)' })
    await dialog.getByRole('button', { name: 'Add another sort column' }).click()
    await dialog.getByRole('combobox', { name: 'Then by' }).selectOption({ label: 'Units (column B)' })
    await dialog.getByRole('combobox', { name: 'Order' }).nth(1).selectOption({ label: 'Z → A' })
    await dialog.getByRole('button', { name: 'Sort', exact: true }).click()
    await expect.poll(() => dialog.isVisible(), POLL).toBe(false)
    expect(await column('A', 1, 7)).toEqual(['Region', 'East', 'East', 'East', 'North', 'West', 'West'])
    // Bob and Dee tie on both keys and keep their order; each formula still reads its own row
    expect(await column('C', 2, 7)).toEqual(['Bob', 'Dee', 'Fay', 'Eve', 'Cid', 'Ann'])
    expect(await column('D', 2, 7)).toEqual(['70', '70', '10', '30', '90', '50'])
    await page.keyboard.press('Control+z')
    expect(await column('C', 2, 7)).toEqual(['Ann', 'Bob', 'Cid', 'Dee', 'Eve', 'Fay'])
    expect(await shownIn('D2')).toBe('50')

    // Data → Create a filter over the block; Region's dropdown hides West
    await shownIn('A1')
    await menu('Data', 'Create a filter')
    const header = await cellPoint(page, 'A1')
    await page.mouse.click(header.x + COLUMN_WIDTH / 2 - 10, header.y)
    const dropdown = page.getByRole('dialog', { name: 'Filter Region' })
    await dropdown.waitFor()
    expect(await dropdown.getByRole('group', { name: 'Values' }).innerText()).toMatch(/\(Select all\)\s+East\s+North\s+West/)
    await dropdown.getByRole('checkbox', { name: 'West' }).uncheck()
    await page.screenshot({ path: join(OUTPUT, 'filter-dropdown.png') })
    await dropdown.getByRole('button', { name: 'OK' }).click()
    await expect.poll(records, POLL).toBe('4 of 6 records found')
    // rows 2 and 4 (West) are hidden: the arrows step over them, a click lands past them
    await shownIn('A1')
    expect(await after('ArrowDown')).toBe('A3')
    expect(await after('ArrowDown')).toBe('A5')
    const second = await cellPoint(page, 'A2')
    await page.mouse.click(second.x, second.y)
    expect(await statusAddress(page)).toBe('A3')
    await page.mouse.click(second.x, second.y + ROW_HEIGHT)
    expect(await statusAddress(page)).toBe('A5')

    // kept through a reload
    await expect.poll(saveState, { ...POLL, timeout: 30_000 }).toContain('Saved')
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    await expect.poll(records, POLL).toBe('4 of 6 records found')
    await shownIn('A1')
    expect(await after('ArrowDown')).toBe('A3')

    // Clear filter shows every row again and keeps the dropdowns; Remove filter takes them away
    await menu('Data', 'Clear filter')
    await expect.poll(() => page.getByTestId('status-records').count(), POLL).toBe(0)
    await shownIn('A1')
    expect(await after('ArrowDown')).toBe('A2')
    await menu('Data', 'Remove filter')
    await page.mouse.click(header.x + COLUMN_WIDTH / 2 - 10, header.y)
    expect(await statusAddress(page)).toBe('A1')
    expect(await page.getByRole('dialog', { name: 'Filter Region' }).count()).toBe(0)
  })

  it('SUBTOTAL skips the rows a filter hides and counts them again once the filter is cleared', async () => {
    await page.getByRole('button', { name: 'Add sheet' }).click()
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Sheet2')
    const rows = [['Region', 'Units'], ['West', '5'], ['East', '7'], ['West', '9'], ['North', '3']]
    for (const [index, row] of rows.entries()) {
      await shownIn(`A${index + 1}`)
      for (const text of row) await typeEntry(page, text, 'Tab')
    }
    // Totals in the header row, which the filter never hides: SUBTOTAL 9 and 109, and a SUM
    await shownIn('D1')
    await typeEntry(page, '=SUBTOTAL(9,B2:B5)', 'Tab')
    await typeEntry(page, '=SUBTOTAL(109,B2:B5)', 'Tab')
    await typeEntry(page, '=SUM(B2:B5)', 'Tab')
    expect([await shownIn('D1'), await shownIn('E1'), await shownIn('F1')]).toEqual(['24', '24', '24'])

    await shownIn('A1')
    await menu('Data', 'Create a filter')
    const header = await cellPoint(page, 'A1')
    await page.mouse.click(header.x + COLUMN_WIDTH / 2 - 10, header.y)
    const dropdown = page.getByRole('dialog', { name: 'Filter Region' })
    await dropdown.waitFor()
    await dropdown.getByRole('checkbox', { name: 'West' }).uncheck()
    await dropdown.getByRole('button', { name: 'OK' }).click()
    await expect.poll(records, POLL).toBe('2 of 4 records found')
    // West's 5 and 9 are skipped; SUM still counts them
    expect([await shownIn('D1'), await shownIn('E1'), await shownIn('F1')]).toEqual(['10', '10', '24'])

    await menu('Data', 'Clear filter')
    await expect.poll(() => page.getByTestId('status-records').count(), POLL).toBe(0)
    expect([await shownIn('D1'), await shownIn('E1'), await shownIn('F1')]).toEqual(['24', '24', '24'])
  })
})
