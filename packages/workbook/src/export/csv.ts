/**
 * One sheet as CSV (RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote or line
 * break). Text that starts with = + - @ (or a tab or carriage return) gets a leading apostrophe so
 * that a spreadsheet opening the file runs no formula from it.
 */
import { stringify } from 'csv-stringify/sync'
import { isDateFormat } from '@finsheet/formula'
import { displayOf, effectiveFormat } from '../model/cell-record.js'
import type { CellRecord } from '../model/cell-record.js'

const FORMULA_TRIGGER = /^[=+\-@\t\r]/

/** A text field made safe to open in a spreadsheet. */
export function neutralizeFormulaText(text: string): string {
  return FORMULA_TRIGGER.test(text) ? `'${text}` : text
}

function fieldOf(record: CellRecord): string {
  switch (record.type) {
    case 'empty':
      return ''
    case 'number': {
      const format = effectiveFormat(record)
      // Dates and times are written as they show; other numbers keep every digit.
      return format !== null && isDateFormat(format) ? displayOf(record) : String(record.value)
    }
    case 'boolean':
      return record.value ? 'TRUE' : 'FALSE'
    case 'error':
      return String(record.value)
    case 'text':
      return neutralizeFormulaText(String(record.value))
  }
}

/** The sheet's used rectangle from A1 as CSV text. */
export function writeCsv(cells: readonly CellRecord[]): string {
  let rows = 0
  let columns = 0
  for (const cell of cells) {
    if (cell.type === 'empty') continue
    rows = Math.max(rows, cell.row + 1)
    columns = Math.max(columns, cell.col + 1)
  }
  const grid: string[][] = Array.from({ length: rows }, () => new Array<string>(columns).fill(''))
  for (const cell of cells) if (cell.type !== 'empty') grid[cell.row][cell.col] = fieldOf(cell)
  return stringify(grid, { record_delimiter: 'windows', quoted_match: /^\s|\s$/ })
}
