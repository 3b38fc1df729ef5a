/**
 * Comparing calculated values with the values Excel cached in a file.
 */
import { CellError } from '@finsheet/formula'
import type { Scalar } from '@finsheet/formula'
import type { LoadedWorkbook } from './load-xlsx.js'

/** Relative tolerance for numbers. */
export const RELATIVE_TOLERANCE = 1e-9
/** Absolute tolerance, which decides near zero where a relative one means nothing. */
export const ABSOLUTE_TOLERANCE = 1e-12

/**
 * Whether our value equals Excel's: numbers within the tolerances, text, booleans and error codes
 * exactly. An empty text result and no cached value count as the same, because a file stores an empty
 * text result as a cell without a value.
 */
export function valuesMatch(ours: Scalar, excel: Scalar): boolean {
  if (typeof ours === 'number' && typeof excel === 'number') {
    const difference = Math.abs(ours - excel)
    return difference <= ABSOLUTE_TOLERANCE || difference <= RELATIVE_TOLERANCE * Math.max(Math.abs(ours), Math.abs(excel))
  }
  if (ours instanceof CellError || excel instanceof CellError) {
    return ours instanceof CellError && excel instanceof CellError && ours.code === excel.code
  }
  if ((ours === null || ours === '') && (excel === null || excel === '')) return true
  return ours === excel
}

/** A value as JSON: errors become their code (`"#DIV/0!"`), empty becomes null. */
export function valueToJson(value: Scalar): number | string | boolean | null {
  if (value instanceof CellError) return value.code
  return value
}

/** One cell whose value differs from the one Excel cached. */
export interface Mismatch {
  readonly sheet: string
  readonly address: string
  readonly formula: string
  readonly ours: Scalar
  readonly excel: Scalar
}

export interface ComparisonReport {
  readonly passed: number
  readonly failed: number
  readonly mismatches: Mismatch[]
}

/** Compares every formula cell of a loaded workbook with the value Excel cached for it. */
export function compareWithCachedValues(loaded: LoadedWorkbook): ComparisonReport {
  let passed = 0
  const mismatches: Mismatch[] = []
  for (const cell of loaded.formulaCells) {
    const ours = loaded.engine.getValue(cell.sheet, cell.address)
    if (valuesMatch(ours, cell.cached)) passed++
    else mismatches.push({ sheet: cell.sheet, address: cell.address, formula: cell.formula, ours, excel: cell.cached })
  }
  return { passed, failed: mismatches.length, mismatches }
}
