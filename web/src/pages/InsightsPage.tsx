import { Link } from '@tanstack/react-router'
import { AlertOctagon, FileSpreadsheet, FunctionSquare, Hash, Layers, Table2 } from 'lucide-react'
import type { ReactNode } from 'react'
import { useState } from 'react'
import { useSession } from '../app/app-context'
import { api } from '../app/services'
import { InsightSections } from '../insights/InsightSections'
import { loadInsights, MAX_ANALYSED_CELLS } from '../insights/insights-api'
import { listWorkbooks } from '../visualizations/charts-api'
import { LoadProblem } from './LoadProblem'
import { StatCard } from './StatCard'
import { useRemote } from './use-remote'
import { chosenWorkbookId } from './workbook-choice'
import { WorkbookPicker } from './WorkbookPicker'
import './screens.css'

function Figure({ icon, label, value, tone }: { icon: ReactNode; label: string; value: number; tone?: 'danger' }) {
  return <StatCard icon={icon} label={label} value={value.toLocaleString('en-US')} tone={tone} />
}

function WorkbookFindings({ workbookId, name }: { workbookId: string; name: string }) {
  const [insights, reload] = useRemote((signal) => loadInsights(api, workbookId, signal), [workbookId])
  if (insights.status === 'error') return <LoadProblem message="The workbook could not be read." onRetry={() => void reload()} />
  if (!insights.data || insights.status === 'loading')
    return (
      <p className="muted" role="status">
        Reading the workbook…
      </p>
    )
  const { figures } = insights.data
  return (
    <>
      <div className="stat-grid" role="group" aria-label={`Figures of ${name}`}>
        <Figure icon={<Table2 size={20} />} label="Cells with content" value={figures.cells} />
        <Figure icon={<FunctionSquare size={20} />} label="Formulas" value={figures.formulas} />
        <Figure icon={<Hash size={20} />} label="Typed numbers" value={figures.numbers} />
        <Figure icon={<AlertOctagon size={20} />} label="Cells showing errors" value={figures.errors} tone={figures.errors > 0 ? 'danger' : undefined} />
      </div>
      <InsightSections insights={insights.data} />
    </>
  )
}

/** Insights: figures, advice, anomalies and trends computed from the user's workbooks. */
export function InsightsPage() {
  const [session] = useSession()
  const [workbooks, reload] = useRemote((signal) => listWorkbooks(api, signal), [])
  const [chosen, setChosen] = useState<string | null>(null)
  const list = workbooks.data ?? []
  const workbookId = chosenWorkbookId(list, chosen, session.session?.activeWorkbook)
  const workbook = list.find((candidate) => candidate.id === workbookId)
  const totals = list.reduce((sum, w) => ({ sheets: sum.sheets + w.totalSheets, cells: sum.cells + w.totalCells, formulas: sum.formulas + w.totalFormulas }), { sheets: 0, cells: 0, formulas: 0 })

  return (
    <div className="page wide-page">
      <header className="page-header">
        <h1>Insights</h1>
        <p>What your workbooks hold, what looks wrong in them and how their figures move, computed from their cells.</p>
      </header>

      {workbooks.status === 'error' && <LoadProblem message="Your workbooks could not be loaded." onRetry={() => void reload()} />}

      <h2 className="section-title first">Across your workbooks</h2>
      <div className="stat-grid" role="group" aria-label="Across your workbooks">
        <Figure icon={<FileSpreadsheet size={20} />} label="Workbooks" value={list.length} />
        <Figure icon={<Layers size={20} />} label="Sheets" value={totals.sheets} />
        <Figure icon={<Table2 size={20} />} label="Cells" value={totals.cells} />
        <Figure icon={<FunctionSquare size={20} />} label="Formulas" value={totals.formulas} />
      </div>

      {workbooks.status === 'ready' && list.length === 0 ? (
        <p className="empty-state">
          No workbooks yet. <Link to="/models">Start from a template</Link> or <Link to="/files">upload a file</Link> to see insights.
        </p>
      ) : (
        workbook && (
          <>
            <div className="section-row">
              <h2 className="section-title">{workbook.name}</h2>
              <WorkbookPicker workbooks={list} value={workbookId} onChange={setChosen} />
            </div>
            {workbook.totalCells > MAX_ANALYSED_CELLS ? (
              <p className="empty-state">
                {workbook.name} has {workbook.totalCells.toLocaleString('en-US')} cells, more than the {MAX_ANALYSED_CELLS.toLocaleString('en-US')} this page reads in the browser.
              </p>
            ) : (
              <WorkbookFindings key={`${workbook.id}:${workbook.revision}`} workbookId={workbook.id} name={workbook.name} />
            )}
          </>
        )
      )}
    </div>
  )
}
