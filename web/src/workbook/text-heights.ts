import type { CellStyle } from '../grid/types'
import { DEFAULT_FONT_SIZE } from '../grid/types'

/** What makes a row taller than the default: wrapped text, or a font larger than the default. */
export function makesRowTaller(style: CellStyle | undefined): boolean {
  return style !== undefined && (style.wrap === true || (style.fontSize ?? DEFAULT_FONT_SIZE) > DEFAULT_FONT_SIZE)
}

/**
 * Rows whose height follows their text, as Excel fits a row that has no height of its own: the cells
 * of a sheet that can make their row taller, by row, and the height each such row needs. A row's own
 * height (dragged, or set from the file) wins over this one.
 */
export class TextHeights {
  /** row → the columns of its cells that can make it taller */
  private readonly cells = new Map<number, Set<number>>()
  private readonly fitted = new Map<number, number>()
  /** moves whenever a fitted height changes, so layouts built from it can tell */
  version = 0

  get heights(): ReadonlyMap<number, number> {
    return this.fitted
  }

  get isEmpty(): boolean {
    return this.cells.size === 0
  }

  clear(): void {
    if (this.fitted.size > 0) this.version++
    this.cells.clear()
    this.fitted.clear()
  }

  /** Notes whether the cell at (row, col) can make its row taller now. */
  mark(row: number, col: number, tall: boolean): void {
    let columns = this.cells.get(row)
    if (tall) {
      if (!columns) this.cells.set(row, (columns = new Set()))
      columns.add(col)
    } else if (columns) {
      columns.delete(col)
      if (columns.size === 0) this.cells.delete(row)
    }
  }

  rows(): number[] {
    return [...this.cells.keys()]
  }

  rowsWithColumn(col: number): number[] {
    const rows: number[] = []
    for (const [row, columns] of this.cells) if (columns.has(col)) rows.push(row)
    return rows
  }

  /** Fits a row again from the columns that can make it taller; `need` is null when the default height holds them. */
  refit(row: number, need: (columns: Iterable<number>) => number | null): void {
    const columns = this.cells.get(row)
    const height = columns ? need(columns) : null
    if (height === (this.fitted.get(row) ?? null)) return
    if (height === null) this.fitted.delete(row)
    else this.fitted.set(row, height)
    this.version++
  }
}
