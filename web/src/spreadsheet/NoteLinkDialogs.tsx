import type { CellNote, WorkbookCommand } from '@finsheet/contracts'
import { useEffect, useState } from 'react'
import { Dialog } from '../ui/Dialog'
import { linkCommand, noteCommand } from './cell-annotations'
import type { CellPosition } from '../grid/address'
import { cellAddress } from '../grid/address'

interface NoteDialogProps {
  open: boolean
  sheet: string
  cell: CellPosition
  /** the cell's note now, to edit; undefined to insert one */
  note: CellNote | undefined
  /** who writes a new note */
  author: string | undefined
  /** writes the note (one undoable set-sheet-view); throws when the workbook refuses it */
  onSave(command: WorkbookCommand): void
  onClose(): void
}

/** Insert note / Edit note (Shift+F2): the note's text; saving it empty deletes the note. */
export function NoteDialog({ open, sheet, cell, note, author, onSave, onClose }: NoteDialogProps) {
  const [text, setText] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  useEffect(() => {
    if (!open) return
    setText(note?.text ?? '')
    setProblem(null)
    // the text starts from the note as it is when the dialog opens
  }, [open])

  const save = () => {
    try {
      // An edited note keeps who wrote it.
      onSave(noteCommand(sheet, cell, text, note?.author ?? author))
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error))
    }
  }

  return (
    <Dialog
      open={open}
      title={`${note ? 'Edit note' : 'Insert note'} – ${cellAddress(cell)}`}
      onClose={onClose}
      width={420}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="note-form" className="button primary">
            Save
          </button>
        </>
      }
    >
      <form
        id="note-form"
        className="form"
        onSubmit={(event) => {
          event.preventDefault()
          save()
        }}
      >
        <label className="field">
          <span>Note</span>
          <textarea autoFocus rows={5} value={text} onChange={(event) => setText(event.target.value)} />
        </label>
        {note?.author && <p className="field-hint">{`Written by ${note.author}`}</p>}
        {problem && (
          <p role="alert" className="form-alert">
            {problem}
          </p>
        )}
      </form>
    </Dialog>
  )
}

interface LinkDialogProps {
  open: boolean
  sheet: string
  cell: CellPosition
  /** the cell's link now */
  url: string | undefined
  onSave(command: WorkbookCommand): void
  onClose(): void
}

/** Insert → Link… (Ctrl+K): a web or mail address, or a place in the workbook such as Sheet2!A1; empty removes the link. */
export function LinkDialog({ open, sheet, cell, url, onSave, onClose }: LinkDialogProps) {
  const [text, setText] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  useEffect(() => {
    if (!open) return
    setText(url ?? '')
    setProblem(null)
    // the address starts from the link as it is when the dialog opens
  }, [open])

  const save = () => {
    try {
      onSave(linkCommand(sheet, cell, text))
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error))
    }
  }

  return (
    <Dialog
      open={open}
      title={`Link – ${cellAddress(cell)}`}
      onClose={onClose}
      width={420}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="link-form" className="button primary">
            OK
          </button>
        </>
      }
    >
      <form
        id="link-form"
        className="form"
        onSubmit={(event) => {
          event.preventDefault()
          save()
        }}
      >
        <label className="field">
          <span>Address</span>
          <input autoFocus value={text} spellCheck={false} placeholder="https://example.com or Sheet2!A1" onChange={(event) => setText(event.target.value)} />
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
