import type { CellPosition, CellRange } from './address'
import { rangeContains } from './address'

function intersects(a: CellRange, b: CellRange): boolean {
  return a.startCol <= b.endCol && a.endCol >= b.startCol && a.startRow <= b.endRow && a.endRow >= b.startRow
}

/**
 * The merged areas of a sheet (from an imported workbook or the Merge button), indexed by row so
 * the grid can ask per frame which merges show and per cell which merge holds it.
 */
export class MergeIndex {
  readonly ranges: readonly CellRange[]
  private readonly byRow = new Map<number, CellRange[]>()

  constructor(ranges: readonly CellRange[]) {
    this.ranges = ranges.filter((r) => r.endCol > r.startCol || r.endRow > r.startRow)
    for (const range of this.ranges) {
      for (let row = range.startRow; row <= range.endRow; row++) {
        const list = this.byRow.get(row)
        if (list) list.push(range)
        else this.byRow.set(row, [range])
      }
    }
  }

  get size(): number {
    return this.ranges.length
  }

  /** The merged area holding the cell, if any. */
  at(pos: CellPosition): CellRange | undefined {
    return this.byRow.get(pos.row)?.find((r) => rangeContains(r, pos))
  }

  /** Whether the cell is hidden under a merge (inside one, not its top-left cell). */
  isCovered(pos: CellPosition): boolean {
    const merge = this.at(pos)
    return merge !== undefined && (merge.startCol !== pos.col || merge.startRow !== pos.row)
  }

  /** The merges that show, at least in part, in the given rows and columns. */
  intersecting(area: CellRange): CellRange[] {
    if (this.ranges.length === 0) return []
    return this.ranges.filter((r) => intersects(r, area))
  }

  /** A selection grown until it covers every merge it touches, as Excel selects. */
  expand(range: CellRange): CellRange {
    if (this.ranges.length === 0) return range
    let current = range
    for (;;) {
      let grown = current
      for (const merge of this.ranges) {
        if (!intersects(merge, grown)) continue
        grown = {
          startCol: Math.min(grown.startCol, merge.startCol),
          startRow: Math.min(grown.startRow, merge.startRow),
          endCol: Math.max(grown.endCol, merge.endCol),
          endRow: Math.max(grown.endRow, merge.endRow),
        }
      }
      if (grown === current || (grown.startCol === current.startCol && grown.startRow === current.startRow && grown.endCol === current.endCol && grown.endRow === current.endRow)) {
        return grown
      }
      current = grown
    }
  }

  /** The cell that stands for a merged area: its top-left; any other cell stands for itself. */
  anchorOf(pos: CellPosition): CellPosition {
    const merge = this.at(pos)
    return merge ? { col: merge.startCol, row: merge.startRow } : pos
  }

  /**
   * One step of the keyboard from `from` by (dCol, dRow): out of a merged area its whole width or
   * height is skipped, and a step into one lands on its top-left cell.
   */
  step(from: CellPosition, dCol: number, dRow: number, clamp: (pos: CellPosition) => CellPosition): CellPosition {
    const here = this.at(from)
    let col = from.col + dCol
    let row = from.row + dRow
    if (here) {
      if (dCol > 0) col = here.endCol + 1
      if (dCol < 0) col = here.startCol - 1
      if (dRow > 0) row = here.endRow + 1
      if (dRow < 0) row = here.startRow - 1
    }
    const target = clamp({ col, row })
    if (here && rangeContains(here, target)) return this.anchorOf(from)
    return this.anchorOf(target)
  }

  /** Whether a new merge would overlap an existing one (which Excel refuses). */
  overlaps(range: CellRange): boolean {
    return this.ranges.some((r) => intersects(r, range))
  }
}

export const NO_MERGES = new MergeIndex([])
