export { readXlsx, XlsxFormatError } from './xlsx/read-xlsx.js'
export type { XlsxCell, XlsxDefinedName, XlsxSheet, XlsxWorkbook } from './xlsx/read-xlsx.js'
export { normalizeFormula } from './xlsx/formula-text.js'
export { cellKey, loadWorkbookIntoEngine, loadXlsxIntoEngine } from './xlsx/load-xlsx.js'
export type { FormulaCellRecord, LoadedWorkbook, LoadOptions } from './xlsx/load-xlsx.js'
export {
  ABSOLUTE_TOLERANCE,
  RELATIVE_TOLERANCE,
  compareWithCachedValues,
  valueToJson,
  valuesMatch,
} from './xlsx/compare.js'
export type { ComparisonReport, Mismatch } from './xlsx/compare.js'
export { describeMismatch, runCli, USAGE } from './cli/main.js'
export * from './model/index.js'
export * from './templates/index.js'
export * from './export/index.js'
