/**
 * Loading an xlsx workbook into a calculation engine: every sheet, value and formula (shared formulas
 * expanded, array formulas at their anchor), defined names of workbook and sheet scope, with one
 * recalculation. The values Excel cached are kept beside the engine for comparison.
 */
import { Engine, formatAddress, parseCellInput, translateFormula, tryParseRange } from '@finsheet/formula'
import type { CellUpdate, EngineOptions, Scalar } from '@finsheet/formula'
import { readXlsx } from './read-xlsx.js'
import { cellKey } from '../model/workbook-model.js'
import type { XlsxCell, XlsxWorkbook } from './read-xlsx.js'
import { iterationOf } from '../model/calculation.js'
import type { CalculationSettings } from '../model/calculation.js'
import { externalWorkbooksOf } from '../model/external-links.js'

/** A cell whose value a formula computes: the formula's own cell, or a cell its array formula fills. */
export interface FormulaCellRecord {
  readonly sheet: string
  readonly address: string
  /** The formula with '=' (for a cell filled by an array formula: the anchor's formula). */
  readonly formula: string
  /** The anchor of the array formula that fills this cell, when it is not the formula's own cell. */
  readonly arrayAnchor?: string
  /** The value Excel cached in the file. */
  readonly cached: Scalar
}

export interface LoadedWorkbook {
  readonly engine: Engine
  /** Sheet names in workbook order. */
  readonly sheets: string[]
  /** Every cell whose value comes from a formula, in sheet then row order. */
  readonly formulaCells: FormulaCellRecord[]
  /** Number formats by `Sheet!A1`. */
  readonly formats: Map<string, string>
  /** Defined names and tables that could not be loaded, with the engine's reason. */
  readonly skippedNames: { name: string; sheet?: string; reason: string }[]
  /** Everything read from the file (values, formulas, merges, column widths...). */
  readonly workbook: XlsxWorkbook
  /** The calculation settings the engine runs with: the file's, with the caller's overrides. */
  readonly calculation: CalculationSettings
}

export interface LoadOptions {
  /** Options of the engine to create (its iteration settings come from `calculation`). */
  readonly engine?: Omit<EngineOptions, 'iterative'>
  /** Settings that replace the file's own (the command line's `--iterate`, `--max-iterations`, ...). */
  readonly calculation?: Partial<CalculationSettings>
}


/** Reads an xlsx file (a path or its bytes) into a new engine, recalculated once. */
export async function loadXlsxIntoEngine(source: string | Uint8Array, options: LoadOptions = {}): Promise<LoadedWorkbook> {
  const workbook = await readXlsx(source)
  return loadWorkbookIntoEngine(workbook, options)
}

/** Loads a workbook already read by {@link readXlsx} into a new engine. */
export function loadWorkbookIntoEngine(workbook: XlsxWorkbook, options: LoadOptions = {}): LoadedWorkbook {
  const calculation: CalculationSettings = { ...workbook.calculation, ...options.calculation }
  const engine = new Engine({ ...options.engine, iterative: iterationOf(calculation) })
  const sheets = workbook.sheets.map((sheet) => sheet.name)
  for (const name of sheets) engine.addSheet(name)
  // External references calculate from the values the file cached of the linked workbooks.
  if (workbook.externalLinks.length > 0) engine.setExternalLinks(externalWorkbooksOf(workbook.externalLinks))

  const skippedNames: LoadedWorkbook['skippedNames'] = []
  for (const name of workbook.definedNames) {
    try {
      engine.defineName(name.name, name.formula, name.sheet)
    } catch (error) {
      skippedNames.push({ name: name.name, ...(name.sheet ? { sheet: name.sheet } : {}), reason: (error as Error).message })
    }
  }

  // Tables before cells, so that structured references compile against them.
  for (const table of workbook.tables) {
    try {
      engine.defineTable({ name: table.name, sheet: table.sheet, range: table.range, headerRow: table.headerRow, totalsRow: table.totalsRow, columns: table.columns })
    } catch (error) {
      skippedNames.push({ name: table.name, sheet: table.sheet, reason: (error as Error).message })
    }
  }

  const updates: CellUpdate[] = []
  const formulaCells: FormulaCellRecord[] = []
  const formats = new Map<string, string>()
  for (const sheet of workbook.sheets) {
    const byAddress = new Map<string, XlsxCell>()
    for (const cell of sheet.cells) byAddress.set(cell.address, cell)
    const filledByArray = arrayFilledCells(sheet.cells)

    for (const cell of sheet.cells) {
      if (cell.numberFormat) formats.set(cellKey(sheet.name, cell.address), cell.numberFormat)
      const formula = formulaOf(cell, byAddress)
      if (formula !== undefined) {
        const update = formulaUpdate(sheet.name, cell, formula)
        // A function that reaches outside the workbook keeps what it was saved spilling, not just its first value.
        if (cell.dynamicArray && cell.arrayRange && callsOutside(formula, engine)) update.savedArray = savedArrayOf(cell, byAddress)
        updates.push(update)
        formulaCells.push({ sheet: sheet.name, address: cell.address, formula, cached: cell.value })
        for (const filled of cell.arrayRange ? arrayRangeCells(cell) : []) {
          formulaCells.push({
            sheet: sheet.name,
            address: filled,
            formula,
            arrayAnchor: cell.address,
            cached: byAddress.get(filled)?.value ?? null,
          })
        }
        continue
      }
      // Values inside an array formula's range are its results, not inputs: loading them would block the spill.
      if (filledByArray.has(cell.address)) continue
      updates.push({ sheet: sheet.name, address: cell.address, input: inputOf(cell.value) })
    }
  }
  // A file that asks for a full calculation on opening gets one: its circular references iterate on from
  // the saved values even where those are settled, as they do in Excel.
  engine.loadCells(updates, { recalculateSaved: calculation.fullCalcOnLoad })
  return { engine, sheets, formulaCells, formats, skippedNames, workbook, calculation }
}

/** The formula of a cell with '=': its own, or its shared master's moved to this cell. */
function formulaOf(cell: XlsxCell, byAddress: ReadonlyMap<string, XlsxCell>): string | undefined {
  if (cell.formula !== undefined) return '=' + cell.formula
  if (cell.sharedFrom === undefined) return undefined
  const master = byAddress.get(cell.sharedFrom)
  if (master?.formula === undefined) return undefined
  return translateFormula('=' + master.formula, master.address, cell.address)
}

/**
 * A formula as the engine should run it. A plain formula was saved with the semantics of Excel before
 * dynamic arrays (implicit intersection, no spilling); an array formula is either a dynamic array,
 * which spills, or a legacy one that fills exactly its range. Each starts from the value the file
 * cached, as a circular reference does in Excel when the file opens.
 */
function formulaUpdate(sheet: string, cell: XlsxCell, formula: string): CellUpdate {
  const update: CellUpdate = { sheet, address: cell.address, input: formula, saved: cell.value }
  if (cell.arrayRange === undefined) update.legacy = true
  else if (!cell.dynamicArray) update.arrayRange = cell.arrayRange
  return update
}

/** Whether a formula calls a function whose value comes from outside the workbook (STOCKHISTORY...). */
function callsOutside(formula: string, engine: Engine): boolean {
  const functions = engine.getFunctions()
  for (const match of formula.replace(/"(?:[^"]|"")*"/g, '""').matchAll(/([A-Za-z_][\w.]*)\s*\(/g)) {
    if (functions.get(match[1])?.savedValue !== undefined) return true
  }
  return false
}

/** The values an array formula was saved spilling over its range, row by row. */
function savedArrayOf(cell: XlsxCell, byAddress: ReadonlyMap<string, XlsxCell>): Scalar[][] {
  const range = cell.arrayRange ? tryParseRange(cell.arrayRange) : undefined
  if (!range) return []
  const rows: Scalar[][] = []
  for (let row = range.top; row <= range.bottom; row++) {
    const values: Scalar[] = []
    for (let col = range.left; col <= range.right; col++) values.push(byAddress.get(formatAddress(row, col))?.value ?? null)
    rows.push(values)
  }
  return rows
}

/** The cells of an array formula's range other than its anchor. */
function arrayRangeCells(cell: XlsxCell): string[] {
  const range = cell.arrayRange ? tryParseRange(cell.arrayRange) : undefined
  if (!range) return []
  const cells: string[] = []
  for (let row = range.top; row <= range.bottom; row++) {
    for (let col = range.left; col <= range.right; col++) {
      if (row === cell.row && col === cell.col) continue
      cells.push(formatAddress(row, col))
    }
  }
  return cells
}

function arrayFilledCells(cells: readonly XlsxCell[]): Set<string> {
  const filled = new Set<string>()
  for (const cell of cells) for (const address of cell.arrayRange ? arrayRangeCells(cell) : []) filled.add(address)
  return filled
}

/**
 * A constant as engine input. Text that the engine would read as something else (a number, a date, a
 * formula, TRUE) gets the apostrophe that keeps it text.
 */
function inputOf(value: Scalar): string | number | boolean | null {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value
  if (typeof value !== 'string') return value.code
  const reading = parseCellInput(value)
  return reading.kind === 'value' && reading.value === value ? value : "'" + value
}
