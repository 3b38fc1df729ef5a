import { useState } from 'react'
import { Dialog } from '../ui/Dialog'

interface GoToDialogProps {
  open: boolean
  onClose(): void
  /** returns an error text when the reference cannot be reached, null when it went there */
  onGo(reference: string): string | null
}

/** Ctrl+G: jump to a cell or range, optionally on another sheet (Sheet2!B4). */
export function GoToDialog({ open, onClose, onGo }: GoToDialogProps) {
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const submit = () => {
    const problem = onGo(text)
    if (problem) setError(problem)
    else {
      setText('')
      setError(null)
    }
  }
  return (
    <Dialog
      open={open}
      title="Go to"
      onClose={() => {
        setError(null)
        onClose()
      }}
      width={360}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="goto-form" className="button primary">
            Go
          </button>
        </>
      }
    >
      <form
        id="goto-form"
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
      >
        <label className="field">
          <span>Reference</span>
          <input
            autoFocus
            value={text}
            placeholder="e.g. B12, A1:D20 or Sheet2!C5"
            aria-invalid={error !== null}
            aria-describedby={error ? 'goto-error' : undefined}
            onChange={(e) => {
              setText(e.target.value)
              setError(null)
            }}
          />
        </label>
        {error && (
          <p id="goto-error" role="alert" className="field-error">
            {error}
          </p>
        )}
      </form>
    </Dialog>
  )
}
