import type { ChartSpec, SetChartCommand } from '@finsheet/contracts'
import { MAX_CHART_CELLS, SHEET_COLUMNS, SHEET_ROWS } from '@finsheet/contracts'
import { seriesInColumnsFor, type ChartRecord } from '@finsheet/workbook/model'
import type { CellRange } from '../grid/address'
import { rangeAddress } from '../grid/address'
import type { FloatAnchor } from '../grid/floats'
import { anchorAt } from '../grid/floats'
import { ColumnLayout, DEFAULT_COLUMN_WIDTH, ROW_HEIGHT, SheetGeometry } from '../grid/geometry'
import type { GridDataSource } from '../grid/types'

/** A new chart's size on the sheet, in pixels at 100% zoom (Excel's default is about 480 by 288). */
export const NEW_CHART_WIDTH = 480
export const NEW_CHART_HEIGHT = 288
/** How far right of the charted cells a new chart is placed. */
const NEW_CHART_GAP = 24

/**
 * The sheet's rows and columns over its whole size, as charts are placed on them: the grid draws only
 * the rows and columns in use, but a chart may sit or be dragged past them.
 */
export function chartGeometry(source: Pick<GridDataSource, 'columnWidths' | 'rowHeights' | 'frozenRows' | 'frozenColumns'>): SheetGeometry {
  return new SheetGeometry(
    new ColumnLayout(SHEET_COLUMNS, source.columnWidths, DEFAULT_COLUMN_WIDTH),
    new ColumnLayout(SHEET_ROWS, source.rowHeights ?? new Map(), ROW_HEIGHT),
    source.frozenColumns ?? 0,
    source.frozenRows ?? 0,
  )
}

/** A fresh chart id: the same kind of text on every side. */
export function newChartId(): string {
  const bytes = new Uint8Array(8)
  globalThis.crypto.getRandomValues(bytes)
  return `ch${[...bytes].map((byte) => byte.toString(36).padStart(2, '0')).join('')}`
}

/**
 * Insert → Chart: a bar chart of the selected cells, placed right of them at the top row they start
 * on. A wide block (periods across columns, as models lay them out) has its series in rows.
 */
export function insertChartCommand(
  sheet: string,
  range: CellRange,
  source: Pick<GridDataSource, 'columnWidths' | 'rowHeights' | 'frozenRows' | 'frozenColumns'>,
  options: { id: string; now: Date; title: string },
): { command: SetChartCommand } | { problem: string } {
  const width = range.endCol - range.startCol + 1
  const height = range.endRow - range.startRow + 1
  if (width * height < 2) return { problem: 'Select the cells to chart, with their labels, then choose Insert → Chart.' }
  if (width * height > MAX_CHART_CELLS) return { problem: `A chart can draw at most ${MAX_CHART_CELLS.toLocaleString('en-US')} cells.` }
  const geo = chartGeometry(source)
  const anchor = anchorAt(geo, { x: geo.cols.offset(range.endCol + 1) + NEW_CHART_GAP, y: geo.rows.offset(range.startRow) }, NEW_CHART_WIDTH, NEW_CHART_HEIGHT)
  const chart: ChartSpec = {
    type: 'bar',
    title: options.title,
    dataRange: rangeAddress(range),
    seriesInColumns: seriesInColumnsFor({ width, height }),
    createdAt: options.now.toISOString(),
    anchor,
  }
  return { command: { type: 'set-chart', sheet, id: options.id, chart } }
}

/** The spec a chart is written back with, changed as `patch` says. */
export function chartChange(sheet: string, chart: ChartRecord, patch: Partial<ChartSpec>): SetChartCommand {
  const { id, sheetId: _sheetId, ...spec } = chart
  const next: ChartSpec = { ...spec, ...patch }
  // A kind list or total flags that no longer apply are dropped, not kept hidden.
  if (next.type !== 'combo') delete next.seriesKinds
  if (next.type !== 'waterfall') delete next.totals
  return { type: 'set-chart', sheet, id, chart: next }
}

/** The anchor a dragged chart is drawn at until it is dropped. */
export interface ChartDragPreview {
  id: string
  anchor: FloatAnchor
}

/** The next unused 'Chart N' title among a workbook's charts. */
export function nextChartTitle(titles: readonly string[]): string {
  const used = new Set(titles)
  let n = titles.length + 1
  while (used.has(`Chart ${n}`)) n++
  return `Chart ${n}`
}
