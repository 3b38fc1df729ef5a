/**
 * Where each cell of a printed page sits, in the grid's CSS pixels from the page's printable corner
 * (before the page's scale): what the PDF and the print view both draw. A merged area is one box over
 * the part of it the page shows, holding its top-left cell; the cells it covers are not drawn.
 */
import { columnLabel } from '../grid/address'
import { COLUMN_HEADER_HEIGHT, ROW_HEADER_WIDTH } from '../grid/geometry'
import type { GridCell, GridDataSource } from '../grid/types'
import { columnWidthOf, rowHeightOf, type PrintPage } from './print-layout'

export interface PlacedCell {
  col: number
  row: number
  x: number
  y: number
  width: number
  height: number
  cell: GridCell | undefined
}

export interface PlacedHeading {
  text: string
  x: number
  y: number
  width: number
  height: number
}

export interface PlacedPage {
  cells: PlacedCell[]
  headings: PlacedHeading[]
  /** The printed block's size, headings included. */
  width: number
  height: number
}

export function placePage(page: PrintPage, source: GridDataSource): PlacedPage {
  const left = page.headings ? ROW_HEADER_WIDTH : 0
  const top = page.headings ? COLUMN_HEADER_HEIGHT : 0
  const xs = new Map<number, number>()
  let x = left
  for (const col of page.columns) {
    xs.set(col, x)
    x += columnWidthOf(source, col)
  }
  const rows = [...page.titleRows, ...page.rows]
  const ys: { row: number; y: number }[] = []
  let y = top
  for (const row of rows) {
    ys.push({ row, y })
    y += rowHeightOf(source, row)
  }
  const width = x
  const height = y
  const headings: PlacedHeading[] = []
  if (page.headings) {
    for (const col of page.columns) headings.push({ text: columnLabel(col), x: xs.get(col)!, y: 0, width: columnWidthOf(source, col), height: top })
    for (const { row, y: rowY } of ys) headings.push({ text: String(row + 1), x: 0, y: rowY, width: left, height: rowHeightOf(source, row) })
  }
  const shown = new Set(page.columns)
  const cells: PlacedCell[] = []
  for (let index = 0; index < ys.length; index++) {
    const { row, y: rowY } = ys[index]
    for (const col of page.columns) {
      const merge = source.merges?.at({ col, row })
      if (merge) {
        // Drawn once, at the first of its cells this page shows in this block of rows.
        const firstCol = page.columns.find((c) => c >= merge.startCol && c <= merge.endCol)
        const firstRow = ys.find((entry) => entry.row >= merge.startRow && entry.row <= merge.endRow)
        if (firstCol !== col || firstRow?.row !== row) continue
        let mergedWidth = 0
        for (let c = merge.startCol; c <= merge.endCol; c++) if (shown.has(c)) mergedWidth += columnWidthOf(source, c)
        let mergedHeight = 0
        for (let i = index; i < ys.length && ys[i].row <= merge.endRow; i++) mergedHeight += rowHeightOf(source, ys[i].row)
        cells.push({ col, row, x: xs.get(col)!, y: rowY, width: mergedWidth, height: mergedHeight, cell: source.getCell(merge.startCol, merge.startRow) })
        continue
      }
      cells.push({ col, row, x: xs.get(col)!, y: rowY, width: columnWidthOf(source, col), height: rowHeightOf(source, row), cell: source.getCell(col, row) })
    }
  }
  return { cells, headings, width, height }
}
