import { describe, expect, it } from 'vitest'
import { PDFDocument } from 'pdf-lib'
import type { PageSetup } from '@finsheet/contracts'
import { WorkbookStore } from '../workbook/workbook-store'
import { writePdf, parseColour } from './pdf-export'
import { placePage } from './page-cells'
import { printJob } from './print-job'

/** A sheet of `rows` rows: a label in A and a number in B to F. */
function tallSheet(name: string, rows: number) {
  const cells: Record<string, { input: string; style?: { bold?: boolean } }> = {}
  for (let row = 1; row <= rows; row++) {
    cells[`A${row}`] = { input: `${name} line ${row}` }
    for (const col of ['B', 'C', 'D', 'E', 'F']) cells[`${col}${row}`] = { input: String(row * 10) }
  }
  cells.A1 = { input: 'Heading', style: { bold: true } }
  return { name, cells }
}

function storeWith(setups: Record<string, PageSetup>) {
  const store = new WorkbookStore({ id: 'wb', sheets: [tallSheet('Inputs', 10), tallSheet('Model', 60), tallSheet('Wide', 5)] })
  for (const [sheet, pageSetup] of Object.entries(setups)) store.dispatch({ type: 'set-sheet-view', sheet, pageSetup })
  return store
}

describe('print layout', () => {
  it('puts a short sheet on one page and cuts a long one into pages of whole rows, down then over', () => {
    const store = storeWith({})
    expect(printJob(store, 'Inputs', { kind: 'active' }).pages).toHaveLength(1)
    // letter portrait: 792 - 108 points of room = 912 px, 24 px rows: 38 rows a page
    const model = printJob(store, 'Model', { kind: 'active' }).pages
    expect(model.map((page) => page.rows.length)).toEqual([38, 22])
    expect(model[1].rows[0]).toBe(38)
  })

  it('splits columns that do not fit across pages, and fit to width keeps them on one page wide', () => {
    const store = storeWith({})
    store.dispatch({ type: 'resize-column', sheet: 'Wide', column: 1, width: 700 })
    const across = printJob(store, 'Wide', { kind: 'active' }).pages
    expect(across.map((page) => page.columns)).toEqual([[0], [1], [2, 3, 4, 5]])
    store.dispatch({ type: 'set-sheet-view', sheet: 'Wide', pageSetup: { fitToWidth: true } })
    const fitted = printJob(store, 'Wide', { kind: 'active' }).pages
    expect(fitted).toHaveLength(1)
    expect(fitted[0].columns).toEqual([0, 1, 2, 3, 4, 5])
    expect(fitted[0].scale).toBeLessThan(1)
  })

  it('prints only the print area and repeats the title rows on the pages after the first', () => {
    const store = storeWith({ Model: { printArea: 'A1:C60', titleRows: { first: 0, last: 1 } } })
    const pages = printJob(store, 'Model', { kind: 'active' }).pages
    expect(pages).toHaveLength(2)
    expect(pages[0].columns).toEqual([0, 1, 2])
    expect(pages[0].titleRows).toEqual([])
    expect(pages[1].titleRows).toEqual([0, 1])
    expect(pages[1].rows.at(-1)).toBe(59)
  })

  it('leaves hidden rows out and landscape turns the paper', () => {
    const store = storeWith({ Inputs: { orientation: 'landscape', paperSize: 'a4' } })
    store.dispatch({ type: 'set-sheet-view', sheet: 'Inputs', rows: [{ from: 2, to: 4, hidden: true }] })
    const [page] = printJob(store, 'Inputs', { kind: 'active' }).pages
    expect(page.rows).toEqual([0, 1, 5, 6, 7, 8, 9])
    expect(page.width).toBeGreaterThan(page.height)
  })

  it('draws a merged area once, over the columns it spans, with its top-left cell', () => {
    const store = storeWith({})
    store.dispatch({ type: 'merge-cells', sheet: 'Inputs', range: 'A1:C1' })
    const job = printJob(store, 'Inputs', { kind: 'active' })
    const placed = placePage(job.pages[0], job.sources.get('Inputs')!)
    const firstRow = placed.cells.filter((cell) => cell.row === 0)
    expect(firstRow[0]).toMatchObject({ col: 0, width: 300 })
    expect(firstRow[0].cell?.text).toBe('Heading')
    expect(firstRow.map((cell) => cell.col)).toEqual([0, 3, 4, 5])
  })

  it('takes this sheet, all sheets or the chosen ones; an empty sheet prints no page', () => {
    const store = storeWith({})
    store.dispatch({ type: 'add-sheet', name: 'Empty' })
    expect(printJob(store, 'Inputs', { kind: 'all' }).pages.map((page) => page.sheet)).toEqual(['Inputs', 'Model', 'Model', 'Wide'])
    expect(printJob(store, 'Inputs', { kind: 'chosen', sheets: ['Wide', 'Inputs'] }).pages.map((page) => page.sheet)).toEqual(['Inputs', 'Wide'])
    expect(printJob(store, 'Empty', { kind: 'active' }).pages).toEqual([])
  })
})

describe('Export PDF', () => {
  it('writes one PDF page per printed page, turned as the setup says', async () => {
    const store = storeWith({ Wide: { orientation: 'landscape' } })
    const job = printJob(store, 'Inputs', { kind: 'all' })
    const bytes = await writePdf(job.pages, job.sources, 'Test workbook')
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-')
    const doc = await PDFDocument.load(bytes)
    expect(doc.getPageCount()).toBe(4)
    expect(doc.getTitle()).toBe('Test workbook')
    const sizes = doc.getPages().map((page) => page.getSize())
    expect(sizes[0]).toEqual({ width: 612, height: 792 })
    expect(sizes[3]).toEqual({ width: 792, height: 612 })
  })

  it('reads CSS colours for fills, text and borders', () => {
    expect(parseColour('#ff0000')).toEqual([1, 0, 0])
    expect(parseColour('#0f0')).toEqual([0, 1, 0])
    expect(parseColour('rgb(0, 0, 255)')).toEqual([0, 0, 1])
    expect(parseColour('not a colour')).toBeUndefined()
  })
})
