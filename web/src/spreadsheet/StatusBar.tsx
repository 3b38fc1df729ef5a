import { MAX_ZOOM, MIN_ZOOM, ZOOM_STEP } from '../grid/geometry'

interface StatusBarProps {
  /** the selected cell or range, or null with no workbook */
  address: string | null
  mode: 'Ready' | 'Enter' | 'Edit' | 'Point'
  sheetIndex: number
  sheetCount: number
  summary: { sum: number; average: number; count: number; numbers: number } | null
  /** percent of a large sheet's rows loaded so far, while it streams in */
  loading?: number | null
  /** formula loops the workbook does not iterate, each as its cells; the first cell of each is shown */
  circular?: string[][]
  /** goes to a cell of a loop, as the name box would */
  onGoTo?(reference: string): void
  /** the grid's zoom (1 is 100%) and how to change it; without it the zoom shows 100% */
  zoom?: number
  onZoom?(zoom: number): void
  /** a filter's count of the rows it shows, 'N of M records found' */
  records?: string | null
}

const numberText = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 4 })

/** Spec 1 §2: the selected address or 'Ready', 'Sheet X of N', and the zoom (100% unless the user zoomed). */
export function StatusBar({ address, mode, sheetIndex, sheetCount, summary, loading, circular = [], onGoTo, zoom = 1, onZoom, records }: StatusBarProps) {
  const percent = Math.round(zoom * 100)
  const loops = circular.filter((cycle) => cycle.length > 0)
  return (
    <footer className="status-bar" aria-label="Status bar">
      <span className="status-address" data-testid="status-address">
        {address ?? 'Ready'}
      </span>
      {address && mode !== 'Ready' && <span className="status-mode">{mode}</span>}
      {loops.length > 0 && (
        // Excel's warning: cells in a loop are not calculated, they keep their last values.
        <button
          type="button"
          className="status-circular"
          title={`Formulas that read each other in a loop are not calculated: ${loops.map((cycle) => cycle.join(', ')).join('; ')}. Break the loop, or turn on iterative calculation.`}
          onClick={() => onGoTo?.(loops[0][0])}
        >
          Circular References: {loops.map((cycle) => cycle[0]).join(', ')}
        </button>
      )}
      {records && (
        <span className="status-records" role="status" data-testid="status-records">
          {records}
        </span>
      )}
      <span className="status-spacer" />
      {summary && summary.count > 0 && (
        <span className="status-summary" aria-live="polite">
          {summary.numbers > 0 && (
            <>
              <span>Sum: {numberText(summary.sum)}</span>
              <span>Average: {numberText(summary.average)}</span>
            </>
          )}
          <span>Count: {summary.count}</span>
        </span>
      )}
      {loading != null && (
        <span className="status-loading" role="status">
          Loading rows… {loading}%
        </span>
      )}
      {sheetCount > 0 && (
        <span className="status-sheet">
          Sheet {sheetIndex + 1} of {sheetCount}
        </span>
      )}
      {onZoom ? (
        <span className="status-zoom" role="group" aria-label="Zoom">
          <button type="button" className="status-zoom-step" aria-label="Zoom out" disabled={zoom <= MIN_ZOOM} onClick={() => onZoom(zoom - ZOOM_STEP)}>
            −
          </button>
          <input
            type="range"
            aria-label="Zoom level"
            min={MIN_ZOOM * 100}
            max={MAX_ZOOM * 100}
            step={ZOOM_STEP * 100}
            value={percent}
            onChange={(e) => onZoom(Number(e.target.value) / 100)}
          />
          <button type="button" className="status-zoom-step" aria-label="Zoom in" disabled={zoom >= MAX_ZOOM} onClick={() => onZoom(zoom + ZOOM_STEP)}>
            +
          </button>
          <button type="button" className="status-zoom-value" title="Reset the zoom to 100%" data-testid="zoom-value" onClick={() => onZoom(1)}>
            {percent}%
          </button>
        </span>
      ) : (
        <span className="status-zoom" aria-label="Zoom 100%">
          100%
        </span>
      )}
    </footer>
  )
}
