import type { IterationLimits } from '@finsheet/contracts'
import { iterationLimitsProblem } from '@finsheet/workbook/model'
import { useEffect, useState } from 'react'
import { Dialog } from '../ui/Dialog'

interface CalculationOptionsDialogProps {
  /** the workbook's settings now; the dialog is closed without them */
  current: ({ iterate: boolean } & IterationLimits) | null
  onApply(settings: { iterate: boolean } & IterationLimits): void
  onClose(): void
}

/** What is wrong with the limits as typed, or null: the model's own rule, after the text is read as numbers. */
export function typedLimitsProblem(maxIterations: string, maxChange: string): string | null {
  const blank = (text: string) => (text.trim() === '' ? Number.NaN : Number(text))
  return iterationLimitsProblem(blank(maxIterations), blank(maxChange))
}

/**
 * Excel's calculation options for circular references (Data → Calculation options): iterate them, at
 * most so many passes, until no value moves by the maximum change. One undoable change of the workbook.
 */
export function CalculationOptionsDialog({ current, onApply, onClose }: CalculationOptionsDialogProps) {
  const [iterate, setIterate] = useState(false)
  const [maxIterations, setMaxIterations] = useState('')
  const [maxChange, setMaxChange] = useState('')
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    if (!current) return
    setIterate(current.iterate)
    setMaxIterations(String(current.maxIterations))
    setMaxChange(String(current.maxChange))
    setProblem(null)
  }, [current])

  const apply = () => {
    const refused = typedLimitsProblem(maxIterations, maxChange)
    if (refused) return setProblem(refused)
    onApply({ iterate, maxIterations: Number(maxIterations), maxChange: Number(maxChange) })
  }

  return (
    <Dialog
      open={current !== null}
      title="Calculation options"
      onClose={onClose}
      width={420}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="calculation-options-form" className="button primary">
            OK
          </button>
        </>
      }
    >
      <form
        id="calculation-options-form"
        className="form"
        onSubmit={(event) => {
          event.preventDefault()
          apply()
        }}
      >
        <label className="checkbox-field">
          <input type="checkbox" checked={iterate} onChange={(event) => setIterate(event.target.checked)} />
          <span>Enable iterative calculation</span>
        </label>
        <p className="muted">Formulas that read each other in a loop (interest on average debt) are calculated again and again until they settle.</p>
        <label className="field">
          <span>Maximum Iterations</span>
          <input
            inputMode="numeric"
            value={maxIterations}
            disabled={!iterate}
            onChange={(event) => {
              setMaxIterations(event.target.value)
              setProblem(null)
            }}
          />
        </label>
        <label className="field">
          <span>Maximum Change</span>
          <input
            inputMode="decimal"
            value={maxChange}
            disabled={!iterate}
            onChange={(event) => {
              setMaxChange(event.target.value)
              setProblem(null)
            }}
          />
        </label>
        {problem && (
          <p role="alert" className="form-alert">
            {problem}
          </p>
        )}
      </form>
    </Dialog>
  )
}
