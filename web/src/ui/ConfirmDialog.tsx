import type { ReactNode } from 'react'
import { Dialog } from './Dialog'

interface ConfirmDialogProps {
  open: boolean
  title: string
  /** a sentence, or a list of what the action does */
  message: string | readonly string[]
  children?: ReactNode
  confirmLabel: string
  destructive?: boolean
  onConfirm(): void
  onCancel(): void
}

export function ConfirmDialog({ open, title, message, confirmLabel, destructive, onConfirm, onCancel, children }: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      width={420}
      footer={
        <>
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className={`button ${destructive ? 'danger' : 'primary'}`} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </>
      }
    >
      {typeof message === 'string' ? (
        <p>{message}</p>
      ) : (
        <ul className="confirm-list">
          {message.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {children}
    </Dialog>
  )
}
