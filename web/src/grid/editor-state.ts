import type { CellPosition } from './address'
import type { PointingState } from './formula-editing'
import { canInsertReference, closeParentheses, isFormulaText, writePointedReference } from './formula-editing'
import type { NavigationContext, NavigationKey } from './navigation'
import { navigate } from './navigation'

/**
 * A cell edit in progress. 'enter' mode (started by typing or '=') is Excel's Enter mode: arrow
 * keys point at cells while a formula can take a reference at the caret, and otherwise commit
 * and move. 'edit' mode (F2, or a click into the text) moves the caret with the arrows.
 */
export interface EditorState {
  cell: CellPosition
  /** the input the cell held when the edit began, to tell whether anything changed */
  original: string
  text: string
  caret: number
  mode: 'enter' | 'edit'
  /** the reference the arrows or the mouse are writing, while pointing */
  pointing: PointingState | null
  /** the sheet of the edited cell, when the user points at cells of another sheet meanwhile */
  sheet?: string
}

export function beginEdit(cell: CellPosition, original: string, text: string, mode: EditorState['mode']): EditorState {
  return { cell, original, text, caret: text.length, mode, pointing: null }
}

/** The user changed the text or moved the caret: pointing ends unless the caret still sits on the pointed reference. */
export function editText(state: EditorState, text: string, caret: number): EditorState {
  const keepPointing = state.pointing !== null && text === state.text && caret === state.pointing.span.end
  return { ...state, text, caret, pointing: keepPointing ? state.pointing : null }
}

/** Whether arrows and clicks would write a reference at the caret right now. */
export function isPointable(state: EditorState): boolean {
  if (!isFormulaText(state.text)) return false
  if (state.pointing && state.caret === state.pointing.span.end) return true
  return canInsertReference(state.text, state.caret)
}

/**
 * An arrow key while pointing: moves (or with Shift stretches) the pointed reference and rewrites
 * it in the text. The first arrow starts from the edited cell, as in Excel. Returns null when the
 * key does not point (not a formula, caret not at a reference position, or F2 edit mode).
 */
export function pointWithKey(state: EditorState, key: NavigationKey, ctx: NavigationContext, sheetPrefix = ''): EditorState | null {
  if (state.mode !== 'enter' || !isPointable(state)) return null
  if (!key.key.startsWith('Arrow') && key.key !== 'PageUp' && key.key !== 'PageDown') return null
  const current = state.pointing
  const from = current
    ? { anchor: current.anchor, focus: current.focus, active: current.focus }
    : { anchor: state.cell, focus: state.cell, active: state.cell }
  const moved = navigate(from, key, ctx)
  if (!moved) return null
  const anchor = key.shift ? moved.anchor : moved.focus
  const span = current ?? { span: { start: state.caret, end: state.caret } }
  const written = writePointedReference(state.text, span.span, anchor, moved.focus, sheetPrefix)
  return { ...state, text: written.text, caret: written.caret, pointing: written.pointing }
}

/**
 * A click on a cell while editing a formula: writes its reference at the caret (or replaces the
 * reference being pointed at); Shift stretches the pointed reference to the clicked cell.
 * Returns null when the formula cannot take a reference at the caret.
 */
export function pointAtCell(state: EditorState, pos: CellPosition, extend: boolean, sheetPrefix = ''): EditorState | null {
  if (!isPointable(state)) return null
  const current = state.pointing
  const anchor = extend && current ? current.anchor : pos
  const span = current ? current.span : { start: state.caret, end: state.caret }
  const written = writePointedReference(state.text, span, anchor, pos, sheetPrefix)
  return { ...state, text: written.text, caret: written.caret, pointing: written.pointing, mode: 'enter' }
}

/** A mouse drag while pointing stretches the reference from where the drag began. */
export function dragPointTo(state: EditorState, pos: CellPosition, sheetPrefix = ''): EditorState {
  if (!state.pointing) return state
  const written = writePointedReference(state.text, state.pointing.span, state.pointing.anchor, pos, sheetPrefix)
  return { ...state, text: written.text, caret: written.caret, pointing: written.pointing }
}

/** The input to store when the edit is committed: unclosed parentheses are closed. */
export function committedInput(state: EditorState): string {
  return closeParentheses(state.text)
}

export function hasChanged(state: EditorState): boolean {
  return committedInput(state) !== state.original
}
