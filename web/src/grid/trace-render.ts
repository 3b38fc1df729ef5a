import type { CellPosition, CellRange } from './address'
import type { SheetGeometry } from './geometry'
import { COLUMN_HEADER_HEIGHT, ROW_HEADER_WIDTH } from './geometry'

/** An arrow of Trace Precedents or Trace Dependents, from the cells read to the formula reading them. */
export interface TraceArrow {
  /** the cell or range read; null when it is on another sheet (`otherSheet`) */
  from: CellRange | null
  /** the formula cell reading it; null when it is on another sheet (`otherSheet`) */
  to: CellPosition | null
  otherSheet?: string
  /** the cells read hold an error, which the formula takes on: Excel draws these arrows red */
  error: boolean
}

export const TRACE_COLORS = { arrow: '#1f4fd6', error: '#d93025', otherSheet: '#1f2328' }

/** Where the sheet icon of an arrow to or from another sheet sits, from the cell it belongs to. */
const OTHER_SHEET_OFFSET = { x: 44, y: -26 }
const HEAD_LENGTH = 9
const DOT_RADIUS = 3

type Point = { x: number; y: number }

/** Draws the arrows over the cells (not the headers), in the frame's coordinates. */
export function drawTraceArrows(
  ctx: CanvasRenderingContext2D,
  arrows: readonly TraceArrow[],
  geometry: SheetGeometry,
  cellX: (col: number) => number,
  cellY: (row: number) => number,
  size: { width: number; height: number },
): void {
  if (arrows.length === 0) return
  const centre = (pos: CellPosition): Point => ({ x: cellX(pos.col) + geometry.cols.width(pos.col) / 2, y: cellY(pos.row) + geometry.rows.width(pos.row) / 2 })
  ctx.save()
  ctx.beginPath()
  ctx.rect(ROW_HEADER_WIDTH, COLUMN_HEADER_HEIGHT, size.width - ROW_HEADER_WIDTH, size.height - COLUMN_HEADER_HEIGHT)
  ctx.clip()
  ctx.lineWidth = 1.5
  for (const arrow of arrows) {
    const color = arrow.error ? TRACE_COLORS.error : arrow.from && arrow.to ? TRACE_COLORS.arrow : TRACE_COLORS.otherSheet
    ctx.strokeStyle = color
    ctx.fillStyle = color
    let start: Point
    if (arrow.from) {
      start = centre({ col: arrow.from.startCol, row: arrow.from.startRow })
      const multiCell = arrow.from.endCol > arrow.from.startCol || arrow.from.endRow > arrow.from.startRow
      if (multiCell) {
        const x = cellX(arrow.from.startCol)
        const y = cellY(arrow.from.startRow)
        const w = cellX(arrow.from.endCol) + geometry.cols.width(arrow.from.endCol) - x
        const h = cellY(arrow.from.endRow) + geometry.rows.width(arrow.from.endRow) - y
        ctx.setLineDash([])
        ctx.strokeRect(x + 1, y + 1, w - 2, h - 2)
      }
    } else {
      const target = centre(arrow.to!)
      start = { x: target.x - OTHER_SHEET_OFFSET.x, y: target.y + OTHER_SHEET_OFFSET.y }
      drawSheetIcon(ctx, start)
    }
    const end = arrow.to ? centre(arrow.to) : { x: start.x + OTHER_SHEET_OFFSET.x, y: start.y + OTHER_SHEET_OFFSET.y }
    if (!arrow.to) drawSheetIcon(ctx, end)
    ctx.setLineDash(arrow.from && arrow.to ? [] : [4, 3])
    const bend = bendOf(start, end, geometry, arrow)
    ctx.beginPath()
    ctx.moveTo(start.x, start.y)
    if (bend) ctx.quadraticCurveTo(bend.x, bend.y, end.x, end.y)
    else ctx.lineTo(end.x, end.y)
    ctx.stroke()
    ctx.setLineDash([])
    if (arrow.from) {
      ctx.beginPath()
      ctx.arc(start.x, start.y, DOT_RADIUS, 0, Math.PI * 2)
      ctx.fill()
    }
    drawHead(ctx, bend ?? start, end)
  }
  ctx.restore()
}

/**
 * An arrow along a column or row over cells between its ends would run through their arrows and
 * values: it bends aside, further the longer it is, so that arrows of one column stay apart.
 */
function bendOf(start: Point, end: Point, geometry: SheetGeometry, arrow: TraceArrow): Point | null {
  if (!arrow.from || !arrow.to) return null
  const rows = Math.abs(arrow.to.row - arrow.from.startRow)
  const cols = Math.abs(arrow.to.col - arrow.from.startCol)
  const mid = { x: (start.x + end.x) / 2, y: (start.y + end.y) / 2 }
  if (cols === 0 && rows > 1) return { x: mid.x - Math.min(geometry.cols.width(arrow.to.col) / 2, 12 * rows), y: mid.y }
  if (rows === 0 && cols > 1) return { x: mid.x, y: mid.y - Math.min(geometry.rows.width(arrow.to.row), 8 * cols) }
  return null
}

function drawHead(ctx: CanvasRenderingContext2D, from: Point, to: Point): void {
  const angle = Math.atan2(to.y - from.y, to.x - from.x)
  ctx.beginPath()
  ctx.moveTo(to.x, to.y)
  ctx.lineTo(to.x - HEAD_LENGTH * Math.cos(angle - Math.PI / 7), to.y - HEAD_LENGTH * Math.sin(angle - Math.PI / 7))
  ctx.lineTo(to.x - HEAD_LENGTH * Math.cos(angle + Math.PI / 7), to.y - HEAD_LENGTH * Math.sin(angle + Math.PI / 7))
  ctx.closePath()
  ctx.fill()
}

/** A small worksheet, as Excel marks an arrow to or from another sheet. */
function drawSheetIcon(ctx: CanvasRenderingContext2D, at: Point): void {
  const x = at.x - 8
  const y = at.y - 6
  ctx.save()
  ctx.setLineDash([])
  ctx.fillStyle = '#ffffff'
  ctx.fillRect(x, y, 16, 12)
  ctx.lineWidth = 1
  ctx.strokeRect(x + 0.5, y + 0.5, 15, 11)
  ctx.beginPath()
  for (const dy of [4, 8]) {
    ctx.moveTo(x, y + dy + 0.5)
    ctx.lineTo(x + 16, y + dy + 0.5)
  }
  ctx.moveTo(x + 6.5, y)
  ctx.lineTo(x + 6.5, y + 12)
  ctx.stroke()
  ctx.restore()
}
