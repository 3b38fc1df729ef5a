import type { CellPosition, CellRange } from './address'
import { rangeHeight, rangeWidth } from './address'

/**
 * Clipboard text as Excel and Google Sheets write it: cells separated by tabs, rows by CRLF, and a
 * cell that holds a tab, a line break or starts with a double quote wrapped in double quotes with
 * inner quotes doubled. Excel ends the block with a line break; both programs accept either.
 */
export function toTsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(quoteField).join('\t')).join('\r\n') + (rows.length > 0 ? '\r\n' : '')
}

function quoteField(value: string): string {
  if (/[\t\r\n]/.test(value) || value.startsWith('"')) return `"${value.replace(/"/g, '""')}"`
  return value
}

/**
 * Reads tab-separated clipboard text into rows of cells. Quoted cells may hold tabs and line
 * breaks; a quote that does not close a field is kept as text, as Excel does for `"abc`. One
 * trailing line break is dropped, and rows are padded to the widest row so the block is rectangular.
 */
export function parseTsv(text: string): string[][] {
  if (text === '') return []
  const rows: string[][] = []
  let row: string[] = []
  let i = 0
  const n = text.length
  let fieldStart = true
  let field = ''
  const endField = () => {
    row.push(field)
    field = ''
    fieldStart = true
  }
  const endRow = () => {
    endField()
    rows.push(row)
    row = []
  }
  while (i < n) {
    const ch = text[i]
    if (fieldStart && ch === '"') {
      const quoted = readQuoted(text, i)
      if (quoted) {
        field = quoted.value
        i = quoted.next
        fieldStart = false
        continue
      }
    }
    fieldStart = false
    if (ch === '\t') {
      endField()
      i++
    } else if (ch === '\r' || ch === '\n') {
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1
      endRow()
      if (i >= n) return padRows(rows)
    } else {
      field += ch
      i++
    }
  }
  endRow()
  return padRows(rows)
}

/** A quoted field starting at `start`, or null when the quotes do not close right before a separator. */
function readQuoted(text: string, start: number): { value: string; next: number } | null {
  let value = ''
  let i = start + 1
  while (i < text.length) {
    const ch = text[i]
    if (ch === '"') {
      if (text[i + 1] === '"') {
        value += '"'
        i += 2
        continue
      }
      const after = text[i + 1]
      if (after === undefined || after === '\t' || after === '\r' || after === '\n') return { value, next: i + 1 }
      return null
    }
    value += ch
    i++
  }
  return null
}

function padRows(rows: string[][]): string[][] {
  const width = rows.reduce((max, r) => Math.max(max, r.length), 0)
  for (const r of rows) while (r.length < width) r.push('')
  return rows
}

/** An HTML table of the same block, for pasting into programs that prefer rich text. */
export function toHtmlTable(rows: readonly (readonly string[])[]): string {
  const escape = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, '<br>')
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${escape(c)}</td>`).join('')}</tr>`).join('')
  return `<table><tbody>${body}</tbody></table>`
}

/**
 * Where a copied block of `blockHeight` × `blockWidth` cells lands when pasted onto `target`.
 * As in Excel: a target that is a whole multiple of the block in both directions is tiled with
 * copies; anything else receives one copy anchored at its top-left cell, clipped to the grid.
 */
export function pasteTargetRange(
  blockHeight: number,
  blockWidth: number,
  target: CellRange,
  bounds: { columnCount: number; rowCount: number },
): CellRange {
  const h = rangeHeight(target)
  const w = rangeWidth(target)
  const tiles = h % blockHeight === 0 && w % blockWidth === 0 && (h > blockHeight || w > blockWidth)
  const height = tiles ? h : blockHeight
  const width = tiles ? w : blockWidth
  return {
    startCol: target.startCol,
    startRow: target.startRow,
    endCol: Math.min(target.startCol + width - 1, bounds.columnCount - 1),
    endRow: Math.min(target.startRow + height - 1, bounds.rowCount - 1),
  }
}

export interface PastedCell {
  pos: CellPosition
  /** the block cell this one copies, as offsets into the copied block */
  sourceRow: number
  sourceCol: number
  /** how far this cell lies from the copied cell's original position, for moving relative references */
  rowOffset: number
  colOffset: number
}

/**
 * Every cell a paste writes: `block` is the copied block's size, `origin` where it was copied from
 * (null for text from another program), and `target` the range from `pasteTargetRange`.
 */
export function planPaste(
  blockHeight: number,
  blockWidth: number,
  origin: CellPosition | null,
  target: CellRange,
): PastedCell[] {
  const cells: PastedCell[] = []
  for (let row = target.startRow; row <= target.endRow; row++) {
    for (let col = target.startCol; col <= target.endCol; col++) {
      const sourceRow = (row - target.startRow) % blockHeight
      const sourceCol = (col - target.startCol) % blockWidth
      cells.push({
        pos: { col, row },
        sourceRow,
        sourceCol,
        rowOffset: origin ? row - (origin.row + sourceRow) : 0,
        colOffset: origin ? col - (origin.col + sourceCol) : 0,
      })
    }
  }
  return cells
}
