import { Link, useNavigate } from '@tanstack/react-router'
import { CalendarClock, CheckCircle2, History, LayoutTemplate, PlusCircle, ShieldCheck, TrendingUp } from 'lucide-react'
import { useAssistant } from '../assistant/assistant-react'
import './screens.css'

/**
 * Spec 1 §2: the workflows list. Scheduled runs are not built, so the page says these are examples
 * rather than showing them as live jobs; a new workflow runs now, as steps for the assistant's Agent mode.
 */
const EXAMPLE_WORKFLOWS = [
  { name: 'Monthly Financial Report', description: 'Refresh the actuals, roll the forecast forward and export the management pack.', schedule: 'First working day of each month', icon: CalendarClock },
  { name: 'Data Validation Check', description: 'Look for cells showing errors, broken links between sheets and numbers typed inside formulas.', schedule: 'After every import', icon: ShieldCheck },
  { name: 'Revenue Forecast Update', description: 'Update the growth assumptions from the latest actuals and recalculate the valuation.', schedule: 'Every quarter', icon: TrendingUp },
] as const

/** The start of a workflow the user finishes writing: Agent mode carries out the steps on the open workbook. */
export const NEW_WORKFLOW_PROMPT = 'Carry out these steps on this workbook, in order:\n1. '

export function WorkflowsPage() {
  const [, assistant] = useAssistant()
  const navigate = useNavigate()
  const createWorkflow = () => {
    assistant.setMode('agent')
    assistant.suggest(NEW_WORKFLOW_PROMPT)
    assistant.setOpen(true)
    void navigate({ to: '/' })
  }
  return (
    <div className="page wide-page">
      <header className="page-header">
        <h1>Workflows</h1>
        <p>Automate recurring reports and checks.</p>
      </header>
      <p className="workflows-note" role="note">
        The workflows below describe what each one does. Create New Workflow runs your steps now, through the assistant&apos;s Agent mode, and{' '}
        <Link to="/insights">Insights</Link> runs the validation checks on any of your workbooks.
      </p>

      <div className="action-cards">
        <button type="button" className="card action-card" onClick={createWorkflow}>
          <PlusCircle size={22} aria-hidden="true" />
          <span className="action-card-title">Create New Workflow</span>
          <span className="action-card-text">Write the steps; the assistant&apos;s Agent mode carries them out on the open workbook.</span>
        </button>
        <Link to="/models" className="card action-card">
          <LayoutTemplate size={22} aria-hidden="true" />
          <span className="action-card-title">Browse Templates</span>
          <span className="action-card-text">Start from a ready financial model.</span>
        </Link>
        <div className="card action-card static">
          <History size={22} aria-hidden="true" />
          <span className="action-card-title">Recent Workflows</span>
          <span className="action-card-text">{EXAMPLE_WORKFLOWS.length} examples below.</span>
        </div>
      </div>

      <h2 className="section-title">Recent Workflows</h2>
      <ul className="workflow-list">
        {EXAMPLE_WORKFLOWS.map((workflow) => (
          <li key={workflow.name} className="card workflow-row">
            <workflow.icon size={22} aria-hidden="true" className="sheet-icon" />
            <div>
              <h3>{workflow.name}</h3>
              <p className="muted">{workflow.description}</p>
            </div>
            <span className="badge">
              <CheckCircle2 size={13} aria-hidden="true" /> {workflow.schedule}
            </span>
          </li>
        ))}
      </ul>
    </div>
  )
}
