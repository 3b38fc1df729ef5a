import type { ChangesetChart, ChartData } from '@finsheet/contracts'
import { useState } from 'react'
import { Tabs } from '../pages/Tabs'
import { ChartView } from '../visualizations/ChartView'

type ChartTab = 'visualization' | 'data'
const TABS: readonly { id: ChartTab; label: string }[] = [
  { id: 'visualization', label: 'Visualization' },
  { id: 'data', label: 'Data' },
]

/**
 * A chart an answer proposes: drawn from the workbook's cells (Visualization) beside the numbers it
 * draws (Data). Applying the changeset places it on the sheet.
 */
export function ChartPreview({ chart, data, placed }: { chart: ChangesetChart; data: ChartData | null; placed: boolean }) {
  const [tab, setTab] = useState<ChartTab>('visualization')
  return (
    <section className="assistant-chart" aria-label={`Chart: ${chart.title}`}>
      <h4>
        {chart.title} <span className="assistant-chart-range">({chart.sheet}!{chart.range})</span>
      </h4>
      {data ? (
        <Tabs<ChartTab> label={`${chart.title} views`} tabs={TABS} selected={tab} onSelect={(id) => setTab(id)}>
          {tab === 'visualization' ? (
            <ChartView type={chart.type} data={data} title={chart.title} />
          ) : (
            <table className="assistant-chart-data" aria-label={`${chart.title} data`}>
              <thead>
                <tr>
                  <th scope="col" />
                  {data.series.map((series) => (
                    <th key={series.name} scope="col">
                      {series.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.labels.map((label, row) => (
                  <tr key={`${label}-${row}`}>
                    <th scope="row">{label}</th>
                    {data.series.map((series) => (
                      <td key={series.name}>{series.values[row] ?? ''}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Tabs>
      ) : (
        <p className="changeset-more">Open its workbook to see the chart.</p>
      )}
      <p className="changeset-more">{placed ? `Placed on ${chart.sheet}: it is listed under Visualizations.` : 'Apply to place it on the sheet.'}</p>
    </section>
  )
}
