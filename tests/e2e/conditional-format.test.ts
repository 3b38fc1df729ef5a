/**
 * Conditional formatting in a real browser through the real gateway and services: a "greater than"
 * rule added from Format → Conditional formatting… for the selection, read back from the active cell's
 * description; the look follows a changed value; a colour scale shades a column from its lowest to its
 * highest value; the rules are kept through a reload. An uploaded xlsx shows its own rules (a
 * cell-value rule with its dxf, a data bar, an icon set). Cells are read the accessible way: the
 * cell-reference box, then the focused cell's label and description.
 */
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import ExcelJS from 'exceljs'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { E2E_TIMEOUT, POLL } from './support/chromium.js'
import { typeEntry } from './support/grid-page.js'
import { signedInBrowser, type SignedInBrowser } from './support/signed-in-browser.js'

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))

let session: SignedInBrowser
let page: Page

const user = { name: 'Ada Lovelace', email: `ada.cf.${Date.now()}@example.com`, password: 'analytical-1843' }

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true })
  session = await signedInBrowser(user, 'finsheet-e2e-conditional-')
  ;({ page } = session)
})

afterAll(async () => {
  await session?.close()
})

/** Selects a cell or range through the cell-reference box. */
async function select(address: string): Promise<void> {
  const box = page.getByLabel('Cell reference')
  await box.click()
  await box.fill(address)
  await box.press('Enter')
}

/** How conditional formats change a cell, as its description tells assistive technology ('' when they do not). */
async function lookOf(address: string): Promise<string> {
  await select(address)
  return (await page.locator('[data-testid="cell-editor"]').getAttribute('aria-description')) ?? ''
}

async function menu(name: string, item: string): Promise<void> {
  await page.getByRole('menubar', { name: 'Menu bar' }).getByRole('button', { name, exact: true }).click()
  await page.getByRole('menuitem', { name: new RegExp(`^${item.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).click()
}

const saveState = () => page.getByTestId('workbook-title').locator('..').innerText()

describe('conditional formatting', { timeout: E2E_TIMEOUT }, () => {
  it('adds a greater-than rule and a colour scale from the dialog; the look follows the values and survives a reload', async () => {
    await page.getByRole('button', { name: /Start Blank/ }).click()
    await page.getByLabel('Formula bar').waitFor()
    await select('A1')
    for (const value of ['50', '150', '80', '200', '10']) await typeEntry(page, value)
    await select('B1')
    for (const value of ['1', '2', '3', '4', '5']) await typeEntry(page, value)

    // A "greater than" rule for the selection, with Excel's light red preset
    await select('A1:A5')
    await menu('Format', 'Conditional formatting')
    const dialog = page.getByRole('dialog', { name: 'Conditional formatting' })
    await expect.poll(() => dialog.isVisible(), POLL).toBe(true)
    expect(await dialog.getByLabel('Apply to').inputValue()).toBe('A1:A5')
    // a formula that cannot be read is refused with a message, and nothing is written
    await dialog.getByLabel('Format cells if').selectOption('expression')
    await dialog.getByLabel('Formula', { exact: true }).fill('=A1>(')
    await dialog.getByRole('button', { name: 'Add rule' }).click()
    await expect.poll(() => dialog.getByRole('alert').innerText(), POLL).toMatch(/cannot be read/)
    await dialog.getByLabel('Format cells if').selectOption('greaterThan')
    await dialog.getByLabel('Value', { exact: true }).fill('100')
    await dialog.getByRole('button', { name: 'Add rule' }).click()
    await expect.poll(() => dialog.getByRole('list', { name: 'Conditional format rules' }).innerText(), POLL).toContain('Cell value > 100')

    // A red-to-green colour scale over column B
    await dialog.getByRole('button', { name: 'New rule' }).click()
    await dialog.getByLabel('Format cells if').selectOption('colorScale')
    await dialog.getByLabel('Apply to').fill('B1:B5')
    await dialog.getByLabel('Colours').selectOption({ label: 'Red – yellow – green' })
    await dialog.getByRole('button', { name: 'Add rule' }).click()
    await expect.poll(() => dialog.getByRole('listitem').count(), POLL).toBe(2)
    await page.screenshot({ path: join(OUTPUT, 'conditional-formatting.png') })
    await dialog.getByRole('button', { name: 'Done' }).click()

    expect(await lookOf('A2')).toBe('Conditional format: fill #ffc7ce, text #9c0006')
    expect(await lookOf('A4')).toBe('Conditional format: fill #ffc7ce, text #9c0006')
    expect(await lookOf('A1')).toBe('')

    // the look follows the value: A1 rises above 100, A2 falls below
    await select('A1')
    await typeEntry(page, '300')
    await select('A2')
    await typeEntry(page, '90')
    expect(await lookOf('A1')).toBe('Conditional format: fill #ffc7ce, text #9c0006')
    expect(await lookOf('A2')).toBe('')

    // the colour scale runs from red at the lowest value through yellow to green at the highest
    expect(await lookOf('B1')).toBe('Conditional format: fill #f8696b')
    expect(await lookOf('B3')).toBe('Conditional format: fill #ffeb84')
    expect(await lookOf('B5')).toBe('Conditional format: fill #63be7b')
    await select('B5')
    await typeEntry(page, '0')
    expect(await lookOf('B5')).toBe('Conditional format: fill #f8696b')

    // Kept by the service: after a reload the rules still apply
    await expect.poll(saveState, { ...POLL, timeout: 30_000 }).toContain('Saved')
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    await expect.poll(() => lookOf('A1'), POLL).toBe('Conditional format: fill #ffc7ce, text #9c0006')
    expect(await lookOf('B4')).toBe('Conditional format: fill #63be7b')
  })

  it('shows the conditional formats of an uploaded xlsx', async () => {
    const book = new ExcelJS.Workbook()
    const sheet = book.addWorksheet('Ratios')
    for (let row = 1; row <= 5; row++) {
      sheet.getCell(row, 1).value = row * 40
      sheet.getCell(row, 2).value = row
      sheet.getCell(row, 3).value = row * 10
    }
    sheet.addConditionalFormatting({
      ref: 'A1:A5',
      rules: [{ type: 'cellIs', operator: 'greaterThan', priority: 1, formulae: ['100'], style: { fill: { type: 'pattern', pattern: 'solid', bgColor: { argb: 'FFFFC7CE' } }, font: { color: { argb: 'FF9C0006' } } } }],
    })
    sheet.addConditionalFormatting({ ref: 'B1:B5', rules: [{ type: 'dataBar', priority: 2, cfvo: [{ type: 'min' }, { type: 'max' }], color: { argb: 'FF638EC6' } } as unknown as ExcelJS.ConditionalFormattingRule] })
    sheet.addConditionalFormatting({
      ref: 'C1:C5',
      rules: [{ type: 'iconSet', priority: 3, iconSet: '3Arrows', cfvo: [{ type: 'percent', value: 0 }, { type: 'percent', value: 33 }, { type: 'percent', value: 67 }] } as unknown as ExcelJS.ConditionalFormattingRule],
    })
    await page.getByRole('button', { name: 'Import Document' }).click()
    const dialog = page.getByRole('dialog', { name: 'Import Document' })
    await dialog.getByTestId('import-file-input').setInputFiles({ name: 'Ratios.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: Buffer.from(await book.xlsx.writeBuffer()) })
    await dialog.getByRole('button', { name: 'Process Document' }).click()
    await dialog.waitFor({ state: 'hidden', timeout: 60_000 })
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toContain('Ratios')
    await expect.poll(() => lookOf('A4'), POLL).toBe('Conditional format: fill #ffc7ce, text #9c0006')
    expect(await lookOf('A2')).toBe('')
    expect(await lookOf('B3')).toBe('Conditional format: data bar 50%')
    expect(await lookOf('C5')).toBe('Conditional format: icon 3 of 3')
    expect(await lookOf('C1')).toBe('Conditional format: icon 1 of 3')
    await select('A1')
    await page.screenshot({ path: join(OUTPUT, 'conditional-formatting-imported.png') })
  })
})
