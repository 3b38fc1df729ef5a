import type { WorkbookCommand } from '@finsheet/contracts'
import type { DefinedNameRecord } from '@finsheet/workbook/model'
import { useState } from 'react'
import { Dialog } from '../ui/Dialog'
import type { NamedWorkbook, NameRow } from './defined-names'
import { defineNameCommand, deleteNameCommand, nameProblem, nameRows, refersToProblem, WORKBOOK_SCOPE } from './defined-names'

interface NameManagerDialogProps {
  open: boolean
  workbook: NamedWorkbook
  activeSheet: string
  /** what a new name refers to at first: the selection, as an absolute reference with its sheet */
  selectionReference: string
  /** applies a change of the names (one undoable define-name or batch); throws when the workbook refuses it */
  onChange(command: WorkbookCommand): void
  onClose(): void
}

interface Draft {
  /** the name being edited; absent for a new one */
  editing?: Pick<DefinedNameRecord, 'name' | 'sheet'>
  name: string
  /** '' for the workbook */
  scope: string
  refersTo: string
}

const rowKey = (row: Pick<DefinedNameRecord, 'name' | 'sheet'>) => `${row.sheet ?? ''}|${row.name}`

/**
 * Excel's Name Manager (Ctrl+F3): every defined name with its value, what it refers to and its scope;
 * New, Edit and Delete, each one undoable change. Names are checked as Excel checks them.
 */
export function NameManagerDialog({ open, workbook, activeSheet, selectionReference, onChange, onClose }: NameManagerDialogProps) {
  const [selected, setSelected] = useState<string | null>(null)
  const [draft, setDraft] = useState<Draft | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const rows: NameRow[] = open ? nameRows(workbook, activeSheet) : []
  const current = rows.find((row) => rowKey(row) === selected) ?? null

  const close = () => {
    setDraft(null)
    setProblem(null)
    onClose()
  }

  const apply = (command: WorkbookCommand): boolean => {
    try {
      onChange(command)
      return true
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error))
      return false
    }
  }

  const save = () => {
    if (!draft) return
    const name = draft.name.trim()
    const sheet = draft.scope === '' ? undefined : draft.scope
    const refused = nameProblem(name, sheet, workbook.definedNames, draft.editing) ?? refersToProblem(draft.refersTo)
    if (refused) return setProblem(refused)
    if (apply(defineNameCommand({ name, formula: draft.refersTo, ...(sheet ? { sheet } : {}) }, draft.editing, workbook))) {
      setSelected(rowKey({ name, sheet }))
      setDraft(null)
      setProblem(null)
    }
  }

  // Two dialogs, not one changing its content: a click on Edit… would otherwise land, as its
  // default action, on the OK button rendered in its place, and submit the form at once.
  if (draft) {
    return (
      <Dialog
        key="name-editor"
        open={open}
        title={draft.editing ? 'Edit Name' : 'New Name'}
        onClose={() => {
          setDraft(null)
          setProblem(null)
        }}
        width={480}
        footer={
          <>
            <button
              type="button"
              className="button"
              onClick={() => {
                setDraft(null)
                setProblem(null)
              }}
            >
              Cancel
            </button>
            <button type="submit" form="name-form" className="button primary">
              OK
            </button>
          </>
        }
      >
        <form
          id="name-form"
          className="form"
          onSubmit={(event) => {
            event.preventDefault()
            save()
          }}
        >
          <label className="field">
            <span>Name</span>
            <input
              autoFocus
              value={draft.name}
              spellCheck={false}
              aria-invalid={problem !== null}
              onChange={(event) => {
                setDraft({ ...draft, name: event.target.value })
                setProblem(null)
              }}
            />
          </label>
          <label className="field">
            <span>Scope</span>
            {/* Excel keeps a name's scope once it exists: a name moves scope by being defined again. */}
            <select value={draft.scope} disabled={draft.editing !== undefined} onChange={(event) => setDraft({ ...draft, scope: event.target.value })}>
              <option value="">{WORKBOOK_SCOPE}</option>
              {workbook.sheetNames.map((sheet) => (
                <option key={sheet} value={sheet}>
                  {sheet}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Refers to</span>
            <input
              value={draft.refersTo}
              spellCheck={false}
              onChange={(event) => {
                setDraft({ ...draft, refersTo: event.target.value })
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

  return (
    <Dialog
      key="name-list"
      open={open}
      title="Name Manager"
      onClose={close}
      width={720}
      footer={
        <>
          <button
            type="button"
            className="button"
            onClick={() => {
              setProblem(null)
              setDraft({ name: '', scope: '', refersTo: selectionReference })
            }}
          >
            New…
          </button>
          <button
            type="button"
            className="button"
            disabled={!current}
            onClick={() => {
              if (!current) return
              setProblem(null)
              setDraft({ editing: { name: current.name, ...(current.sheet ? { sheet: current.sheet } : {}) }, name: current.name, scope: current.sheet ?? '', refersTo: current.formula })
            }}
          >
            Edit…
          </button>
          <button
            type="button"
            className="button danger"
            disabled={!current}
            onClick={() => {
              if (current && apply(deleteNameCommand(current))) setSelected(null)
            }}
          >
            Delete
          </button>
          <button type="button" className="button primary" onClick={close}>
            Close
          </button>
        </>
      }
    >
      {rows.length === 0 ? (
        <p className="muted">No names are defined. New… names the selected cells, or a value such as =0.21, for formulas to use.</p>
      ) : (
        <div className="tool-results names-list">
          <table aria-label="Defined names">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Value</th>
                <th scope="col">Refers To</th>
                <th scope="col">Scope</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const key = rowKey(row)
                return (
                  <tr
                    key={key}
                    aria-selected={key === selected}
                    className={key === selected ? 'selected' : undefined}
                    onClick={() => setSelected(key)}
                    onDoubleClick={() => setDraft({ editing: { name: row.name, ...(row.sheet ? { sheet: row.sheet } : {}) }, name: row.name, scope: row.sheet ?? '', refersTo: row.formula })}
                  >
                    <td>
                      <button type="button" className="link-button" aria-pressed={key === selected} onClick={() => setSelected(key)}>
                        {row.name}
                      </button>
                    </td>
                    <td>{row.value}</td>
                    <td>{row.formula}</td>
                    <td>{row.sheet ?? WORKBOOK_SCOPE}</td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
      {problem && (
        <p role="alert" className="form-alert tool-message">
          {problem}
        </p>
      )}
    </Dialog>
  )
}
