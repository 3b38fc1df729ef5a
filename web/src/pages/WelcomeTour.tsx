import { BarChart3, Sparkles, Workflow } from 'lucide-react'
import { useState } from 'react'
import { Dialog } from '../ui/Dialog'

const CARDS = [
  { icon: Sparkles, title: 'AI Assistant', text: 'Ask questions about finance and formulas, or describe a change and let the agent make it.' },
  { icon: BarChart3, title: 'Data Visualization', text: 'Turn ranges into charts and dashboards that follow your numbers.' },
  { icon: Workflow, title: 'Workflow Automation', text: 'Repeat monthly reports and checks without redoing the work.' },
]

const STEPS = [
  { title: 'The grid', text: 'Type a value or a formula starting with =. Enter moves down, Tab moves right, F2 edits, Escape cancels.' },
  { title: 'Formulas', text: 'While typing a formula, click cells or use the arrows to insert references; Tab completes a function name.' },
  { title: 'Sheets and files', text: 'Add sheets with + at the bottom, import Excel files from the toolbar, and everything saves as you work.' },
]

/** Spec 2 §1: the welcome tour, shown once (local flag hasSeenTour). */
export function WelcomeTour({ open, onDone }: { open: boolean; onDone(): void }) {
  const [step, setStep] = useState(-1)
  return (
    <Dialog open={open} title="Welcome to Finsheet" onClose={onDone} width={640}>
      {step < 0 ? (
        <>
          <div className="tour-cards">
            {CARDS.map(({ icon: Icon, title, text }) => (
              <div key={title} className="tour-card">
                <Icon size={22} aria-hidden="true" />
                <h3>{title}</h3>
                <p>{text}</p>
              </div>
            ))}
          </div>
          <div className="form-actions">
            <button type="button" className="button" onClick={onDone}>
              Skip
            </button>
            <button type="button" className="button primary" onClick={() => setStep(0)}>
              Start Tour
            </button>
          </div>
        </>
      ) : (
        <>
          <div className="tour-step" aria-live="polite">
            <p className="tour-count">
              Step {step + 1} of {STEPS.length}
            </p>
            <h3>{STEPS[step].title}</h3>
            <p>{STEPS[step].text}</p>
          </div>
          <div className="form-actions">
            <button type="button" className="button" onClick={onDone}>
              Skip
            </button>
            <button type="button" className="button primary" onClick={() => (step + 1 < STEPS.length ? setStep(step + 1) : onDone())}>
              {step + 1 < STEPS.length ? 'Next' : 'Done'}
            </button>
          </div>
        </>
      )}
    </Dialog>
  )
}
