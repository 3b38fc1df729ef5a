/**
 * A cell or range as trace_dependencies and explain_formula show it: its address, what it is called
 * (row label and column header), and its value — or, for a range, its size, first values and total.
 */
import { rangeSize, type RangeAddress, type SheetRecord, type WorkbookModel } from '@finsheet/workbook'
import { cellLabelAt, rowLabelAt, columnHeaderAt } from '../cell-labels.js'
import { modelValue, type TextFlags } from '../tool-kit.js'
import { cellText } from '../draft-session.js'

/** Values a range summary lists. */
const RANGE_VALUES = 12
/** Cells of a range read for its total; larger ranges give their size only. */
const RANGE_READ_LIMIT = 5_000

/** A range's label: the row's label for a row, the column's header for a column. */
function rangeLabel(state: WorkbookModel, sheet: SheetRecord, range: RangeAddress): string | undefined {
  if (range.top === range.bottom) return rowLabelAt(state, sheet, range.top, range.left)
  if (range.left === range.right) return columnHeaderAt(state, sheet, range.top, range.left)
  const row = rowLabelAt(state, sheet, range.top, range.left)
  const header = columnHeaderAt(state, sheet, range.top, range.left)
  return row && header ? `${row} · ${header} onward` : (row ?? header)
}

export function summarizeReference(state: WorkbookModel, sheet: SheetRecord | undefined, text: string, range: RangeAddress, flags: TextFlags, name?: string): Record<string, unknown> {
  const via = name !== undefined ? { name } : {}
  if (!sheet) return { ref: text, ...via, missing: 'this sheet or workbook is not in the workbook' }
  if (range.top === range.bottom && range.left === range.right) {
    const value = state.engine.getValueAt(sheet.name, range.top, range.left)
    const input = state.engine.getInputAt(sheet.name, range.top, range.left)
    const label = cellLabelAt(state, sheet, range.top, range.left)
    if (typeof value === 'string') flags.check(cellText(sheet.name, range.top, range.left), value)
    return { ref: text, ...via, ...(label ? { label } : {}), value: modelValue(value), ...(input.startsWith('=') ? { formula: input } : {}) }
  }
  const size = rangeSize(range)
  const label = rangeLabel(state, sheet, range)
  const summary: Record<string, unknown> = { ref: text, ...via, ...(label ? { label } : {}), cells: size }
  if (size > RANGE_READ_LIMIT) return summary
  const values: unknown[] = []
  let total = 0
  let numbers = 0
  let formulas = 0
  for (let row = range.top; row <= range.bottom; row++) {
    for (let col = range.left; col <= range.right; col++) {
      const value = state.engine.getValueAt(sheet.name, row, col)
      if (state.engine.getFormulaShapeAt(sheet.name, row, col) !== undefined) formulas++
      if (typeof value === 'number') {
        total += value
        numbers++
      }
      if (values.length < RANGE_VALUES) values.push(modelValue(value))
    }
  }
  summary.values = values
  if (size > RANGE_VALUES) summary.moreValues = size - RANGE_VALUES
  // Twelve significant digits: a sum of decimals shows no floating-point noise.
  if (numbers > 0) summary.total = Number(total.toPrecision(12))
  summary.formulas = formulas
  return summary
}
