import type { CompareVersionsResponse } from '@finsheet/contracts'
import { comparisonHeadline, sheetDiffs } from './version-view'

const STATUS_LABELS = { added: 'Added', removed: 'Removed', changed: 'Changed' } as const

/** Two versions side by side, cell by cell: what each differing cell held before and after. */
export function DiffTable({ comparison, beforeLabel, afterLabel }: { comparison: CompareVersionsResponse; beforeLabel: string; afterLabel: string }) {
  const sheets = sheetDiffs(comparison)
  return (
    <div className="diff">
      <p className="diff-headline">{comparisonHeadline(comparison)}</p>
      {comparison.truncated && <p className="muted diff-note">Only the first {comparison.cells.length.toLocaleString('en-US')} differing cells are listed.</p>}
      {sheets.map(({ sheet, rows }) => (
        <section key={sheet} className="diff-sheet">
          <h3>{sheet}</h3>
          <table className="data-table diff-table" aria-label={`Differences on ${sheet}`}>
            <thead>
              <tr>
                <th scope="col">Cell</th>
                <th scope="col">{beforeLabel}</th>
                <th scope="col">{afterLabel}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.address} className={`diff-${row.status} ${row.edited ? 'edited' : 'recalculated'}`}>
                  <th scope="row">
                    {row.address}
                    <span className="diff-status">{row.edited ? STATUS_LABELS[row.status] : 'Recalculated'}</span>
                  </th>
                  <td className="diff-before">{row.before}</td>
                  <td className="diff-after">{row.after}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  )
}
