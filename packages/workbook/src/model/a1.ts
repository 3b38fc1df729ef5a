/**
 * A1 addresses for the workbook model. The engine owns the parsing; this module re-exports its
 * helpers and adds what services and the web need around them: sheet-qualified references and
 * moving ranges when rows or columns are inserted or deleted.
 */
import { formatAddress, formatRange, MAX_COL, MAX_ROW, tryParseAddress, tryParseRange } from '@finsheet/formula'
import type { RangeAddress } from '@finsheet/formula'

export {
  columnToLetters,
  lettersToColumn,
  formatAddress,
  parseAddress,
  tryParseAddress,
  parseRange,
  tryParseRange,
  formatRange,
  formatSheetPrefix,
  sheetNameNeedsQuotes,
  MAX_ROW,
  MAX_COL,
  sheetNameFormatProblem,
  isWellFormedText,
  toSheetName,
  MAX_SHEET_NAME_LENGTH,
} from '@finsheet/formula'
export type { CellAddress, RangeAddress } from '@finsheet/formula'

/** The canonical form of an address: upper case, no '$' ('$b$3' → 'B3'); undefined when invalid. */
export function normalizeAddress(text: string): string | undefined {
  const address = tryParseAddress(text)
  return address && formatAddress(address.row, address.col)
}

/**
 * Splits `Sheet1!A1`, `'My sheet'!A1:B2` or a bare `A1` into the sheet (undefined when absent) and the
 * reference text.
 */
export function splitSheetReference(text: string): { sheet?: string; reference: string } {
  const trimmed = text.trim()
  const bang = trimmed.lastIndexOf('!')
  if (bang < 0) return { reference: trimmed }
  let sheet = trimmed.slice(0, bang)
  if (sheet.startsWith("'") && sheet.endsWith("'") && sheet.length >= 2) sheet = sheet.slice(1, -1).replace(/''/g, "'")
  return { sheet, reference: trimmed.slice(bang + 1) }
}

/** Rows or columns inserted or deleted on one sheet; `at` is 0-based. */
export interface StructuralEdit {
  axis: 'rows' | 'columns'
  kind: 'insert' | 'delete'
  at: number
  count: number
}

/** Where a row or column index goes after the edit; undefined when it is deleted. */
export function moveIndex(index: number, edit: StructuralEdit): number | undefined {
  if (edit.kind === 'insert') return index >= edit.at ? index + edit.count : index
  if (index < edit.at) return index
  if (index < edit.at + edit.count) return undefined
  return index - edit.count
}

/** Where a cell goes after the edit; undefined when it is deleted. */
export function moveAddress(row: number, col: number, edit: StructuralEdit): { row: number; col: number } | undefined {
  if (edit.axis === 'rows') {
    const moved = moveIndex(row, edit)
    return moved === undefined || moved > MAX_ROW ? undefined : { row: moved, col }
  }
  const moved = moveIndex(col, edit)
  return moved === undefined || moved > MAX_COL ? undefined : { row, col: moved }
}

/**
 * A range after the edit, as Excel moves merges and chart ranges: inserting inside it widens it,
 * deleting part of it narrows it; undefined when the whole range is deleted.
 */
export function moveRange(range: RangeAddress, edit: StructuralEdit): RangeAddress | undefined {
  const [start, end] = edit.axis === 'rows' ? [range.top, range.bottom] : [range.left, range.right]
  const limit = edit.axis === 'rows' ? MAX_ROW : MAX_COL
  let first: number
  let last: number
  if (edit.kind === 'insert') {
    first = start >= edit.at ? start + edit.count : start
    last = end >= edit.at ? end + edit.count : end
  } else {
    const deletedEnd = edit.at + edit.count - 1
    if (start >= edit.at && end <= deletedEnd) return undefined
    first = start < edit.at ? start : start <= deletedEnd ? edit.at : start - edit.count
    last = end < edit.at ? end : end <= deletedEnd ? edit.at - 1 : end - edit.count
  }
  if (first > limit) return undefined
  last = Math.min(last, limit)
  return edit.axis === 'rows' ? { ...range, top: first, bottom: last } : { ...range, left: first, right: last }
}

/** A range text after the edit (see {@link moveRange}); undefined when deleted or invalid. */
export function moveRangeText(text: string, edit: StructuralEdit): string | undefined {
  const range = tryParseRange(text)
  if (!range) return undefined
  const moved = moveRange(range, edit)
  return moved && formatRange(moved)
}

/** Whether two ranges share a cell. */
export function rangesOverlap(a: RangeAddress, b: RangeAddress): boolean {
  return a.left <= b.right && b.left <= a.right && a.top <= b.bottom && b.top <= a.bottom
}

/** How many cells a range holds. */
export function rangeSize(range: RangeAddress): number {
  return (range.bottom - range.top + 1) * (range.right - range.left + 1)
}
