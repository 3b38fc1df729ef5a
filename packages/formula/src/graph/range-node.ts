import type { Dependent, Sheet } from '../engine/sheet.js'

/**
 * A range that formulas read, shared by every formula that reads exactly that range. Cells of the
 * range list the node among their dependents, so a change to a cell reaches the formulas through it.
 *
 * Ranges with the same top row and columns form a chain ordered by bottom row: a node covers only the
 * rows below its smaller neighbour and depends on that neighbour for the rest. `SUM($A$1:An)` filled
 * down n rows therefore needs O(n) edges instead of O(n²).
 *
 * Ranges too large for per-cell edges (whole columns and rows) are "wide": they keep no cell edges and
 * are found by a containment check instead. Ranges whose own rows are many (a column total) are "tall":
 * each of their columns lists them once rather than holding an edge in every row.
 */
export class RangeNode {
  /** Formulas reading the range, and larger nodes of the chain that build on it. */
  dependents: Dependent[] = []
  /** The recalculation epoch in which the dependents were last marked dirty. */
  markedEpoch = -1
  /** The next smaller node of the chain; rows up to its bottom are covered through it. */
  smaller: RangeNode | null = null
  /**
   * Its own rows are too many for an edge per cell: each of its columns lists it instead
   * (Column.tallRanges), and a changed cell finds it by its bounds.
   */
  tall = false
  /**
   * Its own rows are few but its columns many (a row total): each own row of the sheet lists it instead
   * (Sheet.rowRanges), and a changed cell finds it by its columns.
   */
  broad = false

  constructor(
    readonly sheet: Sheet,
    /** The bounds move with the cells when rows or columns are inserted or deleted before them. */
    public top: number,
    public left: number,
    public bottom: number,
    public right: number,
    readonly wide: boolean,
  ) {}

  contains(row: number, col: number): boolean {
    return row >= this.top && row <= this.bottom && col >= this.left && col <= this.right
  }

  /** First row this node has its own cell edges for (rows above are covered by `smaller`). */
  get ownTop(): number {
    return this.smaller === null ? this.top : this.smaller.bottom + 1
  }
}
