import { AlertTriangle, Lightbulb, ListOrdered, TrendingDown, TrendingUp, Unlink } from 'lucide-react'
import type { ReactNode } from 'react'
import { formatChartNumber } from '@finsheet/workbook/model'
import type { CellRef, WorkbookInsights } from './workbook-insights'
import { cellName } from './workbook-insights'

function Section({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  return (
    <section className="card insight-section" aria-label={title}>
      <h2>
        {icon} {title}
      </h2>
      {children}
    </section>
  )
}

function Where({ cell }: { cell: CellRef }) {
  return (
    <span className="insight-where">
      <code>{cellName(cell)}</code>
      {cell.label && <span className="muted"> {cell.label}</span>}
    </span>
  )
}

function percent(value: number): string {
  return `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`
}

/** The findings of one workbook: advice, anomalies, trends and the numbers behind them. */
export function InsightSections({ insights }: { insights: WorkbookInsights }) {
  const { recommendations, errors, outliers, trends, largestInputs, unusedInputs, hardCoded } = insights
  return (
    <div className="insight-grid">
      <Section title="Recommendations" icon={<Lightbulb size={17} aria-hidden="true" />}>
        {recommendations.length === 0 ? (
          <p className="muted">This workbook is empty.</p>
        ) : (
          <ol className="recommendations">
            {recommendations.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ol>
        )}
        {insights.usesNames && <p className="muted insight-note">Formulas here use defined names; cells read only through a name may show as unused.</p>}
      </Section>

      <Section title="Anomalies" icon={<AlertTriangle size={17} aria-hidden="true" />}>
        {errors.length === 0 && outliers.length === 0 ? (
          <p className="muted">No cell shows an error, and no value stands out from its row.</p>
        ) : (
          <ul className="insight-list">
            {errors.map((error) => (
              <li key={cellName(error)}>
                <Where cell={error} /> shows <strong>{error.code}</strong>
                {error.source ? ' (the error starts here)' : ' (from a cell it reads)'}
                {error.formula && <code className="insight-formula">{error.formula}</code>}
              </li>
            ))}
            {outliers.map((outlier) => (
              <li key={cellName(outlier)}>
                <Where cell={outlier} /> is {formatChartNumber(outlier.value)}, where its row is around {formatChartNumber(outlier.median)}
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Trends" icon={<TrendingUp size={17} aria-hidden="true" />}>
        {trends.length === 0 ? (
          <p className="muted">No labelled row has three or more figures that move.</p>
        ) : (
          <ul className="insight-list">
            {trends.map((trend) => {
              const Icon = trend.change >= 0 ? TrendingUp : TrendingDown
              return (
                <li key={`${trend.sheet}!${trend.range}`}>
                  <Icon size={15} aria-hidden="true" className={trend.change >= 0 ? 'trend-up' : 'trend-down'} /> <strong>{trend.label}</strong>{' '}
                  <span className="muted">
                    ({trend.sheet}!{trend.range})
                  </span>{' '}
                  {formatChartNumber(trend.first)} → {formatChartNumber(trend.last)} over {trend.periods} periods
                  {trend.growth !== null && <>, {percent(trend.growth)} a period</>}
                </li>
              )
            })}
          </ul>
        )}
      </Section>

      <Section title="Largest inputs" icon={<ListOrdered size={17} aria-hidden="true" />}>
        {largestInputs.length === 0 ? (
          <p className="muted">No typed numbers.</p>
        ) : (
          <table className="insight-table">
            <tbody>
              {largestInputs.map((input) => (
                <tr key={cellName(input)}>
                  <td>
                    <Where cell={input} />
                  </td>
                  <td className="numeric">{input.display || formatChartNumber(input.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>

      <Section title="Numbers no formula reads" icon={<Unlink size={17} aria-hidden="true" />}>
        {unusedInputs.count === 0 ? (
          <p className="muted">Every typed number is read by a formula.</p>
        ) : (
          <>
            <p className="insight-count">{unusedInputs.count.toLocaleString('en-US')} in all</p>
            <ul className="insight-list">
              {unusedInputs.cells.map((cell) => (
                <li key={cellName(cell)}>
                  <Where cell={cell} /> {cell.display}
                </li>
              ))}
            </ul>
          </>
        )}
      </Section>

      <Section title="Numbers typed inside formulas" icon={<AlertTriangle size={17} aria-hidden="true" />}>
        {hardCoded.count === 0 ? (
          <p className="muted">No formula has a number typed into it.</p>
        ) : (
          <>
            <p className="insight-count">{hardCoded.count.toLocaleString('en-US')} formulas</p>
            <ul className="insight-list">
              {hardCoded.cells.map((cell) => (
                <li key={cellName(cell)}>
                  <Where cell={cell} /> <code className="insight-formula">{cell.formula}</code>
                </li>
              ))}
            </ul>
          </>
        )}
      </Section>
    </div>
  )
}
