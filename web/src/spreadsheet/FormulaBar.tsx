import type { FocusEvent, KeyboardEvent, Ref } from 'react'
import { useState } from 'react'

interface FormulaBarProps {
  /** the selected cell or range, shown in the cell-reference box */
  selectionText: string
  /** the defined names, offered as the cell-reference box is typed in */
  names: readonly string[]
  /** the active cell's input, or the text being edited */
  value: string
  inputRef: Ref<HTMLInputElement>
  /** jumps to a typed reference; answers an error text or null */
  onGoTo(reference: string): string | null
  onLeaveNameBox(): void
  onFocus(): void
  onChange(value: string, caret: number): void
  onCaretMove(element: HTMLInputElement): void
  onKeyDown(event: KeyboardEvent<HTMLInputElement>): void
  onBlur(event: FocusEvent<HTMLInputElement>): void
}

/** The cell-reference box (which also jumps to a typed reference) and the fx bar. */
export function FormulaBar(props: FormulaBarProps) {
  const [nameBox, setNameBox] = useState<string | null>(null)
  return (
    <div className="formula-bar">
      <input
        className="name-box"
        aria-label="Cell reference"
        list={props.names.length > 0 ? 'defined-names' : undefined}
        value={nameBox ?? props.selectionText}
        onFocus={(e) => {
          setNameBox(e.target.value)
          e.target.select()
        }}
        onChange={(e) => setNameBox(e.target.value)}
        onBlur={() => setNameBox(null)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault()
            if (props.onGoTo(nameBox ?? '') === null) setNameBox(null)
          } else if (e.key === 'Escape') {
            setNameBox(null)
            props.onLeaveNameBox()
          }
        }}
      />
      {props.names.length > 0 && (
        <datalist id="defined-names">
          {[...new Set(props.names)].map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      )}
      <span className="fx" aria-hidden="true">
        fx
      </span>
      <input
        ref={props.inputRef}
        className="formula-input"
        aria-label="Formula bar"
        placeholder="Enter formula or value"
        spellCheck={false}
        autoComplete="off"
        value={props.value}
        onFocus={props.onFocus}
        onChange={(e) => props.onChange(e.target.value, e.target.selectionStart ?? e.target.value.length)}
        onSelect={(e) => props.onCaretMove(e.currentTarget)}
        onKeyDown={props.onKeyDown}
        onBlur={props.onBlur}
      />
    </div>
  )
}
