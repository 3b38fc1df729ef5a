/**
 * An open workbook in the service: the shared workbook model, whose change-log commands name sheets
 * by id, plus what only the service keeps: how many cells and formulas each sheet holds as stored (what
 * the engine cache's memory bound counts).
 */
import { storedIterationOptions, WorkbookModel, type CellSource, type ChartRecord, type DefinedNameRecord, type ExternalLinkRecord, type ModelOptions, type SheetRecord, type TableRecord, type WorkbookAssembly } from '@finsheet/workbook'
import type { CellRecord } from '@finsheet/workbook'
import type { IterationLimits } from '@finsheet/contracts'
import type { CellInputValue, CellUpdate } from '@finsheet/formula'
import type { SheetStats, WorkbookDoc } from '../storage/documents.js'
import type { SheetLayout } from '../storage/sheet-layout.js'

export { cellKey, splitKey } from '@finsheet/workbook'
export type { ApplyResult, InputChange, CellExtras, CellParts, CellSource } from '@finsheet/workbook'

const BY_ID: ModelOptions = { refs: 'id' }

/** The model options of a workbook as stored: by id, iterating within its limits or not. */
export function calculationOptions(iterative: boolean | undefined, limits?: IterationLimits): ModelOptions {
  return { ...BY_ID, ...storedIterationOptions(iterative, limits) }
}

export class WorkbookState extends WorkbookModel {
  /** Cells and formulas per sheet as stored. */
  private stats = new Map<string, SheetStats>()
  /** Where the store keeps the rows and columns of sheets whose rows or columns moved (see sheet-layout.ts). */
  layouts: Record<string, SheetLayout> = {}

  constructor(parts: ConstructorParameters<typeof WorkbookModel>[0] = {}, options: ModelOptions = BY_ID) {
    super(parts, { ...options, refs: 'id' })
  }

  /** An open workbook from its stored document and cells. */
  static load(doc: Pick<WorkbookDoc, 'revision' | 'sheets' | 'definedNames' | 'charts' | 'tables' | 'iterativeCalculation' | 'iterationLimits' | 'externalLinks' | 'layouts'>, cells: Iterable<CellSource & Pick<CellRecord, 'value'>>): WorkbookState {
    const counted = new Map<string, SheetStats>()
    function* counting(): Generator<CellSource> {
      for (const cell of cells) {
        count(counted, cell.sheetId, cell.input, cell.value ?? null)
        yield cell
      }
    }
    const state = WorkbookState.build(
      { revision: doc.revision, sheets: doc.sheets, definedNames: doc.definedNames, ...(doc.tables ? { tables: doc.tables } : {}), charts: doc.charts, ...(doc.externalLinks ? { externalLinks: doc.externalLinks } : {}), cells: counting() },
      calculationOptions(doc.iterativeCalculation, doc.iterationLimits),
    )
    state.stats = counted
    state.layouts = { ...doc.layouts }
    return state
  }

  /**
   * A workbook assembled from parts as they arrive (an import), counting the inputs until its blocks
   * are written and counted.
   */
  static assemble(parts: {
    revision: number
    sheets: SheetRecord[]
    definedNames: DefinedNameRecord[]
    tables?: TableRecord[]
    charts?: ChartRecord[]
    iterativeCalculation?: boolean
    externalLinks?: readonly ExternalLinkRecord[]
    extras: () => Iterable<CellSource>
  }): WorkbookAssembly<WorkbookState> {
    const ids = new Map(parts.sheets.map((sheet) => [sheet.name, sheet.id]))
    const counted = new Map<string, SheetStats>()
    const assembly = WorkbookState.beginAssembly(parts, calculationOptions(parts.iterativeCalculation))
    return {
      add(updates: readonly CellUpdate[]) {
        for (const update of updates) count(counted, ids.get(update.sheet) as string, typeof update.input === 'string' ? update.input : '1', null)
        assembly.add(updates)
      },
      addAt(sheet: string, rows: ArrayLike<number>, cols: ArrayLike<number>, inputs: readonly CellInputValue[]) {
        const sheetId = ids.get(sheet) as string
        for (const input of inputs) count(counted, sheetId, typeof input === 'string' ? input : '1', null)
        assembly.addAt(sheet, rows, cols, inputs)
      },
      finish() {
        const state = assembly.finish()
        state.stats = counted
        return state
      },
    }
  }

  protected override contentCount(sheetId: string): number {
    const stats = this.stats.get(sheetId)
    return stats ? stats.cells : super.contentCount(sheetId)
  }

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
}

function count(stats: Map<string, SheetStats>, sheetId: string, input: string, value: unknown): void {
  let counts = stats.get(sheetId)
  if (!counts) stats.set(sheetId, (counts = { cells: 0, formulas: 0 }))
  if (input !== '' || value !== null) counts.cells++
  if (input.startsWith('=')) counts.formulas++
}
