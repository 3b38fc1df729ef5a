/**
 * Charts placed on the sheet, in a real browser through the real gateway and services: Insert → Chart
 * makes a chart of the selection over the cells, the chart editor turns it into the waterfall of an
 * enterprise-value bridge, an edit redraws it at once from the browser's own values, it is moved by
 * dragging (and the move undone), resized by its corner handle, removed with Delete and brought back
 * with Undo, and kept through a reload. The chart is read the accessible way: its description lists
 * the values it draws.
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

const user = { name: 'Ada Lovelace', email: `ada.${Date.now()}@example.com`, password: 'engine-1843' }

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true })
  session = await signedInBrowser(user, 'finsheet-e2e-charts-')
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

async function menu(name: string, item: string): Promise<void> {
  await page.getByRole('menubar', { name: 'Menu bar' }).getByRole('button', { name, exact: true }).click()
  await page.getByRole('menuitem', { name: new RegExp(`^${item}`) }).click()
}

const saveState = () => page.getByTestId('workbook-title').locator('..').innerText()

const chartBox = () => page.getByRole('group', { name: 'Chart EV bridge' })
/** What the chart draws, as a screen reader hears it. */
const drawn = async () => (await page.getByRole('img', { name: 'waterfall chart: EV bridge' }).getAttribute('aria-description')) ?? ''
async function boxOf(): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await chartBox().boundingBox()
  if (!box) throw new Error('the chart is not on the page')
  return box
}

async function dragBy(from: { x: number; y: number }, dx: number, dy: number): Promise<void> {
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  await page.mouse.move(from.x + dx / 2, from.y + dy / 2, { steps: 3 })
  await page.mouse.move(from.x + dx, from.y + dy, { steps: 3 })
  await page.mouse.up()
}

describe('charts on the sheet', { timeout: E2E_TIMEOUT }, () => {
  it('inserts a waterfall of an EV bridge over the cells, follows edits at once, moves, undoes, resizes, deletes and keeps it', async () => {
    await page.getByRole('button', { name: /Start Blank/ }).click()
    await page.getByLabel('Formula bar').waitFor()
    await shownIn('A1')
    for (const text of ['Enterprise value', 'Less: net debt', 'Less: minorities', 'Plus: associates', 'Equity value']) await typeEntry(page, text)
    await shownIn('B1')
    for (const value of ['1200', '-350', '-30', '80', '=SUM(B1:B4)']) await typeEntry(page, value)
    expect(await shownIn('B5')).toBe('900')

    // Insert → Chart over the selection; the editor makes it a waterfall titled EV bridge
    await shownIn('A1:B5')
    await menu('Insert', 'Chart')
    const editor = page.getByRole('complementary', { name: 'Chart editor' })
    await editor.getByLabel('Chart type').selectOption('waterfall')
    await editor.getByLabel('Title').fill('EV bridge')
    await editor.getByLabel('Title').press('Enter')
    await expect.poll(drawn, POLL).toBe(
      'Waterfall chart EV bridge: Enterprise value 1,200 (total); Less: net debt -350; Less: minorities -30; Plus: associates +80; Equity value 900 (total)',
    )
    // the first and last bars stand on zero; decreases and increases are coloured apart
    const kinds = await page.locator('[data-chart-id] rect[data-kind]').evaluateAll((rects) => rects.map((rect) => rect.getAttribute('data-kind')))
    expect(kinds).toEqual(['total', 'decrease', 'decrease', 'increase', 'total'])
    await editor.getByRole('button', { name: 'Close' }).click()
    await page.screenshot({ path: join(OUTPUT, 'waterfall-chart.png') })

    // an edit redraws the chart from the browser's own values, in the same frame as the cells
    await shownIn('B2')
    await typeEntry(page, '-400')
    expect(await drawn()).toContain('Less: net debt -400; Less: minorities -30; Plus: associates +80; Equity value 850 (total)')

    // dragged by its body 100 px right and 48 px down; Ctrl+Z puts it back
    const start = await boxOf()
    await dragBy({ x: start.x + start.width / 2, y: start.y + 12 }, 100, 48)
    await expect.poll(async () => (await boxOf()).x - start.x, POLL).toBeCloseTo(100, 0)
    expect((await boxOf()).y - start.y).toBeCloseTo(48, 0)
    expect(await chartBox().evaluate((element) => element === document.activeElement)).toBe(true)
    await page.keyboard.press('Control+z')
    await expect.poll(async () => (await boxOf()).x, POLL).toBeCloseTo(start.x, 0)
    expect((await boxOf()).y).toBeCloseTo(start.y, 0)

    // resized by its bottom-right handle; the top-left corner stays
    await chartBox().click({ position: { x: 40, y: 10 } })
    const handle = await page.getByRole('button', { name: 'Resize from the bottom-right corner' }).boundingBox()
    if (!handle) throw new Error('no resize handle')
    await dragBy({ x: handle.x + handle.width / 2, y: handle.y + handle.height / 2 }, 120, 60)
    await expect.poll(async () => (await boxOf()).width - start.width, POLL).toBeCloseTo(120, 0)
    expect((await boxOf()).height - start.height).toBeCloseTo(60, 0)
    expect((await boxOf()).x).toBeCloseTo(start.x, 0)

    // rows inserted above push it down with its cells; Delete removes it, Ctrl+Z brings it back
    const beforeRows = await boxOf()
    await shownIn('A1:A2')
    await menu('Data', 'Insert 2 rows above')
    await expect.poll(async () => (await boxOf()).y - beforeRows.y, POLL).toBeCloseTo(48, 0)
    await chartBox().click({ position: { x: 40, y: 10 } })
    await page.keyboard.press('Delete')
    await expect.poll(() => chartBox().count(), POLL).toBe(0)
    await page.keyboard.press('Control+z')
    await expect.poll(() => chartBox().count(), POLL).toBe(1)

    // kept: after a reload it is where it was, as large, and draws the same values
    const placed = await boxOf()
    await expect.poll(saveState, { ...POLL, timeout: 30_000 }).toContain('Saved')
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    await expect.poll(() => chartBox().count(), POLL).toBe(1)
    const reloaded = await boxOf()
    expect([reloaded.x, reloaded.y, reloaded.width, reloaded.height].map(Math.round)).toEqual([placed.x, placed.y, placed.width, placed.height].map(Math.round))
    expect(await drawn()).toContain('Less: net debt -400')
  })
})
