import type { CellPosition, CellRange } from './address'
import type { MergeIndex } from './merges'

import type { CellStyle } from '@finsheet/contracts'

/** How a cell looks (the workbook's own style type); every field is optional and absent means the sheet default. */
export type { CellStyle }
export type HorizontalAlign = NonNullable<CellStyle['align']>

/** What the grid draws for one cell: the text it shows and how. */
export interface GridCell {
  text: string
  /** where the text sits when the style does not say: numbers right, text left, as in Excel */
  align: HorizontalAlign
  /** numbers too wide for their column show as #### instead of being cut */
  numeric: boolean
  error: boolean
  style?: CellStyle
  /** the cell opens a link on Ctrl+click: drawn as links are, unless its style colours it */
  link?: boolean
  /** a conditional format's data bar: its length as a fraction of the cell's width, and its colour */
  bar?: { fraction: number; color: string }
  /** a conditional format's icon: its set, its place in the set and how many icons the set has */
  icon?: { set: string; index: number; count: number }
  /** an icon set or data bar shown without the value: the text is kept for reading, not drawn */
  hideText?: boolean
}

/**
 * The grid owns no data: it asks its source for each cell it draws by [col, row] and for the
 * sheet's dimensions and column widths.
 */
export interface GridDataSource {
  readonly rowCount: number
  readonly columnCount: number
  readonly columnWidths: ReadonlyMap<number, number>
  /** rows not of the default height, by row; a hidden row has height 0 (hidden columns have width 0) */
  readonly rowHeights?: ReadonlyMap<number, number>
  /** grouped rows and columns, each with a +/− button on the row below (the column right of) it */
  readonly outline?: GridOutline
  /** rows above and columns left of the frozen panes' split */
  readonly frozenRows?: number
  readonly frozenColumns?: number
  /** merged areas, drawn as one cell showing their top-left cell */
  readonly merges?: MergeIndex
  /** a sheet filter's header cells, each drawn with its dropdown button */
  readonly filterButtons?: GridFilterButtons
  /** false when the sheet's gridlines are turned off */
  readonly showGridLines?: boolean
  /** cells with a note, marked by a red triangle in their top-right corner */
  readonly notes?: readonly CellPosition[]
  getCell(col: number, row: number): GridCell | undefined
}

/** A coloured box around a range, as Excel draws the references of the formula being edited. */
export interface RangeHighlight {
  range: CellRange
  color: string
  /** a dashed outline: changes proposed, not made */
  dashed?: boolean
}

export interface DrawStats {
  /** milliseconds spent drawing this frame */
  duration: number
  /** how many cells with content were drawn */
  cellsDrawn: number
  firstRow: number
  lastRow: number
}

export const DEFAULT_FONT_FAMILY = 'Arial'
export const DEFAULT_FONT_SIZE = 12

/** A group of rows or columns as the headers show it: its span and whether it is collapsed. */
export interface OutlineSpan {
  from: number
  to: number
  collapsed: boolean
}

export interface GridOutline {
  rows: readonly OutlineSpan[]
  columns: readonly OutlineSpan[]
}

/** The size of an outline's +/− button, drawn at the start of the summary row's (column's) header. */
export const OUTLINE_BUTTON_SIZE = 11

/** A sheet filter's header row: columns `from` to `to` of `row` show a dropdown button; `active` ones filter. */
export interface GridFilterButtons {
  row: number
  from: number
  to: number
  active: ReadonlySet<number>
}

/** The size of a filter's dropdown button, drawn at the right of its header cell. */
export const FILTER_BUTTON_SIZE = 16
