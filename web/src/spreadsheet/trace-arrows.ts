import type { CellPosition, CellRange } from '../grid/address'
import { cellAddress, rangeAddress } from '../grid/address'
import type { TraceArrow } from '../grid/trace-render'
import type { FormulaSource } from './trace-cells'
import { dependentsOf, precedentsOf } from './trace-cells'

/**
 * Trace Precedents and Trace Dependents, as Excel's Formula Auditing draws them: an arrow from each
 * cell or range a formula reads to the formula. Each click traces one level further; the arrows are
 * derived from the workbook's formulas whenever they are drawn, so they follow formula edits.
 */
export type { TraceArrow }

export interface TraceState {
  sheet: string
  /** formula cells whose precedents are drawn */
  precedentsOf: readonly CellPosition[]
  /** cells whose dependents are drawn */
  dependentsOf: readonly CellPosition[]
  /** the cells the next Trace Precedents click goes on from (the last level's new formula cells) */
  precedentFrontier: readonly CellPosition[]
  dependentFrontier: readonly CellPosition[]
}

/** What tracing reads of the workbook. */
export interface TraceSource extends FormulaSource {
  /** the formula of a cell, '' when it holds none */
  formulaAt(sheet: string, pos: CellPosition): string
  isError(sheet: string, pos: CellPosition): boolean
}

/** A range's formula cells followed one level further are bounded, as a whole-column SUM would hold a million. */
const CELLS_FOLLOWED_PER_RANGE = 500

const same = (a: CellPosition, b: CellPosition) => a.col === b.col && a.row === b.row
const has = (cells: readonly CellPosition[], cell: CellPosition) => cells.some((c) => same(c, cell))

function emptyTrace(sheet: string): TraceState {
  return { sheet, precedentsOf: [], dependentsOf: [], precedentFrontier: [], dependentFrontier: [] }
}

function formulaCellsIn(source: TraceSource, sheet: string, range: CellRange): CellPosition[] {
  const found: CellPosition[] = []
  for (let row = range.startRow; row <= range.endRow && found.length < CELLS_FOLLOWED_PER_RANGE; row++) {
    for (let col = range.startCol; col <= range.endCol && found.length < CELLS_FOLLOWED_PER_RANGE; col++) {
      if (source.formulaAt(sheet, { col, row })) found.push({ col, row })
    }
  }
  return found
}

/**
 * One click of Trace Precedents with `active` selected: the first click draws the arrows into the
 * active cell's formula, each further click on the same cell draws those into the formulas it reached.
 * `added` is 0 when there was nothing further to trace.
 */
export function tracePrecedents(state: TraceState | null, sheet: string, active: CellPosition, source: TraceSource): { state: TraceState; added: number } {
  const base = state && state.sheet === sheet ? state : emptyTrace(sheet)
  const frontier = has(base.precedentsOf, active) ? base.precedentFrontier : [active]
  const traced = [...base.precedentsOf]
  const next: CellPosition[] = []
  for (const cell of frontier) {
    const formula = source.formulaAt(sheet, cell)
    if (!formula || has(traced, cell)) continue
    traced.push(cell)
    for (const read of precedentsOf(formula, sheet, source.sheetNames, source.names)) {
      if (read.sheet !== sheet) continue
      for (const reached of formulaCellsIn(source, sheet, read.range)) if (!has(traced, reached) && !has(next, reached)) next.push(reached)
    }
  }
  return { state: { ...base, precedentsOf: traced, precedentFrontier: next }, added: traced.length - base.precedentsOf.length }
}

/** One click of Trace Dependents with `active` selected, level by level as Trace Precedents. */
export function traceDependents(state: TraceState | null, sheet: string, active: CellPosition, source: TraceSource): { state: TraceState; added: number } {
  const base = state && state.sheet === sheet ? state : emptyTrace(sheet)
  const frontier = has(base.dependentsOf, active) ? base.dependentFrontier : [active]
  const traced = [...base.dependentsOf]
  const next: CellPosition[] = []
  for (const cell of frontier) {
    if (has(traced, cell)) continue
    const readers = dependentsOf(source, sheet, cell)
    if (readers.length === 0) continue
    traced.push(cell)
    for (const reader of readers) {
      const pos = { col: reader.range.startCol, row: reader.range.startRow }
      if (reader.sheet === sheet && !has(traced, pos) && !has(next, pos)) next.push(pos)
    }
  }
  return { state: { ...base, dependentsOf: traced, dependentFrontier: next }, added: traced.length - base.dependentsOf.length }
}

/** The arrows a trace draws on its sheet now, each once: into the traced formulas, out of the traced cells. */
export function traceArrows(state: TraceState, source: TraceSource): TraceArrow[] {
  const arrows = new Map<string, TraceArrow>()
  const add = (arrow: TraceArrow) => {
    const key = `${arrow.from ? rangeAddress(arrow.from) : ''}>${arrow.to ? cellAddress(arrow.to) : ''}>${arrow.otherSheet ?? ''}`
    if (!arrows.has(key)) arrows.set(key, arrow)
  }
  const { sheet } = state
  const errorIn = (range: CellRange) => formulaOrValueError(source, sheet, range)
  for (const cell of state.precedentsOf) {
    const formula = source.formulaAt(sheet, cell)
    if (!formula) continue
    for (const read of precedentsOf(formula, sheet, source.sheetNames, source.names)) {
      if (read.sheet === sheet) add({ from: read.range, to: cell, error: errorIn(read.range) })
      else add({ from: null, to: cell, otherSheet: read.sheet, error: false })
    }
  }
  for (const cell of state.dependentsOf) {
    const from = { startCol: cell.col, startRow: cell.row, endCol: cell.col, endRow: cell.row }
    for (const reader of dependentsOf(source, sheet, cell)) {
      if (reader.sheet === sheet) add({ from, to: { col: reader.range.startCol, row: reader.range.startRow }, error: errorIn(from) })
      else add({ from, to: null, otherSheet: reader.sheet, error: false })
    }
  }
  return [...arrows.values()]
}

function formulaOrValueError(source: TraceSource, sheet: string, range: CellRange): boolean {
  // a large range is judged by its first cells: the arrow's colour is a hint, not an audit
  let looked = 0
  for (let row = range.startRow; row <= range.endRow; row++) {
    for (let col = range.startCol; col <= range.endCol; col++) {
      if (source.isError(sheet, { col, row })) return true
      if (++looked >= CELLS_FOLLOWED_PER_RANGE) return false
    }
  }
  return false
}

/** How an arrow reads aloud, for the list beside the grid: "B2:B4 → B5", "Inputs (another sheet) → C3". */
export function describeArrow(arrow: TraceArrow): string {
  const from = arrow.from ? rangeAddress(arrow.from) : `${arrow.otherSheet} (another sheet)`
  const to = arrow.to ? cellAddress(arrow.to) : `${arrow.otherSheet} (another sheet)`
  return `${from} → ${to}${arrow.error ? ' (error)' : ''}`
}
