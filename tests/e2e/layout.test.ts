/**
 * Sheet layout in a real browser through the real gateway and services: frozen panes that stay while
 * the rest scrolls, rows hidden and shown again (navigation steps over them, formulas still read
 * them), a row resized by dragging its header border, rows grouped and collapsed with the header's
 * button, a hidden sheet and Unhide sheet…, and zoom from Ctrl+wheel and the status bar with clicks
 * landing on the right cells. The layout is kept through a reload and written to the xlsx download.
 * Cells are read the accessible way: the cell-reference box, then the focused cell's label.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import JSZip from 'jszip'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readSheetLayout } from '../../packages/workbook/src/xlsx/sheet-layout.js'
import { E2E_TIMEOUT, POLL } from './support/chromium.js'
import { signedInBrowser, type SignedInBrowser } from './support/signed-in-browser.js'
import { cellPoint, COLUMN_HEADER_HEIGHT, COLUMN_WIDTH, ROW_HEADER_WIDTH, ROW_HEIGHT, statusAddress, typeEntry } from './support/grid-page.js'

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))

let session: SignedInBrowser
let page: Page

const user = { name: 'Grace Hopper', email: `grace.${Date.now()}@example.com`, password: 'compiler-1952' }

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true })
  session = await signedInBrowser(user, 'finsheet-e2e-layout-', { context: { acceptDownloads: true } })
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

/** Opens a menu of the menu bar and runs an item, named as it begins (its shortcut follows the name). */
async function menu(name: string, item: string): Promise<void> {
  await page.getByRole('menubar', { name: 'Menu bar' }).getByRole('button', { name, exact: true }).click()
  await page.getByRole('menuitem', { name: new RegExp(`^${item.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).click()
}

const saveState = () => page.getByTestId('workbook-title').locator('..').innerText()
async function waitUntilSaved(): Promise<void> {
  await expect.poll(saveState, { ...POLL, timeout: 30_000 }).toContain('Saved')
}

async function gridBox() {
  const box = await page.locator('.grid-scroller').boundingBox()
  if (!box) throw new Error('the grid is not on the page')
  return box
}

/** Presses a key in the grid and answers where the selection went. */
async function after(key: string): Promise<string> {
  await page.keyboard.press(key)
  return statusAddress(page)
}

describe('sheet layout', { timeout: E2E_TIMEOUT }, () => {
  it('freezes panes, hides and shows rows, resizes a row, groups and collapses rows, kept through a reload and in the xlsx', async () => {
    await page.getByRole('button', { name: /Start Blank/ }).click()
    await page.getByLabel('Formula bar').waitFor()
    await shownIn('A1')
    for (const text of ['Item', 'Revenue', 'Costs', 'Hidden one', 'Hidden two', 'Margin', 'Detail 1', 'Detail 2', 'Detail 3', 'Total']) await typeEntry(page, text)
    await shownIn('B2')
    for (const value of ['100', '40', '7', '8', '60', '1', '2', '3', '=SUM(B2:B9)']) await typeEntry(page, value)
    expect(await shownIn('B10')).toBe('221')

    // Freeze panes at B2: row 1 and column A stay while the rest scrolls
    await shownIn('B2')
    await menu('View', 'Freeze panes at B2')
    const box = await gridBox()
    await page.mouse.move(box.x + 400, box.y + 300)
    await page.mouse.wheel(0, 24 * 40)
    await expect.poll(() => page.locator('.grid-scroller').evaluate((element) => element.scrollTop), POLL).toBeGreaterThan(0)
    const a1 = await cellPoint(page, 'A1')
    await page.mouse.click(a1.x, a1.y)
    expect(await statusAddress(page)).toBe('A1')
    // the row under the frozen one is a scrolled row, not row 2
    await page.mouse.click(a1.x + COLUMN_WIDTH, a1.y + ROW_HEIGHT)
    expect(Number((await statusAddress(page)).slice(1))).toBeGreaterThan(2)
    await page.locator('.grid-scroller').evaluate((element) => element.scrollTo(0, 0))

    // Hide rows 4 and 5: arrows step over them, clicks land past them, the total still reads them
    await shownIn('A4:A5')
    await menu('Format', 'Hide 2 rows')
    await shownIn('A3')
    expect(await after('ArrowDown')).toBe('A6')
    expect(await after('ArrowUp')).toBe('A3')
    const fourth = await cellPoint(page, 'A4')
    await page.mouse.click(fourth.x, fourth.y)
    expect(await statusAddress(page)).toBe('A6')
    expect(await shownIn('B10')).toBe('221')
    await shownIn('A3:A6')
    await menu('Format', 'Unhide rows')
    await shownIn('A3')
    expect(await after('ArrowDown')).toBe('A4')

    // drag row 2's bottom border 20 px down: row 3's old place is now row 2
    const border = { x: box.x + ROW_HEADER_WIDTH / 2 + 10, y: box.y + COLUMN_HEADER_HEIGHT + 2 * ROW_HEIGHT }
    await page.mouse.move(border.x, border.y)
    await page.mouse.down()
    await page.mouse.move(border.x, border.y + 10, { steps: 2 })
    await page.mouse.move(border.x, border.y + 20, { steps: 2 })
    await page.mouse.up()
    const third = await cellPoint(page, 'A3')
    await page.mouse.click(third.x, third.y)
    expect(await statusAddress(page)).toBe('A2')
    await page.mouse.click(third.x, third.y + 20)
    expect(await statusAddress(page)).toBe('A3')

    // group rows 7 to 9 (Alt+Shift+Right), collapse them with the − button beside row 10's header
    await shownIn('A7:A9')
    await page.keyboard.press('Alt+Shift+ArrowRight')
    const button = { x: box.x + 7, y: box.y + COLUMN_HEADER_HEIGHT + 9 * ROW_HEIGHT + 20 + ROW_HEIGHT / 2 }
    await page.mouse.click(button.x, button.y)
    await shownIn('A6')
    expect(await after('ArrowDown')).toBe('A10')
    expect(await shownIn('B10')).toBe('221')
    await page.screenshot({ path: join(OUTPUT, 'frozen-grouped-sheet.png') })

    // everything is kept: a reload shows the same layout
    await waitUntilSaved()
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    await shownIn('A6')
    expect(await after('ArrowDown')).toBe('A10')
    await page.mouse.move(box.x + 400, box.y + 300)
    await page.mouse.wheel(0, 24 * 40)
    await expect.poll(() => page.locator('.grid-scroller').evaluate((element) => element.scrollTop), POLL).toBeGreaterThan(0)
    await page.mouse.click(a1.x, a1.y)
    expect(await statusAddress(page)).toBe('A1')
    await page.locator('.grid-scroller').evaluate((element) => element.scrollTo(0, 0))

    // the + button shows the detail again; Undo hides it once more
    await page.mouse.click(button.x, button.y - 3 * ROW_HEIGHT)
    await shownIn('A6')
    expect(await after('ArrowDown')).toBe('A7')
    await page.keyboard.press('Control+z')
    await shownIn('A6')
    expect(await after('ArrowDown')).toBe('A10')

    // the download states the frozen pane, the collapsed group and the resized row as Excel does
    await waitUntilSaved()
    await page.getByRole('menubar', { name: 'Menu bar' }).getByRole('button', { name: 'File', exact: true }).click()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Download .xlsx' }).click()])
    const zip = await JSZip.loadAsync(readFileSync((await download.path())!))
    const layout = readSheetLayout(await zip.file('xl/worksheets/sheet1.xml')!.async('string'), false)
    expect(layout).toMatchObject({ frozenRows: 1, frozenColumns: 1 })
    expect(layout?.rows?.['1']?.height).toBe(44)
    expect(layout?.rows?.['7']).toEqual({ level: 1, hidden: true })
    expect(layout?.rows?.['9']?.collapsed).toBe(true)
  })

  it('hides a sheet and brings it back with Unhide sheet…, keeping one sheet shown', async () => {
    await page.getByRole('button', { name: 'Add sheet' }).click()
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Sheet2')
    await page.getByRole('button', { name: 'Sheet options' }).click()
    await page.getByRole('menuitem', { name: 'Hide sheet', exact: true }).click()
    await expect.poll(() => page.getByRole('tab').count(), POLL).toBe(1)
    expect(await page.getByRole('tab', { selected: true }).innerText()).toBe('Sheet1')
    // the last shown sheet cannot be hidden
    await page.getByRole('button', { name: 'Sheet options' }).click()
    expect(await page.getByRole('menuitem', { name: 'Hide sheet', exact: true }).isDisabled()).toBe(true)
    await page.keyboard.press('Escape')
    await menu('Format', 'Unhide sheet…')
    const dialog = page.getByRole('dialog', { name: 'Unhide sheet' })
    await expect.poll(() => dialog.getByRole('radio', { name: 'Sheet2' }).isChecked(), POLL).toBe(true)
    await dialog.getByRole('button', { name: 'Unhide' }).click()
    await expect.poll(() => page.getByRole('tab').count(), POLL).toBe(2)
    expect(await page.getByRole('tab', { selected: true }).innerText()).toBe('Sheet2')
  })

  it('zooms with Ctrl+wheel and the status bar, and clicks land on the cell drawn under them', async () => {
    const zoomValue = page.getByTestId('zoom-value')
    const box = await gridBox()
    await page.mouse.move(box.x + 300, box.y + 300)
    await page.keyboard.down('Control')
    for (let step = 0; step < 5; step++) await page.mouse.wheel(0, -100)
    await page.keyboard.up('Control')
    await expect.poll(() => zoomValue.innerText(), POLL).toBe('150%')
    const zoomed = (col: number, row: number) => ({
      x: box.x + (ROW_HEADER_WIDTH + col * COLUMN_WIDTH + COLUMN_WIDTH / 2) * 1.5,
      y: box.y + (COLUMN_HEADER_HEIGHT + row * ROW_HEIGHT + ROW_HEIGHT / 2) * 1.5,
    })
    let at = zoomed(2, 4)
    await page.mouse.click(at.x, at.y)
    expect(await statusAddress(page)).toBe('C5')
    await page.getByRole('button', { name: 'Zoom out' }).click()
    await page.getByRole('button', { name: 'Zoom out' }).click()
    await expect.poll(() => zoomValue.innerText(), POLL).toBe('130%')
    // the zoom is this user's view, not an edit: undo leaves it
    await page.keyboard.press('Control+z')
    expect(await zoomValue.innerText()).toBe('130%')
    await menu('View', 'Zoom to 100%')
    await expect.poll(() => zoomValue.innerText(), POLL).toBe('100%')
    at = zoomed(2, 4)
    await page.mouse.click(at.x, at.y)
    expect(await statusAddress(page)).not.toBe('C5')
    await page.keyboard.down('Control')
    for (let step = 0; step < 8; step++) await page.mouse.wheel(0, 100)
    await page.keyboard.up('Control')
    await expect.poll(() => zoomValue.innerText(), POLL).toBe('50%')
  })
})
