import type { ChartSeriesKind, ChartSpec, ChartType } from '@finsheet/contracts'
import { comboSeriesKind, isWaterfallTotal, type ChartRecord } from '@finsheet/workbook/model'
import { useEffect, useState } from 'react'
import { rangeAddress } from '../grid/address'
import { CHART_TYPES, checkDataRange } from '../visualizations/chart-form'
import type { WorkbookStore } from '../workbook/workbook-store'
import { writeChart } from './SheetCharts'
import { chartChange } from './sheet-charts'
import type { Workspace } from './workspace'

interface ChartEditorProps {
  workspace: Workspace
  store: WorkbookStore
  sheet: string
  chart: ChartRecord
  onClose(): void
}

/**
 * The chart editor beside the grid (Insert → Chart, a double click or Enter on a chart): its type,
 * title, data range and whether series are in rows or columns, the kind of each combo series and the
 * totals of a waterfall. Each change is written at once as one undoable command.
 */
export function ChartEditor({ workspace, store, sheet, chart, onClose }: ChartEditorProps) {
  const [title, setTitle] = useState(chart.title)
  const [range, setRange] = useState(chart.dataRange)
  const [problem, setProblem] = useState<string | null>(null)
  // The fields follow the chart when an undo or another edit changes it.
  useEffect(() => setTitle(chart.title), [chart.title])
  useEffect(() => setRange(chart.dataRange), [chart.dataRange])

  const change = (patch: Partial<ChartSpec>) => writeChart(workspace, chartChange(sheet, chart, patch))
  const data = store.chartDataOf(chart)
  const commitTitle = () => {
    if (title.trim() !== chart.title) change({ title: title.trim() })
  }
  const commitRange = () => {
    const checked = checkDataRange(range)
    if (!checked.ok) return setProblem(checked.message)
    if (checked.sheet !== null && checked.sheet.toUpperCase() !== sheet.toUpperCase()) return setProblem(`The range must be on ${sheet}, the chart's sheet.`)
    setProblem(null)
    const dataRange = rangeAddress(checked.range)
    if (dataRange !== chart.dataRange) change({ dataRange })
  }
  const setKind = (index: number, kind: ChartSeriesKind) => {
    const kinds = data.series.map((_, i) => (i === index ? kind : comboSeriesKind(chart.seriesKinds, i)))
    change({ seriesKinds: kinds })
  }
  const setTotal = (index: number, total: boolean) => {
    const flags = new Set(chart.totals ?? [])
    if (total) flags.add(index)
    else flags.delete(index)
    change({ totals: [...flags].sort((a, b) => a - b) })
  }

  return (
    <aside className="chart-editor" aria-label="Chart editor">
      <h2>
        Chart editor
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </h2>
      <label htmlFor="chart-editor-type">Chart type</label>
      <select id="chart-editor-type" value={chart.type} onChange={(event) => change({ type: event.target.value as ChartType })}>
        {CHART_TYPES.map((option) => (
          <option key={option.type} value={option.type}>
            {option.label}
          </option>
        ))}
      </select>
      <label htmlFor="chart-editor-title">Title</label>
      <input
        id="chart-editor-title"
        type="text"
        value={title}
        maxLength={200}
        onChange={(event) => setTitle(event.target.value)}
        onBlur={commitTitle}
        onKeyDown={(event) => event.key === 'Enter' && commitTitle()}
      />
      <label htmlFor="chart-editor-range">Data range</label>
      <input
        id="chart-editor-range"
        type="text"
        value={range}
        aria-invalid={problem !== null}
        aria-describedby={problem ? 'chart-editor-problem' : undefined}
        onChange={(event) => {
          setRange(event.target.value)
          setProblem(null)
        }}
        onBlur={commitRange}
        onKeyDown={(event) => event.key === 'Enter' && commitRange()}
      />
      {problem && (
        <p id="chart-editor-problem" role="alert" className="chart-editor-problem">
          {problem}
        </p>
      )}
      <label htmlFor="chart-editor-series">Series in</label>
      <select id="chart-editor-series" value={chart.seriesInColumns ? 'columns' : 'rows'} onChange={(event) => change({ seriesInColumns: event.target.value === 'columns' })}>
        <option value="columns">Columns</option>
        <option value="rows">Rows</option>
      </select>
      {chart.type === 'combo' && data.series.length > 0 && (
        <fieldset>
          <legend>Series drawn as (lines read the right axis)</legend>
          {data.series.map((series, index) => (
            <label key={index}>
              <span>{series.name}</span>
              <select aria-label={`${series.name} drawn as`} value={comboSeriesKind(chart.seriesKinds, index)} onChange={(event) => setKind(index, event.target.value as ChartSeriesKind)}>
                <option value="bar">Bars</option>
                <option value="line">Line</option>
              </select>
            </label>
          ))}
        </fieldset>
      )}
      {chart.type === 'waterfall' && data.labels.length > 0 && (
        <fieldset>
          <legend>Totals (from zero)</legend>
          {data.labels.map((label, index) => {
            const always = isWaterfallTotal(label, index, data.labels.length)
            return (
              <label key={index}>
                <input type="checkbox" checked={always || (chart.totals ?? []).includes(index)} disabled={always} onChange={(event) => setTotal(index, event.target.checked)} />
                {label}
              </label>
            )
          })}
        </fieldset>
      )}
      <div className="chart-editor-actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            if (writeChart(workspace, { type: 'set-chart', sheet, id: chart.id, chart: null })) onClose()
          }}
        >
          Delete chart
        </button>
      </div>
    </aside>
  )
}
