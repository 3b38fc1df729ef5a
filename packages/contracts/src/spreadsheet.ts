import { Type, type Static } from 'typebox'
import { StrictObject } from './common.js'
import { PageSetup } from './page-setup.js'
import {
  DATA_VALIDATION_ERROR_STYLES,
  DATA_VALIDATION_OPERATORS,
  DATA_VALIDATION_TYPES,
  DEFAULT_SEARCH_LIMIT,
  DEFAULT_WORKBOOK_LIST_LIMIT,
  EXTERNAL_CELL_ADDRESS,
  MAX_CALCULATION_ITERATIONS,
  MAX_CELL_TEXT_LENGTH,
  MAX_CHARTS,
  MAX_CHART_CELLS,
  MAX_CHART_OFFSET,
  MAX_CONDITIONAL_FORMATS,
  MAX_CONDITIONAL_RANGES,
  MAX_EXTERNAL_CACHED_CELLS,
  MAX_EXTERNAL_LINKS,
  MAX_FILTER_VALUES,
  MAX_FORMULA_LENGTH,
  MAX_KEPT_DRAWING_BYTES,
  MAX_LINK_LENGTH,
  MAX_NOTE_LENGTH,
  MAX_OUTLINE_LEVEL,
  MAX_ROW_HEIGHT,
  MAX_SHEETS,
  MAX_UPDATES_PER_CHANGE,
  MAX_VALIDATION_ERROR_LENGTH,
  MAX_VALIDATION_INPUT_LENGTH,
  MAX_VALIDATION_RANGES,
  MAX_VALIDATION_RULES,
  MAX_VALIDATION_TITLE_LENGTH,
  MAX_WORKBOOK_NAME_LENGTH,
  SHEET_COLUMNS,
  SHEET_ROWS,
} from './constants.js'

/*
 * The spreadsheet service's API (spec 2 §3 and §7): workbooks, sheets, cells with server-side
 * recalculation, the change log with history and undo, versions, templates, search, export, charts
 * and metrics. Paths are relative to /api/spreadsheet.
 */

// ---- cells --------------------------------------------------------------------------------------

/** A calculated value: number, text, boolean, an error code such as '#DIV/0!' (type error), or null. */
export const CellValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])
export type CellValue = Static<typeof CellValue>

/** What a user may type or send: formulas start with '='. */
export const CellInput = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])
export type CellInput = Static<typeof CellInput>

export const CellType = Type.Union([
  Type.Literal('number'),
  Type.Literal('text'),
  Type.Literal('boolean'),
  Type.Literal('error'),
  Type.Literal('empty'),
])
export type CellType = Static<typeof CellType>

export const HorizontalAlign = Type.Union([Type.Literal('left'), Type.Literal('center'), Type.Literal('right')])
export const VerticalAlign = Type.Union([Type.Literal('top'), Type.Literal('middle'), Type.Literal('bottom')])
export const BorderLine = Type.Union([
  Type.Literal('thin'),
  Type.Literal('medium'),
  Type.Literal('thick'),
  Type.Literal('dashed'),
  Type.Literal('dotted'),
  Type.Literal('double'),
  Type.Literal('hair'),
  Type.Literal('mediumDashed'),
  Type.Literal('dashDot'),
  Type.Literal('mediumDashDot'),
  Type.Literal('dashDotDot'),
  Type.Literal('mediumDashDotDot'),
  Type.Literal('slantDashDot'),
])
export type BorderLine = Static<typeof BorderLine>

const CssColour = Type.String({ maxLength: 64, pattern: '^[#A-Za-z0-9(),.% -]*$' })

/** One edge of a cell's border: its line, and its colour (black when absent). */
export const BorderEdge = StrictObject({ line: BorderLine, color: Type.Optional(CssColour) })
export type BorderEdge = Static<typeof BorderEdge>
export const CellBorders = StrictObject({
  top: Type.Optional(BorderEdge),
  right: Type.Optional(BorderEdge),
  bottom: Type.Optional(BorderEdge),
  left: Type.Optional(BorderEdge),
})
export type CellBorders = Static<typeof CellBorders>

/** Text rotation as Excel states it: -90 to 90 degrees, or 255 for letters stacked vertically. */
const TextRotation = Type.Union([Type.Integer({ minimum: -90, maximum: 90 }), Type.Literal(255)])

/**
 * A colour of the workbook's theme, as a file names it (0–11: light 1, dark 1, light 2, dark 2, accents
 * 1–6, link, followed link), lightened or darkened by `tint`; kept so that an export names it again.
 */
export const ThemeColor = StrictObject({
  theme: Type.Integer({ minimum: 0, maximum: 11 }),
  tint: Type.Optional(Type.Number({ minimum: -1, maximum: 1 })),
})
export type ThemeColor = Static<typeof ThemeColor>

/** The look of a cell, as the toolbar sets it. */
export const CellStyle = StrictObject({
  bold: Type.Optional(Type.Boolean()),
  italic: Type.Optional(Type.Boolean()),
  underline: Type.Optional(Type.Boolean()),
  fontFamily: Type.Optional(Type.String({ maxLength: 64 })),
  fontSize: Type.Optional(Type.Number({ minimum: 1, maximum: 409 })),
  /** Text colour, a CSS colour. */
  color: Type.Optional(CssColour),
  /** Background colour, a CSS colour. */
  fill: Type.Optional(CssColour),
  align: Type.Optional(HorizontalAlign),
  strike: Type.Optional(Type.Boolean()),
  verticalAlign: Type.Optional(VerticalAlign),
  /** Text wraps onto more lines within the cell's width. */
  wrap: Type.Optional(Type.Boolean()),
  /** Indent from the aligned edge, in Excel's steps (about three characters each). */
  indent: Type.Optional(Type.Integer({ minimum: 0, maximum: 250 })),
  rotation: Type.Optional(TextRotation),
  borders: Type.Optional(CellBorders),
  /** The theme colour `color` resolves, when the file named one; setting `color` alone drops it. */
  colorTheme: Type.Optional(ThemeColor),
  /** The theme colour `fill` resolves, when the file named one; setting `fill` alone drops it. */
  fillTheme: Type.Optional(ThemeColor),
})
export type CellStyle = Static<typeof CellStyle>

/** A change to a cell's style (a toolbar click): fields set win, null removes a field, absent fields stay. */
export const StylePatch = StrictObject({
  bold: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  italic: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  underline: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  fontFamily: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
  fontSize: Type.Optional(Type.Union([Type.Number({ minimum: 1, maximum: 409 }), Type.Null()])),
  color: Type.Optional(Type.Union([CssColour, Type.Null()])),
  fill: Type.Optional(Type.Union([CssColour, Type.Null()])),
  align: Type.Optional(Type.Union([HorizontalAlign, Type.Null()])),
  strike: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  verticalAlign: Type.Optional(Type.Union([VerticalAlign, Type.Null()])),
  wrap: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  indent: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 250 }), Type.Null()])),
  rotation: Type.Optional(Type.Union([TextRotation, Type.Null()])),
  colorTheme: Type.Optional(Type.Union([ThemeColor, Type.Null()])),
  fillTheme: Type.Optional(Type.Union([ThemeColor, Type.Null()])),
  /** Sets the edges given and removes those given as null, keeping the others; null removes every edge. */
  borders: Type.Optional(
    Type.Union([
      StrictObject({
        top: Type.Optional(Type.Union([BorderEdge, Type.Null()])),
        right: Type.Optional(Type.Union([BorderEdge, Type.Null()])),
        bottom: Type.Optional(Type.Union([BorderEdge, Type.Null()])),
        left: Type.Optional(Type.Union([BorderEdge, Type.Null()])),
      }),
      Type.Null(),
    ]),
  ),
})
export type StylePatch = Static<typeof StylePatch>

/** A cell as the cells route returns it, keyed by its address. */
export const Cell = Type.Object({
  value: CellValue,
  /** The formula with '=', or null for a constant. */
  formula: Type.Union([Type.String(), Type.Null()]),
  /** What was typed ('15%', '=A1*2'); '' for a cell filled by a spilling formula or holding only a style. */
  input: Type.String(),
  type: CellType,
  /** The number format code (Excel syntax), chosen by the user or suggested by the input. */
  format: Type.Union([Type.String(), Type.Null()]),
  style: Type.Union([CellStyle, Type.Null()]),
  /** The value as the grid shows it, formatted. */
  display: Type.String(),
})
export type Cell = Static<typeof Cell>

/** Column widths in CSS pixels by 0-based column index. */
export const ColumnWidths = Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.Number({ minimum: 0, maximum: 2000 }))
export type ColumnWidths = Static<typeof ColumnWidths>

/** What a row or column holds besides its cells: its height (rows), whether it is hidden, its outline level. */
export const AxisEntry = StrictObject({
  height: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_ROW_HEIGHT })),
  hidden: Type.Optional(Type.Boolean()),
  level: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_OUTLINE_LEVEL })),
  /** On the row below (the column right of) a group: the group is collapsed. */
  collapsed: Type.Optional(Type.Boolean()),
  /** A row hidden by the sheet's filter, apart from one the user hid: it shows again when the filter is cleared. */
  filtered: Type.Optional(Type.Boolean()),
})
export type AxisEntry = Static<typeof AxisEntry>

const IndexKey = Type.String({ pattern: '^[0-9]+$' })
/** A cell's address as notes and links are keyed by: A1 form, without `$`. */
const NoteAddress = Type.String({ pattern: '^[A-Z]{1,3}[1-9][0-9]{0,6}$' })

/** A note on a cell (Excel's note, or a threaded comment kept as one): its text and who wrote it. */
export const CellNote = StrictObject({
  text: Type.String({ minLength: 1, maxLength: MAX_NOTE_LENGTH }),
  author: Type.Optional(Type.String({ maxLength: 255 })),
})
export type CellNote = Static<typeof CellNote>

/** Where a cell's link goes: a web or mail address, or a place in the workbook as `#Sheet1!A1`. */
export const LinkTarget = Type.String({ minLength: 1, maxLength: MAX_LINK_LENGTH })

/** The values a filtered column shows, as the cells display them ('' stands for blank cells); the rest are hidden. */
export const FilterColumn = StrictObject({
  /** The sheet's 0-based column index. */
  column: Type.Integer({ minimum: 0, maximum: SHEET_COLUMNS - 1 }),
  values: Type.Array(Type.String({ maxLength: 32_767 }), { maxItems: MAX_FILTER_VALUES }),
})
export type FilterColumn = Static<typeof FilterColumn>

/**
 * A sheet's filter (Excel's AutoFilter): a range whose first row holds the headers with their
 * dropdowns, and the columns filtered by the values they show.
 */
export const SheetFilter = StrictObject({
  range: Type.String({ maxLength: 32 }),
  columns: Type.Optional(Type.Array(FilterColumn, { maxItems: SHEET_COLUMNS })),
})
export type SheetFilter = Static<typeof SheetFilter>

/**
 * How a sheet is laid out beyond its column widths, kept with the workbook as in Excel: frozen rows and
 * columns, whether the sheet itself is hidden, and per row or column (by 0-based index) heights, hidden
 * flags and outline groups.
 */
/** A sheet's zoom in percent, as Excel stores it. */
export const SheetZoom = Type.Integer({ minimum: 10, maximum: 400 })

export const SheetViewState = StrictObject({
  frozenRows: Type.Optional(Type.Integer({ minimum: 0, maximum: SHEET_ROWS - 1 })),
  frozenColumns: Type.Optional(Type.Integer({ minimum: 0, maximum: SHEET_COLUMNS - 1 })),
  hidden: Type.Optional(Type.Boolean()),
  /** With `hidden`: Excel's very hidden, a sheet its Unhide list does not offer. */
  veryHidden: Type.Optional(Type.Boolean()),
  rows: Type.Optional(Type.Record(IndexKey, AxisEntry)),
  columns: Type.Optional(Type.Record(IndexKey, AxisEntry)),
  /** The sheet's filter; the rows it hides are marked `filtered`. */
  filter: Type.Optional(SheetFilter),
  /** The colour of the sheet's tab, a CSS colour. */
  tabColor: Type.Optional(CssColour),
  /** False when the sheet's gridlines are turned off (View → Gridlines); absent when shown. */
  showGridLines: Type.Optional(Type.Boolean()),
  /** The zoom the file was saved at, in percent (Excel's 10–400); absent at 100. The app's own zoom is each user's. */
  zoom: Type.Optional(SheetZoom),
  /** Notes by cell address; they follow their cells when rows and columns move. */
  notes: Type.Optional(Type.Record(NoteAddress, CellNote)),
  /** Links by cell address; they follow their cells when rows and columns move. */
  links: Type.Optional(Type.Record(NoteAddress, LinkTarget)),
  /** How the sheet prints: paper, orientation, scale, print area, titles, gridlines and headings. */
  pageSetup: Type.Optional(PageSetup),
})
export type SheetViewState = Static<typeof SheetViewState>
export type DataValidationType = (typeof DATA_VALIDATION_TYPES)[number]
export type DataValidationOperator = (typeof DATA_VALIDATION_OPERATORS)[number]
export type DataValidationErrorStyle = (typeof DATA_VALIDATION_ERROR_STYLES)[number]
/** One of a list of words, typed as that union. */
const literals = <const Words extends readonly string[]>(words: Words) =>
  Type.Unsafe<Words[number]>({ type: 'string', enum: [...words] })

/**
 * What a data-validation rule checks, as Excel keeps it: `formula1` (and `formula2` for between and
 * notBetween) written without `=` as for the top-left cell of the rule's first range, so that relative
 * references move from cell to cell. A list's source is a typed list in quotes (`"Low,High"`), a range
 * (`$A$1:$A$5`) or a name.
 */
export const DataValidationCriteria = StrictObject({
  type: literals(DATA_VALIDATION_TYPES),
  operator: Type.Optional(literals(DATA_VALIDATION_OPERATORS)),
  formula1: Type.Optional(Type.String({ maxLength: MAX_FORMULA_LENGTH })),
  formula2: Type.Optional(Type.String({ maxLength: MAX_FORMULA_LENGTH })),
  /** Empty cells pass (Excel's "Ignore blank"). */
  allowBlank: Type.Optional(Type.Boolean()),
  /** A list shows its dropdown arrow in the cell; false hides it (the rule still applies). */
  showDropdown: Type.Optional(Type.Boolean()),
  showInputMessage: Type.Optional(Type.Boolean()),
  inputTitle: Type.Optional(Type.String({ maxLength: MAX_VALIDATION_TITLE_LENGTH })),
  inputMessage: Type.Optional(Type.String({ maxLength: MAX_VALIDATION_INPUT_LENGTH })),
  showErrorMessage: Type.Optional(Type.Boolean()),
  errorStyle: Type.Optional(literals(DATA_VALIDATION_ERROR_STYLES)),
  errorTitle: Type.Optional(Type.String({ maxLength: MAX_VALIDATION_TITLE_LENGTH })),
  errorMessage: Type.Optional(Type.String({ maxLength: MAX_VALIDATION_ERROR_LENGTH })),
})
export type DataValidationCriteria = Static<typeof DataValidationCriteria>

/** A data-validation rule over ranges of one sheet ('A1:B5', 'C3'). */
export const DataValidationRule = StrictObject({
  ranges: Type.Array(Type.String({ maxLength: 32 }), { minItems: 1, maxItems: MAX_VALIDATION_RANGES }),
  ...DataValidationCriteria.properties,
})
export type DataValidationRule = Static<typeof DataValidationRule>

/** Excel's kinds of conditional-format rule, by the names xlsx files give them. */
export const ConditionalFormatType = Type.Union([Type.Literal('cellIs'), Type.Literal('expression'), Type.Literal('containsText'), Type.Literal('top10'), Type.Literal('aboveAverage'), Type.Literal('duplicateValues'), Type.Literal('uniqueValues'), Type.Literal('colorScale'), Type.Literal('dataBar'), Type.Literal('iconSet')])
export type ConditionalFormatType = Static<typeof ConditionalFormatType>

/** How a cell-value rule compares (`cellIs`), and how a text rule matches (`containsText`). */
export const ConditionalOperator = Type.Union([Type.Literal('greaterThan'), Type.Literal('lessThan'), Type.Literal('greaterThanOrEqual'), Type.Literal('lessThanOrEqual'), Type.Literal('equal'), Type.Literal('notEqual'), Type.Literal('between'), Type.Literal('notBetween'), Type.Literal('containsText'), Type.Literal('notContains'), Type.Literal('beginsWith'), Type.Literal('endsWith')])
export type ConditionalOperator = Static<typeof ConditionalOperator>

/** Where a colour scale's, data bar's or icon set's stop sits: the lowest or highest value, a number, a percent or percentile of the range, or a formula's value. */
export const ConditionalThreshold = StrictObject({
  kind: Type.Union([Type.Literal('min'), Type.Literal('max'), Type.Literal('num'), Type.Literal('percent'), Type.Literal('percentile'), Type.Literal('formula')]),
  /** The number, percent or formula; absent for min and max. */
  value: Type.Optional(Type.String({ maxLength: MAX_FORMULA_LENGTH })),
})
export type ConditionalThreshold = Static<typeof ConditionalThreshold>

/** What a matching rule lays over the cell's own look (Excel's differential format). */
export const ConditionalStyle = StrictObject({
  color: Type.Optional(CssColour),
  fill: Type.Optional(CssColour),
  bold: Type.Optional(Type.Boolean()),
  italic: Type.Optional(Type.Boolean()),
  underline: Type.Optional(Type.Boolean()),
  strike: Type.Optional(Type.Boolean()),
  /** A number format code shown instead of the cell's own. */
  format: Type.Optional(Type.String({ maxLength: 255 })),
})
export type ConditionalStyle = Static<typeof ConditionalStyle>

/**
 * One conditional-format rule of a sheet: the ranges it covers and the test it makes, by kind.
 * `cellIs` compares each value with `formulas` (one, two for between) by `operator`; `expression`
 * is true where `formulas[0]`, written for the top-left cell of the first range, is true at each cell
 * with its relative references moved along; `containsText` matches `text`; `top10` marks the `rank`
 * highest (`bottom`: lowest) values, or percent of them; `aboveAverage` those above (`below`) the
 * mean, `equalAverage` counting equal ones; duplicate and unique values; colour scales shade from
 * `thresholds[i]` to `colors[i]`; data bars draw `colors[0]` from the first threshold to the second;
 * icon sets (`iconSet` such as '3TrafficLights1') pick an icon by thresholds.
 */
export const ConditionalFormatRule = StrictObject({
  type: ConditionalFormatType,
  ranges: Type.Array(Type.String({ maxLength: 32 }), { minItems: 1, maxItems: MAX_CONDITIONAL_RANGES }),
  /** Later rules (lower priority) are not applied to a cell this rule matches. */
  stopIfTrue: Type.Optional(Type.Boolean()),
  operator: Type.Optional(ConditionalOperator),
  formulas: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: MAX_FORMULA_LENGTH }), { maxItems: 2 })),
  text: Type.Optional(Type.String({ maxLength: 255 })),
  rank: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  percent: Type.Optional(Type.Boolean()),
  bottom: Type.Optional(Type.Boolean()),
  below: Type.Optional(Type.Boolean()),
  equalAverage: Type.Optional(Type.Boolean()),
  /** Standard deviations from the mean an above-average rule asks for (1 to 3). */
  stdDev: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
  style: Type.Optional(ConditionalStyle),
  thresholds: Type.Optional(Type.Array(ConditionalThreshold, { minItems: 2, maxItems: 5 })),
  colors: Type.Optional(Type.Array(CssColour, { minItems: 1, maxItems: 3 })),
  iconSet: Type.Optional(Type.String({ maxLength: 32, pattern: '^[0-9][A-Za-z0-9]*$' })),
  /** Icon sets: icons in reverse order; icon sets and data bars: the value is not shown. */
  reverse: Type.Optional(Type.Boolean()),
  hideValue: Type.Optional(Type.Boolean()),
})
export type ConditionalFormatRule = Static<typeof ConditionalFormatRule>

/** A sheet's extent and layout, as the cells and inputs routes answer them. */
const sheetLayout = {
  /** Frozen panes, hidden rows, columns and sheet, row heights and outline groups; absent when none. */
  view: Type.Optional(SheetViewState),
  /** Conditional-format rules in priority order; absent when none. */
  conditionalFormats: Type.Optional(Type.Array(ConditionalFormatRule)),
  /** One past the last used row and column (0 for an empty sheet). */
  rowCount: Type.Integer(),
  columnCount: Type.Integer(),
  columnWidths: ColumnWidths,
  /** Merged ranges such as 'A1:C1'. */
  merges: Type.Array(Type.String()),
  /** Data-validation rules; absent when none. */
  validations: Type.Optional(Type.Array(DataValidationRule)),
}

export const SheetCells = Type.Object({
  name: Type.String(),
  cells: Type.Record(Type.String(), Cell),
  ...sheetLayout,
})
export type SheetCells = Static<typeof SheetCells>

/** A value another workbook held when the file was saved; an error value as `{ error: '#REF!' }`. */
export const ExternalCachedValue = Type.Union([
  Type.String({ maxLength: MAX_CELL_TEXT_LENGTH }),
  Type.Number(),
  Type.Boolean(),
  Type.Null(),
  StrictObject({ error: Type.String({ maxLength: 16 }) }),
])
export type ExternalCachedValue = Static<typeof ExternalCachedValue>

/**
 * Another workbook the formulas refer to, with the values the file kept of it: formulas name it by
 * its number (`[1]Sheet1!$C$8`), which is its position in the list, the first being `[1]`.
 */
export const ExternalLink = StrictObject({
  /** The linked file as the link names it (`Budget.xlsx`, `file:///C:/Models/Budget.xlsx`). */
  target: Type.String({ minLength: 1, maxLength: 2048 }),
  /** Its sheets in the link's order, with the values kept by A1 address. */
  sheets: Type.Array(
    StrictObject({
      name: Type.String({ minLength: 1, maxLength: 64 }),
      // Keys are refused, not dropped, when they are not A1 addresses: a link is kept whole or not at all.
      cells: Type.Record(Type.String({ pattern: EXTERNAL_CELL_ADDRESS }), ExternalCachedValue, {
        propertyNames: { pattern: EXTERNAL_CELL_ADDRESS },
        maxProperties: MAX_EXTERNAL_CACHED_CELLS,
      }),
      /** The last refresh could not read the sheet. */
      refreshError: Type.Optional(Type.Boolean()),
    }),
    { maxItems: MAX_SHEETS },
  ),
})
export type ExternalLink = Static<typeof ExternalLink>

/** The workbook's links in formula-number order. */
export const ExternalLinks = Type.Array(ExternalLink, { maxItems: MAX_EXTERNAL_LINKS })

// ---- workbooks ----------------------------------------------------------------------------------

export const WorkbookParams = StrictObject({ id: Type.String({ minLength: 1, maxLength: 64 }) })
export type WorkbookParams = Static<typeof WorkbookParams>

/** How far iterative calculation goes: at most `maxIterations` passes, until no value moves by `maxChange` or more. */
export const IterationLimits = Type.Object({
  maxIterations: Type.Integer({ minimum: 1, maximum: MAX_CALCULATION_ITERATIONS }),
  maxChange: Type.Number({ minimum: 0, maximum: 1e9 }),
})
export type IterationLimits = Static<typeof IterationLimits>

export const WorkbookMetadata = Type.Object({
  id: Type.String(),
  workbookId: Type.String(),
  name: Type.String(),
  createdBy: Type.String({ description: 'uid of the owner' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  /** Sheet names in order. */
  sheets: Type.Array(Type.String()),
  isAIGenerated: Type.Boolean(),
  storageUrl: Type.Union([Type.String(), Type.Null()]),
  templateId: Type.Union([Type.String(), Type.Null()]),
  /**
   * Circular references are iterated as Excel does, within `iterationLimits`, instead of being left
   * uncalculated. Always sent; optional so that clients of an older service read its answers.
   */
  iterativeCalculation: Type.Optional(Type.Boolean()),
  /** The iteration limits (Excel's defaults: 100 passes, 0.001). */
  iterationLimits: Type.Optional(IterationLimits),
  revision: Type.Integer(),
  totalSheets: Type.Integer(),
  totalCells: Type.Integer(),
  totalFormulas: Type.Integer(),
  /** The user's first workbook, the one the id `defaultWorkbook` names in every route. */
  isDefault: Type.Boolean(),
})
export type WorkbookMetadata = Static<typeof WorkbookMetadata>

export const CreateWorkbookBody = StrictObject({
  name: Type.Optional(Type.String({ maxLength: MAX_WORKBOOK_NAME_LENGTH })),
  /** Copies a built-in template in (GET /templates lists them). */
  templateId: Type.Optional(Type.String({ maxLength: 64 })),
})
export type CreateWorkbookBody = Static<typeof CreateWorkbookBody>

export const CreateWorkbookResponse = Type.Object({
  success: Type.Literal(true),
  workbookId: Type.String(),
  workbook: WorkbookMetadata,
})
export type CreateWorkbookResponse = Static<typeof CreateWorkbookResponse>

export const RenameWorkbookBody = StrictObject({ name: Type.String({ maxLength: MAX_WORKBOOK_NAME_LENGTH }) })
export type RenameWorkbookBody = Static<typeof RenameWorkbookBody>

export const ListWorkbooksQuery = StrictObject({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_WORKBOOK_LIST_LIMIT })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
})
export type ListWorkbooksQuery = Static<typeof ListWorkbooksQuery>

export const ListWorkbooksResponse = Type.Object({
  success: Type.Literal(true),
  /** Newest first (by last change). */
  workbooks: Type.Array(WorkbookMetadata),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
})
export type ListWorkbooksResponse = Static<typeof ListWorkbooksResponse>

export const WorkbookMetadataResponse = Type.Object({ success: Type.Literal(true), workbook: WorkbookMetadata })
export type WorkbookMetadataResponse = Static<typeof WorkbookMetadataResponse>

export const ChartType = Type.Union([
  Type.Literal('bar'),
  Type.Literal('line'),
  Type.Literal('pie'),
  Type.Literal('area'),
  /** Bars and lines together, each series as its kind says; lines read a secondary axis. */
  Type.Literal('combo'),
  /** A bridge: totals stand on zero, the steps between float from the running total. */
  Type.Literal('waterfall'),
])
export type ChartType = Static<typeof ChartType>

/** How a combo chart draws one series. */
export const ChartSeriesKind = Type.Union([Type.Literal('bar'), Type.Literal('line')])
export type ChartSeriesKind = Static<typeof ChartSeriesKind>

/** One corner of a chart on its sheet: a cell (0-based) and how far into it the corner sits, in pixels at 100% zoom. */
export const ChartCorner = StrictObject({
  row: Type.Integer({ minimum: 0, maximum: SHEET_ROWS - 1 }),
  col: Type.Integer({ minimum: 0, maximum: SHEET_COLUMNS - 1 }),
  dx: Type.Number({ minimum: 0, maximum: MAX_CHART_OFFSET }),
  dy: Type.Number({ minimum: 0, maximum: MAX_CHART_OFFSET }),
})
export type ChartCorner = Static<typeof ChartCorner>

/**
 * Where a chart sits over the cells, as Excel's two-cell anchor: its top-left and bottom-right
 * corners are each held by a cell, so rows and columns inserted or deleted move and resize it.
 */
export const ChartAnchor = StrictObject({ from: ChartCorner, to: ChartCorner })
export type ChartAnchor = Static<typeof ChartAnchor>

/** How a chart draws beyond its type: where it sits on the sheet, combo series kinds, waterfall totals. */
const chartLookProperties = {
  /** Set for a chart placed on its sheet over the cells. */
  anchor: Type.Optional(ChartAnchor),
  /** Combo: each series' kind, in order; a series past the list is a bar when it is the first, a line otherwise. */
  seriesKinds: Type.Optional(Type.Array(ChartSeriesKind, { maxItems: 100 })),
  /** Waterfall: points (0-based) that are totals besides the first, the last and those labelled Total. */
  totals: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: MAX_CHART_CELLS }), { maxItems: 1000 })),
}

export const ChartSeries = Type.Object({ name: Type.String(), values: Type.Array(Type.Union([Type.Number(), Type.Null()])) })
export const ChartData = Type.Object({
  labels: Type.Array(Type.String()),
  series: Type.Array(ChartSeries),
})
export type ChartData = Static<typeof ChartData>

export const Chart = Type.Object({
  id: Type.String(),
  type: ChartType,
  title: Type.String(),
  sheet: Type.String(),
  /** The range on `sheet`, such as 'A1:C6'; it follows inserted and deleted rows and columns. */
  dataRange: Type.String(),
  /** true: each column is a series and the first column holds the labels. */
  seriesInColumns: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  ...chartLookProperties,
  /** The chart's data read from the cells now. */
  data: ChartData,
})
export type Chart = Static<typeof Chart>

/** A chart as the set-chart command writes it. */
export const ChartSpec = StrictObject({
  type: ChartType,
  title: Type.String({ maxLength: 200 }),
  /** A range on the command's sheet, such as 'A1:C6'; it follows inserted and deleted rows and columns. */
  dataRange: Type.String({ minLength: 1, maxLength: 32 }),
  /** true: each column is a series and the first column holds the labels. */
  seriesInColumns: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  ...chartLookProperties,
})
export type ChartSpec = Static<typeof ChartSpec>

/** A chart with its id and the name of its sheet, as a client opening the workbook receives it. */
export const SheetChart = Type.Object({ id: Type.String(), sheet: Type.String(), ...ChartSpec.properties })
export type SheetChart = Static<typeof SheetChart>

/** GET /workbook/{id}: spec 2 §3, Workbook (server side), with its cells. */
export const FullWorkbook = Type.Object({
  workbookId: Type.String(),
  name: Type.String(),
  revision: Type.Integer(),
  sheets: Type.Array(SheetCells),
  sheetOrder: Type.Array(Type.String()),
  totalCells: Type.Integer(),
  totalSheets: Type.Integer(),
  totalFormulas: Type.Integer(),
  metadata: Type.Object({
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    lastModified: Type.String({ format: 'date-time' }),
    workbookName: Type.String(),
    sheetCount: Type.Integer(),
    cellCount: Type.Integer(),
    formulaCount: Type.Integer(),
    templateId: Type.Union([Type.String(), Type.Null()]),
    charts: Type.Array(Chart),
  }),
  createdBy: Type.String(),
  isAIGenerated: Type.Boolean(),
  storageUrl: Type.Union([Type.String(), Type.Null()]),
})
export type FullWorkbook = Static<typeof FullWorkbook>

export const FullWorkbookResponse = Type.Object({ success: Type.Literal(true), workbook: FullWorkbook })
export type FullWorkbookResponse = Static<typeof FullWorkbookResponse>

export const CellsQuery = StrictObject({ sheet: Type.Optional(Type.String({ maxLength: 64 })) })
export type CellsQuery = Static<typeof CellsQuery>

/** GET /workbook/{id}/cells: spec 2 §7. With ?sheet= only that sheet is read. */
export const CellsResponse = Type.Object({
  success: Type.Literal(true),
  workbook: Type.Object({
    workbookId: Type.String(),
    name: Type.String(),
    revision: Type.Integer(),
    sheets: Type.Array(SheetCells),
    sheetOrder: Type.Array(Type.String()),
    totalCells: Type.Integer(),
    totalSheets: Type.Integer(),
  }),
})
export type CellsResponse = Static<typeof CellsResponse>

/**
 * One cell as a client that calculates for itself needs it: [address, input, style, format], the
 * style an index into the answer's `styles` (-1 for none), the format the cell shows with (chosen or
 * suggested; '' for General).
 */
export const CellInputTuple = Type.Tuple([Type.String(), Type.String(), Type.Integer({ minimum: -1 }), Type.String()])
export type CellInputTuple = Static<typeof CellInputTuple>

export const SheetInputs = Type.Object({
  name: Type.String(),
  /**
   * Row by row; every cell with an input, a style or a format, each a CellInputTuple. Declared without
   * its item schema so that a million tuples are written as plain JSON, not checked one by one.
   */
  cells: Type.Unsafe<CellInputTuple[]>({ type: 'array', description: 'Tuples [address, input, style index or -1, format or ""], row by row' }),
  ...sheetLayout,
})
export type SheetInputs = Static<typeof SheetInputs>

export const ImportDefinedName = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  formula: Type.String({ minLength: 1, maxLength: MAX_FORMULA_LENGTH }),
  sheet: Type.Optional(Type.String({ maxLength: 64 })),
})
export type ImportDefinedName = Static<typeof ImportDefinedName>

/** An Excel table over a sheet: its range (header and totals rows included), rows shown, column names and style. */
export const ImportTable = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  sheet: Type.String({ maxLength: 64 }),
  range: Type.String({ minLength: 1, maxLength: 32 }),
  headerRow: Type.Boolean(),
  totalsRow: Type.Boolean(),
  columns: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { minItems: 1, maxItems: 16_384 }),
  style: Type.Optional(Type.String({ maxLength: 255 })),
})
export type ImportTable = Static<typeof ImportTable>

/** A workbook's default font: the look of every cell that states no font of its own. */
export const WorkbookFont = StrictObject({ family: Type.String({ minLength: 1, maxLength: 64 }), size: Type.Number({ minimum: 1, maximum: 409 }) })
export type WorkbookFont = Static<typeof WorkbookFont>

/**
 * GET /workbook/{id}/inputs: the workbook as a client that recalculates it itself opens it — inputs,
 * styles and formats without values or display text, a fraction of the cells route's size on a large
 * workbook. With ?sheet= only that sheet is read.
 */
export const InputsResponse = Type.Object({
  success: Type.Literal(true),
  workbook: Type.Object({
    workbookId: Type.String(),
    name: Type.String(),
    revision: Type.Integer(),
    sheets: Type.Array(SheetInputs),
    sheetOrder: Type.Array(Type.String()),
    /** The distinct styles the cells point at. */
    styles: Type.Array(CellStyle),
    /** Whether circular references are iterated; a client calculating for itself must do the same (always sent). */
    iterativeCalculation: Type.Optional(Type.Boolean()),
    iterationLimits: Type.Optional(IterationLimits),
    /** Other workbooks the formulas refer to, with the values kept of them; absent when there are none. */
    externalLinks: Type.Optional(ExternalLinks),
    /** Names the formulas use; absent when there are none. */
    definedNames: Type.Optional(Type.Array(ImportDefinedName, { maxItems: 10_000 })),
    /** Excel tables, which structured references name; absent when there are none. */
    tables: Type.Optional(Type.Array(ImportTable, { maxItems: 10_000 })),
    /** The workbook's charts, which a client draws from its own values; absent when there are none. */
    charts: Type.Optional(Type.Array(SheetChart, { maxItems: MAX_CHARTS })),
    /** The font of cells that state none, when the workbook came with its own; absent: the app's. */
    defaultFont: Type.Optional(WorkbookFont),
  }),
})
export type InputsResponse = Static<typeof InputsResponse>

/** A sheet of the inputs answer but its cells and extent. */
export type InputsSheetHead = Omit<SheetInputs, 'cells' | 'rowCount' | 'columnCount'>

/**
 * A run of one sheet's cells in the inputs answer's lines, column by column: cell i stands at 0-based
 * `rows[i]`, `cols[i]` and holds `inputs[i]`. `styleIndexes` (into the answer's styles, -1 for none)
 * and `formats` ('' for General) are there only when a cell of the run has one. Numbers and positions,
 * not a tuple of texts per cell: a client reads a million cells' lines several times faster.
 */
export interface InputsRun {
  sheet: number
  rows: number[]
  cols: number[]
  inputs: string[]
  styleIndexes?: number[]
  formats?: string[]
}

/**
 * One line of the inputs answer as lines of JSON (GET /workbook/{id}/inputs with Accept:
 * application/x-ndjson), for a client that loads the cells as they arrive: first the workbook with every
 * sheet's head; then, sheet by sheet (by index in those heads), runs of its cells row by row and its
 * extent; last the styles the cells name by index.
 */
export type InputsLine =
  | { workbook: Omit<InputsResponse['workbook'], 'sheets' | 'styles'> & { sheets: InputsSheetHead[] } }
  | InputsRun
  | { sheetEnd: { sheet: number; rowCount: number; columnCount: number } }
  | { styles: CellStyle[] }

/** GET /workbook/{id}/window: rows `startRow` to `endRow` (1-based, both included) of one sheet (the first when absent). */
export const WindowQuery = StrictObject({
  sheet: Type.Optional(Type.String({ maxLength: 64 })),
  startRow: Type.Integer({ minimum: 1, maximum: 1_048_576 }),
  endRow: Type.Integer({ minimum: 1, maximum: 1_048_576 }),
})
export type WindowQuery = Static<typeof WindowQuery>

/**
 * GET /workbook/{id}/window: what a client paints the first screen of a large workbook from, before
 * it has the whole workbook: the rows' cells with the values the service calculated, the sheet's
 * layout and extent (`rowCount`, `columnCount`: one past its last used row and column), and the
 * workbook's sheets. Only the stored blocks covering the rows are read.
 */
export const WindowResponse = Type.Object({
  success: Type.Literal(true),
  workbook: Type.Object({
    workbookId: Type.String(),
    name: Type.String(),
    revision: Type.Integer(),
    /** Every sheet, in order. */
    sheetOrder: Type.Array(Type.String()),
    /** The sheets whose tabs are hidden. */
    hiddenSheets: Type.Array(Type.String()),
    totalCells: Type.Integer(),
    iterativeCalculation: Type.Boolean(),
    defaultFont: Type.Optional(WorkbookFont),
    startRow: Type.Integer(),
    endRow: Type.Integer(),
    /** The sheet read, with the rows' cells only (keyed by address). */
    sheet: SheetCells,
  }),
})
export type WindowResponse = Static<typeof WindowResponse>

/** A deleted workbook goes to the trash: `POST /workbooks/{id}/restore` brings it back until `restorableUntil`. */
export const DeleteWorkbookResponse = Type.Object({
  success: Type.Literal(true),
  workbookId: Type.String(),
  restorableUntil: Type.String({ format: 'date-time' }),
})
export type DeleteWorkbookResponse = Static<typeof DeleteWorkbookResponse>

// ---- sheets -------------------------------------------------------------------------------------

export const SheetSummary = Type.Object({
  name: Type.String(),
  index: Type.Integer(),
  cellCount: Type.Integer(),
  formulaCount: Type.Integer(),
  columnWidths: ColumnWidths,
  merges: Type.Array(Type.String()),
  view: Type.Optional(SheetViewState),
  /** Data-validation rules; absent when none. */
  validations: Type.Optional(Type.Array(DataValidationRule)),
  conditionalFormats: Type.Optional(Type.Array(ConditionalFormatRule)),
})
export type SheetSummary = Static<typeof SheetSummary>

export const SheetsResponse = Type.Object({
  success: Type.Literal(true),
  workbookId: Type.String(),
  revision: Type.Integer(),
  sheets: Type.Array(SheetSummary),
  sheetOrder: Type.Array(Type.String()),
  totalSheets: Type.Integer(),
})
export type SheetsResponse = Static<typeof SheetsResponse>

export const SheetParams = StrictObject({ id: Type.String({ minLength: 1, maxLength: 64 }), sheet: Type.String({ minLength: 1, maxLength: 64 }) })
export type SheetParams = Static<typeof SheetParams>

const Revision = Type.Integer({ minimum: 0, description: 'The workbook revision the edit was made on; older ones are merged cell by cell' })

export const AddSheetBody = StrictObject({
  /** The next unused SheetN when absent (spec 1 §4). */
  name: Type.Optional(Type.String({ maxLength: 64 })),
  /** Position in the sheet order; the end when absent. */
  index: Type.Optional(Type.Integer({ minimum: 0 })),
  revision: Type.Optional(Revision),
})
export type AddSheetBody = Static<typeof AddSheetBody>

export const UpdateSheetBody = StrictObject({
  /** Renames the sheet; formulas that refer to it follow. */
  name: Type.Optional(Type.String({ maxLength: 64 })),
  /** Moves the sheet to this position. */
  index: Type.Optional(Type.Integer({ minimum: 0 })),
  revision: Type.Optional(Revision),
})
export type UpdateSheetBody = Static<typeof UpdateSheetBody>

export const RevisionQuery = StrictObject({ revision: Type.Optional(Revision) })
export type RevisionQuery = Static<typeof RevisionQuery>

/** Names one client (a browser tab) of a user, so that its undo reverts its own changes. */
export const ClientId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })

// ---- commands (the change log's vocabulary, shared with the web client) -------------------------

export const CellEdit = StrictObject({
  address: Type.String({ maxLength: 16 }),
  /** What the user typed; '' or null clears the content. Absent: content unchanged. */
  input: Type.Optional(CellInput),
  /** The whole style; null removes it. Absent: unchanged. */
  style: Type.Optional(Type.Union([CellStyle, Type.Null()])),
  /** A number format code; null returns to General. Absent: unchanged. */
  format: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
  /** With a formula `input`: the range a fixed-size array formula (Ctrl+Shift+Enter) anchored here fills. */
  arrayRange: Type.Optional(Type.String({ maxLength: 32 })),
  /** With a formula `input`: saved before dynamic arrays (implicit intersection, never spills). */
  legacy: Type.Optional(Type.Boolean()),
})
export type CellEdit = Static<typeof CellEdit>

const SheetName = Type.String({ minLength: 1, maxLength: 64 })
const Position = Type.Integer({ minimum: 0 })
const RowCount = Type.Integer({ minimum: 1, maximum: SHEET_ROWS })
const ColumnCount = Type.Integer({ minimum: 1, maximum: SHEET_COLUMNS })

export const SetCellsCommand = StrictObject({ type: Type.Literal('set-cells'), sheet: SheetName, cells: Type.Array(CellEdit, { maxItems: MAX_UPDATES_PER_CHANGE * 2 }) })
/** Merges a style patch into every cell of the ranges, or sets their number format. */
export const FormatCellsCommand = StrictObject({
  type: Type.Literal('format-cells'),
  sheet: SheetName,
  ranges: Type.Array(Type.String({ maxLength: 32 }), { minItems: 1, maxItems: 1000 }),
  style: Type.Optional(StylePatch),
  format: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
})
/** Width in CSS pixels; null returns to the default width. */
export const ResizeColumnCommand = StrictObject({
  type: Type.Literal('resize-column'),
  sheet: SheetName,
  column: Type.Integer({ minimum: 0, maximum: SHEET_COLUMNS - 1 }),
  width: Type.Union([Type.Number({ minimum: 0, maximum: 2000 }), Type.Null()]),
})
export const InsertRowsCommand = StrictObject({ type: Type.Literal('insert-rows'), sheet: SheetName, at: Position, count: RowCount })
export const DeleteRowsCommand = StrictObject({ type: Type.Literal('delete-rows'), sheet: SheetName, at: Position, count: RowCount })
export const InsertColumnsCommand = StrictObject({ type: Type.Literal('insert-columns'), sheet: SheetName, at: Position, count: ColumnCount })
export const DeleteColumnsCommand = StrictObject({ type: Type.Literal('delete-columns'), sheet: SheetName, at: Position, count: ColumnCount })
/** `id` names the sheet in the change log; the service assigns one when it is absent. */
export const AddSheetCommand = StrictObject({ type: Type.Literal('add-sheet'), name: SheetName, index: Type.Optional(Position), id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) })
export const RenameSheetCommand = StrictObject({ type: Type.Literal('rename-sheet'), from: SheetName, to: SheetName })
export const DeleteSheetCommand = StrictObject({ type: Type.Literal('delete-sheet'), name: SheetName })
export const MoveSheetCommand = StrictObject({ type: Type.Literal('move-sheet'), name: SheetName, index: Position })
export const MergeCellsCommand = StrictObject({ type: Type.Literal('merge-cells'), sheet: SheetName, range: Type.String({ maxLength: 32 }) })
export const UnmergeCellsCommand = StrictObject({ type: Type.Literal('unmerge-cells'), sheet: SheetName, range: Type.String({ maxLength: 32 }) })
/**
 * Cut and paste: moves a block of cells (inputs, styles, number formats and the merges inside it) so
 * that its top-left cell lands on `target`, on `targetSheet` (default the same sheet). The source is
 * cleared; references anywhere in the workbook to a moved cell, or to a range wholly inside the
 * block, follow it; references to the cells it lands on become #REF!, as in Excel.
 */
export const MoveCellsCommand = StrictObject({
  type: Type.Literal('move-cells'),
  sheet: SheetName,
  range: Type.String({ maxLength: 32 }),
  targetSheet: Type.Optional(SheetName),
  target: Type.String({ maxLength: 16 }),
})
/** Defines or redefines a name (`formula` such as '=Sheet1!$B$2' or '=0.21'); a null formula removes it. `sheet` scopes it to one sheet. */
export const DefineNameCommand = StrictObject({
  type: Type.Literal('define-name'),
  name: Type.String({ minLength: 1, maxLength: 255 }),
  formula: Type.Union([Type.String({ minLength: 1, maxLength: 8192 }), Type.Null()]),
  sheet: Type.Optional(SheetName),
})

/**
 * The workbook's calculation options for circular references, as Excel's: iterate them (at most
 * `maxIterations` passes, until no value moves by `maxChange` or more), or leave them uncalculated.
 */
export const SetCalculationCommand = StrictObject({
  type: Type.Literal('set-calculation'),
  iterate: Type.Boolean(),
  ...IterationLimits.properties,
})
export type SetCalculationCommand = Static<typeof SetCalculationCommand>

/** Adds a chart to a sheet, or replaces it (same id) with `chart`; a null chart removes it. */
export const SetChartCommand = StrictObject({
  type: Type.Literal('set-chart'),
  sheet: SheetName,
  id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
  chart: Type.Union([ChartSpec, Type.Null()]),
})
export type SetChartCommand = Static<typeof SetChartCommand>

/** Rows (or columns) `from` to `to`, 0-based: fields set are written, null clears them, absent stay. */
const AxisSpan = StrictObject({
  from: Type.Integer({ minimum: 0, maximum: SHEET_ROWS - 1 }),
  to: Type.Integer({ minimum: 0, maximum: SHEET_ROWS - 1 }),
  height: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: MAX_ROW_HEIGHT }), Type.Null()])),
  hidden: Type.Optional(Type.Boolean()),
  level: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OUTLINE_LEVEL })),
  collapsed: Type.Optional(Type.Boolean()),
})
export type AxisSpan = Static<typeof AxisSpan>

/**
 * Changes how a sheet is laid out: frozen panes (0 unfreezes), the sheet hidden or shown, and spans of
 * rows or columns hidden, resized (rows), grouped (an outline level, 0 ungroups) or collapsed. A
 * workbook keeps at least one visible sheet.
 */
export const SetSheetViewCommand = StrictObject({
  type: Type.Literal('set-sheet-view'),
  sheet: SheetName,
  frozenRows: Type.Optional(Type.Integer({ minimum: 0, maximum: SHEET_ROWS - 1 })),
  frozenColumns: Type.Optional(Type.Integer({ minimum: 0, maximum: SHEET_COLUMNS - 1 })),
  hidden: Type.Optional(Type.Boolean()),
  /** With `hidden: true`: hidden as Excel's very hidden sheets are. */
  veryHidden: Type.Optional(Type.Boolean()),
  rows: Type.Optional(Type.Array(AxisSpan, { maxItems: 1000 })),
  columns: Type.Optional(Type.Array(AxisSpan, { maxItems: 1000 })),
  /** The tab's colour; null removes it. */
  tabColor: Type.Optional(Type.Union([CssColour, Type.Null()])),
  showGridLines: Type.Optional(Type.Boolean()),
  /** The zoom kept with the sheet; null (or 100) removes it. */
  zoom: Type.Optional(Type.Union([SheetZoom, Type.Null()])),
  /** Notes written (null removes a cell's note). */
  notes: Type.Optional(Type.Array(StrictObject({ address: Type.String({ maxLength: 16 }), note: Type.Union([CellNote, Type.Null()]) }), { maxItems: 10_000 })),
  /** Links written (null removes a cell's link). */
  links: Type.Optional(Type.Array(StrictObject({ address: Type.String({ maxLength: 16 }), url: Type.Union([LinkTarget, Type.Null()]) }), { maxItems: 10_000 })),
  /** How the sheet prints, replaced whole; null clears it. */
  pageSetup: Type.Optional(Type.Union([PageSetup, Type.Null()])),
})
export type SetSheetViewCommand = Static<typeof SetSheetViewCommand>

/**
 * Data validation on ranges of a sheet, as Excel's dialog sets it: the cells of `clear` lose any
 * rule they had, then `rules` are added (each over its own ranges); no rules clears validation.
 */
export const SetDataValidationCommand = StrictObject({
  type: Type.Literal('set-data-validation'),
  sheet: SheetName,
  clear: Type.Array(Type.String({ maxLength: 32 }), { maxItems: MAX_VALIDATION_RANGES }),
  rules: Type.Array(DataValidationRule, { maxItems: MAX_VALIDATION_RULES }),
})
export type SetDataValidationCommand = Static<typeof SetDataValidationCommand>

/**
 * Creates, changes or removes (null) a sheet's filter. The rows of the range below its header row whose
 * shown values a filtered column does not list are hidden as filtered; `filteredRows` states those rows
 * instead (an undo puts back exactly the rows hidden before, whatever the cells show now).
 */
export const SetFilterCommand = StrictObject({
  type: Type.Literal('set-filter'),
  sheet: SheetName,
  filter: Type.Union([SheetFilter, Type.Null()]),
  filteredRows: Type.Optional(
    Type.Array(StrictObject({ from: Type.Integer({ minimum: 0, maximum: SHEET_ROWS - 1 }), to: Type.Integer({ minimum: 0, maximum: SHEET_ROWS - 1 }) }), { maxItems: 100_000 }),
  ),
})
export type SetFilterCommand = Static<typeof SetFilterCommand>

/**
 * Replaces a sheet's conditional-format rules, in priority order (the first is applied first): adding,
 * editing, deleting and reordering rules are each one such command, and its inverse gives back the list before.
 */
export const SetConditionalFormatsCommand = StrictObject({
  type: Type.Literal('set-conditional-formats'),
  sheet: SheetName,
  rules: Type.Array(ConditionalFormatRule, { maxItems: MAX_CONDITIONAL_FORMATS }),
})
export type SetConditionalFormatsCommand = Static<typeof SetConditionalFormatsCommand>

const simpleCommands = [
  // Bodies are validated with unknown fields removed, and a branch whose required fields a command also
  // has strips that command's other fields before its `type` is compared: a command must come before
  // every branch whose required fields it holds (define-name holds add-sheet's and delete-sheet's,
  // move-sheet delete-sheet's, move-cells the merges'). The platform's validation test sends each.
  DefineNameCommand,
  SetCellsCommand,
  FormatCellsCommand,
  ResizeColumnCommand,
  InsertRowsCommand,
  DeleteRowsCommand,
  InsertColumnsCommand,
  DeleteColumnsCommand,
  AddSheetCommand,
  RenameSheetCommand,
  MoveSheetCommand,
  DeleteSheetCommand,
  MoveCellsCommand,
  MergeCellsCommand,
  UnmergeCellsCommand,
  // Before set-sheet-view: it holds that command's required fields.
  SetChartCommand,
  SetCalculationCommand,
  // Holds set-sheet-view's required fields (type and sheet): it must come before it.
  SetDataValidationCommand,
  // set-filter holds every field set-sheet-view requires.
  SetFilterCommand,
  // Holds set-sheet-view's required fields.
  SetConditionalFormatsCommand,
  SetSheetViewCommand,
] as const

/** Several commands sent, applied and undone as one change (a paste, a fill). */
export const BatchCommand = StrictObject({
  type: Type.Literal('batch'),
  label: Type.String({ maxLength: 200 }),
  commands: Type.Array(Type.Union([...simpleCommands]), { maxItems: 1000 }),
})

export const WorkbookCommand = Type.Union([...simpleCommands, BatchCommand])
export type WorkbookCommand = Static<typeof WorkbookCommand>
export type SetCellsCommand = Static<typeof SetCellsCommand>
export type FormatCellsCommand = Static<typeof FormatCellsCommand>
export type BatchCommand = Static<typeof BatchCommand>

export const ChangeSource = Type.Union([Type.Literal('user'), Type.Literal('ai'), Type.Literal('paste'), Type.Literal('import')])
export type ChangeSource = Static<typeof ChangeSource>

/** POST /workbook/{id}/changes: one atomic, undoable change made of commands. */
export const ApplyChangeBody = StrictObject({
  commands: Type.Array(WorkbookCommand, { minItems: 1, maxItems: 1000 }),
  revision: Type.Optional(Revision),
  /** Shown in undo tooltips and the change log. */
  label: Type.Optional(Type.String({ maxLength: 200 })),
  /** An 'ai' change (an assistant changeset) makes a major version. */
  source: Type.Optional(ChangeSource),
  /** The assistant's own summary of an AI changeset, kept as the version's aiSummary. */
  summary: Type.Optional(Type.String({ maxLength: 4000 })),
  clientId: Type.Optional(ClientId),
})
export type ApplyChangeBody = Static<typeof ApplyChangeBody>

// ---- updating cells -----------------------------------------------------------------------------

/** A cell whose value (or content) changed, as the client repaints it. */
export const ChangedCell = Type.Object({
  sheet: Type.String(),
  address: Type.String(),
  value: CellValue,
  type: CellType,
  display: Type.String(),
  input: Type.String(),
  formula: Type.Union([Type.String(), Type.Null()]),
  format: Type.Union([Type.String(), Type.Null()]),
  style: Type.Union([CellStyle, Type.Null()]),
})
export type ChangedCell = Static<typeof ChangedCell>

export const CellRef = Type.Object({ sheet: Type.String(), address: Type.String() })
export type CellRef = Static<typeof CellRef>

const changeResponseProperties = {
  success: Type.Literal(true),
  workbookId: Type.String(),
  /** The workbook's revision after this change; send it with the next edit. */
  revision: Type.Integer(),
  /** The revision the edit was made on. */
  baseRevision: Type.Integer(),
  changeId: Type.Union([Type.String(), Type.Null()]),
  /**
   * Every cell whose value or content changed, on every sheet. After rows or columns are inserted or
   * deleted, each cell is compared with what it held before it moved: a cell that only moved, or whose
   * formula's references were only rewritten for the move, is not listed (structureChanged is set).
   */
  changedCells: Type.Array(ChangedCell),
  /** Whether the sheet structure changed (rows, columns or sheets), so the client should reload the layout. */
  structureChanged: Type.Boolean(),
  /** The edit was made on an older revision and was merged cell by cell over the newer changes. */
  merged: Type.Boolean(),
  /** Cells this edit overwrote that someone else had changed since its revision (the latest write won). */
  conflicts: Type.Array(CellRef),
  /** Cells others changed since the edit's revision, for a client that was behind. */
  concurrentChanges: Type.Array(ChangedCell),
  message: Type.String(),
}
export const ChangeResponse = Type.Object(changeResponseProperties)
export type ChangeResponse = Static<typeof ChangeResponse>

/** What the sheet routes answer: the change and the sheets as they are now. */
export const SheetChangeResponse = Type.Object({
  success: Type.Literal(true),
  workbookId: Type.String(),
  revision: Type.Integer(),
  changeId: Type.Union([Type.String(), Type.Null()]),
  sheets: Type.Array(SheetSummary),
  sheetOrder: Type.Array(Type.String()),
  /** Cells whose value changed (formulas naming an added, renamed or deleted sheet). */
  changedCells: Type.Array(ChangedCell),
  message: Type.String(),
})
export type SheetChangeResponse = Static<typeof SheetChangeResponse>

/** POST /update-cell: spec 2 §7. A formula (with or without '=') wins over value. */
export const UpdateCellBody = StrictObject({
  workbookId: Type.String({ minLength: 1, maxLength: 64 }),
  /** The first sheet when absent. */
  sheetName: Type.Optional(Type.String({ maxLength: 64 })),
  cellAddress: Type.String({ maxLength: 32 }),
  value: Type.Optional(CellInput),
  formula: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  style: Type.Optional(Type.Union([CellStyle, Type.Null()])),
  format: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
  revision: Type.Optional(Revision),
})
export type UpdateCellBody = Static<typeof UpdateCellBody>

export const CellUpdate = StrictObject({
  /** Also accepted as `address`. */
  cellAddress: Type.Optional(Type.String({ maxLength: 32 })),
  address: Type.Optional(Type.String({ maxLength: 32 })),
  /** Overrides the batch's sheetName for this cell. */
  sheetName: Type.Optional(Type.String({ maxLength: 64 })),
  value: Type.Optional(CellInput),
  formula: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  style: Type.Optional(Type.Union([CellStyle, Type.Null()])),
  format: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
})
export type CellUpdate = Static<typeof CellUpdate>

/** POST /update-cells: spec 2 §7. The batch is one atomic change, undone as one. */
export const UpdateCellsBody = StrictObject({
  workbookId: Type.String({ minLength: 1, maxLength: 64 }),
  sheetName: Type.Optional(Type.String({ maxLength: 64 })),
  updates: Type.Array(CellUpdate, { minItems: 1 }),
  revision: Type.Optional(Revision),
  label: Type.Optional(Type.String({ maxLength: 200 })),
  source: Type.Optional(ChangeSource),
})
export type UpdateCellsBody = Static<typeof UpdateCellsBody>

// ---- history and undo ---------------------------------------------------------------------------

export const CellHistoryParams = StrictObject({ id: Type.String({ minLength: 1, maxLength: 64 }), address: Type.String({ minLength: 1, maxLength: 100 }) })
export type CellHistoryParams = Static<typeof CellHistoryParams>

export const CellHistoryQuery = StrictObject({
  /** The sheet of the cell; also accepted as 'Sheet!A1' in the address. The first sheet when absent. */
  sheet: Type.Optional(Type.String({ maxLength: 64 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
})
export type CellHistoryQuery = Static<typeof CellHistoryQuery>

export const ChangeKind = Type.Union([
  Type.Literal('create'),
  Type.Literal('edit'),
  Type.Literal('undo'),
  Type.Literal('redo'),
  Type.Literal('restore'),
  Type.Literal('import'),
])
export type ChangeKind = Static<typeof ChangeKind>

export const CellHistoryEntry = Type.Object({
  revision: Type.Integer(),
  changeId: Type.String(),
  kind: ChangeKind,
  oldInput: Type.String(),
  newInput: Type.String(),
  userId: Type.String(),
  userName: Type.Union([Type.String(), Type.Null()]),
  timestamp: Type.String({ format: 'date-time' }),
})
export type CellHistoryEntry = Static<typeof CellHistoryEntry>

export const CellHistoryResponse = Type.Object({
  success: Type.Literal(true),
  workbookId: Type.String(),
  sheet: Type.String(),
  address: Type.String(),
  /** Newest first. */
  history: Type.Array(CellHistoryEntry),
})
export type CellHistoryResponse = Static<typeof CellHistoryResponse>

/** With a clientId, undo and redo act on that client's own changes (one browser tab), not every change of the user. */
export const UndoRedoBody = StrictObject({ revision: Type.Optional(Revision), clientId: Type.Optional(ClientId) })
export type UndoRedoBody = Static<typeof UndoRedoBody>

export const UndoRedoResponse = Type.Object({
  ...changeResponseProperties,
  /** The change that was undone or redone. */
  target: Type.Object({ changeId: Type.String(), label: Type.String(), revision: Type.Integer() }),
  /** Cells left alone because someone changed them after the change being undone or redone. */
  skipped: Type.Array(CellRef),
  canUndo: Type.Boolean(),
  canRedo: Type.Boolean(),
})
export type UndoRedoResponse = Static<typeof UndoRedoResponse>

export const ChangeLogQuery = StrictObject({
  /** Changes after this revision. */
  since: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
})
export type ChangeLogQuery = Static<typeof ChangeLogQuery>

export const ChangeLogEntry = Type.Object({
  id: Type.String(),
  revision: Type.Integer(),
  kind: ChangeKind,
  source: ChangeSource,
  label: Type.String(),
  userId: Type.String(),
  userName: Type.Union([Type.String(), Type.Null()]),
  timestamp: Type.String({ format: 'date-time' }),
  cellCount: Type.Integer(),
  undone: Type.Boolean(),
  commands: Type.Array(Type.Unknown()),
})
export type ChangeLogEntry = Static<typeof ChangeLogEntry>

export const ChangeLogResponse = Type.Object({
  success: Type.Literal(true),
  workbookId: Type.String(),
  revision: Type.Integer(),
  changes: Type.Array(ChangeLogEntry),
})
export type ChangeLogResponse = Static<typeof ChangeLogResponse>

// ---- versions (spec 1 §3 Version record, §4 Version Control) ------------------------------------

export const VersionType = Type.Union([Type.Literal('major'), Type.Literal('minor'), Type.Literal('auto-save')])
export type VersionType = Static<typeof VersionType>

export const VersionRecord = Type.Object({
  id: Type.String(),
  workbookId: Type.String(),
  /** 1, 2, 3… within the workbook. */
  number: Type.Integer(),
  fileName: Type.String(),
  author: Type.String(),
  authorId: Type.String(),
  timestamp: Type.String({ format: 'date-time' }),
  type: VersionType,
  /** 'current' for the workbook's newest version. */
  status: Type.Union([Type.Literal('current'), Type.Literal('previous')]),
  /** What changed since the previous version: sheets, counts, notable cells. */
  changes: Type.String(),
  /** The assistant's summary when an AI changeset made the version. */
  aiSummary: Type.Union([Type.String(), Type.Null()]),
  tags: Type.Array(Type.String()),
  revision: Type.Integer(),
  sheets: Type.Integer(),
  cells: Type.Integer(),
  formulas: Type.Integer(),
  restoredFrom: Type.Union([Type.String(), Type.Null()]),
})
export type VersionRecord = Static<typeof VersionRecord>

export const VersionTypeFilter = Type.Union([Type.Literal('all'), Type.Literal('major'), Type.Literal('minor'), Type.Literal('auto-save')])

export const ListVersionsQuery = StrictObject({
  /** Case-insensitive substring of fileName, author, changes, aiSummary or a tag. */
  search: Type.Optional(Type.String({ maxLength: 200 })),
  type: Type.Optional(VersionTypeFilter),
  /** Versions whose fileName starts with this workbook name. */
  workbook: Type.Optional(Type.String({ maxLength: MAX_WORKBOOK_NAME_LENGTH })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
})
export type ListVersionsQuery = Static<typeof ListVersionsQuery>

export const ListVersionsResponse = Type.Object({
  success: Type.Literal(true),
  /** Newest first. */
  versions: Type.Array(VersionRecord),
  /** Versions matching the filters. */
  total: Type.Integer(),
  /** All the user's versions (in scope), for the Total Versions card. */
  totalVersions: Type.Integer(),
  /** The user's workbooks, for the Active Workbooks card. */
  activeWorkbooks: Type.Integer(),
})
export type ListVersionsResponse = Static<typeof ListVersionsResponse>

export const SaveVersionBody = StrictObject({
  /** Replaces the generated `changes` text. */
  message: Type.Optional(Type.String({ maxLength: 2000 })),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 20 })),
})
export type SaveVersionBody = Static<typeof SaveVersionBody>

export const VersionResponse = Type.Object({ success: Type.Literal(true), version: VersionRecord })
export type VersionResponse = Static<typeof VersionResponse>

export const VersionParams = StrictObject({ id: Type.String({ minLength: 1, maxLength: 64 }), versionId: Type.String({ minLength: 1, maxLength: 64 }) })
export type VersionParams = Static<typeof VersionParams>

export const RestoreVersionResponse = Type.Object({ ...changeResponseProperties, version: VersionRecord, restoredFrom: VersionRecord })
export type RestoreVersionResponse = Static<typeof RestoreVersionResponse>

export const CompareVersionsQuery = StrictObject({
  /** A version id. */
  from: Type.String({ minLength: 1, maxLength: 64 }),
  /** A version id, or 'current' for the workbook as it is now. */
  to: Type.String({ minLength: 1, maxLength: 64 }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 5000 })),
})
export type CompareVersionsQuery = Static<typeof CompareVersionsQuery>

const CellState = Type.Object({ input: Type.String(), value: CellValue, type: CellType })

export const CellDifference = Type.Object({
  sheet: Type.String(),
  address: Type.String(),
  status: Type.Union([Type.Literal('added'), Type.Literal('removed'), Type.Literal('changed')]),
  inputChanged: Type.Boolean(),
  valueChanged: Type.Boolean(),
  before: Type.Union([CellState, Type.Null()]),
  after: Type.Union([CellState, Type.Null()]),
})
export type CellDifference = Static<typeof CellDifference>

export const CompareVersionsResponse = Type.Object({
  success: Type.Literal(true),
  from: Type.Object({ id: Type.String(), number: Type.Union([Type.Integer(), Type.Null()]), revision: Type.Integer() }),
  to: Type.Object({ id: Type.String(), number: Type.Union([Type.Integer(), Type.Null()]), revision: Type.Integer() }),
  summary: Type.Object({
    added: Type.Integer(),
    removed: Type.Integer(),
    changed: Type.Integer(),
    inputsChanged: Type.Integer(),
    valuesChanged: Type.Integer(),
  }),
  sheets: Type.Object({
    added: Type.Array(Type.String()),
    removed: Type.Array(Type.String()),
    renamed: Type.Array(Type.Object({ from: Type.String(), to: Type.String() })),
  }),
  cells: Type.Array(CellDifference),
  /** More differences exist than `limit` let through. */
  truncated: Type.Boolean(),
})
export type CompareVersionsResponse = Static<typeof CompareVersionsResponse>

// ---- templates (spec 1 §3) ----------------------------------------------------------------------

export const TemplateCategory = Type.Union([
  Type.Literal('Valuation'),
  Type.Literal('Financial Reporting'),
  Type.Literal('Entrepreneurship'),
  Type.Literal('SaaS'),
  Type.Literal('Real Estate'),
  Type.Literal('Personal Finance'),
])
export type TemplateCategory = Static<typeof TemplateCategory>

export const TemplateDifficulty = Type.Union([Type.Literal('Beginner'), Type.Literal('Intermediate'), Type.Literal('Advanced')])
export type TemplateDifficulty = Static<typeof TemplateDifficulty>

/** One preview row: its index and columns A to F, each holding a value or a formula. */
export const TemplateRow = Type.Object({
  rowIndex: Type.Integer(),
  A: CellInput,
  B: CellInput,
  C: CellInput,
  D: CellInput,
  E: CellInput,
  F: CellInput,
})
export type TemplateRow = Static<typeof TemplateRow>

export const TemplateSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  category: TemplateCategory,
  difficulty: TemplateDifficulty,
  tags: Type.Array(Type.String()),
  sheets: Type.Array(Type.String()),
  /** The first sheet's first 15 rows, columns A to F, as typed (values or formulas). */
  template: Type.Array(TemplateRow),
  /** The same rows as calculated and formatted for display. */
  preview: Type.Array(TemplateRow),
})
export type TemplateSummary = Static<typeof TemplateSummary>

export const ListTemplatesQuery = StrictObject({
  /** Over name, description and tags, case-insensitive. */
  search: Type.Optional(Type.String({ maxLength: 200 })),
  category: Type.Optional(Type.String({ maxLength: 64 })),
  difficulty: Type.Optional(Type.String({ maxLength: 64 })),
  tag: Type.Optional(Type.String({ maxLength: 64 })),
})
export type ListTemplatesQuery = Static<typeof ListTemplatesQuery>

export const ListTemplatesResponse = Type.Object({
  success: Type.Literal(true),
  templates: Type.Array(TemplateSummary),
  categories: Type.Array(Type.String()),
  difficulties: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
})
export type ListTemplatesResponse = Static<typeof ListTemplatesResponse>

export const TemplateParams = StrictObject({ templateId: Type.String({ minLength: 1, maxLength: 64 }) })

export const TemplateResponse = Type.Object({ success: Type.Literal(true), template: TemplateSummary })
export type TemplateResponse = Static<typeof TemplateResponse>

// ---- search -------------------------------------------------------------------------------------

export const SearchCellsBody = StrictObject({
  query: Type.String({ minLength: 1, maxLength: 256 }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: DEFAULT_SEARCH_LIMIT })),
  /** Also match formula text. */
  includeFormulas: Type.Optional(Type.Boolean({ default: true })),
  /** Only this workbook. */
  workbookId: Type.Optional(Type.String({ maxLength: 64 })),
  /** Only sheets of this name. */
  sheet: Type.Optional(Type.String({ maxLength: 64 })),
  matchCase: Type.Optional(Type.Boolean({ default: false })),
  /** Find cells by meaning through the vector search ('discount rate' finds WACC) instead of by text. */
  semantic: Type.Optional(Type.Boolean({ default: false })),
})
export type SearchCellsBody = Static<typeof SearchCellsBody>

export const SearchResult = Type.Object({
  workbookId: Type.String(),
  sheet: Type.String(),
  address: Type.String(),
  value: CellValue,
  formula: Type.Union([Type.String(), Type.Null()]),
  display: Type.String(),
  metadata: Type.Object({
    workbookName: Type.String(),
    sheetName: Type.String(),
    row: Type.Integer({ description: '1-based' }),
    column: Type.String({ description: 'column letters' }),
    type: CellType,
    matchedIn: Type.Union([Type.Literal('value'), Type.Literal('formula'), Type.Literal('meaning')]),
    /** The row label the cell is known by (semantic search). */
    label: Type.Optional(Type.String()),
    /** How close the cell's meaning is to the query (semantic search). */
    score: Type.Optional(Type.Number()),
  }),
})
export type SearchResult = Static<typeof SearchResult>

export const SearchCellsResponse = Type.Object({
  success: Type.Literal(true),
  query: Type.String(),
  results: Type.Array(SearchResult),
  /** More cells matched than `limit` let through. */
  truncated: Type.Boolean(),
})
export type SearchCellsResponse = Static<typeof SearchCellsResponse>

// ---- export -------------------------------------------------------------------------------------

export const ExportFormat = Type.Union([Type.Literal('xlsx'), Type.Literal('csv'), Type.Literal('json')])
export type ExportFormat = Static<typeof ExportFormat>

export const ExportQuery = StrictObject({
  format: Type.Optional(ExportFormat),
  /** csv: the sheet to write (the first when absent); json: only this sheet. */
  sheet: Type.Optional(Type.String({ maxLength: 64 })),
})
export type ExportQuery = Static<typeof ExportQuery>

/**
 * The JSON export's `workbook.truncated`: null when every cell is there; otherwise the export stopped
 * at MAX_EXPORT_BYTES, after `cellsWritten` cells in sheet order, and left `cellsLeftOut` out.
 */
export const JsonExportTruncation = Type.Union([
  Type.Null(),
  Type.Object({ limitBytes: Type.Integer(), cellsWritten: Type.Integer(), cellsLeftOut: Type.Integer() }),
])
export type JsonExportTruncation = Static<typeof JsonExportTruncation>

// ---- charts -------------------------------------------------------------------------------------

export const CreateChartBody = StrictObject({
  workbookId: Type.String({ minLength: 1, maxLength: 64 }),
  type: ChartType,
  /** 'A1:C6', or 'Sheet!A1:C6'. */
  dataRange: Type.String({ minLength: 1, maxLength: 100 }),
  /** The sheet of dataRange when it names none; the first sheet when absent. */
  sheetName: Type.Optional(Type.String({ maxLength: 64 })),
  title: Type.Optional(Type.String({ maxLength: 200 })),
  /** true (default): columns are series and the first column the labels; false: rows are series. */
  seriesInColumns: Type.Optional(Type.Boolean()),
})
export type CreateChartBody = Static<typeof CreateChartBody>

export const ChartResponse = Type.Object({ success: Type.Literal(true), chart: Chart })
export type ChartResponse = Static<typeof ChartResponse>

export const ChartsResponse = Type.Object({ success: Type.Literal(true), workbookId: Type.String(), charts: Type.Array(Chart) })
export type ChartsResponse = Static<typeof ChartsResponse>

/** A chart removed from its workbook. */
export const DeleteChartResponse = Type.Object({ success: Type.Literal(true), workbookId: Type.String() })
export type DeleteChartResponse = Static<typeof DeleteChartResponse>

export const ChartParams = StrictObject({ id: Type.String({ minLength: 1, maxLength: 64 }), chartId: Type.String({ minLength: 1, maxLength: 64 }) })

// ---- metrics ------------------------------------------------------------------------------------

const latencyProperties = {
  count: Type.Integer(),
  mean: Type.Number(),
  p50: Type.Number(),
  p90: Type.Number(),
  p99: Type.Number(),
  max: Type.Number(),
}
export const LatencySummary = Type.Object(latencyProperties)
export type LatencySummary = Static<typeof LatencySummary>

export const PerformanceMetricsResponse = Type.Object({
  success: Type.Literal(true),
  /** This replica's figures since it started. */
  since: Type.String({ format: 'date-time' }),
  uptimeSeconds: Type.Number(),
  requests: Type.Object({
    total: Type.Integer(),
    errors: Type.Integer(),
    routes: Type.Array(
      Type.Object({ method: Type.String(), route: Type.String(), count: Type.Integer(), errors: Type.Integer(), latencyMs: LatencySummary }),
    ),
  }),
  /** Time the engine spent applying edits and recalculating, in ms. */
  recalculation: Type.Object({ ...latencyProperties, cellsChanged: Type.Integer() }),
  /** Time each change took from lock to commit, in ms. */
  writes: LatencySummary,
  /** Time to load a workbook into an engine, in ms. */
  engineLoads: LatencySummary,
  /**
   * Group commit: transactions flushed to the store, the changes they carried, and changes refused
   * because another replica had written the workbook first (they are applied again on the new state).
   */
  storage: Type.Object({ commits: Type.Integer(), changes: Type.Integer(), changesPerCommit: Type.Number(), conflicts: Type.Integer() }),
  engineCache: Type.Object({
    hits: Type.Integer(),
    misses: Type.Integer(),
    /** Cached engines found behind the stored revision (another replica wrote) and reloaded. */
    staleReloads: Type.Integer(),
    evictions: Type.Integer(),
    size: Type.Integer(),
    capacity: Type.Integer(),
    hitRate: Type.Number(),
  }),
  versions: Type.Object({ created: Type.Integer(), autoSaves: Type.Integer() }),
})
export type PerformanceMetricsResponse = Static<typeof PerformanceMetricsResponse>

// ---- bulk import (the files service's entry point) ----------------------------------------------

/** The value a file cached for a formula; an error value as `{ error: '#N/A' }`. */
export const ImportCachedValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null(), StrictObject({ error: Type.String({ maxLength: 16 }) })])
export type ImportCachedValue = Static<typeof ImportCachedValue>

const ImportCellOptionProperties = {
  format: Type.Optional(Type.String({ maxLength: 255 })),
  style: Type.Optional(CellStyle),
  /** Index into the body's `styles` table, for looks many cells share (instead of `style`). */
  styleRef: Type.Optional(Type.Integer({ minimum: 0 })),
  /**
   * A formula saved before dynamic arrays (a plain formula in an xlsx file): calculated as Excel does,
   * with implicit intersection where one value is expected, and never spilling.
   */
  legacy: Type.Optional(Type.Boolean()),
  /** A fixed-size array formula (Ctrl+Shift+Enter) anchored at this cell: the range its result fills. */
  arrayRange: Type.Optional(Type.String({ maxLength: 32 })),
  /** The value the file cached for this formula; the import's report lists formulas that calculate to another. */
  cached: Type.Optional(ImportCachedValue),
}

export const ImportCell = StrictObject({ address: Type.String({ maxLength: 16 }), input: CellInput, ...ImportCellOptionProperties })
export type ImportCell = Static<typeof ImportCell>

/** What a streamed cell holds besides its address and input; absent when it holds nothing else. */
export const ImportCellOptions = StrictObject(ImportCellOptionProperties)
export type ImportCellOptions = Static<typeof ImportCellOptions>

/**
 * A cell of the streamed form: [address, input] or [address, input, options]. A million cells as
 * tuples are half the text of objects, and half the parsing.
 */
export const ImportCellTuple = Type.Union([
  Type.Tuple([Type.String({ maxLength: 16 }), CellInput]),
  Type.Tuple([Type.String({ maxLength: 16 }), CellInput, ImportCellOptions]),
])
export type ImportCellTuple = Static<typeof ImportCellTuple>

const KeptRelationship = StrictObject({
  id: Type.String({ minLength: 1, maxLength: 255 }),
  type: Type.String({ maxLength: 2048 }),
  /** Another kept part by its path in the file, or an external address. */
  target: Type.String({ maxLength: 2048 }),
  external: Type.Optional(Type.Boolean()),
})

/**
 * A sheet's drawing as the imported file held it (Excel's charts and pictures, which the workbook does
 * not model): its drawing part and every part it leads to, bytes in base64, written back on export.
 */
export const KeptDrawing = StrictObject({
  root: Type.String({ minLength: 1, maxLength: 1024 }),
  parts: Type.Array(
    StrictObject({
      path: Type.String({ minLength: 1, maxLength: 1024 }),
      contentType: Type.String({ minLength: 1, maxLength: 255 }),
      data: Type.String({ maxLength: Math.ceil(MAX_KEPT_DRAWING_BYTES / 3) * 4 }),
      relationships: Type.Optional(Type.Array(KeptRelationship, { maxItems: 10_000 })),
    }),
    { maxItems: 10_000 },
  ),
  /** Each chart part with the sheets its formulas read, by the names the file gave them. */
  charts: Type.Array(StrictObject({ part: Type.String({ maxLength: 1024 }), sheets: Type.Array(Type.String({ maxLength: 255 }), { maxItems: 1_000 }) }), { maxItems: 10_000 }),
  pictures: Type.Integer({ minimum: 0 }),
})
export type KeptDrawing = Static<typeof KeptDrawing>

const ImportSheetProperties = {
  /** The sheet's charts and pictures as the file held them, written back on export. */
  drawing: Type.Optional(KeptDrawing),
  name: Type.String({ minLength: 1, maxLength: 64 }),
  columnWidths: Type.Optional(ColumnWidths),
  merges: Type.Optional(Type.Array(Type.String({ maxLength: 32 }))),
  /** Frozen panes, hidden rows, columns and sheet, row heights and outline groups. */
  view: Type.Optional(SheetViewState),
  validations: Type.Optional(Type.Array(DataValidationRule, { maxItems: MAX_VALIDATION_RULES })),
  /** Conditional-format rules in priority order. */
  conditionalFormats: Type.Optional(Type.Array(ConditionalFormatRule, { maxItems: MAX_CONDITIONAL_FORMATS })),
}

export const ImportSheet = StrictObject({ ...ImportSheetProperties, cells: Type.Array(ImportCell) })
export type ImportSheet = Static<typeof ImportSheet>

const ImportWorkbookProperties = {
  name: Type.String({ minLength: 1, maxLength: MAX_WORKBOOK_NAME_LENGTH }),
  /** The font of cells that state none (an xlsx file's first font), kept for export. */
  defaultFont: Type.Optional(WorkbookFont),
  definedNames: Type.Optional(Type.Array(ImportDefinedName, { maxItems: 10_000 })),
  /** Excel tables, which structured references (`Sales[Units]`) name. */
  tables: Type.Optional(Type.Array(ImportTable, { maxItems: 10_000 })),
  /** Looks that cells point into with `styleRef`. */
  styles: Type.Optional(Type.Array(CellStyle, { maxItems: 65_536 })),
  isAIGenerated: Type.Optional(Type.Boolean()),
  /** Iterate circular references (a model built to be circular, such as interest on average debt). */
  iterativeCalculation: Type.Optional(Type.Boolean()),
  /** Other workbooks the formulas refer to (`[1]` is the first), with the values the file kept of them. */
  externalLinks: Type.Optional(ExternalLinks),
  storageUrl: Type.Optional(Type.String({ maxLength: 2048 })),
  /**
   * Names this import for its user: a request repeated with the same id (a retried job) answers with
   * the workbook the first one stored instead of importing again.
   */
  importId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
}

/** POST /workbooks/import as JSON: a parsed workbook stored in one atomic write. */
export const ImportWorkbookBody = StrictObject({ ...ImportWorkbookProperties, sheets: Type.Array(ImportSheet, { minItems: 1, maxItems: MAX_SHEETS }) })
export type ImportWorkbookBody = Static<typeof ImportWorkbookBody>

/**
 * POST /workbooks/import as `application/x-ndjson`, for workbooks of any size: the first line is this
 * header (every sheet named up front, without cells), then lines of {@link ImportCellRunLine} (or
 * {@link ImportCellsLine}), then
 * {@link ImportEndLine}. The service reads it as it arrives and stores nothing of a stream cut short.
 */
export const ImportStreamHeader = StrictObject({
  ...ImportWorkbookProperties,
  sheets: Type.Array(StrictObject(ImportSheetProperties), { minItems: 1, maxItems: MAX_SHEETS }),
})
export type ImportStreamHeader = Static<typeof ImportStreamHeader>

/** Cells of one sheet of the header, by its index, as tuples (the form sent before ImportCellRunLine). */
export const ImportCellsLine = StrictObject({
  sheet: Type.Integer({ minimum: 0, maximum: MAX_SHEETS - 1 }),
  cells: Type.Array(ImportCellTuple, { maxItems: 100_000 }),
})
export type ImportCellsLine = Static<typeof ImportCellsLine>

/** The most cells one line of the streamed import holds. */
export const MAX_IMPORT_LINE_CELLS = 100_000

/**
 * Cells of one sheet of the header, by its index, in columns: cell i is at 0-based row `rows[i]` and
 * column `cols[i]` and holds `inputs[i]`; the cells with options are listed by their index
 * (`optionsAt`, ascending) beside their options. A million cells as columns of numbers make no
 * address to print and read back, and parse several times quicker than tuples.
 */
export const ImportCellRunLine = StrictObject({
  sheet: Type.Integer({ minimum: 0, maximum: MAX_SHEETS - 1 }),
  rows: Type.Array(Type.Integer({ minimum: 0, maximum: 1_048_575 }), { maxItems: MAX_IMPORT_LINE_CELLS }),
  cols: Type.Array(Type.Integer({ minimum: 0, maximum: 16_383 }), { maxItems: MAX_IMPORT_LINE_CELLS }),
  inputs: Type.Array(CellInput, { maxItems: MAX_IMPORT_LINE_CELLS }),
  optionsAt: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: MAX_IMPORT_LINE_CELLS - 1 }), { maxItems: MAX_IMPORT_LINE_CELLS })),
  options: Type.Optional(Type.Array(ImportCellOptions, { maxItems: MAX_IMPORT_LINE_CELLS })),
})
export type ImportCellRunLine = Static<typeof ImportCellRunLine>

/** The last line: how many cells were sent, so that a stream cut short is told from a complete one. */
export const ImportEndLine = StrictObject({ end: StrictObject({ cells: Type.Integer({ minimum: 0 }) }) })
export type ImportEndLine = Static<typeof ImportEndLine>

/** A formula cell whose value after recalculation differs from the one the file cached. */
export const ImportMismatch = Type.Object({
  sheet: Type.String(),
  address: Type.String(),
  formula: Type.String(),
  ours: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
  cached: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
})
export type ImportMismatch = Static<typeof ImportMismatch>

/** Formula cells sent with a cached value, checked against the recalculated workbook. */
export const ImportRecalculation = Type.Object({
  /** Formula cells that came with a cached value. */
  checked: Type.Integer(),
  matched: Type.Integer(),
  mismatchCount: Type.Integer(),
  /** The first MAX_LISTED_MISMATCHES of them, in sheet and row order. */
  mismatches: Type.Array(ImportMismatch),
})
export type ImportRecalculation = Static<typeof ImportRecalculation>

export const ImportWorkbookResponse = Type.Object({
  success: Type.Literal(true),
  workbookId: Type.String(),
  cellCount: Type.Integer(),
  formulaCount: Type.Integer(),
  workbook: WorkbookMetadata,
  recalculation: ImportRecalculation,
  /** True when an earlier request with the same importId stored the workbook (answered 200, not 201). */
  repeated: Type.Boolean(),
})
export type ImportWorkbookResponse = Static<typeof ImportWorkbookResponse>

// ---- the user's first workbook, copies and the trash --------------------------------------------

/**
 * POST /workbooks/default: the user's first workbook, created on first use (one sheet, Sheet1, named
 * DEFAULT_WORKBOOK_NAME). `sheets` are cells a browser still kept for it from before every workbook
 * lived in this service: they fill it when it is created, and are ignored once it exists.
 */
export const EnsureDefaultWorkbookBody = StrictObject({
  sheets: Type.Optional(Type.Array(ImportSheet, { minItems: 1, maxItems: MAX_SHEETS })),
})
export type EnsureDefaultWorkbookBody = Static<typeof EnsureDefaultWorkbookBody>

export const DefaultWorkbookResponse = Type.Object({
  success: Type.Literal(true),
  workbookId: Type.String(),
  /** false when the user had it already (answered 200, not 201). */
  created: Type.Boolean(),
  workbook: WorkbookMetadata,
})
export type DefaultWorkbookResponse = Static<typeof DefaultWorkbookResponse>

/** POST /workbooks/{id}/duplicate: a new workbook with the same sheets, cells, names and charts. */
export const DuplicateWorkbookBody = StrictObject({
  /** The copy's name; 'Copy of …' when absent. */
  name: Type.Optional(Type.String({ maxLength: MAX_WORKBOOK_NAME_LENGTH })),
})
export type DuplicateWorkbookBody = Static<typeof DuplicateWorkbookBody>
