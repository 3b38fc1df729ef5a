/**
 * The grid in a real browser: editing, navigation, formulas with pointing and autocomplete, the
 * clipboard, fill, resizing, formats and sheets, exactly as spec 1 §4 and Excel users expect.
 * Runs against the grid harness page (the spreadsheet screen over a local workbook).
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildWebForTests } from './support/build-web.js'
import { launchChromium, newTestContext, POLL, E2E_TIMEOUT } from './support/chromium.js'
import {
  cellPoint,
  clickCell,
  COLUMN_HEADER_HEIGHT,
  COLUMN_WIDTH,
  dragCells,
  harnessCell,
  pasteFromOtherProgram,
  position,
  ROW_HEADER_WIDTH,
  statusAddress,
  typeEntry,
} from './support/grid-page.js'
import { serveStatic } from './support/static-server.js'

let browser: Browser
let server: { url: string; close(): Promise<void> }
let page: Page

beforeAll(async () => {
  const root = await buildWebForTests()
  server = await serveStatic(root)
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

beforeEach(async () => {
  const context = await newTestContext(browser, { viewport: { width: 1280, height: 800 }, permissions: ['clipboard-read', 'clipboard-write'] })
  page = await context.newPage()
  await page.goto(`${server.url}/grid-harness.html`)
  await page.locator('[data-testid="cell-editor"]').waitFor({ state: 'attached' })
  await expect.poll(() => page.evaluate(() => window.harness.draws.length), POLL).toBeGreaterThan(0)
})

const input = (address: string) => harnessCell(page, address, 'input')
const shown = (address: string) => harnessCell(page, address, 'display')

describe('editing', { timeout: E2E_TIMEOUT }, () => {
  it('commits with Enter (down) and Tab (right), and shows values at once', async () => {
    await typeEntry(page, 'Revenue', 'Tab')
    expect(await statusAddress(page)).toBe('B1')
    await typeEntry(page, '1200')
    expect(await statusAddress(page)).toBe('B2')
    await typeEntry(page, '=B1*1.1')
    expect(await input('A1')).toBe('Revenue')
    expect(await input('B2')).toBe('=B1*1.1')
    expect(await shown('B2')).toBe('1320')
    await expect.poll(() => page.locator('[data-testid="cell-editor"]').getAttribute('aria-label'), POLL).toBe('B3')
  })

  it('cancels with Escape, edits the content with F2, and commits on blur', async () => {
    await typeEntry(page, 'first')
    await page.keyboard.press('ArrowUp')
    await page.keyboard.type('replaced')
    await page.keyboard.press('Escape')
    expect(await input('A1')).toBe('first')
    await page.keyboard.press('F2')
    await page.keyboard.type(' draft')
    await page.keyboard.press('Enter')
    expect(await input('A1')).toBe('first draft')
    await page.keyboard.type('blurred')
    await page.getByLabel('Cell reference').click()
    expect(await input('A2')).toBe('blurred')
    const a1 = await cellPoint(page, 'A1')
    await page.mouse.dblclick(a1.x, a1.y)
    await page.keyboard.type('!')
    await page.keyboard.press('Enter')
    expect(await input('A1')).toBe('first draft!')
  })

  it('clears the selection with Delete and Backspace', async () => {
    await pasteFromOtherProgram(page, '1\t2\r\n3\t4\r\n')
    await clickCell(page, 'A1')
    await page.keyboard.press('Shift+ArrowRight')
    await page.keyboard.press('Delete')
    expect([await input('A1'), await input('B1'), await input('A2')]).toEqual(['', '', '3'])
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Backspace')
    expect(await input('A2')).toBe('')
    expect(await input('B2')).toBe('4')
  })

  it('edits from the formula bar and writes Ctrl+Enter into every selected cell', async () => {
    await page.getByLabel('Formula bar').click()
    await page.keyboard.type('from the bar')
    await page.keyboard.press('Enter')
    expect(await input('A1')).toBe('from the bar')
    await page.keyboard.press('Shift+ArrowDown')
    await page.keyboard.press('Shift+ArrowDown')
    await page.keyboard.type('7')
    await page.keyboard.press('Control+Enter')
    expect([await input('A2'), await input('A3'), await input('A4')]).toEqual(['7', '7', '7'])
  })
})

describe('selection and navigation', { timeout: E2E_TIMEOUT }, () => {
  it('moves with arrows, extends with Shift, and selects by dragging', async () => {
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowDown')
    expect(await statusAddress(page)).toBe('B2')
    await page.keyboard.press('Shift+ArrowDown')
    await page.keyboard.press('Shift+ArrowRight')
    expect(await statusAddress(page)).toBe('B2:C3')
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowLeft')
    expect(await statusAddress(page)).toBe('A2')
    await dragCells(page, 'B2', 'D5')
    expect(await statusAddress(page)).toBe('B2:D5')
    await clickCell(page, 'E7', ['Shift'])
    expect(await statusAddress(page)).toBe('B2:E7')
  })

  it('scrolls sideways twice as far per wheel step as the wheel asks (spec 1 §2)', async () => {
    const box = (await page.locator('.grid-scroller').boundingBox())!
    await page.mouse.move(box.x + 400, box.y + 200)
    await page.mouse.wheel(120, 0)
    await expect.poll(() => page.locator('.grid-scroller').evaluate((el) => el.scrollLeft), POLL).toBe(240)
    await page.mouse.wheel(0, 240)
    await expect.poll(() => page.locator('.grid-scroller').evaluate((el) => el.scrollTop), POLL).toBe(240)
  })

  it('draws the grid once per task as it opens and as the window grows, showing the rows it uncovers', async () => {
    // the grid's draws counted by the canvas calls they start with, and those made twice in one task
    const counted = await page.context().newPage()
    await counted.addInitScript(() => {
      const tally = { draws: 0, twiceInOneTask: 0 }
      let drawnThisTask = false
      const setTransform = CanvasRenderingContext2D.prototype.setTransform
      CanvasRenderingContext2D.prototype.setTransform = function (this: CanvasRenderingContext2D, ...args: Parameters<typeof setTransform>) {
        tally.draws++
        if (drawnThisTask) tally.twiceInOneTask++
        drawnThisTask = true
        queueMicrotask(() => (drawnThisTask = false))
        return setTransform.apply(this, args)
      } as typeof setTransform
      Object.assign(window, { drawTally: tally })
    })
    const tally = () => counted.evaluate(() => (window as unknown as { drawTally: { draws: number; twiceInOneTask: number } }).drawTally)
    await counted.goto(`${server.url}/grid-harness.html`)
    await expect.poll(async () => (await tally()).draws, POLL).toBeGreaterThan(0)
    // two frames on, the canvas's size has been reported to its observer: the size it already had
    await counted.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    expect((await tally()).twiceInOneTask).toBe(0)
    const before = await counted.evaluate(() => window.harness.draws.at(-1)!.lastRow)
    await counted.setViewportSize({ width: 1280, height: 1100 })
    await expect.poll(() => counted.evaluate(() => window.harness.draws.at(-1)!.lastRow), POLL).toBeGreaterThan(before + 10)
    expect((await tally()).twiceInOneTask).toBe(0)
    await counted.close()
  })

  it('goes to a cell with Ctrl+G, to the row start with Home and to the last used cell with Ctrl+End', async () => {
    await pasteFromOtherProgram(page, 'a\tb\tc\r\n1\t2\t3\r\n')
    await page.keyboard.press('Control+g')
    const dialog = page.getByRole('dialog', { name: 'Go to' })
    await dialog.getByLabel('Reference').fill('nowhere')
    await dialog.getByRole('button', { name: 'Go' }).click()
    await expect.poll(() => dialog.getByRole('alert').innerText(), POLL).toBe('nowhere is not a cell reference')
    await dialog.getByLabel('Reference').fill('F40')
    await page.keyboard.press('Enter')
    expect(await statusAddress(page)).toBe('F40')
    await page.keyboard.press('Home')
    expect(await statusAddress(page)).toBe('A40')
    await page.keyboard.press('Control+End')
    expect(await statusAddress(page)).toBe('C2')
    await page.keyboard.press('Control+Home')
    expect(await statusAddress(page)).toBe('A1')
  })
})

describe('formulas', { timeout: E2E_TIMEOUT }, () => {
  it('inserts references with clicks (Shift extends) and closes the parenthesis on commit', async () => {
    await pasteFromOtherProgram(page, '10\r\n20\r\n30\r\n')
    await clickCell(page, 'A4')
    await page.keyboard.type('=SUM(')
    await clickCell(page, 'A1')
    await clickCell(page, 'A3', ['Shift'])
    expect(await page.getByLabel('Formula bar').inputValue()).toBe('=SUM(A1:A3')
    await page.keyboard.press('Enter')
    expect(await input('A4')).toBe('=SUM(A1:A3)')
    expect(await shown('A4')).toBe('60')
  })

  it('inserts references with arrows, Shift extending to a range, and a drag', async () => {
    await pasteFromOtherProgram(page, '2\t3\r\n4\t5\r\n')
    await clickCell(page, 'C3')
    await page.keyboard.type('=')
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('Shift+ArrowUp')
    await page.keyboard.press('Shift+ArrowLeft')
    await page.keyboard.type('*0+')
    const a = await cellPoint(page, 'A1')
    const b = await cellPoint(page, 'B2')
    await page.mouse.move(a.x, a.y)
    await page.mouse.down()
    await page.mouse.move(b.x, b.y, { steps: 4 })
    await page.mouse.up()
    expect(await page.getByLabel('Formula bar').inputValue()).toBe('=A1:B2*0+A1:B2')
    await page.keyboard.press('Escape')
    await page.keyboard.type('=SUM(')
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('Shift+ArrowUp')
    await page.keyboard.press('Tab')
    expect(await input('C3')).toBe('=SUM(C1:C2)')
    expect(await statusAddress(page)).toBe('D3')
  })

  it('points at cells of another sheet while typing a formula, then returns to the edited cell', async () => {
    await page.getByRole('button', { name: 'Add sheet' }).click()
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Sheet2')
    await typeEntry(page, '5')
    await page.getByRole('tab', { name: 'Sheet1' }).click()
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Sheet1')
    await clickCell(page, 'B1')
    await page.keyboard.type('=')
    await page.getByRole('tab', { name: 'Sheet2' }).click()
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Sheet2')
    await clickCell(page, 'A1')
    await page.keyboard.type('*2')
    expect(await page.getByLabel('Formula bar').inputValue()).toBe('=Sheet2!A1*2')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Sheet1')
    expect(await input('B1')).toBe('=Sheet2!A1*2')
    expect(await shown('B1')).toBe('10')
    expect(await statusAddress(page)).toBe('B2')
  })

  it("autocompletes function names from the engine's catalogue and Tab completes to NAME(", async () => {
    await pasteFromOtherProgram(page, '4\r\n8\r\n')
    await clickCell(page, 'A3')
    await page.keyboard.type('=aver')
    const list = page.getByRole('listbox', { name: 'Functions' })
    await expect.poll(() => list.getByRole('option').first().innerText(), POLL).toContain('AVERAGE')
    await page.keyboard.press('Tab')
    expect(await page.getByLabel('Formula bar').inputValue()).toBe('=AVERAGE(')
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('Shift+ArrowUp')
    await page.keyboard.press('Enter')
    expect(await input('A3')).toBe('=AVERAGE(A1:A2)')
    expect(await shown('A3')).toBe('6')
    await page.keyboard.type('=NOSUCHFUNCTION(1')
    await page.keyboard.press('Enter')
    expect(await shown('A4')).toBe('#NAME?')
  })
})

describe('clipboard, fill and undo', { timeout: E2E_TIMEOUT }, () => {
  it('pastes tab-separated text from Excel (CRLF, quotes) and Google Sheets (LF) as a block', async () => {
    await clickCell(page, 'B2')
    await pasteFromOtherProgram(page, 'Year\tRevenue\r\n2024\t"1,200"\r\n2025\t"multi\nline"\r\n')
    expect(await statusAddress(page)).toBe('B2:C4')
    expect([await input('B2'), await input('C3'), await input('C4')]).toEqual(['Year', '1,200', 'multi\nline'])
    expect(await shown('C3')).toBe('1,200')
    await clickCell(page, 'E1')
    await pasteFromOtherProgram(page, 'x\ty\nz\tw')
    expect([await input('E1'), await input('F1'), await input('E2'), await input('F2')]).toEqual(['x', 'y', 'z', 'w'])
  })

  it('copies as TSV for other programs and pastes its own copy with formulas moved', async () => {
    await pasteFromOtherProgram(page, '1\r\n2\r\n')
    await clickCell(page, 'B1')
    await typeEntry(page, '=A1*10')
    await clickCell(page, 'B1')
    const copied = await page.locator('[data-testid="cell-editor"]').evaluate((element) => {
      const transfer = new DataTransfer()
      element.dispatchEvent(new ClipboardEvent('copy', { clipboardData: transfer, bubbles: true, cancelable: true }))
      return transfer.getData('text/plain')
    })
    expect(copied).toBe('10\r\n')
    await clickCell(page, 'B2')
    await pasteFromOtherProgram(page, copied)
    expect(await input('B2')).toBe('=A2*10')
    expect(await shown('B2')).toBe('20')
  })

  it('copies and pastes with the keyboard shortcuts', async () => {
    await typeEntry(page, '=ROW()*3')
    await clickCell(page, 'A1')
    await page.keyboard.press('Control+c')
    await clickCell(page, 'C5')
    await page.keyboard.press('Control+v')
    expect(await input('C5')).toBe('=ROW()*3')
    expect(await shown('C5')).toBe('15')
  })

  it('moves a cut cell with Ctrl+X and Ctrl+V, re-pointing the formulas that read it, and undoes the move in one step', async () => {
    await typeEntry(page, '5')
    await clickCell(page, 'B1')
    await typeEntry(page, '=A1*2')
    await clickCell(page, 'A1')
    await page.keyboard.press('Control+x')
    await clickCell(page, 'C1')
    await page.keyboard.press('Control+v')
    expect(await input('A1')).toBe('')
    expect(await input('C1')).toBe('5')
    expect(await input('B1')).toBe('=C1*2')
    expect(await shown('B1')).toBe('10')
    await page.keyboard.press('Control+z')
    expect(await input('A1')).toBe('5')
    expect(await input('C1')).toBe('')
    expect(await input('B1')).toBe('=A1*2')
  })

  it('takes typing right after the Go To dialog closes', async () => {
    await page.keyboard.press('Control+g')
    await page.getByRole('dialog', { name: 'Go to' }).getByLabel('Reference').fill('B5')
    await page.keyboard.press('Enter')
    await page.keyboard.type('typed after go to')
    await page.keyboard.press('Enter')
    expect(await input('B5')).toBe('typed after go to')
  })

  it('fills a series with the fill handle and copies with Ctrl+D and Ctrl+R', async () => {
    await pasteFromOtherProgram(page, '1\t=A1*2\r\n2\r\n')
    await dragCells(page, 'A1', 'A2')
    const handle = await cellPoint(page, 'A2')
    const target = await cellPoint(page, 'A5')
    await page.mouse.move(handle.x + COLUMN_WIDTH / 2 - 1, handle.y + 12 - 1)
    await page.mouse.down()
    await page.mouse.move(target.x, target.y, { steps: 5 })
    await page.mouse.up()
    expect([await input('A3'), await input('A4'), await input('A5')]).toEqual(['3', '4', '5'])
    await clickCell(page, 'B1')
    await clickCell(page, 'B5', ['Shift'])
    await page.keyboard.press('Control+d')
    expect(await input('B5')).toBe('=A5*2')
    expect(await shown('B5')).toBe('10')
    await clickCell(page, 'B1')
    await clickCell(page, 'D1', ['Shift'])
    await page.keyboard.press('Control+r')
    expect(await input('D1')).toBe('=C1*2')
  })

  it('fills down alongside the neighbouring data on a double click of the fill handle', async () => {
    await pasteFromOtherProgram(page, '10\t=A1*2\r\n20\r\n30\r\n')
    await clickCell(page, 'B1')
    const handle = await cellPoint(page, 'B1')
    await page.mouse.dblclick(handle.x + COLUMN_WIDTH / 2 - 1, handle.y + 12 - 1)
    expect([await input('B2'), await input('B3'), await input('B4')]).toEqual(['=A2*2', '=A3*2', ''])
    expect(await shown('B3')).toBe('60')
  })

  it('selects the row with Shift+Space and the column with Ctrl+Space', async () => {
    await clickCell(page, 'C3')
    await page.keyboard.press('Shift+Space')
    expect(await statusAddress(page)).toBe('A3:AX3')
    await clickCell(page, 'C3')
    await page.keyboard.press('Control+Space')
    expect(await statusAddress(page)).toBe('C1:C100')
  })

  it('undoes and redoes with Ctrl+Z and Ctrl+Y', async () => {
    await typeEntry(page, 'one')
    await clickCell(page, 'A1')
    await typeEntry(page, 'two')
    await page.keyboard.press('Control+z')
    expect(await input('A1')).toBe('one')
    await page.keyboard.press('Control+z')
    expect(await input('A1')).toBe('')
    await page.keyboard.press('Control+y')
    expect(await input('A1')).toBe('one')
  })
})

describe('columns, formats and sheets', { timeout: E2E_TIMEOUT }, () => {
  it('resizes a column by dragging its header border', async () => {
    const box = (await page.locator('.grid-scroller').boundingBox())!
    const border = { x: box.x + ROW_HEADER_WIDTH + COLUMN_WIDTH - 1, y: box.y + COLUMN_HEADER_HEIGHT / 2 }
    await page.mouse.move(border.x, border.y)
    await page.mouse.down()
    await page.mouse.move(border.x + 60, border.y, { steps: 4 })
    await page.mouse.up()
    const width = await page.evaluate(() => (window.harness.workspace.state.store as unknown as { sheet(n: string): { columnWidths: Map<number, number> } }).sheet('Sheet1').columnWidths.get(0))
    expect(width).toBe(COLUMN_WIDTH + 60)
  })

  it('inserts and deletes rows and columns from the context menu, moving formulas with them', async () => {
    await pasteFromOtherProgram(page, '5\r\n=A1*2\r\n')
    const box = (await page.locator('.grid-scroller').boundingBox())!
    const rowHeader2 = { x: box.x + ROW_HEADER_WIDTH / 2, y: box.y + COLUMN_HEADER_HEIGHT + 24 + 12 }
    await page.mouse.click(rowHeader2.x, rowHeader2.y, { button: 'right' })
    await page.getByRole('menu', { name: 'Cell actions' }).getByRole('menuitem', { name: 'Insert 1 row above' }).click()
    expect(await input('A3')).toBe('=A1*2')
    expect(await input('A2')).toBe('')
    await clickCell(page, 'A1')
    await page.keyboard.press('Shift+F10')
    await page.getByRole('menuitem', { name: 'Insert 1 column left' }).click()
    expect(await input('B3')).toBe('=B1*2')
    expect(await shown('B3')).toBe('10')
    await page.mouse.click(rowHeader2.x, rowHeader2.y, { button: 'right' })
    await page.getByRole('menuitem', { name: 'Delete 1 row' }).click()
    expect(await input('B2')).toBe('=B1*2')
    await page.keyboard.press('Control+z')
    expect(await input('B3')).toBe('=B1*2')
  })

  it('merges and centres a block, which then acts as one cell, and unmerges it', async () => {
    await typeEntry(page, 'Quarterly results')
    await clickCell(page, 'A1')
    await clickCell(page, 'C2', ['Shift'])
    await page.getByRole('button', { name: 'Merge & center' }).click()
    const merges = () => page.evaluate(() => (window.harness.workspace.state.store as unknown as { snapshot(): { sheets: { merges: string[] }[] } }).snapshot().sheets[0].merges)
    expect(await merges()).toEqual(['A1:C2'])
    expect(await statusAddress(page)).toBe('A1')
    await page.keyboard.press('ArrowRight')
    expect(await statusAddress(page)).toBe('D1')
    await page.keyboard.press('ArrowLeft')
    expect(await statusAddress(page)).toBe('A1')
    await page.keyboard.press('ArrowDown')
    expect(await statusAddress(page)).toBe('A3')
    await clickCell(page, 'B2')
    expect(await statusAddress(page)).toBe('A1')
    await clickCell(page, 'D2', ['Shift'])
    expect(await statusAddress(page)).toBe('A1:D2')
    await clickCell(page, 'C1')
    await page.getByRole('button', { name: 'Unmerge cells' }).click()
    expect(await merges()).toEqual([])
    expect(await input('A1')).toBe('Quarterly results')
  })

  it('fits a column to its content on a double click of its border', async () => {
    await typeEntry(page, 'A label much wider than one column')
    const box = (await page.locator('.grid-scroller').boundingBox())!
    await page.mouse.dblclick(box.x + ROW_HEADER_WIDTH + COLUMN_WIDTH - 1, box.y + COLUMN_HEADER_HEIGHT / 2)
    const width = await page.evaluate(() => (window.harness.workspace.state.store as unknown as { sheet(n: string): { columnWidths: Map<number, number> } }).sheet('Sheet1').columnWidths.get(0))
    expect(width).toBeGreaterThan(180)
    expect(width).toBeLessThan(300)
  })

  it('formats numbers from the menu and the toolbar, and styles the selection', async () => {
    await typeEntry(page, '1234.5')
    await page.keyboard.press('ArrowUp')
    await page.getByRole('button', { name: 'Number format' }).click()
    await page.getByRole('menuitem', { name: /^Currency/ }).click()
    expect(await shown('A1')).toBe('$1,234.50')
    await page.getByRole('button', { name: 'Percent format' }).click()
    expect(await shown('A1')).toBe('123450.00%')
    await page.getByRole('button', { name: 'Decrease decimals' }).click()
    expect(await shown('A1')).toBe('123450.0%')
    await page.keyboard.press('Shift+ArrowRight')
    await page.getByRole('button', { name: 'Bold (Ctrl+B)' }).click()
    await page.getByLabel('Font family').selectOption('Roboto')
    const style = await page.evaluate(() => window.harness.workspace.state.store!.getStyle('Sheet1', { col: 1, row: 0 }))
    expect(style).toEqual({ bold: true, fontFamily: 'Roboto' })
    expect(await page.getByRole('button', { name: 'Bold (Ctrl+B)' }).getAttribute('aria-pressed')).toBe('true')
  })

  it('colours text and fills from the Format menu, which opens over the grid without hiding the toolbar', async () => {
    await typeEntry(page, 'Total')
    await page.keyboard.press('ArrowUp')
    const undo = page.getByRole('button', { name: /^Undo/ })
    const before = (await undo.boundingBox())!
    await page.getByRole('button', { name: 'Format', exact: true }).click()
    expect(await undo.boundingBox()).toEqual(before)
    await page.getByRole('menuitem', { name: 'Font colour: Red' }).click()
    await page.getByRole('button', { name: 'Format', exact: true }).click()
    await page.getByRole('menuitem', { name: 'Highlight: Light yellow' }).click()
    const style = await page.evaluate(() => window.harness.workspace.state.store!.getStyle('Sheet1', { col: 0, row: 0 }))
    expect(style).toEqual({ color: '#c62828', fill: '#fff8c5' })
    await page.getByRole('button', { name: 'Format', exact: true }).click()
    await page.getByRole('menuitem', { name: 'Clear formatting' }).click()
    expect(await page.evaluate(() => window.harness.workspace.state.store!.getStyle('Sheet1', { col: 0, row: 0 }))).toBeUndefined()
  })

  it('adds sheets, switches with the tabs and Ctrl+PgUp/PgDn, and renames by double click', async () => {
    await typeEntry(page, 'on sheet 1')
    await page.getByRole('button', { name: 'Add sheet' }).click()
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Sheet2')
    expect(await page.getByText('Sheet 2 of 2').count()).toBe(1)
    await page.keyboard.press('Control+PageUp')
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Sheet1')
    expect(await input('A1')).toBe('on sheet 1')
    await page.getByRole('tab', { name: 'Sheet2' }).dblclick()
    const rename = page.getByLabel('Rename sheet Sheet2')
    await rename.fill('Sheet1')
    await rename.press('Enter')
    expect(await page.getByRole('alert').innerText()).toBe('There is already a sheet named Sheet1')
    await rename.fill('Inputs')
    await rename.press('Enter')
    await expect.poll(() => page.getByRole('tab', { name: 'Inputs' }).count(), POLL).toBe(1)
    await clickCell(page, 'B1')
    await typeEntry(page, '=Inputs!A1+1')
    expect(await shown('B1')).toBe('1')
    await page.getByRole('tab', { name: 'Inputs' }).click()
    await page.getByRole('button', { name: 'Sheet options' }).click()
    await page.getByRole('menuitem', { name: 'Move left' }).click()
    expect(await page.getByRole('tab').allInnerTexts()).toEqual(['Inputs', 'Sheet1'])
    await page.getByRole('tab', { name: 'Sheet1' }).dragTo(page.getByRole('tab', { name: 'Inputs' }))
    expect(await page.getByRole('tab').allInnerTexts()).toEqual(['Sheet1', 'Inputs'])
  })

  it('grows to the sheet: a block pasted past row 100 and column AX extends the grid', async () => {
    await page.keyboard.press('Control+g')
    await page.getByRole('dialog', { name: 'Go to' }).getByLabel('Reference').fill('AX100')
    await page.keyboard.press('Enter')
    await pasteFromOtherProgram(page, '1\t2\r\n3\t4\r\n')
    expect(await statusAddress(page)).toBe('AX100:AY101')
    expect(await page.locator('.grid-root').getAttribute('aria-rowcount')).toBe('102')
    expect(await page.locator('.grid-root').getAttribute('aria-colcount')).toBe('52')
    expect(position('AY101')).toEqual({ col: 50, row: 100 })
  })
})
