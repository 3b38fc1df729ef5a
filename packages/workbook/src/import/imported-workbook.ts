/**
 * A workbook read from an uploaded file (xlsx or csv), as plain data: what the files service hands to
 * the spreadsheet service's bulk import. Styles are kept once in a table and cells point into it, so a
 * million cells sharing three looks carry three style objects, not a million.
 */
import type { SheetFilter } from '@finsheet/contracts'
import type { PageSetup } from '@finsheet/contracts'
import type { CalculationSettings } from '../model/calculation.js'
import type { ExternalLinkRecord } from '../model/external-links.js'
import type { CellNote } from '@finsheet/contracts'
import type { CarriedFeature } from '../xlsx/sheet-extras.js'
import type { KeptDrawing } from '../xlsx/kept-drawings.js'

export type { CarriedFeature }
import type { ConditionalFormatRule } from '@finsheet/contracts'
import type { DataValidationRule } from '@finsheet/contracts'

/** A cell's value as JSON: an error value is `{ error: '#DIV/0!' }`. */
export type ImportedValue = number | string | boolean | null | { error: string }

export interface ImportedCell {
  /** 0-based row. */
  row: number
  /** 0-based column. */
  col: number
  /** A1 address without `$`. */
  address: string
  /** The constant, or the value the file cached for a formula. */
  value: ImportedValue
  /** The formula without its leading '=' (shared formulas already expanded for this cell). */
  formula?: string
  /** The range an array formula was entered over, such as `C1:C4`, on its anchor cell. */
  arrayRange?: string
  /**
   * The array formula is a dynamic array (saved by Excel 365, it spills) rather than a fixed-size one
   * entered with Ctrl+Shift+Enter over `arrayRange`. A formula without `arrayRange` was saved as a plain
   * formula, which Excel calculates as before dynamic arrays (implicit intersection).
   */
  dynamicArray?: boolean
  /** Index into {@link ImportedWorkbook.styles}; absent for the default look. */
  style?: number
}

export type HorizontalAlign = 'left' | 'center' | 'right' | 'justify' | 'fill' | 'centerContinuous' | 'distributed'
export type VerticalAlign = 'top' | 'center' | 'bottom' | 'justify' | 'distributed'

export interface BorderSide {
  style: string
  color?: string
}

/** How a cell looks; every field is optional and absent means the default. Colours are '#RRGGBB'. */
export interface ImportedStyle {
  numberFormat?: string
  bold?: boolean
  italic?: boolean
  underline?: boolean
  strike?: boolean
  fontFamily?: string
  fontSize?: number
  color?: string
  fill?: string
  /** The theme colours `color` and `fill` resolve, when the file names them so. */
  colorTheme?: { theme: number; tint?: number }
  fillTheme?: { theme: number; tint?: number }
  align?: HorizontalAlign
  verticalAlign?: VerticalAlign
  wrapText?: boolean
  indent?: number
  textRotation?: number
  borders?: { top?: BorderSide; right?: BorderSide; bottom?: BorderSide; left?: BorderSide }
}

export interface ImportedSheet {
  name: string
  state: 'visible' | 'hidden' | 'veryHidden'
  /** Non-empty or formatted cells, row by row. */
  cells: ImportedCell[]
  /** Merged ranges such as `A1:C1`. */
  merges: string[]
  /** Widths in Excel's character units by 0-based column; only columns with a width set. */
  columns: { col: number; width: number; hidden?: boolean; level?: number; collapsed?: boolean }[]
  /** Heights in points by 0-based row; only rows with a height set, hidden or grouped. */
  rows: { row: number; height?: number; hidden?: boolean; level?: number; collapsed?: boolean }[]
  /** Rows and columns frozen above and left of the panes' split. */
  frozen?: { rows: number; columns: number }
  /** Data-validation rules, as the file states them. */
  validations?: DataValidationRule[]
  /** The sheet's filter (AutoFilter): its range and the values its columns show. */
  filter?: SheetFilter
  /** How the sheet prints: its page setup, print options, print area and titles. */
  pageSetup?: PageSetup
  /** Conditional-format rules in priority order. */
  conditionalFormats?: ConditionalFormatRule[]
  /** Rules of kinds not kept (time periods, blanks, errors), counted. */
  conditionalFormatsNotKept?: number
  defaultColumnWidth?: number
  defaultRowHeight?: number
  /** One past the last used row and column: the sheet's extent. */
  rowCount: number
  columnCount: number
  /** The tab's colour, '#RRGGBB'. */
  tabColor?: string
  /** False when the sheet's gridlines are turned off. */
  showGridLines?: false
  /** The zoom the sheet was saved at, in percent, when not 100. */
  zoom?: number
  /** Notes and threaded comments (as notes) by cell address. */
  notes?: Record<string, CellNote>
  /** Hyperlinks by cell address: a web or mail address, or `#Sheet1!A1` for a place in the workbook. */
  links?: Record<string, string>
  /** The sheet's charts and pictures as the file holds them, kept to be written back on export. */
  drawing?: KeptDrawing
  /** How many of each feature the report counts the sheet carries (charts, pivot tables, …); absent when none. */
  carries?: Partial<Record<CarriedFeature, number>>
}

export interface ImportedDefinedName {
  name: string
  /** The sheet a sheet-scoped name belongs to. */
  sheet?: string
  /** What the name refers to, without '='. */
  formula: string
  hidden?: boolean
}

/** An Excel table: its name, range (header and totals rows included), rows shown, column names and style. */
export interface ImportedTable {
  name: string
  sheet: string
  range: string
  headerRow: boolean
  totalsRow: boolean
  columns: string[]
  style?: string
}

export interface ImportedWorkbook {
  sheets: ImportedSheet[]
  definedNames: ImportedDefinedName[]
  /** Excel tables (xlsx files only). */
  tables?: ImportedTable[]
  styles: ImportedStyle[]
  /** The font of cells whose look states none (an xlsx file's first font); absent for csv. */
  defaultFont?: { family: string; size: number }
  /** Dates count from 1904; serial numbers are kept as stored. */
  date1904: boolean
  /** How the workbook calculates (an xlsx file's `calcPr`); absent for files that do not say (csv). */
  calculation?: CalculationSettings
  /** Other workbooks the formulas refer to (`[1]` is the first), with the values the file cached of them. */
  externalLinks?: ExternalLinkRecord[]
  /** Sheets that are charts only (chartsheets): their names. */
  chartSheets?: string[]
  /** The file carries macros (a VBA project). */
  macros?: boolean
  /** Totals, for the import report and progress. */
  cellCount: number
  formulaCount: number
}

/** Bounds that keep a hostile or oversized file from exhausting memory. */
export interface ImportLimits {
  /** Most cells one import takes. */
  maxCells: number
  /** Most bytes the zip's parts may inflate to, all together, as the zip declares them. */
  maxUncompressedBytes: number
  /** Highest inflation ratio of one large part before it counts as a zip bomb. */
  maxCompressionRatio: number
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  maxCells: 3_000_000,
  maxUncompressedBytes: 256 * 1024 * 1024,
  maxCompressionRatio: 200,
}

export type ImportErrorCode =
  | 'CORRUPT_FILE'
  | 'ZIP_BOMB'
  | 'TOO_LARGE'
  | 'TOO_MANY_CELLS'
  | 'PASSWORD_PROTECTED'
  | 'UNSUPPORTED_FORMAT'
  | 'TYPE_MISMATCH'
  | 'CSV_INVALID'
  | 'NO_DATA'

/** A file that cannot be imported, with a message a person can act on. Retrying never helps. */
export class ImportFileError extends Error {
  override readonly name = 'ImportFileError'
  constructor(
    readonly code: ImportErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/** Progress of a long read, from 0 to 1. */
export type ProgressListener = (fraction: number) => void

export function formatCount(count: number): string {
  return count.toLocaleString('en-US')
}

export function formatMegabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`
}
