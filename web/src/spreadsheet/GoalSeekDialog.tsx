import type { WorkbookCommand } from '@finsheet/contracts'
import { formatValue } from '@finsheet/formula'
import { useState } from 'react'
import { useOpening } from '../ui/use-opening'
import { Dialog } from '../ui/Dialog'
import type { GoalSeekOutcome, GoalSeekWorkbook } from './goal-seek'
import { goalSeek, GoalSeekError, goalSeekStatus } from './goal-seek'

interface GoalSeekDialogProps {
  open: boolean
  workbook: GoalSeekWorkbook
  activeSheet: string
  /** the active cell's address, the Set cell at first */
  activeCell: string
  /** writes the input found (one undoable set-cells); throws when the workbook refuses it */
  onApply(command: WorkbookCommand): void
  onClose(): void
}

/**
 * Excel's Goal Seek (Data → What-If Analysis): set a formula cell to a value by changing one input.
 * The search runs on a copy of the workbook; its result is shown, and OK writes it as one undoable
 * edit while Cancel leaves every cell as it was.
 */
export function GoalSeekDialog({ open, workbook, activeSheet, activeCell, onApply, onClose }: GoalSeekDialogProps) {
  const [setCell, setSetCell] = useState('')
  const [toValue, setToValue] = useState('')
  const [changingCell, setChangingCell] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [outcome, setOutcome] = useState<GoalSeekOutcome | null>(null)

  // the fields start from the cell active when the dialog opens, not as it moves afterwards
  useOpening(open, () => {
    setSetCell(activeCell)
    setProblem(null)
    setOutcome(null)
  })

  const run = () => {
    try {
      setOutcome(goalSeek(workbook, { setCell, toValue, changingCell }, activeSheet))
      setProblem(null)
    } catch (error) {
      if (!(error instanceof GoalSeekError)) throw error
      setProblem(error.message)
    }
  }

  if (outcome) {
    return (
      <Dialog
        key="goal-seek-status"
        open={open}
        title="Goal Seek Status"
        onClose={onClose}
        width={420}
        footer={
          <>
            <button type="button" className="button" onClick={onClose}>
              Cancel
            </button>
            <button
              type="button"
              className="button primary"
              autoFocus
              onClick={() => {
                try {
                  onApply(outcome.command)
                } catch (error) {
                  setOutcome(null)
                  setProblem(error instanceof Error ? error.message : String(error))
                }
              }}
            >
              OK
            </button>
          </>
        }
      >
        <p role="status" className="goal-seek-status">
          {goalSeekStatus(outcome)}
        </p>
        <dl className="goal-seek-figures">
          <dt>Target value:</dt>
          <dd>{formatValue(outcome.target)}</dd>
          <dt>Current value:</dt>
          <dd>{outcome.currentValue}</dd>
          <dt>{`${outcome.changingCell.label}:`}</dt>
          <dd>{formatValue(outcome.input)}</dd>
        </dl>
      </Dialog>
    )
  }

  return (
    <Dialog
      key="goal-seek"
      open={open}
      title="Goal Seek"
      onClose={onClose}
      width={420}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="goal-seek-form" className="button primary">
            OK
          </button>
        </>
      }
    >
      <form
        id="goal-seek-form"
        className="form"
        onSubmit={(event) => {
          event.preventDefault()
          run()
        }}
      >
        <label className="field">
          <span>Set cell</span>
          <input autoFocus value={setCell} spellCheck={false} placeholder="e.g. B10" onChange={(event) => setSetCell(event.target.value)} />
        </label>
        <label className="field">
          <span>To value</span>
          <input value={toValue} inputMode="decimal" onChange={(event) => setToValue(event.target.value)} />
        </label>
        <label className="field">
          <span>By changing cell</span>
          <input value={changingCell} spellCheck={false} placeholder="e.g. B3" onChange={(event) => setChangingCell(event.target.value)} />
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
