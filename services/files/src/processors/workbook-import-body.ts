/**
 * A workbook read from a file as the body of the spreadsheet service's bulk import
 * (POST /workbooks/import): what the user would have typed in each cell, how Excel calculates its
 * formula (legacy, a fixed array, or a dynamic array), the value the file cached for it (the service
 * checks its own against it), its number format and the part of its look the workbook model holds.
 * What the model cannot hold yet is named in `notKept`.
 *
 * The body is written as the streamed form (application/x-ndjson) in lines straight from the parsed
 * workbook, so a million cells never exist a second time as request objects.
 */
import { columnToLetters, isDateFormat, parseCellInput, tryParseRange } from '@finsheet/formula'
import { BORDER_LINES, EXTERNAL_CELL_ADDRESS, MAX_CONDITIONAL_FORMATS, MAX_EXTERNAL_CACHED_CELLS, MAX_EXTERNAL_LINKS, MAX_IMPORT_LINE_CELLS, MAX_SHEETS, type BorderEdge, type BorderLine, type CellStyle, type ExternalLink, type ImportCachedValue, type SheetViewState, type ConditionalFormatRule, type DataValidationRule, type KeptDrawing } from '@finsheet/contracts'
import { checkRule, importedSheetView, type BorderSide, type CarriedFeature, type ImportedCell, type ImportedSheet, type ImportedStyle, type ImportedTable, type ImportedValue, type ImportedWorkbook } from '@finsheet/workbook'

export type CellInput = string | number | boolean | null

/** A cell's look as the import sends it: the spreadsheet service's CellStyle. */
export type ImportCellStyle = CellStyle

/** One cell of the import body. */
export interface ImportCellBody {
  address: string
  input: CellInput
  format?: string
  /** Index into the body's table of looks. */
  styleRef?: number
  /** A plain formula of the file: Excel calculates it as before dynamic arrays. */
  legacy?: boolean
  /** A fixed-size (Ctrl+Shift+Enter) array formula's range. */
  arrayRange?: string
  /** The value the file cached for the formula. */
  cached?: ImportCachedValue
}

/** The body's shape (POST /workbooks/import of the spreadsheet service, as JSON). */
export interface WorkbookImportBody {
  name: string
  defaultFont?: { family: string; size: number }
  importId?: string
  styles: ImportCellStyle[]
  sheets: { name: string; cells: ImportCellBody[]; columnWidths?: Record<string, number>; merges?: string[]; view?: SheetViewState; conditionalFormats?: ConditionalFormatRule[]; validations?: DataValidationRule[]; drawing?: KeptDrawing }[]
  definedNames?: { name: string; formula: string; sheet?: string }[]
  tables?: ImportedTable[]
  externalLinks?: ExternalLink[]
}

/** Days between the 1900 and 1904 date systems' day zero. */
export const DATE_1904_OFFSET = 1462

export interface PreparedImport {
  /** A cell's value as the engine sees it: a 1904-system date moved to the 1900 system the engine counts in. */
  valueOf(cell: ImportedCell): ImportedValue
  /** Features present in the file that the import leaves out. */
  notKept: string[]
  /** The cells each sheet sends, in order, with their input, kind of formula, cached value, format and look. */
  cells(sheet: ImportedSheet): Generator<ImportCellBody>
  /**
   * The streamed request body: lines of about 64 KB, each ending with a newline. Each sheet's cells
   * are released once written, so the parsed workbook is gone by the time the spreadsheet service
   * stores it; call it once.
   */
  lines(options?: { importId?: string; onProgress?: (fraction: number) => void }): Generator<string>
  /**
   * The same streamed body for a workbook whose cells arrive from the file as they are read (an xlsx
   * file opened with openXlsxImport, whose workbook holds no cells): a line goes out as soon as it is full, so that the file is read while the
   * spreadsheet service loads what came before. Once it ends, `notKept` names the looks the cells sent
   * actually use, as a whole read would; call it once.
   */
  streamLines(cells: (sheetIndex: number) => AsyncIterable<ImportedCell[]>, options?: { importId?: string }): AsyncGenerator<string>
  /** The whole body as objects (the JSON form), for small workbooks and tests. */
  body(importId?: string): WorkbookImportBody
}

const LINE_CHARACTERS = 64 * 1024

/** Excel column width (characters) to the grid's CSS pixels, as the spreadsheet model converts it. */
export function excelWidthToPixels(width: number): number {
  return Math.round(width * 7 + 5)
}

export function prepareImport(workbook: ImportedWorkbook, name: string): PreparedImport {
  const looks = workbook.styles.map(toCellStyle)
  // The table the body sends: the file's styles that show in the model, each once.
  const styleTable: ImportCellStyle[] = []
  const styleRefs = looks.map((look) => (look ? styleTable.push(look) - 1 : undefined))
  const formatJson = workbook.styles.map((style) => (style.numberFormat ? JSON.stringify(style.numberFormat) : undefined))
  const linksNotKept: string[] = []
  const externalLinks = linksToSend(workbook, linksNotKept)
  const notKept = [...notKeptFeatures(workbook, workbook.styles), ...linksNotKept]
  const definedNames = workbook.definedNames.map((definition) => ({
    name: definition.name,
    formula: '=' + definition.formula,
    ...(definition.sheet ? { sheet: definition.sheet } : {}),
  }))
  const tables = workbook.tables && workbook.tables.length > 0 ? { tables: workbook.tables } : {}
  // Workbooks of old Macs count dates from 1904; the engine counts from 1900, as Windows Excel does.
  const shiftsDates = workbook.date1904 ? workbook.styles.map((style) => Boolean(style.numberFormat && isDateFormat(style.numberFormat))) : []
  const valueOf = (cell: ImportedCell): ImportedValue =>
    typeof cell.value === 'number' && cell.style !== undefined && shiftsDates[cell.style] ? cell.value + DATE_1904_OFFSET : cell.value
  // Text inputs repeat (shared strings): each distinct text is read once.
  const textInputs = new Map<string, CellInput>()
  const inputOfCell = (cell: ImportedCell): CellInput => {
    if (cell.formula !== undefined) return '=' + cell.formula
    const value = valueOf(cell)
    if (typeof value !== 'string') return inputOf(value)
    let input = textInputs.get(value)
    if (input === undefined) {
      input = inputOf(value)
      if (textInputs.size < 200_000) textInputs.set(value, input)
    }
    return input
  }
  const columnWidths = (sheet: ImportedSheet) => {
    const widths: Record<string, number> = {}
    // A hidden column keeps its width, to come back at when it is shown again.
    for (const column of sheet.columns) if (column.width > 0) widths[String(column.col)] = excelWidthToPixels(column.width)
    return widths
  }
  const layout = (sheet: ImportedSheet) => {
    const view = importedSheetView(sheet)
    const rules = keptRules(sheet)
    return {
      ...(view ? { view } : {}),
      ...(rules.length > 0 ? { conditionalFormats: rules } : {}),
      ...(sheet.validations ? { validations: sheet.validations } : {}),
      // Charts and pictures travel as the file held them, for the export to write back.
      ...(sheet.drawing ? { drawing: sheet.drawing } : {}),
    }
  }

  function* cells(sheet: ImportedSheet): Generator<ImportCellBody> {
    const arrayFilled = arrayFilledAddresses(sheet.cells)
    for (const cell of sheet.cells) {
      if (arrayFilled?.has(cell.address)) continue
      const input = inputOfCell(cell)
      const format = cell.style === undefined ? undefined : workbook.styles[cell.style]?.numberFormat
      const styleRef = cell.style === undefined ? undefined : styleRefs[cell.style]
      if (input === null && !format && styleRef === undefined) continue
      const body: ImportCellBody = { address: cell.address, input }
      if (format) body.format = format
      if (styleRef !== undefined) body.styleRef = styleRef
      if (cell.formula !== undefined) {
        if (cell.arrayRange === undefined) body.legacy = true
        else if (!cell.dynamicArray) body.arrayRange = cell.arrayRange
        body.cached = valueOf(cell)
      }
      yield body
    }
  }

  const headerLine = (importId: string | undefined) =>
    JSON.stringify({
      name,
      ...(importId !== undefined ? { importId } : {}),
      definedNames,
      ...tables,
      ...externalLinks,
      ...(workbook.defaultFont ? { defaultFont: workbook.defaultFont } : {}),
      styles: styleTable,
      sheets: workbook.sheets.map((sheet) => ({ name: sheet.name, columnWidths: columnWidths(sheet), merges: sheet.merges, ...layout(sheet) })),
    }) + '\n'

  /**
   * A sheet's cells as lines of the streamed form (ImportCellRunLine: columns of rows, columns and
   * inputs, options by index): `add` answers a line once one is full, `end` the rest.
   */
  const sheetLines = (index: number, isArrayFilled: (cell: ImportedCell) => boolean) => {
    let rows = ''
    let cols = ''
    let inputs = ''
    let optionsAt = ''
    let options = ''
    let count = 0
    const line = () => {
      const withOptions = optionsAt === '' ? '' : `,"optionsAt":[${optionsAt}],"options":[${options}]`
      const text = `{"sheet":${index},"rows":[${rows}],"cols":[${cols}],"inputs":[${inputs}]${withOptions}}\n`
      rows = cols = inputs = optionsAt = options = ''
      count = 0
      return text
    }
    return {
      sent: 0,
      add(cell: ImportedCell): string | undefined {
        if (isArrayFilled(cell)) return undefined
        const input = inputOfCell(cell)
        const format = cell.style === undefined ? undefined : formatJson[cell.style]
        const styleRef = cell.style === undefined ? undefined : styleRefs[cell.style]
        if (input === null && !format && styleRef === undefined) return undefined
        const comma = count === 0 ? '' : ','
        rows += comma + cell.row
        cols += comma + cell.col
        inputs += comma + (typeof input === 'string' ? JSON.stringify(input) : String(input))
        let extras = ''
        if (format) extras += `,"format":${format}`
        if (styleRef !== undefined) extras += `,"styleRef":${styleRef}`
        if (cell.formula !== undefined) {
          if (cell.arrayRange === undefined) extras += ',"legacy":true'
          else if (!cell.dynamicArray) extras += `,"arrayRange":"${cell.arrayRange}"`
          extras += `,"cached":${JSON.stringify(valueOf(cell))}`
        }
        if (extras !== '') {
          optionsAt += (optionsAt === '' ? '' : ',') + count
          options += `${options === '' ? '' : ','}{${extras.slice(1)}}`
        }
        count++
        this.sent++
        if (count < MAX_IMPORT_LINE_CELLS && rows.length + cols.length + inputs.length + options.length < LINE_CHARACTERS) return undefined
        return line()
      },
      end(): string | undefined {
        return count === 0 ? undefined : line()
      },
    }
  }

  function* lines(options: { importId?: string; onProgress?: (fraction: number) => void } = {}): Generator<string> {
    const total = workbook.sheets.reduce((sum, sheet) => sum + sheet.cells.length, 0) || 1
    yield headerLine(options.importId)
    let written = 0
    let sent = 0
    for (const [index, sheet] of workbook.sheets.entries()) {
      const arrayFilled = arrayFilledAddresses(sheet.cells)
      const writer = sheetLines(index, (cell) => arrayFilled?.has(cell.address) === true)
      const cells = sheet.cells as (ImportedCell | undefined)[]
      for (let i = 0; i < cells.length; i++) {
        const cell = cells[i] as ImportedCell
        // Sent cells are let go at once: the parsed workbook shrinks as the body goes out.
        cells[i] = undefined
        const line = writer.add(cell)
        if (line === undefined) continue
        yield line
        options.onProgress?.((written + i) / total)
      }
      const rest = writer.end()
      if (rest !== undefined) yield rest
      sent += writer.sent
      written += sheet.cells.length
      sheet.cells = []
    }
    yield JSON.stringify({ end: { cells: sent } }) + '\n'
  }

  async function* streamLines(cells: (sheetIndex: number) => AsyncIterable<ImportedCell[]>, options: { importId?: string } = {}): AsyncGenerator<string> {
    yield headerLine(options.importId)
    const usedStyles = new Set<number>()
    let sent = 0
    for (const index of workbook.sheets.keys()) {
      // An array formula's anchor comes before the cells its result fills (rows in order, left to right).
      const arrayFilled = new Set<string>()
      const writer = sheetLines(index, (cell) => {
        if (cell.arrayRange !== undefined) addArrayFilled(arrayFilled, cell)
        return arrayFilled.size > 0 && arrayFilled.delete(cell.address)
      })
      for await (const batch of cells(index)) {
        for (const cell of batch) {
          if (cell.style !== undefined) usedStyles.add(cell.style)
          const line = writer.add(cell)
          if (line !== undefined) yield line
        }
      }
      const rest = writer.end()
      if (rest !== undefined) yield rest
      sent += writer.sent
    }
    // What is left out is told of the looks the cells use, not of every look the file lists.
    notKept.splice(0, notKept.length, ...notKeptFeatures(workbook, workbook.styles.filter((_, index) => usedStyles.has(index))), ...linksNotKept)
    yield JSON.stringify({ end: { cells: sent } }) + '\n'
  }

  return {
    valueOf,
    notKept,
    cells,
    lines,
    streamLines,
    body: (importId?: string) => ({
      name,
      ...(importId !== undefined ? { importId } : {}),
      definedNames,
      ...tables,
      ...externalLinks,
      ...(workbook.defaultFont ? { defaultFont: workbook.defaultFont } : {}),
      styles: styleTable,
      sheets: workbook.sheets.map((sheet) => ({ name: sheet.name, columnWidths: columnWidths(sheet), merges: sheet.merges, ...layout(sheet), cells: [...cells(sheet)] })),
    }),
  }
}

/** An A1 address as the link's values are kept by (the service refuses any other key). */
const KEPT_ADDRESS = new RegExp(EXTERNAL_CELL_ADDRESS)

/**
 * The workbook's links to other workbooks, with the values the file kept of them, as the import body
 * carries them: the service calculates external references from these. Links past what a workbook
 * may keep are left out (their references show #REF!) and named in `notKept`, rather than refusing
 * the whole file.
 */
function linksToSend(workbook: ImportedWorkbook, notKept: string[]): { externalLinks?: ExternalLink[] } {
  const links = workbook.externalLinks ?? []
  if (links.length === 0) return {}
  let cells = 0
  const sent: ExternalLink[] = links.map((link) => ({
    target: link.target,
    sheets: link.sheets.map((sheet) => {
      const kept: ExternalLink['sheets'][number]['cells'] = {}
      for (const [address, value] of Object.entries(sheet.cells)) {
        if (!KEPT_ADDRESS.test(address)) continue
        kept[address] = value
        cells++
      }
      return { name: sheet.name, cells: kept, ...(sheet.refreshError ? { refreshError: true } : {}) }
    }),
  }))
  if (links.length > MAX_EXTERNAL_LINKS || cells > MAX_EXTERNAL_CACHED_CELLS || links.some((link) => link.sheets.length > MAX_SHEETS)) {
    notKept.push('links to other workbooks (more than a workbook may keep)')
    return {}
  }
  return { externalLinks: sent }
}

/**
 * What a file may carry that a workbook does not keep, as the report names it. A feature the workbook
 * comes to keep is taken off by removing its line.
 */
const NOT_KEPT_FEATURES: readonly { feature: CarriedFeature; label: string }[] = [
  { feature: 'charts', label: 'charts' },
  { feature: 'pictures', label: 'pictures' },
  { feature: 'pivotTables', label: 'pivot tables' },
  { feature: 'slicers', label: 'slicers' },
  { feature: 'formControls', label: 'form controls' },
  { feature: 'sparklines', label: 'sparklines' },
]

/** 'Summary', 'Summary and Returns', 'Summary, Returns and Cover'. */
function sheetList(names: readonly string[]): string {
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
}

/** 'charts: 7, on sheets Summary and Returns', for each feature the file carries and the workbook does not keep. */
export function notKeptByFeature(workbook: Pick<ImportedWorkbook, 'sheets' | 'chartSheets' | 'macros'>): string[] {
  const lines: string[] = []
  for (const { feature, label } of NOT_KEPT_FEATURES) {
    let total = 0
    const sheets: string[] = []
    for (const sheet of workbook.sheets) {
      const count = sheet.carries?.[feature] ?? 0
      if (count === 0) continue
      total += count
      sheets.push(sheet.name)
    }
    if (feature === 'charts' && workbook.chartSheets) {
      // A chartsheet is a chart of its own, on a sheet the workbook does not keep.
      total += workbook.chartSheets.length
      sheets.push(...workbook.chartSheets)
    }
    if (total > 0) lines.push(`${label}: ${total}, on ${sheets.length === 1 ? 'sheet' : 'sheets'} ${sheetList(sheets)}`)
  }
  if (workbook.macros) lines.push('macros (vbaProject)')
  return lines
}

/** What the workbook does not keep of the file: its features, the looks of `usedStyles`, conditional formats. */
function notKeptFeatures(workbook: ImportedWorkbook, usedStyles: readonly ImportedStyle[]): string[] {
  const notKept = new Set<string>(notKeptByFeature(workbook))
  for (const style of usedStyles) {
    if (style.align && !['left', 'center', 'right', 'centerContinuous', 'general'].includes(style.align)) notKept.add(`${style.align} alignment`)
    if (style.verticalAlign === 'justify' || style.verticalAlign === 'distributed') notKept.add(`${style.verticalAlign} vertical alignment`)
    if (style.borders && Object.values(style.borders).some((side) => side && !KNOWN_BORDER_LINES.has(side.style))) notKept.add('diagonal and unknown border lines')
  }
  const rulesLeftOut = workbook.sheets.reduce((sum, sheet) => sum + (sheet.conditionalFormatsNotKept ?? 0) + (sheet.conditionalFormats?.length ?? 0) - keptRules(sheet).length, 0)
  if (rulesLeftOut > 0) notKept.add(`conditional formats of kinds not kept (dates, blanks, errors) or with formulas that cannot be read: ${rulesLeftOut}`)
  return [...notKept]
}

/** A sheet's conditional formats the workbook can evaluate; the others are listed as not kept. */
function keptRules(sheet: ImportedSheet): ConditionalFormatRule[] {
  return (sheet.conditionalFormats ?? []).filter((rule) => {
    try {
      checkRule(rule)
      return true
    } catch {
      return false
    }
  }).slice(0, MAX_CONDITIONAL_FORMATS)
}

function toCellStyle(style: ImportedStyle): ImportCellStyle | undefined {
  const look: ImportCellStyle = {}
  if (style.bold) look.bold = true
  if (style.italic) look.italic = true
  if (style.underline) look.underline = true
  if (style.fontFamily) look.fontFamily = style.fontFamily.slice(0, 64)
  if (style.fontSize && style.fontSize >= 1 && style.fontSize <= 409) look.fontSize = style.fontSize
  if (style.color) look.color = style.color
  if (style.fill) look.fill = style.fill
  if (style.color && style.colorTheme) look.colorTheme = { ...style.colorTheme }
  if (style.fill && style.fillTheme) look.fillTheme = { ...style.fillTheme }
  if (style.align === 'left' || style.align === 'right') look.align = style.align
  else if (style.align === 'center' || style.align === 'centerContinuous') look.align = 'center'
  if (style.strike) look.strike = true
  if (style.verticalAlign === 'top' || style.verticalAlign === 'bottom') look.verticalAlign = style.verticalAlign
  else if (style.verticalAlign === 'center') look.verticalAlign = 'middle'
  if (style.wrapText) look.wrap = true
  if (style.indent && style.indent > 0) look.indent = Math.min(250, Math.round(style.indent))
  if (style.textRotation && (style.textRotation === 255 || (style.textRotation >= -90 && style.textRotation <= 90))) look.rotation = Math.round(style.textRotation)
  if (style.borders) {
    const borders: NonNullable<CellStyle['borders']> = {}
    for (const edge of ['top', 'right', 'bottom', 'left'] as const) {
      const side = borderEdge(style.borders[edge])
      if (side) borders[edge] = side
    }
    if (Object.keys(borders).length > 0) look.borders = borders
  }
  return Object.keys(look).length > 0 ? look : undefined
}

const KNOWN_BORDER_LINES: ReadonlySet<string> = new Set(BORDER_LINES)

function borderEdge(side: BorderSide | undefined): BorderEdge | undefined {
  if (!side || !KNOWN_BORDER_LINES.has(side.style)) return undefined
  return { line: side.style as BorderLine, ...(side.color ? { color: side.color } : {}) }
}

/**
 * A constant as the input that gives it back. Text the input reader would take for something else (a
 * number, a date, TRUE, a formula) gets the apostrophe that keeps it text.
 */
export function inputOf(value: ImportedValue): CellInput {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value
  if (typeof value === 'object') return value.error
  // An empty text is kept as one (the apostrophe alone), unlike an empty cell: MATCH("") finds it.
  if (value === '') return "'"
  const reading = parseCellInput(value)
  return reading.kind === 'value' && reading.value === value ? value : "'" + value
}

/** Cells inside an array formula's range, other than its anchor: their values are the formula's results. */
function arrayFilledAddresses(cells: ImportedCell[]): Set<string> | undefined {
  let filled: Set<string> | undefined
  for (const cell of cells) {
    if (!cell.arrayRange) continue
    filled ??= new Set<string>()
    addArrayFilled(filled, cell)
  }
  return filled
}

/** Adds the cells an array formula's result fills, other than its anchor `cell`. */
function addArrayFilled(filled: Set<string>, cell: ImportedCell): void {
  const range = cell.arrayRange ? tryParseRange(cell.arrayRange) : undefined
  if (!range) return
  for (let row = range.top; row <= range.bottom; row++) {
    for (let col = range.left; col <= range.right; col++) {
      if (row !== cell.row || col !== cell.col) filled.add(columnToLetters(col) + String(row + 1))
    }
  }
}
