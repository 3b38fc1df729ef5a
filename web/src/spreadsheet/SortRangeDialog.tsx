import { useState } from 'react'
import { useOpening } from '../ui/use-opening'
import type { WorkbookCommand } from '@finsheet/contracts'
import { columnLabel, parseRangeAddress, rangeAddress, type CellRange } from '../grid/address'
import { Dialog } from '../ui/Dialog'
import type { WorkbookStore } from '../workbook/workbook-store'

interface SortRangeDialogProps {
  open: boolean
  workbook: WorkbookStore
  sheet: string
  /** the range the dialog starts with: the selection, or the data around the active cell */
  initialRange: CellRange | null
  /** the first row of the starting range looks like headers */
  initialHeaders: boolean
  onSort(command: WorkbookCommand): void
  onClose(): void
}

interface KeyChoice {
  column: number
  descending: boolean
}

/** Data → Sort range…: the range, whether its first row holds headers, and the columns to sort by, in order. */
export function SortRangeDialog({ open, workbook, sheet, initialRange, initialHeaders, onSort, onClose }: SortRangeDialogProps) {
  const [rangeText, setRangeText] = useState('')
  const [headers, setHeaders] = useState(false)
  const [keys, setKeys] = useState<KeyChoice[]>([])
  const [error, setError] = useState<string | null>(null)

  useOpening(open && initialRange !== null, () => {
    if (!initialRange) return
    setRangeText(rangeAddress(initialRange))
    setHeaders(initialHeaders)
    setKeys([{ column: initialRange.startCol, descending: false }])
    setError(null)
  })

  const range = parseRangeAddress(rangeText)
  const columns: number[] = []
  if (range) for (let col = range.startCol; col <= range.endCol && columns.length < 500; col++) columns.push(col)
  // With headers each column is named by its header, as Excel's dialog does.
  const columnName = (col: number) => {
    const header = range && headers ? workbook.getDisplay(sheet, { row: range.startRow, col }) : ''
    return header ? `${header} (column ${columnLabel(col)})` : `Column ${columnLabel(col)}`
  }

  const submit = () => {
    if (!range) return setError(`${rangeText || 'The range'} is not a range such as A1:D20`)
    const usable = keys.filter((key) => key.column >= range.startCol && key.column <= range.endCol)
    if (usable.length === 0) return setError('Choose a column of the range to sort by')
    try {
      const command = workbook.sortCommand(sheet, { range: rangeAddress(range), hasHeaders: headers, keys: usable })
      if (command) onSort(command)
      onClose()
    } catch (problem) {
      setError(problem instanceof Error ? problem.message : String(problem))
    }
  }

  const setKey = (index: number, patch: Partial<KeyChoice>) => setKeys((current) => current.map((key, at) => (at === index ? { ...key, ...patch } : key)))

  return (
    <Dialog
      open={open}
      title="Sort range"
      onClose={onClose}
      width={500}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="sort-range-form" className="button primary">
            Sort
          </button>
        </>
      }
    >
      <form
        id="sort-range-form"
        className="sort-range-form"
        onSubmit={(event) => {
          event.preventDefault()
          submit()
        }}
      >
        <label className="field">
          <span>Range</span>
          <input
            value={rangeText}
            aria-invalid={error !== null}
            aria-describedby={error ? 'sort-range-error' : undefined}
            onChange={(event) => {
              setRangeText(event.target.value.toUpperCase())
              setError(null)
            }}
          />
        </label>
        <label className="checkbox-field">
          <input type="checkbox" checked={headers} onChange={(event) => setHeaders(event.target.checked)} />
          <span>My data has headers</span>
        </label>
        <ol className="sort-keys" aria-label="Sort by">
          {keys.map((key, index) => (
            <li key={index} className="sort-key">
              <label className="field">
                <span>{index === 0 ? 'Sort by' : 'Then by'}</span>
                <select value={key.column} onChange={(event) => setKey(index, { column: Number(event.target.value) })}>
                  {columns.map((col) => (
                    <option key={col} value={col}>
                      {columnName(col)}
                    </option>
                  ))}
                </select>
              </label>
              <label className="field">
                <span>Order</span>
                <select value={key.descending ? 'desc' : 'asc'} onChange={(event) => setKey(index, { descending: event.target.value === 'desc' })}>
                  <option value="asc">A → Z</option>
                  <option value="desc">Z → A</option>
                </select>
              </label>
              {keys.length > 1 && (
                <button type="button" className="icon-button" aria-label={`Remove sort column ${index + 1}`} onClick={() => setKeys((current) => current.filter((_, at) => at !== index))}>
                  ×
                </button>
              )}
            </li>
          ))}
        </ol>
        <button
          type="button"
          className="button"
          disabled={!range || keys.length >= columns.length}
          onClick={() => setKeys((current) => [...current, { column: columns.find((col) => !current.some((key) => key.column === col)) ?? columns[0], descending: false }])}
        >
          Add another sort column
        </button>
        {error && (
          <p id="sort-range-error" role="alert" className="field-error">
            {error}
          </p>
        )}
      </form>
    </Dialog>
  )
}
