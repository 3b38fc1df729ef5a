/**
 * Number formats, keys and the clipboard of the modeller's toolkit, in a real browser through the
 * real gateway and services:
 * - General shows up to 11 digits (1/3 is 0.333333333), as Excel does;
 * - Format Cells (Ctrl+1 and the Format menu) previews the active cell's value in the category picked
 *   or a code typed, refuses a broken code, and applies as one undoable change;
 * - the fill handle, Ctrl+D and Ctrl+V carry number formats and styles;
 * - F4 cycles the reference at the caret through $A$1, A$1, $A1 and back, ranges at both ends;
 * - Paste Special (Ctrl+Shift+V and the Edit menu) pastes values, formulas or formats, transposed or
 *   not, undone in one step;
 * - Ctrl+[ and Ctrl+] go to the cells a formula reads and to the formulas that read a cell, on
 *   another sheet too.
 * Cells are read the accessible way: the cell-reference box, then the focused cell's label.
 */
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { E2E_TIMEOUT, POLL } from './support/chromium.js'
import { signedInBrowser, type SignedInBrowser } from './support/signed-in-browser.js'
import { cellPoint, COLUMN_WIDTH, typeEntry } from './support/grid-page.js'

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))

let session: SignedInBrowser
let page: Page

const user = { name: 'Grace Hopper', email: `grace.${Date.now()}@example.com`, password: 'compiler-1952' }

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true })
  session = await signedInBrowser(user, 'finsheet-e2e-formats-', { context: { permissions: ['clipboard-read', 'clipboard-write'] } })
  ;({ page } = session)
  await page.getByRole('button', { name: /Start Blank/ }).click()
  await page.getByLabel('Formula bar').waitFor()
})

afterAll(async () => {
  await session?.close()
})

const nameBox = () => page.getByLabel('Cell reference')

/** Selects a cell or range through the cell-reference box. */
async function select(reference: string): Promise<void> {
  const box = nameBox()
  await box.click()
  await box.fill(reference)
  await box.press('Enter')
}

/** Selects a cell and reads what it shows from the focused cell's label. */
async function shownIn(address: string): Promise<string> {
  await select(address)
  const label = (await page.locator('[data-testid="cell-editor"]').getAttribute('aria-label')) ?? ''
  return label === address ? '' : label.slice(address.length + 1)
}

async function inputOf(address: string): Promise<string> {
  await select(address)
  return page.getByLabel('Formula bar').inputValue()
}

/** Writes entries from `address` down, one per row. */
async function enter(address: string, ...entries: string[]): Promise<void> {
  await select(address)
  for (const entry of entries) await typeEntry(page, entry)
}

describe('number formats', { timeout: E2E_TIMEOUT }, () => {
  it('shows General as Excel does: up to 11 digits, scientific past them', async () => {
    await enter('A1', '=1/3', '=2/3', '123456789012', '=10^-7*1.23456789')
    expect(await shownIn('A1')).toBe('0.333333333')
    expect(await shownIn('A2')).toBe('0.666666667')
    expect(await shownIn('A3')).toBe('1.23457E+11')
    expect(await shownIn('A4')).toBe('1.23457E-07')
  })

  it('formats cells from the Format Cells dialog with a live preview, one undo, and a typed code', async () => {
    await enter('B1', '1234567', '8.456')
    await select('B1')
    await page.keyboard.press('Control+1')
    const dialog = page.getByRole('dialog', { name: 'Format Cells' })
    const preview = dialog.getByTestId('format-preview')
    expect(await preview.innerText()).toBe('1234567')
    await dialog.getByLabel('Category').selectOption('Number')
    expect(await preview.innerText()).toBe('1,234,567.00')
    await dialog.getByLabel('Decimal places').fill('1')
    expect(await preview.innerText()).toBe('1,234,567.0')
    await dialog.getByLabel('Category').selectOption('Millions')
    expect(await preview.innerText()).toBe('1.2M')
    await page.screenshot({ path: join(OUTPUT, 'format-cells-dialog.png') })
    await dialog.getByRole('button', { name: 'OK' }).click()
    await expect.poll(() => dialog.count(), POLL).toBe(0)
    expect(await shownIn('B1')).toBe('1.2M')
    await page.keyboard.press('Control+z')
    expect(await shownIn('B1')).toBe('1234567')
    await page.keyboard.press('Control+y')
    expect(await shownIn('B1')).toBe('1.2M')

    // the Format menu, on a selection of two cells; a broken code is refused, a good one applied
    await select('B2:C2')
    await page.locator('.menu-button', { hasText: /^Format$/ }).click()
    await page.getByRole('menuitem', { name: /^Format Cells…/ }).click()
    await dialog.getByLabel('Category').selectOption('Custom')
    const code = dialog.getByLabel('Format code')
    await code.fill('0.0"x')
    await expect.poll(() => dialog.getByRole('alert').innerText(), POLL).toContain('Invalid number format')
    expect(await dialog.getByRole('button', { name: 'OK' }).isDisabled()).toBe(true)
    await code.fill('0.0x')
    expect(await preview.innerText()).toBe('8.5x')
    await code.press('Enter')
    await expect.poll(() => dialog.count(), POLL).toBe(0)
    expect(await shownIn('B2')).toBe('8.5x')
    // C2 got the format too, and the dialog opens on it as the category that writes it
    await select('C2')
    await typeEntry(page, '12')
    expect(await shownIn('C2')).toBe('12.0x')
    await page.keyboard.press('Control+1')
    expect(await dialog.getByLabel('Category').inputValue()).toBe('Multiple')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
  })

  it('carries formats and styles with the fill handle, Ctrl+D and paste', async () => {
    await enter('D1', '0.25')
    await select('D1')
    await page.keyboard.press('Control+1')
    const dialog = page.getByRole('dialog', { name: 'Format Cells' })
    await dialog.getByLabel('Category').selectOption('Percentage')
    await dialog.getByLabel('Decimal places').fill('1')
    await dialog.getByRole('button', { name: 'OK' }).click()
    await select('D1')
    await page.keyboard.press('Control+b')
    expect(await shownIn('D1')).toBe('25.0%')

    // the fill handle, dragged from D1 to D3
    await select('D1')
    const handle = await cellPoint(page, 'D1')
    const target = await cellPoint(page, 'D3')
    await page.mouse.move(handle.x + COLUMN_WIDTH / 2 - 1, handle.y + 12 - 1)
    await page.mouse.down()
    await page.mouse.move(target.x, target.y, { steps: 5 })
    await page.mouse.up()
    expect(await shownIn('D3')).toBe('25.0%')
    await expect.poll(() => page.getByRole('button', { name: /^Bold/ }).getAttribute('aria-pressed'), POLL).toBe('true')
    expect(await shownIn('D4')).toBe('')
    await expect.poll(() => page.getByRole('button', { name: /^Bold/ }).getAttribute('aria-pressed'), POLL).toBe('false')

    // Ctrl+D over D1:D5 copies D1 with its format into D4 and D5
    await select('D1:D5')
    await page.keyboard.press('Control+d')
    expect(await shownIn('D5')).toBe('25.0%')

    // copy D1, paste onto F1
    await select('D1')
    await page.keyboard.press('Control+c')
    await select('F1')
    await page.keyboard.press('Control+v')
    expect(await shownIn('F1')).toBe('25.0%')
  })
})

describe('keys and clipboard', { timeout: E2E_TIMEOUT }, () => {
  it('cycles the reference at the caret through $A$1, A$1, $A1 and back with F4', async () => {
    const bar = page.getByLabel('Formula bar')
    await select('H1')
    await page.keyboard.type('=A1')
    const seen: string[] = []
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('F4')
      seen.push(await bar.inputValue())
    }
    expect(seen).toEqual(['=$A$1', '=A$1', '=$A1', '=A1', '=$A$1'])
    await page.keyboard.press('Enter')
    expect(await inputOf('H1')).toBe('=$A$1')

    // a range moves at both ends; the reference just before the caret is the one that changes
    await select('H2')
    await page.keyboard.type('=SUM(A1:B2)+C3')
    // Edit mode (F2): the arrows move the caret instead of pointing at cells
    await page.keyboard.press('F2')
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('F4')
    expect(await bar.inputValue()).toBe('=SUM($A$1:$B$2)+C3')
    await page.keyboard.press('Enter')
    expect(await inputOf('H2')).toBe('=SUM($A$1:$B$2)+C3')
  })

  it('pastes values, formulas or formats, transposed or not, with Paste Special, undone in one step', async () => {
    await enter('J1', '1', '=J1*10')
    await enter('K1', '2', '=K1*10')
    await select('J1')
    await page.keyboard.press('Control+1')
    const format = page.getByRole('dialog', { name: 'Format Cells' })
    await format.getByLabel('Category').selectOption('Currency')
    await format.getByRole('button', { name: 'OK' }).click()
    expect(await shownIn('J1')).toBe('$1.00')

    await select('J1:K2')
    await page.keyboard.press('Control+c')
    await select('M1')
    await page.keyboard.press('Control+Shift+V')
    const dialog = page.getByRole('dialog', { name: 'Paste Special' })
    await dialog.getByLabel(/^Values/).check()
    await dialog.getByLabel(/^Transpose/).check()
    await dialog.getByRole('button', { name: 'Paste' }).click()
    await expect.poll(() => dialog.count(), POLL).toBe(0)
    // J2 (=J1*10 → 10) landed on N1 as its value, K1 (2) on M2
    expect(await inputOf('N1')).toBe('10')
    expect(await inputOf('M2')).toBe('2')
    expect(await inputOf('N2')).toBe('20')
    // values keep the cells' own (General) format
    expect(await shownIn('M1')).toBe('1')
    await page.keyboard.press('Control+z')
    for (const address of ['M1', 'N1', 'M2', 'N2']) expect(await inputOf(address)).toBe('')

    // formulas from the Edit menu: references move, formats stay behind
    await select('M4')
    await page.getByRole('button', { name: 'Edit', exact: true }).click()
    await page.getByRole('menuitem', { name: /^Paste Special…/ }).click()
    await dialog.getByLabel(/^Formulas/).check()
    await dialog.getByRole('button', { name: 'Paste' }).click()
    expect(await inputOf('M5')).toBe('=M4*10')
    expect(await shownIn('M5')).toBe('10')
    expect(await shownIn('M4')).toBe('1')

    // formats only: the currency format without the contents
    await select('P1')
    await typeEntry(page, '7')
    await select('P1')
    await page.keyboard.press('Control+Shift+V')
    await dialog.getByLabel(/^Formats/).check()
    await dialog.getByRole('button', { name: 'Paste' }).click()
    expect(await shownIn('P1')).toBe('$7.00')
  })

  it('goes to the cells a formula reads with Ctrl+[ and to the formulas that read a cell with Ctrl+]', async () => {
    await enter('R1', '100', '200')
    await enter('S1', '=R2+R1*2')
    await select('S1')
    await page.keyboard.press('Control+[')
    await expect.poll(() => nameBox().inputValue(), POLL).toBe('R2')
    await page.keyboard.press('Control+]')
    await expect.poll(() => nameBox().inputValue(), POLL).toBe('S1')

    // on another sheet: Sheet2!A1 reads Sheet1!R1
    await page.getByRole('button', { name: 'Add sheet' }).click()
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Sheet2')
    await typeEntry(page, '=Sheet1!R1/4')
    await select('A1')
    await page.keyboard.press('Control+[')
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Sheet1')
    await expect.poll(() => nameBox().inputValue(), POLL).toBe('R1')
    // R1 is read by S1 here and by Sheet2!A1: its own sheet's first, the rest named
    await page.keyboard.press('Control+]')
    await expect.poll(() => nameBox().inputValue(), POLL).toBe('S1')
    await expect.poll(() => page.getByText('Sheet2!A1').count(), POLL).toBeGreaterThan(0)
  })

  it('draws borders, wraps text and aligns it from the toolbar, as one undoable change each, kept after a reload', async () => {
    const before = await page.getByRole('tab').count()
    await page.getByRole('button', { name: 'Add sheet' }).click()
    await expect.poll(() => page.getByRole('tab').count(), POLL).toBe(before + 1)
    const sheet = await page.getByRole('tab', { selected: true }).innerText()
    await select('B2')
    await typeEntry(page, 'Revenue growth assumption for every forecast year')
    await select('B2:C3')
    // edits go out in order: the border change is the one that draws borders
    const outlined = page.waitForRequest((request) => request.url().endsWith('/changes') && request.method() === 'POST' && (request.postData() ?? '').includes('"borders"'))
    await page.getByRole('button', { name: 'Borders' }).click()
    await page.getByRole('menuitem', { name: 'Outside borders' }).click()
    const sent = JSON.parse((await outlined).postData() ?? '{}')
    // one change of four edges: the block's top and bottom rows, its left and right columns
    expect(sent.commands).toHaveLength(1)
    expect(sent.commands[0].commands.map((command: { ranges: string[] }) => command.ranges[0])).toEqual(['B2:C2', 'B3:C3', 'B2:B3', 'C2:C3'])
    expect(sent.commands[0].commands[0].style).toEqual({ borders: { top: { line: 'thin' } } })

    await select('B2')
    const wrap = page.getByRole('button', { name: 'Wrap text' })
    await wrap.click()
    await expect.poll(() => wrap.getAttribute('aria-pressed'), POLL).toBe('true')
    await page.getByRole('button', { name: 'Borders' }).click()
    await page.getByRole('menuitem', { name: 'Align top' }).click()
    await page.screenshot({ path: join(OUTPUT, 'cell-looks.png') })

    // every change stored before the page is loaded again
    await expect.poll(() => page.getByTestId('workbook-title').locator('..').innerText(), { ...POLL, timeout: 30_000 }).toContain('Saved')
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    await page.getByRole('tab', { name: sheet }).click()
    await select('B2')
    await expect.poll(() => page.getByRole('button', { name: 'Wrap text' }).getAttribute('aria-pressed'), POLL).toBe('true')
  })
})
