import type { VersionRecord } from '@finsheet/contracts'
import { GitCompare } from 'lucide-react'
import { api } from '../app/services'
import { LoadProblem } from '../pages/LoadProblem'
import { useRemote } from '../pages/use-remote'
import { DiffTable } from './DiffTable'
import { comparisonPair } from './version-view'
import { compareVersions } from './versions-api'

function Comparison({ from, to }: { from: VersionRecord; to: VersionRecord }) {
  const [comparison, reload] = useRemote((signal) => compareVersions(api, from.workbookId, from.id, to.id, signal), [from.id, to.id])
  if (comparison.status === 'error') return <LoadProblem message="The versions could not be compared." onRetry={() => void reload()} />
  if (!comparison.data)
    return (
      <p className="muted" role="status">
        Comparing versions…
      </p>
    )
  return <DiffTable comparison={comparison.data} beforeLabel={`Version ${from.number}`} afterLabel={`Version ${to.number}`} />
}

interface ComparePanelProps {
  selected: readonly VersionRecord[]
  onChoose(): void
  onClear(): void
}

/** Compare Versions: the two versions chosen on the timeline, side by side. */
export function ComparePanel({ selected, onChoose, onClear }: ComparePanelProps) {
  const pair = comparisonPair(selected)
  if (!pair) {
    return (
      <div className="card compare-placeholder">
        <GitCompare size={36} aria-hidden="true" />
        <h2>Version Comparison</h2>
        <p>Select two versions from the timeline to compare changes side-by-side</p>
        {selected.length === 2 && <p className="alert error">The two versions chosen belong to different workbooks. Choose two versions of one workbook.</p>}
        {selected.length === 1 && (
          <p className="muted">
            Chosen: {selected[0].fileName}, version {selected[0].number}. Choose one more.
          </p>
        )}
        <button type="button" className="button primary" onClick={onChoose}>
          Choose Versions
        </button>
      </div>
    )
  }
  return (
    <div className="card compare-result">
      <header className="compare-header">
        <h2>
          {pair.from.fileName}: version {pair.from.number} → version {pair.to.number}
        </h2>
        <button type="button" className="button small" onClick={onClear}>
          Clear Selection
        </button>
      </header>
      <Comparison from={pair.from} to={pair.to} />
    </div>
  )
}
