import type { CellPosition, CellRange } from './address'
import { columnLabel } from './address'
import type { ColumnLayout, Pane, SheetGeometry, Viewport, VisibleCells } from './geometry'
import { COLUMN_HEADER_HEIGHT, ROW_HEADER_WIDTH, visiblePanes } from './geometry'
import { drawTraceArrows, type TraceArrow } from './trace-render'
import { drawBorderEdge, firstLineY, INDENT_STEP, rotatedTextPlacement, STACKED_TEXT, wrapLines, type Edge } from './cell-looks'
import { drawDataBar, drawIcon, ICON_SIZE } from './conditional-looks'
import type { CellStyle, DrawStats, GridCell, GridDataSource, HorizontalAlign, RangeHighlight } from './types'
import { DEFAULT_FONT_FAMILY, DEFAULT_FONT_SIZE, FILTER_BUTTON_SIZE, OUTLINE_BUTTON_SIZE } from './types'
import { drawNoteMarkers, LINK_COLOR } from './annotations'

export const GRID_COLORS = {
  background: '#ffffff',
  gridLine: '#e2e5e9',
  /** the line below frozen rows and right of frozen columns */
  freezeLine: '#9aa3ad',
  headerBackground: '#f5f6f8',
  headerActiveBackground: '#dfeee7',
  headerSelectedBackground: '#1e7d5a',
  headerText: '#5b6470',
  headerActiveText: '#14583f',
  headerLine: '#d3d7dd',
  text: '#1f2328',
  errorText: '#c62828',
  selectionFill: 'rgba(30, 125, 90, 0.10)',
  selectionBorder: '#1e7d5a',
  copyBorder: '#1e7d5a',
  fillPreview: '#5c6670',
  /** cells the assistant proposes to change, and those it just changed */
  assistantPreview: '#7e57c2',
  assistantApplied: '#e37400',
} as const

/** Colours Excel gives the references of a formula being edited, in order. */
export const REFERENCE_COLORS = ['#1a73e8', '#d93025', '#7e57c2', '#188038', '#e37400', '#c2185b', '#00838f', '#5d4037']

export interface GridScene {
  source: GridDataSource
  /** where rows and columns are, with the frozen panes */
  geometry: SheetGeometry
  viewport: Viewport
  /** the CSS-pixel size of the whole canvas, headers included */
  canvasWidth: number
  canvasHeight: number
  selection: CellRange
  active: CellPosition
  /** hides the active cell's text while the editor covers it */
  editing: boolean
  highlights: readonly RangeHighlight[]
  copyRange: CellRange | null
  fillPreview: CellRange | null
  /** Trace Precedents and Trace Dependents arrows of this sheet */
  traceArrows?: readonly TraceArrow[]
  /** a column being resized, drawn at its new width */
  dashOffset: number
}

const fontCache = new Map<string, string>()

/** The canvas font a cell is drawn in. */
export function fontFor(style: CellStyle | undefined): string {
  const bold = style?.bold ? 'bold ' : ''
  const italic = style?.italic ? 'italic ' : ''
  const size = style?.fontSize ?? DEFAULT_FONT_SIZE
  const family = style?.fontFamily ?? DEFAULT_FONT_FAMILY
  const key = `${italic}${bold}${size}|${family}`
  let font = fontCache.get(key)
  if (!font) {
    font = `${italic}${bold}${size}px ${/\s/.test(family) ? `"${family}"` : family}, Arial, sans-serif`
    fontCache.set(key, font)
  }
  return font
}

const DEFAULT_FONT = fontFor(undefined)
const CELL_PADDING = 4
const EDGES: readonly Edge[] = ['top', 'right', 'bottom', 'left']

/** Draws one frame of the grid: cells, selection, highlights and the sticky headers. */
export function drawGrid(ctx: CanvasRenderingContext2D, scene: GridScene): DrawStats {
  const started = performance.now()
  const { geometry, viewport } = scene
  const cellX = (col: number) => ROW_HEADER_WIDTH + geometry.x(col, viewport.scrollLeft)
  const cellY = (row: number) => COLUMN_HEADER_HEIGHT + geometry.y(row, viewport.scrollTop)

  ctx.fillStyle = GRID_COLORS.background
  ctx.fillRect(0, 0, scene.canvasWidth, scene.canvasHeight)

  const panes = visiblePanes(viewport, geometry)
  let cellsDrawn = 0
  for (const pane of panes) {
    ctx.save()
    ctx.beginPath()
    ctx.rect(ROW_HEADER_WIDTH + pane.x, COLUMN_HEADER_HEIGHT + pane.y, pane.width, pane.height)
    ctx.clip()
    cellsDrawn += drawPane(ctx, scene, pane, cellX, cellY)
    ctx.restore()
  }
  drawFreezeLines(ctx, scene)
  if (scene.traceArrows) drawTraceArrows(ctx, scene.traceArrows, geometry, cellX, cellY, { width: scene.canvasWidth, height: scene.canvasHeight })
  drawHeaders(ctx, scene, panes, cellX, cellY)
  const scrolling = panes[panes.length - 1]
  return { duration: performance.now() - started, cellsDrawn, firstRow: scrolling?.firstRow ?? 0, lastRow: scrolling?.lastRow ?? 0 }
}

/** The line below frozen rows and right of frozen columns, as Excel draws it. */
function drawFreezeLines(ctx: CanvasRenderingContext2D, scene: GridScene): void {
  const { geometry } = scene
  ctx.fillStyle = GRID_COLORS.freezeLine
  if (geometry.frozenRows > 0) ctx.fillRect(0, COLUMN_HEADER_HEIGHT + geometry.frozenHeight - 1, scene.canvasWidth, 1.5)
  if (geometry.frozenColumns > 0) ctx.fillRect(ROW_HEADER_WIDTH + geometry.frozenWidth - 1, 0, 1.5, scene.canvasHeight)
}

/** Draws the cells, selection and highlights of one pane (the clip is set by the caller); returns the cells drawn. */
function drawPane(
  ctx: CanvasRenderingContext2D,
  scene: GridScene,
  visible: VisibleCells,
  cellX: (col: number) => number,
  cellY: (row: number) => number,
): number {
  const { source, geometry } = scene
  const layout = geometry.cols
  const rowHeight = (row: number) => geometry.rows.width(row)

  // read every visible cell once; fills go under the grid lines, text over them
  const rows = visible.lastRow - visible.firstRow + 1
  const cols = visible.lastCol - visible.firstCol + 1
  const cells: (GridCell | undefined)[] = new Array(rows * cols)
  const merges = source.merges && source.merges.size > 0 ? source.merges : null
  const visibleMerges = merges
    ? merges.intersecting({ startCol: visible.firstCol, startRow: visible.firstRow, endCol: visible.lastCol, endRow: visible.lastRow })
    : []
  let cellsDrawn = 0
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const cell = source.getCell(visible.firstCol + c, visible.firstRow + r)
      cells[r * cols + c] = cell
      if (cell?.style?.fill && !(merges && merges.at({ col: visible.firstCol + c, row: visible.firstRow + r }))) {
        ctx.fillStyle = cell.style.fill
        const col = visible.firstCol + c
        ctx.fillRect(cellX(col), cellY(visible.firstRow + r), layout.width(col), rowHeight(visible.firstRow + r))
      }
      if (cell?.bar || cell?.icon) {
        const col = visible.firstCol + c
        const row = visible.firstRow + r
        if (cell.bar) drawDataBar(ctx, cell.bar, cellX(col), cellY(row), layout.width(col), rowHeight(row))
        if (cell.icon && layout.width(col) > ICON_SIZE) drawIcon(ctx, cell.icon, cellX(col), cellY(row), rowHeight(row))
      }
    }
  }

  drawSelectionFill(ctx, scene, visible, cellX, cellY)
  if (source.showGridLines !== false) drawGridLines(ctx, scene, visible, cellX, cellY)

  // a merged area is one cell: its top-left cell's fill and text over the whole rectangle
  for (const merge of visibleMerges) {
    const rect = rangeRect(merge, scene, cellX, cellY)
    const anchor = source.getCell(merge.startCol, merge.startRow)
    const inSelection = rangeInside(merge, scene.selection) && !isActiveMerge(merge, scene.active)
    ctx.fillStyle = anchor?.style?.fill ?? GRID_COLORS.background
    ctx.fillRect(rect.x, rect.y, rect.w - 1, rect.h - 1)
    if (inSelection) {
      ctx.fillStyle = GRID_COLORS.selectionFill
      ctx.fillRect(rect.x, rect.y, rect.w - 1, rect.h - 1)
    }
    if (!anchor || anchor.text === '' || (scene.editing && isActiveMerge(merge, scene.active))) continue
    ctx.font = anchor.style ? fontFor(anchor.style) : DEFAULT_FONT
    drawText(ctx, anchor, rect.x, rect.y, rect.w, rect.h, rect.w)
    cellsDrawn++
  }

  ctx.textBaseline = 'middle'
  let currentFont = ''
  for (let r = 0; r < rows; r++) {
    const row = visible.firstRow + r
    const height = rowHeight(row)
    if (height === 0) continue
    for (let c = 0; c < cols; c++) {
      const cell = cells[r * cols + c]
      if (!cell || cell.text === '' || cell.hideText) continue
      const col = visible.firstCol + c
      if (layout.width(col) === 0) continue
      if (scene.editing && col === scene.active.col && row === scene.active.row) continue
      if (merges && merges.at({ col, row })) continue
      const font = cell.style ? fontFor(cell.style) : DEFAULT_FONT
      if (font !== currentFont) {
        ctx.font = font
        currentFont = font
      }
      const width = layout.width(col)
      let room = width
      const align = cell.style?.align ?? cell.align
      if (align === 'left' && !cell.numeric && !cell.style?.wrap) {
        // text runs on over empty neighbours, as in Excel
        const needed = textWidthBound(cell)
        let next = col + 1
        while (room < needed && next <= visible.lastCol) {
          const neighbour = cells[r * cols + (next - visible.firstCol)]
          if ((neighbour && neighbour.text !== '') || (merges && merges.at({ col: next, row }))) break
          room += layout.width(next)
          next++
        }
      }
      drawText(ctx, cell, cellX(col), cellY(row), width, height, room)
      cellsDrawn++
    }
  }

  // borders over the grid lines and text, edge by edge
  for (let r = 0; r < rows; r++) {
    const row = visible.firstRow + r
    const height = rowHeight(row)
    if (height === 0) continue
    for (let c = 0; c < cols; c++) {
      const borders = cells[r * cols + c]?.style?.borders
      if (!borders) continue
      const col = visible.firstCol + c
      const width = layout.width(col)
      if (width === 0) continue
      for (const edge of EDGES) {
        const border = borders[edge]
        if (border) drawBorderEdge(ctx, edge, border, cellX(col), cellY(row), width, height)
      }
    }
  }

  drawFilterButtons(ctx, scene, visible, cellX, cellY)
  if (source.notes && source.notes.length > 0) drawNoteMarkers(ctx, source.notes, visible, geometry, cellX, cellY)
  drawHighlights(ctx, scene, cellX, cellY)
  drawSelectionBorder(ctx, scene, cellX, cellY)
  return cellsDrawn
}

/** Where a filter header cell's dropdown button sits: at the cell's right, centred on its height. */
export function filterButtonRect(x: number, y: number, width: number, height: number): { x: number; y: number; size: number } {
  const size = Math.min(FILTER_BUTTON_SIZE, height - 2, width - 2)
  return { x: x + width - size - 2, y: y + Math.round((height - size) / 2), size }
}

/** Each filter header cell's dropdown button: an arrow, or a funnel on a column that filters. */
function drawFilterButtons(ctx: CanvasRenderingContext2D, scene: GridScene, visible: VisibleCells, cellX: (col: number) => number, cellY: (row: number) => number): void {
  const buttons = scene.source.filterButtons
  if (!buttons || buttons.row < visible.firstRow || buttons.row > visible.lastRow) return
  const height = scene.geometry.rows.width(buttons.row)
  if (height === 0) return
  for (let col = Math.max(buttons.from, visible.firstCol); col <= Math.min(buttons.to, visible.lastCol); col++) {
    const width = scene.geometry.cols.width(col)
    if (width === 0) continue
    const { x, y, size } = filterButtonRect(cellX(col), cellY(buttons.row), width, height)
    if (size < 6) continue
    const active = buttons.active.has(col)
    ctx.fillStyle = active ? GRID_COLORS.headerActiveBackground : GRID_COLORS.headerBackground
    ctx.fillRect(x, y, size, size)
    ctx.strokeStyle = GRID_COLORS.headerLine
    ctx.lineWidth = 1
    ctx.strokeRect(x + 0.5, y + 0.5, size - 1, size - 1)
    ctx.fillStyle = active ? GRID_COLORS.headerActiveText : GRID_COLORS.headerText
    ctx.beginPath()
    const middle = x + size / 2
    if (active) {
      // a funnel: the column hides some of its rows
      ctx.moveTo(x + 3, y + 4)
      ctx.lineTo(x + size - 3, y + 4)
      ctx.lineTo(middle + 1.5, y + size / 2)
      ctx.lineTo(middle + 1.5, y + size - 3)
      ctx.lineTo(middle - 1.5, y + size - 4)
      ctx.lineTo(middle - 1.5, y + size / 2)
    } else {
      ctx.moveTo(middle - 4, y + size / 2 - 2)
      ctx.lineTo(middle + 4, y + size / 2 - 2)
      ctx.lineTo(middle, y + size / 2 + 3)
    }
    ctx.closePath()
    ctx.fill()
  }
}

/** A generous estimate of a text's width, to skip measuring texts that surely fit. */
function textWidthBound(cell: GridCell): number {
  return cell.text.length * (cell.style?.fontSize ?? DEFAULT_FONT_SIZE) * 0.62 + CELL_PADDING * 2
}

/**
 * Draws a cell's text in the rectangle (x, y, width, height); `room` is how far left-aligned text
 * may run to the right over empty neighbours. Numbers that do not fit show as ####.
 */
function drawText(ctx: CanvasRenderingContext2D, cell: GridCell, x: number, y: number, width: number, height: number, room: number): void {
  const align = cell.style?.align ?? cell.align
  if (cell.style?.rotation) {
    drawTurnedText(ctx, cell, align, x, y, width, height)
    return
  }
  if (cell.style?.wrap && !cell.numeric) {
    drawWrappedText(ctx, cell, align, x, y, width, height)
    return
  }
  let text = cell.text
  let textWidth = -1
  const inner = width - CELL_PADDING * 2
  if (textWidthBound(cell) > width) textWidth = ctx.measureText(text).width
  if (textWidth > inner && cell.numeric) {
    const hashWidth = ctx.measureText('#').width
    text = '#'.repeat(Math.max(1, Math.floor(inner / hashWidth)))
    textWidth = -1
  }
  ctx.fillStyle = textColor(cell)
  const tx = textX(ctx, cell, align, x, width)
  const fontSize = cell.style?.fontSize ?? DEFAULT_FONT_SIZE
  const ty = cell.style?.verticalAlign ? firstLineY(cell.style.verticalAlign, y, height, 1, fontSize * LINE_SPACING) : y + height / 2 + 1
  const limit = align === 'left' ? room : width
  const clip = textWidth > limit - CELL_PADDING * 2
  if (clip) {
    ctx.save()
    ctx.beginPath()
    ctx.rect(x + 1, y, limit - 2, height)
    ctx.clip()
  }
  ctx.fillText(text, tx, ty)
  decorate(ctx, cell, align, text, textWidth, tx, ty)
  if (clip) ctx.restore()
}

/** How much taller than its font a line of text is. */
/** Lines of wrapped text are this many font sizes apart. */
export const LINE_SPACING = 1.25

/** Where text starts (or ends, or centres) across the cell, setting the canvas's alignment to match. */
function textX(ctx: CanvasRenderingContext2D, cell: GridCell, align: HorizontalAlign, x: number, width: number): number {
  const indent = (cell.style?.indent ?? 0) * INDENT_STEP
  if (align === 'right') {
    ctx.textAlign = 'right'
    return x + width - CELL_PADDING - indent
  }
  if (align === 'center') {
    ctx.textAlign = 'center'
    return x + width / 2
  }
  ctx.textAlign = 'left'
  return x + CELL_PADDING + indent
}

/** Underline and strikethrough under and through a line of text drawn at (tx, ty). */
function decorate(ctx: CanvasRenderingContext2D, cell: GridCell, align: HorizontalAlign, text: string, measured: number, tx: number, ty: number): void {
  if (!cell.style?.underline && !cell.style?.strike && !cell.link) return
  const w = measured >= 0 ? measured : ctx.measureText(text).width
  const start = align === 'right' ? tx - w : align === 'center' ? tx - w / 2 : tx
  const fontSize = cell.style?.fontSize ?? DEFAULT_FONT_SIZE
  if (cell.style?.underline || cell.link) ctx.fillRect(start, ty + fontSize / 2, w, 1)
  if (cell.style?.strike) ctx.fillRect(start, ty, w, 1)
}

/** A cell's text colour: errors red, links blue (unless the cell has a colour of its own), else its style's. */
function textColor(cell: GridCell): string {
  if (cell.error) return GRID_COLORS.errorText
  return cell.style?.color ?? (cell.link ? LINK_COLOR : GRID_COLORS.text)
}

/** Text that wraps: lines within the cell's width, placed by its vertical alignment, cut at its edges. */
function drawWrappedText(ctx: CanvasRenderingContext2D, cell: GridCell, align: HorizontalAlign, x: number, y: number, width: number, height: number): void {
  const indent = (cell.style?.indent ?? 0) * INDENT_STEP
  const lines = wrapLines(cell.text, Math.max(1, width - CELL_PADDING * 2 - indent), (text) => ctx.measureText(text).width)
  drawLines(ctx, cell, align, lines, x, y, width, height)
}

/** Lines of a cell's text one under another, placed by its alignments, cut at its edges. */
function drawLines(ctx: CanvasRenderingContext2D, cell: GridCell, align: HorizontalAlign, lines: readonly string[], x: number, y: number, width: number, height: number): void {
  const lineHeight = (cell.style?.fontSize ?? DEFAULT_FONT_SIZE) * LINE_SPACING
  clipToCell(ctx, cell, x, y, width, height)
  const tx = textX(ctx, cell, align, x, width)
  let ty = firstLineY(cell.style?.verticalAlign ?? 'bottom', y, height, lines.length, lineHeight)
  for (const line of lines) {
    ctx.fillText(line, tx, ty)
    decorate(ctx, cell, align, line, -1, tx, ty)
    ty += lineHeight
  }
  ctx.restore()
}

/**
 * Text turned as the cell's rotation says (Excel's degrees, counter-clockwise), or stacked a letter
 * under another (rotation 255); placed by the alignments and cut at the cell's edges.
 */
function drawTurnedText(ctx: CanvasRenderingContext2D, cell: GridCell, align: HorizontalAlign, x: number, y: number, width: number, height: number): void {
  const rotation = cell.style?.rotation ?? 0
  if (rotation === STACKED_TEXT) {
    drawLines(ctx, cell, align, [...cell.text], x, y, width, height)
    return
  }
  const textWidth = ctx.measureText(cell.text).width
  const lineHeight = (cell.style?.fontSize ?? DEFAULT_FONT_SIZE) * LINE_SPACING
  const placed = rotatedTextPlacement(rotation, align, cell.style?.verticalAlign, { x, y, width, height }, textWidth, lineHeight, CELL_PADDING)
  clipToCell(ctx, cell, x, y, width, height)
  ctx.translate(placed.centerX, placed.centerY)
  ctx.rotate(placed.angle)
  ctx.textAlign = 'center'
  ctx.fillText(cell.text, 0, 0)
  decorate(ctx, cell, 'center', cell.text, textWidth, 0, 0)
  ctx.restore()
}

/** Saves the canvas and cuts what follows at the cell's edges, in the cell's text colour (the caller restores). */
function clipToCell(ctx: CanvasRenderingContext2D, cell: GridCell, x: number, y: number, width: number, height: number): void {
  ctx.fillStyle = textColor(cell)
  ctx.save()
  ctx.beginPath()
  ctx.rect(x + 1, y, width - 2, height)
  ctx.clip()
}

function rangeInside(inner: CellRange, outer: CellRange): boolean {
  return inner.startCol >= outer.startCol && inner.endCol <= outer.endCol && inner.startRow >= outer.startRow && inner.endRow <= outer.endRow
}

function isActiveMerge(merge: CellRange, active: CellPosition): boolean {
  return merge.startCol === active.col && merge.startRow === active.row
}

function drawGridLines(
  ctx: CanvasRenderingContext2D,
  scene: GridScene,
  visible: VisibleCells,
  cellX: (col: number) => number,
  cellY: (row: number) => number,
): void {
  ctx.beginPath()
  const { cols, rows } = scene.geometry
  const right = Math.min(scene.canvasWidth, cellX(visible.lastCol) + cols.width(visible.lastCol))
  const bottom = Math.min(scene.canvasHeight, cellY(visible.lastRow) + rows.width(visible.lastRow))
  const left = cellX(visible.firstCol)
  const top = cellY(visible.firstRow)
  for (let row = visible.firstRow; row <= visible.lastRow; row++) {
    const y = Math.round(cellY(row) + rows.width(row)) - 0.5
    ctx.moveTo(Math.min(left, ROW_HEADER_WIDTH), y)
    ctx.lineTo(right, y)
  }
  for (let col = visible.firstCol; col <= visible.lastCol; col++) {
    const x = Math.round(cellX(col) + cols.width(col)) - 0.5
    ctx.moveTo(x, Math.min(top, COLUMN_HEADER_HEIGHT))
    ctx.lineTo(x, bottom)
  }
  ctx.strokeStyle = GRID_COLORS.gridLine
  ctx.lineWidth = 1
  ctx.stroke()
}

/** The active cell's rectangle: its merged area when it has one. */
function activeRange(scene: GridScene): CellRange {
  const { active } = scene
  return scene.source.merges?.at(active) ?? { startCol: active.col, endCol: active.col, startRow: active.row, endRow: active.row }
}

function rangeRect(range: CellRange, scene: GridScene, cellX: (col: number) => number, cellY: (row: number) => number) {
  const { cols, rows } = scene.geometry
  const x = cellX(range.startCol)
  const y = cellY(range.startRow)
  const w = cellX(range.endCol) + cols.width(range.endCol) - x
  const h = cellY(range.endRow) + rows.width(range.endRow) - y
  return { x, y, w, h }
}

function drawSelectionFill(
  ctx: CanvasRenderingContext2D,
  scene: GridScene,
  _visible: VisibleCells,
  cellX: (col: number) => number,
  cellY: (row: number) => number,
): void {
  const { selection } = scene
  const own = activeRange(scene)
  const single = selection.startCol === own.startCol && selection.endCol === own.endCol && selection.startRow === own.startRow && selection.endRow === own.endRow
  if (single) return
  const r = rangeRect(selection, scene, cellX, cellY)
  ctx.fillStyle = GRID_COLORS.selectionFill
  ctx.fillRect(r.x, r.y, r.w, r.h)
  // the active cell stays white inside the shaded block
  const a = rangeRect(activeRange(scene), scene, cellX, cellY)
  ctx.fillStyle = GRID_COLORS.background
  ctx.fillRect(a.x, a.y, a.w, a.h)
}

function drawSelectionBorder(
  ctx: CanvasRenderingContext2D,
  scene: GridScene,
  cellX: (col: number) => number,
  cellY: (row: number) => number,
): void {
  const r = rangeRect(scene.selection, scene, cellX, cellY)
  ctx.strokeStyle = GRID_COLORS.selectionBorder
  ctx.lineWidth = 2
  ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1)
  const own = activeRange(scene)
  const sel = scene.selection
  if (!(sel.startCol === own.startCol && sel.endCol === own.endCol && sel.startRow === own.startRow && sel.endRow === own.endRow)) {
    const a = rangeRect(activeRange(scene), scene, cellX, cellY)
    ctx.lineWidth = 1
    ctx.strokeRect(a.x + 1.5, a.y + 1.5, a.w - 3, a.h - 3)
  }
  if (!scene.editing) {
    // the fill handle
    ctx.fillStyle = GRID_COLORS.selectionBorder
    ctx.fillRect(r.x + r.w - 4, r.y + r.h - 4, 7, 7)
    ctx.fillStyle = GRID_COLORS.background
    ctx.fillRect(r.x + r.w - 5, r.y + r.h - 5, 1, 8)
    ctx.fillRect(r.x + r.w - 5, r.y + r.h - 5, 8, 1)
  }
  if (scene.copyRange) {
    const c = rangeRect(scene.copyRange, scene, cellX, cellY)
    ctx.save()
    ctx.setLineDash([5, 3])
    ctx.lineDashOffset = scene.dashOffset
    ctx.strokeStyle = GRID_COLORS.copyBorder
    ctx.lineWidth = 2
    ctx.strokeRect(c.x + 1, c.y + 1, c.w - 2, c.h - 2)
    ctx.restore()
  }
  if (scene.fillPreview) {
    const f = rangeRect(scene.fillPreview, scene, cellX, cellY)
    ctx.save()
    ctx.setLineDash([3, 3])
    ctx.strokeStyle = GRID_COLORS.fillPreview
    ctx.lineWidth = 1
    ctx.strokeRect(f.x + 0.5, f.y + 0.5, f.w - 1, f.h - 1)
    ctx.restore()
  }
}

function drawHighlights(
  ctx: CanvasRenderingContext2D,
  scene: GridScene,
  cellX: (col: number) => number,
  cellY: (row: number) => number,
): void {
  for (const highlight of scene.highlights) {
    const r = rangeRect(highlight.range, scene, cellX, cellY)
    ctx.fillStyle = highlight.color + '14'
    ctx.fillRect(r.x, r.y, r.w, r.h)
    ctx.strokeStyle = highlight.color
    ctx.lineWidth = 2
    ctx.setLineDash(highlight.dashed ? [5, 3] : [])
    ctx.strokeRect(r.x + 1, r.y + 1, r.w - 2, r.h - 2)
  }
  ctx.setLineDash([])
}

function drawHeaders(
  ctx: CanvasRenderingContext2D,
  scene: GridScene,
  panes: readonly Pane[],
  cellX: (col: number) => number,
  cellY: (row: number) => number,
): void {
  const layout = scene.geometry.cols
  // the panes of the first row of panes give the column segments, those of the first column the row segments
  for (const segment of panes.filter((pane) => pane.y === panes[0].y)) drawColumnHeaders(ctx, scene, segment, layout, cellX)
  for (const segment of panes.filter((pane) => pane.x === panes[0].x)) drawRowHeaders(ctx, scene, segment, cellY)
  drawCorner(ctx, scene)
}

function drawColumnHeaders(ctx: CanvasRenderingContext2D, scene: GridScene, visible: Pane, layout: ColumnLayout, cellX: (col: number) => number): void {
  const { selection, source } = scene
  const wholeColumns = selection.startRow === 0 && selection.endRow === source.rowCount - 1
  ctx.save()
  ctx.beginPath()
  ctx.rect(ROW_HEADER_WIDTH + visible.x, 0, visible.width, COLUMN_HEADER_HEIGHT)
  ctx.clip()
  ctx.fillStyle = GRID_COLORS.headerBackground
  ctx.fillRect(ROW_HEADER_WIDTH + visible.x, 0, visible.width, COLUMN_HEADER_HEIGHT)
  ctx.font = `12px Arial, sans-serif`
  ctx.textBaseline = 'middle'
  ctx.textAlign = 'center'
  for (let col = visible.firstCol; col <= visible.lastCol; col++) {
    const x = cellX(col)
    const w = layout.width(col)
    if (w === 0) continue
    const inSelection = col >= selection.startCol && col <= selection.endCol
    if (inSelection) {
      ctx.fillStyle = wholeColumns ? GRID_COLORS.headerSelectedBackground : GRID_COLORS.headerActiveBackground
      ctx.fillRect(x, 0, w, COLUMN_HEADER_HEIGHT)
    }
    ctx.fillStyle = inSelection ? (wholeColumns ? '#ffffff' : GRID_COLORS.headerActiveText) : GRID_COLORS.headerText
    ctx.fillText(columnLabel(col), x + w / 2, COLUMN_HEADER_HEIGHT / 2 + 1)
    ctx.fillStyle = GRID_COLORS.headerLine
    ctx.fillRect(Math.round(x + w) - 1, 0, 1, COLUMN_HEADER_HEIGHT)
  }
  if (!wholeColumns && selection.startCol <= visible.lastCol && selection.endCol >= visible.firstCol) {
    ctx.fillStyle = GRID_COLORS.selectionBorder
    const x = cellX(selection.startCol)
    ctx.fillRect(x, COLUMN_HEADER_HEIGHT - 2, cellX(selection.endCol) + layout.width(selection.endCol) - x, 2)
  }
  for (const group of source.outline?.columns ?? []) {
    const summary = group.to + 1
    if (summary < visible.firstCol || summary > visible.lastCol || layout.width(summary) === 0) continue
    const x = cellX(summary) + 2
    if (!group.collapsed) {
      ctx.fillStyle = GRID_COLORS.headerText
      const left = cellX(Math.max(group.from, visible.firstCol))
      ctx.fillRect(left + 2, 2 + OUTLINE_BUTTON_SIZE / 2, x - left - 2, 1)
    }
    drawOutlineButton(ctx, x, 2, group.collapsed)
  }
  ctx.restore()
}

/** An outline's button: + to show a collapsed group's detail, − to hide it. */
function drawOutlineButton(ctx: CanvasRenderingContext2D, x: number, y: number, collapsed: boolean): void {
  const size = OUTLINE_BUTTON_SIZE
  ctx.fillStyle = GRID_COLORS.background
  ctx.fillRect(x, y, size, size)
  ctx.strokeStyle = GRID_COLORS.headerText
  ctx.lineWidth = 1
  ctx.strokeRect(Math.round(x) + 0.5, Math.round(y) + 0.5, size - 1, size - 1)
  ctx.fillStyle = GRID_COLORS.headerText
  ctx.fillRect(x + 3, y + size / 2 - 0.5, size - 6, 1)
  if (collapsed) ctx.fillRect(x + size / 2 - 0.5, y + 3, 1, size - 6)
}

function drawRowHeaders(ctx: CanvasRenderingContext2D, scene: GridScene, visible: Pane, cellY: (row: number) => number): void {
  const { selection, source } = scene
  const rows = scene.geometry.rows
  const wholeRows = selection.startCol === 0 && selection.endCol === source.columnCount - 1
  ctx.save()
  ctx.beginPath()
  ctx.rect(0, COLUMN_HEADER_HEIGHT + visible.y, ROW_HEADER_WIDTH, visible.height)
  ctx.clip()
  ctx.fillStyle = GRID_COLORS.headerBackground
  ctx.fillRect(0, COLUMN_HEADER_HEIGHT + visible.y, ROW_HEADER_WIDTH, visible.height)
  ctx.font = `12px Arial, sans-serif`
  ctx.textBaseline = 'middle'
  ctx.textAlign = 'center'
  for (let row = visible.firstRow; row <= visible.lastRow; row++) {
    const y = cellY(row)
    const height = rows.width(row)
    if (height === 0) continue
    const inSelection = row >= selection.startRow && row <= selection.endRow
    if (inSelection) {
      ctx.fillStyle = wholeRows ? GRID_COLORS.headerSelectedBackground : GRID_COLORS.headerActiveBackground
      ctx.fillRect(0, y, ROW_HEADER_WIDTH, height)
    }
    ctx.fillStyle = inSelection ? (wholeRows ? '#ffffff' : GRID_COLORS.headerActiveText) : GRID_COLORS.headerText
    ctx.fillText(String(row + 1), ROW_HEADER_WIDTH / 2, y + height / 2 + 1)
    ctx.fillStyle = GRID_COLORS.headerLine
    ctx.fillRect(0, Math.round(y + height) - 1, ROW_HEADER_WIDTH, 1)
  }
  for (const group of source.outline?.rows ?? []) {
    const summary = group.to + 1
    if (summary < visible.firstRow || summary > visible.lastRow || rows.width(summary) === 0) continue
    const y = cellY(summary) + (rows.width(summary) - OUTLINE_BUTTON_SIZE) / 2
    if (!group.collapsed) {
      // the bracket along the group's rows, ending at its button
      ctx.fillStyle = GRID_COLORS.headerText
      const top = cellY(Math.max(group.from, visible.firstRow))
      ctx.fillRect(2 + OUTLINE_BUTTON_SIZE / 2, top + 2, 1, y - top - 2)
    }
    drawOutlineButton(ctx, 2, y, group.collapsed)
  }
  if (!wholeRows && selection.startRow <= visible.lastRow && selection.endRow >= visible.firstRow) {
    ctx.fillStyle = GRID_COLORS.selectionBorder
    const top = cellY(selection.startRow)
    ctx.fillRect(ROW_HEADER_WIDTH - 2, top, 2, cellY(selection.endRow) + rows.width(selection.endRow) - top)
  }
  ctx.restore()
}

function drawCorner(ctx: CanvasRenderingContext2D, scene: GridScene): void {
  // the corner and the header borders
  ctx.fillStyle = GRID_COLORS.headerBackground
  ctx.fillRect(0, 0, ROW_HEADER_WIDTH, COLUMN_HEADER_HEIGHT)
  ctx.fillStyle = GRID_COLORS.headerLine
  ctx.fillRect(0, COLUMN_HEADER_HEIGHT - 1, scene.canvasWidth, 1)
  ctx.fillRect(ROW_HEADER_WIDTH - 1, 0, 1, scene.canvasHeight)
  // the select-all triangle
  ctx.fillStyle = '#b4bac2'
  ctx.beginPath()
  ctx.moveTo(ROW_HEADER_WIDTH - 5, COLUMN_HEADER_HEIGHT - 5)
  ctx.lineTo(ROW_HEADER_WIDTH - 5, COLUMN_HEADER_HEIGHT - 15)
  ctx.lineTo(ROW_HEADER_WIDTH - 15, COLUMN_HEADER_HEIGHT - 5)
  ctx.closePath()
  ctx.fill()
}
