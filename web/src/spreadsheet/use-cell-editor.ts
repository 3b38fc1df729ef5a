import type { RefObject } from 'react'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { EditorControls } from '../actions/action-registry'
import type { CellPosition } from '../grid/address'
import { cellAddress } from '../grid/address'
import type { EditorState } from '../grid/editor-state'
import { beginEdit, committedInput, editText, hasChanged } from '../grid/editor-state'
import { cycleReferenceAnchoring } from '../grid/absolute-reference'
import { completeFunctionName, sheetPrefix, translateFormula } from '../grid/formula-editing'
import type { NavigationContext, NavigationKey } from '../grid/navigation'
import { navigate } from '../grid/navigation'
import type { Selection } from '../grid/selection'
import { selectionRange, singleCellSelection } from '../grid/selection'
import type { Workspace } from './workspace'
import { judgeInput } from './data-validation'
import type { ValidationAlert, ValidationAnswer } from './ValidationAlertDialog'

export interface CellEditorOptions {
  workspace: Workspace
  /** the sheet on screen */
  sheet: string
  /** the active cell (a merged area's top-left cell) */
  activeCell: CellPosition
  navigation(): NavigationContext
  /** sets the selection and scrolls a cell into view */
  select(next: Selection, reveal?: CellPosition): void
  /** scrolls a cell into view */
  reveal(pos: CellPosition): void
  /** gives the grid the keyboard */
  focusGrid(): void
}

export interface CellEditor extends EditorControls {
  editor: EditorState | null
  /** the latest editor state, for event handlers that run before a render */
  current: RefObject<EditorState | null>
  /** where the edit is typed: in the cell or in the fx bar */
  editorIn: 'cell' | 'bar'
  setEditorIn(where: 'cell' | 'bar'): void
  setEditor(next: EditorState | null): void
  /** starts editing the active cell with `text` (null: what it holds) */
  start(text: string | null, mode: EditorState['mode'], where?: 'cell' | 'bar'): EditorState | null
  /** starts editing a given cell, caret at the end (a double click) */
  startAt(cell: CellPosition): void
  /** the text typed so far changed (typing, the fx bar); an edit starts when none is open */
  input(text: string, caret: number): void
  /** the caret moved within the text */
  moveCaret(caret: number): void
  /** completes the function name at the caret ('SU' → 'SUM(') */
  complete(name: string): void
  /** the prefix a reference pointed at on another sheet than the edited cell's carries */
  pointingPrefix(state: EditorState): string
  /** the alert of a typed value that breaks the cell's data validation, waiting for an answer */
  validationAlert: ValidationAlert | null
  /** the answer to that alert: write the value anyway, go back to the edit, or drop it */
  answerValidation(answer: ValidationAnswer): void
}

/**
 * An edit of a cell, as Excel does it: typing, F2 or '=' starts it; Enter, Tab and their Shift forms
 * write it and move; Ctrl+Enter writes it into every selected cell; Escape drops it; Alt+Enter starts
 * a new line. An edit remembers its sheet, so pointing at cells of another sheet while typing a
 * formula writes them with the sheet's name and the edit returns to its own sheet when it ends.
 */
export function useCellEditor({ workspace, sheet, activeCell, navigation, select, reveal, focusGrid }: CellEditorOptions): CellEditor {
  const [editor, setEditorState] = useState<EditorState | null>(null)
  const [editorIn, setEditorIn] = useState<'cell' | 'bar'>('cell')
  const current = useRef<EditorState | null>(editor)
  current.current = editor
  // A value refused by the cell's data validation waits here for the alert's answer.
  const [refused, setRefused] = useState<{ alert: ValidationAlert; move: NavigationKey | null; intoSelection: boolean } | null>(null)
  const refusedRef = useRef(refused)
  refusedRef.current = refused
  const store = workspace.state.store
  const workbookId = store?.id

  const setEditor = useCallback((next: EditorState | null) => {
    current.current = next
    setEditorState(next)
  }, [])

  // a new sheet starts without an edit in progress, unless the edit knows its own sheet
  useEffect(() => {
    if (current.current && current.current.sheet === undefined) setEditor(null)
  }, [sheet, setEditor])

  // another workbook ends the edit; the same workbook reopened as the server has it keeps it
  useEffect(() => {
    setEditor(null)
  }, [workbookId, setEditor])

  const start = useCallback(
    (text: string | null, mode: EditorState['mode'], where: 'cell' | 'bar' = 'cell') => {
      const open = workspace.state.store
      if (!open) return null
      const original = open.getInput(sheet, activeCell)
      const next = { ...beginEdit(activeCell, original, text ?? original, mode), sheet }
      setEditor(next)
      setEditorIn(where)
      reveal(activeCell)
      return next
    },
    [workspace, sheet, activeCell, reveal, setEditor],
  )

  const startAt = useCallback(
    (cell: CellPosition) => {
      const open = workspace.state.store
      if (!open) return
      workspace.setSelection(singleCellSelection(cell))
      const original = open.getInput(sheet, cell)
      setEditor({ ...beginEdit(cell, original, original, 'edit'), sheet })
      setEditorIn('cell')
    },
    [workspace, sheet, setEditor],
  )

  const commit = useCallback(
    (move: NavigationKey | null, intoSelection = false, despiteValidation = false) => {
      const edit = current.current
      const open = workspace.state.store
      // while an alert waits, the focus it took from the cell does not write the edit
      if (!edit || !open || refusedRef.current) return
      const input = committedInput(edit)
      // every command carries the sheet the cell was typed on, whatever is shown now
      const target = edit.sheet ?? sheet
      const elsewhere = target !== sheet
      if (!despiteValidation && (intoSelection || hasChanged(edit))) {
        // As in Excel, what is typed is judged by the cell's rule; pastes and fills are not.
        const judged = judgeInput(open, target, edit.cell, input)
        if (!judged.valid && judged.alert) {
          const waiting = { alert: judged.alert, move, intoSelection }
          refusedRef.current = waiting
          setRefused(waiting)
          return
        }
      }
      if (intoSelection && !elsewhere) {
        const cells: { address: string; input: string }[] = []
        const r = selectionRange(workspace.state.selection)
        for (let row = r.startRow; row <= r.endRow; row++) {
          for (let col = r.startCol; col <= r.endCol; col++) {
            const shifted = input.startsWith('=') ? translateFormula(input, row - edit.cell.row, col - edit.cell.col) : input
            cells.push({ address: cellAddress({ col, row }), input: shifted })
          }
        }
        open.dispatch({ type: 'set-cells', sheet: target, cells })
      } else if (hasChanged(edit)) {
        open.dispatch({ type: 'set-cells', sheet: target, cells: [{ address: cellAddress(edit.cell), input }] })
      }
      setEditor(null)
      const from = elsewhere ? singleCellSelection(edit.cell) : workspace.state.selection
      const next = move ? (navigate(from, move, navigation()) ?? from) : from
      if (elsewhere) {
        // back to the sheet of the edited cell, as Excel returns after pointing at another sheet
        workspace.switchSheet(target, next)
        requestAnimationFrame(() => reveal(next.active))
        focusGrid()
        return
      }
      if (move) select(next, next.active)
      focusGrid()
    },
    [workspace, sheet, navigation, select, reveal, focusGrid, setEditor],
  )

  const cancel = useCallback(() => {
    const edit = current.current
    setEditor(null)
    if (edit?.sheet && edit.sheet !== sheet) workspace.switchSheet(edit.sheet, singleCellSelection(edit.cell))
    focusGrid()
  }, [focusGrid, sheet, workspace, setEditor])

  const complete = useCallback(
    (name: string) => {
      const edit = current.current
      if (!edit) return
      const done = completeFunctionName(edit.text, edit.caret, name)
      setEditor({ ...edit, text: done.text, caret: done.caret, pointing: null, mode: 'enter' })
    },
    [setEditor],
  )

  const input = useCallback(
    (text: string, caret: number) => {
      const edit = current.current ?? start(null, 'enter')
      if (!edit) return
      setEditor(current.current ? editText(edit, text, caret) : { ...edit, text, caret })
    },
    [start, setEditor],
  )

  const moveCaret = useCallback(
    (caret: number) => {
      const edit = current.current
      if (edit && caret !== edit.caret) setEditor(editText(edit, edit.text, caret))
    },
    [setEditor],
  )

  const toggleMode = useCallback(() => {
    const edit = current.current
    if (edit) setEditor({ ...edit, mode: edit.mode === 'enter' ? 'edit' : 'enter', pointing: null })
  }, [setEditor])

  const newLine = useCallback(() => {
    const edit = current.current
    if (!edit) return
    // a selected stretch of the text is replaced, as typing would
    const element = document.activeElement
    const field = element instanceof HTMLTextAreaElement || element instanceof HTMLInputElement ? element : null
    const from = field?.selectionStart ?? edit.caret
    const to = field?.selectionEnd ?? from
    setEditor(editText(edit, edit.text.slice(0, from) + '\n' + edit.text.slice(to), from + 1))
  }, [setEditor])

  const cycleReference = useCallback(() => {
    const edit = current.current
    if (!edit) return
    const cycled = cycleReferenceAnchoring(edit.text, edit.caret)
    if (cycled) setEditor({ ...edit, text: cycled.text, caret: cycled.caret, pointing: null })
  }, [setEditor])

  const pointingPrefix = useCallback((state: EditorState) => (state.sheet !== undefined && state.sheet !== sheet ? sheetPrefix(sheet) : ''), [sheet])

  const answerValidation = useCallback(
    (answer: ValidationAnswer) => {
      const waiting = refusedRef.current
      refusedRef.current = null
      setRefused(null)
      if (!waiting) return
      if (answer === 'write') commit(waiting.move, waiting.intoSelection, true)
      else if (answer === 'cancel') cancel()
      // Retry: back to the edit, its text as typed.
      else requestAnimationFrame(() => focusGrid())
    },
    [commit, cancel, focusGrid],
  )

  return {
    editor,
    current,
    editorIn,
    setEditorIn,
    setEditor,
    start,
    startAt,
    commit,
    cancel,
    complete,
    input,
    moveCaret,
    toggleMode,
    newLine,
    cycleReference,
    pointingPrefix,
    validationAlert: refused?.alert ?? null,
    answerValidation,
  }
}
