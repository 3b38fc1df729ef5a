import type { CellPosition } from './address'
import type { SheetGeometry, VisibleCells } from './geometry'

/** The colour of a link's text, as spreadsheets draw links. */
export const LINK_COLOR = '#1155cc'
/** Excel's note indicator: a red triangle in the cell's top-right corner. */
export const NOTE_MARKER_COLOR = '#d93025'
export const NOTE_MARKER_SIZE = 6

/** Draws the note indicator of each visible cell with a note (hidden rows and columns have none). */
export function drawNoteMarkers(
  ctx: CanvasRenderingContext2D,
  notes: readonly CellPosition[],
  visible: VisibleCells,
  geometry: SheetGeometry,
  cellX: (col: number) => number,
  cellY: (row: number) => number,
): void {
  ctx.fillStyle = NOTE_MARKER_COLOR
  for (const { col, row } of notes) {
    if (col < visible.firstCol || col > visible.lastCol || row < visible.firstRow || row > visible.lastRow) continue
    const width = geometry.cols.width(col)
    const height = geometry.rows.width(row)
    if (width === 0 || height === 0) continue
    const right = cellX(col) + width - 1
    const top = cellY(row)
    const size = Math.min(NOTE_MARKER_SIZE, width / 2, height / 2)
    ctx.beginPath()
    ctx.moveTo(right - size, top)
    ctx.lineTo(right, top)
    ctx.lineTo(right, top + size)
    ctx.closePath()
    ctx.fill()
  }
}
