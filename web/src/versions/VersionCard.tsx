import type { VersionRecord } from '@finsheet/contracts'
import { Clock, FileSpreadsheet, RotateCcw, Sparkles, User } from 'lucide-react'
import { relativeTime, TYPE_BADGES } from './version-view'

interface VersionCardProps {
  version: VersionRecord
  summary: string
  now: number
  selectedForCompare: boolean
  restoring: boolean
  onViewChanges(): void
  onRestore(): void
  onToggleCompare(): void
}

/** A timeline card (spec 1 §2): file name, badges, author, relative time, changes, AI Summary, tags. */
export function VersionCard({ version, summary, now, selectedForCompare, restoring, onViewChanges, onRestore, onToggleCompare }: VersionCardProps) {
  const current = version.status === 'current'
  const title = `${version.fileName}, version ${version.number}`
  return (
    <article className={`card version-card ${current ? 'is-current' : ''}`} aria-label={title}>
      <header className="version-card-header">
        <FileSpreadsheet size={18} aria-hidden="true" className="sheet-icon" />
        <h3>{version.fileName}</h3>
        <span className="version-number">v{version.number}</span>
        {current && <span className="badge current">Current Version</span>}
        <span className={`badge type-${version.type}`}>{TYPE_BADGES[version.type]}</span>
        <label className="compare-toggle">
          <input type="checkbox" checked={selectedForCompare} onChange={onToggleCompare} aria-label={`Compare ${title}`} />
          Compare
        </label>
      </header>
      <p className="version-meta">
        <span>
          <User size={14} aria-hidden="true" /> {version.author}
        </span>
        <span title={new Date(version.timestamp).toLocaleString('en-US')}>
          <Clock size={14} aria-hidden="true" /> {relativeTime(version.timestamp, now)}
        </span>
      </p>
      <p className="version-changes">{version.changes}</p>
      <div className="ai-summary">
        <p className="ai-summary-title">
          <Sparkles size={14} aria-hidden="true" /> AI Summary
        </p>
        <p>{summary}</p>
      </div>
      <footer className="version-card-footer">
        {version.tags.length > 0 && (
          <ul className="tag-list" aria-label="Tags">
            {version.tags.map((tag) => (
              <li key={tag} className="tag">
                {tag}
              </li>
            ))}
          </ul>
        )}
        <div className="version-actions">
          <button type="button" className="button small" onClick={onViewChanges} aria-label={`View Changes of ${title}`}>
            View Changes
          </button>
          {!current && (
            <button type="button" className="button small" onClick={onRestore} disabled={restoring} aria-label={`Restore ${title}`}>
              <RotateCcw size={14} aria-hidden="true" /> {restoring ? 'Restoring…' : 'Restore'}
            </button>
          )}
        </div>
      </footer>
    </article>
  )
}
