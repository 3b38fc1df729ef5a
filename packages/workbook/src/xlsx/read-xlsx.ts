/**
 * Reading an xlsx file into plain data. Every exceljs-specific detail of the product lives in this file:
 * the rest of the code sees {@link XlsxWorkbook}, never an exceljs object.
 *
 * What exceljs loses is recovered here: the exact numbers of cells shown with a date format (exceljs
 * turns them into `Date`s rounded to the millisecond, and error results into invalid Dates), defined
 * names that are formulas or sheet-scoped (exceljs keeps only workbook ranges) and the mark of
 * dynamic-array formulas; the last two are read from the xml parts directly.
 */
import { readFile } from 'node:fs/promises'
import type { SheetViewState } from '@finsheet/contracts'
import { readSheetLayout } from './sheet-layout.js'
import type ExcelJS from 'exceljs'
import { loadExcelJs } from './exceljs-module.js'
import JSZip from 'jszip'
import { CellError, errorFromText } from '@finsheet/formula'
import type { Scalar } from '@finsheet/formula'
import { normalizeFormula } from './formula-text.js'
import { dataTableFormula } from './data-table-formula.js'
import { readTables } from './table-parts.js'
import type { XlsxTable } from './table-parts.js'
import { calculationFromAttributes } from '../model/calculation.js'
import type { CalculationSettings } from '../model/calculation.js'
import { readExternalLinks } from './external-links.js'
import type { ExternalLinkRecord } from '../model/external-links.js'
import { attribute, decodeXml } from './xml-text.js'

/** One non-empty cell of a sheet as stored in the file. */
export interface XlsxCell {
  /** 0-based row. */
  readonly row: number
  /** 0-based column. */
  readonly col: number
  /** A1 address without `$`. */
  readonly address: string
  /**
   * The formula as Excel displays it, without the leading '=' (`_xlfn.` and similar prefixes removed).
   * For a cell of a shared formula that is not the master, the formula is absent and `sharedFrom` names
   * the master cell whose formula applies, moved by the offset.
   */
  readonly formula?: string
  /** The master cell (A1) of the shared formula this cell belongs to. */
  readonly sharedFrom?: string
  /** The range an array formula (`{=...}` or a dynamic array) was entered over, such as `C1:F4`. */
  readonly arrayRange?: string
  /**
   * Whether the array formula is a dynamic array (one that spills, saved by Excel 365) rather than a
   * legacy array formula entered with Ctrl+Shift+Enter over a fixed range.
   */
  readonly dynamicArray?: boolean
  /** The value of a constant cell, or the value Excel cached for a formula cell. */
  readonly value: Scalar
  /** The number format code, absent for General. */
  readonly numberFormat?: string
}

export interface XlsxSheet {
  readonly name: string
  readonly state: 'visible' | 'hidden' | 'veryHidden'
  /** Non-empty cells, row by row. */
  readonly cells: XlsxCell[]
  /** Merged ranges such as `A1:C1`. */
  readonly merges: string[]
  /** Column widths in Excel's character units, by 0-based column; only columns with a width set. */
  readonly columnWidths: { col: number; width: number; hidden: boolean }[]
  /** Row heights in points, by 0-based row; only rows with a height set. */
  readonly rowHeights: { row: number; height: number; hidden: boolean }[]
  /** Frozen panes, hidden rows, columns and sheet, custom row heights and outline groups, as the grid keeps them. */
  layout?: SheetViewState
}

export interface XlsxDefinedName {
  readonly name: string
  /** The sheet a sheet-scoped name belongs to; absent for a workbook-scoped name. */
  readonly sheet?: string
  /** What the name refers to, without '=': `Sheet1!$A$1:$B$4`, `0.05`, `SUM(Sheet1!$A:$A)`. */
  readonly formula: string
  readonly hidden: boolean
}

export interface XlsxWorkbook {
  /** The application that saved the file (docProps/app.xml), such as 'Microsoft Excel'; '' when unknown. */
  readonly application: string
  readonly sheets: XlsxSheet[]
  readonly definedNames: XlsxDefinedName[]
  /** Excel tables with their ranges, header and totals rows and column names (read from the table parts). */
  readonly tables: XlsxTable[]
  /** Whether dates count from 1904 (old Mac workbooks); serials are kept as stored. */
  readonly date1904: boolean
  /** How the workbook calculates (`calcPr`): iteration of circular references, mode, full calculation on load. */
  readonly calculation: CalculationSettings
  /** Other workbooks the formulas refer to (`[1]` is the first), with the values the file cached of them. */
  readonly externalLinks: ExternalLinkRecord[]
}

/** Reads an xlsx file from a path or from its bytes. */
export async function readXlsx(source: string | Uint8Array): Promise<XlsxWorkbook> {
  const bytes = typeof source === 'string' ? await readFile(source) : source
  const zip = await JSZip.loadAsync(bytes)
  const workbookXml = await zip.file('xl/workbook.xml')?.async('string')
  if (workbookXml === undefined) throw new XlsxFormatError('the file has no xl/workbook.xml part')

  const exceljs = await loadExcelJs()
  const workbook = new exceljs.Workbook()
  const captured = captureRawNumbers(workbook)
  // exceljs's typings want its own Buffer interface; the bytes are a Node Buffer or a Uint8Array.
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer)

  const sheetOrder = readSheetOrder(workbookXml)
  const sheetParts = await readSheetParts(zip, workbookXml)
  const marks = await readCellMarks(zip, sheetParts)
  const externalLinks = await readExternalLinks(workbookXml, (await zip.file('xl/_rels/workbook.xml.rels')?.async('string')) ?? '', (path) =>
    zip.file(path)?.async('string') ?? Promise.resolve(undefined),
  )
  const appXml = (await zip.file('docProps/app.xml')?.async('string')) ?? ''
  const application = decodeXml(/<(?:\w+:)?Application>([^<]*)</.exec(appXml)?.[1] ?? '')
  // Excel writes an error result as an error; other writers (Google Sheets) write its code as text.
  const errorsAsText = !/Microsoft Excel/i.test(application)
  const sheets: XlsxSheet[] = []
  workbook.eachSheet((worksheet) => {
    sheets.push(readSheet(worksheet, captured.get(worksheet.name), marks.get(worksheet.name) ?? NO_MARKS, errorsAsText, exceljs.ValueType))
  })
  for (const sheet of sheets) {
    const part = sheetParts.find((candidate) => candidate.name === sheet.name)
    const xml = part && (await zip.file(part.part)?.async('string'))
    const layout = xml === undefined ? undefined : readSheetLayout(xml, sheet.state !== 'visible')
    if (layout) sheet.layout = layout
  }
  return {
    application,
    sheets,
    definedNames: readDefinedNames(workbookXml, sheetOrder),
    tables: await readTables(sheetParts, async (part) => zip.file(part)?.async('string')),
    date1904: Boolean(workbook.properties.date1904),
    calculation: readCalculation(workbookXml),
    externalLinks,
  }
}

/** The file is not an xlsx workbook exceljs and this reader can read. */
export class XlsxFormatError extends Error {
  override readonly name = 'XlsxFormatError'
  constructor(detail: string) {
    super(`Not a readable xlsx workbook: ${detail}`)
  }
}

// ---------------------------------------------------------------------------------------------------------
// Raw numbers: exceljs converts numbers with a date format into Dates during its `reconcile` step.
// Wrapping that step on this workbook's own reader lets us note the numbers first, without changing
// exceljs for anyone else.
// ---------------------------------------------------------------------------------------------------------

interface SheetCapture {
  /** Values and cached results as stored (numbers, error objects), by address, before any date conversion. */
  readonly raw: Map<string, unknown>
  readonly merges: string[]
}

interface RawCellModel {
  address?: string
  value?: unknown
  result?: unknown
}

interface RawWorksheetModel {
  name?: string
  rows?: ({ cells?: (RawCellModel | undefined)[] } | undefined)[]
  mergeCells?: string[]
}

interface ReconcilingReader {
  reconcile(model: { worksheets?: RawWorksheetModel[] }, options: unknown): void
}

function captureRawNumbers(workbook: ExcelJS.Workbook): Map<string, SheetCapture> {
  const bySheetName = new Map<string, SheetCapture>()
  const reader = workbook.xlsx as unknown as ReconcilingReader
  const reconcile = reader.reconcile.bind(reader)
  reader.reconcile = (model, options) => {
    const before = new Map<RawWorksheetModel, SheetCapture>()
    for (const worksheet of model.worksheets ?? []) {
      const raw = new Map<string, unknown>()
      for (const row of worksheet.rows ?? []) {
        for (const cell of row?.cells ?? []) {
          if (!cell?.address) continue
          if (typeof cell.value === 'number') raw.set(cell.address, cell.value)
          else if (cell.result !== undefined) raw.set(cell.address, cell.result)
        }
      }
      before.set(worksheet, { raw, merges: [...(worksheet.mergeCells ?? [])] })
    }
    reconcile(model, options)
    for (const [worksheet, capture] of before) if (worksheet.name) bySheetName.set(worksheet.name, capture)
  }
  return bySheetName
}

// ---------------------------------------------------------------------------------------------------------
// Cells
// ---------------------------------------------------------------------------------------------------------

/** exceljs's cell model, as far as it is read here. */
interface ExcelCellModel {
  address: string
  type: ExcelJS.ValueType
  value?: unknown
  formula?: string
  sharedFormula?: string
  shareType?: string
  ref?: string
  result?: unknown
  /** A hyperlinked cell's content: what it shows (text, rich text, or the number it holds). */
  text?: unknown
}

function readSheet(
  worksheet: ExcelJS.Worksheet,
  capture: SheetCapture | undefined,
  marks: CellMarks,
  errorsAsText: boolean,
  valueTypes: typeof ExcelJS.ValueType,
): XlsxSheet {
  const cells: XlsxCell[] = []
  const rowHeights: XlsxSheet['rowHeights'] = []
  worksheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (row.height !== undefined && row.height !== null) {
      rowHeights.push({ row: rowNumber - 1, height: row.height, hidden: row.hidden })
    }
    row.eachCell({ includeEmpty: false }, (cell, colNumber) => {
      const model = cell.model as unknown as ExcelCellModel
      const richError = marks.richErrors.get(model.address)
      const read = readCell(model, richError ?? capture?.raw.get(model.address), errorsAsText, valueTypes)
      if (!read) return
      if (richError) read.value = richError
      const table = marks.dataTables.get(model.address)
      if (table) {
        read.formula = table.formula
        read.arrayRange = table.ref
      }
      const dynamicArray = read.arrayRange !== undefined && marks.dynamicArrays.has(model.address)
      const numberFormat = cell.numFmt && cell.numFmt !== 'General' ? cell.numFmt : undefined
      cells.push({
        row: rowNumber - 1,
        col: colNumber - 1,
        address: model.address,
        ...read,
        ...(dynamicArray ? { dynamicArray } : {}),
        ...(numberFormat ? { numberFormat } : {}),
      })
    })
  })
  const columnWidths: XlsxSheet['columnWidths'] = []
  for (const [index, column] of (worksheet.columns ?? []).entries()) {
    if (column?.width !== undefined) columnWidths.push({ col: index, width: column.width, hidden: Boolean(column.hidden) })
  }
  return {
    name: worksheet.name,
    state: worksheet.state === 'hidden' || worksheet.state === 'veryHidden' ? worksheet.state : 'visible',
    cells,
    merges: capture?.merges ?? [],
    columnWidths,
    rowHeights,
  }
}

type ReadCell = { -readonly [K in 'formula' | 'sharedFrom' | 'arrayRange' | 'value']?: XlsxCell[K] } & { value: Scalar }

function readCell(model: ExcelCellModel, raw: unknown, errorsAsText: boolean, valueTypes: typeof ExcelJS.ValueType): ReadCell | undefined {
  switch (model.type) {
    case valueTypes.Formula: {
      const cached = decodeEscapes(readScalar(model.result, raw))
      const value = errorsAsText ? errorFromCode(cached) : cached
      if (model.sharedFormula !== undefined && model.formula === undefined) {
        return { sharedFrom: model.sharedFormula, value }
      }
      const formula = normalizeFormula(model.formula ?? '')
      const arrayRange = model.shareType === 'array' && model.ref ? model.ref : undefined
      return { formula, value, ...(arrayRange ? { arrayRange } : {}) }
    }
    case valueTypes.Merge:
    case valueTypes.Null:
      return undefined
    case valueTypes.Hyperlink: {
      // exceljs keeps a hyperlinked cell's content beside the link, not as its value.
      const value = readScalar(model.text, raw)
      return value === null ? undefined : { value }
    }
    default: {
      const value = readScalar(model.value, raw)
      return value === null ? undefined : { value }
    }
  }
}

/**
 * A cached text that is exactly an error code, as the error: for files from writers that store a
 * formula's error result as text (`t="str"` with `#N/A`), which Excel never does.
 */
function errorFromCode(value: Scalar): Scalar {
  return typeof value === 'string' && value.startsWith('#') ? (errorFromText(value) ?? value) : value
}

/** A value or cached result of exceljs as a scalar of the engine; `raw` is what the file stored. */
function readScalar(value: unknown, raw: unknown): Scalar {
  if (value === undefined || value === null) return null
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value
  if (value instanceof Date) {
    // exceljs made a Date of a date-formatted number (or of an error result, giving an invalid Date).
    if (raw !== undefined && !(raw instanceof Date)) return readScalar(raw, undefined)
    return excelSerialFromDate(value)
  }
  if (typeof value === 'object') {
    const object = value as { error?: string; richText?: { text: string }[]; text?: unknown }
    if (typeof object.error === 'string') return errorFromText(object.error) ?? CellError.VALUE
    if (Array.isArray(object.richText)) return object.richText.map((run) => run.text).join('')
    if (typeof object.text === 'string') return object.text
    if (object.text && typeof object.text === 'object') return readScalar(object.text, raw)
  }
  return String(value)
}

/**
 * Text in xlsx files writes characters XML cannot hold (control characters) as `_xHHHH_`, and a
 * literal `_x` sequence as `_x005F_x...`. exceljs decodes shared strings but not the text a formula
 * cached, which is decoded here.
 */
function decodeEscapes(value: Scalar): Scalar {
  if (typeof value !== 'string' || !value.includes('_x')) return value
  return value.replace(/_x([0-9A-Fa-f]{4})_/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

function excelSerialFromDate(date: Date): number {
  return date.getTime() / 86_400_000 + 25_569
}

// ---------------------------------------------------------------------------------------------------------
// workbook.xml: sheet order (for sheet-scoped names) and defined names
// ---------------------------------------------------------------------------------------------------------

function readSheetOrder(workbookXml: string): string[] {
  const sheets = /<(?:\w+:)?sheets\b[^>]*>([\s\S]*?)<\/(?:\w+:)?sheets>/.exec(workbookXml)
  if (!sheets) return []
  const names: string[] = []
  for (const match of sheets[1].matchAll(/<(?:\w+:)?sheet\b([^>]*?)\/?>/g)) {
    const name = attribute(match[1], 'name')
    if (name !== undefined) names.push(name)
  }
  return names
}

/** What the sheet xml says about cells beyond exceljs's reading. */
interface CellMarks {
  /** Anchors of dynamic-array formulas: Excel 365 gives them cell metadata (`cm`). */
  readonly dynamicArrays: Set<string>
  /**
   * Errors newer than the file format (#SPILL!, #CALC!): the file stores #VALUE! and points (`vm`)
   * at a rich value that holds the real error type.
   */
  readonly richErrors: Map<string, CellError>
  /** What-if data tables by the top-left cell of their results: `TABLE(r, c)` over `ref` (see dataTableFormula). */
  readonly dataTables: Map<string, { formula: string; ref: string }>
}

const NO_MARKS: CellMarks = { dynamicArrays: new Set(), richErrors: new Map(), dataTables: new Map() }

/** Rich value error types, as Excel numbers them, for the errors the engine knows. */
const RICH_ERROR_TYPES: Record<string, CellError> = { '8': CellError.SPILL, '13': CellError.CALC }

/** Each sheet's name and the part that holds it, in workbook order. */
async function readSheetParts(zip: JSZip, workbookXml: string): Promise<{ name: string; part: string }[]> {
  const relsXml = (await zip.file('xl/_rels/workbook.xml.rels')?.async('string')) ?? ''
  const targets = new Map<string, string>()
  for (const match of relsXml.matchAll(/<(?:\w+:)?Relationship\b([^>]*?)\/?>/g)) {
    const id = attribute(match[1], 'Id')
    const target = attribute(match[1], 'Target')
    if (id && target) targets.set(id, target.startsWith('/') ? target.slice(1) : `xl/${target}`)
  }
  const parts: { name: string; part: string }[] = []
  const sheets = /<(?:\w+:)?sheets\b[^>]*>([\s\S]*?)<\/(?:\w+:)?sheets>/.exec(workbookXml)?.[1] ?? ''
  for (const match of sheets.matchAll(/<(?:\w+:)?sheet\b([^>]*?)\/?>/g)) {
    const name = attribute(match[1], 'name')
    const id = attribute(match[1], 'r:id')
    const part = id ? targets.get(id) : undefined
    if (name && part) parts.push({ name, part })
  }
  return parts
}

async function readCellMarks(zip: JSZip, sheetParts: readonly { name: string; part: string }[]): Promise<Map<string, CellMarks>> {
  const errorsByValueMetadata = await readRichErrors(zip)
  const bySheet = new Map<string, CellMarks>()
  for (const { name, part } of sheetParts) {
    const xml = await zip.file(part)?.async('string')
    if (xml === undefined || !/ (cm|vm)=|t="dataTable"/.test(xml)) continue
    const marks: CellMarks = { dynamicArrays: new Set(), richErrors: new Map(), dataTables: readDataTables(xml) }
    for (const cell of xml.matchAll(/<(?:\w+:)?c\b([^>]*\s(?:cm|vm)="[^"]*"[^>]*)>/g)) {
      const address = attribute(cell[1], 'r')
      if (!address) continue
      if (attribute(cell[1], 'cm') !== undefined) marks.dynamicArrays.add(address)
      const valueMetadata = attribute(cell[1], 'vm')
      const error = valueMetadata === undefined ? undefined : errorsByValueMetadata.get(Number(valueMetadata))
      if (error && attribute(cell[1], 't') === 'e') marks.richErrors.set(address, error)
    }
    bySheet.set(name, marks)
  }
  return bySheet
}

/** The data tables of a sheet's xml: `<f t="dataTable" ...>` on the first cell of each table's results. */
function readDataTables(xml: string): Map<string, { formula: string; ref: string }> {
  const tables = new Map<string, { formula: string; ref: string }>()
  if (!xml.includes('t="dataTable"')) return tables
  for (const match of xml.matchAll(/<(?:\w+:)?c\b([^>]*)>\s*<(?:\w+:)?f\b([^>]*\bt="dataTable"[^>]*?)\/?>/g)) {
    const address = attribute(match[1], 'r')
    const table = dataTableFormula((name) => attribute(match[2], name))
    if (address && table) tables.set(address, table)
  }
  return tables
}

/** The error of each value-metadata index (1-based, as cells' `vm` count) that stands for a rich error. */
async function readRichErrors(zip: JSZip): Promise<Map<number, CellError>> {
  const errors = new Map<number, CellError>()
  const metadataXml = await zip.file('xl/metadata.xml')?.async('string')
  const richValuesXml = await zip.file('xl/richData/rdrichvalue.xml')?.async('string')
  const structuresXml = await zip.file('xl/richData/rdrichvaluestructure.xml')?.async('string')
  if (!metadataXml || !richValuesXml || !structuresXml) return errors
  const structures = [...structuresXml.matchAll(/<(?:\w+:)?s\b([^>]*)>([\s\S]*?)<\/(?:\w+:)?s>/g)].map((match) => ({
    type: attribute(match[1], 't'),
    keys: [...match[2].matchAll(/<(?:\w+:)?k\b([^>]*?)\/?>/g)].map((key) => attribute(key[1], 'n')),
  }))
  const richValues = [...richValuesXml.matchAll(/<(?:\w+:)?rv\b([^>]*)>([\s\S]*?)<\/(?:\w+:)?rv>/g)].map((match) => {
    const structure = structures[Number(attribute(match[1], 's'))]
    const values = [...match[2].matchAll(/<(?:\w+:)?v\b[^>]*>([^<]*)<\/(?:\w+:)?v>/g)].map((value) => value[1])
    if (structure?.type !== '_error') return undefined
    return RICH_ERROR_TYPES[values[structure.keys.indexOf('errorType')] ?? '']
  })
  const future = /<(?:\w+:)?futureMetadata\b[^>]*name="XLRICHVALUE"[^>]*>([\s\S]*?)<\/(?:\w+:)?futureMetadata>/.exec(metadataXml)
  const richValueOfBlock = [...(future?.[1] ?? '').matchAll(/<(?:\w+:)?bk>([\s\S]*?)<\/(?:\w+:)?bk>/g)].map((block) => {
    const rvb = /<(?:\w+:)?rvb\b([^>]*?)\/?>/.exec(block[1])
    return rvb ? Number(attribute(rvb[1], 'i')) : -1
  })
  const valueMetadata = /<(?:\w+:)?valueMetadata\b[^>]*>([\s\S]*?)<\/(?:\w+:)?valueMetadata>/.exec(metadataXml)
  const blocks = [...(valueMetadata?.[1] ?? '').matchAll(/<(?:\w+:)?bk>([\s\S]*?)<\/(?:\w+:)?bk>/g)]
  blocks.forEach((block, index) => {
    const record = /<(?:\w+:)?rc\b([^>]*?)\/?>/.exec(block[1])
    const error = record ? richValues[richValueOfBlock[Number(attribute(record[1], 'v'))]] : undefined
    if (error) errors.set(index + 1, error)
  })
  return errors
}

function readCalculation(workbookXml: string): CalculationSettings {
  const element = /<(?:\w+:)?calcPr\b([^>]*?)\/?>/.exec(workbookXml)
  if (!element) return calculationFromAttributes(undefined)
  const names = ['iterate', 'iterateCount', 'iterateDelta', 'calcMode', 'fullCalcOnLoad'] as const
  return calculationFromAttributes(Object.fromEntries(names.map((name) => [name, attribute(element[1], name)])))
}

function readDefinedNames(workbookXml: string, sheetOrder: readonly string[]): XlsxDefinedName[] {
  const names: XlsxDefinedName[] = []
  const pattern = /<(?:\w+:)?definedName\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?definedName>)/g
  for (const match of workbookXml.matchAll(pattern)) {
    const name = attribute(match[1], 'name')
    if (!name || /^_xl(nm|fn|pm|ws)\./i.test(name)) continue
    const localSheetId = attribute(match[1], 'localSheetId')
    const sheet = localSheetId === undefined ? undefined : sheetOrder[Number(localSheetId)]
    if (localSheetId !== undefined && sheet === undefined) continue
    names.push({
      name,
      ...(sheet !== undefined ? { sheet } : {}),
      formula: normalizeFormula(decodeXml(match[2] ?? '')),
      hidden: attribute(match[1], 'hidden') === '1' || attribute(match[1], 'hidden') === 'true',
    })
  }
  return names
}

