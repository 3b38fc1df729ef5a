/**
 * A bulk import as it arrives: sheets declared up front, then cells in batches, each checked as an
 * edit would be. Each batch goes into the engine (uncalculated) and the maps of what the engine does
 * not keep as soon as it is read, so no one holds the whole workbook's inputs and the request's
 * objects are garbage at once. `finish` calculates the workbook once and, while the engine is hot, checks every formula the file cached a value
 * for: the import report's mismatches come from the same calculation the workbook is stored with.
 */
import { errorFromText, formatAddress, type CellInputValue, type CellUpdate, type Scalar } from '@finsheet/formula'
import {
  externalCacheTooLargeMessage,
  MAX_EXTERNAL_CACHED_CELLS,
  MAX_FORMULA_LENGTH,
  MAX_LISTED_MISMATCHES,
  type CellStyle,
  type ExternalLink,
  type ImportCachedValue,
  type ImportCell,
  type ImportCellOptions,
  type ImportCellRunLine,
  type ImportCellTuple,
  type ImportDefinedName,
  type ImportMismatch,
  type SheetViewState,
  type ConditionalFormatRule,
  type DataValidationRule,
  type ImportTable,
  type ImportRecalculation,
  type KeptDrawing,
} from '@finsheet/contracts'
import { checkRules, CommandError, copyRules, copyView } from '@finsheet/workbook/model'
import { validRules } from './valid-rules.js'
import { checkAddress, checkFormat, checkInput, checkSheetNames, compactStyle, formatRange, newSheetId, tryParseRange, valuesMatch, valueToJson, type CellSource, type DefinedNameRecord, type SheetRecord, type WorkbookAssembly } from '@finsheet/workbook'
import { spreadsheetErrors } from '../errors.js'
import { WorkbookState } from '../engine/workbook-state.js'

export interface ImportSheetHeader {
  name: string
  columnWidths?: Record<string, number>
  merges?: string[]
  view?: SheetViewState
  validations?: DataValidationRule[]
  conditionalFormats?: ConditionalFormatRule[]
  drawing?: KeptDrawing
}

export interface ImportHeader {
  sheets: ImportSheetHeader[]
  definedNames?: ImportDefinedName[]
  tables?: ImportTable[]
  styles?: CellStyle[]
  iterativeCalculation?: boolean
  externalLinks?: ExternalLink[]
}

/** Formula cells checked against the value the file cached, kept until the engine has calculated. */
interface CachedCheck {
  address: string
  cached: ImportCachedValue
}


/** A sheet's layout as it is stored: absent when it holds nothing. */
function layoutOf(view: SheetViewState | undefined): { view?: SheetViewState } {
  const copy = copyView(view)
  return copy ? { view: copy } : {}
}

/** A sheet's validation rules as they are stored: a rule the model cannot keep is left out, not the file. */
function validationsOf(rules: readonly DataValidationRule[] | undefined): { validations?: DataValidationRule[] } {
  const kept = validRules(rules)
  return kept ? { validations: kept } : {}
}

/** A sheet's conditional formats as they are stored, refused (400) when a rule cannot be evaluated; absent when none. */
function rulesOf(rules: ConditionalFormatRule[] | undefined): { conditionalFormats?: ConditionalFormatRule[] } {
  if (!rules || rules.length === 0) return {}
  try {
    checkRules(rules)
  } catch (error) {
    if (error instanceof CommandError) throw spreadsheetErrors.invalidImport(error.message)
    throw error
  }
  return { conditionalFormats: copyRules(rules) }
}

export class WorkbookImport {
  readonly sheets: SheetRecord[]
  private readonly definedNames: DefinedNameRecord[]
  private readonly styleTable: (CellStyle | undefined)[]
  private readonly assembly: WorkbookAssembly<WorkbookState>
  /** Inputs of the batch being read, handed to the engine when the batch ends. */
  private batch: CellUpdate[] = []
  private readonly styles = new Map<string, Map<string, CellStyle>>()
  private readonly formats = new Map<string, Map<string, string>>()
  private readonly legacy = new Map<string, Set<string>>()
  private readonly checks: CachedCheck[][]
  /** Number formats already found readable (a million cells share a handful). */
  private readonly goodFormats = new Set<string>()
  /** Cells received, including empty ones. */
  received = 0
  /** Each sheet's drawing kept from the file (charts and pictures), by the id the sheet was given. */
  readonly drawings: { sheetId: string; sheetIds: Record<string, string>; drawing: KeptDrawing }[]

  constructor(header: ImportHeader) {
    checkSheetNames(header.sheets.map((sheet) => sheet.name))
    this.sheets = header.sheets.map((sheet) => ({
      id: newSheetId(),
      name: sheet.name,
      columnWidths: { ...(sheet.columnWidths ?? {}) },
      merges: (sheet.merges ?? []).map((text) => {
        const range = tryParseRange(text)
        if (!range || !text.includes(':')) throw spreadsheetErrors.invalidRange(text)
        return formatRange(range)
      }),
      ...layoutOf(sheet.view),
      ...validationsOf(sheet.validations),
      ...rulesOf(sheet.conditionalFormats),
    }))
    // A workbook keeps at least one visible sheet: a file whose every sheet is hidden shows its first.
    if (this.sheets.every((sheet) => sheet.view?.hidden)) {
      const first = this.sheets[0]
      const { hidden: _hidden, veryHidden: _veryHidden, ...rest } = first.view ?? {}
      first.view = rest
    }
    this.definedNames = (header.definedNames ?? []).map((definition) => ({
      name: definition.name,
      formula: definition.formula.startsWith('=') ? definition.formula : `=${definition.formula}`,
      ...(definition.sheet ? { sheet: definition.sheet } : {}),
    }))
    this.drawings = header.sheets.flatMap((sheet, index) => {
      if (!sheet.drawing) return []
      // The sheets a chart reads, by the file's names, become ids: a rename later still finds them.
      const sheetIds: Record<string, string> = {}
      for (const chart of sheet.drawing.charts) {
        for (const name of chart.sheets) {
          const read = this.sheets.find((candidate) => candidate.name.toUpperCase() === name.toUpperCase())
          if (read) sheetIds[name] = read.id
        }
      }
      return [{ sheetId: this.sheets[index].id, sheetIds, drawing: sheet.drawing }]
    })
    this.styleTable = (header.styles ?? []).map((style) => compactStyle(style))
    this.checks = this.sheets.map(() => [])
    const externalLinks = checkExternalLinks(header.externalLinks ?? [])
    this.assembly = WorkbookState.assemble({
      revision: 0,
      sheets: this.sheets,
      definedNames: this.definedNames,
      ...(header.tables && header.tables.length > 0 ? { tables: header.tables.map((table) => ({ ...table, columns: [...table.columns] })) } : {}),
      iterativeCalculation: header.iterativeCalculation,
      ...(externalLinks.length > 0 ? { externalLinks } : {}),
      extras: () => this.extras(),
    })
  }

  /** Adds cells of the sheet at `sheetIndex`; throws (a 400) on the first bad one. */
  addCells(sheetIndex: number, cells: readonly ImportCell[]): void {
    for (const cell of cells) this.addCell(sheetIndex, cell.address, cell.input, cell)
    this.loadBatch()
  }

  /** Adds cells of the streamed form ([address, input, options?]). */
  addCellTuples(sheetIndex: number, cells: readonly ImportCellTuple[]): void {
    for (const cell of cells) this.addCell(sheetIndex, cell[0], cell[1], cell[2])
    this.loadBatch()
  }

  /**
   * Adds a line of cells in columns (ImportCellRunLine): the cells without options go into the engine by
   * position, with no address made for them; those with options as addCell takes them.
   */
  addCellRun(line: ImportCellRunLine, lineNumber: number): void {
    const { rows, cols, inputs } = line
    const optionsAt = line.optionsAt ?? []
    const options = line.options ?? []
    const count = rows.length
    if (cols.length !== count || inputs.length !== count) throw spreadsheetErrors.invalidImport(`Line ${lineNumber} lists ${count} rows, ${cols.length} columns and ${inputs.length} inputs`)
    if (optionsAt.length !== options.length) throw spreadsheetErrors.invalidImport(`Line ${lineNumber} lists options at ${optionsAt.length} cells but ${options.length} options`)
    for (let k = 0; k < optionsAt.length; k++) {
      if (k > 0 && optionsAt[k] <= optionsAt[k - 1]) throw spreadsheetErrors.invalidImport(`Line ${lineNumber} lists options at cells out of order`)
      if (optionsAt[k] >= count) throw spreadsheetErrors.invalidImport(`Line ${lineNumber} lists options at cell ${optionsAt[k]} of ${count}`)
    }
    const sheet = this.sheets[line.sheet]
    const plainRows: number[] = []
    const plainCols: number[] = []
    const plainInputs: CellInputValue[] = []
    let next = 0
    for (let i = 0; i < count; i++) {
      if (next < optionsAt.length && optionsAt[next] === i) {
        this.addCell(line.sheet, formatAddress(rows[i], cols[i]), inputs[i], options[next])
        next++
        continue
      }
      this.received++
      const input = inputs[i]
      if (input === null || input === '') continue
      // Only an input past a limit is checked (and refused) by checkInput, with the cell's address.
      if (typeof input === 'number' ? !Number.isFinite(input) : typeof input === 'string' && input.length > MAX_FORMULA_LENGTH) checkInput(formatAddress(rows[i], cols[i]), input)
      plainRows.push(rows[i])
      plainCols.push(cols[i])
      plainInputs.push(input)
    }
    const batch = this.batch
    this.batch = []
    this.assembly.addAt(sheet.name, plainRows, plainCols, plainInputs)
    this.assembly.add(batch)
  }

  /** A batch goes into the engine whole once every cell of it passed its checks, so a bad cell loads nothing of its batch. */
  private loadBatch(): void {
    const batch = this.batch
    this.batch = []
    this.assembly.add(batch)
  }

  private addCell(sheetIndex: number, sentAddress: string, sentInput: ImportCell['input'], options: ImportCellOptions | undefined): void {
    const sheet = this.sheets[sheetIndex]
    if (!sheet) throw spreadsheetErrors.invalidImport(`The import names sheet ${sheetIndex + 1} but declares ${this.sheets.length}`)
    this.received++
    const address = checkAddress(sentAddress)
    const input = checkInput(address, sentInput)
    if (!options) {
      if (input !== '') this.batch.push({ sheet: sheet.name, address, input })
      return
    }
    const format = options.format === undefined ? null : this.checkFormat(options.format)
    let style = options.style ? compactStyle(options.style) : undefined
    if (options.styleRef !== undefined) {
      if (options.styleRef >= this.styleTable.length) throw spreadsheetErrors.invalidImport(`Cell ${address} points at style ${options.styleRef}, past the table of ${this.styleTable.length}`)
      style ??= this.styleTable[options.styleRef]
    }
    if (input !== '') {
      const update: CellUpdate = { sheet: sheet.name, address, input }
      if (typeof input === 'string' && input.startsWith('=')) {
        if (options.arrayRange !== undefined) update.arrayRange = this.checkArrayRange(address, options.arrayRange)
        else if (options.legacy) {
          update.legacy = true
          this.metaSet(this.legacy, sheet.id).add(address)
        }
        if (options.cached !== undefined) {
          this.checks[sheetIndex].push({ address, cached: options.cached })
          // A circular reference starts from (and with iteration off keeps) the value the file saved, as in Excel.
          update.saved = cachedScalar(options.cached)
        }
      }
      this.batch.push(update)
    }
    if (style) this.metaMap(this.styles, sheet.id).set(address, style)
    if (format !== null) this.metaMap(this.formats, sheet.id).set(address, format)
  }

  /** What the engine does not keep, cell by cell, for the assembled workbook. */
  private *extras(): Generator<CellSource> {
    for (const [sheetId, map] of this.styles) for (const [address, style] of map) yield { sheetId, address, input: '', style }
    for (const [sheetId, map] of this.formats) for (const [address, userFormat] of map) yield { sheetId, address, input: '', userFormat }
    for (const [sheetId, set] of this.legacy) for (const address of set) yield { sheetId, address, input: '=', legacy: true }
  }

  /**
   * The workbook, calculated, and the check of every formula sent with a cached value; call once.
   */
  finish(): { state: WorkbookState; recalculation: ImportRecalculation } {
    const state = this.assembly.finish()
    let checked = 0
    let matched = 0
    let mismatchCount = 0
    const mismatches: ImportMismatch[] = []
    for (const [index, sheet] of this.sheets.entries()) {
      for (const { address, cached } of this.checks[index]) {
        checked++
        const ours = state.engine.getValue(sheet.name, address)
        const theirs = cachedScalar(cached)
        if (valuesMatch(ours, theirs)) {
          matched++
          continue
        }
        mismatchCount++
        if (mismatches.length < MAX_LISTED_MISMATCHES) {
          mismatches.push({ sheet: sheet.name, address, formula: state.engine.getInput(sheet.name, address), ours: valueToJson(ours), cached: valueToJson(theirs) })
        }
      }
      this.checks[index] = []
    }
    return { state, recalculation: { checked, matched, mismatchCount, mismatches } }
  }

  private checkFormat(format: string): string | null {
    if (this.goodFormats.has(format)) return format
    const checked = checkFormat(format)
    if (checked !== null) this.goodFormats.add(checked)
    return checked
  }

  private checkArrayRange(address: string, text: string): string {
    const range = tryParseRange(text)
    const anchor = tryParseRange(address)
    if (!range || !anchor || range.top !== anchor.top || range.left !== anchor.left) {
      throw spreadsheetErrors.invalidImport(`The array formula in ${address} must fill a range starting at ${address}, not ${JSON.stringify(text)}`)
    }
    return formatRange(range)
  }

  private metaMap<T>(maps: Map<string, Map<string, T>>, sheetId: string): Map<string, T> {
    let map = maps.get(sheetId)
    if (!map) maps.set(sheetId, (map = new Map()))
    return map
  }

  private metaSet(sets: Map<string, Set<string>>, sheetId: string): Set<string> {
    let set = sets.get(sheetId)
    if (!set) sets.set(sheetId, (set = new Set()))
    return set
  }
}

/** A cached value as the engine's value: `{ error }` becomes the error, text stays text. */
function cachedScalar(value: ImportCachedValue): Scalar {
  if (value !== null && typeof value === 'object') return errorFromText(value.error) ?? value.error
  return value
}

/**
 * The links as the workbook keeps them, refused (a 400) when they keep more values than a workbook
 * may: each link's size is bounded by the contract, their sum here.
 */
function checkExternalLinks(links: readonly ExternalLink[]): readonly ExternalLink[] {
  let cells = 0
  for (const link of links) for (const sheet of link.sheets) cells += Object.keys(sheet.cells).length
  if (cells > MAX_EXTERNAL_CACHED_CELLS) throw spreadsheetErrors.invalidImport(externalCacheTooLargeMessage(cells))
  return links
}
