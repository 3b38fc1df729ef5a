import { FileSpreadsheet } from 'lucide-react'

interface ByWorkbookPanelProps {
  workbooks: readonly { id: string; name: string; count: number }[]
  /** the workbook name the timeline is filtered to */
  selected: string | null
  onToggle(name: string): void
  /** opens the workbook on the spreadsheet screen */
  onOpen(id: string, name: string): void
}

/** By Workbook: each workbook with its count of tracked versions, and the View Versions / Show All toggle. */
export function ByWorkbookPanel({ workbooks, selected, onToggle, onOpen }: ByWorkbookPanelProps) {
  if (workbooks.length === 0) return <p className="empty-state">No workbooks yet. Versions appear here once you create, import or edit a workbook.</p>
  return (
    <ul className="workbook-list">
      {workbooks.map((workbook) => {
        const active = selected === workbook.name
        return (
          <li key={workbook.id} className={`card workbook-row ${active ? 'selected' : ''}`}>
            <FileSpreadsheet size={20} aria-hidden="true" className="sheet-icon" />
            <div className="workbook-row-text">
              <h3>{workbook.name}</h3>
              <p className="muted">
                {workbook.count} {workbook.count === 1 ? 'version' : 'versions'} tracked
              </p>
            </div>
            <button type="button" className="button small" onClick={() => onOpen(workbook.id, workbook.name)} aria-label={`Open ${workbook.name}`}>
              Open
            </button>
            <button type="button" className={`button small ${active ? 'primary' : ''}`} onClick={() => onToggle(workbook.name)} aria-label={`${active ? 'Show All' : 'View Versions'} of ${workbook.name}`}>
              {active ? 'Show All' : 'View Versions'}
            </button>
          </li>
        )
      })}
    </ul>
  )
}
