export { readXlsx, XlsxFormatError } from './xlsx/read-xlsx.js'
export type { XlsxCell, XlsxDefinedName, XlsxSheet, XlsxWorkbook } from './xlsx/read-xlsx.js'
export type { XlsxTable } from './xlsx/table-parts.js'
export { normalizeFormula } from './xlsx/formula-text.js'
export { dataTableAttributes, dataTableFormula } from './xlsx/data-table-formula.js'
export { loadWorkbookIntoEngine, loadXlsxIntoEngine } from './xlsx/load-xlsx.js'
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
export { openXlsxImport, readXlsxFile } from './xlsx/stream-xlsx.js'
export { importedSheetView, readSheetLayout, pointsToPixels, pixelsToPoints } from './xlsx/sheet-layout.js'
export type { StreamXlsxOptions, XlsxImportSource } from './xlsx/stream-xlsx.js'
export { readCsvFile, detectDialect, detectEncoding } from './csv/read-csv.js'
export type { CsvDialect, ReadCsvOptions } from './csv/read-csv.js'
export { extractPdfEntries, entryFromLine, parseFigure, isPdf, readPdfPages, NO_DATA_EXTRACTED } from './pdf/extract-pdf.js'
export type { PdfEntry, PdfExtraction } from './pdf/extract-pdf.js'
export { DEFAULT_IMPORT_LIMITS, ImportFileError } from './import/imported-workbook.js'
export type {
  ImportedCell,
  ImportedDefinedName,
  ImportedSheet,
  ImportedStyle,
  BorderSide,
  ImportedTable,
  ImportedValue,
  ImportedWorkbook,
  ImportErrorCode,
  ImportLimits,
  CarriedFeature,
} from './import/imported-workbook.js'
export {
  contentKindOf,
  contentMatches,
  fileKindOfMime,
  fileKindOfName,
  isEncryptedOfficeFile,
  CONTENT_DESCRIPTIONS,
  KIND_DESCRIPTIONS,
} from './import/file-kind.js'
export type { ContentKind, FileKind } from './import/file-kind.js'
export { compactText, editDistance, labelSimilarity, labelTokens, LABEL_MATCH_THRESHOLD } from './labels/text-match.js'
export { startModuleWorker } from './module-worker.js'
export { withKeptDrawings, MAX_KEPT_DRAWING_BYTES, keptDrawingBytes } from './xlsx/kept-drawings.js'
export type { KeptDrawing, KeptDrawingPlacement, KeptDrawingsResult, KeptPart } from './xlsx/kept-drawings.js'
