/*
 * The contracts' plain values: limits, defaults, enumerations and the messages built from them, kept
 * apart from the schemas. A schema is an object TypeBox builds when its module loads, so the browser
 * app, which needs these values but validates nothing against the schemas, reads them from here
 * without building every schema of the API.
 */

// ---- requests and names -------------------------------------------------------------------------

/** Default largest JSON request body, the same at the gateway and at every service (BODY_LIMIT_BYTES). */
export const DEFAULT_BODY_LIMIT_BYTES = 10 * 1024 * 1024

/**
 * Whether a name (of a workbook, a sheet) is text any file or reader can hold: no unpaired surrogate
 * (half of a character, which UTF-8 cannot encode), no noncharacter U+FFFE or U+FFFF, and no control
 * character (which XML, and so an xlsx file, cannot hold either).
 */
export function isValidNameText(name: string): boolean {
  return !INVALID_NAME_TEXT.test(name)
}

// With the u flag \p{Cs} matches only surrogates that are not part of a pair.
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const INVALID_NAME_TEXT = /[\p{Cs}\u0000-\u001F\u007F\uFFFE\uFFFF]/u

export const INVALID_NAME_TEXT_MESSAGE = 'Names must be valid Unicode text without control characters'

// ---- limits -------------------------------------------------------------------------------------

/** Formulas longer than this are refused, as Excel does. */
export const MAX_FORMULA_LENGTH = 8192

/** Excel's limit on the characters of a cell. */
export const MAX_CELL_TEXT_LENGTH = 32_767

/** Updates one update-cells call or one change may carry. */
export const MAX_UPDATES_PER_CHANGE = 20_000

/** Cells one format-cells command may touch. */
export const MAX_FORMATTED_CELLS = 100_000

/** A sheet's rows and columns, as in Excel. */
export const SHEET_ROWS = 1_048_576

export const SHEET_COLUMNS = 16_384

/** Cells one merged range may span (a merge is kept as its range; what reads it walks its cells). */
export const MAX_MERGED_CELLS = 100_000

/**
 * The most a CSV or JSON export may hold, in bytes. A CSV past it is refused (413) before anything is
 * sent; a JSON export stops at it and says so in its `truncated` field.
 */
export const MAX_EXPORT_BYTES = 256 * 1024 * 1024

/** Cells (with content, or only a style) an xlsx export may hold; a larger workbook is refused (413). */
export const MAX_XLSX_EXPORT_CELLS = 1_000_000

const thousands = (n: number) => n.toLocaleString('en-US')

/** Why a merge is refused, as the service answers it and the web app shows it. */
export function mergeTooLargeMessage(range: string, cells: number): string {
  return `The range ${range} spans ${thousands(cells)} cells; a merge can span at most ${thousands(MAX_MERGED_CELLS)}`
}

/** Excel's refusal to shift non-empty cells off the sheet, naming the sheet's size. */
export function cellsOffSheetMessage(axis: 'rows' | 'columns', count: number): string {
  const size = axis === 'rows' ? SHEET_ROWS : SHEET_COLUMNS
  const noun = count === 1 ? axis.slice(0, -1) : axis
  return (
    `To prevent possible loss of data, ${thousands(count)} ${noun} cannot be inserted there: that would shift non-empty cells off the end of the sheet, ` +
    `which has ${thousands(size)} ${axis}. Insert fewer ${axis}, insert them ${axis === 'rows' ? 'further down' : 'further right'}, or delete data from the end of the sheet.`
  )
}

export const MAX_SHEETS = 255

/** Other workbooks one workbook may link to (`[1]` to `[256]`). */
export const MAX_EXTERNAL_LINKS = 256

/** Values of other workbooks one workbook may keep, over all its links: external references calculate from them. */
export const MAX_EXTERNAL_CACHED_CELLS = 250_000

/** Why an import's links to other workbooks are refused: they keep more values than a workbook may. */
export function externalCacheTooLargeMessage(cells: number): string {
  return `The links to other workbooks keep ${thousands(cells)} values; a workbook may keep at most ${thousands(MAX_EXTERNAL_CACHED_CELLS)}`
}

export const MAX_WORKBOOK_NAME_LENGTH = 200

/** Spec 1 §9: default recent workbooks limit. */
export const DEFAULT_WORKBOOK_LIST_LIMIT = 10

/** The name the user's first workbook gets, as the top bar reads it until the user renames it. */
export const DEFAULT_WORKBOOK_NAME = 'Default Workbook'

/** How long a deleted workbook can be brought back before it is erased for good. */
export const TRASH_RETENTION_DAYS = 30

/** Spec 2 §9: vector and cell search return up to 20 results. */
export const DEFAULT_SEARCH_LIMIT = 20

/** Spec 1 §9: the templates preview shows 15 rows. */
export const TEMPLATE_PREVIEW_ROWS = 15

export const TEMPLATE_PREVIEW_COLUMNS = ['A', 'B', 'C', 'D', 'E', 'F'] as const

/** Excel's border line styles. */
export const BORDER_LINES = ['thin', 'medium', 'thick', 'dashed', 'dotted', 'double', 'hair', 'mediumDashed', 'dashDot', 'mediumDashDot', 'dashDotDot', 'mediumDashDotDot', 'slantDashDot'] as const

/** Excel's deepest outline level of grouped rows or columns. */
export const MAX_OUTLINE_LEVEL = 7

/** Rows or columns one set-sheet-view command may change at once. */
export const MAX_VIEW_SPAN = 100_000

/** Row heights in CSS pixels, as Excel allows (409 points). */
export const MAX_ROW_HEIGHT = 545

/** The longest note a cell may carry: as much text as the cell itself may hold. */
export const MAX_NOTE_LENGTH = MAX_CELL_TEXT_LENGTH

/** The longest link address, as Excel allows. */
export const MAX_LINK_LENGTH = 2079

/** Distinct values one filter column may list as shown. */
export const MAX_FILTER_VALUES = 10_000

/** What a data-validation rule allows, as Excel names its kinds ('none': any value, for an input message alone). */
export const DATA_VALIDATION_TYPES = ['none', 'list', 'whole', 'decimal', 'date', 'time', 'textLength', 'custom'] as const

/** How a whole number, decimal, date, time or text length compares with the rule's values. */
export const DATA_VALIDATION_OPERATORS = ['between', 'notBetween', 'equal', 'notEqual', 'greaterThan', 'lessThan', 'greaterThanOrEqual', 'lessThanOrEqual'] as const

export const DATA_VALIDATION_ERROR_STYLES = ['stop', 'warning', 'information'] as const

/** Excel's limits: titles of 32 characters, an input message of 255, an error message of 225, a typed list of 255. */
export const MAX_VALIDATION_TITLE_LENGTH = 32

export const MAX_VALIDATION_INPUT_LENGTH = 255

export const MAX_VALIDATION_ERROR_LENGTH = 225

export const MAX_VALIDATION_LIST_LENGTH = 255

/** Rules one sheet may hold, and ranges one rule may cover. */
export const MAX_VALIDATION_RULES = 1000

export const MAX_VALIDATION_RANGES = 1000

/** Conditional-format rules one sheet may hold, and ranges one rule may cover. */
export const MAX_CONDITIONAL_FORMATS = 500

export const MAX_CONDITIONAL_RANGES = 100

// ---- workbooks, charts, imports -----------------------------------------------------------------

/** The address a kept value of another workbook is keyed by: A1 form, without `$`. */
export const EXTERNAL_CELL_ADDRESS = '^[A-Z]{1,3}[1-9][0-9]{0,6}$'

/** Excel allows at most this many passes over a circular reference. */
export const MAX_CALCULATION_ITERATIONS = 32_767

/** Charts draw at most this many cells. */
export const MAX_CHART_CELLS = 10_000

/** The response header of an xlsx export saying what the file holds differently from the workbook ('charts exported as pictures: 2'). */
export const EXPORT_NOTES_HEADER = 'x-export-notes'

/** Charts one workbook may hold. */
export const MAX_CHARTS = 200

/** The largest offset of a chart's corner into its cell, in pixels at 100% zoom. */
export const MAX_CHART_OFFSET = 4000

/** The most rows one window read (GET /workbook/{id}/window) may span. */
export const MAX_WINDOW_ROWS = 1000

/** The most bytes the charts and pictures kept of one imported workbook may hold; past it a sheet's drawing is left out. */
export const MAX_KEPT_DRAWING_BYTES = 20 * 1024 * 1024

export const IMPORT_STREAM_CONTENT_TYPE = 'application/x-ndjson'

/** Mismatches an import report lists; all are counted. */
export const MAX_LISTED_MISMATCHES = 1000

/** The name a copy gets unless one is given: 'Copy of Budget', cut to the longest name allowed. */
export function copyName(name: string): string {
  return `Copy of ${name}`.slice(0, MAX_WORKBOOK_NAME_LENGTH)
}

// ---- printing -----------------------------------------------------------------------------------

export const PAPER_SIZES = ['letter', 'legal', 'a4', 'a3'] as const
export type PaperSize = (typeof PAPER_SIZES)[number]

/** Paper sizes in points (1/72 inch), portrait. */
export const PAPER_POINTS: Record<PaperSize, { width: number; height: number }> = {
  letter: { width: 612, height: 792 },
  legal: { width: 612, height: 1008 },
  a4: { width: 595.28, height: 841.89 },
  a3: { width: 841.89, height: 1190.55 },
}

/** Excel's print scale runs from 10% to 400%. */
export const MIN_PRINT_SCALE = 10

export const MAX_PRINT_SCALE = 400
