import type { DataValidationErrorStyle } from '@finsheet/contracts'
import { Dialog } from '../ui/Dialog'

/** What the user answered an alert: write the value anyway, go back to the edit, or drop it. */
export type ValidationAnswer = 'write' | 'retry' | 'cancel'

export interface ValidationAlert {
  style: DataValidationErrorStyle
  title: string
  message: string
}

interface ValidationAlertDialogProps {
  alert: ValidationAlert | null
  onAnswer(answer: ValidationAnswer): void
}

/**
 * The alert of a value that breaks a cell's data validation, as Excel shows it: Stop refuses it
 * (Retry or Cancel), Warning asks "Continue?" (Yes writes it, No goes back to the edit), Information
 * says so and writes it on OK.
 */
export function ValidationAlertDialog({ alert, onAnswer }: ValidationAlertDialogProps) {
  if (!alert) return null
  const button = (label: string, answer: ValidationAnswer, primary = false) => (
    <button type="button" className={`button${primary ? ' primary' : ''}`} autoFocus={primary} onClick={() => onAnswer(answer)}>
      {label}
    </button>
  )
  return (
    <Dialog
      open
      title={alert.title}
      onClose={() => onAnswer('cancel')}
      width={400}
      className="validation-alert"
      footer={
        alert.style === 'stop' ? (
          <>
            {button('Retry', 'retry', true)}
            {button('Cancel', 'cancel')}
          </>
        ) : alert.style === 'warning' ? (
          <>
            {button('Yes', 'write', true)}
            {button('No', 'retry')}
            {button('Cancel', 'cancel')}
          </>
        ) : (
          <>
            {button('OK', 'write', true)}
            {button('Cancel', 'cancel')}
          </>
        )
      }
    >
      <div role="alert" className={`validation-alert-text validation-${alert.style}`}>
        <p>{alert.message}</p>
        {alert.style === 'warning' && <p>Continue?</p>}
      </div>
    </Dialog>
  )
}
