import type { Chart } from '@finsheet/contracts'
import { formatChartNumber, seriesStats } from '@finsheet/workbook/model'

function percent(value: number | null): string {
  return value === null ? '–' : `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`
}

/** Analytics: each series of each chart summed up — total, mean, range, change and growth per period. */
export function ChartAnalytics({ charts }: { charts: readonly Chart[] }) {
  return (
    <div className="analytics">
      {charts.map((chart) => (
        <section key={chart.id} className="card">
          <h3>{chart.title}</h3>
          <table className="data-table analytics-table">
            <thead>
              <tr>
                <th scope="col">Series</th>
                <th scope="col" className="numeric">
                  Values
                </th>
                <th scope="col" className="numeric">
                  Total
                </th>
                <th scope="col" className="numeric">
                  Average
                </th>
                <th scope="col" className="numeric">
                  Min
                </th>
                <th scope="col" className="numeric">
                  Max
                </th>
                <th scope="col" className="numeric">
                  First to last
                </th>
                <th scope="col" className="numeric">
                  Growth per period
                </th>
              </tr>
            </thead>
            <tbody>
              {seriesStats(chart.data).map((stats) => (
                <tr key={stats.name}>
                  <th scope="row">{stats.name}</th>
                  <td className="numeric">{stats.count}</td>
                  <td className="numeric">{formatChartNumber(stats.total)}</td>
                  <td className="numeric">{formatChartNumber(stats.mean)}</td>
                  <td className="numeric">{formatChartNumber(stats.min)}</td>
                  <td className="numeric">{formatChartNumber(stats.max)}</td>
                  <td className="numeric">{percent(stats.change)}</td>
                  <td className="numeric">{percent(stats.growthPerStep)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  )
}
