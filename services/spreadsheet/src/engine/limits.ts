/**
 * Caps on the work one command may cause, checked while it is translated, before anything is applied:
 * a merge spans at most MAX_MERGED_CELLS cells, and rows or columns are inserted only where they push
 * no non-empty cell off the sheet (Excel refuses such an insertion "to prevent possible loss of data").
 * Unmerging needs no cap: it removes a range from a list, whatever its size.
 */
import { MAX_MERGED_CELLS, SHEET_COLUMNS, SHEET_ROWS } from '@finsheet/contracts'
import { rangeSize, tryParseRange } from '@finsheet/workbook'
import { spreadsheetErrors } from '../errors.js'
import type { WorkbookState } from './workbook-state.js'

/** Refuses a merge over more cells than MAX_MERGED_CELLS (422, naming the limit). */
export function checkMergeSize(range: NonNullable<ReturnType<typeof tryParseRange>>, text: string): void {
  const cells = rangeSize(range)
  if (cells > MAX_MERGED_CELLS) throw spreadsheetErrors.mergeTooLarge(text, cells)
}

/**
 * Refuses an insertion that would shift non-empty cells (content, a style, a number format or a
 * merged range) past the last row or column of the sheet, where they would be lost.
 */
export function checkInsertion(state: WorkbookState, sheetId: string, axis: 'rows' | 'columns', at: number, count: number): void {
  const size = axis === 'rows' ? SHEET_ROWS : SHEET_COLUMNS
  const last = state.lastUsed(sheetId)
  let lastUsed = axis === 'rows' ? last.row : last.col
  for (const text of state.sheetById(sheetId).merges) {
    const merge = tryParseRange(text)
    if (merge) lastUsed = Math.max(lastUsed, axis === 'rows' ? merge.bottom : merge.right)
  }
  // Cells from `at` on move by `count`: the last of them must still be on the sheet.
  if (lastUsed >= at && lastUsed + count >= size) throw spreadsheetErrors.cellsOffSheet(axis, count)
}
