import type { ChartRecord } from '@finsheet/workbook/model'
import type { KeyboardEvent as ReactKeyboardEvent, PointerEvent as ReactPointerEvent } from 'react'
import { useEffect, useRef, useState } from 'react'
import type { GridFloat } from '../grid/Grid'
import type { FloatAnchor, FloatDrag } from '../grid/floats'
import { cornerPoint, draggedAnchor } from '../grid/floats'
import type { SheetGeometry } from '../grid/geometry'
import { toast } from '../toasts/toast-store'
import { ChartView } from '../visualizations/ChartView'
import type { WorkbookStore } from '../workbook/workbook-store'
import type { ChartDragPreview } from './sheet-charts'
import { chartChange, chartGeometry } from './sheet-charts'
import type { Workspace } from './workspace'
import './sheet-charts.css'

/** The room a chart's title and legend take inside its box. */
const TITLE_HEIGHT = 26
const LEGEND_HEIGHT = 24
const HANDLES: readonly Exclude<FloatDrag, 'move'>[] = ['nw', 'ne', 'sw', 'se']
const HANDLE_NAMES: Record<Exclude<FloatDrag, 'move'>, string> = { nw: 'top-left', ne: 'top-right', sw: 'bottom-left', se: 'bottom-right' }

interface Drag {
  id: string
  kind: FloatDrag
  startX: number
  startY: number
  anchor: FloatAnchor
  geometry: SheetGeometry
  zoom: number
}

/** Runs a chart change; one the workbook refuses says why. */
export function writeChart(workspace: Workspace, command: Parameters<Workspace['dispatch']>[0]): boolean {
  try {
    workspace.dispatch(command)
    return true
  } catch (error) {
    toast({ title: 'Chart', description: error instanceof Error ? error.message : String(error), variant: 'destructive' })
    return false
  }
}

/**
 * The charts of the active sheet as floats over the grid: each drawn from this browser's values (so
 * it follows an edit in the same frame as the cells), selected by a click, moved by dragging, resized
 * by its corner handles, removed with Delete; every change is one undoable command.
 */
export function useSheetChartFloats(workspace: Workspace, store: WorkbookStore | null, sheet: string): GridFloat[] {
  const { chartFocus, zoom } = workspace.state
  const [preview, setPreview] = useState<ChartDragPreview | null>(null)
  const drag = useRef<Drag | null>(null)
  const source = store?.sheet(sheet)?.source

  const geometryNow = (): SheetGeometry | null => (source ? chartGeometry(source) : null)

  // A chart just selected (a click, Insert → Chart's editor closed) takes the keyboard, for Delete and Ctrl+Z.
  useEffect(() => {
    if (!chartFocus || chartFocus.editing) return
    const element = document.querySelector<HTMLElement>(`[data-chart-id="${CSS.escape(chartFocus.id)}"]`)
    if (element && document.activeElement !== element) element.focus({ preventScroll: true })
  }, [chartFocus])

  const beginDrag = (chart: ChartRecord, kind: FloatDrag, event: ReactPointerEvent<HTMLElement>) => {
    if (event.button !== 0 || !chart.anchor) return
    const geometry = geometryNow()
    if (!geometry) return
    event.preventDefault()
    event.stopPropagation()
    event.currentTarget.setPointerCapture(event.pointerId)
    event.currentTarget.closest<HTMLElement>('.sheet-chart')?.focus({ preventScroll: true })
    drag.current = { id: chart.id, kind, startX: event.clientX, startY: event.clientY, anchor: chart.anchor, geometry, zoom }
    workspace.focusChart(chart.id, chartFocus?.id === chart.id && chartFocus.editing)
  }
  const moveDrag = (event: ReactPointerEvent<HTMLElement>) => {
    const current = drag.current
    if (!current) return
    const dx = (event.clientX - current.startX) / current.zoom
    const dy = (event.clientY - current.startY) / current.zoom
    setPreview({ id: current.id, anchor: draggedAnchor(current.geometry, current.anchor, current.kind, dx, dy) })
  }
  const endDrag = () => {
    const current = drag.current
    drag.current = null
    const shown = preview
    setPreview(null)
    if (!current || !shown || shown.id !== current.id) return
    const chart = store?.chartById(current.id)
    if (!chart || JSON.stringify(chart.anchor) === JSON.stringify(shown.anchor)) return
    writeChart(workspace, chartChange(sheet, chart, { anchor: shown.anchor }))
  }

  const onKey = (chart: ChartRecord, event: ReactKeyboardEvent<HTMLElement>) => {
    const ctrl = event.ctrlKey || event.metaKey
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault()
      if (writeChart(workspace, { type: 'set-chart', sheet, id: chart.id, chart: null })) {
        workspace.focusChart(null)
        workspace.focusGrid()
      }
    } else if (event.key === 'Escape') {
      event.preventDefault()
      workspace.focusChart(null)
      workspace.focusGrid()
    } else if (event.key === 'Enter') {
      event.preventDefault()
      workspace.focusChart(chart.id, true)
    } else if (ctrl && event.key.toLowerCase() === 'z' && !event.shiftKey) {
      event.preventDefault()
      workspace.undo()
    } else if (ctrl && (event.key.toLowerCase() === 'y' || (event.key.toLowerCase() === 'z' && event.shiftKey))) {
      event.preventDefault()
      workspace.redo()
    }
  }

  // Built on every render (each change of the workbook renders), so each chart reads the values just calculated.
  const charts = store?.chartsOn(sheet) ?? []
  const geometry = charts.length > 0 ? geometryNow() : null
  if (!geometry || !store) return []
  return charts.flatMap((chart): GridFloat[] => {
      const anchor = preview?.id === chart.id ? preview.anchor : chart.anchor
      if (!anchor) return []
      const from = cornerPoint(geometry, anchor.from)
      const to = cornerPoint(geometry, anchor.to)
      const selected = chartFocus?.id === chart.id
      return [
        {
          key: chart.id,
          anchor,
          content: (
            <div
              className={`sheet-chart${selected ? ' selected' : ''}`}
              tabIndex={0}
              role="group"
              aria-roledescription="chart"
              aria-label={`Chart ${chart.title}`}
              data-chart-id={chart.id}
              onBlur={(event) => {
                // the keyboard went elsewhere (the cells, the name box): the chart is no longer selected
                const next = event.relatedTarget
                if (next instanceof Node && event.currentTarget.contains(next)) return
                const focus = workspace.state.chartFocus
                if (focus?.id === chart.id && !focus.editing && !drag.current) workspace.focusChart(null)
              }}
              onPointerDown={(event) => beginDrag(chart, 'move', event)}
              onPointerMove={moveDrag}
              onPointerUp={endDrag}
              onPointerCancel={endDrag}
              onDoubleClick={() => workspace.focusChart(chart.id, true)}
              onKeyDown={(event) => onKey(chart, event)}
            >
              <div className="sheet-chart-title">{chart.title}</div>
              <ChartView
                type={chart.type}
                data={store.chartDataOf(chart)}
                title={chart.title}
                {...(chart.seriesKinds ? { seriesKinds: chart.seriesKinds } : {})}
                {...(chart.totals ? { totals: chart.totals } : {})}
                width={Math.max(60, to.x - from.x - 2)}
                height={Math.max(40, to.y - from.y - TITLE_HEIGHT - LEGEND_HEIGHT)}
              />
              {selected &&
                HANDLES.map((handle) => (
                  <span
                    key={handle}
                    className={`sheet-chart-handle ${handle}`}
                    role="button"
                    aria-label={`Resize from the ${HANDLE_NAMES[handle]} corner`}
                    data-handle={handle}
                    onPointerDown={(event) => beginDrag(chart, handle, event)}
                    onPointerMove={moveDrag}
                    onPointerUp={endDrag}
                    onPointerCancel={endDrag}
                  />
                ))}
            </div>
          ),
        },
      ]
    })
}
