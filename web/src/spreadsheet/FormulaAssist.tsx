import type { Ref } from 'react'
import { useMemo } from 'react'
import type { EditorState } from '../grid/editor-state'
import { enclosingFunction, functionPrefixAt, isFormulaText, matchFunctions, syntaxParts } from '../grid/formula-editing'

export interface FunctionSuggestion {
  name: string
  syntax: string
  description: string
}

export interface FunctionHint {
  name: string
  args: string[]
  /** which argument the caret is on */
  current: number
  description: string
}

/**
 * What helps while a formula is typed: the catalogue functions matching the name being typed,
 * or, inside a call, the function's syntax with the current argument marked.
 */
export function useFormulaAssist(editor: EditorState | null, functions: readonly FunctionSuggestion[]): { suggestions: FunctionSuggestion[]; hint: FunctionHint | null } {
  return useMemo(() => {
    if (!editor || !isFormulaText(editor.text)) return { suggestions: [], hint: null }
    const prefix = functionPrefixAt(editor.text, editor.caret)
    const suggestions = prefix ? matchFunctions(functions, prefix.prefix) : []
    if (suggestions.length > 0) return { suggestions, hint: null }
    const call = enclosingFunction(editor.text, editor.caret)
    const entry = call && functions.find((f) => f.name === call.name)
    if (!call || !entry) return { suggestions, hint: null }
    const { name, args } = syntaxParts(entry.syntax)
    const repeating = args.at(-1) === '...'
    const current = repeating && call.argument >= args.length - 2 ? args.length - 2 : Math.min(call.argument, args.length - 1)
    return { suggestions, hint: { name, args, current, description: entry.description } }
  }, [editor, functions])
}

interface FormulaAssistProps {
  /** where the edited cell is, relative to the grid area */
  anchor: { x: number; y: number; width: number; height: number }
  suggestions: readonly FunctionSuggestion[]
  hint: FunctionHint | null
  selected: number
  listId: string
  listRef: Ref<HTMLUListElement>
  onComplete(name: string): void
}

/** The autocomplete list or the syntax hint, under the edited cell. */
export function FormulaAssist({ anchor, suggestions, hint, selected, listId, listRef, onComplete }: FormulaAssistProps) {
  const position = { left: anchor.x, top: anchor.y + anchor.height + 2 }
  if (suggestions.length > 0) {
    return (
      <ul ref={listRef} id={listId} role="listbox" aria-label="Functions" className="function-suggestions" style={position}>
        {suggestions.map((f, i) => (
          <li
            key={f.name}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === selected}
            className={i === selected ? 'selected' : ''}
            onPointerDown={(e) => {
              e.preventDefault()
              onComplete(f.name)
            }}
          >
            <span className="function-name">{f.name}</span>
            <span className="function-syntax">{f.syntax}</span>
            {i === selected && <span className="function-description">{f.description}</span>}
          </li>
        ))}
      </ul>
    )
  }
  if (!hint) return null
  return (
    <div className="function-hint" role="note" aria-label="Function syntax" style={position} title={hint.description}>
      <span className="function-name">{hint.name}</span>(
      {hint.args.map((arg, i) => (
        <span key={i}>
          {i > 0 && ', '}
          {i === hint.current ? <strong>{arg}</strong> : arg}
        </span>
      ))}
      )
    </div>
  )
}
