/**
 * Other workbooks a workbook's formulas refer to (`[1]Sheet1!$C$8`), with the values the file keeps of
 * them, in a form that stores as JSON: the workbook model, its snapshots and imports keep this, and the
 * engine calculates external references from it (see the formula package's external-links).
 */
import { CellError, errorFromText, isCellError } from '@finsheet/formula'
import type { ExternalWorkbook, Scalar } from '@finsheet/formula'

/** A cached value as JSON: an error value is `{ error: '#REF!' }`. */
export type ExternalCachedValue = number | string | boolean | null | { error: string }

export interface ExternalLinkRecord {
  /** The linked file as the link names it (`Budget.xlsx`, `file:///C:/Models/Budget.xlsx`). */
  target: string
  /** Its sheets in the link's order, with the cells the file cached by A1 address. */
  sheets: { name: string; cells: Record<string, ExternalCachedValue>; refreshError?: boolean }[]
}

function toScalar(value: ExternalCachedValue): Scalar {
  if (value !== null && typeof value === 'object') return errorFromText(value.error) ?? CellError.REF
  return value
}

function toCached(value: Scalar): ExternalCachedValue {
  return isCellError(value) ? { error: value.code } : value
}

/** The records as the engine takes them. */
export function externalWorkbooksOf(records: readonly ExternalLinkRecord[]): ExternalWorkbook[] {
  return records.map((record) => ({
    target: record.target,
    sheets: record.sheets.map((sheet) => ({
      name: sheet.name,
      cells: Object.fromEntries(Object.entries(sheet.cells).map(([address, value]) => [address, toScalar(value)])),
      ...(sheet.refreshError ? { refreshError: true } : {}),
    })),
  }))
}

/** The engine's external workbooks as records. */
export function externalLinkRecordsOf(workbooks: readonly ExternalWorkbook[]): ExternalLinkRecord[] {
  return workbooks.map((workbook) => ({
    target: workbook.target,
    sheets: workbook.sheets.map((sheet) => ({
      name: sheet.name,
      cells: Object.fromEntries(Object.entries(sheet.cells).map(([address, value]) => [address, toCached(value)])),
      ...(sheet.refreshError ? { refreshError: true } : {}),
    })),
  }))
}
