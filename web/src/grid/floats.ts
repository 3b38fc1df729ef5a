import type { SheetGeometry } from './geometry'

/**
 * Things drawn above the cells (charts): each is held by two corners, a cell and an offset into it,
 * as Excel's two-cell anchor. A float moves with the cells it sits on; one whose top-left corner is
 * in the scrolling part slides under frozen rows and columns, and one anchored in a frozen row or
 * column stays put along that axis.
 */
export interface FloatCorner {
  row: number
  col: number
  /** pixels into the cell at 100% zoom */
  dx: number
  dy: number
}

export interface FloatAnchor {
  from: FloatCorner
  to: FloatCorner
}

export interface Point {
  x: number
  y: number
}

/** Where a float sits on screen, relative to the cell area, and how much of it frozen panes cover. */
export interface FloatRect {
  x: number
  y: number
  width: number
  height: number
  /** how far in from its top and left edges frozen rows and columns hide it */
  hiddenTop: number
  hiddenLeft: number
}

/** The sheet point (from the top-left of A1, before scrolling) of a corner; an offset stays inside its cell. */
export function cornerPoint(geo: SheetGeometry, corner: FloatCorner): Point {
  return {
    x: geo.cols.offset(corner.col) + Math.min(corner.dx, geo.cols.width(corner.col)),
    y: geo.rows.offset(corner.row) + Math.min(corner.dy, geo.rows.width(corner.row)),
  }
}

/** The corner at a sheet point: the cell under it and the offset into that cell. */
export function cornerAt(geo: SheetGeometry, point: Point): FloatCorner {
  const x = Math.max(0, point.x)
  const y = Math.max(0, point.y)
  const col = geo.cols.columnAt(x)
  const row = geo.rows.columnAt(y)
  return { row, col, dx: round(Math.max(0, x - geo.cols.offset(col))), dy: round(Math.max(0, y - geo.rows.offset(row))) }
}

/** A float's place on screen at a scroll position. */
export function floatRect(geo: SheetGeometry, anchor: FloatAnchor, scrollLeft: number, scrollTop: number): FloatRect {
  const from = cornerPoint(geo, anchor.from)
  const to = cornerPoint(geo, anchor.to)
  const scrollsAcross = anchor.from.col >= geo.frozenColumns
  const scrollsDown = anchor.from.row >= geo.frozenRows
  const x = from.x - (scrollsAcross ? scrollLeft : 0)
  const y = from.y - (scrollsDown ? scrollTop : 0)
  return {
    x,
    y,
    width: Math.max(0, to.x - from.x),
    height: Math.max(0, to.y - from.y),
    hiddenLeft: scrollsAcross && geo.frozenColumns > 0 ? Math.max(0, geo.frozenWidth - x) : 0,
    hiddenTop: scrollsDown && geo.frozenRows > 0 ? Math.max(0, geo.frozenHeight - y) : 0,
  }
}

/** Which corner handle a resize drags; 'move' drags the whole float. */
export type FloatDrag = 'move' | 'nw' | 'ne' | 'sw' | 'se'

/** The smallest a float may be made by dragging, in pixels at 100% zoom. */
export const MIN_FLOAT_SIZE = 40

/**
 * The anchor after dragging by (dx, dy) sheet pixels: the whole float (its size kept), or one corner
 * handle (the opposite corner kept, never smaller than MIN_FLOAT_SIZE).
 */
export function draggedAnchor(geo: SheetGeometry, anchor: FloatAnchor, drag: FloatDrag, dx: number, dy: number): FloatAnchor {
  const from = cornerPoint(geo, anchor.from)
  const to = cornerPoint(geo, anchor.to)
  if (drag === 'move') {
    const left = Math.max(0, from.x + dx)
    const top = Math.max(0, from.y + dy)
    return { from: cornerAt(geo, { x: left, y: top }), to: cornerAt(geo, { x: left + (to.x - from.x), y: top + (to.y - from.y) }) }
  }
  let { x: left, y: top } = from
  let { x: right, y: bottom } = to
  if (drag === 'nw' || drag === 'sw') left = Math.max(0, Math.min(from.x + dx, right - MIN_FLOAT_SIZE))
  else right = Math.max(left + MIN_FLOAT_SIZE, to.x + dx)
  if (drag === 'nw' || drag === 'ne') top = Math.max(0, Math.min(from.y + dy, bottom - MIN_FLOAT_SIZE))
  else bottom = Math.max(top + MIN_FLOAT_SIZE, to.y + dy)
  return { from: cornerAt(geo, { x: left, y: top }), to: cornerAt(geo, { x: right, y: bottom }) }
}

/** A float of `width` by `height` whose top-left corner is at a sheet point. */
export function anchorAt(geo: SheetGeometry, point: Point, width: number, height: number): FloatAnchor {
  return { from: cornerAt(geo, point), to: cornerAt(geo, { x: point.x + width, y: point.y + height }) }
}

function round(value: number): number {
  return Math.round(value * 100) / 100
}
