/**
 * A workbook as an xlsx file: every sheet, formulas with the values they calculated (so that a reader
 * that does not recalculate shows the same numbers), number formats, styles, column widths and merges.
 *
 * Text goes into the file as XML 1.0 can hold it: a character XML forbids (most control characters,
 * U+FFFE and U+FFFF, half of a surrogate pair) is written in a cell's text as `_xHHHH_`, the escape
 * Excel reads back (a literal `_xHHHH_` becomes `_x005F_xHHHH_`), and dropped from sheet names, number
 * formats, font names and formulas, which have no escape.
 *
 * Merged ranges are written into each sheet's XML as ranges: exceljs would create every cell of a
 * merge, seventeen billion of them for a merge over the whole sheet.
 */
import type ExcelJS from 'exceljs'
import { loadExcelJs } from '../xlsx/exceljs-module.js'
import { withColumnOutline, withRowLayout, writeSheetLayout } from '../xlsx/sheet-layout.js'
import { withDataValidations } from '../xlsx/data-validations.js'
import { withAutoFilter } from '../xlsx/auto-filter.js'
import type { AxisEntry, ChartAnchor, DataValidationRule, SheetFilter } from '@finsheet/contracts'
import { chartPictures, type ChartPictures } from './chart-pictures.js'
import { withRulePatches, writeConditionalFormats, type RulePatch } from '../xlsx/conditional-formats.js'
import JSZip from 'jszip'
import type { CellStyle, WorkbookFont } from '@finsheet/contracts'
import { formatRange, rangesOverlap, tryParseRange } from '../model/a1.js'
import type { RangeAddress } from '../model/a1.js'
import { effectiveFormat, pixelsToExcelWidth } from '../model/cell-record.js'
import type { CellRecord, SheetRecord } from '../model/cell-record.js'
import { tablesOf } from '../model/snapshot.js'
import type { DefinedNameRecord, TableRecord, WorkbookSnapshot } from '../model/snapshot.js'
import { numberExternalReferences, storedFormula } from './formula-storage.js'
import { fileNameOf } from '@finsheet/formula'
import type { ExternalLinkRecord } from '../model/external-links.js'
import { dataTableAttributes } from '../xlsx/data-table-formula.js'
import { calculationAttributes, DEFAULT_CALCULATION, isDefaultCalculation } from '../model/calculation.js'
import { printNameOf, storedPrintFormula } from '../xlsx/print-names.js'
import { themeColorHolds } from './theme-colors.js'
import { completeSheetExtras, needsCompleting, sheetExtrasOf, writeSheetExtras, type SheetExtras } from './sheet-extras-xlsx.js'
import type { CalculationSettings } from '../model/calculation.js'

/** English Metric Units to the pixel, as drawing anchors measure offsets. */
const EMU_PER_PIXEL = 9525

/** Characters XML 1.0 cannot hold: C0 controls but tab, LF and CR; U+FFFE, U+FFFF; unpaired surrogates. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const LITERAL_ESCAPE = /_x([0-9A-Fa-f]{4})_/g

/** Cell text as an xlsx file holds it: forbidden characters as `_xHHHH_`, literal escapes escaped. */
export function xlsxText(text: string): string {
  if (!text.includes('_x') && !XML_FORBIDDEN.test(text)) return text
  XML_FORBIDDEN.lastIndex = 0
  return text
    .replace(LITERAL_ESCAPE, '_x005F_x$1_')
    .replace(XML_FORBIDDEN, (ch) => `_x${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`)
}

/** Text with the characters XML forbids left out, where the file has no escape for them. */
export function xmlSafe(text: string): string {
  const safe = text.replace(XML_FORBIDDEN, '')
  XML_FORBIDDEN.lastIndex = 0
  return safe
}

interface SheetInProgress {
  worksheet: ExcelJS.Worksheet
  /** The anchors of dynamic-array formulas, marked once exceljs has written the file. */
  dynamic: Set<string>
  /** Dynamic-array anchors by position, and the cells their results spilled into: each anchor's range is set at the end. */
  anchors: Map<number, ExcelJS.Cell>
  spilled: Set<number>
  /** The ranges of fixed-size array formulas met so far (their anchor comes before their cells). */
  arrayAreas: RangeAddress[]
  merges: string[]
  /** What-if data tables by the first cell of their results: the attributes of their `<f t="dataTable">`. */
  tables: Map<string, Record<string, string>>
  /** Excel tables (list objects) of the sheet, with their areas. */
  listObjects: { table: TableRecord; area: RangeAddress }[]
  /** Row heights, hidden and grouped rows, stated on the rows once exceljs has written the file. */
  rows: Record<string, AxisEntry> | undefined
  /** The deepest column outline level, stated once exceljs has written the file. */
  columnOutline: number
  /** Data-validation rules, written into the sheet's part once exceljs has written the file. */
  validations: DataValidationRule[] | undefined
  /** The sheet's filter, stated once exceljs has written the file. */
  filter?: SheetFilter
  /** What exceljs leaves out of the sheet's conditional formats, by priority, stated once it has written the file. */
  rulePatches: Map<number, RulePatch>
}

/**
 * Builds an xlsx file from sheets and batches of their cells, so that a caller can hand the cells
 * over in parts (the export worker receives them so) instead of as one snapshot.
 */
export class XlsxWriter {
  private readonly workbook: ExcelJS.Workbook
  private readonly sheets: SheetInProgress[] = []
  /** The workbooks formulas refer to, written as the file's external-link parts (`[1]` is the first). */
  private readonly links: ExternalLinkRecord[] = []
  /** Each sheet's tab colour, gridlines, notes and links, written once its cells are. */
  private readonly extras: SheetExtras[] = []
  /** The print settings each sheet's page setup writes as its print names, which a defined name of the same must not repeat. */
  private readonly printNames: Set<string>[] = []

  /** A writer for a new file (exceljs is loaded on the first). */
  static async create(options: { creator?: string } = {}): Promise<XlsxWriter> {
    return new XlsxWriter(new (await loadExcelJs()).Workbook(), options)
  }

  private constructor(workbook: ExcelJS.Workbook, options: { creator?: string }) {
    this.workbook = workbook
    this.workbook.creator = options.creator ?? 'Finsheet'
    this.workbook.created = new Date()
    // Formulas carry their calculated results; a reader recalculating on open gets the same values.
    this.workbook.calcProperties.fullCalcOnLoad = false
  }

  /** Adds a sheet with its Excel tables; its cells follow with `addCells`, in row-major order. */
  addSheet(sheet: Pick<SheetRecord, 'name' | 'columnWidths' | 'merges' | 'view' | 'conditionalFormats' | 'validations'>, tables: readonly TableRecord[] = []): void {
    const index = this.sheets.length
    const name = xmlSafe(sheet.name).trim()
    const taken = this.sheets.some((other) => other.worksheet.name.toUpperCase() === name.toUpperCase())
    const worksheet = this.workbook.addWorksheet(name === '' || taken ? `Sheet${index + 1}` : name)
    for (const [col, width] of Object.entries(sheet.columnWidths)) {
      const column = worksheet.getColumn(Number(col) + 1)
      if (width === 0) column.hidden = true
      else column.width = pixelsToExcelWidth(width)
    }
    const columnOutline = writeSheetLayout(worksheet, sheet.view)
    this.extras.push(sheetExtrasOf(sheet.view))
    const setup = sheet.view?.pageSetup
    this.printNames.push(new Set([...(setup?.printArea ? ['Print_Area'] : []), ...(setup?.titleRows || setup?.titleColumns ? ['Print_Titles'] : [])]))
    const rulePatches = writeConditionalFormats(worksheet, sheet.conditionalFormats)
    const listObjects = tables.flatMap((table) => {
      const area = tryParseRange(table.range)
      return area ? [{ table, area }] : []
    })
    const rows = sheet.view?.rows && Object.keys(sheet.view.rows).length > 0 ? sheet.view.rows : undefined
    const filter = sheet.view?.filter
    this.sheets.push({ worksheet, dynamic: new Set(), anchors: new Map(), spilled: new Set(), arrayAreas: [], merges: withoutOverlaps(sheet.merges), tables: new Map(), listObjects, rows, columnOutline, rulePatches, ...(filter ? { filter } : {}), validations: sheet.validations && sheet.validations.length > 0 ? sheet.validations : undefined })
  }

  /**
   * The other workbooks the formulas refer to, with the values kept of them; before any cell, so that
   * references typed with a file name (`[Budget.xlsx]Q1!B2`) are written with the link's number.
   */
  linkWorkbooks(links: readonly ExternalLinkRecord[]): void {
    this.links.push(...links.map((link) => ({ target: link.target, sheets: link.sheets.map((sheet) => ({ ...sheet, cells: { ...sheet.cells } })) })))
  }

  /** The number of the link to a file (a new link, without cached values, when there is none) that lists `sheet`. */
  private linkNumber(path: string, fileName: string, sheet: string): number {
    let index = this.links.findIndex((link) => fileNameOf(link.target).toUpperCase() === fileName.toUpperCase())
    if (index < 0) index = this.links.push({ target: path + fileName, sheets: [] }) - 1
    const link = this.links[index]
    if (sheet !== '' && !link.sheets.some((known) => known.name.toUpperCase() === sheet.toUpperCase())) link.sheets.push({ name: sheet, cells: {} })
    return index + 1
  }

  /**
   * Places a picture over the cells of the sheet at `index`, held by its two corners as Excel's
   * two-cell anchor holds them (offsets in EMU, 9,525 to the pixel).
   */
  addPicture(index: number, picture: { png: Uint8Array; anchor: ChartAnchor }): void {
    const sheet = this.sheets[index]
    if (!sheet) return
    const image = this.workbook.addImage({ buffer: Buffer.from(picture.png) as unknown as ExcelJS.Buffer, extension: 'png' })
    const corner = (corner: ChartAnchor['from']) => ({ nativeCol: corner.col, nativeColOff: Math.round(corner.dx * EMU_PER_PIXEL), nativeRow: corner.row, nativeRowOff: Math.round(corner.dy * EMU_PER_PIXEL) })
    sheet.worksheet.addImage(image, { tl: corner(picture.anchor.from), br: corner(picture.anchor.to), editAs: 'twoCell' } as unknown as ExcelJS.ImageRange)
  }

  /** Writes cells of the sheet at `index`, in row-major order. */
  addCells(index: number, records: readonly CellRecord[]): void {
    const sheet = this.sheets[index]
    for (const written of records) {
      const record =
        written.input.startsWith('=') && written.input.includes('[')
          ? { ...written, input: '=' + numberExternalReferences(written.input.slice(1), (path, file, name) => this.linkNumber(path, file, name)) }
          : written
      if (record.arrayRange) {
        const area = tryParseRange(record.arrayRange)
        if (area) sheet.arrayAreas.push(area)
        const table = record.input.startsWith('=') ? dataTableAttributes(record.input) : undefined
        if (table) sheet.tables.set(record.address, { ref: record.arrayRange, ...table })
      }
      const inArray =
        sheet.arrayAreas.length > 0 &&
        sheet.arrayAreas.some((area) => record.row >= area.top && record.row <= area.bottom && record.col >= area.left && record.col <= area.right)
      const listObject = sheet.listObjects.length === 0 ? undefined : sheet.listObjects.find(({ area }) => inside(area, record))
      if (listObject?.table.headerRow && record.row === listObject.area.top) {
        // A table's header cell holds its column's name as text, which Excel checks when it opens the file.
        writeHeader(sheet.worksheet.getCell(record.row + 1, record.col + 1), record, listObject.table.columns[record.col - listObject.area.left])
        continue
      }
      // A table holds no array formulas: its formulas are written plain.
      const cell = sheet.worksheet.getCell(record.row + 1, record.col + 1)
      const spilledHere = !inArray && listObject === undefined && record.input === '' && record.value !== null
      if (writeCell(cell, listObject === undefined ? record : { ...record, legacy: true }, inArray || spilledHere)) {
        sheet.dynamic.add(record.address)
        sheet.anchors.set(positionOf(record), cell)
      }
      if (spilledHere) sheet.spilled.add(positionOf(record))
    }
    // Header cells left empty (a column named only in the table) get their names too.
    for (const { table, area } of sheet.listObjects) {
      if (!table.headerRow) continue
      table.columns.forEach((name, i) => {
        const cell = sheet.worksheet.getCell(area.top + 1, area.left + i + 1)
        if (cell.value === null) cell.value = xlsxText(name)
      })
    }
  }

  /**
   * The file, with the workbook's defined names and its calculation settings (iteration, mode, full
   * calculation on load, written as the file's `calcPr`).
   */
  async finish(definedNames: readonly DefinedNameRecord[], calculation: CalculationSettings = DEFAULT_CALCULATION, defaultFont?: WorkbookFont): Promise<Buffer> {
    for (const sheet of this.sheets) spanSpills(sheet)
    this.sheets.forEach((sheet, index) => writeSheetExtras(sheet.worksheet, this.extras[index], argb))
    const names = this.storedNames(definedNames)
    const written = Buffer.from((await this.workbook.xlsx.writeBuffer()) as ArrayBuffer)
    const buffer = needsCompleting(this.extras) ? await withSheetExtras(written, this.extras) : written
    const incomplete =
      names.length > 0 ||
      !isDefaultCalculation(calculation) ||
      this.links.length > 0 ||
      this.sheets.some((sheet) => sheet.dynamic.size > 0 || sheet.merges.length > 0 || sheet.tables.size > 0 || sheet.listObjects.length > 0 || sheet.rows !== undefined || sheet.columnOutline > 0 || sheet.rulePatches.size > 0)
    const complete = incomplete ? await completeSheets(buffer, this.sheets, calculation, this.links, names) : buffer
    return defaultFont ? withDefaultFont(complete, defaultFont) : complete
  }

  /**
   * Every defined name as the file's workbook part lists it: workbook or sheet scope (`localSheetId`, the
   * sheet's position), whatever it refers to (a range, a constant, a formula, a LAMBDA), stored as cell
   * formulas are. exceljs writes only workbook names that refer to ranges, so they are written here.
   */
  private storedNames(definedNames: readonly DefinedNameRecord[]): StoredName[] {
    const names: StoredName[] = []
    for (const name of definedNames) {
      const localSheetId = name.sheet === undefined ? undefined : this.sheets.findIndex((sheet) => sheet.worksheet.name.toUpperCase() === name.sheet?.toUpperCase())
      if (localSheetId === -1) continue
      const formula = name.formula.replace(/^=/, '')
      const numbered = formula.includes('[') ? numberExternalReferences(formula, (path, file, sheet) => this.linkNumber(path, file, sheet)) : formula
      // The print area and titles are stored under Excel's own names.
      const printName = localSheetId === undefined ? undefined : printNameOf(name.name)
      // Excel refuses a file naming a sheet's print area (or titles) twice: the page setup's is written.
      if (printName && localSheetId !== undefined && this.printNames[localSheetId]?.has(printName)) continue
      const stored = storedFormula(numbered)
      names.push({ name: printName ? `_xlnm.${printName}` : name.name, ...(localSheetId === undefined ? {} : { localSheetId }), formula: printName ? storedPrintFormula(stored) : stored })
    }
    return names
  }
}

/** Writes the snapshot as an xlsx file; charts placed on its sheets become pictures (`pictures` when drawn already). */
export async function writeXlsx(snapshot: WorkbookSnapshot, options: { creator?: string; pictures?: ChartPictures } = {}): Promise<Buffer> {
  const writer = await XlsxWriter.create(options)
  if (snapshot.externalLinks) writer.linkWorkbooks(snapshot.externalLinks)
  for (const [index, sheet] of snapshot.sheets.entries()) {
    writer.addSheet(sheet, tablesOf(snapshot, sheet.name))
    writer.addCells(index, sheet.cells)
  }
  const { pictures } = options.pictures ?? (await chartPictures(snapshot))
  for (const picture of pictures) writer.addPicture(picture.sheetIndex, picture)
  return writer.finish(snapshot.definedNames, snapshot.calculation, snapshot.defaultFont)
}

/**
 * The file with the workbook's default font as its first font, the one cells stating none show in.
 * Without a `scheme`, which would make Excel take the theme's font instead of the one named.
 */
async function withDefaultFont(xlsx: Buffer, font: WorkbookFont): Promise<Buffer> {
  const zip = await JSZip.loadAsync(xlsx)
  const styles = await zip.file('xl/styles.xml')?.async('string')
  if (styles === undefined) return xlsx
  const first = /(<fonts\b[^>]*>)\s*<font\b[^>]*>[\s\S]*?<\/font>/.exec(styles)
  if (!first) return xlsx
  const size = Math.round(font.size * 100) / 100
  const element = `<font><sz val="${size}"/><color theme="1"/><name val="${xmlAttribute(font.family)}"/></font>`
  zip.file('xl/styles.xml', styles.slice(0, first.index) + first[1] + element + styles.slice(first.index + first[0].length))
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' })
}

function inside(area: RangeAddress, cell: { row: number; col: number }): boolean {
  return cell.row >= area.top && cell.row <= area.bottom && cell.col >= area.left && cell.col <= area.right
}

/** Merged ranges that overlap none kept before them (a file cannot hold overlapping merges; the first wins, as Excel keeps it). */
function withoutOverlaps(merges: readonly string[]): string[] {
  const kept: RangeAddress[] = []
  for (const text of merges) {
    const range = tryParseRange(text)
    if (range && text.includes(':') && !kept.some((other) => rangesOverlap(range, other))) kept.push(range)
  }
  return kept.map(formatRange)
}

const CELL_REFERENCE = /^\$?[A-Za-z]{1,3}\$?[0-9]+$/

/**
 * Whether a formula calculates the same with and without dynamic arrays: arithmetic on single cells
 * and constants, with no range, array, name or function that implicit intersection could change. Such
 * a formula is written plain, as Excel 365 writes it; any other is marked as a dynamic array.
 */
export function calculatesAlike(formula: string): boolean {
  let i = formula.startsWith('=') ? 1 : 0
  while (i < formula.length) {
    const ch = formula[i]
    if (ch === '"') {
      const end = formula.indexOf('"', i + 1)
      if (end < 0) return false
      i = end + 1
      if (formula[i] === '"') continue
      continue
    }
    if (ch === "'") {
      // A quoted sheet name; what follows its '!' is read next.
      const end = formula.indexOf("'!", i + 1)
      if (end < 0) return false
      i = end + 2
      continue
    }
    if (ch === '[') {
      // Another workbook's sheet (`[1]Sheet1!`): what follows its '!' is read next.
      const external = /^\[[^[\]]+\][A-Za-z0-9_.]*!/.exec(formula.slice(i, i + 300))
      if (!external) return false
      i += external[0].length
      continue
    }
    if (ch === ':' || ch === '{' || ch === '#' || ch === '@') return false
    const number = /^[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?/.exec(formula.slice(i, i + 40))
    if (number && number[0] !== '') {
      i += number[0].length
      continue
    }
    const word = /^[A-Za-z_\\$][A-Za-z0-9_.$]*/.exec(formula.slice(i, i + 300))
    if (word) {
      const after = formula[i + word[0].length]
      i += word[0].length
      if (after === '!') {
        i++
        continue
      }
      if (after === '(' || !(CELL_REFERENCE.test(word[0]) || /^(TRUE|FALSE)$/i.test(word[0]))) return false
      continue
    }
    i++
  }
  return true
}

const SHEET_METADATA_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/sheetMetadata'
/** Excel 365's cell metadata for dynamic arrays (XLDAPR): what `cm="1"` on a formula cell points at. */
const DYNAMIC_ARRAY_METADATA =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">' +
  '<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>' +
  '<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>' +
  '<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>'

/**
 * Finishes what exceljs cannot write: marks dynamic-array formulas as Excel 365 does (`cm="1"` on the
 * formula's cell, pointing at the XLDAPR cell metadata; without the mark a reader takes a formula for
 * one saved before dynamic arrays, calculated with implicit intersection), writes merged ranges, and
 * states the calculation settings (exceljs writes only `fullCalcOnLoad`).
 */
/** A cell's position as one number (rows below 2^20, columns below 2^14). */
function positionOf(cell: { row: number; col: number }): number {
  return cell.row * 16_384 + cell.col
}

/**
 * Gives each dynamic-array anchor the range its result spilled into, as a file states it: the anchor
 * and the spilled cells right of it and below it (their values were written as the cells' values).
 */
function spanSpills(sheet: SheetInProgress): void {
  for (const [position, cell] of sheet.anchors) {
    const row = Math.floor(position / 16_384)
    const col = position % 16_384
    let width = 1
    while (sheet.spilled.has(positionOf({ row, col: col + width }))) width++
    let height = 1
    while (sheet.spilled.has(positionOf({ row: row + height, col }))) height++
    if (width === 1 && height === 1) continue
    const value = cell.value as ExcelJS.CellFormulaValue & { ref?: string }
    cell.value = { ...value, ref: formatRange({ top: row, left: col, bottom: row + height - 1, right: col + width - 1 }) } as ExcelJS.CellFormulaValue
  }
}

interface StoredName {
  name: string
  localSheetId?: number
  formula: string
}

async function withSheetExtras(bytes: Buffer, extras: readonly SheetExtras[]): Promise<Buffer> {
  const zip = await JSZip.loadAsync(bytes)
  await completeSheetExtras(zip, extras)
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' })
}

async function completeSheets(bytes: Buffer, sheets: readonly SheetInProgress[], calculation: CalculationSettings, links: readonly ExternalLinkRecord[], names: readonly StoredName[]): Promise<Buffer> {
  const zip = await JSZip.loadAsync(bytes)
  if (links.length > 0) await writeExternalLinks(zip, links)
  if (names.length > 0) {
    const workbookXml = await zip.file('xl/workbook.xml')?.async('string')
    if (workbookXml !== undefined) {
      const entries = names
        .map(({ name, localSheetId, formula }) => `<definedName name="${xmlAttribute(name)}"${localSheetId === undefined ? '' : ` localSheetId="${localSheetId}"`}>${xmlText(formula)}</definedName>`)
        .join('')
      // definedNames follows sheets in the workbook part.
      zip.file('xl/workbook.xml', /<definedNames>/.test(workbookXml) ? workbookXml.replace('</definedNames>', entries + '</definedNames>') : workbookXml.replace('</sheets>', `</sheets><definedNames>${entries}</definedNames>`))
    }
  }
  if (!isDefaultCalculation(calculation)) {
    const workbookXml = await zip.file('xl/workbook.xml')?.async('string')
    if (workbookXml !== undefined) {
      const stated = calculationAttributes(calculation).map(([name, value]) => ` ${name}="${value}"`).join('')
      zip.file('xl/workbook.xml', workbookXml.replace(/<calcPr\b([^>]*?)\/>/, (_whole, attributes: string) => `<calcPr${calcIdOf(attributes)}${stated}/>`))
    }
  }
  let tableCount = 0
  for (const [index, { dynamic, merges, tables, listObjects, rows, columnOutline, filter, rulePatches, validations }] of sheets.entries()) {
    if (dynamic.size === 0 && merges.length === 0 && tables.size === 0 && listObjects.length === 0 && rows === undefined && columnOutline === 0 && !filter && rulePatches.size === 0 && validations === undefined) continue
    const part = `xl/worksheets/sheet${index + 1}.xml`
    let xml = await zip.file(part)?.async('string')
    if (xml === undefined) continue
    if (rows) xml = withRowLayout(xml, rows)
    xml = withColumnOutline(xml, columnOutline)
    xml = withRulePatches(xml, rulePatches)
    if (listObjects.length > 0) {
      const ids: string[] = []
      for (const { table, area } of listObjects) {
        tableCount++
        while (zip.file(`xl/tables/table${tableCount}.xml`) !== null) tableCount++
        zip.file(`xl/tables/table${tableCount}.xml`, tablePartXml(table, area, tableCount))
        ids.push(await addRelationship(zip, part, `rIdTable${tableCount}`, TABLE_RELATIONSHIP_TYPE, `../tables/table${tableCount}.xml`))
        await addContentType(zip, `/xl/tables/table${tableCount}.xml`, TABLE_CONTENT_TYPE)
      }
      // tableParts comes last in a worksheet, before only its extension list.
      const list = `<tableParts count="${ids.length}">${ids.map((id) => `<tablePart r:id="${id}"/>`).join('')}</tableParts>`
      if (!/<worksheet\b[^>]*\sxmlns:r=/.test(xml)) xml = xml.replace(/<worksheet\b/, `<worksheet xmlns:r="${RELATIONSHIPS_NAMESPACE}"`)
      xml = xml.includes('<extLst') ? xml.replace('<extLst', list + '<extLst') : xml.replace('</worksheet>', list + '</worksheet>')
    }
    if (dynamic.size > 0) {
      xml = xml.replace(/<c r="([A-Z]+[0-9]+)"([^>]*)><f t="array"/g, (whole, address: string, attributes: string) =>
        dynamic.has(address) ? `<c r="${address}"${attributes} cm="1"><f t="array"` : whole,
      )
    }
    if (tables.size > 0) {
      // exceljs wrote each table as an array formula: a file keeps it as a data table, without formula text.
      xml = xml.replace(/<c r="([A-Z]+[0-9]+)"([^>]*)><f t="array" ref="[^"]*">[^<]*<\/f>/g, (whole, address: string, attributes: string) => {
        const table = tables.get(address)
        if (!table) return whole
        const stated = Object.entries(table).map(([name, value]) => ` ${name}="${value}"`).join('')
        return `<c r="${address}"${attributes}><f t="dataTable"${stated}/>`
      })
    }
    if (merges.length > 0) {
      // mergeCells follows sheetData (nothing exceljs writes here comes between them).
      const list = `<mergeCells count="${merges.length}">${merges.map((range) => `<mergeCell ref="${range}"/>`).join('')}</mergeCells>`
      xml = xml.replace(/<sheetData\/>|<\/sheetData>/, (end) => end + list)
    }
    // exceljs writes an autoFilter's range but not its columns' criteria: the element is written here whole, before mergeCells.
    if (filter) xml = withAutoFilter(xml, filter)
    if (validations) xml = withDataValidations(xml, validations)
    zip.file(part, xml)
  }
  if (sheets.some((sheet) => sheet.dynamic.size > 0)) {
    zip.file('xl/metadata.xml', DYNAMIC_ARRAY_METADATA)
    const types = await zip.file('[Content_Types].xml')?.async('string')
    if (types !== undefined) {
      zip.file(
        '[Content_Types].xml',
        types.replace('</Types>', '<Override PartName="/xl/metadata.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml"/></Types>'),
      )
    }
    const relations = await zip.file('xl/_rels/workbook.xml.rels')?.async('string')
    if (relations !== undefined) {
      zip.file('xl/_rels/workbook.xml.rels', relations.replace('</Relationships>', `<Relationship Id="rIdDynamicArrays" Type="${SHEET_METADATA_TYPE}" Target="metadata.xml"/></Relationships>`))
    }
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' })
}

const TABLE_RELATIONSHIP_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/table'
const TABLE_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml'
const RELATIONSHIPS_NAMESPACE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

function xmlAttribute(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;')
}

function xmlText(text: string): string {
  return xmlSafe(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/**
 * A table part as Excel writes it: name, range and rows shown, an autofilter over the header and data
 * rows (what gives the header its filter buttons), the column names and the style.
 */
function tablePartXml(table: TableRecord, area: RangeAddress, id: number): string {
  const ref = formatRange(area)
  const rows = `${table.headerRow ? '' : ' headerRowCount="0"'}${table.totalsRow ? ' totalsRowCount="1"' : ' totalsRowShown="0"'}`
  const filter = table.headerRow ? `<autoFilter ref="${formatRange({ ...area, bottom: table.totalsRow ? area.bottom - 1 : area.bottom })}"/>` : ''
  const columns = table.columns.map((name, i) => `<tableColumn id="${i + 1}" name="${xmlAttribute(xlsxText(name))}"/>`).join('')
  const style = table.style
    ? `<tableStyleInfo name="${xmlAttribute(table.style)}" showFirstColumn="0" showLastColumn="0" showRowStripes="1" showColumnStripes="0"/>`
    : ''
  const name = xmlAttribute(table.name)
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    `<table xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" id="${id}" name="${name}" displayName="${name}" ref="${ref}"${rows}>` +
    `${filter}<tableColumns count="${table.columns.length}">${columns}</tableColumns>${style}</table>`
  )
}

/** Adds a relationship to a part's relationships part (created when the part has none); returns its id. */
async function addRelationship(zip: JSZip, part: string, id: string, type: string, target: string): Promise<string> {
  const slash = part.lastIndexOf('/')
  const path = `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`
  const xml =
    (await zip.file(path)?.async('string')) ??
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>'
  const relationship = `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`
  zip.file(path, /<Relationships\b[^>]*\/>/.test(xml) ? xml.replace(/<Relationships\b([^>]*)\/>/, `<Relationships$1>${relationship}</Relationships>`) : xml.replace('</Relationships>', relationship + '</Relationships>'))
  return id
}

async function addContentType(zip: JSZip, partName: string, contentType: string): Promise<void> {
  const types = await zip.file('[Content_Types].xml')?.async('string')
  if (types === undefined || types.includes(`PartName="${partName}"`)) return
  zip.file('[Content_Types].xml', types.replace('</Types>', `<Override PartName="${partName}" ContentType="${contentType}"/></Types>`))
}

const EXTERNAL_LINK_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLink'
const EXTERNAL_LINK_PATH_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLinkPath'
const EXTERNAL_LINK_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.externalLink+xml'

/** One cached cell of an external-link part, typed as Excel types them (numbers are the default). */
function externalCellXml(address: string, value: ExternalLinkRecord['sheets'][number]['cells'][string]): string {
  if (value === null) return `<cell r="${address}"/>`
  if (typeof value === 'object') return `<cell r="${address}" t="e"><v>${xmlAttribute(value.error)}</v></cell>`
  if (typeof value === 'boolean') return `<cell r="${address}" t="b"><v>${value ? 1 : 0}</v></cell>`
  if (typeof value === 'number') return `<cell r="${address}"><v>${value}</v></cell>`
  return `<cell r="${address}" t="str"><v>${xmlAttribute(xlsxText(value))}</v></cell>`
}

/** An external-link part: the linked workbook's sheet names and the values kept of them, row by row. */
function externalLinkXml(link: ExternalLinkRecord): string {
  const names = link.sheets.map((sheet) => `<sheetName val="${xmlAttribute(sheet.name)}"/>`).join('')
  const data = link.sheets
    .map((sheet, index) => {
      const rows = new Map<number, { col: number; xml: string }[]>()
      for (const [address, value] of Object.entries(sheet.cells)) {
        const position = tryParseRange(address)
        if (!position) continue
        let row = rows.get(position.top)
        if (!row) rows.set(position.top, (row = []))
        row.push({ col: position.left, xml: externalCellXml(address, value) })
      }
      const body = [...rows.entries()]
        .sort(([a], [b]) => a - b)
        .map(([row, cells]) => `<row r="${row + 1}">${cells.sort((a, b) => a.col - b.col).map((cell) => cell.xml).join('')}</row>`)
        .join('')
      const refreshError = sheet.refreshError ? ' refreshError="1"' : ''
      return body === '' ? `<sheetData sheetId="${index}"${refreshError}/>` : `<sheetData sheetId="${index}"${refreshError}>${body}</sheetData>`
    })
    .join('')
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<externalLink xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
    `<externalBook r:id="rId1">${names === '' ? '' : `<sheetNames>${names}</sheetNames>`}${data === '' ? '' : `<sheetDataSet>${data}</sheetDataSet>`}</externalBook></externalLink>`
  )
}

/**
 * Writes the workbook's links to other workbooks as Excel does, so that a reader finds them and the
 * values kept of them: one xl/externalLinks/externalLinkN.xml per link, its relationship naming the
 * file, and the links listed in xl/workbook.xml in the order formulas number them.
 */
async function writeExternalLinks(zip: JSZip, links: readonly ExternalLinkRecord[]): Promise<void> {
  const references = links.map((_link, index) => `<externalReference r:id="rIdExternalLink${index + 1}"/>`).join('')
  const workbookXml = await zip.file('xl/workbook.xml')?.async('string')
  if (workbookXml !== undefined) zip.file('xl/workbook.xml', workbookXml.replace('</sheets>', `</sheets><externalReferences>${references}</externalReferences>`))
  const relations = await zip.file('xl/_rels/workbook.xml.rels')?.async('string')
  if (relations !== undefined) {
    const added = links.map((_link, index) => `<Relationship Id="rIdExternalLink${index + 1}" Type="${EXTERNAL_LINK_TYPE}" Target="externalLinks/externalLink${index + 1}.xml"/>`).join('')
    zip.file('xl/_rels/workbook.xml.rels', relations.replace('</Relationships>', added + '</Relationships>'))
  }
  const types = await zip.file('[Content_Types].xml')?.async('string')
  if (types !== undefined) {
    const added = links.map((_link, index) => `<Override PartName="/xl/externalLinks/externalLink${index + 1}.xml" ContentType="${EXTERNAL_LINK_CONTENT_TYPE}"/>`).join('')
    zip.file('[Content_Types].xml', types.replace('</Types>', added + '</Types>'))
  }
  for (const [index, link] of links.entries()) {
    zip.file(`xl/externalLinks/externalLink${index + 1}.xml`, externalLinkXml(link))
    zip.file(
      `xl/externalLinks/_rels/externalLink${index + 1}.xml.rels`,
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        `<Relationship Id="rId1" Type="${EXTERNAL_LINK_PATH_TYPE}" Target="${xmlAttribute(link.target)}" TargetMode="External"/></Relationships>`,
    )
  }
}

/** The `calcId` attribute exceljs wrote (the calculation engine's version, which readers compare with their own). */
function calcIdOf(attributes: string): string {
  const calcId = /\scalcId="[^"]*"/.exec(attributes)
  return calcId ? calcId[0] : ''
}

function resultOf(record: CellRecord): ExcelJS.CellValue {
  switch (record.type) {
    case 'error':
      return { error: String(record.value) as ExcelJS.CellErrorValue['error'] }
    case 'empty':
      return null
    case 'text':
      return xlsxText(String(record.value))
    default:
      return record.value as string | number | boolean
  }
}

/**
 * How a formula is calculated decides how it is written: a legacy formula as a plain formula (which
 * Excel reads as one saved before dynamic arrays: implicit intersection); a fixed-size array formula
 * over its range, the other cells of the range carrying their results; any other formula as a dynamic
 * array anchored at its cell (answers true: the caller marks it and gives it its spill range). Cells
 * its result spilled into carry their values, as Excel writes them, for readers that do not calculate.
 */
function writeCell(cell: ExcelJS.Cell, record: CellRecord, inArrayRange: boolean): boolean {
  let dynamic = false
  if (record.input.startsWith('=')) {
    const result = resultOf(record)
    dynamic = !record.legacy && record.arrayRange === undefined && !calculatesAlike(record.input)
    const ref = record.arrayRange ?? (dynamic ? record.address : undefined)
    cell.value = {
      formula: xmlSafe(storedFormula(record.input.slice(1))),
      ...(result !== null ? { result } : {}),
      ...(ref !== undefined ? { shareType: 'array', ref } : {}),
    } as ExcelJS.CellFormulaValue
  } else if (record.input !== '' || (inArrayRange && record.value !== null)) {
    cell.value = resultOf(record)
  }
  const format = effectiveFormat(record)
  if (format !== null) cell.numFmt = xmlSafe(format)
  if (record.style) applyStyle(cell, record.style)
  return dynamic
}

/** A table's header cell: the column's name as text, with the cell's format and style. */
function writeHeader(cell: ExcelJS.Cell, record: CellRecord, name: string | undefined): void {
  cell.value = xlsxText(name ?? String(record.value ?? ''))
  const format = effectiveFormat(record)
  if (format !== null) cell.numFmt = xmlSafe(format)
  if (record.style) applyStyle(cell, record.style)
}

function applyStyle(cell: ExcelJS.Cell, style: CellStyle): void {
  const font: Partial<ExcelJS.Font> = {}
  if (style.bold) font.bold = true
  if (style.italic) font.italic = true
  if (style.underline) font.underline = true
  if (style.strike) font.strike = true
  if (style.fontFamily) font.name = xmlSafe(style.fontFamily)
  if (style.fontSize) font.size = style.fontSize
  const color = style.color ? argb(style.color) : undefined
  // A theme colour is written as the theme's, so that the file follows its theme as Excel's do.
  if (style.colorTheme && themeColorHolds(style.colorTheme, style.color)) font.color = themeColorOf(style.colorTheme)
  else if (color) font.color = { argb: color }
  if (Object.keys(font).length > 0) cell.font = font
  const fill = style.fill ? argb(style.fill) : undefined
  if (style.fillTheme && themeColorHolds(style.fillTheme, style.fill)) cell.fill = { type: 'pattern', pattern: 'solid', fgColor: themeColorOf(style.fillTheme) }
  else if (fill) cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: fill } }
  const alignment: Partial<ExcelJS.Alignment> = {}
  if (style.align) alignment.horizontal = style.align
  if (style.verticalAlign) alignment.vertical = style.verticalAlign
  if (style.wrap) alignment.wrapText = true
  if (style.indent) alignment.indent = style.indent
  if (style.rotation !== undefined) alignment.textRotation = style.rotation === 255 ? 'vertical' : style.rotation
  if (Object.keys(alignment).length > 0) cell.alignment = alignment
  if (style.borders) {
    const border: Partial<ExcelJS.Borders> = {}
    for (const edge of ['top', 'right', 'bottom', 'left'] as const) {
      const side = style.borders[edge]
      if (!side) continue
      const color = side.color ? argb(side.color) : undefined
      border[edge] = { style: side.line, ...(color ? { color: { argb: color } } : {}) }
    }
    cell.border = border
  }
}

function themeColorOf(theme: NonNullable<CellStyle['colorTheme']>): Partial<ExcelJS.Color> {
  return { theme: theme.theme, ...(theme.tint !== undefined ? { tint: theme.tint } : {}) } as Partial<ExcelJS.Color>
}

const NAMED_COLOURS: Record<string, string> = {
  black: '000000',
  white: 'FFFFFF',
  red: 'FF0000',
  green: '008000',
  blue: '0000FF',
  yellow: 'FFFF00',
  orange: 'FFA500',
  purple: '800080',
  gray: '808080',
  grey: '808080',
}

/** A CSS colour (#rgb, #rrggbb, rgb(), or a basic name) as Excel's ARGB; undefined when unreadable. */
export function argb(css: string): string | undefined {
  const text = css.trim().toLowerCase()
  if (NAMED_COLOURS[text]) return 'FF' + NAMED_COLOURS[text]
  let match = /^#([0-9a-f]{3})$/.exec(text)
  if (match) return 'FF' + [...match[1]].map((digit) => digit + digit).join('').toUpperCase()
  match = /^#([0-9a-f]{6})$/.exec(text)
  if (match) return 'FF' + match[1].toUpperCase()
  const rgb = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})/.exec(text)
  if (rgb) return 'FF' + rgb.slice(1, 4).map((part) => Math.min(255, Number(part)).toString(16).padStart(2, '0')).join('').toUpperCase()
  return undefined
}
