import type { Node, RefCorner } from '../parser/ast.js'
import type { Scalar, Value } from '../values.js'
import type { EvalContext } from '../evaluator/context.js'
import type { Column, Sheet } from './sheet.js'

/** Calculation states of a formula cell. Anything but CLEAN must be calculated before it is read. */
export const enum CellState {
  Clean = 0,
  Dirty = 1,
  /** Being calculated right now. */
  Evaluating = 2,
  /** Its calculation stopped to let a precedent be calculated first; it is on the scheduler's stack. */
  Waiting = 3,
  /** Part of a cycle under iterative calculation: reads see its latest value. */
  Iterating = 4,
}

export type Evaluator = (ctx: EvalContext) => Value

/** A reference the formula makes, recorded at compile time so the dependency graph can be built. */
export interface StaticCellDependency {
  /** The referenced sheet, or null for the formula's own sheet. */
  sheet: Sheet | null
  ref: RefCorner
}

export interface StaticRangeDependency {
  sheet: Sheet | null
  kind: 'cells' | 'columns' | 'rows'
  start: RefCorner
  end: RefCorner
}

/**
 * A compiled formula shape, shared by every cell whose formula has the same relative form.
 * Nothing in it depends on the position of a particular cell.
 */
export interface CompiledFormula {
  readonly key: string
  readonly ast: Node
  readonly evaluate: Evaluator
  readonly cells: readonly StaticCellDependency[]
  readonly ranges: readonly StaticRangeDependency[]
  /** Upper-case names the formula mentions (defined names and LET variables alike). */
  readonly names: readonly string[]
  /** `A1#` operands: the owner cells whose spill ranges are read. */
  readonly spills: readonly StaticCellDependency[]
  readonly volatile: boolean
  /** The outermost call is SUBTOTAL or AGGREGATE (SUBTOTAL skips such cells). */
  readonly isSubtotal: boolean
  /** Sheet names the formula mentions that do not exist (yet): re-compiled when such a sheet appears. */
  readonly missingSheets: readonly string[]
  /** The number format the outermost function suggests (TODAY → a date format). */
  readonly resultFormat: string | undefined
  /** Upper-case names of the sheets the formula mentions. */
  readonly sheets: readonly string[]
  /** The text did not parse: the cell keeps it and shows #ERROR!. */
  readonly invalid?: boolean
  /** Compiled with pre-dynamic-array semantics (implicit intersection), as loaded from a file. */
  readonly legacy: boolean
  /** Calls a function whose value comes from outside the workbook (see FunctionDefinition.savedValue). */
  readonly external?: boolean
  /** Reads another workbook's cached values: recalculated when the workbook's links change. */
  readonly linksWorkbooks?: boolean
  /** Calls a function that skips hidden rows: recalculated when a sheet's hidden rows change. */
  readonly readsHiddenRows?: boolean
}

/** The array sizes of a formula that returns arrays; most formulas never need one. */
class ArrayExtent {
  /** Rows and columns of the spilled array (1×1 when nothing spills). */
  spillHeight = 1
  spillWidth = 1
  /** The area the formula wanted to spill into when it was blocked (#SPILL!), so unblocking recalculates. */
  blockedHeight = 0
  blockedWidth = 0
  /** A legacy array formula (Ctrl+Shift+Enter) fills exactly this many rows and columns; 0 when dynamic. */
  arrayHeight = 0
  arrayWidth = 0
}

/**
 * A cell holding a formula. Kept small, since a workbook has one per formula and recalculation
 * walks them: array sizes live in an extent allocated only for formulas that return arrays.
 */
export class FormulaCell {
  state: CellState = CellState.Dirty
  /** The calculation round that recorded `previous` (its value before the round), for the change list. */
  loggedEpoch = -1
  previous: Scalar | undefined = undefined
  /** The calculation round that last reported this cell as changed. */
  reportedEpoch = -1
  /** The cell's A1 address, kept once a change list needed it (reset when the cell moves). */
  addressText: string | undefined = undefined
  private extent: ArrayExtent | null = null

  constructor(
    public sheet: Sheet,
    /** The storage column of the cell (it moves with the cell when columns are inserted or deleted). */
    public column: Column,
    public row: number,
    public col: number,
    public compiled: CompiledFormula,
    /** The formula as the user typed it; undefined when it must be printed from the tree. */
    public text: string | undefined,
  ) {}

  private get arrays(): ArrayExtent {
    return (this.extent ??= new ArrayExtent())
  }

  get spillHeight(): number {
    return this.extent === null ? 1 : this.extent.spillHeight
  }

  set spillHeight(value: number) {
    if (value !== 1 || this.extent !== null) this.arrays.spillHeight = value
  }

  get spillWidth(): number {
    return this.extent === null ? 1 : this.extent.spillWidth
  }

  set spillWidth(value: number) {
    if (value !== 1 || this.extent !== null) this.arrays.spillWidth = value
  }

  get blockedHeight(): number {
    return this.extent === null ? 0 : this.extent.blockedHeight
  }

  set blockedHeight(value: number) {
    if (value !== 0 || this.extent !== null) this.arrays.blockedHeight = value
  }

  get blockedWidth(): number {
    return this.extent === null ? 0 : this.extent.blockedWidth
  }

  set blockedWidth(value: number) {
    if (value !== 0 || this.extent !== null) this.arrays.blockedWidth = value
  }

  get arrayHeight(): number {
    return this.extent === null ? 0 : this.extent.arrayHeight
  }

  set arrayHeight(value: number) {
    if (value !== 0 || this.extent !== null) this.arrays.arrayHeight = value
  }

  get arrayWidth(): number {
    return this.extent === null ? 0 : this.extent.arrayWidth
  }

  set arrayWidth(value: number) {
    if (value !== 0 || this.extent !== null) this.arrays.arrayWidth = value
  }

  get spills(): boolean {
    return this.extent !== null && (this.extent.spillHeight > 1 || this.extent.spillWidth > 1)
  }
}
