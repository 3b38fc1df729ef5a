/**
 * How sheets fall onto printed pages, as Excel lays them out: the print area (the used range when none
 * is set) cut into bands of columns that fit the page's width and bands of rows that fit its height,
 * pages ordered down, then over; hidden rows and columns are left out; the title rows repeat at the top
 * of every page that does not already start with them; fit to width shrinks the columns to one page wide.
 * Sizes are in the grid's CSS pixels until they reach the page, where 1 px is 0.75 pt.
 */
import { PAPER_POINTS, type PageSetup } from '@finsheet/contracts'
import type { CellRange } from '../grid/address'
import { parseRangeAddress } from '../grid/address'
import { COLUMN_HEADER_HEIGHT, DEFAULT_COLUMN_WIDTH, ROW_HEADER_WIDTH, ROW_HEIGHT } from '../grid/geometry'
import type { GridDataSource } from '../grid/types'

/** Points per CSS pixel. */
export const POINTS_PER_PIXEL = 0.75
/** Excel's Normal margins: 0.7 inch left and right, 0.75 inch top and bottom. */
export const MARGINS = { left: 50.4, right: 50.4, top: 54, bottom: 54 } as const

export interface PrintedSheet {
  name: string
  source: GridDataSource
  setup: PageSetup
  /** The cells in use (values, styles, merges); null for an empty sheet. */
  used: CellRange | null
}

export interface PrintPage {
  sheet: string
  /** Rows repeated at the top of this page, then the page's own rows. */
  titleRows: number[]
  rows: number[]
  columns: number[]
  /** CSS pixels to page pixels: 1 at 100%. */
  scale: number
  /** The sheet of paper in points, turned for the orientation. */
  width: number
  height: number
  gridlines: boolean
  headings: boolean
}

export const columnWidthOf = (source: GridDataSource, col: number) => source.columnWidths.get(col) ?? DEFAULT_COLUMN_WIDTH
export const rowHeightOf = (source: GridDataSource, row: number) => source.rowHeights?.get(row) ?? ROW_HEIGHT

/** The paper in points, turned for the orientation. */
export function paperOf(setup: PageSetup): { width: number; height: number } {
  const paper = PAPER_POINTS[setup.paperSize ?? 'letter']
  return setup.orientation === 'landscape' ? { width: paper.height, height: paper.width } : { ...paper }
}

/** What prints of a sheet: its print area, else its used range; null when nothing does. */
export function printedRange(sheet: PrintedSheet): CellRange | null {
  if (sheet.setup.printArea) return parseRangeAddress(sheet.setup.printArea)
  return sheet.used
}

/** Splits items of the given sizes into runs whose total fits `room` (each run holds at least one). */
function bands(items: number[], size: (item: number) => number, room: number): number[][] {
  const out: number[][] = []
  let current: number[] = []
  let used = 0
  for (const item of items) {
    const length = size(item)
    if (current.length > 0 && used + length > room + 0.01) {
      out.push(current)
      current = []
      used = 0
    }
    current.push(item)
    used += length
  }
  if (current.length > 0) out.push(current)
  return out
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i)

/** The pages of one sheet, down then over. */
export function layoutSheet(sheet: PrintedSheet): PrintPage[] {
  const area = printedRange(sheet)
  if (!area) return []
  const { setup, source } = sheet
  const paper = paperOf(setup)
  const headings = setup.headings ?? false
  const gridlines = setup.gridlines ?? false
  const roomWidth = (paper.width - MARGINS.left - MARGINS.right) / POINTS_PER_PIXEL
  const roomHeight = (paper.height - MARGINS.top - MARGINS.bottom) / POINTS_PER_PIXEL
  const columns = range(area.startCol, area.endCol).filter((col) => columnWidthOf(source, col) > 0)
  const rows = range(area.startRow, area.endRow).filter((row) => rowHeightOf(source, row) > 0)
  if (columns.length === 0 || rows.length === 0) return []
  const headerWidth = headings ? ROW_HEADER_WIDTH : 0
  const headerHeight = headings ? COLUMN_HEADER_HEIGHT : 0
  const totalWidth = columns.reduce((sum, col) => sum + columnWidthOf(source, col), 0)
  const scale = setup.fitToWidth ? Math.min(1, roomWidth / (totalWidth + headerWidth)) : (setup.scale ?? 100) / 100

  const titles = setup.titleRows ? range(setup.titleRows.first, setup.titleRows.last).filter((row) => rowHeightOf(source, row) > 0) : []
  const titleHeight = titles.reduce((sum, row) => sum + rowHeightOf(source, row), 0)
  const titlesEnd = setup.titleRows?.last ?? -1

  // Rows are cut into pages one at a time: a page that does not start at or above the titles repeats them.
  const rowBands: { titles: number[]; rows: number[] }[] = []
  let index = 0
  while (index < rows.length) {
    const repeat = titles.length > 0 && rows[index] > titlesEnd ? titles : []
    const room = roomHeight / scale - headerHeight - (repeat.length > 0 ? titleHeight : 0)
    const band: number[] = []
    let used = 0
    while (index < rows.length) {
      const height = rowHeightOf(source, rows[index])
      if (band.length > 0 && used + height > room + 0.01) break
      band.push(rows[index])
      used += height
      index++
    }
    rowBands.push({ titles: repeat, rows: band })
  }
  const columnBands = bands(columns, (col) => columnWidthOf(source, col), roomWidth / scale - headerWidth)

  const pages: PrintPage[] = []
  for (const bandColumns of columnBands) {
    for (const band of rowBands) {
      pages.push({ sheet: sheet.name, titleRows: band.titles, rows: band.rows, columns: bandColumns, scale, width: paper.width, height: paper.height, gridlines, headings })
    }
  }
  return pages
}

/** Every page of the sheets, in their order. */
export function layoutPages(sheets: readonly PrintedSheet[]): PrintPage[] {
  return sheets.flatMap(layoutSheet)
}
