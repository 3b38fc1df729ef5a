/** Spec 1 §2 and §9: cell minimum width 80 px, row header 50 px. */
export const MIN_COLUMN_WIDTH = 80
export const DEFAULT_COLUMN_WIDTH = 100
export const ROW_HEADER_WIDTH = 50
export const COLUMN_HEADER_HEIGHT = 24
export const ROW_HEIGHT = 24
/** Spec 1 §2: horizontal wheel scrolling is doubled. */
export const HORIZONTAL_WHEEL_FACTOR = 2

/**
 * Column positions for a sheet whose columns mostly have the default width: a sorted list of the
 * columns with their own width lets offsets and hit tests run in O(log k) for k resized columns,
 * so 16,384 columns cost nothing until someone resizes them.
 */
export class ColumnLayout {
  readonly count: number
  private readonly defaultWidth: number
  /** resized columns in ascending order, with the total extra width up to and including each */
  private readonly custom: { col: number; width: number; extraThrough: number }[]

  constructor(count: number, widths: ReadonlyMap<number, number> = new Map(), defaultWidth = DEFAULT_COLUMN_WIDTH) {
    this.count = count
    this.defaultWidth = defaultWidth
    let extra = 0
    this.custom = [...widths.entries()]
      .filter(([col]) => col >= 0 && col < count)
      .sort((a, b) => a[0] - b[0])
      .map(([col, width]) => {
        extra += width - defaultWidth
        return { col, width, extraThrough: extra }
      })
  }

  width(col: number): number {
    const i = this.indexOf(col)
    return i >= 0 && this.custom[i].col === col ? this.custom[i].width : this.defaultWidth
  }

  /** The x offset of the left edge of `col`, from the left edge of column A. */
  offset(col: number): number {
    const i = this.lastCustomBefore(col)
    return col * this.defaultWidth + (i >= 0 ? this.custom[i].extraThrough : 0)
  }

  get totalWidth(): number {
    return this.offset(this.count)
  }

  /** The column under x (clamped to the sheet). */
  columnAt(x: number): number {
    if (x <= 0) return 0
    let lo = 0
    let hi = this.count - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.offset(mid) <= x) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  /** index in `custom` of the entry for `col`, or of the last entry before it */
  private indexOf(col: number): number {
    let lo = 0
    let hi = this.custom.length - 1
    let found = -1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (this.custom[mid].col <= col) {
        found = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    return found
  }

  private lastCustomBefore(col: number): number {
    const i = this.indexOf(col - 1)
    return i
  }
}

export interface Viewport {
  scrollLeft: number
  scrollTop: number
  /** the size of the cell area, without the headers */
  width: number
  height: number
}

export interface VisibleCells {
  firstRow: number
  lastRow: number
  firstCol: number
  lastCol: number
}

/** The rows and columns any part of which shows in the viewport. */
export function visibleCells(viewport: Viewport, layout: ColumnLayout, rowCount: number, rowHeight = ROW_HEIGHT): VisibleCells {
  const firstRow = Math.min(Math.max(0, Math.floor(viewport.scrollTop / rowHeight)), Math.max(0, rowCount - 1))
  const lastRow = Math.min(rowCount - 1, Math.floor((viewport.scrollTop + viewport.height - 1) / rowHeight))
  const firstCol = layout.columnAt(viewport.scrollLeft)
  const lastCol = layout.columnAt(viewport.scrollLeft + viewport.width - 1)
  return { firstRow, lastRow: Math.max(firstRow, lastRow), firstCol, lastCol: Math.max(firstCol, lastCol) }
}

/**
 * The scroll position that brings a cell fully into view, moving as little as possible;
 * unchanged when it already shows.
 */
export function scrollToReveal(
  viewport: Viewport,
  layout: ColumnLayout,
  col: number,
  row: number,
  rowHeight = ROW_HEIGHT,
): { scrollLeft: number; scrollTop: number } {
  let { scrollLeft, scrollTop } = viewport
  const top = row * rowHeight
  const bottom = top + rowHeight
  if (top < scrollTop) scrollTop = top
  else if (bottom > scrollTop + viewport.height) scrollTop = bottom - viewport.height
  const left = layout.offset(col)
  const right = left + layout.width(col)
  if (left < scrollLeft) scrollLeft = left
  else if (right > scrollLeft + viewport.width) scrollLeft = Math.min(left, right - viewport.width)
  return { scrollLeft: Math.max(0, scrollLeft), scrollTop: Math.max(0, scrollTop) }
}

/** Zoom as Excel offers it: 50% to 200%, in steps of 10%. */
export const MIN_ZOOM = 0.5
export const MAX_ZOOM = 2
export const ZOOM_STEP = 0.1
export function clampZoom(zoom: number): number {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.round(zoom * 100) / 100))
}

/**
 * Where the rows and columns of a sheet are, with frozen panes: the first `frozenRows` rows and
 * `frozenColumns` columns stay put while the rest scrolls under them. Positions are relative to the
 * top-left corner of the cell area (below and right of the headers), in unzoomed CSS pixels; hidden
 * rows and columns have no size.
 */
export class SheetGeometry {
  readonly cols: ColumnLayout
  readonly rows: ColumnLayout
  readonly frozenColumns: number
  readonly frozenRows: number
  /** the size of the frozen area */
  readonly frozenWidth: number
  readonly frozenHeight: number

  constructor(cols: ColumnLayout, rows: ColumnLayout, frozenColumns = 0, frozenRows = 0) {
    this.cols = cols
    this.rows = rows
    this.frozenColumns = Math.max(0, Math.min(frozenColumns, cols.count - 1))
    this.frozenRows = Math.max(0, Math.min(frozenRows, rows.count - 1))
    this.frozenWidth = cols.offset(this.frozenColumns)
    this.frozenHeight = rows.offset(this.frozenRows)
  }

  /** the left edge of a column on screen */
  x(col: number, scrollLeft: number): number {
    return this.cols.offset(col) - (col >= this.frozenColumns ? scrollLeft : 0)
  }

  y(row: number, scrollTop: number): number {
    return this.rows.offset(row) - (row >= this.frozenRows ? scrollTop : 0)
  }

  /** the column under a screen x */
  colAt(x: number, scrollLeft: number): number {
    return x < this.frozenWidth ? this.cols.columnAt(x) : this.cols.columnAt(x + scrollLeft)
  }

  rowAt(y: number, scrollTop: number): number {
    return y < this.frozenHeight ? this.rows.columnAt(y) : this.rows.columnAt(y + scrollTop)
  }

  /** The scroll position that brings a cell into view; a frozen row or column needs no scrolling. */
  reveal(viewport: Viewport, col: number, row: number): { scrollLeft: number; scrollTop: number } {
    return {
      scrollLeft: revealAlong(viewport.scrollLeft, viewport.width, this.frozenWidth, col >= this.frozenColumns, this.cols.offset(col), this.cols.width(col)),
      scrollTop: revealAlong(viewport.scrollTop, viewport.height, this.frozenHeight, row >= this.frozenRows, this.rows.offset(row), this.rows.width(row)),
    }
  }
}

function revealAlong(scroll: number, size: number, frozen: number, scrolls: boolean, start: number, length: number): number {
  if (!scrolls) return scroll
  const end = start + length
  let next = scroll
  if (start - next < frozen) next = start - frozen
  else if (end - next > size) next = Math.min(start - frozen, end - size)
  return Math.max(0, next)
}

/** One of up to four panes: the rows and columns it shows and where on screen it is drawn. */
export interface Pane extends VisibleCells {
  /** the pane's area on screen, relative to the cell area */
  x: number
  y: number
  width: number
  height: number
}

function segments(scroll: number, size: number, frozenCount: number, frozenSize: number, layout: ColumnLayout) {
  const parts: { first: number; last: number; start: number; length: number }[] = []
  if (frozenCount > 0) {
    parts.push({ first: 0, last: frozenCount - 1, start: 0, length: Math.min(frozenSize, size) })
  }
  if (size > frozenSize) {
    const first = Math.max(frozenCount, layout.columnAt(frozenSize + scroll))
    const last = Math.max(first, Math.min(layout.count - 1, layout.columnAt(scroll + size - 1)))
    parts.push({ first, last, start: frozenSize, length: size - frozenSize })
  }
  return parts
}

/** The panes a viewport shows: the frozen corner, the frozen rows, the frozen columns and the scrolling part. */
export function visiblePanes(viewport: Viewport, geometry: SheetGeometry): Pane[] {
  const across = segments(viewport.scrollLeft, viewport.width, geometry.frozenColumns, geometry.frozenWidth, geometry.cols)
  const down = segments(viewport.scrollTop, viewport.height, geometry.frozenRows, geometry.frozenHeight, geometry.rows)
  const panes: Pane[] = []
  for (const rows of down) {
    for (const cols of across) {
      panes.push({
        firstRow: rows.first,
        lastRow: rows.last,
        firstCol: cols.first,
        lastCol: cols.last,
        x: cols.start,
        y: rows.start,
        width: cols.length,
        height: rows.length,
      })
    }
  }
  return panes
}
