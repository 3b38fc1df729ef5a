import type { WorkbookCommand } from '@finsheet/contracts'
import { useEffect, useRef, useState } from 'react'
import type { CellPosition } from '../grid/address'
import { sheetPrefix } from '../grid/formula-editing'
import { Dialog } from '../ui/Dialog'
import type { FindOptions, FoundCell, LookIn, SearchableWorkbook, SearchWithin } from './find-replace'
import { findAll, findNext, NOTHING_FOUND, planReplacements, refusedMessage, replacedMessage } from './find-replace'

/** Find All lists at most this many cells; the count says how many there are. */
const LISTED_RESULTS = 500

interface FindReplaceDialogProps {
  /** which tab is open; null: the dialog is closed */
  mode: 'find' | 'replace' | null
  workbook: SearchableWorkbook
  /** where the search starts: the active sheet and cell now */
  where(): { sheet: string } & CellPosition
  /** selects a found cell, switching sheets and scrolling to it */
  onShow(cell: FoundCell): void
  /** writes a replacement (one undoable change); throws when the workbook refuses it */
  onReplace(command: WorkbookCommand): void
  onMode(mode: 'find' | 'replace'): void
  onClose(): void
}

/**
 * Excel's Find and Replace (Ctrl+F, Ctrl+H): find what, replace with, look in formulas or values,
 * match case, match entire cell contents, within the sheet or the workbook. Replace All is one
 * undoable change; a replacement that would break a formula leaves that cell as it was and says so.
 */
export function FindReplaceDialog({ mode, workbook, where, onShow, onReplace, onMode, onClose }: FindReplaceDialogProps) {
  const [find, setFind] = useState('')
  const [replacement, setReplacement] = useState('')
  const [lookIn, setLookIn] = useState<LookIn>('formulas')
  const [matchCase, setMatchCase] = useState(false)
  const [wholeCell, setWholeCell] = useState(false)
  const [within, setWithin] = useState<SearchWithin>('sheet')
  const [results, setResults] = useState<FoundCell[] | null>(null)
  const [message, setMessage] = useState<{ text: string; problem: boolean } | null>(null)
  const findRef = useRef<HTMLInputElement>(null)
  const replacing = mode === 'replace'

  useEffect(() => {
    if (mode) requestAnimationFrame(() => findRef.current?.select())
  }, [mode])

  // Replace works on what was typed, as in Excel, whose Replace tab looks in formulas only.
  const options = (): FindOptions => ({ find, lookIn: replacing ? 'formulas' : lookIn, matchCase, wholeCell, within })
  const changed = () => {
    setResults(null)
    setMessage(null)
  }
  const say = (text: string, problem = false) => setMessage({ text, problem })

  const findNextCell = (): FoundCell | null => {
    const found = findNext(workbook, options(), where())
    if (!found) say(NOTHING_FOUND, true)
    else {
      setMessage(null)
      onShow(found)
    }
    return found
  }

  const findEvery = () => {
    const found = findAll(workbook, options(), where().sheet)
    setResults(found)
    if (found.length === 0) say(NOTHING_FOUND, true)
    else say(`${found.length.toLocaleString('en-US')} cell${found.length === 1 ? '' : 's'} found`)
  }

  const write = (command: WorkbookCommand): boolean => {
    try {
      onReplace(command)
      return true
    } catch (error) {
      say(error instanceof Error ? error.message : String(error), true)
      return false
    }
  }

  /** Replaces in the active cell when it matches, then goes to the next match, as Excel's Replace does. */
  const replaceOne = () => {
    const here = where()
    const active = findAll(workbook, options(), here.sheet).find((cell) => cell.sheet === here.sheet && cell.row === here.row && cell.col === here.col)
    if (!active) {
      findNextCell()
      return
    }
    const plan = planReplacements([active], options(), replacement)
    if (plan.refused.length > 0) return say(refusedMessage(plan.refused), true)
    if (plan.command && !write(plan.command)) return
    setResults(null)
    const next = findNext(workbook, options(), here)
    if (next) onShow(next)
    say(next ? `Replaced in ${label(active, here.sheet)}.` : `Replaced in ${label(active, here.sheet)}. ${NOTHING_FOUND}`)
  }

  const replaceAll = () => {
    setResults(null)
    const search = options()
    try {
      const plan = planReplacements(findAll(workbook, search, where().sheet), search, replacement)
      if (plan.count === 0 && plan.refused.length === 0) return say(NOTHING_FOUND, true)
      if (plan.command && !write(plan.command)) return
      const parts = plan.count > 0 || plan.refused.length === 0 ? [replacedMessage(plan.count)] : []
      if (plan.refused.length > 0) parts.push(refusedMessage(plan.refused))
      say(parts.join(' '), plan.refused.length > 0)
    } catch (error) {
      say(error instanceof Error ? error.message : String(error), true)
    }
  }

  const nothingToFind = find === ''
  return (
    <Dialog
      open={mode !== null}
      title="Find and Replace"
      onClose={onClose}
      width={600}
      className="tool-dialog"
      footer={
        <>
          {replacing && (
            <>
              <button type="button" className="button" disabled={nothingToFind} onClick={replaceAll}>
                Replace All
              </button>
              <button type="button" className="button" disabled={nothingToFind} onClick={replaceOne}>
                Replace
              </button>
            </>
          )}
          <button type="button" className="button" disabled={nothingToFind} onClick={findEvery}>
            Find All
          </button>
          <button type="submit" form="find-replace-form" className="button primary" disabled={nothingToFind}>
            Find Next
          </button>
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </>
      }
    >
      <div role="tablist" aria-label="Find or replace" className="tool-tabs">
        {(['find', 'replace'] as const).map((tab) => (
          <button key={tab} type="button" role="tab" aria-selected={mode === tab} className={`tool-tab ${mode === tab ? 'selected' : ''}`} onClick={() => onMode(tab)}>
            {tab === 'find' ? 'Find' : 'Replace'}
          </button>
        ))}
      </div>
      <form
        id="find-replace-form"
        className="form tool-form"
        onSubmit={(event) => {
          event.preventDefault()
          if (!nothingToFind) findNextCell()
        }}
      >
        <label className="field">
          <span>Find what</span>
          <input
            ref={findRef}
            value={find}
            spellCheck={false}
            onChange={(event) => {
              setFind(event.target.value)
              changed()
            }}
          />
        </label>
        {replacing && (
          <label className="field">
            <span>Replace with</span>
            <input value={replacement} spellCheck={false} onChange={(event) => setReplacement(event.target.value)} />
          </label>
        )}
        <div className="tool-options">
          <label className="field">
            <span>Within</span>
            <select
              value={within}
              onChange={(event) => {
                setWithin(event.target.value as SearchWithin)
                changed()
              }}
            >
              <option value="sheet">Sheet</option>
              <option value="workbook">Workbook</option>
            </select>
          </label>
          <label className="field">
            <span>Look in</span>
            <select
              value={replacing ? 'formulas' : lookIn}
              disabled={replacing}
              onChange={(event) => {
                setLookIn(event.target.value as LookIn)
                changed()
              }}
            >
              <option value="formulas">Formulas</option>
              <option value="values">Values</option>
            </select>
          </label>
          <div className="tool-checks">
            <label className="checkbox-field">
              <input
                type="checkbox"
                checked={matchCase}
                onChange={(event) => {
                  setMatchCase(event.target.checked)
                  changed()
                }}
              />
              <span>Match case</span>
            </label>
            <label className="checkbox-field">
              <input
                type="checkbox"
                checked={wholeCell}
                onChange={(event) => {
                  setWholeCell(event.target.checked)
                  changed()
                }}
              />
              <span>Match entire cell contents</span>
            </label>
          </div>
        </div>
      </form>
      {message && (
        <p role={message.problem ? 'alert' : 'status'} className={message.problem ? 'form-alert tool-message' : 'form-note tool-message'}>
          {message.text}
        </p>
      )}
      {results && results.length > 0 && (
        <div className="tool-results">
          <table aria-label="Cells found">
            <thead>
              <tr>
                <th scope="col">Cell</th>
                <th scope="col">Value</th>
                <th scope="col">Formula</th>
              </tr>
            </thead>
            <tbody>
              {results.slice(0, LISTED_RESULTS).map((cell) => (
                <tr key={`${cell.sheet}!${cell.address}`}>
                  <td>
                    <button type="button" className="link-button" onClick={() => onShow(cell)}>
                      {`${sheetPrefix(cell.sheet)}${cell.address}`}
                    </button>
                  </td>
                  <td>{cell.value}</td>
                  <td>{cell.input.startsWith('=') ? cell.input : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {results.length > LISTED_RESULTS && <p className="muted">The first {LISTED_RESULTS} are listed.</p>}
        </div>
      )}
    </Dialog>
  )
}

function label(cell: FoundCell, activeSheet: string): string {
  return cell.sheet === activeSheet ? cell.address : `${sheetPrefix(cell.sheet)}${cell.address}`
}
