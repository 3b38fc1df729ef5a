/**
 * What a sheet carries around its cells, in a real browser through the real gateway and services: a
 * note added with Shift+F2 and read by hovering its cell, a link set with Ctrl+K and followed with
 * Ctrl+click, a tab colour and gridlines turned off, all kept through a reload; and an imported
 * workbook showing its notes, tab colour, borders and hidden gridlines, with what it did not keep
 * listed after the import.
 */
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { E2E_TIMEOUT, POLL } from './support/chromium.js'
import { cellPoint, clickCell, COLUMN_HEADER_HEIGHT, COLUMN_WIDTH, ROW_HEADER_WIDTH, ROW_HEIGHT, statusAddress, typeEntry } from './support/grid-page.js'
import { signedInBrowser, type SignedInBrowser } from './support/signed-in-browser.js'

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))

let session: SignedInBrowser
let page: Page

const user = { name: 'Ada Lovelace', email: `ada.${Date.now()}@example.com`, password: 'engine-1843' }

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true })
  session = await signedInBrowser(user, 'finsheet-e2e-extras-')
  ;({ page } = session)
})

afterAll(async () => {
  await session?.close()
})

async function select(address: string): Promise<void> {
  const box = page.getByLabel('Cell reference')
  await box.click()
  await box.fill(address)
  await box.press('Enter')
}

/** Opens a menu of the menu bar and runs an item, named as it begins. */
async function menu(name: string, item: string): Promise<void> {
  await page.getByRole('menubar', { name: 'Menu bar' }).getByRole('button', { name, exact: true }).click()
  await page.getByRole('menuitem', { name: new RegExp(`^${item}`) }).click()
}

/** The items a menu of the menu bar shows (their names, without shortcuts), closed again after. */
async function menuItems(name: string): Promise<string[]> {
  await page.getByRole('menubar', { name: 'Menu bar' }).getByRole('button', { name, exact: true }).click()
  const items = (await page.getByRole('menuitem').allInnerTexts()).map((text) => text.split('\n')[0].trim())
  await page.keyboard.press('Escape')
  return items
}

/** Moves the pointer over a cell and reads the note shown beside it ('' when none shows). */
async function noteOn(address: string): Promise<string> {
  const point = await cellPoint(page, address)
  await page.mouse.move(point.x - 20, point.y)
  await page.mouse.move(point.x, point.y)
  const tooltip = page.getByRole('tooltip')
  return (await tooltip.count()) > 0 ? (await tooltip.innerText()).replace(/\n+/g, '\n').trim() : ''
}

async function waitUntilSaved(): Promise<void> {
  await expect.poll(() => page.getByTestId('workbook-title').locator('..').innerText(), { ...POLL, timeout: 30_000 }).toContain('Saved')
}

/** A workbook as another application writes it: a coloured tab, gridlines off, borders, notes with authors, a link and a chart. */
/** The size of what is drawn dark inside a rectangle of the page's canvases (page pixels). */
async function inkBox(x: number, y: number, width: number, height: number): Promise<{ width: number; height: number }> {
  return page.evaluate(
    ({ x, y, width, height }) => {
      const canvas = Array.from(document.querySelectorAll('canvas')).find((candidate) => {
        const rect = candidate.getBoundingClientRect()
        return x >= rect.left && x < rect.right && y >= rect.top && y < rect.bottom
      })
      if (!canvas) throw new Error('no canvas there')
      const rect = canvas.getBoundingClientRect()
      const scale = canvas.width / rect.width
      const image = canvas.getContext('2d')!.getImageData(Math.round((x - rect.left) * scale), Math.round((y - rect.top) * scale), Math.round(width * scale), Math.round(height * scale))
      let [left, top, right, bottom] = [Infinity, Infinity, -1, -1]
      for (let row = 0; row < image.height; row++) {
        for (let col = 0; col < image.width; col++) {
          const at = (row * image.width + col) * 4
          const dark = image.data[at + 3] > 128 && image.data[at] < 120 && image.data[at + 1] < 120 && image.data[at + 2] < 120
          if (!dark) continue
          left = Math.min(left, col)
          right = Math.max(right, col)
          top = Math.min(top, row)
          bottom = Math.max(bottom, row)
        }
      }
      return right < 0 ? { width: 0, height: 0 } : { width: (right - left + 1) / scale, height: (bottom - top + 1) / scale }
    },
    { x, y, width, height },
  )
}

async function importedWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('Summary', { properties: { tabColor: { argb: 'FF7030A0' } }, views: [{ showGridLines: false }] })
  const rows: [string, number][] = [
    ['Revenue', 1200],
    ['Costs', 700],
    ['Margin', 500],
  ]
  sheet.getCell('A1').value = 'Summary FY2024'
  sheet.getCell('A1').font = { bold: true }
  rows.forEach(([label, value], i) => {
    sheet.getCell(i + 2, 1).value = label
    sheet.getCell(i + 2, 2).value = value
    for (const col of [1, 2]) sheet.getCell(i + 2, col).border = { top: { style: 'thin' }, bottom: { style: i === 2 ? 'double' : 'thin' }, left: { style: 'thin' }, right: { style: 'thin' } }
  })
  sheet.getCell('B2').note = 'From the audited accounts'
  sheet.getCell('A6').value = { text: 'Assumptions', hyperlink: '#Inputs!A1' }
  // a column heading turned upright in a tall row, as models label narrow columns
  sheet.getRow(8).height = 60
  sheet.getCell('D8').value = 'Q1 2027'
  sheet.getCell('D8').alignment = { textRotation: 90 }
  workbook.addWorksheet('Inputs').getCell('A1').value = 0.21
  const zip = await JSZip.loadAsync(Buffer.from((await workbook.xlsx.writeBuffer()) as ArrayBuffer))
  // exceljs writes no charts: one is hung off the sheet as Excel does, for the report to name
  const rels = (await zip.file('xl/worksheets/_rels/sheet1.xml.rels')?.async('string')) ?? '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>'
  zip.file('xl/worksheets/_rels/sheet1.xml.rels', rels.replace('</Relationships>', '<Relationship Id="rIdChart" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" Target="../drawings/drawing1.xml"/></Relationships>'))
  zip.file('xl/drawings/drawing1.xml', '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"/>')
  zip.file(
    'xl/drawings/_rels/drawing1.xml.rels',
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="../charts/chart1.xml"/></Relationships>',
  )
  return zip.generateAsync({ type: 'nodebuffer' })
}

describe('notes, links, tab colours and gridlines', { timeout: E2E_TIMEOUT }, () => {
  it('adds a note read on hover, a link followed by Ctrl+click, a tab colour and gridlines off, kept through a reload', async () => {
    await page.getByRole('button', { name: /Start Blank/ }).click()
    await page.getByLabel('Formula bar').waitFor()
    await select('B2')
    await typeEntry(page, 'Revenue')
    await typeEntry(page, 'Inputs')

    // Shift+F2 inserts a note on the active cell; hovering the cell shows it with its author
    await select('B2')
    await page.keyboard.press('Shift+F2')
    const noteDialog = page.getByRole('dialog', { name: 'Insert note – B2' })
    await noteDialog.getByLabel('Note').fill('Check against the audited accounts')
    await noteDialog.getByRole('button', { name: 'Save' }).click()
    await noteDialog.waitFor({ state: 'hidden' })
    await expect.poll(() => noteOn('B2'), POLL).toBe(`${user.name}:\nCheck against the audited accounts`)
    expect(await noteOn('C4')).toBe('')
    await select('B2')
    expect(await menuItems('Insert')).toEqual(expect.arrayContaining(['Edit note', 'Delete note']))

    // Ctrl+K links B3 to a place in the workbook; Ctrl+click follows it
    await select('B3')
    await page.keyboard.press('Control+k')
    const linkDialog = page.getByRole('dialog', { name: 'Link – B3' })
    await linkDialog.getByLabel('Address').fill('Sheet1!H20')
    await linkDialog.getByRole('button', { name: 'OK' }).click()
    await linkDialog.waitFor({ state: 'hidden' })
    await clickCell(page, 'B3', ['Control'])
    await expect.poll(() => statusAddress(page), POLL).toBe('H20')

    // the tab takes a colour from Sheet options; View → Gridlines turns the sheet's gridlines off
    await page.getByRole('button', { name: 'Sheet options' }).click()
    await page.getByRole('menuitem', { name: 'Tab color: Green' }).click()
    const tab = page.getByRole('tab', { name: 'Sheet1' })
    expect(await tab.getAttribute('data-tab-color')).toBe('#00B050')
    await menu('View', 'Hide gridlines')
    expect(await menuItems('View')).toContain('Show gridlines')
    await page.screenshot({ path: join(OUTPUT, 'sheet-extras.png') })

    await waitUntilSaved()
    await page.reload()
    await page.getByLabel('Formula bar').waitFor()
    await expect.poll(() => noteOn('B2'), POLL).toBe(`${user.name}:\nCheck against the audited accounts`)
    expect(await page.getByRole('tab', { name: 'Sheet1' }).getAttribute('data-tab-color')).toBe('#00B050')
    expect(await menuItems('View')).toContain('Show gridlines')
    await clickCell(page, 'B3', ['Control'])
    await expect.poll(() => statusAddress(page), POLL).toBe('H20')

    // Delete note takes it away, and one undo brings it back
    await select('B2')
    await menu('Insert', 'Delete note')
    expect(await noteOn('B2')).toBe('')
    await page.keyboard.press('Control+z')
    await expect.poll(() => noteOn('B2'), POLL).toContain('Check against the audited accounts')
  })

  it('shows an imported workbook with its notes, tab colour, borders and gridlines off, and lists what it did not keep', async () => {
    await page.getByRole('button', { name: 'Import Document' }).click()
    const dialog = page.getByRole('dialog', { name: 'Import Document' })
    await dialog.getByTestId('import-file-input').setInputFiles({ name: 'Extras.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await importedWorkbook() })
    await dialog.getByRole('button', { name: 'Process Document' }).click()
    await dialog.waitFor({ state: 'hidden', timeout: 60_000 })
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Summary')
    await expect.poll(() => page.getByText('Not kept: charts: 1, on sheet Summary.').count(), POLL).toBeGreaterThan(0)
    expect(await page.getByRole('tab', { name: 'Summary' }).getAttribute('data-tab-color')).toBe('#7030A0')
    expect(await menuItems('View')).toContain('Show gridlines')
    await page.keyboard.press('Escape')
    await expect.poll(() => noteOn('B2'), POLL).toBe('Author:\nFrom the audited accounts')
    await page.screenshot({ path: join(OUTPUT, 'imported-features.png') })
    // the turned heading is drawn upright: its ink is far taller than it is wide
    const grid = await page.locator('.grid-scroller').boundingBox()
    if (!grid) throw new Error('the grid is not on the page')
    const ink = await inkBox(grid.x + ROW_HEADER_WIDTH + 3 * COLUMN_WIDTH, grid.y + COLUMN_HEADER_HEIGHT + 7 * ROW_HEIGHT, COLUMN_WIDTH, 90)
    expect(ink.height).toBeGreaterThan(30)
    expect(ink.height).toBeGreaterThan(ink.width * 2)
    await clickCell(page, 'A6', ['Control'])
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('Inputs')
  })
})
