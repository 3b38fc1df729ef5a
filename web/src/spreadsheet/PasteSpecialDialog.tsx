import { useState } from 'react'
import { Dialog } from '../ui/Dialog'
import type { PasteSpecialOptions, PastePart } from './paste-special'
import { PASTE_PART_LABELS, PASTE_PARTS } from './paste-special'

interface PasteSpecialDialogProps {
  open: boolean
  onPaste(options: PasteSpecialOptions): void
  onClose(): void
}

const HINTS: Record<PastePart, string> = {
  all: 'contents, formulas and formats, as Ctrl+V',
  values: 'the calculated values, no formulas; the cells keep their formats',
  formulas: 'the contents and formulas, no formats',
  formats: 'the number formats and styles only',
}

/** Edit → Paste Special (Ctrl+Shift+V): which part of the copied cells to paste, and whether to transpose them. */
export function PasteSpecialDialog({ open, onPaste, onClose }: PasteSpecialDialogProps) {
  const [part, setPart] = useState<PastePart>('all')
  const [transpose, setTranspose] = useState(false)
  // each opening starts from All, not transposed, as Excel's does
  const [wasOpen, setWasOpen] = useState(open)
  if (open !== wasOpen) {
    setWasOpen(open)
    if (open) {
      setPart('all')
      setTranspose(false)
    }
  }
  return (
    <Dialog
      open={open}
      title="Paste Special"
      onClose={onClose}
      width={400}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="paste-special-form" className="button primary">
            Paste
          </button>
        </>
      }
    >
      <form
        id="paste-special-form"
        className="form"
        onSubmit={(event) => {
          event.preventDefault()
          onPaste({ part, transpose })
        }}
      >
        <fieldset className="paste-special-parts">
          <legend>Paste</legend>
          {PASTE_PARTS.map((option) => (
            <label key={option} className="checkbox-field">
              <input type="radio" name="paste-part" value={option} checked={part === option} onChange={() => setPart(option)} autoFocus={option === part} />
              <span>
                {PASTE_PART_LABELS[option]} <span className="muted">— {HINTS[option]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <label className="checkbox-field">
          <input type="checkbox" checked={transpose} onChange={(event) => setTranspose(event.target.checked)} />
          <span>Transpose (rows become columns)</span>
        </label>
      </form>
    </Dialog>
  )
}
