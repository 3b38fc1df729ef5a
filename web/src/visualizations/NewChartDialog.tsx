import type { Chart, ChartType } from '@finsheet/contracts'
import { TriangleAlert } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { api } from '../app/services'
import { errorText } from '../pages/error-text'
import { Dialog } from '../ui/Dialog'
import { CHART_TYPES, checkDataRange } from './chart-form'
import { seriesInColumnsFor } from '@finsheet/workbook/model'
import { createChart, loadSheetNames, sheetUsedRange } from './charts-api'

interface NewChartDialogProps {
  /** the workbook the chart is drawn from, or null when the dialog is closed */
  workbook: { id: string; name: string } | null
  initialType: ChartType
  onClose(): void
  onCreated(chart: Chart): void
}

type Orientation = 'auto' | 'columns' | 'rows'

/** New Chart: a type, a sheet and a range of the workbook, stored by the spreadsheet service. */
export function NewChartDialog({ workbook, initialType, onClose, onCreated }: NewChartDialogProps) {
  const [type, setType] = useState<ChartType>(initialType)
  const [sheets, setSheets] = useState<string[]>([])
  const [sheet, setSheet] = useState('')
  const [range, setRange] = useState('')
  /** the user typed a range: the used block no longer replaces it */
  const [rangeTyped, setRangeTyped] = useState(false)
  const rangeInput = useRef<HTMLInputElement>(null)
  const [title, setTitle] = useState('')
  const [orientation, setOrientation] = useState<Orientation>('auto')
  const [problem, setProblem] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const workbookId = workbook?.id ?? null

  useEffect(() => {
    if (!workbookId) return
    setType(initialType)
    setTitle('')
    setRange('')
    setRangeTyped(false)
    setProblem(null)
    setOrientation('auto')
    const controller = new AbortController()
    loadSheetNames(api, workbookId, controller.signal)
      .then((names) => {
        setSheets(names)
        setSheet((current) => (names.includes(current) ? current : (names[0] ?? '')))
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setProblem(`The sheets could not be read: ${errorText(error)}`)
      })
    return () => controller.abort()
  }, [workbookId, initialType])

  // start from the used block of the chosen sheet
  useEffect(() => {
    if (!workbookId || !sheet || rangeTyped) return
    const controller = new AbortController()
    sheetUsedRange(api, workbookId, sheet, controller.signal)
      .then((used) => {
        // not under the user's caret: typing that began before the answer came stays as typed
        if (!controller.signal.aborted && document.activeElement !== rangeInput.current) setRange(used)
      })
      .catch(() => undefined)
    return () => controller.abort()
  }, [workbookId, sheet, rangeTyped])

  const submit = async () => {
    if (!workbookId) return
    const check = checkDataRange(range)
    if (!check.ok) return setProblem(check.message)
    const width = check.range.endCol - check.range.startCol + 1
    const height = check.range.endRow - check.range.startRow + 1
    const seriesInColumns = orientation === 'auto' ? seriesInColumnsFor({ width, height }) : orientation === 'columns'
    setSaving(true)
    setProblem(null)
    try {
      const chart = await createChart(api, { workbookId, type, dataRange: range.trim(), sheetName: check.sheet ? undefined : sheet, title: title.trim() || undefined, seriesInColumns })
      onCreated(chart)
    } catch (error) {
      setProblem(errorText(error, 'The chart could not be created'))
    } finally {
      setSaving(false)
    }
  }

  return (
    <Dialog
      open={workbook !== null}
      title="New Chart"
      onClose={onClose}
      width={520}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button primary" onClick={() => void submit()} disabled={saving}>
            {saving ? 'Creating…' : 'Create Chart'}
          </button>
        </>
      }
    >
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault()
          void submit()
        }}
      >
        <p className="muted">From {workbook?.name}</p>
        <fieldset className="chart-type-picker">
          <legend>Chart type</legend>
          {CHART_TYPES.map((option) => (
            <label key={option.type} className={`chip ${type === option.type ? 'selected' : ''}`}>
              <input type="radio" name="chart-type" value={option.type} checked={type === option.type} onChange={() => setType(option.type)} className="visually-hidden" />
              {option.label}
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>Sheet</span>
          <select
            value={sheet}
            onChange={(e) => {
              setSheet(e.target.value)
              setRangeTyped(false)
            }}
          >
            {sheets.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Data range</span>
          <input
            ref={rangeInput}
            value={range}
            onChange={(e) => {
              setRange(e.target.value)
              setRangeTyped(true)
            }}
            placeholder="A1:F6"
            spellCheck={false}
          />
        </label>
        <label className="field">
          <span>Series in</span>
          <select value={orientation} onChange={(e) => setOrientation(e.target.value as Orientation)}>
            <option value="auto">Rows or columns, by the range's shape</option>
            <option value="rows">Rows (periods across the columns)</option>
            <option value="columns">Columns (categories down the rows)</option>
          </select>
        </label>
        <label className="field">
          <span>Title</span>
          <input value={title} onChange={(e) => setTitle(e.target.value)} placeholder="The sheet and range when left empty" />
        </label>
        {problem && (
          <p role="alert" className="alert error">
            <TriangleAlert size={16} aria-hidden="true" /> {problem}
          </p>
        )}
        <button type="submit" hidden />
      </form>
    </Dialog>
  )
}
