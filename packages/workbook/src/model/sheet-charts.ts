/**
 * Charts as the set-chart command writes them: the rules a chart must pass, and how a chart placed on
 * a sheet moves when rows and columns are inserted or deleted. A chart's corners are held by cells, as
 * Excel's two-cell anchor holds them: rows inserted above push it down, rows inserted inside it make
 * it taller, and deleting the rows under a corner pulls that corner to the first row after them.
 */
import { MAX_CHART_CELLS, MAX_CHART_OFFSET, type ChartAnchor, type ChartCorner, type ChartSpec } from '@finsheet/contracts'
import { formatRange, MAX_COL, MAX_ROW, moveIndex, moveRangeText, rangeSize, tryParseRange, type StructuralEdit } from './a1.js'
import { CommandError, commandErrors } from './command-checks.js'
import type { ChartRecord } from './snapshot.js'

/** The record a set-chart command stores: the spec with its id and sheet, the range in canonical form. */
export function chartRecordOf(id: string, sheetId: string, spec: ChartSpec): ChartRecord {
  const range = tryParseRange(spec.dataRange)
  if (!range) throw commandErrors.invalidRange(spec.dataRange)
  if (rangeSize(range) > MAX_CHART_CELLS) throw new CommandError('TOO_MANY_CELLS', `A chart can draw at most ${MAX_CHART_CELLS.toLocaleString('en-US')} cells`)
  if (spec.anchor) checkAnchor(spec.anchor)
  const record: ChartRecord = {
    id,
    type: spec.type,
    title: spec.title.trim(),
    sheetId,
    dataRange: formatRange(range),
    seriesInColumns: spec.seriesInColumns,
    createdAt: spec.createdAt,
  }
  if (spec.anchor) record.anchor = copyAnchor(spec.anchor)
  if (spec.seriesKinds && spec.seriesKinds.length > 0) record.seriesKinds = [...spec.seriesKinds]
  if (spec.totals && spec.totals.length > 0) record.totals = [...new Set(spec.totals)].sort((a, b) => a - b)
  return record
}

/** The set-chart spec that writes a record back as it is. */
export function chartSpecOf(record: ChartRecord): ChartSpec {
  const spec: ChartSpec = { type: record.type, title: record.title, dataRange: record.dataRange, seriesInColumns: record.seriesInColumns, createdAt: record.createdAt }
  if (record.anchor) spec.anchor = copyAnchor(record.anchor)
  if (record.seriesKinds) spec.seriesKinds = [...record.seriesKinds]
  if (record.totals) spec.totals = [...record.totals]
  return spec
}

function checkAnchor(anchor: ChartAnchor): void {
  for (const corner of [anchor.from, anchor.to]) {
    const inside = Number.isInteger(corner.row) && Number.isInteger(corner.col) && corner.row >= 0 && corner.row <= MAX_ROW && corner.col >= 0 && corner.col <= MAX_COL
    const offsets = [corner.dx, corner.dy].every((offset) => Number.isFinite(offset) && offset >= 0 && offset <= MAX_CHART_OFFSET)
    if (!inside || !offsets) throw commandErrors.invalidCommand('A chart corner must sit in a cell of the sheet')
  }
  const { from, to } = anchor
  const before = (a: number, da: number, b: number, db: number) => a < b || (a === b && da <= db)
  if (!before(from.row, from.dy, to.row, to.dy) || !before(from.col, from.dx, to.col, to.dx)) throw commandErrors.invalidCommand("A chart's bottom-right corner must be below and right of its top-left corner")
}

const copyAnchor = (anchor: ChartAnchor): ChartAnchor => ({ from: { ...anchor.from }, to: { ...anchor.to } })

/** A corner after the edit: it follows its cell, and a deleted cell hands it to the first row or column after the deletion. */
function moveCorner(corner: ChartCorner, edit: StructuralEdit): ChartCorner {
  const index = edit.axis === 'rows' ? corner.row : corner.col
  const limit = edit.axis === 'rows' ? MAX_ROW : MAX_COL
  const moved = moveIndex(index, edit)
  if (moved === undefined) return edit.axis === 'rows' ? { ...corner, row: edit.at, dy: 0 } : { ...corner, col: edit.at, dx: 0 }
  if (moved > limit) return edit.axis === 'rows' ? { ...corner, row: limit } : { ...corner, col: limit }
  return edit.axis === 'rows' ? { ...corner, row: moved } : { ...corner, col: moved }
}

/** A chart's anchor after rows or columns are inserted or deleted. */
export function moveAnchor(anchor: ChartAnchor, edit: StructuralEdit): ChartAnchor {
  return { from: moveCorner(anchor.from, edit), to: moveCorner(anchor.to, edit) }
}

/**
 * A sheet's chart after rows or columns are inserted or deleted: its range and its anchor follow the
 * cells; undefined when its whole range is deleted, as Excel removes a chart with no data left.
 */
export function movedChart(chart: ChartRecord, edit: StructuralEdit): ChartRecord | undefined {
  const dataRange = moveRangeText(chart.dataRange, edit)
  if (!dataRange) return undefined
  const moved: ChartRecord = { ...chart, dataRange }
  if (chart.anchor) moved.anchor = moveAnchor(chart.anchor, edit)
  return moved
}

/** Whether two records hold the same chart (for finding the charts an edit changed). */
export function sameChart(a: ChartRecord, b: ChartRecord): boolean {
  return JSON.stringify(chartSpecOf(a)) === JSON.stringify(chartSpecOf(b)) && a.sheetId === b.sheetId && a.id === b.id
}
