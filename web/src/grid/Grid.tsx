import type { MouseEvent as ReactMouseEvent, PointerEvent as ReactPointerEvent, ReactNode, Ref } from 'react'
import { useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { CellPosition, CellRange } from './address'
import { fillTargetRange } from './fill'
import type { FloatAnchor } from './floats'
import { floatRect } from './floats'
import type { Viewport } from './geometry'
import {
  COLUMN_HEADER_HEIGHT,
  ColumnLayout,
  DEFAULT_COLUMN_WIDTH,
  HORIZONTAL_WHEEL_FACTOR,
  MIN_COLUMN_WIDTH,
  ROW_HEADER_WIDTH,
  ROW_HEIGHT,
  SheetGeometry,
} from './geometry'
import type { GridScene } from './render'
import type { TraceArrow } from './trace-render'
import { drawGrid, filterButtonRect } from './render'
import type { DrawStats, GridDataSource, OutlineSpan, RangeHighlight } from './types'
import { OUTLINE_BUTTON_SIZE } from './types'

/** What the pointer is over: a cell, a header, or the select-all corner. */
export type GridTarget =
  | { kind: 'cell'; pos: CellPosition }
  | { kind: 'column'; col: number }
  | { kind: 'row'; row: number }
  | { kind: 'corner' }

export interface PointerModifiers {
  shift: boolean
  ctrl: boolean
}

export interface GridHandle {
  /** scrolls as little as needed to show the cell */
  reveal(pos: CellPosition): void
  /** how many whole rows fit on screen, for PageUp/PageDown */
  pageRows(): number
  /** the cell's rectangle relative to the grid element, or null when it is scrolled out of view */
  cellRect(pos: CellPosition): { x: number; y: number; width: number; height: number } | null
  scrollTo(left: number, top: number): void
  /** the rows and columns as drawn now, for placing and dragging floats */
  geometry(): SheetGeometry
  readonly element: HTMLDivElement | null
}

/** Something drawn above the cells (a chart), held by its anchor; `content` fills its box at 100% zoom. */
export interface GridFloat {
  key: string
  anchor: FloatAnchor
  content: ReactNode
}

export interface GridProps {
  source: GridDataSource
  /** changes whenever the source's cells change, so the grid repaints */
  revision: number
  selection: CellRange
  active: CellPosition
  editing: boolean
  highlights?: readonly RangeHighlight[]
  copyRange?: CellRange | null
  /** Trace Precedents and Trace Dependents arrows drawn over the cells */
  traceArrows?: readonly TraceArrow[]
  /** the editor and the keyboard focus target, placed over the active cell */
  overlay: ReactNode
  /** drawn above the cells, moved with them on every frame */
  floats?: readonly GridFloat[]
  ariaLabel: string
  onPointerDown(target: GridTarget, modifiers: PointerModifiers): void
  onPointerDrag(target: GridTarget): void
  onPointerUp(): void
  onDoubleClick?(target: GridTarget): void
  /** double click on the fill handle: fill down as far as the data beside the selection goes */
  onFillHandleDoubleClick?(): void
  onFill(source: CellRange, target: CellRange): void
  onColumnResize(col: number, width: number): void
  /** double click on a column's right border: fit the column to its content */
  onColumnAutoFit?(col: number): void
  /** a row's bottom border dragged in the row header */
  onRowResize?(row: number, height: number): void
  /** double click on a row's bottom border: fit the row to its content */
  onRowAutoFit?(row: number): void
  /** 1 is 100%; everything is drawn and hit-tested at this scale */
  zoom?: number
  /** Ctrl+wheel: zoom in (positive steps) or out */
  onZoomStep?(steps: number): void
  /** a click on an outline's +/− button */
  onOutlineToggle?(axis: 'rows' | 'columns', group: OutlineSpan): void
  /** a click on a filter header cell's dropdown button; the point is below the button, in the page */
  onFilterButton?(col: number, at: { clientX: number; clientY: number }): void
  /** the pointer moved over another cell or header (null: it left the grid), to show a cell's note */
  onHover?(target: GridTarget | null): void
  /** right click; `target` is what was under the pointer */
  onContextMenu?(target: GridTarget, clientX: number, clientY: number): void
  /** called after every frame; the benchmark reads it */
  onDraw?: (stats: DrawStats) => void
  ref?: Ref<GridHandle>
}

type Interaction =
  | { kind: 'none' }
  | { kind: 'select' }
  | { kind: 'fill'; source: CellRange; target: CellRange }
  | { kind: 'resize'; col: number; startX: number; startWidth: number; width: number }
  | { kind: 'row-resize'; row: number; startY: number; startHeight: number; height: number }

const RESIZE_GRAB = 4
/** Excel's smallest row a drag leaves (0 would hide it: that is Hide) */
const MIN_ROW_HEIGHT = 8
const FILL_HANDLE_GRAB = 6
const AUTO_SCROLL_STEP = 0.4

export function Grid(props: GridProps) {
  const rootRef = useRef<HTMLDivElement>(null)
  const scrollerRef = useRef<HTMLDivElement>(null)
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const overlayRef = useRef<HTMLDivElement>(null)
  const overlayClipRef = useRef<HTMLDivElement>(null)
  const floatClipRef = useRef<HTMLDivElement>(null)
  const floatRefs = useRef(new Map<string, HTMLDivElement>())
  const propsRef = useRef(props)
  propsRef.current = props
  const interaction = useRef<Interaction>({ kind: 'none' })
  const pointer = useRef<{ x: number; y: number } | null>(null)
  const frame = useRef(0)
  const size = useRef({ width: 0, height: 0, dpr: 1 })
  const dashOffset = useRef(0)
  const [cursor, setCursor] = useState('cell')

  const { source } = props
  const rowHeights = source.rowHeights
  const geometry = useMemo(
    () =>
      new SheetGeometry(
        new ColumnLayout(source.columnCount, source.columnWidths, DEFAULT_COLUMN_WIDTH),
        new ColumnLayout(source.rowCount, rowHeights ?? new Map(), ROW_HEIGHT),
        source.frozenColumns ?? 0,
        source.frozenRows ?? 0,
      ),
    [source, source.columnCount, source.rowCount, source.columnWidths, rowHeights, source.frozenColumns, source.frozenRows, props.revision],
  )
  const geometryRef = useRef(geometry)
  geometryRef.current = geometry
  const zoom = props.zoom ?? 1

  /** the geometry with a column or row being resized at its new size */
  const currentGeometry = useCallback((): SheetGeometry => {
    const act = interaction.current
    const base = geometryRef.current
    const src = propsRef.current.source
    if (act.kind === 'resize') {
      const widths = new Map(src.columnWidths)
      widths.set(act.col, act.width)
      return new SheetGeometry(new ColumnLayout(src.columnCount, widths, DEFAULT_COLUMN_WIDTH), base.rows, base.frozenColumns, base.frozenRows)
    }
    if (act.kind === 'row-resize') {
      const heights = new Map(src.rowHeights ?? [])
      heights.set(act.row, act.height)
      return new SheetGeometry(base.cols, new ColumnLayout(src.rowCount, heights, ROW_HEIGHT), base.frozenColumns, base.frozenRows)
    }
    return base
  }, [])
  const currentLayout = useCallback((): ColumnLayout => currentGeometry().cols, [currentGeometry])

  const scale = () => propsRef.current.zoom ?? 1

  /** the scroll position and cell area in sheet pixels (unzoomed) */
  const viewport = useCallback((): Viewport => {
    const scroller = scrollerRef.current
    const z = scale()
    return {
      scrollLeft: (scroller?.scrollLeft ?? 0) / z,
      scrollTop: (scroller?.scrollTop ?? 0) / z,
      width: Math.max(0, size.current.width / z - ROW_HEADER_WIDTH),
      height: Math.max(0, size.current.height / z - COLUMN_HEADER_HEIGHT),
    }
  }, [])

  /** a point relative to the grid element, in sheet pixels */
  const toSheetPoint = useCallback((clientX: number, clientY: number) => {
    const rect = scrollerRef.current!.getBoundingClientRect()
    const z = scale()
    return { x: (clientX - rect.left) / z, y: (clientY - rect.top) / z }
  }, [])

  const draw = useCallback(() => {
    frame.current = 0
    const canvas = canvasRef.current
    const ctx = canvas?.getContext('2d', { alpha: false })
    if (!canvas || !ctx || size.current.width === 0) return
    const p = propsRef.current
    const geo = currentGeometry()
    const act = interaction.current
    const z = scale()
    const scene: GridScene = {
      source: p.source,
      geometry: geo,
      viewport: viewport(),
      canvasWidth: size.current.width / z,
      canvasHeight: size.current.height / z,
      selection: p.selection,
      active: p.active,
      editing: p.editing,
      highlights: p.highlights ?? [],
      copyRange: p.copyRange ?? null,
      traceArrows: p.traceArrows,
      fillPreview: act.kind === 'fill' ? act.target : null,
      dashOffset: dashOffset.current,
    }
    ctx.setTransform(size.current.dpr * z, 0, 0, size.current.dpr * z, 0, 0)
    const stats = drawGrid(ctx, scene)
    placeOverlay(geo)
    placeFloats(geo)
    p.onDraw?.(stats)
  }, [currentGeometry, viewport])

  const requestDraw = useCallback(() => {
    if (!frame.current) frame.current = requestAnimationFrame(draw)
  }, [draw])

  /** keeps the editor over the active cell, moved with the same scroll offsets the frame used */
  function placeOverlay(geo: SheetGeometry) {
    const overlay = overlayRef.current
    if (!overlay) return
    const { active, source } = propsRef.current
    const merge = source.merges?.at(active)
    const vp = viewport()
    const z = scale()
    const x = geo.x(active.col, vp.scrollLeft)
    const y = geo.y(active.row, vp.scrollTop)
    const endCol = merge ? merge.endCol : active.col
    const endRow = merge ? merge.endRow : active.row
    const width = geo.x(endCol, vp.scrollLeft) + geo.cols.width(endCol) - x
    const height = geo.y(endRow, vp.scrollTop) + geo.rows.width(endRow) - y
    overlay.style.transform = `translate(${x * z}px, ${y * z}px) scale(${z})`
    overlay.style.minWidth = `${width}px`
    overlay.style.height = `${height}px`
  }

  /** puts each float over its cells with the same scroll offsets the frame used */
  function placeFloats(geo: SheetGeometry) {
    const floats = propsRef.current.floats
    if (!floats || floats.length === 0) return
    const vp = viewport()
    const z = scale()
    for (const float of floats) {
      const element = floatRefs.current.get(float.key)
      if (!element) continue
      const rect = floatRect(geo, float.anchor, vp.scrollLeft, vp.scrollTop)
      element.style.transform = `translate(${rect.x * z}px, ${rect.y * z}px) scale(${z})`
      element.style.width = `${rect.width}px`
      element.style.height = `${rect.height}px`
      element.style.clipPath = rect.hiddenTop > 0 || rect.hiddenLeft > 0 ? `inset(${rect.hiddenTop}px 0 0 ${rect.hiddenLeft}px)` : ''
    }
  }

  // size the canvas to the element, at the device's pixel ratio
  useLayoutEffect(() => {
    const root = rootRef.current
    const scroller = scrollerRef.current
    const canvas = canvasRef.current
    if (!root || !scroller || !canvas) return
    // Only a change of size draws: the layout effect below draws every commit (this one's too), and
    // the observer's first report, before the first frame, is of the size already set.
    const resize = () => {
      const dpr = window.devicePixelRatio || 1
      const width = scroller.clientWidth
      const height = scroller.clientHeight
      const was = size.current
      if (width === was.width && height === was.height && dpr === was.dpr) return false
      size.current = { width, height, dpr }
      canvas.width = Math.round(width * dpr)
      canvas.height = Math.round(height * dpr)
      canvas.style.width = `${width}px`
      canvas.style.height = `${height}px`
      placeOverlayClip()
      return true
    }
    resize()
    const observer = new ResizeObserver(() => {
      if (resize()) draw()
    })
    observer.observe(root)
    return () => observer.disconnect()
  }, [draw])

  /** the editor's clip (and the floats') covers the cell area, at the zoom's scale */
  function placeOverlayClip() {
    const z = scale()
    for (const clip of [overlayClipRef.current, floatClipRef.current]) {
      if (!clip) continue
      clip.style.left = `${ROW_HEADER_WIDTH * z}px`
      clip.style.top = `${COLUMN_HEADER_HEIGHT * z}px`
      clip.style.width = `${Math.max(0, size.current.width - ROW_HEADER_WIDTH * z)}px`
      clip.style.height = `${Math.max(0, size.current.height - COLUMN_HEADER_HEIGHT * z)}px`
    }
  }

  // every prop change repaints at once, so the first paint happens with the first render
  useLayoutEffect(() => {
    if (frame.current) cancelAnimationFrame(frame.current)
    placeOverlayClip()
    draw()
  })

  // a zoom keeps the same cells at the top left
  const lastZoom = useRef(zoom)
  useLayoutEffect(() => {
    const scroller = scrollerRef.current
    const before = lastZoom.current
    lastZoom.current = zoom
    if (!scroller || before === zoom) return
    scroller.scrollLeft = (scroller.scrollLeft / before) * zoom
    scroller.scrollTop = (scroller.scrollTop / before) * zoom
    draw()
  }, [zoom, draw])

  useEffect(() => () => cancelAnimationFrame(frame.current), [])

  // marching ants around copied cells
  useEffect(() => {
    if (!props.copyRange) return
    const timer = setInterval(() => {
      dashOffset.current = (dashOffset.current + 1) % 8
      requestDraw()
    }, 80)
    return () => clearInterval(timer)
  }, [props.copyRange, requestDraw])

  // horizontal wheel scrolling is doubled (spec 1 §2); needs a non-passive listener to take over
  useEffect(() => {
    const scroller = scrollerRef.current
    if (!scroller) return
    const onWheel = (event: WheelEvent) => {
      if (event.ctrlKey || event.metaKey) {
        // Ctrl+wheel zooms, as in Excel, instead of zooming the page
        event.preventDefault()
        if (event.deltaY !== 0) propsRef.current.onZoomStep?.(event.deltaY < 0 ? 1 : -1)
        return
      }
      const horizontal = event.shiftKey ? event.deltaY : event.deltaX
      if (horizontal === 0) return
      event.preventDefault()
      scroller.scrollLeft += horizontal * HORIZONTAL_WHEEL_FACTOR
      if (!event.shiftKey) scroller.scrollTop += event.deltaY
    }
    scroller.addEventListener('wheel', onWheel, { passive: false })
    return () => scroller.removeEventListener('wheel', onWheel)
  }, [])

  const hitTest = useCallback(
    (clientX: number, clientY: number): GridTarget => {
      const { x, y } = toSheetPoint(clientX, clientY)
      const vp = viewport()
      const geo = currentGeometry()
      const col = geo.colAt(Math.max(0, x - ROW_HEADER_WIDTH), vp.scrollLeft)
      const row = geo.rowAt(Math.max(0, y - COLUMN_HEADER_HEIGHT), vp.scrollTop)
      if (x < ROW_HEADER_WIDTH && y < COLUMN_HEADER_HEIGHT) return { kind: 'corner' }
      if (y < COLUMN_HEADER_HEIGHT) return { kind: 'column', col }
      if (x < ROW_HEADER_WIDTH) return { kind: 'row', row }
      return { kind: 'cell', pos: { col, row } }
    },
    [currentGeometry, viewport, toSheetPoint],
  )

  /** the column whose right border is under the pointer in the header, for resizing */
  const resizeEdgeAt = useCallback(
    (clientX: number, clientY: number): number | null => {
      const { x, y } = toSheetPoint(clientX, clientY)
      if (y >= COLUMN_HEADER_HEIGHT || x < ROW_HEADER_WIDTH) return null
      const geo = currentGeometry()
      const screenX = x - ROW_HEADER_WIDTH
      const scrollLeft = viewport().scrollLeft
      const col = geo.colAt(screenX, scrollLeft)
      const left = geo.x(col, scrollLeft)
      const right = left + geo.cols.width(col)
      if (right - screenX <= RESIZE_GRAB) return col
      if (screenX - left <= RESIZE_GRAB && col > 0) return col - 1
      return null
    },
    [currentGeometry, viewport, toSheetPoint],
  )

  /** the outline group whose +/− button is under the pointer */
  const outlineButtonAt = useCallback(
    (clientX: number, clientY: number): { axis: 'rows' | 'columns'; group: OutlineSpan } | null => {
      const outline = propsRef.current.source.outline
      if (!outline) return null
      const { x, y } = toSheetPoint(clientX, clientY)
      const geo = currentGeometry()
      const vp = viewport()
      if (x < ROW_HEADER_WIDTH && y >= COLUMN_HEADER_HEIGHT && x <= OUTLINE_BUTTON_SIZE + 4) {
        const row = geo.rowAt(y - COLUMN_HEADER_HEIGHT, vp.scrollTop)
        const group = outline.rows.find((candidate) => candidate.to + 1 === row)
        return group ? { axis: 'rows', group } : null
      }
      if (y < COLUMN_HEADER_HEIGHT && x >= ROW_HEADER_WIDTH && y <= OUTLINE_BUTTON_SIZE + 4) {
        const screenX = x - ROW_HEADER_WIDTH
        const col = geo.colAt(screenX, vp.scrollLeft)
        if (screenX - geo.x(col, vp.scrollLeft) > OUTLINE_BUTTON_SIZE + 4) return null
        const group = outline.columns.find((candidate) => candidate.to + 1 === col)
        return group ? { axis: 'columns', group } : null
      }
      return null
    },
    [currentGeometry, viewport, toSheetPoint],
  )

  /** the column of the filter dropdown button under the pointer, with where its menu opens */
  const filterButtonAt = useCallback(
    (clientX: number, clientY: number): { col: number; clientX: number; clientY: number } | null => {
      const buttons = propsRef.current.source.filterButtons
      if (!buttons) return null
      const target = hitTest(clientX, clientY)
      if (target.kind !== 'cell' || target.pos.row !== buttons.row || target.pos.col < buttons.from || target.pos.col > buttons.to) return null
      const { x, y } = toSheetPoint(clientX, clientY)
      const geo = currentGeometry()
      const vp = viewport()
      const left = ROW_HEADER_WIDTH + geo.x(target.pos.col, vp.scrollLeft)
      const top = COLUMN_HEADER_HEIGHT + geo.y(buttons.row, vp.scrollTop)
      const button = filterButtonRect(left, top, geo.cols.width(target.pos.col), geo.rows.width(buttons.row))
      if (x < button.x || x > button.x + button.size || y < button.y || y > button.y + button.size) return null
      return { col: target.pos.col, clientX: clientX - (x - button.x) * scale(), clientY: clientY + (button.y + button.size - y) * scale() }
    },
    [currentGeometry, viewport, toSheetPoint, hitTest],
  )

  /** the row whose bottom border is under the pointer in the row header, for resizing */
  const rowResizeEdgeAt = useCallback(
    (clientX: number, clientY: number): number | null => {
      if (!propsRef.current.onRowResize) return null
      const { x, y } = toSheetPoint(clientX, clientY)
      if (x >= ROW_HEADER_WIDTH || y < COLUMN_HEADER_HEIGHT) return null
      const geo = currentGeometry()
      const screenY = y - COLUMN_HEADER_HEIGHT
      const scrollTop = viewport().scrollTop
      const row = geo.rowAt(screenY, scrollTop)
      const top = geo.y(row, scrollTop)
      const bottom = top + geo.rows.width(row)
      if (bottom - screenY <= RESIZE_GRAB) return row
      if (screenY - top <= RESIZE_GRAB && row > 0) return row - 1
      return null
    },
    [currentGeometry, viewport, toSheetPoint],
  )

  const onFillHandle = useCallback(
    (clientX: number, clientY: number): boolean => {
      if (propsRef.current.editing) return false
      const { x, y } = toSheetPoint(clientX, clientY)
      const vp = viewport()
      const geo = currentGeometry()
      const { selection } = propsRef.current
      const hx = ROW_HEADER_WIDTH + geo.x(selection.endCol, vp.scrollLeft) + geo.cols.width(selection.endCol)
      const hy = COLUMN_HEADER_HEIGHT + geo.y(selection.endRow, vp.scrollTop) + geo.rows.width(selection.endRow)
      return Math.abs(x - hx) <= FILL_HANDLE_GRAB && Math.abs(y - hy) <= FILL_HANDLE_GRAB
    },
    [currentGeometry, viewport, toSheetPoint],
  )

  // keeps a drag going when the pointer leaves the cell area: scroll towards it every frame
  const autoScroll = useRef(0)
  const runAutoScroll = useCallback(() => {
    autoScroll.current = 0
    const scroller = scrollerRef.current
    const at = pointer.current
    const kind = interaction.current.kind
    if (!scroller || !at || kind === 'none' || kind === 'resize' || kind === 'row-resize') return
    const rect = scroller.getBoundingClientRect()
    const z = scale()
    let dx = 0
    let dy = 0
    if (at.x < rect.left + ROW_HEADER_WIDTH * z) dx = at.x - (rect.left + ROW_HEADER_WIDTH * z)
    else if (at.x > rect.left + scroller.clientWidth) dx = at.x - (rect.left + scroller.clientWidth)
    if (at.y < rect.top + COLUMN_HEADER_HEIGHT * z) dy = at.y - (rect.top + COLUMN_HEADER_HEIGHT * z)
    else if (at.y > rect.top + scroller.clientHeight) dy = at.y - (rect.top + scroller.clientHeight)
    if (dx === 0 && dy === 0) return
    scroller.scrollLeft += dx * AUTO_SCROLL_STEP
    scroller.scrollTop += dy * AUTO_SCROLL_STEP
    dragTo(at.x, at.y)
    autoScroll.current = requestAnimationFrame(runAutoScroll)
  }, [])

  function dragTo(clientX: number, clientY: number) {
    const act = interaction.current
    const rect = scrollerRef.current!.getBoundingClientRect()
    // clamp into the cell area so a pointer above the headers still means the first visible row
    const z = scale()
    const x = Math.min(Math.max(clientX, rect.left + ROW_HEADER_WIDTH * z + 1), rect.left + scrollerRef.current!.clientWidth - 1)
    const y = Math.min(Math.max(clientY, rect.top + COLUMN_HEADER_HEIGHT * z + 1), rect.top + scrollerRef.current!.clientHeight - 1)
    const target = hitTest(x, y)
    if (act.kind === 'select') {
      const raw = hitTest(clientX, clientY)
      // header drags select whole rows or columns; the controller decides from the first target
      propsRef.current.onPointerDrag(raw.kind === 'cell' ? target : raw.kind === 'corner' ? target : raw)
    } else if (act.kind === 'fill' && target.kind === 'cell') {
      act.target = fillTargetRange(act.source, target.pos)
      requestDraw()
    }
  }

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    const scroller = scrollerRef.current!
    // clicks on the scroll bars are the browser's
    const rect = scroller.getBoundingClientRect()
    if (event.clientX - rect.left >= scroller.clientWidth || event.clientY - rect.top >= scroller.clientHeight) return
    if (event.button !== 0) return
    const button = outlineButtonAt(event.clientX, event.clientY)
    if (button && propsRef.current.onOutlineToggle) {
      event.preventDefault()
      propsRef.current.onOutlineToggle(button.axis, button.group)
      return
    }
    const filterButton = propsRef.current.onFilterButton ? filterButtonAt(event.clientX, event.clientY) : null
    if (filterButton) {
      event.preventDefault()
      propsRef.current.onFilterButton!(filterButton.col, filterButton)
      return
    }
    const resizeCol = resizeEdgeAt(event.clientX, event.clientY)
    const resizeRow = rowResizeEdgeAt(event.clientX, event.clientY)
    scroller.setPointerCapture(event.pointerId)
    pointer.current = { x: event.clientX, y: event.clientY }
    if (resizeCol !== null) {
      event.preventDefault()
      const width = currentLayout().width(resizeCol)
      interaction.current = { kind: 'resize', col: resizeCol, startX: event.clientX, startWidth: width, width }
      return
    }
    if (resizeRow !== null) {
      event.preventDefault()
      const height = currentGeometry().rows.width(resizeRow)
      interaction.current = { kind: 'row-resize', row: resizeRow, startY: event.clientY, startHeight: height, height }
      return
    }
    if (onFillHandle(event.clientX, event.clientY)) {
      event.preventDefault()
      interaction.current = { kind: 'fill', source: propsRef.current.selection, target: propsRef.current.selection }
      return
    }
    event.preventDefault()
    interaction.current = { kind: 'select' }
    propsRef.current.onPointerDown(hitTest(event.clientX, event.clientY), {
      shift: event.shiftKey,
      ctrl: event.ctrlKey || event.metaKey,
    })
  }

  // pointer events carry no click count, so double clicks come from the dblclick event
  const onDoubleClick = (event: ReactMouseEvent<HTMLDivElement>) => {
    const p = propsRef.current
    const resizeCol = resizeEdgeAt(event.clientX, event.clientY)
    if (resizeCol !== null) {
      if (p.onColumnAutoFit) p.onColumnAutoFit(resizeCol)
      else p.onColumnResize(resizeCol, DEFAULT_COLUMN_WIDTH)
      return
    }
    const resizeRow = rowResizeEdgeAt(event.clientX, event.clientY)
    if (resizeRow !== null) {
      p.onRowAutoFit?.(resizeRow)
      return
    }
    if (onFillHandle(event.clientX, event.clientY) && p.onFillHandleDoubleClick) {
      p.onFillHandleDoubleClick()
      return
    }
    p.onDoubleClick?.(hitTest(event.clientX, event.clientY))
  }

  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const act = interaction.current
    pointer.current = { x: event.clientX, y: event.clientY }
    if (act.kind === 'none') {
      if (propsRef.current.onHover) propsRef.current.onHover(hitTest(event.clientX, event.clientY))
      const next =
        resizeEdgeAt(event.clientX, event.clientY) !== null
          ? 'col-resize'
          : rowResizeEdgeAt(event.clientX, event.clientY) !== null
            ? 'row-resize'
            : onFillHandle(event.clientX, event.clientY)
              ? 'crosshair'
              : outlineButtonAt(event.clientX, event.clientY) || filterButtonAt(event.clientX, event.clientY)
                ? 'pointer'
                : 'cell'
      if (next !== cursor) setCursor(next)
      return
    }
    if (act.kind === 'resize') {
      act.width = Math.max(MIN_COLUMN_WIDTH, Math.round(act.startWidth + (event.clientX - act.startX) / scale()))
      requestDraw()
      return
    }
    if (act.kind === 'row-resize') {
      act.height = Math.max(MIN_ROW_HEIGHT, Math.round(act.startHeight + (event.clientY - act.startY) / scale()))
      requestDraw()
      return
    }
    dragTo(event.clientX, event.clientY)
    if (!autoScroll.current) autoScroll.current = requestAnimationFrame(runAutoScroll)
  }

  const endInteraction = (event: ReactPointerEvent<HTMLDivElement>) => {
    const act = interaction.current
    interaction.current = { kind: 'none' }
    pointer.current = null
    if (scrollerRef.current?.hasPointerCapture(event.pointerId)) scrollerRef.current.releasePointerCapture(event.pointerId)
    if (act.kind === 'resize') {
      if (act.width !== act.startWidth) propsRef.current.onColumnResize(act.col, act.width)
      requestDraw()
    } else if (act.kind === 'row-resize') {
      if (act.height !== act.startHeight) propsRef.current.onRowResize?.(act.row, act.height)
      requestDraw()
    } else if (act.kind === 'fill') {
      const same =
        act.target.startCol === act.source.startCol &&
        act.target.endCol === act.source.endCol &&
        act.target.startRow === act.source.startRow &&
        act.target.endRow === act.source.endRow
      if (!same) propsRef.current.onFill(act.source, act.target)
      requestDraw()
    } else if (act.kind === 'select') {
      propsRef.current.onPointerUp()
    }
  }

  useImperativeHandle(
    props.ref,
    () => ({
      reveal(pos) {
        const scroller = scrollerRef.current
        if (!scroller) return
        const z = scale()
        const vp = viewport()
        const next = currentGeometry().reveal(vp, pos.col, pos.row)
        if (next.scrollLeft !== vp.scrollLeft || next.scrollTop !== vp.scrollTop) {
          scroller.scrollLeft = next.scrollLeft * z
          scroller.scrollTop = next.scrollTop * z
          draw()
        }
      },
      pageRows() {
        return Math.max(1, Math.floor((viewport().height - currentGeometry().frozenHeight) / ROW_HEIGHT) - 1)
      },
      cellRect(pos) {
        const vp = viewport()
        const geo = currentGeometry()
        const z = scale()
        const x = ROW_HEADER_WIDTH + geo.x(pos.col, vp.scrollLeft)
        const y = COLUMN_HEADER_HEIGHT + geo.y(pos.row, vp.scrollTop)
        const width = geo.cols.width(pos.col)
        const height = geo.rows.width(pos.row)
        if (x + width < ROW_HEADER_WIDTH || y + height < COLUMN_HEADER_HEIGHT) return null
        if (x * z > size.current.width || y * z > size.current.height) return null
        return { x: x * z, y: y * z, width: width * z, height: height * z }
      },
      scrollTo(left, top) {
        const scroller = scrollerRef.current
        if (!scroller) return
        scroller.scrollLeft = left
        scroller.scrollTop = top
        draw()
      },
      geometry: currentGeometry,
      get element() {
        return rootRef.current
      },
    }),
    [currentGeometry, draw, viewport],
  )

  const contentWidth = (ROW_HEADER_WIDTH + geometry.cols.totalWidth) * zoom
  const contentHeight = (COLUMN_HEADER_HEIGHT + geometry.rows.totalWidth) * zoom

  return (
    <div
      ref={rootRef}
      className="grid-root"
      role="grid"
      aria-label={props.ariaLabel}
      aria-rowcount={props.source.rowCount}
      aria-colcount={props.source.columnCount}
      data-zoom={Math.round(zoom * 100)}
      aria-multiselectable="true"
    >
      <canvas ref={canvasRef} className="grid-canvas" aria-hidden="true" />
      <div
        ref={scrollerRef}
        className="grid-scroller"
        style={{ cursor }}
        onScroll={requestDraw}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endInteraction}
        onPointerCancel={endInteraction}
        onPointerLeave={() => propsRef.current.onHover?.(null)}
        onDoubleClick={onDoubleClick}
        onContextMenu={(e) => {
          e.preventDefault()
          propsRef.current.onContextMenu?.(hitTest(e.clientX, e.clientY), e.clientX, e.clientY)
        }}
      >
        <div style={{ width: contentWidth, height: contentHeight }} />
      </div>
      {props.floats && props.floats.length > 0 && (
        <div ref={floatClipRef} className="grid-float-clip">
          {props.floats.map((float) => (
            <div
              key={float.key}
              className="grid-float"
              // the wheel over a chart scrolls the cells under it, as everywhere else on the sheet
              onWheel={(event) => {
                const scroller = scrollerRef.current
                if (!scroller || event.ctrlKey) return
                scroller.scrollLeft += event.deltaX
                scroller.scrollTop += event.deltaY
              }}
              ref={(element) => {
                if (element) floatRefs.current.set(float.key, element)
                else floatRefs.current.delete(float.key)
              }}
            >
              {float.content}
            </div>
          ))}
        </div>
      )}
      <div ref={overlayClipRef} className="grid-overlay-clip">
        <div ref={overlayRef} className="grid-overlay" style={{ transformOrigin: '0 0' }}>
          {props.overlay}
        </div>
      </div>
    </div>
  )
}
