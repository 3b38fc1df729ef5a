/**
 * The import report: the workbook is calculated with the same engine the spreadsheet service runs,
 * from the same inputs it receives, and every formula cell whose value differs from the one the file
 * cached is listed (the first MAX_LISTED of them; all are counted).
 */
import { CellError, Engine, errorFromText, type CellUpdate, type Scalar } from '@finsheet/formula'
import type { ImportMismatch, ImportReport } from '@finsheet/contracts'
import type { ImportedValue, ImportedWorkbook } from '@finsheet/workbook'
import { valuesMatch } from '@finsheet/workbook'
import type { PreparedImport } from './workbook-import-body.js'

export const MAX_LISTED_MISMATCHES = 1000

export function buildImportReport(workbook: ImportedWorkbook, prepared: PreparedImport): ImportReport {
  const summary = { sheets: workbook.sheets.length, cells: workbook.cellCount, formulas: workbook.formulaCount, notKept: prepared.notKept }
  // Without formulas there is nothing to recalculate (a CSV file): no engine is built.
  if (workbook.formulaCount === 0) return { ...summary, matched: 0, mismatchCount: 0, mismatches: [] }
  const engine = new Engine()
  for (const sheet of workbook.sheets) engine.addSheet(sheet.name)
  for (const name of workbook.definedNames) {
    try {
      engine.defineName(name.name, '=' + name.formula, name.sheet)
    } catch {
      // a name the engine cannot define shows up as #NAME? in the cells that use it
    }
  }
  const updates: CellUpdate[] = []
  for (const sheet of workbook.sheets) {
    for (const cell of prepared.cells(sheet)) if (cell.input !== null) updates.push({ sheet: sheet.name, address: cell.address, input: cell.input })
  }
  engine.loadCells(updates)
  updates.length = 0

  let matched = 0
  let mismatchCount = 0
  const mismatches: ImportMismatch[] = []
  for (const sheet of workbook.sheets) {
    for (const cell of sheet.cells) {
      if (cell.formula === undefined) continue
      const ours = engine.getValue(sheet.name, cell.address) as Scalar
      const cached = toScalar(prepared.valueOf(cell))
      if (valuesMatch(ours, cached)) {
        matched++
        continue
      }
      mismatchCount++
      if (mismatches.length < MAX_LISTED_MISMATCHES) {
        mismatches.push({ sheet: sheet.name, address: cell.address, formula: '=' + cell.formula, ours: toJson(ours), cached: toJson(cached) })
      }
    }
  }
  return { ...summary, matched, mismatchCount, mismatches }
}

function toScalar(value: ImportedValue): Scalar {
  if (value !== null && typeof value === 'object') return errorFromText(value.error) ?? value.error
  return value
}

function toJson(value: Scalar | unknown): string | number | boolean | null {
  if (value === null || typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value
  if (value instanceof CellError) return value.code
  return String(value)
}
