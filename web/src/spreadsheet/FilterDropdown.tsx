import { useEffect, useMemo, useRef, useState } from 'react'
import type { SheetFilter } from '@finsheet/contracts'
import type { FilterValue } from '@finsheet/workbook/model'
import { shownValues } from './data-tools'

interface FilterDropdownProps {
  /** the column's header text, or its letter */
  header: string
  filter: SheetFilter
  column: number
  /** the column's distinct values below the headers, in sort order */
  values: readonly FilterValue[]
  /** where the dropdown's top-left corner sits, in the page */
  at: { x: number; y: number }
  /** the values to show (null: all of them) */
  onApply(shown: string[] | null): void
  onSort(descending: boolean): void
  onClose(): void
}

/** How a value is listed: blanks as Excel lists them. */
const valueLabel = (text: string) => (text === '' ? '(Blanks)' : text)
/** The most values listed at once; the search box finds the others. */
const LISTED = 1000

/** A filter header's dropdown: sort the filter's rows, or choose the values the column shows. */
export function FilterDropdown({ header, filter, column, values, at, onApply, onSort, onClose }: FilterDropdownProps) {
  const all = useMemo(() => values.map((value) => value.text), [values])
  const [checked, setChecked] = useState(() => shownValues(filter, column, all))
  const [search, setSearch] = useState('')
  const ref = useRef<HTMLDivElement>(null)
  const filtering = filter.columns?.some((entry) => entry.column === column) ?? false

  useEffect(() => {
    const outside = (event: PointerEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) onClose()
    }
    document.addEventListener('pointerdown', outside, true)
    return () => document.removeEventListener('pointerdown', outside, true)
  }, [onClose])

  const needle = search.trim().toLowerCase()
  const matching = needle ? all.filter((text) => valueLabel(text).toLowerCase().includes(needle)) : all
  const allChecked = matching.every((text) => checked.has(text))
  const toggle = (text: string, on: boolean) =>
    setChecked((current) => {
      const next = new Set(current)
      if (on) next.add(text)
      else next.delete(text)
      return next
    })
  const apply = () => {
    // A search narrows the choice to the values it finds, as Excel's does.
    const shown = needle ? matching.filter((text) => checked.has(text)) : all.filter((text) => checked.has(text))
    onApply(shown.length === all.length ? null : shown)
  }

  return (
    <div
      ref={ref}
      className="filter-dropdown"
      role="dialog"
      aria-label={`Filter ${header}`}
      style={{ left: Math.max(4, Math.min(at.x, window.innerWidth - 270)), top: Math.max(4, Math.min(at.y, window.innerHeight - 440)) }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault()
          onClose()
        }
      }}
    >
      <div className="filter-dropdown-sorts">
        <button type="button" className="filter-dropdown-item" onClick={() => onSort(false)}>
          Sort A → Z
        </button>
        <button type="button" className="filter-dropdown-item" onClick={() => onSort(true)}>
          Sort Z → A
        </button>
        <button type="button" className="filter-dropdown-item" disabled={!filtering} onClick={() => onApply(null)}>
          Clear filter from “{header}”
        </button>
      </div>
      <input autoFocus type="search" className="filter-dropdown-search" aria-label="Search values" placeholder="Search" value={search} onChange={(event) => setSearch(event.target.value)} />
      <div className="filter-dropdown-values" role="group" aria-label="Values">
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={allChecked && matching.length > 0}
            onChange={(event) =>
              setChecked((current) => {
                const next = new Set(current)
                for (const text of matching) {
                  if (event.target.checked) next.add(text)
                  else next.delete(text)
                }
                return next
              })
            }
          />
          <span>{needle ? '(Select all search results)' : '(Select all)'}</span>
        </label>
        {matching.slice(0, LISTED).map((text) => (
          <label key={text} className="checkbox-field">
            <input type="checkbox" checked={checked.has(text)} onChange={(event) => toggle(text, event.target.checked)} />
            <span>{valueLabel(text)}</span>
          </label>
        ))}
        {matching.length > LISTED && <p className="filter-dropdown-more">{(matching.length - LISTED).toLocaleString('en-US')} more: search to find them</p>}
        {matching.length === 0 && <p className="filter-dropdown-more">No values match</p>}
      </div>
      <div className="filter-dropdown-footer">
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="button primary" disabled={checked.size === 0} onClick={apply}>
          OK
        </button>
      </div>
    </div>
  )
}
