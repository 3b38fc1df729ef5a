/**
 * A workbook and the one interpreter of its commands, shared by the browser and the spreadsheet
 * service: a calculation engine holding every sheet's inputs and values, plus what the engine does not
 * keep (sheet ids, styles, user number formats, merges, column widths, charts, defined names). A
 * command applied here returns the commands that undo it, the cells it wrote and the values the engine
 * recalculated; both sides apply the same commands with the same result.
 *
 * Sheets are referred to by name in the commands users and the API send. The spreadsheet service's
 * change log refers to them by id instead, so that undo follows a renamed sheet: a model built with
 * `refs: 'id'` writes ids in the same fields (`sheet`, `from`, `name`) of the commands it returns
 * (applied and inverse), and `add-sheet` carries the id of the sheet it adds. Each `apply` says how
 * the commands it is given name their sheets; they are resolved one by one as they apply, so a
 * command may name a sheet an earlier one added or renamed.
 */
import { Engine, EngineUsageError, SheetNotFoundError, errorFromText } from '@finsheet/formula'
import type { CellChange, CellInputValue, CellSnapshot, CellUpdate, CellValue as EngineValue, EngineOptions, ExternalLinkInfo } from '@finsheet/formula'
import type { CellEdit, CellStyle, StylePatch, WorkbookCommand } from '@finsheet/contracts'
import { MAX_CHARTS, MAX_FORMATTED_CELLS, MAX_MERGED_CELLS, MAX_SHEETS, SHEET_COLUMNS, SHEET_ROWS } from '@finsheet/contracts'
import { formatAddress, formatRange, MAX_COL, MAX_ROW, moveAddress, sheetNameFormatProblem, moveRangeText, parseAddress, rangesOverlap, tryParseRange, type RangeAddress, type StructuralEdit } from './a1.js'
import { cellTypeOf, compactStyle, toJsonValue, type CellRecord, type SheetRecord } from './cell-record.js'
import { sortedCells, type ChartRecord, type DefinedNameRecord, type TableRecord, type WorkbookSnapshot } from './snapshot.js'
import { checkAddress, checkFormat, checkInput, checkNameText, checkRange, checkStructure, CommandError, commandErrors } from './command-checks.js'
import { DEFAULT_CALCULATION, isDefaultCalculation, iterationLimitsProblem, iterationOf, type CalculationSettings } from './calculation.js'
import { externalLinkRecordsOf, externalWorkbooksOf, type ExternalLinkRecord } from './external-links.js'
import { copyPageSetup, samePageSetup } from './page-setup.js'
import { applySheetView, copyView, isSheetVisible, movedView, restoringSpans, viewCommandOf } from './sheet-view.js'
import { applyDataValidation, copyValidations, movedValidations, renamedValidations, sameValidations, WHOLE_SHEET } from './data-validation.js'
import { applyFilter, copyFilter, filteredSpans } from './sheet-filter.js'
import { chartRecordOf, chartSpecOf, movedChart, sameChart } from './sheet-charts.js'
import { movedBlockAnnotations, restoringAnnotations } from './cell-annotations.js'
import { checkRules, copyRules, movedRules, renamedRules, rulesMovedWithBlock, sameRules } from './conditional-formats.js'
import { HiddenRowsStatement } from './hidden-rows.js'

/** How commands name sheets: by name (users, the API) or by id (the service's change log). */
export type SheetRefs = 'name' | 'id'

type Command<T extends WorkbookCommand['type']> = Extract<WorkbookCommand, { type: T }>
type StructuralCommand = Command<'insert-rows' | 'delete-rows' | 'insert-columns' | 'delete-columns'>

/** `sheetId!A1`: a cell's key across the workbook. */
export const cellKey = (sheetId: string, address: string) => `${sheetId}!${address}`
export function splitKey(key: string): { sheetId: string; address: string } {
  const bang = key.indexOf('!')
  return { sheetId: key.slice(0, bang), address: key.slice(bang + 1) }
}

const COLUMNS = MAX_COL + 1
/** A cell's position as one number, the key of the per-sheet style, format and legacy maps. */
export const positionKey = (row: number, col: number): number => row * COLUMNS + col
const keyRow = (key: number) => Math.floor(key / COLUMNS)
const keyCol = (key: number) => key % COLUMNS
const keyAddress = (key: number) => formatAddress(keyRow(key), keyCol(key))
function addressKey(address: string): number {
  const { row, col } = parseAddress(address)
  return positionKey(row, col)
}

/** A fresh sheet id: unique within its workbook, the same kind of text on every side. */
export function newSheetId(): string {
  const bytes = new Uint8Array(6)
  globalThis.crypto.getRandomValues(bytes)
  let text = ''
  for (const byte of bytes) text += byte.toString(36).padStart(2, '0')
  return text
}

export interface InputChange {
  sheetId: string
  address: string
  oldInput: string
  newInput: string
}

export interface ApplyResult {
  /** The commands as applied, in the model's sheet references: batches unfolded, formats expanded to the cells they wrote, inputs as the engine keeps them. */
  applied: WorkbookCommand[]
  /** Applying these in order undoes the change. */
  inverse: WorkbookCommand[]
  /** Cells (by `cellKey`) whose content, style or format the change wrote. */
  touched: Set<string>
  /** Cells whose value the engine recalculated. */
  engineChanges: CellChange[]
  /** Whether cells moved or sheets changed, so that a reader compares cells in full. */
  structural: boolean
  inputChanges: InputChange[]
  /**
   * Rows and columns inserted or deleted, in order: for a store that keeps cells where they were, what
   * else it must write. Formulas not listed in `rewritten` moved with their cells, their text the old
   * text translated by the move; `inPlace` false means the engine rebuilt every formula.
   */
  moves?: StructureMove[]
}

/** One insertion or deletion of rows or columns (see ApplyResult.moves). */
export interface StructureMove {
  sheetId: string
  edit: StructuralEdit
  inPlace: boolean
  /** Formulas whose tree changed, where they are after the edit (on any sheet). */
  rewritten: { sheetId: string; row: number; col: number }[]
  /** The deleted cells, where they were, with what they held. */
  removed: { row: number; col: number; input: string; value: CellRecord['value'] }[]
}

/** A cell as a workbook is built from: its input and what the engine does not keep. */
export interface CellSource {
  sheetId: string
  address: string
  input: string
  style?: CellStyle
  userFormat?: string
  legacy?: boolean
  arrayRange?: string
  /**
   * For a formula: the value it was last calculated to (stored, or saved in a file), which a circular
   * reference starts from and keeps, as Excel shows a reopened workbook's values. `type` tells an error
   * value from text; without it, text that is an error code is taken for the error.
   */
  value?: CellRecord['value']
  type?: CellRecord['type']
}

/** What a workbook is built from: its sheets (in order), names, charts and cells. */
export interface WorkbookSource {
  revision: number
  sheets: readonly SheetRecord[]
  definedNames: readonly DefinedNameRecord[]
  /** Excel tables, over the sheets above. */
  tables?: readonly TableRecord[]
  charts: readonly ChartRecord[]
  /** How the workbook calculates; Excel's defaults when absent. */
  calculation?: CalculationSettings
  /** Other workbooks the formulas refer to, with the values kept of them. */
  externalLinks?: readonly ExternalLinkRecord[]
  /** Cells in any order. */
  cells: Iterable<CellSource>
}

export interface ModelOptions {
  refs?: SheetRefs
  engine?: EngineOptions
}

/** A workbook being assembled by `beginAssembly`. */
export interface WorkbookAssembly<M> {
  /** Loads cells (sheets by name) into the engine; they are calculated at `finish`. */
  add(updates: readonly CellUpdate[]): void
  /** Loads cells of one sheet named by 0-based row and column (see CellLoad.addAt). */
  addAt(sheet: string, rows: ArrayLike<number>, cols: ArrayLike<number>, inputs: readonly CellInputValue[]): void
  finish(): M
}

/** What a cell holds besides its input and value, when it holds any of it. */
export interface CellExtras {
  error?: boolean
  userFormat?: string
  suggestedFormat?: string
  style?: CellStyle
  legacy?: boolean
  arrayRange?: string
}

/** A cell as a bulk write takes it. */
export interface CellParts {
  row: number
  col: number
  input: string
  value: CellRecord['value']
  extras: CellExtras | undefined
}

export class WorkbookModel {
  engine: Engine
  revision: number
  sheets: SheetRecord[]
  charts: ChartRecord[]
  /** How the commands this model returns name sheets. */
  readonly refs: SheetRefs
  /** How the commands being applied name sheets. */
  private inputRefs: SheetRefs
  private readonly engineOptions: EngineOptions | undefined
  /** How the workbook calculates: iteration of circular references, mode, full calculation on load. */
  calculation: CalculationSettings
  protected styles = new Map<string, Map<number, CellStyle>>()
  protected formats = new Map<string, Map<number, string>>()
  /** Legacy (implicitly intersecting) formulas per sheet: the engine keeps the flag but does not show it. */
  protected legacy = new Map<string, Set<number>>()
  /** Table styles by upper-case table name: the engine keeps the tables but not how they look. */
  protected tableStyles = new Map<string, string>()
  /** What the engine was told of each sheet's hidden rows, which SUBTOTAL and AGGREGATE skip. */
  private readonly hiddenRows = new HiddenRowsStatement()

  constructor(
    parts: {
      revision?: number
      sheets?: readonly SheetRecord[]
      definedNames?: readonly DefinedNameRecord[]
      tables?: readonly TableRecord[]
      charts?: readonly ChartRecord[]
      calculation?: CalculationSettings
      externalLinks?: readonly ExternalLinkRecord[]
    } = {},
    options: ModelOptions = {},
  ) {
    this.refs = options.refs ?? 'name'
    this.inputRefs = this.refs
    this.engineOptions = options.engine
    // Iteration the caller asks the engine for (a service's per-workbook switch) wins over the workbook's own.
    const asked = options.engine?.iterative
    this.calculation = {
      ...DEFAULT_CALCULATION,
      ...parts.calculation,
      ...(asked?.enabled !== undefined ? { iterate: asked.enabled } : {}),
      ...(asked?.maxIterations !== undefined ? { maxIterations: asked.maxIterations } : {}),
      ...(asked?.maxChange !== undefined ? { maxChange: asked.maxChange } : {}),
    }
    this.engine = new Engine(this.currentEngineOptions())
    this.revision = parts.revision ?? 0
    this.sheets = (parts.sheets ?? []).map(copySheet)
    this.charts = (parts.charts ?? []).map((chart) => ({ ...chart }))
    for (const sheet of this.sheets) this.engine.addSheet(sheet.name)
    // Before any cell loads, so that SUBTOTALs calculate once.
    this.hiddenRows.state(this.engine, this.sheets)
    // Before any cell loads: external references calculate from these values.
    if (parts.externalLinks !== undefined && parts.externalLinks.length > 0) this.engine.setExternalLinks(externalWorkbooksOf(parts.externalLinks))
    this.defineAll(parts.definedNames ?? [])
    this.defineTables(parts.tables ?? [])
  }

  /** Builds a workbook with every input in one load (one recalculation). */
  static build<M extends WorkbookModel>(this: new (parts: ConstructorParameters<typeof WorkbookModel>[0], options?: ModelOptions) => M, source: WorkbookSource, options?: ModelOptions): M {
    const model = new this(source, options)
    const namesById = new Map(model.sheets.map((sheet) => [sheet.id, sheet.name]))
    const inputs: CellUpdate[] = []
    for (const cell of source.cells) {
      const sheetName = namesById.get(cell.sheetId)
      if (sheetName === undefined) continue
      if (cell.input !== '') {
        const update = engineUpdate(sheetName, cell.address, cell.input, cell.legacy, cell.arrayRange)
        const saved = cell.value === undefined || cell.value === null || !cell.input.startsWith('=') ? undefined : savedValue(cell.value, cell.type)
        if (saved !== undefined) update.saved = saved
        inputs.push(update)
      }
      model.keepExtras(cell)
    }
    model.engine.loadCells(inputs)
    return model
  }

  /** A workbook built from a snapshot (an import, a template, a restored version). */
  static fromSnapshot<M extends WorkbookModel>(this: new (parts: ConstructorParameters<typeof WorkbookModel>[0], options?: ModelOptions) => M, snapshot: WorkbookSnapshot, revision: number, options?: ModelOptions): M {
    function* cells(): Generator<CellSource> {
      for (const sheet of snapshot.sheets) for (const cell of sheet.cells) yield { ...cell, sheetId: sheet.id }
    }
    const source: WorkbookSource = { revision, sheets: snapshot.sheets, definedNames: snapshot.definedNames, charts: snapshot.charts, cells: cells() }
    if (snapshot.tables) source.tables = snapshot.tables
    if (snapshot.calculation) source.calculation = snapshot.calculation
    if (snapshot.externalLinks) source.externalLinks = snapshot.externalLinks
    return WorkbookModel.build.call(this, source, options) as M
  }

  /**
   * A workbook assembled from parts as they arrive (an import): sheets and names first, then batches
   * of the engine's inputs, each loaded as it comes so that no one holds them all, and one
   * calculation at `finish`. `extras` (by sheet id: what the engine does not keep) may still be filled
   * until then.
   */
  static beginAssembly<M extends WorkbookModel>(
    this: new (parts: ConstructorParameters<typeof WorkbookModel>[0], options?: ModelOptions) => M,
    parts: {
      revision: number
      sheets: SheetRecord[]
      definedNames: DefinedNameRecord[]
      tables?: TableRecord[]
      calculation?: CalculationSettings
      externalLinks?: readonly ExternalLinkRecord[]
      extras: Iterable<CellSource> | (() => Iterable<CellSource>)
    },
    options?: ModelOptions,
  ): WorkbookAssembly<M> {
    const model = new this(
      {
        revision: parts.revision,
        sheets: parts.sheets,
        definedNames: parts.definedNames,
        ...(parts.tables ? { tables: parts.tables } : {}),
        ...(parts.calculation ? { calculation: parts.calculation } : {}),
        ...(parts.externalLinks ? { externalLinks: parts.externalLinks } : {}),
      },
      options,
    )
    const load = model.engine.beginLoad()
    return {
      add: (updates) => load.add(updates),
      addAt: (sheet, rows, cols, inputs) => load.addAt(sheet, rows, cols, inputs),
      finish: () => {
        load.finish()
        const extras = typeof parts.extras === 'function' ? parts.extras() : parts.extras
        for (const cell of extras) model.keepExtras(cell)
        return model
      },
    }
  }

  /** Keeps what the engine does not: a cell's style, user format and legacy mark. */
  private keepExtras(cell: Pick<CellSource, 'sheetId' | 'address' | 'input' | 'style' | 'userFormat' | 'legacy'>): void {
    if (!cell.style && !cell.userFormat && !cell.legacy) return
    const key = addressKey(cell.address)
    if (cell.style) metaMap(this.styles, cell.sheetId).set(key, cell.style)
    if (cell.userFormat) metaMap(this.formats, cell.sheetId).set(key, cell.userFormat)
    if (cell.legacy && cell.input.startsWith('=')) this.legacySet(cell.sheetId).add(key)
  }

  /** The engine's options: the model's own, with iteration as the workbook's calculation settings say. */
  private currentEngineOptions(): EngineOptions {
    return { ...this.engineOptions, iterative: iterationOf(this.calculation) }
  }

  /**
   * Changes how the workbook calculates; turning iteration on or changing its limits recalculates every
   * formula, as Excel does when its options change. Returns the cells whose value changed.
   */
  setCalculation(settings: Partial<CalculationSettings>): CellChange[] {
    const next = { ...this.calculation, ...settings }
    const before = iterationOf(this.calculation)
    const after = iterationOf(next)
    // The engine checks the limits first: nothing changes when it refuses them.
    const changes =
      before.enabled === after.enabled && before.maxIterations === after.maxIterations && before.maxChange === after.maxChange
        ? []
        : this.engine.setIterativeSettings(after)
    this.calculation = next
    return changes
  }

  /** Other workbooks the formulas refer to (`[1]` is the first), with the values kept of them. */
  get externalLinks(): ExternalLinkRecord[] {
    return externalLinkRecordsOf(this.engine.getExternalWorkbooks())
  }

  /**
   * The linked workbooks as the app shows them: each file with its sheets and how many formula cells
   * refer to it.
   */
  listExternalLinks(): ExternalLinkInfo[] {
    return this.engine.getExternalLinks()
  }

  private legacySet(sheetId: string): Set<number> {
    let set = this.legacy.get(sheetId)
    if (!set) this.legacy.set(sheetId, (set = new Set()))
    return set
  }

  private defineAll(names: readonly DefinedNameRecord[]): void {
    for (const name of names) {
      try {
        this.engine.defineName(name.name, name.formula, name.sheet)
      } catch {
        // A name the engine cannot read (a bad formula, a sheet that is gone) is dropped, as the loader drops it.
      }
    }
  }

  /**
   * Puts tables into the engine before the cells arrive, so that formulas naming them compile against
   * them. A table the engine refuses (overlapping another, on a missing sheet) is dropped, as a name is.
   */
  private defineTables(tables: readonly TableRecord[]): void {
    for (const table of tables) {
      try {
        this.engine.defineTable({ name: table.name, sheet: table.sheet, range: table.range, headerRow: table.headerRow, totalsRow: table.totalsRow, columns: table.columns })
        if (table.style) this.tableStyles.set(table.name.toUpperCase(), table.style)
      } catch {
        // Left out like a name the engine cannot read.
      }
    }
  }

  /** The tables as the engine holds them: grown and shrunk by inserted and deleted rows, columns renamed. */
  get tables(): TableRecord[] {
    return this.engine.getTables().map((info): TableRecord => {
      const style = this.tableStyles.get(info.name.toUpperCase())
      return { ...info, ...(style ? { style } : {}) }
    })
  }

  /**
   * The defined names as the engine holds them, whose formulas follow renamed sheets and moved cells,
   * in one order (by name, workbook names before sheet names), whatever order they were defined in.
   */
  get definedNames(): DefinedNameRecord[] {
    return this.engine
      .getNames()
      .map((info): DefinedNameRecord => ({ name: info.name, formula: info.formula, ...(info.scope !== undefined ? { sheet: info.scope } : {}) }))
      .sort((a, b) => a.name.toUpperCase().localeCompare(b.name.toUpperCase()) || (a.sheet ?? '').localeCompare(b.sheet ?? ''))
  }

  /** The names as define-name commands would set them now (scopes as this model's references), to restore later. */
  private nameCommands(): Command<'define-name'>[] {
    return this.definedNames.map((name) => {
      const scope = name.sheet === undefined ? undefined : this.findSheet(name.sheet)
      return { type: 'define-name', name: name.name, formula: name.formula, ...(scope ? { sheet: this.refOf(scope) } : {}) }
    })
  }

  /** Inverse commands putting back the names a change rewrote or removed, as they were before it. */
  private restoredNames(before: readonly Command<'define-name'>[]): WorkbookCommand[] {
    const now = new Map(this.definedNames.map((name) => [`${name.name.toUpperCase()}|${name.sheet ?? ''}`, name.formula]))
    return before.filter((name) => {
      // A scope that no longer exists (a deleted sheet) matches no name now.
      const scope = name.sheet === undefined ? '' : ((this.refs === 'id' ? this.sheets.find((sheet) => sheet.id === name.sheet)?.name : this.findSheet(name.sheet)?.name) ?? '\u0000')
      return now.get(`${name.name.toUpperCase()}|${scope}`) !== name.formula
    })
  }

  // ---- lookups ------------------------------------------------------------------------------------

  /** A sheet by name: exact first, then ignoring case, as Excel matches sheet names. */
  findSheet(name: string): SheetRecord | undefined {
    for (const sheet of this.sheets) if (sheet.name === name) return sheet
    const upper = name.toUpperCase()
    return this.sheets.find((sheet) => sheet.name.toUpperCase() === upper)
  }

  sheetByName(name: string): SheetRecord {
    const sheet = this.findSheet(name)
    if (!sheet) throw commandErrors.sheetNotFound(name)
    return sheet
  }

  sheetById(id: string): SheetRecord {
    const sheet = this.sheets.find((candidate) => candidate.id === id)
    if (!sheet) throw commandErrors.sheetNotFound(id)
    return sheet
  }

  /** The sheet a command being applied names. */
  private sheetByRef(ref: string): SheetRecord {
    return this.inputRefs === 'id' ? this.sheetById(ref) : this.sheetByName(ref)
  }

  /** How this model's commands refer to a sheet. */
  refOf(sheet: SheetRecord): string {
    return this.refs === 'id' ? sheet.id : sheet.name
  }

  sheetName = (id: string): string => this.sheets.find((sheet) => sheet.id === id)?.name ?? id

  styleAt(sheetId: string, address: string): CellStyle | undefined {
    return this.styles.get(sheetId)?.get(addressKey(address))
  }

  /** The style at a position, without parsing an address (the grid asks for every cell it draws). */
  styleAtPosition(sheetId: string, row: number, col: number): CellStyle | undefined {
    return this.styles.get(sheetId)?.get(positionKey(row, col))
  }

  /** Visits every styled position of a sheet (row and column from 0) with its style. */
  forEachStyle(sheetId: string, visit: (row: number, col: number, style: CellStyle) => void): void {
    for (const [key, style] of this.styles.get(sheetId) ?? []) visit(keyRow(key), keyCol(key), style)
  }

  /** The number format the user chose at a position; undefined for General. */
  formatAtPosition(sheetId: string, row: number, col: number): string | undefined {
    return this.formats.get(sheetId)?.get(positionKey(row, col))
  }

  isLegacy(sheetId: string, address: string): boolean {
    return this.legacy.get(sheetId)?.has(addressKey(address)) ?? false
  }

  /** The bottom-right corner of what a sheet's styles and formats cover, or null (content is the engine's used range). */
  metaExtent(sheetId: string): { rows: number; columns: number } | null {
    let rows = 0
    let columns = 0
    for (const map of [this.styles.get(sheetId), this.formats.get(sheetId)]) {
      if (!map) continue
      for (const key of map.keys()) {
        rows = Math.max(rows, keyRow(key) + 1)
        columns = Math.max(columns, keyCol(key) + 1)
      }
    }
    return rows === 0 ? null : { rows, columns }
  }

  /** The record of one cell now, or undefined when it holds nothing (no content, style or format). */
  record(sheetId: string, address: string): CellRecord | undefined {
    const sheet = this.sheetById(sheetId)
    const key = addressKey(address)
    return this.recordOf(this.engine.getCell(sheet.name, address), this.styles.get(sheetId)?.get(key), this.formats.get(sheetId)?.get(key), this.legacy.get(sheetId)?.has(key) ?? false)
  }

  private recordOf(snapshot: CellSnapshot, style: CellStyle | undefined, userFormat: string | undefined, legacy: boolean): CellRecord | undefined {
    if (snapshot.input === '' && snapshot.value === null && style === undefined && userFormat === undefined) return undefined
    const record: CellRecord = {
      address: snapshot.address,
      row: snapshot.row,
      col: snapshot.col,
      input: snapshot.input,
      value: toJsonValue(snapshot.value),
      type: cellTypeOf(snapshot.value),
    }
    if (userFormat !== undefined) record.userFormat = userFormat
    if (snapshot.format !== undefined) record.suggestedFormat = snapshot.format
    if (style !== undefined) record.style = style
    if (snapshot.formula !== undefined) {
      if (snapshot.arrayRange !== undefined) record.arrayRange = snapshot.arrayRange
      else if (legacy) record.legacy = true
    }
    return record
  }

  /** Every record of a sheet, row-major. */
  sheetRecords(sheetId: string): CellRecord[] {
    const records: CellRecord[] = []
    this.forEachRecord(sheetId, (record) => records.push(record))
    return sortedCells(records)
  }

  /** Calls `visit` with every record of a sheet, in no particular order, without building a list. */
  forEachRecord(sheetId: string, visit: (record: CellRecord) => void): void {
    const sheet = this.sheetById(sheetId)
    const styles = this.styles.get(sheetId)
    const formats = this.formats.get(sheetId)
    const legacy = this.legacy.get(sheetId)
    const hasMeta = (styles?.size ?? 0) + (formats?.size ?? 0) > 0
    const withContent = hasMeta ? new Set<number>() : undefined
    this.engine.forEachCell(sheet.name, (snapshot) => {
      const key = positionKey(snapshot.row, snapshot.col)
      const record = this.recordOf(snapshot, styles?.get(key), formats?.get(key), legacy?.has(key) ?? false)
      if (!record) return
      visit(record)
      withContent?.add(key)
    })
    if (withContent) {
      // Cells that hold only a style or a number format.
      for (const key of new Set([...(styles?.keys() ?? []), ...(formats?.keys() ?? [])])) {
        if (withContent.has(key)) continue
        const record = this.record(sheetId, keyAddress(key))
        if (record) visit(record)
      }
    }
  }

  /**
   * The records of a sheet within rows top…bottom and columns left…right: only the positions of the
   * range the sheet uses are looked at (and its styled cells), so a row of a large sheet costs a row.
   */
  forEachRecordIn(sheetId: string, range: RangeAddress, visit: (record: CellRecord) => void): void {
    const sheet = this.sheetById(sheetId)
    const used = this.engine.getUsedRange(sheet.name)
    const inRange = (row: number, col: number) => row >= range.top && row <= range.bottom && col >= range.left && col <= range.right
    const inUsed = (row: number, col: number) => used !== undefined && row >= used.top && row <= used.bottom && col >= used.left && col <= used.right
    if (used) {
      for (let row = Math.max(range.top, used.top); row <= Math.min(range.bottom, used.bottom); row++) {
        for (let col = Math.max(range.left, used.left); col <= Math.min(range.right, used.right); col++) {
          const record = this.record(sheetId, formatAddress(row, col))
          if (record) visit(record)
        }
      }
    }
    // Cells that hold only a style or a number format, outside the used range.
    const styles = this.styles.get(sheetId)
    const formats = this.formats.get(sheetId)
    if ((styles?.size ?? 0) + (formats?.size ?? 0) === 0) return
    for (const key of new Set([...(styles?.keys() ?? []), ...(formats?.keys() ?? [])])) {
      const row = keyRow(key)
      const col = keyCol(key)
      if (!inRange(row, col) || inUsed(row, col)) continue
      const record = this.record(sheetId, keyAddress(key))
      if (record) visit(record)
    }
  }

  /**
   * A sheet's records row-major, made as they are asked for: a dense sheet is walked row by row over
   * its used range, so a large sheet never becomes one list; a sparse one is collected and sorted.
   */
  *rowMajorRecords(sheetId: string): Generator<CellRecord> {
    const walk = this.rowMajorWalk(sheetId)
    if (walk === 'sparse') {
      yield* this.sheetRecords(sheetId)
      return
    }
    for (const address of walk) {
      const record = this.record(sheetId, address)
      if (record) yield record
    }
  }

  /**
   * Every non-empty cell of a sheet in the parts a bulk write needs, row-major, so that a writer can
   * let go of each band of rows once it has passed it. `extras` is undefined for a plain cell.
   */
  *cellPartsRowMajor(sheetId: string): Generator<CellParts> {
    const bounds = this.denseBounds(sheetId)
    if (bounds === undefined) return
    if (bounds === 'sparse') {
      for (const record of this.sheetRecords(sheetId)) yield { row: record.row, col: record.col, input: record.input, value: record.value, extras: extrasOf(record) }
      return
    }
    const name = this.sheetById(sheetId).name
    const styles = this.styles.get(sheetId)
    const formats = this.formats.get(sheetId)
    const legacy = this.legacy.get(sheetId)
    // Each position is read once, by number: a million cells build no address they do not store and
    // no formula's text twice.
    for (let row = bounds.top; row <= bounds.bottom; row++) {
      for (let col = bounds.left; col <= bounds.right; col++) {
        const stored = this.engine.getStoredCellAt(name, row, col)
        const key = positionKey(row, col)
        const style = styles?.get(key)
        const userFormat = formats?.get(key)
        if (stored === undefined && style === undefined && userFormat === undefined) continue
        const value = stored?.value ?? null
        let extras: CellExtras | undefined
        if (value !== null && typeof value === 'object') extras = { error: true }
        if (style !== undefined) (extras ??= {}).style = style
        if (userFormat !== undefined) (extras ??= {}).userFormat = userFormat
        if (stored?.format !== undefined) (extras ??= {}).suggestedFormat = stored.format
        if (stored?.formula) {
          if (stored.arrayRange !== undefined) (extras ??= {}).arrayRange = stored.arrayRange
          else if (legacy?.has(key)) (extras ??= {}).legacy = true
        }
        yield { row, col, input: stored?.input ?? '', value: toJsonValue(value), extras }
      }
    }
  }

  /** How many cells a sheet holds content in, for deciding how to walk it. */
  protected contentCount(sheetId: string): number {
    let count = 0
    this.engine.forEachCell(this.sheetById(sheetId).name, () => count++)
    return count
  }

  /**
   * The addresses of a dense sheet's possibly non-empty cells, row by row over the range its cells,
   * styles and formats span; 'sparse' when that range is mostly empty (walking it would cost more
   * than sorting the cells).
   */
  private rowMajorWalk(sheetId: string): Iterable<string> | 'sparse' {
    const bounds = this.denseBounds(sheetId)
    if (bounds === 'sparse' || bounds === undefined) return bounds ?? []
    const name = this.sheetById(sheetId).name
    const styles = this.styles.get(sheetId)
    const formats = this.formats.get(sheetId)
    const engine = this.engine
    const withMeta = (styles?.size ?? 0) + (formats?.size ?? 0) > 0
    return {
      *[Symbol.iterator]() {
        for (let row = bounds.top; row <= bounds.bottom; row++) {
          for (let col = bounds.left; col <= bounds.right; col++) {
            if (engine.getValueAt(name, row, col) === null && engine.getInputAt(name, row, col) === '') {
              if (!withMeta) continue
              const key = positionKey(row, col)
              if (styles?.has(key) || formats?.has(key)) yield formatAddress(row, col)
              continue
            }
            yield formatAddress(row, col)
          }
        }
      },
    }
  }

  /**
   * The range a dense sheet's cells, styles and formats span, undefined when it holds none, or
   * 'sparse' when that range is mostly empty (walking it would cost more than sorting the cells).
   */
  private denseBounds(sheetId: string): RangeAddress | 'sparse' | undefined {
    const sheet = this.sheetById(sheetId)
    const styles = this.styles.get(sheetId)
    const formats = this.formats.get(sheetId)
    const used = this.engine.getUsedRange(sheet.name)
    const bounds = used ? { ...used } : { top: Infinity, left: Infinity, bottom: -1, right: -1 }
    for (const map of [styles, formats]) {
      if (!map) continue
      for (const key of map.keys()) {
        const row = keyRow(key)
        const col = keyCol(key)
        bounds.top = Math.min(bounds.top, row)
        bounds.bottom = Math.max(bounds.bottom, row)
        bounds.left = Math.min(bounds.left, col)
        bounds.right = Math.max(bounds.right, col)
      }
    }
    if (bounds.bottom < 0) return undefined
    const area = (bounds.bottom - bounds.top + 1) * (bounds.right - bounds.left + 1)
    const held = this.contentCount(sheetId) + (styles?.size ?? 0) + (formats?.size ?? 0)
    return area > 4 * held + 4096 ? 'sparse' : bounds
  }

  /** Every record of the workbook by cell key. */
  allRecords(): Map<string, CellRecord> {
    const all = new Map<string, CellRecord>()
    // Unsorted: a map by key needs no order, and sorting every cell of a large workbook costs more than reading it.
    for (const sheet of this.sheets) this.forEachRecord(sheet.id, (record) => all.set(cellKey(sheet.id, record.address), record))
    return all
  }

  snapshot(name: string): WorkbookSnapshot {
    const links = this.externalLinks
    return {
      format: 'finsheet-workbook',
      formatVersion: 1,
      name,
      revision: this.revision,
      sheets: this.sheets.map((sheet) => ({ ...copySheet(sheet), cells: this.sheetRecords(sheet.id) })),
      definedNames: this.definedNames.map((definition) => ({ ...definition })),
      ...(this.engine.getTables().length > 0 ? { tables: this.tables } : {}),
      charts: this.charts.map((chart) => ({ ...chart })),
      ...(isDefaultCalculation(this.calculation) ? {} : { calculation: { ...this.calculation } }),
      ...(links.length > 0 ? { externalLinks: links } : {}),
    }
  }

  /** Puts another workbook's contents in place of this one's (a version restored). */
  replaceContents(snapshot: WorkbookSnapshot): void {
    const next = WorkbookModel.fromSnapshot(snapshot, this.revision, { refs: this.refs, engine: this.engineOptions })
    this.engine = next.engine
    this.calculation = next.calculation
    this.sheets = next.sheets
    this.charts = next.charts
    this.styles = next.styles
    this.formats = next.formats
    this.legacy = next.legacy
    this.tableStyles = next.tableStyles
    this.hiddenRows.state(this.engine, this.sheets)
  }

  // ---- applying commands ----------------------------------------------------------------------------

  /**
   * Applies commands in order as one change. A command the rules refuse throws a CommandError, and
   * whatever the change had applied before it is undone again, so the workbook is as it was.
   */
  apply(commands: readonly WorkbookCommand[], options: { refs?: SheetRefs } = {}): ApplyResult {
    const result: ApplyResult = { applied: [], inverse: [], touched: new Set(), engineChanges: [], structural: false, inputChanges: [] }
    const inverses: WorkbookCommand[][] = []
    this.inputRefs = options.refs ?? this.refs
    try {
      for (const command of commands) inverses.push(this.applyOne(command, result))
    } catch (error) {
      this.rollBack(inverses)
      throw error
    } finally {
      this.inputRefs = this.refs
    }
    result.inverse = inverses.reverse().flat()
    return result
  }

  /** Applies inverses (in this model's own references) to undo what a refused change had applied. */
  private rollBack(inverses: WorkbookCommand[][]): void {
    const scratch: ApplyResult = { applied: [], inverse: [], touched: new Set(), engineChanges: [], structural: false, inputChanges: [] }
    this.inputRefs = this.refs
    for (const inverse of [...inverses].reverse()) for (const command of inverse) this.applyOne(command, scratch)
  }

  private applyOne(command: WorkbookCommand, result: ApplyResult): WorkbookCommand[] {
    const inverse = this.applyCommand(command, result)
    // Rows hidden, shown, filtered, or moved by rows inserted and deleted: SUBTOTAL and AGGREGATE follow.
    if (command.type !== 'batch') appendAll(result.engineChanges, this.hiddenRows.state(this.engine, this.sheets))
    return inverse
  }

  private applyCommand(command: WorkbookCommand, result: ApplyResult): WorkbookCommand[] {
    try {
      switch (command.type) {
        case 'set-cells':
          return this.setCells(this.sheetByRef(command.sheet), command.cells, result)
        case 'format-cells':
          return this.formatCells(command, result)
        case 'resize-column':
          return this.resizeColumn(command, result)
        case 'set-sheet-view':
          return this.setSheetView(command, result)
        case 'set-data-validation':
          return this.setDataValidation(command, result)
        case 'set-filter':
          return this.setFilter(command, result)
        case 'set-conditional-formats':
          return this.setConditionalFormats(command, result)
        case 'insert-rows':
        case 'delete-rows':
        case 'insert-columns':
        case 'delete-columns':
          result.structural = true
          return this.restructure(command, result)
        case 'add-sheet':
          return this.addSheet(command, result)
        case 'rename-sheet':
          result.structural = true
          return this.renameSheet(command, result)
        case 'delete-sheet':
          result.structural = true
          return this.deleteSheet(command, result)
        case 'move-sheet':
          result.structural = true
          return this.moveSheet(command, result)
        case 'merge-cells':
          return this.mergeCells(command, result)
        case 'unmerge-cells':
          return this.unmergeCells(command, result)
        case 'move-cells':
          // Formulas anywhere may be rewritten: readers compare cells in full.
          result.structural = true
          return this.moveCells(command, result)
        case 'define-name':
          return this.defineName(command, result)
        case 'set-chart':
          return this.setChart(command, result)
        case 'set-calculation':
          // Every formula may recalculate, and a client that did not apply it must load the workbook again.
          result.structural = true
          return this.changeCalculation(command, result)
        case 'batch': {
          const inverses: WorkbookCommand[][] = []
          const refs = this.inputRefs
          try {
            for (const step of command.commands) inverses.push(this.applyOne(step, result))
          } catch (error) {
            this.rollBack(inverses)
            this.inputRefs = refs
            throw error
          }
          return inverses.reverse().flat()
        }
      }
    } catch (error) {
      if (error instanceof EngineUsageError) throw commandErrors.invalidStructure(error.message)
      if (error instanceof SheetNotFoundError) throw commandErrors.sheetNotFound(error.sheet)
      throw error
    }
    throw commandErrors.invalidCommand(`Unknown command ${JSON.stringify((command as { type?: unknown }).type)}`)
  }

  private setCells(sheet: SheetRecord, edits: readonly CellEdit[], result: ApplyResult): WorkbookCommand[] {
    // Every edit is checked before any is applied.
    const writes = edits.map((edit) => checkedEdit(edit))
    const sheetId = sheet.id
    const styles = metaMap(this.styles, sheetId)
    const formats = metaMap(this.formats, sheetId)
    const legacy = this.legacySet(sheetId)
    // The inverse restores each field an edit touched to what it was before the first edit.
    const before = new Map<string, CellEdit>()
    for (const write of writes) {
      let old = before.get(write.address)
      if (!old) before.set(write.address, (old = { address: write.address }))
      const key = addressKey(write.address)
      if (write.input !== undefined && old.input === undefined) {
        const cell = this.engine.getCell(sheet.name, write.address)
        old.input = cell.input
        if (cell.arrayRange !== undefined) old.arrayRange = cell.arrayRange
        else if (legacy.has(key)) old.legacy = true
      }
      if (write.style !== undefined && old.style === undefined) old.style = styles.get(key) ?? null
      if (write.format !== undefined && old.format === undefined) old.format = formats.get(key) ?? null
    }
    const updates: CellUpdate[] = []
    for (const write of writes) {
      const key = addressKey(write.address)
      if (write.input !== undefined) {
        const input = write.input as string | number | boolean
        const formula = typeof input === 'string' && input.startsWith('=')
        const update = engineUpdate(sheet.name, write.address, input, formula && write.legacy, formula ? write.arrayRange : undefined)
        updates.push(update)
        if (update.legacy) legacy.add(key)
        else legacy.delete(key)
      }
      if (write.style !== undefined) {
        const style = compactStyle(write.style)
        if (style) styles.set(key, style)
        else styles.delete(key)
      }
      if (write.format !== undefined) {
        if (write.format === null || write.format === '') formats.delete(key)
        else formats.set(key, write.format)
      }
      result.touched.add(cellKey(sheetId, write.address))
    }
    if (updates.length > 0) appendAll(result.engineChanges, this.engine.setCells(updates))
    const applied: CellEdit[] = writes.map((write) => {
      if (write.input === undefined) return { ...write }
      const { legacy: _legacy, arrayRange: _arrayRange, ...rest } = write
      const cell = this.engine.getCell(sheet.name, write.address)
      const written: CellEdit = { ...rest, input: cell.input }
      if (cell.formula !== undefined && cell.arrayRange !== undefined) written.arrayRange = cell.arrayRange
      else if (cell.formula !== undefined && legacy.has(addressKey(write.address))) written.legacy = true
      return written
    })
    for (const old of before.values()) {
      if (old.input === undefined) continue
      const newInput = this.engine.getInput(sheet.name, old.address)
      if (newInput !== old.input) result.inputChanges.push({ sheetId, address: old.address, oldInput: String(old.input), newInput })
    }
    result.applied.push({ type: 'set-cells', sheet: this.refOf(sheet), cells: applied })
    return [{ type: 'set-cells', sheet: this.refOf(sheet), cells: [...before.values()] }]
  }

  /** A style patch merged into each cell of the ranges, or their number format set: written cell by cell. */
  private formatCells(command: Command<'format-cells'>, result: ApplyResult): WorkbookCommand[] {
    const sheet = this.sheetByRef(command.sheet)
    const ranges = command.ranges.map((text) => checkRange(text).range)
    let size = 0
    for (const range of ranges) size += (range.bottom - range.top + 1) * (range.right - range.left + 1)
    if (size > MAX_FORMATTED_CELLS) throw commandErrors.tooManyFormattedCells()
    const format = command.format === undefined ? undefined : checkFormat(command.format)
    const styles = this.styles.get(sheet.id)
    const cells = new Map<string, CellEdit>()
    for (const range of ranges) {
      for (let row = range.top; row <= range.bottom; row++) {
        for (let col = range.left; col <= range.right; col++) {
          const address = formatAddress(row, col)
          const edit: CellEdit = cells.get(address) ?? { address }
          if (command.style) edit.style = mergeStyle(edit.style !== undefined ? edit.style : styles?.get(positionKey(row, col)), command.style)
          if (format !== undefined) edit.format = format
          cells.set(address, edit)
        }
      }
    }
    return this.setCells(sheet, [...cells.values()], result)
  }

  /** Frozen panes, the sheet hidden, rows and columns hidden, resized or grouped: the inverse writes back what was there. */
  private setSheetView(command: Command<'set-sheet-view'>, result: ApplyResult): WorkbookCommand[] {
    const sheet = this.sheetByRef(command.sheet)
    const otherVisible = this.sheets.filter((other) => other !== sheet && isSheetVisible(other.view)).length
    const { view, undo } = applySheetView(sheet.view, command, otherVisible)
    // Replaced, not changed in place, so that views can tell the layout changed.
    if (view) sheet.view = view
    else delete sheet.view
    result.applied.push({ ...command, sheet: this.refOf(sheet) })
    return [{ type: 'set-sheet-view', sheet: this.refOf(sheet), ...undo }]
  }

  /** Validation rules set or cleared on ranges: the inverse clears the same cells and puts back what the old rules had there. */
  private setDataValidation(command: Command<'set-data-validation'>, result: ApplyResult): WorkbookCommand[] {
    const sheet = this.sheetByRef(command.sheet)
    const { rules, undo } = applyDataValidation(sheet.validations, command)
    if (rules) sheet.validations = rules
    else delete sheet.validations
    result.applied.push({ ...command, sheet: this.refOf(sheet) })
    return [{ type: 'set-data-validation', sheet: this.refOf(sheet), ...undo }]
  }

  /** A sheet's filter created, changed or removed, with the rows it hides; the inverse puts back the old filter and exactly the rows it hid. */
  private setFilter(command: Command<'set-filter'>, result: ApplyResult): WorkbookCommand[] {
    const sheet = this.sheetByRef(command.sheet)
    const { view, undo } = applyFilter(this, sheet.id, sheet.view, command)
    // Replaced, not changed in place, so that views can tell the layout changed.
    if (view) sheet.view = view
    else delete sheet.view
    const applied: Command<'set-filter'> = { type: 'set-filter', sheet: this.refOf(sheet), filter: view?.filter ? copyFilter(view.filter) : null }
    if (view?.filter) applied.filteredRows = filteredSpans(view)
    result.applied.push(applied)
    return [{ type: 'set-filter', sheet: this.refOf(sheet), ...undo }]
  }

  /** Adds, replaces or removes a chart of a sheet: the inverse writes back the chart that was there, or removes the new one. */
  private setChart(command: Command<'set-chart'>, result: ApplyResult): WorkbookCommand[] {
    const sheet = this.sheetByRef(command.sheet)
    const ref = this.refOf(sheet)
    const index = this.charts.findIndex((chart) => chart.id === command.id)
    const old = index >= 0 ? this.charts[index] : undefined
    if (old && old.sheetId !== sheet.id) throw commandErrors.invalidCommand(`Chart ${command.id} is on sheet ${this.sheetName(old.sheetId)}`)
    if (command.chart === null) {
      result.applied.push({ ...command, sheet: ref })
      if (!old) return []
      this.charts = this.charts.filter((chart) => chart !== old)
      return [{ type: 'set-chart', sheet: ref, id: command.id, chart: chartSpecOf(old) }]
    }
    const record = chartRecordOf(command.id, sheet.id, command.chart)
    if (!old && this.charts.length >= MAX_CHARTS) throw commandErrors.invalidCommand(`A workbook can hold at most ${MAX_CHARTS} charts`)
    // Replaced, not changed in place, so that views can tell the charts changed.
    this.charts = old ? this.charts.map((chart) => (chart === old ? record : chart)) : [...this.charts, record]
    result.applied.push({ type: 'set-chart', sheet: ref, id: command.id, chart: chartSpecOf(record) })
    return [{ type: 'set-chart', sheet: ref, id: command.id, chart: old ? chartSpecOf(old) : null }]
  }

  /** Replaces a sheet's conditional-format rules: the inverse puts back the list that was there. */
  private setConditionalFormats(command: Command<'set-conditional-formats'>, result: ApplyResult): WorkbookCommand[] {
    const sheet = this.sheetByRef(command.sheet)
    checkRules(command.rules)
    const before = sheet.conditionalFormats ?? []
    const rules = copyRules(command.rules)
    // Replaced, not changed in place, so that views can tell the rules changed.
    if (rules) sheet.conditionalFormats = rules
    else delete sheet.conditionalFormats
    result.applied.push({ ...command, sheet: this.refOf(sheet) })
    return [{ type: 'set-conditional-formats', sheet: this.refOf(sheet), rules: copyRules(before) ?? [] }]
  }

  private resizeColumn(command: Command<'resize-column'>, result: ApplyResult): WorkbookCommand[] {
    const sheet = this.sheetByRef(command.sheet)
    if (!Number.isInteger(command.column) || command.column < 0 || command.column > MAX_COL) throw commandErrors.invalidCommand(`There is no column ${command.column + 1}`)
    if (command.width !== null && !(command.width >= 0 && command.width <= 2000)) throw commandErrors.invalidCommand('A column width runs from 0 to 2,000 pixels')
    const key = String(command.column)
    const old = sheet.columnWidths[key] ?? null
    const widths = { ...sheet.columnWidths }
    if (command.width === null) delete widths[key]
    else widths[key] = command.width
    // Replaced, not changed in place, so that views can tell the widths changed.
    sheet.columnWidths = widths
    result.applied.push({ ...command, sheet: this.refOf(sheet) })
    return [{ type: 'resize-column', sheet: this.refOf(sheet), column: command.column, width: old }]
  }

  /** Formula inputs of every sheet by cell key, to find the formulas a deletion rewrote. */
  private formulaInputs(): Map<string, string> {
    const inputs = new Map<string, string>()
    for (const sheet of this.sheets) {
      this.engine.forEachCell(sheet.name, (cell) => {
        if (cell.formula !== undefined) inputs.set(cellKey(sheet.id, cell.address), cell.input)
      })
    }
    return inputs
  }

  /**
   * After a deletion, the edits that put back every formula the deletion rewrote (to #REF!, or a
   * narrowed range), at the place it will have once the deleted cells are back.
   */
  private rewrittenFormulas(before: Map<string, string>, originalPosition: (sheetId: string, row: number, col: number) => { row: number; col: number }): WorkbookCommand[] {
    const edits = new Map<SheetRecord, CellEdit[]>()
    for (const sheet of this.sheets) {
      this.engine.forEachCell(sheet.name, (cell) => {
        if (cell.formula === undefined) return
        const origin = originalPosition(sheet.id, cell.row, cell.col)
        const address = formatAddress(origin.row, origin.col)
        const previous = before.get(cellKey(sheet.id, address))
        if (previous !== undefined && previous !== cell.input) {
          let list = edits.get(sheet)
          if (!list) edits.set(sheet, (list = []))
          const edit: CellEdit = { address, input: previous }
          if (cell.arrayRange !== undefined) edit.arrayRange = cell.arrayRange
          else if (this.isLegacy(sheet.id, cell.address)) edit.legacy = true
          list.push(edit)
        }
      })
    }
    return [...edits].map(([sheet, cells]) => ({ type: 'set-cells' as const, sheet: this.refOf(sheet), cells }))
  }

  /**
   * After a deletion, the edits that put back the formulas it rewrote (to #REF!, or a narrowed range),
   * as the engine reported them, at the place each will have once the deleted cells are back.
   */
  private formulasAsBefore(
    rewritten: readonly { sheetId: string; row: number; col: number; before: string }[],
    originalPosition: (sheetId: string, row: number, col: number) => { row: number; col: number },
  ): WorkbookCommand[] {
    const edits = new Map<SheetRecord, CellEdit[]>()
    for (const formula of rewritten) {
      const sheet = this.sheetById(formula.sheetId)
      const current = this.engine.getCell(sheet.name, formatAddress(formula.row, formula.col))
      if (current.formula === undefined || current.input === formula.before) continue
      const origin = originalPosition(sheet.id, formula.row, formula.col)
      let list = edits.get(sheet)
      if (!list) edits.set(sheet, (list = []))
      const edit: CellEdit = { address: formatAddress(origin.row, origin.col), input: formula.before }
      if (current.arrayRange !== undefined) edit.arrayRange = current.arrayRange
      else if (this.isLegacy(sheet.id, formatAddress(formula.row, formula.col))) edit.legacy = true
      list.push(edit)
    }
    return [...edits].map(([sheet, cells]) => ({ type: 'set-cells' as const, sheet: this.refOf(sheet), cells }))
  }

  /**
   * Refuses an insertion that would shift non-empty cells (content, a style, a number format or a
   * merged range) past the last row or column of the sheet, where they would be lost; Excel refuses
   * it "to prevent possible loss of data".
   */
  private checkNothingPushedOff(sheet: SheetRecord, edit: StructuralEdit): void {
    const size = edit.axis === 'rows' ? SHEET_ROWS : SHEET_COLUMNS
    // Cells before `edit.at` do not move, and none can fall off unless one sits in the last `count` rows or columns.
    const firstLost = size - edit.count
    const falls = (index: number) => index >= edit.at && index >= firstLost
    for (const text of sheet.merges) {
      const merge = tryParseRange(text)
      if (merge && falls(edit.axis === 'rows' ? merge.bottom : merge.right)) throw commandErrors.cellsOffSheet(edit.axis, edit.count)
    }
    let lost = false
    const from = Math.max(edit.at, firstLost)
    const band = edit.axis === 'rows' ? { top: from, bottom: MAX_ROW, left: 0, right: MAX_COL } : { top: 0, bottom: MAX_ROW, left: from, right: MAX_COL }
    this.forEachRecordIn(sheet.id, band, () => {
      lost = true
    })
    if (lost) throw commandErrors.cellsOffSheet(edit.axis, edit.count)
  }

  private restructure(command: StructuralCommand, result: ApplyResult): WorkbookCommand[] {
    const sheet = this.sheetByRef(command.sheet)
    const edit: StructuralEdit = {
      axis: command.type.endsWith('rows') ? 'rows' : 'columns',
      kind: command.type.startsWith('insert') ? 'insert' : 'delete',
      at: command.at,
      count: command.count,
    }
    checkStructure(edit.axis, edit.kind, edit.at, edit.count)
    if (edit.kind === 'insert') this.checkNothingPushedOff(sheet, edit)
    const deleting = edit.kind === 'delete'
    const inBand = (record: { row: number; col: number }) => {
      const index = edit.axis === 'rows' ? record.row : record.col
      return index >= edit.at && index < edit.at + edit.count
    }
    const removedCells: CellRecord[] = []
    const cellsBefore: CellRecord[] = []
    const mergesBefore = sheet.merges.map((text) => tryParseRange(text)).filter((range): range is RangeAddress => range !== undefined)
    if (deleting) {
      // Only the deleted band and the merges are looked at, not every cell of the sheet.
      const last = edit.at + edit.count - 1
      const band = edit.axis === 'rows' ? { top: edit.at, bottom: last, left: 0, right: MAX_COL } : { top: 0, bottom: MAX_ROW, left: edit.at, right: last }
      this.forEachRecordIn(sheet.id, band, (record) => removedCells.push(record))
      const merged = new Set<string>()
      for (const range of mergesBefore) {
        this.forEachRecordIn(sheet.id, range, (record) => {
          if (inBand(record) || record.input === '' || merged.has(record.address)) return
          merged.add(record.address)
          cellsBefore.push(record)
        })
      }
    }
    sortedCells(removedCells)
    const namesBefore = deleting ? this.nameCommands() : []
    const oldMerges = [...sheet.merges]
    const oldWidths = { ...sheet.columnWidths }
    const oldView = sheet.view
    const restoredCharts: WorkbookCommand[] = []
    const oldRules = sheet.conditionalFormats

    // The values the move changed (formulas that read deleted cells show #REF!), at their new places.
    if (edit.axis === 'rows') {
      if (deleting) appendAll(result.engineChanges, this.engine.deleteRows(sheet.name, edit.at, edit.count))
      else appendAll(result.engineChanges, this.engine.insertRows(sheet.name, edit.at, edit.count))
    } else if (deleting) appendAll(result.engineChanges, this.engine.deleteColumns(sheet.name, edit.at, edit.count))
    else appendAll(result.engineChanges, this.engine.insertColumns(sheet.name, edit.at, edit.count))
    // Formulas whose references did not simply follow their cells; every other one moved unchanged.
    const report = this.engine.structureReport()
    const rewritten = report.rewritten.map((formula) => ({ sheetId: this.sheetByName(formula.sheet).id, row: formula.row, col: formula.col, before: formula.before }))
    ;(result.moves ??= []).push({
      sheetId: sheet.id,
      edit,
      inPlace: report.inPlace,
      rewritten: rewritten.map(({ sheetId, row, col }) => ({ sheetId, row, col })),
      removed: removedCells.map((cell) => ({ row: cell.row, col: cell.col, input: cell.input, value: cell.value })),
    })

    for (const maps of [this.styles, this.formats] as Map<string, Map<number, unknown>>[]) {
      const map = maps.get(sheet.id)
      if (map && map.size > 0) maps.set(sheet.id, movedKeys(map, edit))
    }
    const legacy = this.legacy.get(sheet.id)
    if (legacy && legacy.size > 0) {
      const moved = new Set<number>()
      for (const key of legacy) {
        const to = moveAddress(keyRow(key), keyCol(key), edit)
        if (to) moved.add(positionKey(to.row, to.col))
      }
      this.legacy.set(sheet.id, moved)
    }
    sheet.merges = inMergeOrder(
      sheet.merges.flatMap((range) => {
        const moved = moveRangeText(range, edit)
        return moved && moved.includes(':') ? [moved] : []
      }),
    )
    if (edit.axis === 'columns') {
      const widths: Record<string, number> = {}
      for (const [col, width] of Object.entries(sheet.columnWidths)) {
        const to = moveAddress(0, Number(col), edit)
        if (to) widths[String(to.col)] = width
      }
      sheet.columnWidths = widths
    }
    const view = movedView(sheet.view, edit)
    if (view) sheet.view = view
    else delete sheet.view
    // Rules on this sheet move with its cells; rules anywhere whose formulas read it follow them.
    const validationsBefore = new Map(this.sheets.map((each) => [each, each.validations]))
    for (const each of this.sheets) {
      const rules = movedValidations(each.validations, each.name, sheet.name, edit)
      if (rules) each.validations = rules
      else delete each.validations
    }
    const chartsBefore = this.charts
    const rules = movedRules(sheet.conditionalFormats, edit, sheet.name)
    if (rules) sheet.conditionalFormats = rules
    else delete sheet.conditionalFormats
    this.charts = this.charts.flatMap((chart) => {
      if (chart.sheetId !== sheet.id) return [chart]
      const moved = movedChart(chart, edit)
      return moved ? [moved] : []
    })
    const ref = this.refOf(sheet)
    result.applied.push({ ...command, sheet: ref })

    const opposite = `${deleting ? 'insert' : 'delete'}-${edit.axis}` as StructuralCommand['type']
    const inverse: WorkbookCommand[] = [{ type: opposite, sheet: ref, at: edit.at, count: edit.count }]
    // Rules come back exactly as they were: the opposite edit alone would not regrow a range the deletion cut.
    const restoreRules = (): WorkbookCommand[] =>
      sameRules(oldRules, sheet.conditionalFormats) ? [] : [{ type: 'set-conditional-formats', sheet: ref, rules: copyRules(oldRules) ?? [] }]
    if (!deleting) return [...inverse, ...restoreRules()]
    // A deletion may shrink or remove charts in ways the insertion does not undo: they are written back as they were.
    for (const chart of chartsBefore) {
      if (chart.sheetId !== sheet.id) continue
      const now = this.charts.find((candidate) => candidate.id === chart.id)
      const reinserted = now && movedChart(now, { ...edit, kind: 'insert' })
      if (!reinserted || !sameChart(reinserted, chart)) restoredCharts.push({ type: 'set-chart', sheet: ref, id: chart.id, chart: chartSpecOf(chart) })
    }
    // Merges the deletion cut or removed come back first, as they were (a merge clears what it covers)...
    const reinsert: StructuralEdit = { ...edit, kind: 'insert' }
    const restoredMerges: RangeAddress[] = []
    const remerges: WorkbookCommand[] = []
    for (const range of oldMerges) {
      const moved = moveRangeText(range, edit)
      const survivor = moved && moved.includes(':') ? moveRangeText(moved, reinsert) : undefined
      if (survivor === range) continue
      if (survivor !== undefined) inverse.push({ type: 'unmerge-cells', sheet: ref, range: survivor })
      remerges.push({ type: 'merge-cells', sheet: ref, range })
      const parsed = tryParseRange(range)
      if (parsed) restoredMerges.push(parsed)
    }
    inverse.push(...remerges)
    // ...then the deleted cells and whatever the restored merges cover, at their places before the deletion.
    const restored = new Map<string, CellRecord>()
    for (const cell of removedCells) restored.set(cell.address, cell)
    for (const cell of cellsBefore) if (restoredMerges.some((range) => inside(range, cell))) restored.set(cell.address, cell)
    if (restored.size > 0) {
      inverse.push({
        type: 'set-cells',
        sheet: ref,
        cells: sortedCells([...restored.values()]).map((cell) => ({
          address: cell.address,
          input: cell.input,
          ...inputKind(cell),
          ...(cell.style ? { style: cell.style } : {}),
          ...(cell.userFormat ? { format: cell.userFormat } : {}),
        })),
      })
    }
    const original = (sheetId: string, row: number, col: number) => {
      if (sheetId !== sheet.id) return { row, col }
      const index = edit.axis === 'rows' ? row : col
      const before = index >= edit.at ? index + edit.count : index
      return edit.axis === 'rows' ? { row: before, col } : { row, col: before }
    }
    inverse.push(...this.formulasAsBefore(rewritten, original))
    inverse.push(...this.restoredNames(namesBefore))
    if (edit.axis === 'columns') {
      for (let col = edit.at; col < edit.at + edit.count; col++) {
        const width = oldWidths[String(col)]
        if (width !== undefined) inverse.push({ type: 'resize-column', sheet: ref, column: col, width })
      }
    }
    const deletedLayout = restoringSpans(oldView, edit.axis, edit.at, edit.count)
    const deletedAnnotations = restoringAnnotations(oldView, edit.axis, edit.at, edit.count)
    if (deletedLayout.length > 0 || deletedAnnotations.notes || deletedAnnotations.links) {
      inverse.push({ type: 'set-sheet-view', sheet: ref, ...(deletedLayout.length > 0 ? { [edit.axis]: deletedLayout } : {}), ...deletedAnnotations })
    }
    // The filter as it was, with the rows it hid among the deleted ones (or its headers, which take it away).
    if (oldView?.filter) inverse.push({ type: 'set-filter', sheet: ref, filter: copyFilter(oldView.filter), filteredRows: filteredSpans(oldView) })
    // A print area or title rows the deletion narrowed come back as they were.
    if (oldView?.pageSetup && !samePageSetup(oldView.pageSetup, sheet.view?.pageSetup)) inverse.push({ type: 'set-sheet-view', sheet: ref, pageSetup: copyPageSetup(oldView.pageSetup) ?? null })
    inverse.push(...restoredCharts)
    inverse.push(...restoreRules())
    for (const [each, rules] of validationsBefore) {
      if (!sameValidations(rules, each.validations)) inverse.push({ type: 'set-data-validation', sheet: this.refOf(each), clear: [WHOLE_SHEET], rules: copyValidations(rules) ?? [] })
    }
    return inverse
  }

  private checkNewSheetName(name: string, except?: SheetRecord): string {
    const trimmed = name.trim()
    const problem = sheetNameFormatProblem(trimmed)
    if (problem) throw commandErrors.invalidSheetName(problem)
    checkNameText(name)
    const clash = this.sheets.find((sheet) => sheet !== except && sheet.name.toUpperCase() === trimmed.toUpperCase())
    if (clash) throw commandErrors.sheetExists(clash.name)
    return trimmed
  }

  private addSheet(command: Command<'add-sheet'>, result: ApplyResult): WorkbookCommand[] {
    const name = this.checkNewSheetName(command.name)
    if (this.sheets.length >= MAX_SHEETS) throw commandErrors.tooManySheets()
    if (command.index !== undefined && !(Number.isInteger(command.index) && command.index >= 0)) throw commandErrors.invalidCommand('A sheet position must be 0 or more')
    const id = command.id ?? newSheetId()
    if (this.sheets.some((sheet) => sheet.id === id)) throw commandErrors.sheetExists(command.name)
    const index = Math.max(0, Math.min(command.index ?? this.sheets.length, this.sheets.length))
    const restoresOfMentions = this.textsMentioning(name)
    const sheet: SheetRecord = { id, name, columnWidths: {}, merges: [] }
    this.sheets.splice(index, 0, sheet)
    if (index === this.sheets.length - 1) appendAll(result.engineChanges, this.engine.addSheet(sheet.name))
    else {
      this.rebuildEngine()
      result.structural = true
    }
    result.applied.push({ type: 'add-sheet', name, index, id })
    // Deleting the sheet again turns references to it into #REF!; those that named it before it existed get their text back.
    return [{ type: 'delete-sheet', name: this.refOf(sheet) }, ...restoresOfMentions]
  }

  private renameSheet(command: Command<'rename-sheet'>, result: ApplyResult): WorkbookCommand[] {
    const sheet = this.sheetByRef(command.from)
    const name = this.checkNewSheetName(command.to, sheet)
    const previous = sheet.name
    // Renaming back rewrites every reference to the new name, those written before the rename included: they get their text back.
    const restoresOfMentions = name.toUpperCase() === previous.toUpperCase() ? [] : this.textsMentioning(name)
    const rulesBefore: WorkbookCommand[] = []
    if (name !== previous) {
      appendAll(result.engineChanges, this.engine.renameSheet(previous, name))
      sheet.name = name
      for (const each of this.sheets) {
        const rules = renamedValidations(each.validations, previous, name)
        if (rules) each.validations = rules
      }
      // Conditional formats' formulas follow the rename, as cells' formulas do; the inverse puts them back as they were.
      for (const other of this.sheets) {
        if (!other.conditionalFormats) continue
        const renamed = renamedRules(other.conditionalFormats, previous, name)
        if (renamed === other.conditionalFormats) continue
        rulesBefore.push({ type: 'set-conditional-formats', sheet: this.refOf(other), rules: other.conditionalFormats })
        other.conditionalFormats = renamed
      }
    }
    result.applied.push({ type: 'rename-sheet', from: this.refs === 'id' ? sheet.id : previous, to: name })
    return [{ type: 'rename-sheet', from: this.refOf(sheet), to: previous }, ...restoresOfMentions, ...rulesBefore]
  }

  /**
   * Commands that put back, as they are now, every formula and defined name whose text mentions a
   * sheet name (a cheap superset: any text containing it), for inverses of changes that rewrite them.
   */
  private textsMentioning(sheetName: string): WorkbookCommand[] {
    const needle = sheetName.toUpperCase()
    const restores: WorkbookCommand[] = []
    for (const sheet of this.sheets) {
      const cells: CellEdit[] = []
      this.engine.forEachCell(sheet.name, (cell) => {
        if (cell.formula === undefined || !cell.input.toUpperCase().includes(needle)) return
        const edit: CellEdit = { address: cell.address, input: cell.input }
        if (cell.arrayRange !== undefined) edit.arrayRange = cell.arrayRange
        else if (this.legacy.get(sheet.id)?.has(positionKey(cell.row, cell.col))) edit.legacy = true
        cells.push(edit)
      })
      if (cells.length > 0) restores.push({ type: 'set-cells', sheet: this.refOf(sheet), cells })
    }
    for (const name of this.nameCommands()) if (name.formula?.toUpperCase().includes(needle)) restores.push(name)
    return restores
  }

  private deleteSheet(command: Command<'delete-sheet'>, result: ApplyResult): WorkbookCommand[] {
    const sheet = this.sheetByRef(command.name)
    if (this.sheets.length === 1) throw commandErrors.lastSheet()
    if (isSheetVisible(sheet.view) && !this.sheets.some((other) => other !== sheet && isSheetVisible(other.view))) throw commandErrors.lastVisibleSheet()
    const index = this.sheets.indexOf(sheet)
    const ref = this.refOf(sheet)
    const cells = this.sheetRecords(sheet.id)
    const formulasBefore = this.formulaInputs()
    const names = this.nameCommands()
    appendAll(result.engineChanges, this.engine.removeSheet(sheet.name))
    this.sheets.splice(index, 1)
    this.styles.delete(sheet.id)
    this.formats.delete(sheet.id)
    this.legacy.delete(sheet.id)
    const charts = this.charts.filter((chart) => chart.sheetId === sheet.id)
    this.charts = this.charts.filter((chart) => chart.sheetId !== sheet.id)
    result.applied.push({ type: 'delete-sheet', name: ref })
    // The inverse adds the same sheet back (same id, same place), then its cells, widths and merges.
    const inverse: WorkbookCommand[] = [{ type: 'add-sheet', name: sheet.name, index, id: sheet.id }]
    // Merges before cells: a merge clears what it covers.
    for (const range of sheet.merges) inverse.push({ type: 'merge-cells', sheet: ref, range })
    for (const [column, width] of Object.entries(sheet.columnWidths)) inverse.push({ type: 'resize-column', sheet: ref, column: Number(column), width })
    const layout = viewCommandOf(sheet.view)
    if (layout) inverse.push({ type: 'set-sheet-view', sheet: ref, ...layout })
    if (sheet.validations) inverse.push({ type: 'set-data-validation', sheet: ref, clear: [], rules: copyValidations(sheet.validations) ?? [] })
    if (sheet.view?.filter) inverse.push({ type: 'set-filter', sheet: ref, filter: copyFilter(sheet.view.filter), filteredRows: filteredSpans(sheet.view) })
    if (sheet.conditionalFormats) inverse.push({ type: 'set-conditional-formats', sheet: ref, rules: copyRules(sheet.conditionalFormats) ?? [] })
    if (cells.length > 0) {
      inverse.push({
        type: 'set-cells',
        sheet: ref,
        cells: cells.map((cell) => ({
          address: cell.address,
          ...(cell.input !== '' ? { input: cell.input, ...inputKind(cell) } : {}),
          ...(cell.style ? { style: cell.style } : {}),
          ...(cell.userFormat ? { format: cell.userFormat } : {}),
        })),
      })
    }
    inverse.push(...this.restoredNames(names))
    inverse.push(...this.rewrittenFormulas(formulasBefore, (_sheetId, row, col) => ({ row, col })))
    for (const chart of charts) inverse.push({ type: 'set-chart', sheet: ref, id: chart.id, chart: chartSpecOf(chart) })
    return inverse
  }

  /** Defines, redefines or (with a null formula) removes a workbook- or sheet-scoped name. */
  private changeCalculation(command: Command<'set-calculation'>, result: ApplyResult): WorkbookCommand[] {
    const { iterate, maxIterations, maxChange } = this.calculation
    const problem = iterationLimitsProblem(command.maxIterations, command.maxChange)
    if (problem) throw commandErrors.invalidCommand(problem)
    appendAll(result.engineChanges, this.setCalculation({ iterate: command.iterate, maxIterations: command.maxIterations, maxChange: command.maxChange }))
    result.applied.push({ ...command })
    return [{ type: 'set-calculation', iterate, maxIterations, maxChange }]
  }

  private defineName(command: Command<'define-name'>, result: ApplyResult): WorkbookCommand[] {
    const scope = command.sheet === undefined ? undefined : this.sheetByRef(command.sheet)
    const upper = command.name.toUpperCase()
    const previous = this.definedNames.find((definition) => definition.name.toUpperCase() === upper && definition.sheet === scope?.name)
    try {
      if (command.formula === null) {
        if (!previous) return []
        appendAll(result.engineChanges, this.engine.removeName(previous.name, scope?.name))
      } else {
        const formula = command.formula.startsWith('=') ? command.formula : `=${command.formula}`
        appendAll(result.engineChanges, this.engine.defineName(command.name, formula, scope?.name))
      }
    } catch (error) {
      if (error instanceof CommandError || error instanceof SheetNotFoundError) throw error
      throw commandErrors.invalidName(error instanceof Error ? error.message : `Invalid name ${command.name}`)
    }
    const ref = scope ? { sheet: this.refOf(scope) } : {}
    result.applied.push({ type: 'define-name', name: command.name, formula: command.formula, ...ref })
    return [{ type: 'define-name', name: previous?.name ?? command.name, formula: previous?.formula ?? null, ...ref }]
  }

  private moveSheet(command: Command<'move-sheet'>, result: ApplyResult): WorkbookCommand[] {
    const sheet = this.sheetByRef(command.name)
    if (!Number.isInteger(command.index) || command.index < 0) throw commandErrors.invalidCommand('A sheet position must be 0 or more')
    const from = this.sheets.indexOf(sheet)
    const to = Math.max(0, Math.min(command.index, this.sheets.length - 1))
    this.sheets.splice(from, 1)
    this.sheets.splice(to, 0, sheet)
    // The engine keeps sheets in creation order; 3-D references (Sheet1:Sheet3!A1) follow the new order after a rebuild.
    if (from !== to) this.rebuildEngine()
    result.applied.push({ type: 'move-sheet', name: this.refOf(sheet), index: to })
    return [{ type: 'move-sheet', name: this.refOf(sheet), index: from }]
  }

  /** Merges a block into one cell. As Excel does, only the top-left cell's content survives: the others are cleared. */
  private mergeCells(command: Command<'merge-cells'>, result: ApplyResult): WorkbookCommand[] {
    const sheet = this.sheetByRef(command.sheet)
    const { range, text } = checkRange(command.range)
    if (range.top === range.bottom && range.left === range.right) throw commandErrors.invalidRange(command.range)
    const cells = (range.bottom - range.top + 1) * (range.right - range.left + 1)
    if (cells > MAX_MERGED_CELLS) throw commandErrors.mergeTooLarge(text, cells)
    if (sheet.merges.includes(text)) return []
    const overlap = sheet.merges.find((existing) => {
      const other = tryParseRange(existing)
      return other !== undefined && rangesOverlap(other, range)
    })
    if (overlap) throw commandErrors.overlappingMerge(text)
    const cleared: CellEdit[] = []
    for (const address of this.filledCells(sheet, range)) {
      if (address !== formatAddress(range.top, range.left)) cleared.push({ address, input: '' })
    }
    const restore = cleared.length > 0 ? this.setCells(sheet, cleared, result) : []
    sheet.merges = inMergeOrder([...sheet.merges, text])
    result.applied.push({ type: 'merge-cells', sheet: this.refOf(sheet), range: text })
    return [{ type: 'unmerge-cells', sheet: this.refOf(sheet), range: text }, ...restore]
  }

  /** Unmerges every merged block the range touches, as Excel's Unmerge Cells does for a selection. */
  private unmergeCells(command: Command<'unmerge-cells'>, result: ApplyResult): WorkbookCommand[] {
    const sheet = this.sheetByRef(command.sheet)
    const { range } = checkRange(command.range)
    const removed = sheet.merges.filter((existing) => {
      const other = tryParseRange(existing)
      return other !== undefined && rangesOverlap(other, range)
    })
    if (removed.length === 0) return []
    sheet.merges = sheet.merges.filter((existing) => !removed.includes(existing))
    const ref = this.refOf(sheet)
    for (const merge of removed) result.applied.push({ type: 'unmerge-cells', sheet: ref, range: merge })
    // Merging again clears every cell but the top-left one; content that sat under a merge (from a file,
    // or written into it) is put back after it.
    const hidden: CellEdit[] = []
    for (const merge of removed) {
      const area = tryParseRange(merge)!
      for (const address of this.filledCells(sheet, area)) {
        if (address === formatAddress(area.top, area.left)) continue
        const cell = this.engine.getCell(sheet.name, address)
        hidden.push({ address, input: cell.input, ...inputKind({ arrayRange: cell.arrayRange, legacy: this.isLegacy(sheet.id, address) }) })
      }
    }
    const inverse: WorkbookCommand[] = removed.map((merge) => ({ type: 'merge-cells' as const, sheet: ref, range: merge }))
    if (hidden.length > 0) inverse.push({ type: 'set-cells', sheet: ref, cells: hidden })
    return inverse
  }

  /** The records of a sheet inside a range, by address. */
  private recordsIn(sheet: SheetRecord, range: RangeAddress): Map<string, CellRecord> {
    const found = new Map<string, CellRecord>()
    this.forEachRecord(sheet.id, (record) => {
      if (inside(range, record)) found.set(record.address, record)
    })
    return found
  }

  /**
   * Cut and paste, as Excel does it: the block's inputs, styles, number formats and the merges inside it
   * move; references anywhere to a moved cell, or to a range wholly inside the block, follow it (the
   * engine rewrites them); references to the cells it lands on become #REF!. The inverse puts back both
   * areas, every formula and name the move rewrote, and the merges, exactly as they were.
   */
  private moveCells(command: Command<'move-cells'>, result: ApplyResult): WorkbookCommand[] {
    const source = this.sheetByRef(command.sheet)
    const target = command.targetSheet === undefined ? source : this.sheetByRef(command.targetSheet)
    const { range: from, text } = checkRange(command.range)
    const anchor = parseAddress(checkAddress(command.target))
    const height = from.bottom - from.top
    const width = from.right - from.left
    if ((height + 1) * (width + 1) > MAX_FORMATTED_CELLS) throw commandErrors.tooManyMovedCells()
    const to: RangeAddress = { top: anchor.row, left: anchor.col, bottom: anchor.row + height, right: anchor.col + width }
    if (to.bottom > MAX_ROW || to.right > MAX_COL) throw commandErrors.invalidCommand(`The cells do not fit there: ${text} moved to ${command.target} would run off the sheet`)
    if (source === target && from.top === to.top && from.left === to.left) return []
    // As Excel refuses to change part of a merged cell, a merge may only move whole, or be pasted over whole.
    const merges = (sheet: SheetRecord) => sheet.merges.map((merge) => ({ text: merge, range: tryParseRange(merge)! })).filter((merge) => merge.range)
    const wholly = (inner: RangeAddress, outer: RangeAddress) => inside(outer, { row: inner.top, col: inner.left }) && inside(outer, { row: inner.bottom, col: inner.right })
    const moving = merges(source).filter((merge) => wholly(merge.range, from))
    if (merges(source).some((merge) => rangesOverlap(merge.range, from) && !wholly(merge.range, from))) throw commandErrors.partOfMerge(text)
    const covered = merges(target).filter((merge) => rangesOverlap(merge.range, to) && !(source === target && moving.some((moved) => moved.text === merge.text)))
    if (covered.some((merge) => !wholly(merge.range, to))) throw commandErrors.partOfMerge(formatRange(to))

    const sourceBefore = this.recordsIn(source, from)
    const targetBefore = this.recordsIn(target, to)
    const formulasBefore = this.formulaInputs()
    const namesBefore = this.nameCommands()
    appendAll(result.engineChanges, this.engine.moveRange(source.name, text, target.name, command.target))

    // What the engine does not keep follows the block: styles, number formats, the legacy-array flag.
    const sourceStyles = metaMap(this.styles, source.id)
    const sourceFormats = metaMap(this.formats, source.id)
    const sourceLegacy = this.legacySet(source.id)
    for (const record of sourceBefore.values()) {
      const key = positionKey(record.row, record.col)
      sourceStyles.delete(key)
      sourceFormats.delete(key)
      sourceLegacy.delete(key)
    }
    const targetStyles = metaMap(this.styles, target.id)
    const targetFormats = metaMap(this.formats, target.id)
    const targetLegacy = this.legacySet(target.id)
    for (const record of targetBefore.values()) {
      const key = positionKey(record.row, record.col)
      targetStyles.delete(key)
      targetFormats.delete(key)
      targetLegacy.delete(key)
    }
    const rowOffset = to.top - from.top
    const colOffset = to.left - from.left
    for (const record of sourceBefore.values()) {
      const key = positionKey(record.row + rowOffset, record.col + colOffset)
      if (record.style !== undefined) targetStyles.set(key, record.style)
      if (record.userFormat !== undefined) targetFormats.set(key, record.userFormat)
      if (record.legacy) targetLegacy.add(key)
    }
    const movedMerges = moving.map((merge) =>
      formatRange({ top: merge.range.top + rowOffset, left: merge.range.left + colOffset, bottom: merge.range.bottom + rowOffset, right: merge.range.right + colOffset }),
    )
    source.merges = source.merges.filter((merge) => !moving.some((moved) => moved.text === merge))
    target.merges = inMergeOrder([...target.merges.filter((merge) => !covered.some((gone) => gone.text === merge)), ...movedMerges])
    // Notes and links go with their cells; the inverse of each write puts back what it replaced.
    const annotations = movedBlockAnnotations(source.view, target.view, from, to)
    const annotationsBack: WorkbookCommand[] = []
    for (const [sheet, edits] of [[source, annotations.source], [target, annotations.target]] as const) {
      if (!edits.notes && !edits.links) continue
      const otherVisible = this.sheets.filter((other) => other !== sheet && isSheetVisible(other.view)).length
      const { view, undo } = applySheetView(sheet.view, { type: 'set-sheet-view', sheet: sheet.name, ...edits }, otherVisible)
      if (view) sheet.view = view
      else delete sheet.view
      annotationsBack.unshift({ type: 'set-sheet-view', sheet: this.refOf(sheet), ...undo })
    }
    // Conditional formats of the cut cells go with them; the inverse puts both sheets' lists back.
    const rulesBack: WorkbookCommand[] = []
    const carried = rulesMovedWithBlock(source.conditionalFormats, from, rowOffset, colOffset, source === target)
    if (carried) {
      rulesBack.push({ type: 'set-conditional-formats', sheet: this.refOf(source), rules: source.conditionalFormats ?? [] })
      if (target !== source) rulesBack.push({ type: 'set-conditional-formats', sheet: this.refOf(target), rules: target.conditionalFormats ?? [] })
      const sourceRules = copyRules(carried.source)
      if (sourceRules) source.conditionalFormats = sourceRules
      else delete source.conditionalFormats
      if (target !== source && carried.moved.length > 0) target.conditionalFormats = [...carried.moved, ...(target.conditionalFormats ?? [])]
    }

    for (const [sheet, range] of [[source, from], [target, to]] as const) {
      for (let row = range.top; row <= range.bottom && (range.bottom - range.top + 1) * (range.right - range.left + 1) <= 4096; row++) {
        for (let col = range.left; col <= range.right; col++) result.touched.add(cellKey(sheet.id, formatAddress(row, col)))
      }
    }
    const sourceAfter = this.recordsIn(source, from)
    const targetAfter = this.recordsIn(target, to)
    for (const [sheet, before, after] of [[source, sourceBefore, sourceAfter], [target, targetBefore, targetAfter]] as const) {
      for (const address of new Set([...before.keys(), ...after.keys()])) {
        result.touched.add(cellKey(sheet.id, address))
        const oldInput = before.get(address)?.input ?? ''
        const newInput = after.get(address)?.input ?? ''
        if (oldInput !== newInput) result.inputChanges.push({ sheetId: sheet.id, address, oldInput, newInput })
      }
    }
    const rewritten = this.rewrittenFormulas(formulasBefore, (_sheetId, row, col) => ({ row, col }))
    for (const edit of rewritten) {
      // Written in this model's output references, which may differ from the ones its input uses.
      const sheet = edit.type === 'set-cells' ? this.sheets.find((candidate) => this.refOf(candidate) === edit.sheet) : undefined
      if (edit.type !== 'set-cells' || !sheet) continue
      for (const cell of edit.cells) {
        const key = cellKey(sheet.id, cell.address)
        if (result.touched.has(key)) continue
        result.touched.add(key)
        result.inputChanges.push({ sheetId: sheet.id, address: cell.address, oldInput: String(cell.input), newInput: this.engine.getInput(sheet.name, cell.address) })
      }
    }
    result.applied.push({ type: 'move-cells', sheet: this.refOf(source), range: text, targetSheet: this.refOf(target), target: formatAddress(to.top, to.left) })

    // The inverse: the moved merges undone, both areas as they were, every rewritten formula and name, the merges back.
    const restoreEdits = (before: Map<string, CellRecord>, after: Map<string, CellRecord>): CellEdit[] => {
      const edits: CellEdit[] = []
      for (const address of new Set([...after.keys(), ...before.keys()])) {
        const record = before.get(address)
        edits.push(
          record
            ? { address, input: record.input, ...inputKind(record), style: record.style ?? null, format: record.userFormat ?? null }
            : { address, input: '', style: null, format: null },
        )
      }
      return edits
    }
    const inverse: WorkbookCommand[] = movedMerges.map((merge) => ({ type: 'unmerge-cells' as const, sheet: this.refOf(target), range: merge }))
    // The landing area first: when the areas overlap on one sheet, the source's own records are the truth for the shared cells.
    inverse.push({ type: 'set-cells', sheet: this.refOf(target), cells: restoreEdits(targetBefore, targetAfter) })
    inverse.push({ type: 'set-cells', sheet: this.refOf(source), cells: restoreEdits(sourceBefore, sourceAfter) })
    appendAll(inverse, rewritten)
    appendAll(inverse, this.restoredNames(namesBefore))
    for (const merge of covered) inverse.push({ type: 'merge-cells', sheet: this.refOf(target), range: merge.text })
    for (const merge of moving) inverse.push({ type: 'merge-cells', sheet: this.refOf(source), range: merge.text })
    appendAll(inverse, annotationsBack)
    appendAll(inverse, rulesBack)
    return inverse
  }

  /** The addresses of the cells with content inside a range, without visiting its empty cells. */
  private filledCells(sheet: SheetRecord, range: RangeAddress): string[] {
    const area = (range.bottom - range.top + 1) * (range.right - range.left + 1)
    const found: string[] = []
    if (area <= 4096) {
      for (let row = range.top; row <= range.bottom; row++) {
        for (let col = range.left; col <= range.right; col++) if (this.engine.getInputAt(sheet.name, row, col) !== '') found.push(formatAddress(row, col))
      }
      return found
    }
    this.engine.forEachCell(sheet.name, (cell) => {
      if (cell.input !== '' && cell.row >= range.top && cell.row <= range.bottom && cell.col >= range.left && cell.col <= range.right) found.push(cell.address)
    })
    return found
  }

  /** A new engine with the sheets in this.sheets order and every input reloaded. */
  private rebuildEngine(): void {
    const names = this.definedNames
    const tables = this.tables
    const engine = new Engine(this.currentEngineOptions())
    engine.setExternalLinks(this.engine.getExternalWorkbooks())
    const inputs: CellUpdate[] = []
    for (const sheet of this.sheets) {
      engine.addSheet(sheet.name)
      if (!this.engine.hasSheet(sheet.name)) continue
      const legacy = this.legacy.get(sheet.id)
      this.engine.forEachCell(sheet.name, (cell) => {
        if (cell.input === '') return
        const update = engineUpdate(sheet.name, cell.address, cell.input, legacy?.has(positionKey(cell.row, cell.col)), cell.arrayRange)
        // Circular formulas keep the values they show through the rebuild.
        if (cell.formula !== undefined && cell.value !== null) update.saved = cell.value
        inputs.push(update)
      })
    }
    this.engine = engine
    this.defineAll(names)
    this.defineTables(tables)
    this.hiddenRows.state(engine, this.sheets)
    engine.loadCells(inputs)
  }
}

/** A stored value as the engine's: error codes become errors (unless the type says text). */
function savedValue(value: Exclude<CellRecord['value'], null>, type: CellRecord['type'] | undefined): EngineValue | undefined {
  if (typeof value !== 'string' || type === 'text' || !value.startsWith('#')) return value
  return errorFromText(value) ?? (type === 'error' ? undefined : value)
}

/** What the engine is given for a cell's input. */
function engineUpdate(sheet: string, address: string, input: string | number | boolean, legacy: boolean | undefined, arrayRange: string | undefined): CellUpdate {
  const update: CellUpdate = { sheet, address, input }
  if (typeof input === 'string' && input.startsWith('=')) {
    if (arrayRange !== undefined) update.arrayRange = arrayRange
    else if (legacy) update.legacy = true
  }
  return update
}

/** An edit with its address canonical and its input, format and array range checked. */
function checkedEdit(edit: CellEdit): CellEdit {
  const address = checkAddress(edit.address)
  const checked: CellEdit = { address }
  if (edit.input !== undefined) {
    checked.input = checkInput(address, edit.input)
    const formula = typeof checked.input === 'string' && checked.input.startsWith('=')
    if (formula && edit.arrayRange !== undefined) {
      const { range, text } = checkRange(edit.arrayRange)
      if (formatAddress(range.top, range.left) !== address) throw commandErrors.invalidRange(edit.arrayRange)
      checked.arrayRange = text
    } else if (formula && edit.legacy) checked.legacy = true
  }
  if (edit.style !== undefined) checked.style = edit.style
  if (edit.format !== undefined) checked.format = checkFormat(edit.format)
  return checked
}

function metaMap<T>(maps: Map<string, Map<number, T>>, sheetId: string): Map<number, T> {
  let map = maps.get(sheetId)
  if (!map) maps.set(sheetId, (map = new Map()))
  return map
}

/** A per-position map after rows or columns moved: entries of deleted cells go. */
function movedKeys<T>(map: Map<number, T>, edit: StructuralEdit): Map<number, T> {
  const moved = new Map<number, T>()
  for (const [key, value] of map) {
    const to = moveAddress(keyRow(key), keyCol(key), edit)
    if (to) moved.set(positionKey(to.row, to.col), value)
  }
  return moved
}

/**
 * A style patch over a cell's style: set fields win; false, null, '' and a zero indent or rotation
 * remove a field. Borders are patched edge by edge (a null edge removes it).
 */
export function mergeStyle(base: CellStyle | null | undefined, patch: StylePatch): CellStyle | null {
  const merged: Record<string, unknown> = { ...(base ?? {}) }
  for (const [name, value] of Object.entries(patch)) {
    if (value === undefined) continue
    if (name === 'borders' && value !== null) {
      const borders: Record<string, unknown> = { ...(base?.borders ?? {}) }
      for (const [edge, line] of Object.entries(value as Record<string, unknown>)) {
        if (line === null) delete borders[edge]
        else if (line !== undefined) borders[edge] = line
      }
      if (Object.keys(borders).length > 0) merged.borders = borders
      else delete merged.borders
    } else if (value === null || value === false || value === '' || (value === 0 && (name === 'indent' || name === 'rotation'))) delete merged[name]
    else merged[name] = value
  }
  // A colour set without its theme colour is a plain colour now: the theme colour it named goes.
  if (patch.color !== undefined && patch.colorTheme === undefined) delete merged.colorTheme
  if (patch.fill !== undefined && patch.fillTheme === undefined) delete merged.fillTheme
  return Object.keys(merged).length === 0 ? null : (merged as CellStyle)
}

const inside = (range: RangeAddress, cell: { row: number; col: number }) => cell.row >= range.top && cell.row <= range.bottom && cell.col >= range.left && cell.col <= range.right

/** Merged ranges in one order, row by row of their top-left cells, however they were made. */
function inMergeOrder(merges: readonly string[]): string[] {
  const keyed = merges.map((text) => {
    const range = tryParseRange(text)
    return { text, key: range ? positionKey(range.top, range.left) : 0 }
  })
  return keyed.sort((a, b) => a.key - b.key).map((entry) => entry.text)
}

function copySheet(sheet: SheetRecord): SheetRecord {
  const copy: SheetRecord = { id: sheet.id, name: sheet.name, columnWidths: { ...sheet.columnWidths }, merges: inMergeOrder(sheet.merges) }
  const view = copyView(sheet.view)
  if (view) copy.view = view
  const validations = copyValidations(sheet.validations)
  if (validations) copy.validations = validations
  const rules = copyRules(sheet.conditionalFormats)
  if (rules) copy.conditionalFormats = rules
  return copy
}

/** Appends without spreading: a recalculation can change more cells than a call's arguments may hold. */
function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item)
}

function extrasOf(record: CellRecord): CellExtras | undefined {
  let extras: CellExtras | undefined
  if (record.type === 'error') extras = { error: true }
  if (record.style !== undefined) (extras ??= {}).style = record.style
  if (record.userFormat !== undefined) (extras ??= {}).userFormat = record.userFormat
  if (record.suggestedFormat !== undefined) (extras ??= {}).suggestedFormat = record.suggestedFormat
  if (record.legacy) (extras ??= {}).legacy = true
  if (record.arrayRange !== undefined) (extras ??= {}).arrayRange = record.arrayRange
  return extras
}

/** A record's formula kind as a cell edit states it. */
function inputKind(record: Pick<CellRecord, 'legacy' | 'arrayRange'>): Pick<CellEdit, 'legacy' | 'arrayRange'> {
  if (record.arrayRange !== undefined) return { arrayRange: record.arrayRange }
  return record.legacy ? { legacy: true } : {}
}

export { CommandError }
