/**
 * One sheet as CSV (RFC 4180): the used rectangle from A1, CRLF line ends, and a field quoted when it
 * holds a comma, a quote or a line break (a carriage return or a line feed alone included), or starts
 * or ends with white space. Each line of a text that starts with = + - @ or a tab, and a text that
 * starts with a carriage return, gets a leading apostrophe: a spreadsheet opening the file runs no
 * formula from it, whichever line of a field it reads as the start of a cell.
 *
 * The rectangle is written row by row as chunks are asked for, never held as a grid: cells at A1 and
 * XFD2000 make 32 MB of commas, not an array of 2,000 × 16,384 fields. `csvByteLength` says how large
 * the file will be before anything is written, so that a caller can refuse it.
 */
import { isDateFormat } from '@finsheet/formula'
import { displayOf, effectiveFormat } from '../model/cell-record.js'
import type { CellRecord } from '../model/cell-record.js'

const LINE_TRIGGER = /^[=+\-@\t]/
const LINE_BREAK = /(\r\n|\r|\n)/

/** A text field made safe to open in a spreadsheet. */
export function neutralizeFormulaText(text: string): string {
  let safe: string
  if (text.includes('\r') || text.includes('\n')) {
    // Split keeps the line breaks at the odd places, so the text joins back as it was.
    const parts = text.split(LINE_BREAK)
    for (let i = 0; i < parts.length; i += 2) if (LINE_TRIGGER.test(parts[i])) parts[i] = `'${parts[i]}`
    safe = parts.join('')
  } else safe = LINE_TRIGGER.test(text) ? `'${text}` : text
  // Readers that drop a leading carriage return would see what follows it as the start of the cell.
  return safe.startsWith('\r') ? `'${safe}` : safe
}

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/

/** A field as CSV writes it: quoted (with quotes doubled) when it must be. */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
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
      return csvField(neutralizeFormulaText(String(record.value)))
  }
}

/** The rows and columns of the used rectangle from A1 (cells that hold only a style do not count). */
function extent(cells: readonly CellRecord[]): { rows: number; columns: number } {
  let rows = 0
  let columns = 0
  for (const cell of cells) {
    if (cell.type === 'empty') continue
    if (cell.row >= rows) rows = cell.row + 1
    if (cell.col >= columns) columns = cell.col + 1
  }
  return { rows, columns }
}

/**
 * The size in bytes (UTF-8) of the CSV of `cells`, or of as much of it as passes `limit`: counting
 * stops there, so a sheet far too large is measured at once. The rectangle's separators are counted
 * first (cells at A1 and XFD1048576 make 17 GB of commas).
 */
export function csvByteLength(cells: readonly CellRecord[], limit = Infinity): number {
  const { rows, columns } = extent(cells)
  if (rows === 0) return 0
  let bytes = rows * (columns - 1 + 2)
  for (const cell of cells) {
    if (bytes > limit) break
    if (cell.type !== 'empty') bytes += Buffer.byteLength(fieldOf(cell))
  }
  return bytes
}

/** How many characters a chunk holds at least, once a row is complete. */
const CHUNK_CHARACTERS = 64 * 1024

/**
 * The CSV of a sheet's cells (sorted row-major, as sheet records are), in chunks of about 64 KB made
 * as they are asked for.
 */
export function* csvChunks(cells: readonly CellRecord[]): Generator<string> {
  const { rows, columns } = extent(cells)
  if (rows === 0) return
  const emptyRow = ','.repeat(columns - 1) + '\r\n'
  let chunk = ''
  let next = 0
  for (let row = 0; row < rows; row++) {
    while (next < cells.length && (cells[next].row < row || cells[next].type === 'empty')) next++
    if (next >= cells.length || cells[next].row !== row) chunk += emptyRow
    else {
      let line = ''
      let commas = 0
      for (; next < cells.length && cells[next].row === row; next++) {
        const cell = cells[next]
        if (cell.type === 'empty') continue
        if (cell.col > commas) {
          line += ','.repeat(cell.col - commas)
          commas = cell.col
        }
        line += fieldOf(cell)
      }
      chunk += line + ','.repeat(columns - 1 - commas) + '\r\n'
    }
    if (chunk.length >= CHUNK_CHARACTERS) {
      yield chunk
      chunk = ''
    }
  }
  if (chunk !== '') yield chunk
}

/** The sheet's used rectangle from A1 as CSV text (for small sheets and tests; exports stream `csvChunks`). */
export function writeCsv(cells: readonly CellRecord[]): string {
  let text = ''
  for (const chunk of csvChunks(cells)) text += chunk
  return text
}
