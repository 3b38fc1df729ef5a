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
import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { CellError, errorFromText } from '@finsheet/formula'
import type { Scalar } from '@finsheet/formula'
import { normalizeFormula } from './formula-text.js'

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
  readonly sheets: XlsxSheet[]
  readonly definedNames: XlsxDefinedName[]
  /** Whether dates count from 1904 (old Mac workbooks); serials are kept as stored. */
  readonly date1904: boolean
}

/** Reads an xlsx file from a path or from its bytes. */
export async function readXlsx(source: string | Uint8Array): Promise<XlsxWorkbook> {
  const bytes = typeof source === 'string' ? await readFile(source) : source
  const zip = await JSZip.loadAsync(bytes)
  const workbookXml = await zip.file('xl/workbook.xml')?.async('string')
  if (workbookXml === undefined) throw new XlsxFormatError('the file has no xl/workbook.xml part')

  const workbook = new ExcelJS.Workbook()
  const captured = captureRawNumbers(workbook)
  // exceljs's typings want its own Buffer interface; the bytes are a Node Buffer or a Uint8Array.
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer)

  const sheetOrder = readSheetOrder(workbookXml)
  const dynamicArrays = await readDynamicArrayCells(zip, workbookXml)
  const sheets: XlsxSheet[] = []
  workbook.eachSheet((worksheet) => {
    sheets.push(readSheet(worksheet, captured.get(worksheet.name), dynamicArrays.get(worksheet.name) ?? new Set()))
  })
  return {
    sheets,
    definedNames: readDefinedNames(workbookXml, sheetOrder),
    date1904: Boolean(workbook.properties.date1904),
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
}

function readSheet(
  worksheet: ExcelJS.Worksheet,
  capture: SheetCapture | undefined,
  dynamicArrayCells: ReadonlySet<string>,
): XlsxSheet {
  const cells: XlsxCell[] = []
  const rowHeights: XlsxSheet['rowHeights'] = []
  worksheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (row.height !== undefined && row.height !== null) {
      rowHeights.push({ row: rowNumber - 1, height: row.height, hidden: row.hidden })
    }
    row.eachCell({ includeEmpty: false }, (cell, colNumber) => {
      const model = cell.model as unknown as ExcelCellModel
      const read = readCell(model, capture?.raw.get(model.address))
      if (!read) return
      const dynamicArray = read.arrayRange !== undefined && dynamicArrayCells.has(model.address)
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

type ReadCell = Pick<XlsxCell, 'formula' | 'sharedFrom' | 'arrayRange' | 'value'>

function readCell(model: ExcelCellModel, raw: unknown): ReadCell | undefined {
  switch (model.type) {
    case ExcelJS.ValueType.Formula: {
      const value = readScalar(model.result, raw)
      if (model.sharedFormula !== undefined && model.formula === undefined) {
        return { sharedFrom: model.sharedFormula, value }
      }
      const formula = normalizeFormula(model.formula ?? '')
      const arrayRange = model.shareType === 'array' && model.ref ? model.ref : undefined
      return { formula, value, ...(arrayRange ? { arrayRange } : {}) }
    }
    case ExcelJS.ValueType.Merge:
    case ExcelJS.ValueType.Null:
      return undefined
    default: {
      const value = readScalar(model.value, raw)
      return value === null ? undefined : { value }
    }
  }
}

/** A value or cached result of exceljs as a scalar of the engine; `raw` is what the file stored. */
function readScalar(value: unknown, raw: unknown): Scalar {
  if (value === undefined || value === null) return null
  if (typeof value === 'number') return value
  if (typeof value === 'string' || typeof value === 'boolean') return value
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

/**
 * The cells of each sheet that carry cell metadata (`cm`), which Excel 365 puts on the anchors of
 * dynamic-array formulas; exceljs does not keep it.
 */
async function readDynamicArrayCells(zip: JSZip, workbookXml: string): Promise<Map<string, Set<string>>> {
  const relsXml = (await zip.file('xl/_rels/workbook.xml.rels')?.async('string')) ?? ''
  const targets = new Map<string, string>()
  for (const match of relsXml.matchAll(/<(?:\w+:)?Relationship\b([^>]*?)\/?>/g)) {
    const id = attribute(match[1], 'Id')
    const target = attribute(match[1], 'Target')
    if (id && target) targets.set(id, target.startsWith('/') ? target.slice(1) : `xl/${target}`)
  }
  const bySheet = new Map<string, Set<string>>()
  const sheets = /<(?:\w+:)?sheets\b[^>]*>([\s\S]*?)<\/(?:\w+:)?sheets>/.exec(workbookXml)?.[1] ?? ''
  for (const match of sheets.matchAll(/<(?:\w+:)?sheet\b([^>]*?)\/?>/g)) {
    const name = attribute(match[1], 'name')
    const id = attribute(match[1], 'r:id')
    const path = id ? targets.get(id) : undefined
    const xml = path ? await zip.file(path)?.async('string') : undefined
    if (!name || xml === undefined || !xml.includes(' cm=')) continue
    const cells = new Set<string>()
    for (const cell of xml.matchAll(/<(?:\w+:)?c\b([^>]*\scm="[^"]*"[^>]*)>/g)) {
      const address = attribute(cell[1], 'r')
      if (address) cells.add(address)
    }
    bySheet.set(name, cells)
  }
  return bySheet
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

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attributes)
  if (!match) return undefined
  return decodeXml(match[1] ?? match[2])
}

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (entity, body: string) => {
    const lower = body.toLowerCase()
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16))
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10))
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[lower] ?? entity
  })
}
