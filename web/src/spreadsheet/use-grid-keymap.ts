import type { KeyboardEvent as ReactKeyboardEvent } from 'react'
import { useCallback } from 'react'
import type { ActionContext, ActionRegistry, GridControls } from '../actions/action-registry'
import { chordOf } from '../actions/keys'
import { pointWithKey } from '../grid/editor-state'
import type { FunctionSuggestion } from './FormulaAssist'
import type { CellEditor } from './use-cell-editor'
import type { Workspace } from './workspace'

export interface GridKeymapOptions {
  registry: ActionRegistry
  workspace: Workspace
  grid: GridControls
  editor: CellEditor
  /** the function names offered for the name being typed */
  suggestions: readonly FunctionSuggestion[]
  suggestionIndex: number
  setSuggestionIndex(update: (index: number) => number): void
  go: ActionContext['go']
}

export interface GridKeymap {
  /** a key pressed in the grid (the cell's own editor) */
  onGridKey(event: ReactKeyboardEvent<HTMLElement>): void
  /** a key pressed while an edit is open, in the cell or in the fx bar */
  onEditingKey(event: ReactKeyboardEvent<HTMLElement>): void
}

/**
 * The grid's keyboard, read from the action registry: with no edit open a key runs the grid action it
 * belongs to (Ctrl+B, Delete, arrows, Shift+F10, …); while editing, the function list takes the arrows
 * and Tab first, then the editor's actions (Enter, Tab, Escape, F2, Alt+Enter, Ctrl+Enter), then the
 * arrows point at cells while a formula can take a reference, and in Enter mode an arrow that cannot
 * point writes the entry and moves, as in Excel.
 */
export function useGridKeymap({ registry, workspace, grid, editor, suggestions, suggestionIndex, setSuggestionIndex, go }: GridKeymapOptions): GridKeymap {
  const onEditingKey = useCallback(
    (event: ReactKeyboardEvent<HTMLElement>) => {
      const edit = editor.current.current
      if (!edit) return
      const key = chordOf(event)
      if (suggestions.length > 0) {
        if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          event.preventDefault()
          const step = event.key === 'ArrowDown' ? 1 : -1
          setSuggestionIndex((i) => (i + step + suggestions.length) % suggestions.length)
          return
        }
        if (event.key === 'Tab' && !event.shiftKey) {
          event.preventDefault()
          editor.complete(suggestions[suggestionIndex].name)
          return
        }
      }
      const handled = registry.handleKey(key, 'editor', { workspace, grid, editor, go })
      if (handled.taken) {
        event.preventDefault()
        return
      }
      if (event.key.startsWith('Arrow') || event.key === 'PageUp' || event.key === 'PageDown') {
        const pointed = pointWithKey(edit, key, grid.navigation(), editor.pointingPrefix(edit))
        if (pointed) {
          event.preventDefault()
          editor.setEditor(pointed)
          if (pointed.pointing) grid.reveal(pointed.pointing.focus)
          return
        }
        // Enter mode: an arrow that cannot point commits and moves
        if (edit.mode === 'enter' && editor.editorIn === 'cell' && event.key.startsWith('Arrow')) {
          event.preventDefault()
          editor.commit(key)
        }
      }
    },
    [registry, workspace, grid, editor, suggestions, suggestionIndex, setSuggestionIndex, go],
  )

  const onGridKey = useCallback(
    (event: ReactKeyboardEvent<HTMLElement>) => {
      if (event.nativeEvent.isComposing) return
      if (editor.current.current) {
        onEditingKey(event)
        return
      }
      const handled = registry.handleKey(chordOf(event), 'grid', { workspace, grid, editor: null, go })
      if (handled.taken) event.preventDefault()
    },
    [registry, workspace, grid, editor, go, onEditingKey],
  )

  return { onGridKey, onEditingKey }
}

