/**
 * An open workbook: a calculation engine holding every sheet, plus what the engine does not keep
 * (sheet ids, styles, user number formats, merges, column widths, charts) and which cells are stored.
 * Commands are applied here; the workbook service persists what changed.
 */
import { Engine, EngineUsageError, SheetNotFoundError } from '@finsheet/formula'
import type { CellChange, CellSnapshot, CellUpdate } from '@finsheet/formula'
import type { CellStyle } from '@finsheet/contracts'
import {
  cellTypeOf,
  compactStyle,
  formatAddress,
  moveAddress,
  moveRangeText,
  parseAddress,
  rangesOverlap,
  sortedCells,
  toJsonValue,
  tryParseRange,
  type CellRecord,
  type ChartRecord,
  type DefinedNameRecord,
  type SheetRecord,
  type StructuralEdit,
  type WorkbookSnapshot,
} from '@finsheet/workbook'
import { MAX_SHEETS } from '@finsheet/contracts'
import { spreadsheetErrors } from '../errors.js'
import type { SheetStats, WorkbookDoc } from '../storage/documents.js'
import { isStructural, type CellWrite, type InternalCommand, type StructuralCommand } from './commands.js'


/** `sheetId!A1`: a cell's key across the workbook. */
export const cellKey = (sheetId: string, address: string) => `${sheetId}!${address}`
export function splitKey(key: string): { sheetId: string; address: string } {
  const bang = key.indexOf('!')
  return { sheetId: key.slice(0, bang), address: key.slice(bang + 1) }
}


export interface InputChange {
  sheetId: string
  address: string
  oldInput: string
  newInput: string
}

export interface ApplyResult {
  /** The commands as applied, inputs as the engine keeps them. */
  applied: InternalCommand[]
  /** Applying these in order undoes the change. */
  inverse: InternalCommand[]
  /** Cells whose content, style or format the change wrote. */
  touched: Set<string>
  /** Cells whose value the engine recalculated. */
  engineChanges: CellChange[]
  /** Whether cells moved or sheets changed, so that stored cells are compared in full. */
  structural: boolean
  inputChanges: InputChange[]
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
  address: string
  input: string
  value: CellRecord['value']
  extras: CellExtras | undefined
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
}

/** What a workbook is built from: its sheets (in order), names, charts and cells. */
export interface WorkbookSource {
  revision: number
  sheets: SheetRecord[]
  definedNames: DefinedNameRecord[]
  charts: ChartRecord[]
  /** Cells in any order; stored ones (loaded from the store) are noted as stored. */
  cells: Iterable<CellSource & Partial<Pick<CellRecord, 'value'>>>
  stored: boolean
}

export interface ApplyOptions {
  /** Snapshots that replace-workbook commands name, fetched beforehand. */
  snapshots?: ReadonlyMap<string, WorkbookSnapshot>
  /** Where the state a replace-workbook command replaces was saved, for its inverse. */
  replacedKey?: string
}

/** A workbook being assembled by `WorkbookState.beginAssembly`. */
export interface WorkbookAssembly {
  /** Loads cells (sheets by name) into the engine; they are calculated at `finish`. */
  add(updates: readonly CellUpdate[]): void
  finish(): WorkbookState
}

export class WorkbookState {
  engine: Engine
  revision: number
  sheets: SheetRecord[]
  definedNames: DefinedNameRecord[]
  charts: ChartRecord[]
  private styles = new Map<string, Map<string, CellStyle>>()
  private formats = new Map<string, Map<string, string>>()
  /** Legacy (implicitly intersecting) formulas per sheet: the engine keeps the flag but does not show it. */
  private legacy = new Map<string, Set<string>>()
  /** Cells and formulas per sheet as stored: what the cache's memory bound counts. */
  private stats = new Map<string, SheetStats>()

  private constructor(revision: number, sheets: SheetRecord[], names: DefinedNameRecord[], charts: ChartRecord[]) {
    this.engine = new Engine()
    this.revision = revision
    this.sheets = sheets
    this.definedNames = names
    this.charts = charts
  }

  /** An open workbook from its stored document and cells. */
  static load(doc: Pick<WorkbookDoc, 'revision' | 'sheets' | 'definedNames' | 'charts'>, cells: Iterable<CellSource & Pick<CellRecord, 'value'>>): WorkbookState {
    return WorkbookState.build({ revision: doc.revision, sheets: doc.sheets, definedNames: doc.definedNames, charts: doc.charts, cells, stored: true })
  }

  /** A workbook built from a snapshot (an import, a template, a restored version), nothing stored yet. */
  static fromSnapshot(snapshot: WorkbookSnapshot, revision: number): WorkbookState {
    function* cells(): Generator<CellSource> {
      for (const sheet of snapshot.sheets) for (const cell of sheet.cells) yield { ...cell, sheetId: sheet.id }
    }
    return WorkbookState.build({ revision, sheets: snapshot.sheets, definedNames: snapshot.definedNames, charts: snapshot.charts, cells: cells(), stored: false })
  }

  /** Builds the engine with every input in one load (one recalculation). */
  static build(source: WorkbookSource): WorkbookState {
    const state = new WorkbookState(
      source.revision,
      source.sheets.map((sheet) => ({ id: sheet.id, name: sheet.name, columnWidths: { ...sheet.columnWidths }, merges: [...sheet.merges] })),
      source.definedNames.map((name) => ({ ...name })),
      source.charts.map((chart) => ({ ...chart })),
    )
    const namesById = new Map(state.sheets.map((sheet) => [sheet.id, sheet.name]))
    for (const sheet of state.sheets) state.engine.addSheet(sheet.name)
    state.defineNames()
    const inputs: CellUpdate[] = []
    for (const cell of source.cells) {
      const sheetName = namesById.get(cell.sheetId)
      if (sheetName === undefined) continue
      if (cell.input !== '') inputs.push(state.engineUpdate(sheetName, cell))
      if (cell.style) state.metaMap(state.styles, cell.sheetId).set(cell.address, cell.style)
      if (cell.userFormat) state.metaMap(state.formats, cell.sheetId).set(cell.address, cell.userFormat)
      if (cell.legacy && cell.input.startsWith('=')) state.legacySet(cell.sheetId).add(cell.address)
      // Counted from what is stored, or from the inputs until the blocks are written and counted.
      state.count(cell.sheetId, cell.input, cell.value ?? null)
    }
    state.engine.loadCells(inputs)
    return state
  }

  /**
   * A workbook assembled from parts as they arrive (an import): sheets and names first, then batches
   * of the engine's inputs, each loaded as it comes so that no one holds them all, and one
   * calculation at `finish`. `styles`, `formats` and `legacy` (by sheet id: what the engine does not
   * keep) may still be filled until then. Nothing is stored yet.
   */
  static beginAssembly(parts: {
    revision: number
    sheets: SheetRecord[]
    definedNames: DefinedNameRecord[]
    styles: Map<string, Map<string, CellStyle>>
    formats: Map<string, Map<string, string>>
    legacy: Map<string, Set<string>>
  }): WorkbookAssembly {
    const state = new WorkbookState(parts.revision, parts.sheets, parts.definedNames, [])
    for (const sheet of state.sheets) state.engine.addSheet(sheet.name)
    state.defineNames()
    state.styles = parts.styles
    state.formats = parts.formats
    state.legacy = parts.legacy
    const ids = new Map(state.sheets.map((sheet) => [sheet.name, sheet.id]))
    const load = state.engine.beginLoad()
    return {
      add: (updates) => {
        // Counted from the inputs until the blocks are written and counted.
        for (const update of updates) state.count(ids.get(update.sheet) as string, typeof update.input === 'string' ? update.input : '1', null)
        load.add(updates)
      },
      finish: () => {
        load.finish()
        return state
      },
    }
  }

  /** What the engine is given for a cell's input. */
  private engineUpdate(sheet: string, cell: Pick<CellSource, 'address' | 'input' | 'legacy' | 'arrayRange'>): CellUpdate {
    const update: CellUpdate = { sheet, address: cell.address, input: cell.input }
    if (cell.input.startsWith('=')) {
      if (cell.arrayRange !== undefined) update.arrayRange = cell.arrayRange
      else if (cell.legacy) update.legacy = true
    }
    return update
  }

  private count(sheetId: string, input: string, value: unknown): void {
    let stats = this.stats.get(sheetId)
    if (!stats) this.stats.set(sheetId, (stats = { cells: 0, formulas: 0 }))
    if (input !== '' || value !== null) stats.cells++
    if (input.startsWith('=')) stats.formulas++
  }

  private legacySet(sheetId: string): Set<string> {
    let set = this.legacy.get(sheetId)
    if (!set) this.legacy.set(sheetId, (set = new Set()))
    return set
  }

  isLegacy(sheetId: string, address: string): boolean {
    return this.legacy.get(sheetId)?.has(address) ?? false
  }

  private defineNames(): void {
    const kept: DefinedNameRecord[] = []
    for (const name of this.definedNames) {
      try {
        this.engine.defineName(name.name, name.formula, name.sheet)
        kept.push(name)
      } catch {
        // A name the engine cannot read (a bad formula, a sheet that is gone) is dropped, as the loader drops it.
      }
    }
    this.definedNames = kept
  }

  private metaMap<T>(maps: Map<string, Map<string, T>>, sheetId: string): Map<string, T> {
    let map = maps.get(sheetId)
    if (!map) maps.set(sheetId, (map = new Map()))
    return map
  }

  // ---- lookups ------------------------------------------------------------------------------------

  /** A sheet by name: exact first, then ignoring case, as Excel matches sheet names. */
  findSheet(name: string): SheetRecord | undefined {
    return this.sheets.find((sheet) => sheet.name === name) ?? this.sheets.find((sheet) => sheet.name.toUpperCase() === name.toUpperCase())
  }

  sheetByName(name: string): SheetRecord {
    const sheet = this.findSheet(name)
    if (!sheet) throw spreadsheetErrors.sheetNotFound(name)
    return sheet
  }

  sheetById(id: string): SheetRecord {
    const sheet = this.sheets.find((candidate) => candidate.id === id)
    if (!sheet) throw spreadsheetErrors.sheetNotFound(id)
    return sheet
  }

  sheetName = (id: string): string => this.sheets.find((sheet) => sheet.id === id)?.name ?? id

  styleAt(sheetId: string, address: string): CellStyle | undefined {
    return this.styles.get(sheetId)?.get(address)
  }

  /** The last row and column (0-based) holding content, a style or a number format on a sheet; -1 when none. */
  lastUsed(sheetId: string): { row: number; col: number } {
    const used = this.engine.getUsedRange(this.sheetById(sheetId).name)
    const last = { row: used?.bottom ?? -1, col: used?.right ?? -1 }
    for (const address of [...(this.styles.get(sheetId)?.keys() ?? []), ...(this.formats.get(sheetId)?.keys() ?? [])]) {
      const { row, col } = parseAddress(address)
      last.row = Math.max(last.row, row)
      last.col = Math.max(last.col, col)
    }
    return last
  }

  /** The record of one cell now, or undefined when it holds nothing (no content, style or format). */
  record(sheetId: string, address: string): CellRecord | undefined {
    const sheet = this.sheetById(sheetId)
    return this.recordOf(this.engine.getCell(sheet.name, address), this.styles.get(sheetId)?.get(address), this.formats.get(sheetId)?.get(address), this.legacy.get(sheetId))
  }

  private recordOf(snapshot: CellSnapshot, style: CellStyle | undefined, userFormat: string | undefined, legacy: Set<string> | undefined): CellRecord | undefined {
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
      else if (legacy?.has(snapshot.address)) record.legacy = true
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
    const withContent = hasMeta ? new Set<string>() : undefined
    this.engine.forEachCell(sheet.name, (snapshot) => {
      const record = this.recordOf(snapshot, styles?.get(snapshot.address), formats?.get(snapshot.address), legacy)
      if (!record) return
      visit(record)
      withContent?.add(snapshot.address)
    })
    if (withContent) {
      // Cells that hold only a style or a number format.
      for (const address of new Set([...(styles?.keys() ?? []), ...(formats?.keys() ?? [])])) {
        if (withContent.has(address)) continue
        const record = this.record(sheetId, address)
        if (record) visit(record)
      }
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
    const walk = this.rowMajorWalk(sheetId)
    if (walk === 'sparse') {
      for (const record of this.sheetRecords(sheetId)) yield { row: record.row, col: record.col, address: record.address, input: record.input, value: record.value, extras: extrasOf(record) }
      return
    }
    const sheet = this.sheetById(sheetId)
    const styles = this.styles.get(sheetId)
    const formats = this.formats.get(sheetId)
    const legacy = this.legacy.get(sheetId)
    for (const address of walk as Iterable<string>) {
      const snapshot = this.engine.getCell(sheet.name, address)
      const style = styles?.get(address)
      const userFormat = formats?.get(address)
      const value = snapshot.value
      if (snapshot.input === '' && value === null && style === undefined && userFormat === undefined) continue
      let extras: CellExtras | undefined
      if (value !== null && typeof value === 'object') extras = { error: true }
      if (style !== undefined) (extras ??= {}).style = style
      if (userFormat !== undefined) (extras ??= {}).userFormat = userFormat
      if (snapshot.format !== undefined) (extras ??= {}).suggestedFormat = snapshot.format
      if (snapshot.formula !== undefined) {
        if (snapshot.arrayRange !== undefined) (extras ??= {}).arrayRange = snapshot.arrayRange
        else if (legacy?.has(address)) (extras ??= {}).legacy = true
      }
      yield { row: snapshot.row, col: snapshot.col, address, input: snapshot.input, value: toJsonValue(value), extras }
    }
  }

  /**
   * The addresses of a dense sheet's possibly non-empty cells, row by row over the range its cells,
   * styles and formats span; 'sparse' when that range is mostly empty (walking it would cost more
   * than sorting the cells).
   */
  private rowMajorWalk(sheetId: string): Iterable<string> | 'sparse' {
    const sheet = this.sheetById(sheetId)
    const styles = this.styles.get(sheetId)
    const formats = this.formats.get(sheetId)
    const used = this.engine.getUsedRange(sheet.name)
    const bounds = used ? { ...used } : { top: Infinity, left: Infinity, bottom: -1, right: -1 }
    for (const address of [...(styles?.keys() ?? []), ...(formats?.keys() ?? [])]) {
      const { row, col } = parseAddress(address)
      bounds.top = Math.min(bounds.top, row)
      bounds.bottom = Math.max(bounds.bottom, row)
      bounds.left = Math.min(bounds.left, col)
      bounds.right = Math.max(bounds.right, col)
    }
    if (bounds.bottom < 0) return []
    const area = (bounds.bottom - bounds.top + 1) * (bounds.right - bounds.left + 1)
    const held = (this.stats.get(sheetId)?.cells ?? 0) + (styles?.size ?? 0) + (formats?.size ?? 0)
    if (area > 4 * held + 4096) return 'sparse'
    const engine = this.engine
    const withMeta = (styles?.size ?? 0) + (formats?.size ?? 0) > 0
    return {
      *[Symbol.iterator]() {
        for (let row = bounds.top; row <= bounds.bottom; row++) {
          for (let col = bounds.left; col <= bounds.right; col++) {
            if (engine.getValueAt(sheet.name, row, col) === null && engine.getInputAt(sheet.name, row, col) === '') {
              if (!withMeta) continue
              const address = formatAddress(row, col)
              if (styles?.has(address) || formats?.has(address)) yield address
              continue
            }
            yield formatAddress(row, col)
          }
        }
      },
    }
  }

  /** Every record of the workbook by cell key. */
  allRecords(): Map<string, CellRecord> {
    const all = new Map<string, CellRecord>()
    // Unsorted: a map by key needs no order, and sorting every cell of a large workbook costs more than reading it.
    for (const sheet of this.sheets) this.forEachRecord(sheet.id, (record) => all.set(cellKey(sheet.id, record.address), record))
    return all
  }

  snapshot(name: string): WorkbookSnapshot {
    return {
      format: 'finsheet-workbook',
      formatVersion: 1,
      name,
      revision: this.revision,
      sheets: this.sheets.map((sheet) => ({ ...sheet, columnWidths: { ...sheet.columnWidths }, merges: [...sheet.merges], cells: this.sheetRecords(sheet.id) })),
      definedNames: this.definedNames.map((definition) => ({ ...definition })),
      charts: this.charts.map((chart) => ({ ...chart })),
    }
  }

  // ---- what is stored -------------------------------------------------------------------------------

  /** Takes the cell counts the store holds (they are counted where the cells are written). */
  setStats(stats: Record<string, SheetStats>): void {
    this.stats = new Map(Object.entries(stats).map(([sheetId, counts]) => [sheetId, { ...counts }]))
  }

  sheetStats(): Record<string, SheetStats> {
    const result: Record<string, SheetStats> = {}
    for (const sheet of this.sheets) result[sheet.id] = { ...(this.stats.get(sheet.id) ?? { cells: 0, formulas: 0 }) }
    return result
  }

  totals(): { cells: number; formulas: number } {
    let cells = 0
    let formulas = 0
    for (const sheet of this.sheets) {
      const stats = this.stats.get(sheet.id)
      cells += stats?.cells ?? 0
      formulas += stats?.formulas ?? 0
    }
    return { cells, formulas }
  }

  /** Cells held, for the engine cache's memory bound. */
  size(): number {
    return this.totals().cells + 1
  }

  // ---- applying commands ----------------------------------------------------------------------------

  /** Applies commands in order. A failure leaves the state unusable: the caller drops it. */
  apply(commands: InternalCommand[], options: ApplyOptions = {}): ApplyResult {
    const result: ApplyResult = { applied: [], inverse: [], touched: new Set(), engineChanges: [], structural: false, inputChanges: [] }
    const inverses: InternalCommand[][] = []
    for (const command of commands) {
      if (isStructural(command)) result.structural = true
      inverses.push(this.applyOne(command, result, options))
    }
    result.inverse = inverses.reverse().flat()
    return result
  }

  private applyOne(command: InternalCommand, result: ApplyResult, options: ApplyOptions): InternalCommand[] {
    try {
      switch (command.type) {
        case 'set-cells':
          return this.setCells(command.sheetId, command.cells, result)
        case 'resize-column':
          return this.resizeColumn(command, result)
        case 'insert-rows':
        case 'delete-rows':
        case 'insert-columns':
        case 'delete-columns':
          return this.restructure(command, result)
        case 'add-sheet':
          return this.addSheet(command, result)
        case 'rename-sheet':
          return this.renameSheet(command, result)
        case 'delete-sheet':
          return this.deleteSheet(command, result)
        case 'move-sheet':
          return this.moveSheet(command, result)
        case 'merge-cells':
        case 'unmerge-cells':
          return this.mergeCells(command, result)
        case 'replace-workbook':
          return this.replaceWorkbook(command, result, options)
      }
    } catch (error) {
      if (error instanceof EngineUsageError) throw spreadsheetErrors.invalidStructure(error.message)
      if (error instanceof SheetNotFoundError) throw spreadsheetErrors.sheetNotFound(error.sheet)
      throw error
    }
  }

  private setCells(sheetId: string, writes: CellWrite[], result: ApplyResult): InternalCommand[] {
    const sheet = this.sheetById(sheetId)
    const styles = this.metaMap(this.styles, sheetId)
    const formats = this.metaMap(this.formats, sheetId)
    // The inverse restores each field a write touched to what it was before the first write.
    const legacy = this.legacySet(sheetId)
    const before = new Map<string, CellWrite>()
    for (const write of writes) {
      let old = before.get(write.address)
      if (!old) before.set(write.address, (old = { address: write.address }))
      if (write.input !== undefined && old.input === undefined) {
        const cell = this.engine.getCell(sheet.name, write.address)
        old.input = cell.input
        if (cell.arrayRange !== undefined) old.arrayRange = cell.arrayRange
        else if (legacy.has(write.address)) old.legacy = true
      }
      if (write.style !== undefined && old.style === undefined) old.style = styles.get(write.address) ?? null
      if (write.format !== undefined && old.format === undefined) old.format = formats.get(write.address) ?? null
    }
    const updates: CellUpdate[] = []
    for (const write of writes) {
      if (write.input !== undefined) {
        const input = write.input
        const formula = typeof input === 'string' && input.startsWith('=')
        const update: CellUpdate = { sheet: sheet.name, address: write.address, input }
        if (formula && write.arrayRange !== undefined) update.arrayRange = write.arrayRange
        else if (formula && write.legacy) update.legacy = true
        updates.push(update)
        if (update.legacy) legacy.add(write.address)
        else legacy.delete(write.address)
      }
      if (write.style !== undefined) {
        const style = compactStyle(write.style)
        if (style) styles.set(write.address, style)
        else styles.delete(write.address)
      }
      if (write.format !== undefined) {
        if (write.format === null || write.format === '') formats.delete(write.address)
        else formats.set(write.address, write.format)
      }
      result.touched.add(cellKey(sheetId, write.address))
    }
    if (updates.length > 0) for (const change of this.engine.setCells(updates)) result.engineChanges.push(change)
    const applied: CellWrite[] = writes.map((write) => {
      if (write.input === undefined) return { ...write }
      const { legacy: _legacy, arrayRange: _arrayRange, ...rest } = write
      const cell = this.engine.getCell(sheet.name, write.address)
      const written: CellWrite = { ...rest, input: cell.input }
      if (cell.formula !== undefined && cell.arrayRange !== undefined) written.arrayRange = cell.arrayRange
      else if (cell.formula !== undefined && legacy.has(write.address)) written.legacy = true
      return written
    })
    for (const old of before.values()) {
      if (old.input === undefined) continue
      const newInput = this.engine.getInput(sheet.name, old.address)
      if (newInput !== old.input) result.inputChanges.push({ sheetId, address: old.address, oldInput: String(old.input), newInput })
    }
    result.applied.push({ type: 'set-cells', sheetId, cells: applied })
    return [{ type: 'set-cells', sheetId, cells: [...before.values()] }]
  }

  private resizeColumn(command: Extract<InternalCommand, { type: 'resize-column' }>, result: ApplyResult): InternalCommand[] {
    const sheet = this.sheetById(command.sheetId)
    const key = String(command.column)
    const old = sheet.columnWidths[key] ?? null
    if (command.width === null) delete sheet.columnWidths[key]
    else sheet.columnWidths[key] = command.width
    result.applied.push({ ...command })
    return [{ type: 'resize-column', sheetId: command.sheetId, column: command.column, width: old }]
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
   * After a deletion, the writes that put back every formula the deletion rewrote (to #REF!, or a
   * narrowed range), at the place it will have once the deleted cells are back.
   */
  private rewrittenFormulas(before: Map<string, string>, originalPosition: (sheetId: string, row: number, col: number) => { row: number; col: number }): InternalCommand[] {
    const writes = new Map<string, CellWrite[]>()
    for (const sheet of this.sheets) {
      this.engine.forEachCell(sheet.name, (cell) => {
        if (cell.formula === undefined) return
        const origin = originalPosition(sheet.id, cell.row, cell.col)
        const address = formatAddress(origin.row, origin.col)
        const previous = before.get(cellKey(sheet.id, address))
        if (previous !== undefined && previous !== cell.input) {
          let list = writes.get(sheet.id)
          if (!list) writes.set(sheet.id, (list = []))
          const write: CellWrite = { address, input: previous }
          if (cell.arrayRange !== undefined) write.arrayRange = cell.arrayRange
          else if (this.isLegacy(sheet.id, cell.address)) write.legacy = true
          list.push(write)
        }
      })
    }
    return [...writes].map(([sheetId, cells]) => ({ type: 'set-cells' as const, sheetId, cells }))
  }

  private restructure(command: StructuralCommand, result: ApplyResult): InternalCommand[] {
    const sheet = this.sheetById(command.sheetId)
    const edit: StructuralEdit = {
      axis: command.type.endsWith('rows') ? 'rows' : 'columns',
      kind: command.type.startsWith('insert') ? 'insert' : 'delete',
      at: command.at,
      count: command.count,
    }
    const deleting = edit.kind === 'delete'
    const inBand = (record: { row: number; col: number }) => {
      const index = edit.axis === 'rows' ? record.row : record.col
      return index >= edit.at && index < edit.at + edit.count
    }
    const removedCells: CellRecord[] = []
    if (deleting) {
      this.forEachRecord(sheet.id, (record) => {
        if (inBand(record)) removedCells.push(record)
      })
    }
    sortedCells(removedCells)
    const formulasBefore = deleting ? this.formulaInputs() : new Map<string, string>()
    const oldMerges = [...sheet.merges]
    const oldWidths = { ...sheet.columnWidths }

    if (edit.axis === 'rows') {
      if (deleting) this.engine.deleteRows(sheet.name, edit.at, edit.count)
      else this.engine.insertRows(sheet.name, edit.at, edit.count)
    } else if (deleting) this.engine.deleteColumns(sheet.name, edit.at, edit.count)
    else this.engine.insertColumns(sheet.name, edit.at, edit.count)

    for (const maps of [this.styles, this.formats] as Map<string, Map<string, unknown>>[]) {
      const map = maps.get(sheet.id)
      if (!map) continue
      const moved = new Map<string, unknown>()
      for (const [address, value] of map) {
        const { row, col } = parseAddress(address)
        const to = moveAddress(row, col, edit)
        if (to) moved.set(formatAddress(to.row, to.col), value)
      }
      maps.set(sheet.id, moved)
    }
    const legacy = this.legacy.get(sheet.id)
    if (legacy) {
      const moved = new Set<string>()
      for (const address of legacy) {
        const { row, col } = parseAddress(address)
        const to = moveAddress(row, col, edit)
        if (to) moved.add(formatAddress(to.row, to.col))
      }
      this.legacy.set(sheet.id, moved)
    }
    sheet.merges = sheet.merges.flatMap((range) => {
      const moved = moveRangeText(range, edit)
      return moved && moved.includes(':') ? [moved] : []
    })
    if (edit.axis === 'columns') {
      const widths: Record<string, number> = {}
      for (const [col, width] of Object.entries(sheet.columnWidths)) {
        const to = moveAddress(0, Number(col), edit)
        if (to) widths[String(to.col)] = width
      }
      sheet.columnWidths = widths
    }
    this.charts = this.charts.flatMap((chart) => {
      if (chart.sheetId !== sheet.id) return [chart]
      const moved = moveRangeText(chart.dataRange, edit)
      return moved ? [{ ...chart, dataRange: moved }] : []
    })
    result.applied.push({ ...command })

    const opposite = `${deleting ? 'insert' : 'delete'}-${edit.axis}` as StructuralCommand['type']
    const inverse: InternalCommand[] = [{ type: opposite, sheetId: sheet.id, at: edit.at, count: edit.count }]
    if (!deleting) return inverse
    if (removedCells.length > 0) {
      inverse.push({
        type: 'set-cells',
        sheetId: sheet.id,
        cells: removedCells.map((cell) => ({
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
    for (const write of this.rewrittenFormulas(formulasBefore, original)) inverse.push(write)
    for (const range of oldMerges) if (!sheet.merges.includes(moveRangeText(range, edit) ?? '')) inverse.push({ type: 'merge-cells', sheetId: sheet.id, range })
    if (edit.axis === 'columns') {
      for (let col = edit.at; col < edit.at + edit.count; col++) {
        const width = oldWidths[String(col)]
        if (width !== undefined) inverse.push({ type: 'resize-column', sheetId: sheet.id, column: col, width })
      }
    }
    return inverse
  }

  private validateNewSheetName(name: string, except?: string): void {
    const trimmed = name.trim()
    if (trimmed === '' || trimmed.length > 31 || /[:\\/?*[\]]/.test(trimmed) || trimmed.startsWith("'") || trimmed.endsWith("'")) {
      throw spreadsheetErrors.invalidSheetName(
        `Invalid sheet name ${JSON.stringify(name)}: use 1 to 31 characters, none of : \\ / ? * [ ], not starting or ending with '`,
      )
    }
    const clash = this.sheets.find((sheet) => sheet.id !== except && sheet.name.toUpperCase() === trimmed.toUpperCase())
    if (clash) throw spreadsheetErrors.sheetExists(clash.name)
  }

  private addSheet(command: Extract<InternalCommand, { type: 'add-sheet' }>, result: ApplyResult): InternalCommand[] {
    this.validateNewSheetName(command.name)
    if (this.sheets.length >= MAX_SHEETS) throw spreadsheetErrors.tooManySheets()
    if (this.sheets.some((sheet) => sheet.id === command.sheetId)) throw spreadsheetErrors.sheetExists(command.name)
    const index = Math.max(0, Math.min(command.index, this.sheets.length))
    const sheet: SheetRecord = { id: command.sheetId, name: command.name.trim(), columnWidths: { ...(command.columnWidths ?? {}) }, merges: [...(command.merges ?? [])] }
    this.sheets.splice(index, 0, sheet)
    this.stats.set(sheet.id, { cells: 0, formulas: 0 })
    if (index === this.sheets.length - 1) for (const change of this.engine.addSheet(sheet.name)) result.engineChanges.push(change)
    else {
      this.rebuildEngine()
      result.structural = true
    }
    result.applied.push({ ...command, name: sheet.name, index })
    return [{ type: 'delete-sheet', sheetId: sheet.id }]
  }

  private renameSheet(command: Extract<InternalCommand, { type: 'rename-sheet' }>, result: ApplyResult): InternalCommand[] {
    const sheet = this.sheetById(command.sheetId)
    this.validateNewSheetName(command.name, sheet.id)
    const previous = sheet.name
    const name = command.name.trim()
    for (const change of this.engine.renameSheet(previous, name)) result.engineChanges.push(change)
    sheet.name = name
    for (const definition of this.definedNames) if (definition.sheet === previous) definition.sheet = name
    result.applied.push({ ...command, name })
    return [{ type: 'rename-sheet', sheetId: sheet.id, name: previous }]
  }

  private deleteSheet(command: Extract<InternalCommand, { type: 'delete-sheet' }>, result: ApplyResult): InternalCommand[] {
    const sheet = this.sheetById(command.sheetId)
    if (this.sheets.length === 1) throw spreadsheetErrors.lastSheet()
    const index = this.sheets.indexOf(sheet)
    const cells = this.sheetRecords(sheet.id)
    const formulasBefore = this.formulaInputs()
    for (const change of this.engine.removeSheet(sheet.name)) result.engineChanges.push(change)
    this.sheets.splice(index, 1)
    this.styles.delete(sheet.id)
    this.formats.delete(sheet.id)
    this.legacy.delete(sheet.id)
    this.charts = this.charts.filter((chart) => chart.sheetId !== sheet.id)
    this.definedNames = this.definedNames.filter((definition) => definition.sheet !== sheet.name)
    result.applied.push({ ...command })
    const inverse: InternalCommand[] = [
      { type: 'add-sheet', sheetId: sheet.id, name: sheet.name, index, columnWidths: { ...sheet.columnWidths }, merges: [...sheet.merges] },
    ]
    if (cells.length > 0) {
      inverse.push({
        type: 'set-cells',
        sheetId: sheet.id,
        cells: cells.map((cell) => ({
          address: cell.address,
          ...(cell.input !== '' ? { input: cell.input, ...inputKind(cell) } : {}),
          ...(cell.style ? { style: cell.style } : {}),
          ...(cell.userFormat ? { format: cell.userFormat } : {}),
        })),
      })
    }
    for (const write of this.rewrittenFormulas(formulasBefore, (_sheetId, row, col) => ({ row, col }))) inverse.push(write)
    return inverse
  }

  private moveSheet(command: Extract<InternalCommand, { type: 'move-sheet' }>, result: ApplyResult): InternalCommand[] {
    const sheet = this.sheetById(command.sheetId)
    const from = this.sheets.indexOf(sheet)
    const to = Math.max(0, Math.min(command.index, this.sheets.length - 1))
    this.sheets.splice(from, 1)
    this.sheets.splice(to, 0, sheet)
    // The engine keeps sheets in creation order; 3-D references (Sheet1:Sheet3!A1) follow the new order after a rebuild.
    if (from !== to) this.rebuildEngine()
    result.applied.push({ ...command, index: to })
    return [{ type: 'move-sheet', sheetId: sheet.id, index: from }]
  }

  private mergeCells(command: Extract<InternalCommand, { type: 'merge-cells' | 'unmerge-cells' }>, result: ApplyResult): InternalCommand[] {
    const sheet = this.sheetById(command.sheetId)
    const range = tryParseRange(command.range)
    if (!range || !command.range.includes(':')) throw spreadsheetErrors.invalidRange(command.range)
    if (command.type === 'merge-cells') {
      if (sheet.merges.includes(command.range)) return []
      const overlap = sheet.merges.find((existing) => {
        const other = tryParseRange(existing)
        return other !== undefined && rangesOverlap(other, range)
      })
      if (overlap) throw spreadsheetErrors.overlappingMerge(command.range)
      sheet.merges.push(command.range)
      result.applied.push({ ...command })
      return [{ type: 'unmerge-cells', sheetId: sheet.id, range: command.range }]
    }
    if (!sheet.merges.includes(command.range)) return []
    sheet.merges = sheet.merges.filter((existing) => existing !== command.range)
    result.applied.push({ ...command })
    return [{ type: 'merge-cells', sheetId: sheet.id, range: command.range }]
  }

  private replaceWorkbook(command: Extract<InternalCommand, { type: 'replace-workbook' }>, result: ApplyResult, options: ApplyOptions): InternalCommand[] {
    const snapshot = options.snapshots?.get(command.snapshotKey)
    if (!snapshot) throw new Error(`Snapshot ${command.snapshotKey} was not fetched before applying`)
    if (!options.replacedKey) throw new Error('replace-workbook needs the key the replaced state was saved under')
    const next = WorkbookState.fromSnapshot(snapshot, this.revision)
    this.engine = next.engine
    this.sheets = next.sheets
    this.definedNames = next.definedNames
    this.charts = next.charts
    this.styles = next.styles
    this.formats = next.formats
    this.legacy = next.legacy
    result.structural = true
    result.applied.push({ ...command })
    return [{ type: 'replace-workbook', snapshotKey: options.replacedKey }]
  }

  /** A new engine with the sheets in this.sheets order and every input reloaded. */
  private rebuildEngine(): void {
    const engine = new Engine()
    const inputs: CellUpdate[] = []
    for (const sheet of this.sheets) {
      engine.addSheet(sheet.name)
      if (!this.engine.hasSheet(sheet.name)) continue
      const legacy = this.legacy.get(sheet.id)
      this.engine.forEachCell(sheet.name, (cell) => {
        if (cell.input !== '') inputs.push(this.engineUpdate(sheet.name, { address: cell.address, input: cell.input, legacy: legacy?.has(cell.address), arrayRange: cell.arrayRange }))
      })
    }
    this.engine = engine
    this.defineNames()
    engine.loadCells(inputs)
  }
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

/** A record's formula kind as a cell write states it. */
function inputKind(record: Pick<CellRecord, 'legacy' | 'arrayRange'>): Pick<CellWrite, 'legacy' | 'arrayRange'> {
  if (record.arrayRange !== undefined) return { arrayRange: record.arrayRange }
  return record.legacy ? { legacy: true } : {}
}
