/**
 * The part of the `@finsheet/formula` engine the workbook store uses. The store depends on this
 * shape rather than on the class so tests and the benchmark can hand it any engine instance.
 */
export type EngineValue = number | string | boolean | null | { readonly code: string }

export interface EngineCellInput {
  sheet: string
  address: string
  input: string
}

export interface CalcEngine {
  addSheet(name: string): unknown
  renameSheet(from: string, to: string): unknown
  removeSheet(name: string): unknown
  setCells(batch: EngineCellInput[]): unknown
  getValue(sheet: string, address: string): EngineValue
  getDisplay(sheet: string, address: string, numberFormat?: string): string
}

export function isEngineError(value: EngineValue): value is { readonly code: string } {
  return typeof value === 'object' && value !== null && 'code' in value
}
