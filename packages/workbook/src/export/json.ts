/** The workbook in the shape of the cells route (GET /workbook/{id}/cells), for export and for the route itself. */
import type { CellInputTuple, CellsResponse, CellStyle, ConditionalFormatRule, DataValidationRule, InputsLine, InputsResponse, InputsRun, InputsSheetHead, IterationLimits, JsonExportTruncation, SheetCells, SheetChart, SheetInputs, SheetViewState } from '@finsheet/contracts'
import { copyView } from '../model/sheet-view.js'
import { chartSpecOf } from '../model/sheet-charts.js'
import { copyRules } from '../model/conditional-formats.js'
import { copyValidations } from '../model/data-validation.js'
import { effectiveFormat, toApiCell } from '../model/cell-record.js'
import type { CellRecord } from '../model/cell-record.js'
import type { SheetSnapshot, StreamedSnapshot, WorkbookSnapshot } from '../model/snapshot.js'
import { hasContent } from '../model/snapshot.js'

/** One sheet with its cells keyed by address; rowCount and columnCount reach just past the last used cell. */
export function toSheetCells(sheet: Pick<SheetSnapshot, 'name' | 'cells' | 'columnWidths' | 'merges' | 'view' | 'conditionalFormats' | 'validations'>): SheetCells {
  const cells: SheetCells['cells'] = {}
  let rowCount = 0
  let columnCount = 0
  for (const record of sheet.cells) {
    cells[record.address] = toApiCell(record)
    rowCount = Math.max(rowCount, record.row + 1)
    columnCount = Math.max(columnCount, record.col + 1)
  }
  return { name: sheet.name, cells, rowCount, columnCount, columnWidths: { ...sheet.columnWidths }, merges: [...sheet.merges], ...viewOf(sheet) }
}

/** A sheet's layout beyond its widths, its conditional formats and its validation rules, when it has them. */
function viewOf(sheet: Pick<SheetSnapshot, 'view' | 'conditionalFormats' | 'validations'>): { view?: SheetViewState; conditionalFormats?: ConditionalFormatRule[]; validations?: DataValidationRule[] } {
  const view = copyView(sheet.view)
  const rules = copyRules(sheet.conditionalFormats)
  const validations = copyValidations(sheet.validations)
  return { ...(view ? { view } : {}), ...(rules ? { conditionalFormats: rules } : {}), ...(validations ? { validations } : {}) }
}

export interface CellsJsonOptions {
  workbookId: string
  /** Only this sheet (all sheets when absent). */
  sheet?: string
}

/** The `workbook` part of the cells route's answer. */
export function toCellsJson(snapshot: WorkbookSnapshot, options: CellsJsonOptions): CellsResponse['workbook'] {
  const sheets = options.sheet === undefined ? snapshot.sheets : snapshot.sheets.filter((sheet) => sheet.name === options.sheet)
  let totalCells = 0
  for (const sheet of snapshot.sheets) for (const cell of sheet.cells) if (hasContent(cell)) totalCells++
  return {
    workbookId: options.workbookId,
    name: snapshot.name,
    revision: snapshot.revision,
    sheets: sheets.map(toSheetCells),
    sheetOrder: snapshot.sheets.map((sheet) => sheet.name),
    totalCells,
    totalSheets: snapshot.sheets.length,
  }
}

export interface CellsJsonExport {
  workbookId: string
  name: string
  revision: number
  /** Every sheet's name, in order. */
  sheetOrder: string[]
  totalCells: number
  /** The sheets to write, cells sorted row-major. */
  sheets: readonly Pick<SheetSnapshot, 'name' | 'cells' | 'columnWidths' | 'merges'>[]
}

/** Room kept under the limit for what closes the document once cells stop. */
const CLOSING_BYTES = 4096
const CHUNK_CHARACTERS = 64 * 1024

/**
 * The JSON export (`{ success, workbook }`, the cells route's shape) in chunks of about 64 KB made as
 * they are asked for, so that a large workbook is never one string. Cells stop before the document
 * would pass `maxBytes`: `workbook.truncated` then says how many were written and how many were
 * left out (it is null for a whole workbook), and the sheets not reached are left out of `sheets`.
 */
export function* cellsJsonChunks(workbook: CellsJsonExport, maxBytes: number): Generator<string> {
  let chunk =
    `{"success":true,"workbook":{"workbookId":${JSON.stringify(workbook.workbookId)},"name":${JSON.stringify(workbook.name)},` +
    `"revision":${workbook.revision},"sheetOrder":${JSON.stringify(workbook.sheetOrder)},"totalSheets":${workbook.sheetOrder.length},` +
    `"totalCells":${workbook.totalCells},"sheets":[`
  let bytes = Buffer.byteLength(chunk)
  const budget = maxBytes - CLOSING_BYTES
  let written = 0
  let total = 0
  for (const sheet of workbook.sheets) total += sheet.cells.length
  let stopped = false
  for (const [index, sheet] of workbook.sheets.entries()) {
    let rowCount = 0
    let columnCount = 0
    for (const record of sheet.cells) {
      if (record.row >= rowCount) rowCount = record.row + 1
      if (record.col >= columnCount) columnCount = record.col + 1
    }
    const head =
      `${index > 0 ? ',' : ''}{"name":${JSON.stringify(sheet.name)},"rowCount":${rowCount},"columnCount":${columnCount},` +
      `"columnWidths":${JSON.stringify(sheet.columnWidths)},"merges":${JSON.stringify(sheet.merges)},"cells":{`
    bytes += Buffer.byteLength(head)
    if (bytes > budget) {
      stopped = true
      break
    }
    chunk += head
    for (let i = 0; i < sheet.cells.length; i++) {
      const record = sheet.cells[i]
      const entry = `${i > 0 ? ',' : ''}${JSON.stringify(record.address)}:${JSON.stringify(toApiCell(record))}`
      bytes += Buffer.byteLength(entry)
      if (bytes > budget) {
        stopped = true
        break
      }
      chunk += entry
      written++
      if (chunk.length >= CHUNK_CHARACTERS) {
        yield chunk
        chunk = ''
      }
    }
    chunk += '}}'
    if (stopped) break
  }
  const truncated: JsonExportTruncation = stopped ? { limitBytes: maxBytes, cellsWritten: written, cellsLeftOut: total - written } : null
  yield `${chunk}],"truncated":${JSON.stringify(truncated)}}}`
}

/** What the cells route's answer says of the workbook besides its sheets. */
export interface CellsAnswerHead {
  workbookId: string
  /** Every sheet's name, in order, whichever sheets the answer holds. */
  sheetOrder: string[]
  totalCells: number
}

/**
 * The cells route's whole answer (`{"success":true,"workbook":…}`: toCellsJson's, with the head's
 * `sheetOrder` and `totalCells`) as JSON text in pieces of about 64 KB, written cell by cell from a
 * snapshot whose cells are decoded as they are iterated: a workbook of a million cells never becomes an
 * object keyed by a million addresses nor one string, and the service answers other requests between
 * the pieces it sends.
 */
export function* cellsAnswerChunks(snapshot: StreamedSnapshot, head: CellsAnswerHead): Generator<string> {
  let chunk = `{"success":true,"workbook":${JSON.stringify({ workbookId: head.workbookId, name: snapshot.name, revision: snapshot.revision }).slice(0, -1)},"sheets":[`
  for (let index = 0; index < snapshot.sheets.length; index++) {
    const sheet = snapshot.sheets[index]
    chunk += `${index > 0 ? ',' : ''}{"name":${JSON.stringify(sheet.name)},"cells":{`
    let rowCount = 0
    let columnCount = 0
    let first = true
    for (const record of sheet.cells) {
      // An address is letters and digits: nothing in it needs escaping.
      chunk += `${first ? '' : ','}"${record.address}":${JSON.stringify(toApiCell(record))}`
      first = false
      if (record.row >= rowCount) rowCount = record.row + 1
      if (record.col >= columnCount) columnCount = record.col + 1
      if (chunk.length >= CHUNK_CHARACTERS) {
        yield chunk
        chunk = ''
      }
    }
    const layout = { rowCount, columnCount, columnWidths: { ...sheet.columnWidths }, merges: [...sheet.merges], ...viewOf(sheet) }
    chunk += `},${JSON.stringify(layout).slice(1)}`
  }
  const totals = { sheetOrder: head.sheetOrder, totalCells: head.totalCells, totalSheets: head.sheetOrder.length }
  yield `${chunk}],${JSON.stringify(totals).slice(1)}}`
}

type InputsOptions = { iterativeCalculation?: boolean; iterationLimits?: IterationLimits }

/** The inputs answer's table of distinct styles, which the cells name by index. */
class StyleTable {
  readonly styles: CellStyle[] = []
  private readonly indexes = new Map<string, number>()

  indexOf(style: CellStyle): number {
    const key = JSON.stringify(style)
    let index = this.indexes.get(key)
    if (index === undefined) this.indexes.set(key, (index = this.styles.push(style) - 1))
    return index
  }
}

/** A cell's tuple in the inputs answer; null for a cell only filled by a spilling formula (the client's to calculate). */
function inputTupleOf(record: CellRecord, styles: StyleTable): CellInputTuple | null {
  const format = effectiveFormat(record)
  if (record.input === '' && !record.style && format === null) return null
  return [record.address, record.input, record.style ? styles.indexOf(record.style) : -1, format ?? '']
}

/** A sheet's part of the inputs answer but its cells and extent. */
function sheetInputsHead(sheet: Omit<SheetSnapshot, 'cells'>): InputsSheetHead {
  return { name: sheet.name, columnWidths: { ...sheet.columnWidths }, merges: [...sheet.merges], ...viewOf(sheet) }
}

/** The inputs answer but its sheets and styles. */
function workbookInputsHead(snapshot: StreamedSnapshot, workbookId: string, sheetOrder: string[], options: InputsOptions): Omit<InputsResponse['workbook'], 'sheets' | 'styles'> {
  return {
    workbookId,
    name: snapshot.name,
    revision: snapshot.revision,
    sheetOrder,
    iterativeCalculation: options.iterativeCalculation ?? false,
    ...(options.iterationLimits ? { iterationLimits: { ...options.iterationLimits } } : {}),
    // A client calculating for itself reads external references from the same kept values the service does.
    ...(snapshot.externalLinks && snapshot.externalLinks.length > 0 ? { externalLinks: snapshot.externalLinks } : {}),
    // A client calculating for itself needs the names and tables the formulas use, as the service has them.
    ...(snapshot.definedNames.length > 0 ? { definedNames: snapshot.definedNames.map((name) => ({ ...name })) } : {}),
    ...(snapshot.tables && snapshot.tables.length > 0 ? { tables: snapshot.tables.map((table) => ({ ...table, columns: [...table.columns] })) } : {}),
    ...sheetChartsOf(snapshot),
    ...(snapshot.defaultFont ? { defaultFont: { ...snapshot.defaultFont } } : {}),
  }
}

/**
 * The `workbook` part of the inputs route's answer (GET /workbook/{id}/inputs): each sheet's inputs,
 * styles (as indexes into one table of the distinct styles) and formats row by row, without values.
 * `sheetOrder` names every sheet of the workbook, whichever sheets are given.
 */
export function toInputsJson(snapshot: WorkbookSnapshot, workbookId: string, sheetOrder: string[], options: InputsOptions = {}): InputsResponse['workbook'] {
  const styles = new StyleTable()
  const sheets = snapshot.sheets.map((sheet): SheetInputs => {
    const cells: CellInputTuple[] = []
    let rowCount = 0
    let columnCount = 0
    for (const record of sheet.cells) {
      const tuple = inputTupleOf(record, styles)
      if (tuple === null) continue
      cells.push(tuple)
      rowCount = Math.max(rowCount, record.row + 1)
      columnCount = Math.max(columnCount, record.col + 1)
    }
    return { ...sheetInputsHead(sheet), cells, rowCount, columnCount }
  })
  return { ...workbookInputsHead(snapshot, workbookId, sheetOrder, options), sheets, styles: styles.styles }
}

/**
 * The inputs answer in the order it is written: the workbook's head with every sheet's; then, sheet by
 * sheet, its cells in runs about `runCharacters` long and its extent; last the table of styles the cells
 * name by index, known once every cell is. A run is the tuples' JSON text, comma-separated (`cells`, for
 * the JSON answer), or a whole line of columns (`line`, an InputsRun, for the lines of JSON).
 */
type InputsPart = Exclude<InputsLine, InputsRun> | { sheet: number; cells: string } | { sheet: number; line: string }

function* inputsParts(snapshot: StreamedSnapshot, workbookId: string, sheetOrder: string[], options: InputsOptions, runCharacters: number, asLines: boolean): Generator<InputsPart> {
  const styles = new StyleTable()
  yield { workbook: { ...workbookInputsHead(snapshot, workbookId, sheetOrder, options), sheets: snapshot.sheets.map(sheetInputsHead) } }
  for (let index = 0; index < snapshot.sheets.length; index++) {
    let rowCount = 0
    let columnCount = 0
    let run = ''
    const columns = new ColumnRun()
    for (const record of snapshot.sheets[index].cells) {
      const tuple = inputTupleOf(record, styles)
      if (tuple === null) continue
      // An address is letters and digits: nothing in it needs escaping; most cells have no format.
      if (asLines) columns.add(record.row, record.col, tuple[1], tuple[2], tuple[3])
      else run += `${run === '' ? '' : ','}["${tuple[0]}",${JSON.stringify(tuple[1])},${tuple[2]},${tuple[3] === '' ? '""' : JSON.stringify(tuple[3])}]`
      if (record.row >= rowCount) rowCount = record.row + 1
      if (record.col >= columnCount) columnCount = record.col + 1
      if (run.length >= runCharacters) {
        yield { sheet: index, cells: run }
        run = ''
      } else if (columns.characters >= runCharacters) yield { sheet: index, line: columns.take(index) }
    }
    if (run !== '') yield { sheet: index, cells: run }
    if (columns.count > 0) yield { sheet: index, line: columns.take(index) }
    yield { sheetEnd: { sheet: index, rowCount, columnCount } }
  }
  yield { styles: styles.styles }
}

/** A run of cells as an InputsRun's JSON text, written column by column as the cells come. */
class ColumnRun {
  count = 0
  /** about how long the line is so far */
  characters = 0
  private rows = ''
  private cols = ''
  private inputs = ''
  /** written from the first cell with a style (or a format) on, the cells before it given none */
  private styles: string | null = null
  private formats: string | null = null

  add(row: number, col: number, input: string, style: number, format: string): void {
    const comma = this.count === 0 ? '' : ','
    const inputText = JSON.stringify(input)
    this.rows += comma + row
    this.cols += comma + col
    this.inputs += comma + inputText
    if (style >= 0 && this.styles === null) this.styles = new Array<string>(this.count).fill('-1').join(',')
    if (this.styles !== null) this.styles += comma + style
    if (format !== '' && this.formats === null) this.formats = new Array<string>(this.count).fill('""').join(',')
    if (this.formats !== null) this.formats += comma + JSON.stringify(format)
    this.characters += inputText.length + 16
    this.count++
  }

  /** The run's line (with its newline), the run emptied. */
  take(sheet: number): string {
    const extras = `${this.styles !== null ? `,"styleIndexes":[${this.styles}]` : ''}${this.formats !== null ? `,"formats":[${this.formats}]` : ''}`
    const line = `{"sheet":${sheet},"rows":[${this.rows}],"cols":[${this.cols}],"inputs":[${this.inputs}]${extras}}\n`
    this.count = 0
    this.characters = 0
    this.rows = this.cols = this.inputs = ''
    this.styles = this.formats = null
    return line
  }
}

/**
 * The inputs route's whole answer (`{"success":true,"workbook":…}`, as toInputsJson's) as JSON text in
 * pieces of about 64 KB, written cell by cell: a workbook of a million cells never becomes a million
 * tuples nor one string, and the answer starts before its last cell is read.
 */
export function* inputsAnswerChunks(snapshot: StreamedSnapshot, workbookId: string, sheetOrder: string[], options: InputsOptions = {}): Generator<string> {
  let chunk = ''
  let heads: InputsSheetHead[] = []
  let open = -1
  for (const part of inputsParts(snapshot, workbookId, sheetOrder, options, CHUNK_CHARACTERS, false)) {
    if ('workbook' in part) {
      const { sheets, ...head } = part.workbook
      heads = sheets
      chunk = `{"success":true,"workbook":${JSON.stringify(head).slice(0, -1)},"sheets":[`
      continue
    }
    if ('styles' in part) {
      yield `${chunk}],"styles":${JSON.stringify(part.styles)}}}`
      return
    }
    if ('line' in part) continue // lines are asked for only by inputsAnswerLines
    const sheet = 'sheetEnd' in part ? part.sheetEnd.sheet : part.sheet
    if (sheet !== open) chunk += `${sheet > 0 ? ',' : ''}${JSON.stringify(heads[sheet]).slice(0, -1)},"cells":[`
    const first = sheet !== open
    open = sheet
    if ('sheetEnd' in part) {
      chunk += `],"rowCount":${part.sheetEnd.rowCount},"columnCount":${part.sheetEnd.columnCount}}`
      continue
    }
    chunk += `${first ? '' : ','}${part.cells}`
    if (chunk.length >= CHUNK_CHARACTERS) {
      yield chunk
      chunk = ''
    }
  }
}

/**
 * The inputs answer as lines of JSON (application/x-ndjson), each an InputsLine, for a client that loads
 * the cells as they arrive rather than once the whole answer has.
 */
export function* inputsAnswerLines(snapshot: StreamedSnapshot, workbookId: string, sheetOrder: string[], options: InputsOptions = {}): Generator<string> {
  for (const part of inputsParts(snapshot, workbookId, sheetOrder, options, CHUNK_CHARACTERS, true)) {
    if ('line' in part) yield part.line
    else if (!('cells' in part)) yield `${JSON.stringify(part)}\n`
  }
}

/** The charts of the snapshot's sheets, by sheet name; nothing when there are none. */
function sheetChartsOf(snapshot: StreamedSnapshot): { charts?: SheetChart[] } {
  const names = new Map(snapshot.sheets.map((sheet) => [sheet.id, sheet.name]))
  const charts = snapshot.charts.flatMap((chart) => {
    const sheet = names.get(chart.sheetId)
    return sheet === undefined ? [] : [{ id: chart.id, sheet, ...chartSpecOf(chart) }]
  })
  return charts.length > 0 ? { charts } : {}
}
