import { useEffect, useState } from 'react'
import { Dialog } from '../ui/Dialog'

interface UnhideSheetDialogProps {
  open: boolean
  /** the hidden sheets, in workbook order */
  sheets: readonly string[]
  onClose(): void
  onUnhide(name: string): void
}

/** Format → Unhide sheet…: the hidden sheets, one of which is shown again (Excel's dialog). */
export function UnhideSheetDialog({ open, sheets, onClose, onUnhide }: UnhideSheetDialogProps) {
  const [chosen, setChosen] = useState<string | null>(null)
  useEffect(() => {
    if (open) setChosen(sheets[0] ?? null)
  }, [open, sheets])
  return (
    <Dialog
      open={open}
      title="Unhide sheet"
      onClose={onClose}
      width={360}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="unhide-sheet-form" className="button primary" disabled={chosen === null}>
            Unhide
          </button>
        </>
      }
    >
      <form
        id="unhide-sheet-form"
        onSubmit={(e) => {
          e.preventDefault()
          if (chosen !== null) onUnhide(chosen)
        }}
      >
        {sheets.length === 0 ? (
          <p>No sheet is hidden.</p>
        ) : (
          <fieldset className="field">
            <legend>Unhide one sheet:</legend>
            <ul className="unhide-sheet-list">
              {sheets.map((name) => (
                <li key={name}>
                  <label>
                    <input type="radio" name="hidden-sheet" value={name} checked={chosen === name} onChange={() => setChosen(name)} />
                    {name}
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        )}
      </form>
    </Dialog>
  )
}
