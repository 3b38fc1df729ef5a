import { MAX_CHART_CELLS, type ChartType } from '@finsheet/contracts'
import type { CellRange } from '../grid/address'
import { columnLabel, parseRangeAddress, rangeHeight, rangeWidth } from '../grid/address'

/** Spec 1 §2: the chart types of the Visualizations screen. */
export const CHART_TYPES: readonly { type: ChartType; label: string }[] = [
  { type: 'bar', label: 'Bar' },
  { type: 'line', label: 'Line' },
  { type: 'pie', label: 'Pie' },
  { type: 'area', label: 'Area' },
  { type: 'combo', label: 'Combo' },
  { type: 'waterfall', label: 'Waterfall' },
]

export { MAX_CHART_CELLS }

export type RangeCheck = { ok: true; range: CellRange; sheet: string | null } | { ok: false; message: string }

/**
 * Reads a data range as typed: 'B3:F8', or with its sheet ('Valuation!B3:F8', "'Cash Flow'!B3:F8").
 * A range of one cell, an unreadable one or one past the service's limit is refused with a reason.
 */
export function checkDataRange(text: string): RangeCheck {
  const trimmed = text.trim()
  if (trimmed === '') return { ok: false, message: 'Enter the range to chart, such as A1:F6.' }
  const bang = trimmed.lastIndexOf('!')
  const sheetPart = bang >= 0 ? trimmed.slice(0, bang) : null
  const sheet = sheetPart === null ? null : sheetPart.replace(/^'(.*)'$/, '$1').replace(/''/g, "'")
  const range = parseRangeAddress(bang >= 0 ? trimmed.slice(bang + 1) : trimmed)
  if (!range || sheet === '') return { ok: false, message: `${trimmed} is not a range. Write it as A1:F6.` }
  const cells = rangeWidth(range) * rangeHeight(range)
  if (cells < 2) return { ok: false, message: 'A chart needs at least two cells: labels and values.' }
  if (cells > MAX_CHART_CELLS) return { ok: false, message: `A chart can draw at most ${MAX_CHART_CELLS.toLocaleString('en-US')} cells.` }
  return { ok: true, range, sheet }
}

/** The used block of a sheet, from A1 to its last used row and column, as a range to start from. */
export function usedRange(rowCount: number, columnCount: number): string {
  if (rowCount <= 0 || columnCount <= 0) return ''
  return `A1:${columnLabel(columnCount - 1)}${rowCount}`
}
