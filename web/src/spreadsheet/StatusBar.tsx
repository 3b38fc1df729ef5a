interface StatusBarProps {
  /** the selected cell or range, or null with no workbook */
  address: string | null
  mode: 'Ready' | 'Enter' | 'Edit' | 'Point'
  sheetIndex: number
  sheetCount: number
  summary: { sum: number; average: number; count: number; numbers: number } | null
  /** percent of a large sheet's rows loaded so far, while it streams in */
  loading?: number | null
}

const numberText = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 4 })

/** Spec 1 §2: the selected address or 'Ready', 'Sheet X of N', and the zoom at 100%. */
export function StatusBar({ address, mode, sheetIndex, sheetCount, summary, loading }: StatusBarProps) {
  return (
    <footer className="status-bar" aria-label="Status bar">
      <span className="status-address" data-testid="status-address">
        {address ?? 'Ready'}
      </span>
      {address && mode !== 'Ready' && <span className="status-mode">{mode}</span>}
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
      <span className="status-zoom" aria-label="Zoom 100%">
        100%
      </span>
    </footer>
  )
}
