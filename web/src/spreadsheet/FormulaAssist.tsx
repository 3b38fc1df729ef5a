import type { Ref } from 'react'
import { useEffect, useMemo, useState } from 'react'
import { api } from '../app/services'
import type { EditorState } from '../grid/editor-state'
import { describedPhraseAt, enclosingFunction, functionPrefixAt, isFormulaText, matchFunctions, syntaxParts } from '../grid/formula-editing'
import { FormulaSearcher, localFormulaSearch } from './formula-search'

/** One searcher for the app, so its cache serves every edit. */
const formulaSearcher = new FormulaSearcher(api)
/** Typing pauses this long before the words are sent to the search. */
const DESCRIBE_DEBOUNCE_MS = 200

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
 * Functions for words that describe one ('=monthly payment' → PMT): the catalogue's own matches at
 * once, then the vector search's when it answers (it stays with the catalogue's when it is away).
 */
function useDescribedFunctions(phrase: string | null, functions: readonly FunctionSuggestion[]): FunctionSuggestion[] {
  const [found, setFound] = useState<{ phrase: string; results: FunctionSuggestion[] } | null>(null)
  useEffect(() => {
    if (!phrase) return
    const controller = new AbortController()
    const timer = setTimeout(() => {
      void formulaSearcher.search(phrase, controller.signal).then((results) => {
        if (controller.signal.aborted || !results) return
        // Only functions this engine has, with its own syntax and description.
        const known = results.flatMap((result) => functions.find((f) => f.name === result.name) ?? [])
        setFound({ phrase, results: known })
      })
    }, DESCRIBE_DEBOUNCE_MS)
    return () => {
      controller.abort()
      clearTimeout(timer)
    }
  }, [phrase, functions])
  return useMemo(() => {
    if (!phrase) return []
    if (found && found.phrase === phrase && found.results.length > 0) return found.results
    return localFormulaSearch(functions, phrase)
  }, [phrase, found, functions])
}

/**
 * What helps while a formula is typed: the catalogue functions matching the name being typed, the
 * functions a description in words asks for, or, inside a call, the function's syntax with the
 * current argument marked.
 */
export function useFormulaAssist(editor: EditorState | null, functions: readonly FunctionSuggestion[]): { suggestions: FunctionSuggestion[]; hint: FunctionHint | null } {
  const phrase = editor && isFormulaText(editor.text) ? (describedPhraseAt(editor.text, editor.caret)?.phrase ?? null) : null
  const described = useDescribedFunctions(phrase, functions)
  return useMemo(() => {
    if (!editor || !isFormulaText(editor.text)) return { suggestions: [], hint: null }
    if (phrase && described.length > 0) return { suggestions: described, hint: null }
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
  }, [editor, functions, phrase, described])
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
