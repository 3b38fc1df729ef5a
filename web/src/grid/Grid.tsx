import type { MouseEvent as ReactMouseEvent, PointerEvent as ReactPointerEvent, ReactNode, Ref } from 'react'
import { useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { CellPosition, CellRange } from './address'
import { fillTargetRange } from './fill'
import type { Viewport } from './geometry'
import {
  COLUMN_HEADER_HEIGHT,
  ColumnLayout,
  DEFAULT_COLUMN_WIDTH,
  HORIZONTAL_WHEEL_FACTOR,
  MIN_COLUMN_WIDTH,
  ROW_HEADER_WIDTH,
  ROW_HEIGHT,
  scrollToReveal,
} from './geometry'
import type { GridScene } from './render'
import { drawGrid } from './render'
import type { DrawStats, GridDataSource, RangeHighlight } from './types'

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
  readonly element: HTMLDivElement | null
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
  /** the editor and the keyboard focus target, placed over the active cell */
  overlay: ReactNode
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

const RESIZE_GRAB = 4
const FILL_HANDLE_GRAB = 6
const AUTO_SCROLL_STEP = 0.4

export function Grid(props: GridProps) {
  const rootRef = useRef<HTMLDivElement>(null)
  const scrollerRef = useRef<HTMLDivElement>(null)
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const overlayRef = useRef<HTMLDivElement>(null)
  const overlayClipRef = useRef<HTMLDivElement>(null)
  const propsRef = useRef(props)
  propsRef.current = props
  const interaction = useRef<Interaction>({ kind: 'none' })
  const pointer = useRef<{ x: number; y: number } | null>(null)
  const frame = useRef(0)
  const size = useRef({ width: 0, height: 0, dpr: 1 })
  const dashOffset = useRef(0)
  const [cursor, setCursor] = useState('cell')

  const layout = useMemo(
    () => new ColumnLayout(props.source.columnCount, props.source.columnWidths, DEFAULT_COLUMN_WIDTH),
    [props.source, props.source.columnCount, props.source.columnWidths, props.revision],
  )
  const layoutRef = useRef(layout)
  layoutRef.current = layout

  const currentLayout = useCallback((): ColumnLayout => {
    const act = interaction.current
    if (act.kind !== 'resize') return layoutRef.current
    const widths = new Map(propsRef.current.source.columnWidths)
    widths.set(act.col, act.width)
    return new ColumnLayout(propsRef.current.source.columnCount, widths, DEFAULT_COLUMN_WIDTH)
  }, [])

  const viewport = useCallback((): Viewport => {
    const scroller = scrollerRef.current
    return {
      scrollLeft: scroller?.scrollLeft ?? 0,
      scrollTop: scroller?.scrollTop ?? 0,
      width: Math.max(0, size.current.width - ROW_HEADER_WIDTH),
      height: Math.max(0, size.current.height - COLUMN_HEADER_HEIGHT),
    }
  }, [])

  const draw = useCallback(() => {
    frame.current = 0
    const canvas = canvasRef.current
    const ctx = canvas?.getContext('2d', { alpha: false })
    if (!canvas || !ctx || size.current.width === 0) return
    const p = propsRef.current
    const lay = currentLayout()
    const act = interaction.current
    const scene: GridScene = {
      source: p.source,
      layout: lay,
      viewport: viewport(),
      canvasWidth: size.current.width,
      canvasHeight: size.current.height,
      selection: p.selection,
      active: p.active,
      editing: p.editing,
      highlights: p.highlights ?? [],
      copyRange: p.copyRange ?? null,
      fillPreview: act.kind === 'fill' ? act.target : null,
      dashOffset: dashOffset.current,
    }
    ctx.setTransform(size.current.dpr, 0, 0, size.current.dpr, 0, 0)
    const stats = drawGrid(ctx, scene)
    placeOverlay(lay)
    p.onDraw?.(stats)
  }, [currentLayout, viewport])

  const requestDraw = useCallback(() => {
    if (!frame.current) frame.current = requestAnimationFrame(draw)
  }, [draw])

  /** keeps the editor over the active cell, moved with the same scroll offsets the frame used */
  function placeOverlay(lay: ColumnLayout) {
    const overlay = overlayRef.current
    if (!overlay) return
    const { active, source } = propsRef.current
    const merge = source.merges?.at(active)
    const vp = viewport()
    const x = lay.offset(active.col) - vp.scrollLeft
    const y = active.row * ROW_HEIGHT - vp.scrollTop
    const width = merge ? lay.offset(merge.endCol + 1) - lay.offset(merge.startCol) : lay.width(active.col)
    const height = merge ? (merge.endRow - merge.startRow + 1) * ROW_HEIGHT : ROW_HEIGHT
    overlay.style.transform = `translate(${x}px, ${y}px)`
    overlay.style.minWidth = `${width}px`
    overlay.style.height = `${height}px`
  }

  // size the canvas to the element, at the device's pixel ratio
  useLayoutEffect(() => {
    const root = rootRef.current
    const scroller = scrollerRef.current
    const canvas = canvasRef.current
    if (!root || !scroller || !canvas) return
    const resize = () => {
      const dpr = window.devicePixelRatio || 1
      const width = scroller.clientWidth
      const height = scroller.clientHeight
      size.current = { width, height, dpr }
      canvas.width = Math.round(width * dpr)
      canvas.height = Math.round(height * dpr)
      canvas.style.width = `${width}px`
      canvas.style.height = `${height}px`
      const clip = overlayClipRef.current
      if (clip) {
        clip.style.width = `${Math.max(0, width - ROW_HEADER_WIDTH)}px`
        clip.style.height = `${Math.max(0, height - COLUMN_HEADER_HEIGHT)}px`
      }
      draw()
    }
    resize()
    const observer = new ResizeObserver(resize)
    observer.observe(root)
    return () => observer.disconnect()
  }, [draw])

  // every prop change repaints at once, so the first paint happens with the first render
  useLayoutEffect(() => {
    if (frame.current) cancelAnimationFrame(frame.current)
    draw()
  })

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
      const rect = scrollerRef.current!.getBoundingClientRect()
      const x = clientX - rect.left
      const y = clientY - rect.top
      const vp = viewport()
      const { source } = propsRef.current
      const lay = currentLayout()
      const col = lay.columnAt(x - ROW_HEADER_WIDTH + vp.scrollLeft)
      const row = Math.min(source.rowCount - 1, Math.max(0, Math.floor((y - COLUMN_HEADER_HEIGHT + vp.scrollTop) / ROW_HEIGHT)))
      if (x < ROW_HEADER_WIDTH && y < COLUMN_HEADER_HEIGHT) return { kind: 'corner' }
      if (y < COLUMN_HEADER_HEIGHT) return { kind: 'column', col }
      if (x < ROW_HEADER_WIDTH) return { kind: 'row', row }
      return { kind: 'cell', pos: { col, row } }
    },
    [currentLayout, viewport],
  )

  /** the column whose right border is under the pointer in the header, for resizing */
  const resizeEdgeAt = useCallback(
    (clientX: number, clientY: number): number | null => {
      const rect = scrollerRef.current!.getBoundingClientRect()
      const x = clientX - rect.left
      const y = clientY - rect.top
      if (y >= COLUMN_HEADER_HEIGHT || x < ROW_HEADER_WIDTH) return null
      const lay = currentLayout()
      const sheetX = x - ROW_HEADER_WIDTH + viewport().scrollLeft
      const col = lay.columnAt(sheetX)
      const left = lay.offset(col)
      const right = left + lay.width(col)
      if (right - sheetX <= RESIZE_GRAB) return col
      if (sheetX - left <= RESIZE_GRAB && col > 0) return col - 1
      return null
    },
    [currentLayout, viewport],
  )

  const onFillHandle = useCallback(
    (clientX: number, clientY: number): boolean => {
      if (propsRef.current.editing) return false
      const rect = scrollerRef.current!.getBoundingClientRect()
      const vp = viewport()
      const lay = currentLayout()
      const { selection } = propsRef.current
      const hx = rect.left + ROW_HEADER_WIDTH + lay.offset(selection.endCol + 1) - vp.scrollLeft
      const hy = rect.top + COLUMN_HEADER_HEIGHT + (selection.endRow + 1) * ROW_HEIGHT - vp.scrollTop
      return Math.abs(clientX - hx) <= FILL_HANDLE_GRAB && Math.abs(clientY - hy) <= FILL_HANDLE_GRAB
    },
    [currentLayout, viewport],
  )

  // keeps a drag going when the pointer leaves the cell area: scroll towards it every frame
  const autoScroll = useRef(0)
  const runAutoScroll = useCallback(() => {
    autoScroll.current = 0
    const scroller = scrollerRef.current
    const at = pointer.current
    if (!scroller || !at || interaction.current.kind === 'none' || interaction.current.kind === 'resize') return
    const rect = scroller.getBoundingClientRect()
    let dx = 0
    let dy = 0
    if (at.x < rect.left + ROW_HEADER_WIDTH) dx = at.x - (rect.left + ROW_HEADER_WIDTH)
    else if (at.x > rect.left + scroller.clientWidth) dx = at.x - (rect.left + scroller.clientWidth)
    if (at.y < rect.top + COLUMN_HEADER_HEIGHT) dy = at.y - (rect.top + COLUMN_HEADER_HEIGHT)
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
    const x = Math.min(Math.max(clientX, rect.left + ROW_HEADER_WIDTH + 1), rect.left + scrollerRef.current!.clientWidth - 1)
    const y = Math.min(Math.max(clientY, rect.top + COLUMN_HEADER_HEIGHT + 1), rect.top + scrollerRef.current!.clientHeight - 1)
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
    const resizeCol = resizeEdgeAt(event.clientX, event.clientY)
    scroller.setPointerCapture(event.pointerId)
    pointer.current = { x: event.clientX, y: event.clientY }
    if (resizeCol !== null) {
      event.preventDefault()
      const width = currentLayout().width(resizeCol)
      interaction.current = { kind: 'resize', col: resizeCol, startX: event.clientX, startWidth: width, width }
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
      const next = resizeEdgeAt(event.clientX, event.clientY) !== null ? 'col-resize' : onFillHandle(event.clientX, event.clientY) ? 'crosshair' : 'cell'
      if (next !== cursor) setCursor(next)
      return
    }
    if (act.kind === 'resize') {
      act.width = Math.max(MIN_COLUMN_WIDTH, Math.round(act.startWidth + event.clientX - act.startX))
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
        const next = scrollToReveal(viewport(), currentLayout(), pos.col, pos.row, ROW_HEIGHT)
        if (next.scrollLeft !== scroller.scrollLeft || next.scrollTop !== scroller.scrollTop) {
          scroller.scrollLeft = next.scrollLeft
          scroller.scrollTop = next.scrollTop
          draw()
        }
      },
      pageRows() {
        return Math.max(1, Math.floor(viewport().height / ROW_HEIGHT) - 1)
      },
      cellRect(pos) {
        const vp = viewport()
        const lay = currentLayout()
        const x = ROW_HEADER_WIDTH + lay.offset(pos.col) - vp.scrollLeft
        const y = COLUMN_HEADER_HEIGHT + pos.row * ROW_HEIGHT - vp.scrollTop
        if (x + lay.width(pos.col) < ROW_HEADER_WIDTH || y + ROW_HEIGHT < COLUMN_HEADER_HEIGHT) return null
        if (x > size.current.width || y > size.current.height) return null
        return { x, y, width: lay.width(pos.col), height: ROW_HEIGHT }
      },
      scrollTo(left, top) {
        const scroller = scrollerRef.current
        if (!scroller) return
        scroller.scrollLeft = left
        scroller.scrollTop = top
        draw()
      },
      get element() {
        return rootRef.current
      },
    }),
    [currentLayout, draw, viewport],
  )

  const contentWidth = ROW_HEADER_WIDTH + layout.totalWidth
  const contentHeight = COLUMN_HEADER_HEIGHT + props.source.rowCount * ROW_HEIGHT

  return (
    <div
      ref={rootRef}
      className="grid-root"
      role="grid"
      aria-label={props.ariaLabel}
      aria-rowcount={props.source.rowCount}
      aria-colcount={props.source.columnCount}
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
        onDoubleClick={onDoubleClick}
        onContextMenu={(e) => {
          e.preventDefault()
          propsRef.current.onContextMenu?.(hitTest(e.clientX, e.clientY), e.clientX, e.clientY)
        }}
      >
        <div style={{ width: contentWidth, height: contentHeight }} />
      </div>
      <div ref={overlayClipRef} className="grid-overlay-clip" style={{ left: ROW_HEADER_WIDTH, top: COLUMN_HEADER_HEIGHT }}>
        <div ref={overlayRef} className="grid-overlay">
          {props.overlay}
        </div>
      </div>
    </div>
  )
}
