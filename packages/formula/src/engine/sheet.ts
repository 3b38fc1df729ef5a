/**
 * Sheet storage: one dense array per column, indexed by row, for values, formula cells and the
 * dependents that read each cell. Dense columns make range reads a tight loop and avoid string keys.
 */
import { printFormula } from '../parser/printer.js'
import { CellError } from '../values.js'
import type { Scalar, SheetView } from '../values.js'
import { CellState } from './formula-cell.js'
import type { CompiledFormula, FormulaCell } from './formula-cell.js'
import type { RangeNode } from '../graph/range-node.js'

/** Something that depends on a cell: a formula, or a range node that covers it. */
export type Dependent = FormulaCell | RangeNode
/** The formulas (or range nodes) reading one cell: none, one, or several. */
export type Slot<T> = T | T[] | undefined

/** Prefix sums of a column from a fixed top row, so that `SUM($A$1:An)` down a column costs O(n) in total. */
export interface PrefixAggregate {
  readonly top: number
  /** The bottom row of the last request; a request for another bottom row starts the prefix sums. */
  lastBottom: number
  /** sums[i] = sum of the numbers in rows top..top+i; valid for i < length. */
  sums: Float64Array
  counts: Uint32Array
  length: number
  /** Index (relative to top) of the first error within the valid part, or -1. */
  firstError: number
}

/**
 * A block's positions by value for exact lookups: numbers and booleans as they are, text lower-cased
 * (lookups ignore case). Built on the block's second lookup while its column is unchanged: one MATCH
 * scans and stops at its value, a thousand share one pass.
 */
interface LookupIndex {
  uses: number
  positions: Map<number | string | boolean, { first: number; last: number }> | null
}

/** Something derived from a column's values, with the column version it was derived from. */
interface Derived<T> {
  version: number
  value: T
}

function lookupKey(value: Scalar | undefined): number | string | boolean | undefined {
  switch (typeof value) {
    case 'number':
    case 'boolean':
      return value
    case 'string':
      return value.toLowerCase()
    default:
      return undefined
  }
}

/** Blocks of fewer rows are summed directly, without prefix sums (see Sheet.columnAggregate). */
const SHORT_BLOCK_ROWS = 16

/** The tallest block whose cells a column keeps as one array (see Sheet.columnCells). */
const SHARED_BLOCK_ROWS = 262_144

/** How many bytes of criteria masks a column keeps (see Sheet.matchMask). */
const MASK_BYTES_PER_COLUMN = 16 * 1024 * 1024

/** The rows of a column where formulas of one shape may stand (see Column.shapeRows). */
export interface ShapeRows {
  readonly compiled: CompiledFormula
  top: number
  bottom: number
}

/** A column with formulas of more shapes than this lists none (see Column.shapeRows). */
const LISTED_SHAPES = 16

export class Column {
  /** Calculated values by row; `undefined` is an empty cell. */
  values: (Scalar | undefined)[] = []
  /** Formula cells by row (allocated with the first formula). */
  formulas: (FormulaCell | undefined)[] | null = null
  /**
   * The shapes of the column's formulas, each with rows that hold every formula of that shape: a
   * structural edit looks only at the rows where a shape's references cross the change. Rows grow
   * with formulas written and never shrink (a removed formula may leave its shape listed); null once
   * the column has held more than LISTED_SHAPES shapes.
   */
  shapeRows: ShapeRows[] | null = []
  /** Formulas that read each row directly. */
  dependents: Slot<FormulaCell>[] | null = null
  /** Range nodes that cover each row (kept apart so that walking formulas needs no type checks). */
  rangeDependents: Slot<RangeNode>[] | null = null
  /** Tall range nodes over this column (see RangeNode.tall), found by their bounds. */
  tallRanges: RangeNode[] | null = null
  /** What the user typed, where it differs from how the value prints ('15%', '1,000', 'TRUE'). */
  inputs: Map<number, string> | null = null
  /** Number formats suggested by what was typed ('15%' → '0%'). */
  formats: Map<number, string> | null = null
  /** Formula cells of this column that are not CLEAN; reads check states only when this is non-zero. */
  pendingFormulas = 0
  /** Owners of spilled values by row. */
  spilledFrom: Map<number, FormulaCell> | null = null
  prefixes: PrefixAggregate[] | null = null
  /** Counts writes to `values`, so that what was derived from them can tell it is still current. */
  version = 0
  /** Which rows of a block meet a criteria (SUMIFS and friends), by block and criteria. */
  masks: Map<string, Derived<Uint8Array>> | null = null
  /** Where each value first and last occurs in a block (exact lookups), by block. */
  lookups: Map<string, Derived<LookupIndex>> | null = null
  /** A block's cells as one array (operators over ranges), by block. */
  blocks: Map<string, Derived<readonly Scalar[]>> | null = null

  /**
   * What `make` derives from the values under `key`, kept in `cache` until the values are written again;
   * a cache holding `limit` entries starts over.
   */
  current<T>(cache: Map<string, Derived<T>>, key: string, limit: number, make: () => T): T {
    const kept = cache.get(key)
    if (kept !== undefined && kept.version === this.version) return kept.value
    if (cache.size >= limit) cache.clear()
    const value = make()
    cache.set(key, { version: this.version, value })
    return value
  }

  /**
   * Calls `visit` with each value of rows `top` to `bottom` that a formula reads as not empty, and its
   * offset from `top`, until `visit` returns false (then answers false). A formula reads the cells its
   * own previous array spilled into as empty (see read).
   */
  forEachReadable(top: number, bottom: number, visit: (value: Scalar, offset: number) => boolean | void): boolean {
    const values = this.values
    const end = Math.min(bottom, values.length - 1)
    const spilledFrom = this.spilledFrom
    for (let row = top; row <= end; row++) {
      const value = values[row]
      if (value === undefined) continue
      if (spilledFrom !== null && spilledFrom.get(row)?.state === CellState.Evaluating) continue
      if (visit(value, row - top) === false) return false
    }
    return true
  }

  /** Records that a formula of the shape stands at the row (see shapeRows). */
  noteShape(compiled: CompiledFormula, row: number): void {
    const list = this.shapeRows
    if (list === null) return
    for (let i = 0; i < list.length; i++) {
      const entry = list[i]
      if (entry.compiled !== compiled) continue
      if (row < entry.top) entry.top = row
      else if (row > entry.bottom) entry.bottom = row
      return
    }
    if (list.length >= LISTED_SHAPES) this.shapeRows = null
    else list.push({ compiled, top: row, bottom: row })
  }

  /** Whether a range node reads the row: through its edge in the row, or as a tall range over it. */
  isRangeRead(row: number): boolean {
    if (this.rangeDependents !== null && this.rangeDependents[row] !== undefined) return true
    const tall = this.tallRanges
    if (tall === null) return false
    for (let i = 0; i < tall.length; i++) if (row >= tall[i].top && row <= tall[i].bottom) return true
    return false
  }

  /** Forgets cached aggregates that include `row`. */
  invalidateFrom(row: number): void {
    const prefixes = this.prefixes
    if (prefixes === null) return
    for (const prefix of prefixes) {
      const index = row - prefix.top
      if (index < prefix.length && index >= 0) {
        prefix.length = index
        if (prefix.firstError >= index) prefix.firstError = -1
      }
    }
  }
}

/** Raised by a read that finds formula cells not calculated yet; the scheduler calculates them first. */
export interface CalculationGuard {
  /** Reports cells that must be calculated before the current formula can continue; throws. */
  need(cells: FormulaCell[]): never
  /** The formula being calculated right now, if any. */
  readonly evaluating: FormulaCell | null
}

export class Sheet implements SheetView {
  columns: (Column | undefined)[] = []
  /** Formula cells whose arrays spill or were blocked, for spill collision checks. */
  readonly spillOwners = new Set<FormulaCell>()
  /** Range nodes over this sheet too large for per-cell edges, found by a containment check. */
  wideRanges: RangeNode[] = []
  /** How each row is hidden (see hidden-rows.ts), or null when none is. */
  hiddenRowFlags: Uint8Array | null = null
  /** Broad range nodes by each of their own rows (see RangeNode.broad), found by their columns. */
  rowRanges: Slot<RangeNode>[] = []

  constructor(
    readonly id: number,
    public name: string,
    private readonly guard: CalculationGuard,
  ) {}

  column(col: number): Column {
    let column = this.columns[col]
    if (column === undefined) {
      column = new Column()
      this.columns[col] = column
    }
    return column
  }

  read(row: number, col: number): Scalar {
    const column = this.columns[col]
    if (column === undefined) return null
    if (column.pendingFormulas !== 0) {
      const formula = column.formulas?.[row]
      if (formula !== undefined && formula.state !== CellState.Clean && formula.state !== CellState.Iterating) {
        this.guard.need([formula])
      }
    }
    if (column.spilledFrom !== null) {
      const owner = column.spilledFrom.get(row)
      if (owner !== undefined && owner.state !== CellState.Clean && owner.state !== CellState.Iterating) {
        // A formula reads the cells its own previous array spilled into as empty: it is replacing them.
        if (owner.state === CellState.Evaluating) return null
        this.guard.need([owner])
      }
    }
    const value = column.values[row]
    return value === undefined ? null : value
  }

  /** Whether a broad range node reads the cell (see RangeNode.broad). */
  isReadAcross(row: number, col: number): boolean {
    if (row >= this.rowRanges.length) return false
    const slot = this.rowRanges[row]
    if (slot === undefined) return false
    if (!Array.isArray(slot)) return col >= slot.left && col <= slot.right
    for (let i = 0; i < slot.length; i++) if (col >= slot[i].left && col <= slot[i].right) return true
    return false
  }

  /** Throws a need for every uncalculated formula (or spill owner) in the block. */
  ensureCalculated(top: number, left: number, bottom: number, right: number): void {
    let pending: FormulaCell[] | undefined
    const lastCol = Math.min(right, this.columns.length - 1)
    for (let col = left; col <= lastCol; col++) {
      const column = this.columns[col]
      if (column === undefined) continue
      if (column.pendingFormulas !== 0 && column.formulas !== null && !this.onlyPendingOutside(column, top, bottom)) {
        const formulas = column.formulas
        const end = Math.min(bottom, formulas.length - 1)
        for (let row = top; row <= end; row++) {
          const formula = formulas[row]
          if (formula !== undefined && formula.state !== CellState.Clean && formula.state !== CellState.Iterating) {
            ;(pending ??= []).push(formula)
          }
        }
      }
      if (column.spilledFrom !== null) {
        for (const [row, owner] of column.spilledFrom) {
          if (row < top || row > bottom) continue
          const state = owner.state
          if (state !== CellState.Clean && state !== CellState.Iterating && state !== CellState.Evaluating) {
            ;(pending ??= []).push(owner)
          }
        }
      }
    }
    if (pending !== undefined) this.guard.need(pending)
  }

  /**
   * Whether the column's one uncalculated formula is the one being calculated, outside rows top..bottom:
   * a column total reading the cells above it then skips checking each of them.
   */
  private onlyPendingOutside(column: Column, top: number, bottom: number): boolean {
    if (column.pendingFormulas !== 1) return false
    const current = this.guard.evaluating
    return current !== null && current.column === column && (current.row < top || current.row > bottom)
  }

  forEachInBlock(
    top: number,
    left: number,
    bottom: number,
    right: number,
    visit: (value: Scalar, row: number, col: number) => boolean | void,
  ): void {
    this.ensureCalculated(top, left, bottom, right)
    const lastCol = Math.min(right, this.columns.length - 1)
    for (let col = left; col <= lastCol; col++) {
      const column = this.columns[col]
      if (column === undefined) continue
      if (!column.forEachReadable(top, bottom, (value, offset) => visit(value, top + offset, col))) return
    }
  }

  usedRowEnd(left: number, right: number): number {
    let end = 0
    const lastCol = Math.min(right, this.columns.length - 1)
    for (let col = left; col <= lastCol; col++) {
      const column = this.columns[col]
      if (column === undefined) continue
      let length = column.values.length
      while (length > end && column.values[length - 1] === undefined) length--
      if (length > end) end = length
      if (column.formulas !== null && column.formulas.length > end) end = column.formulas.length
    }
    return end
  }

  usedColEnd(top: number, bottom: number): number {
    for (let col = this.columns.length - 1; col >= 0; col--) {
      const column = this.columns[col]
      if (column === undefined) continue
      const end = Math.min(bottom, column.values.length - 1)
      for (let row = top; row <= end; row++) if (column.values[row] !== undefined) return col + 1
      if (column.formulas !== null) {
        const formulaEnd = Math.min(bottom, column.formulas.length - 1)
        for (let row = top; row <= formulaEnd; row++) if (column.formulas[row] !== undefined) return col + 1
      }
    }
    return 0
  }

  formulaAt(row: number, col: number): FormulaCell | undefined {
    return this.columns[col]?.formulas?.[row]
  }

  isSubtotalCell(row: number, col: number): boolean {
    return this.formulaAt(row, col)?.compiled.isSubtotal === true
  }

  hiddenRows(): Uint8Array | null {
    return this.hiddenRowFlags
  }

  hasFormula(row: number, col: number): boolean {
    return this.formulaAt(row, col) !== undefined
  }

  /**
   * The formula of a cell as FORMULATEXT shows it: an array formula entered with Ctrl+Shift+Enter in
   * braces, for every cell of its range; a dynamic array's formula only in its own cell.
   */
  formulaText(row: number, col: number): string | undefined {
    let formula = this.formulaAt(row, col)
    if (formula === undefined) {
      const owner = this.columns[col]?.spilledFrom?.get(row)
      if (owner !== undefined && owner.arrayHeight > 0) formula = owner
    }
    if (formula === undefined) return undefined
    const text = formulaTextOf(formula)
    return formula.arrayHeight > 0 ? `{${text}}` : text
  }

  /**
   * Sum and count of the numbers of a block and its first error (column by column), as SUM, COUNT and
   * AVERAGE see a range. Uncalculated formulas in the block are calculated first.
   */
  aggregateNumbers(top: number, left: number, bottom: number, right: number): { sum: number; count: number; error: CellError | null } {
    this.ensureCalculated(top, left, bottom, right)
    let sum = 0
    let count = 0
    const lastCol = Math.min(right, this.columns.length - 1)
    if (top === bottom) {
      // One row across columns (a row total): read each column's cell, building nothing per column.
      for (let col = left; col <= lastCol; col++) {
        const column = this.columns[col]
        if (column === undefined) continue
        if (column.spilledFrom !== null) {
          const part = this.columnAggregate(col, top, bottom)
          if (part.error !== null) return { sum: 0, count: 0, error: part.error }
          sum += part.sum
          count += part.count
          continue
        }
        const value = column.values[top]
        if (typeof value === 'number') {
          sum += value
          count++
        } else if (value instanceof CellError) return { sum: 0, count: 0, error: value }
      }
      return { sum, count, error: null }
    }
    for (let col = left; col <= lastCol; col++) {
      const part = this.columnAggregate(col, top, bottom)
      if (part.error !== null) return { sum: 0, count: 0, error: part.error }
      sum += part.sum
      count += part.count
    }
    return { sum, count, error: null }
  }

  /**
   * Sum and count of one column's numbers in rows top..bottom. A second request from the same top row
   * with another bottom row (running totals filled down) builds prefix sums, so that every later
   * request costs O(1) plus the rows added since.
   */
  private columnAggregate(col: number, top: number, bottom: number): { sum: number; count: number; error: CellError | null } {
    const column = this.columns[col]
    if (column === undefined) return EMPTY_AGGREGATE
    const values = column.values
    const last = Math.min(bottom, values.length - 1)
    if (last < top) return EMPTY_AGGREGATE
    if (column.spilledFrom !== null) {
      // Spilled values may belong to the formula being calculated, which reads them as empty.
      let sum = 0
      let count = 0
      let error: CellError | null = null
      this.forEachInBlock(top, col, last, col, (value) => {
        if (typeof value === 'number') {
          sum += value
          count++
        } else if (value instanceof CellError) {
          error = value
          return false
        }
      })
      return error === null ? { sum, count, error } : { sum: 0, count: 0, error }
    }
    // A few cells are summed directly: a SUM across a row reads one cell of each column, and prefix
    // sums kept for each of thousands of rows would be searched on every read.
    if (last - top < SHORT_BLOCK_ROWS) return directAggregate(values, top, last)
    let prefix: PrefixAggregate | undefined
    if (column.prefixes !== null) {
      for (const candidate of column.prefixes) if (candidate.top === top) prefix = candidate
    }
    if (prefix === undefined) {
      ;(column.prefixes ??= []).push({
        top,
        lastBottom: last,
        sums: new Float64Array(0),
        counts: new Uint32Array(0),
        length: 0,
        firstError: -1,
      })
      return directAggregate(values, top, last)
    }
    if (prefix.sums.length === 0 && prefix.lastBottom === last) return directAggregate(values, top, last)
    prefix.lastBottom = last
    const needed = last - top + 1
    if (prefix.sums.length < needed) {
      const capacity = Math.max(needed, Math.min(values.length - top, prefix.sums.length * 2 + 16))
      const sums = new Float64Array(capacity)
      sums.set(prefix.sums.subarray(0, prefix.length))
      const counts = new Uint32Array(capacity)
      counts.set(prefix.counts.subarray(0, prefix.length))
      prefix.sums = sums
      prefix.counts = counts
    }
    if (prefix.length < needed) {
      let sum = prefix.length > 0 ? prefix.sums[prefix.length - 1] : 0
      let count = prefix.length > 0 ? prefix.counts[prefix.length - 1] : 0
      const sums = prefix.sums
      const counts = prefix.counts
      for (let i = prefix.length; i < needed; i++) {
        const value = values[top + i]
        if (typeof value === 'number') {
          sum += value
          count++
        } else if (value instanceof CellError && prefix.firstError < 0) {
          prefix.firstError = i
        }
        sums[i] = sum
        counts[i] = count
      }
      prefix.length = needed
    }
    if (prefix.firstError >= 0 && prefix.firstError < needed) {
      return { sum: 0, count: 0, error: values[top + prefix.firstError] as CellError }
    }
    return { sum: prefix.sums[needed - 1], count: prefix.counts[needed - 1], error: null }
  }

  /** Stores a value (undefined to empty the cell) and forgets aggregates that included it. */
  writeValue(row: number, col: number, value: Scalar | undefined): void {
    const column = this.column(col)
    column.values[row] = value
    column.version++
    if (column.prefixes !== null) column.invalidateFrom(row)
  }

  /**
   * The position (from `top`) of the first, or with `reverse` the last, cell of a one-column block equal
   * to `lookup` as exact lookups compare (text ignoring case, no wildcards), -1 when none is; undefined
   * when the caller should scan (the block's first lookup since the column changed, or a lookup value
   * other than a number, text or boolean).
   */
  exactPosition(top: number, col: number, bottom: number, lookup: Scalar, reverse: boolean): number | undefined {
    const key = lookupKey(lookup)
    if (key === undefined) return undefined
    this.ensureCalculated(top, col, bottom, col)
    const column = this.columns[col]
    if (column === undefined) return -1
    const index = column.current((column.lookups ??= new Map()), `${top}:${bottom}`, 8, (): LookupIndex => ({ uses: 0, positions: null }))
    if (index.positions === null) {
      if (++index.uses < 2) return undefined
      const positions = new Map<number | string | boolean, { first: number; last: number }>()
      column.forEachReadable(top, bottom, (value, offset) => {
        const valueKey = lookupKey(value)
        if (valueKey === undefined) return
        const found = positions.get(valueKey)
        if (found === undefined) positions.set(valueKey, { first: offset, last: offset })
        else found.last = offset
      })
      index.positions = positions
    }
    const found = index.positions.get(key)
    if (found === undefined) return -1
    return reverse ? found.last : found.first
  }

  /**
   * The cells of a one-column block as an array, empty cells null, shared (read-only) by every formula
   * that reads the block while its column is unchanged: two hundred SUMPRODUCTs multiplying by one
   * amount column read it once. Undefined for blocks too tall to keep.
   */
  columnCells(top: number, col: number, bottom: number): readonly Scalar[] | undefined {
    if (bottom - top + 1 > SHARED_BLOCK_ROWS) return undefined
    this.ensureCalculated(top, col, bottom, col)
    const column = this.columns[col]
    const empty = () => new Array<Scalar>(bottom - top + 1).fill(null)
    if (column === undefined) return empty()
    return column.current((column.blocks ??= new Map()), `${top}:${bottom}`, 4, () => {
      const cells = empty()
      column.forEachReadable(top, bottom, (value, offset) => {
        cells[offset] = value
      })
      return cells
    })
  }

  /**
   * Whether each row of a one-column block meets a criteria (1) or not (0), from `top` to the last row
   * that holds a value; rows below it are empty. Many SUMIFS over the same column with the same criteria
   * share one pass, kept until the column is written again. `criteria` names what `matches` tests.
   */
  matchMask(top: number, col: number, bottom: number, criteria: string, matches: (value: Scalar) => boolean): Uint8Array {
    this.ensureCalculated(top, col, bottom, col)
    const column = this.columns[col]
    if (column === undefined) return new Uint8Array(0)
    const rows = Math.max(0, Math.min(bottom, column.values.length - 1) - top + 1)
    // At most 256 criteria and about 16 MB per column: a million-row column holds 16 masks.
    const limit = Math.min(256, Math.max(1, Math.floor(MASK_BYTES_PER_COLUMN / Math.max(1, rows))))
    return column.current((column.masks ??= new Map()), `${top}:${bottom}:${criteria}`, limit, () => {
      const mask = new Uint8Array(rows).fill(matches(null) ? 1 : 0)
      column.forEachReadable(top, bottom, (value, offset) => {
        mask[offset] = matches(value) ? 1 : 0
      })
      return mask
    })
  }
}

const EMPTY_AGGREGATE = { sum: 0, count: 0, error: null }

function directAggregate(
  values: (Scalar | undefined)[],
  top: number,
  last: number,
): { sum: number; count: number; error: CellError | null } {
  let sum = 0
  let count = 0
  for (let row = top; row <= last; row++) {
    const value = values[row]
    if (typeof value === 'number') {
      sum += value
      count++
    } else if (value instanceof CellError) {
      return { sum: 0, count: 0, error: value }
    }
  }
  return { sum, count, error: null }
}

/** The formula text a cell shows: what was typed, or the tree printed for its position. */
export function formulaTextOf(formula: FormulaCell): string {
  return formula.text ?? printFormula(formula.compiled.ast, formula.row, formula.col)
}
