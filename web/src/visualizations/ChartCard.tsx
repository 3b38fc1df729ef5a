import type { Chart } from '@finsheet/contracts'
import { Trash2 } from 'lucide-react'
import { ChartView } from './ChartView'

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })

/** A saved chart with where its data comes from. */
export function ChartCard({ chart, onDelete }: { chart: Chart; onDelete?(): void }) {
  return (
    <article className="card chart-card" aria-label={chart.title}>
      <header className="chart-card-header">
        <div>
          <h3>{chart.title}</h3>
          <p className="muted">
            {chart.type[0].toUpperCase() + chart.type.slice(1)} · {chart.sheet}!{chart.dataRange} · {dateFormat.format(new Date(chart.createdAt))}
          </p>
        </div>
        {onDelete && (
          <button type="button" className="icon-button small-icon" onClick={onDelete} aria-label={`Delete chart ${chart.title}`} title="Delete chart">
            <Trash2 size={16} aria-hidden="true" />
          </button>
        )}
      </header>
      <ChartView type={chart.type} data={chart.data} title={chart.title} {...(chart.seriesKinds ? { seriesKinds: chart.seriesKinds } : {})} {...(chart.totals ? { totals: chart.totals } : {})} />
    </article>
  )
}
