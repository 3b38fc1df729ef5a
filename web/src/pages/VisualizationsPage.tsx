import type { Chart, ChartType } from '@finsheet/contracts'
import { Link } from '@tanstack/react-router'
import { BarChart3, ChartColumnDecreasing, ChartNoAxesCombined, LayoutDashboard, LineChart, PieChart, Plus, TrendingUp } from 'lucide-react'
import { useState } from 'react'
import { useSession } from '../app/app-context'
import { api } from '../app/services'
import { toast } from '../toasts/toast-store'
import { ChartAnalytics } from '../visualizations/ChartAnalytics'
import { ChartCard } from '../visualizations/ChartCard'
import { CHART_TYPES } from '../visualizations/chart-form'
import { deleteChart, listWorkbooks, loadCharts } from '../visualizations/charts-api'
import { NewChartDialog } from '../visualizations/NewChartDialog'
import { withLocalCharts } from '../visualizations/local-charts'
import { useWorkspace } from '../spreadsheet/workspace-context'
import { errorText } from './error-text'
import { LoadProblem } from './LoadProblem'
import { useRemote } from './use-remote'
import { chosenWorkbookId } from './workbook-choice'
import { WorkbookPicker } from './WorkbookPicker'
import './screens.css'

type View = 'recent' | 'dashboard' | 'analytics'

const TYPE_ICONS = { bar: BarChart3, line: LineChart, pie: PieChart, area: TrendingUp, combo: ChartNoAxesCombined, waterfall: ChartColumnDecreasing } as const
/** How many charts the recent list shows; the dashboard shows them all. */
const RECENT_CHARTS = 6

function ChartsOf({ workbookId, view, refreshKey, onDeleted }: { workbookId: string; view: View; refreshKey: number; onDeleted(): void }) {
  const [charts, reload] = useRemote((signal) => loadCharts(api, workbookId, signal), [workbookId, refreshKey])
  // The workbook open in this browser draws from its own values, which are ahead of the saved ones.
  const [{ store }, workspace] = useWorkspace()
  const local = store?.id === workbookId ? store : null
  const remove = async (chart: Chart) => {
    try {
      if (local?.chartById(chart.id)) workspace.dispatch({ type: 'set-chart', sheet: chart.sheet, id: chart.id, chart: null })
      else await deleteChart(api, workbookId, chart.id)
      toast({ title: 'Success', description: `Chart ${chart.title} deleted`, variant: 'success' })
      onDeleted()
    } catch (error) {
      toast({ title: 'Error', description: `Failed to delete chart: ${errorText(error)}`, variant: 'destructive' })
    }
  }
  if (charts.status === 'error') return <LoadProblem message="The charts could not be loaded." onRetry={() => void reload()} />
  const list = charts.data ? withLocalCharts(charts.data, local?.listCharts() ?? null) : []
  if (!charts.data)
    return (
      <p className="muted" role="status">
        Loading charts…
      </p>
    )
  if (list.length === 0) return <p className="empty-state">No charts in this workbook yet. Choose New Chart and a range of numbers to draw one.</p>
  if (view === 'analytics') return <ChartAnalytics charts={list} />
  const shown = view === 'dashboard' ? list : list.slice(0, RECENT_CHARTS)
  return (
    <div className={view === 'dashboard' ? 'chart-grid dashboard' : 'chart-grid'}>
      {shown.map((chart) => (
        <ChartCard key={chart.id} chart={chart} onDelete={() => void remove(chart)} />
      ))}
    </div>
  )
}

/** Visualizations: charts drawn from ranges of the user's workbooks, kept with the workbook. */
export function VisualizationsPage() {
  const [session] = useSession()
  const [workbooks, reloadWorkbooks] = useRemote((signal) => listWorkbooks(api, signal), [])
  const [chosen, setChosen] = useState<string | null>(null)
  const [view, setView] = useState<View>('recent')
  const [newChart, setNewChart] = useState<ChartType | null>(null)
  const [refreshKey, setRefreshKey] = useState(0)

  const list = workbooks.data ?? []
  const workbookId = chosenWorkbookId(list, chosen, session.session?.activeWorkbook)
  const workbook = list.find((candidate) => candidate.id === workbookId) ?? null
  const open = (type: ChartType) => (workbook ? setNewChart(type) : toast({ title: 'No workbook', description: 'Create or upload a workbook first.' }))

  const actions = [
    { id: 'new', title: 'New Chart', text: 'Draw a bar, line, pie or area chart from a range.', icon: Plus, onClick: () => open('bar'), pressed: undefined },
    { id: 'dashboard', title: 'Dashboard Builder', text: "Every chart of the workbook on one board.", icon: LayoutDashboard, onClick: () => setView(view === 'dashboard' ? 'recent' : 'dashboard'), pressed: view === 'dashboard' },
    { id: 'analytics', title: 'Analytics', text: 'Totals, ranges and growth of each series.', icon: TrendingUp, onClick: () => setView(view === 'analytics' ? 'recent' : 'analytics'), pressed: view === 'analytics' },
  ]

  return (
    <div className="page wide-page">
      <div className="page-header-row">
        <header className="page-header">
          <h1>Visualizations</h1>
          <p>Charts drawn from your workbooks' cells; they follow every edit.</p>
        </header>
        {list.length > 0 && <WorkbookPicker workbooks={list} value={workbookId} onChange={setChosen} />}
      </div>

      {workbooks.status === 'error' && <LoadProblem message="Your workbooks could not be loaded." onRetry={() => void reloadWorkbooks()} />}

      <div className="action-cards">
        {actions.map((action) => (
          <button key={action.id} type="button" className={`card action-card ${action.pressed ? 'selected' : ''}`} onClick={action.onClick} aria-pressed={action.pressed}>
            <action.icon size={22} aria-hidden="true" />
            <span className="action-card-title">{action.title}</span>
            <span className="action-card-text">{action.text}</span>
          </button>
        ))}
      </div>

      <div className="chip-row" role="group" aria-label="Chart types">
        {CHART_TYPES.map(({ type, label }) => {
          const Icon = TYPE_ICONS[type]
          return (
            <button key={type} type="button" className="chip with-icon" onClick={() => open(type)} aria-label={`New ${label} chart`}>
              <Icon size={15} aria-hidden="true" /> {label}
            </button>
          )
        })}
      </div>

      <h2 className="section-title">{view === 'dashboard' ? 'Dashboard' : view === 'analytics' ? 'Analytics' : 'Recent charts'}</h2>
      {workbooks.status === 'ready' && list.length === 0 ? (
        <p className="empty-state">
          Charts are drawn from workbooks. <Link to="/models">Start from a template</Link> or <Link to="/files">upload a file</Link> first.
        </p>
      ) : (
        workbookId && <ChartsOf workbookId={workbookId} view={view} refreshKey={refreshKey} onDeleted={() => setRefreshKey((k) => k + 1)} />
      )}

      <NewChartDialog
        workbook={newChart && workbook ? { id: workbook.id, name: workbook.name } : null}
        initialType={newChart ?? 'bar'}
        onClose={() => setNewChart(null)}
        onCreated={(chart) => {
          setNewChart(null)
          setView('recent')
          setRefreshKey((k) => k + 1)
          toast({ title: 'Success', description: `Chart ${chart.title} created`, variant: 'success' })
        }}
      />
    </div>
  )
}
