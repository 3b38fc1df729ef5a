/**
 * The part of the `@finsheet/formula` engine the workbook store uses. The store depends on this
 * shape rather than on the class, and the engine is the one keeper of inputs and values: the
 * store adds only styles, number formats and column widths.
 */
export type EngineValue = number | string | boolean | null | { readonly code: string }

export interface EngineCellInput {
  sheet: string
  address: string
  input: string
}

export interface EngineCell {
  address: string
  row: number
  col: number
  input: string
}

export interface CalcEngine {
  addSheet(name: string): unknown
  renameSheet(from: string, to: string): unknown
  removeSheet(name: string): unknown
  setCells(batch: EngineCellInput[]): unknown
  /** bulk load with one recalculation: rows of inputs from `origin` (default A1); undefined leaves a cell alone */
  loadSheet(sheet: string, rows: readonly (readonly (string | number | boolean | null | undefined)[])[], origin?: string): void
  loadCells(batch: EngineCellInput[]): void
  getValue(sheet: string, address: string): EngineValue
  getInput(sheet: string, address: string): string
  getDisplay(sheet: string, address: string, numberFormat?: string): string
  forEachCell(sheet: string, visit: (cell: EngineCell) => void): void
  insertRows(sheet: string, index: number, count?: number): unknown
  deleteRows(sheet: string, index: number, count?: number): unknown
  insertColumns(sheet: string, index: number, count?: number): unknown
  deleteColumns(sheet: string, index: number, count?: number): unknown
}

export function isEngineError(value: EngineValue): value is { readonly code: string } {
  return typeof value === 'object' && value !== null && 'code' in value
}
