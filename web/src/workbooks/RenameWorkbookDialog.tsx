import { MAX_WORKBOOK_NAME_LENGTH } from '@finsheet/contracts'
import { useEffect, useState } from 'react'
import { errorText } from '../pages/error-text'
import { Dialog } from '../ui/Dialog'
import { workbookNameProblem } from './workbook-list'

interface RenameWorkbookDialogProps {
  /** the workbook to rename; the dialog is closed without one */
  workbook: { id: string; name: string } | null
  onRename(id: string, name: string): Promise<unknown>
  onClose(): void
}

/** Renames a workbook (File → Rename, and Rename in the workbooks list). */
export function RenameWorkbookDialog({ workbook, onRename, onClose }: RenameWorkbookDialogProps) {
  const [name, setName] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  useEffect(() => {
    setName(workbook?.name ?? '')
    setProblem(null)
    setSaving(false)
  }, [workbook])

  const save = async () => {
    if (!workbook) return
    const refused = workbookNameProblem(name, MAX_WORKBOOK_NAME_LENGTH)
    if (refused) return setProblem(refused)
    if (name.trim() === workbook.name) return onClose()
    setSaving(true)
    try {
      await onRename(workbook.id, name.trim())
      onClose()
    } catch (error) {
      setProblem(`The workbook could not be renamed: ${errorText(error)}`)
      setSaving(false)
    }
  }

  return (
    <Dialog
      open={workbook !== null}
      title="Rename workbook"
      onClose={onClose}
      width={420}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="rename-workbook-form" className="button primary" disabled={saving}>
            {saving ? 'Renaming…' : 'Rename'}
          </button>
        </>
      }
    >
      <form
        id="rename-workbook-form"
        className="form"
        onSubmit={(event) => {
          event.preventDefault()
          void save()
        }}
      >
        <label className="field">
          <span>Workbook name</span>
          <input
            autoFocus
            value={name}
            maxLength={MAX_WORKBOOK_NAME_LENGTH}
            onChange={(event) => {
              setName(event.target.value)
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
