import './harness-types.js'
import type { Page } from 'playwright-core'

/** The grid's geometry, as web/src/grid/geometry.ts sets it. */
export const ROW_HEADER_WIDTH = 50
export const COLUMN_HEADER_HEIGHT = 24
export const ROW_HEIGHT = 24
export const COLUMN_WIDTH = 100

export function position(address: string): { col: number; row: number } {
  const match = /^([A-Z]+)(\d+)$/.exec(address)
  if (!match) throw new Error(`not an address: ${address}`)
  let col = 0
  for (const ch of match[1]) col = col * 26 + (ch.charCodeAt(0) - 64)
  return { col: col - 1, row: Number(match[2]) - 1 }
}

/** The page point at the middle of a cell, for a grid scrolled to the top left with default widths. */
export async function cellPoint(page: Page, address: string): Promise<{ x: number; y: number }> {
  const box = await page.locator('.grid-scroller').boundingBox()
  if (!box) throw new Error('the grid is not on the page')
  const { col, row } = position(address)
  return {
    x: box.x + ROW_HEADER_WIDTH + col * COLUMN_WIDTH + COLUMN_WIDTH / 2,
    y: box.y + COLUMN_HEADER_HEIGHT + row * ROW_HEIGHT + ROW_HEIGHT / 2,
  }
}

export async function clickCell(page: Page, address: string, modifiers: ('Shift' | 'Control')[] = []): Promise<void> {
  const { x, y } = await cellPoint(page, address)
  for (const key of modifiers) await page.keyboard.down(key)
  await page.mouse.click(x, y)
  for (const key of modifiers) await page.keyboard.up(key)
}

export async function dragCells(page: Page, from: string, to: string): Promise<void> {
  const a = await cellPoint(page, from)
  const b = await cellPoint(page, to)
  await page.mouse.move(a.x, a.y)
  await page.mouse.down()
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 3 })
  await page.mouse.move(b.x, b.y, { steps: 3 })
  await page.mouse.up()
}

/** Reads a cell of the harness workbook's active sheet. */
export function harnessCell(page: Page, address: string, what: 'input' | 'display' = 'display'): Promise<string> {
  const pos = position(address)
  return page.evaluate(
    ({ pos, what }) => {
      const { store, sheet } = window.harness.workspace.state
      return what === 'input' ? store!.getInput(sheet, pos) : store!.getDisplay(sheet, pos)
    },
    { pos, what },
  )
}

/** What the status bar shows for the selection: 'B3' or 'A1:C4'. */
export function statusAddress(page: Page): Promise<string> {
  return page.locator('[data-testid="status-address"]').innerText()
}

/** Types an entry into the selected cell and commits it with a key, as a user does. */
export async function typeEntry(page: Page, text: string, commit: 'Enter' | 'Tab' = 'Enter'): Promise<void> {
  await page.keyboard.type(text)
  await page.keyboard.press(commit)
}

/** Pastes text the way another program's copy arrives: a paste event carrying text/plain. */
export async function pasteFromOtherProgram(page: Page, text: string): Promise<void> {
  await page.locator('[data-testid="cell-editor"]').evaluate((element, data) => {
    const transfer = new DataTransfer()
    transfer.setData('text/plain', data)
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }))
  }, text)
}
