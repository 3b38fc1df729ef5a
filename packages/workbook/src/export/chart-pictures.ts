/**
 * Charts made in Finsheet, as pictures for an xlsx export: exceljs cannot write chart parts, so each
 * chart placed on a sheet is drawn (SVG, rendered to PNG by resvg) and anchored over the same cells.
 */
import type { ChartAnchor } from '@finsheet/contracts'
import { chartData } from '../model/chart-data.js'
import type { SheetRecord } from '../model/cell-record.js'
import type { WorkbookSnapshot } from '../model/snapshot.js'
import { chartSvg } from './chart-svg.js'

/** A sheet's default column width and row height in pixels, as the app draws them. */
const DEFAULT_COLUMN_PIXELS = 100
const DEFAULT_ROW_PIXELS = 24
/** Pictures are drawn at twice their size on the sheet, so that they stay sharp when zoomed. */
const PICTURE_SCALE = 2

export interface ChartPicture {
  /** The index of the sheet in the snapshot. */
  sheetIndex: number
  anchor: ChartAnchor
  png: Uint8Array
}

export interface ChartPictures {
  pictures: ChartPicture[]
  /** Placed charts that could not be drawn (no renderer on this platform). */
  notExported: number
}

/** Pixels from the sheet's top-left corner to a corner, along one axis. */
function offsetTo(index: number, offset: number, size: (i: number) => number): number {
  let total = 0
  for (let i = 0; i < index; i++) total += size(i)
  return total + Math.min(offset, size(index))
}

/** The size of a chart's box on its sheet, in pixels, from the sheet's column widths and row heights. */
export function chartBoxSize(sheet: Pick<SheetRecord, 'columnWidths' | 'view'>, anchor: ChartAnchor): { width: number; height: number } {
  const column = (col: number) => sheet.columnWidths[String(col)] ?? DEFAULT_COLUMN_PIXELS
  const row = (r: number) => {
    const entry = sheet.view?.rows?.[String(r)]
    return entry?.hidden ? 0 : (entry?.height ?? DEFAULT_ROW_PIXELS)
  }
  return {
    width: offsetTo(anchor.to.col, anchor.to.dx, column) - offsetTo(anchor.from.col, anchor.from.dx, column),
    height: offsetTo(anchor.to.row, anchor.to.dy, row) - offsetTo(anchor.from.row, anchor.from.dy, row),
  }
}

type Render = (svg: string, width: number) => Uint8Array

/** resvg, loaded when first needed; null where its native part is not installed for this platform. */
let renderer: Promise<Render | null> | undefined
function loadRenderer(): Promise<Render | null> {
  renderer ??= import('@resvg/resvg-js').then(
    ({ Resvg }): Render =>
      (svg, width) =>
        new Resvg(svg, { fitTo: { mode: 'width', value: Math.round(width) }, font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render().asPng(),
    () => null,
  )
  return renderer
}

/** The placed charts of a snapshot, drawn from its cells' values. */
export async function chartPictures(snapshot: WorkbookSnapshot): Promise<ChartPictures> {
  const placed = snapshot.charts.filter((chart) => chart.anchor !== undefined && snapshot.sheets.some((sheet) => sheet.id === chart.sheetId))
  if (placed.length === 0) return { pictures: [], notExported: 0 }
  const render = await loadRenderer()
  if (!render) return { pictures: [], notExported: placed.length }
  const pictures: ChartPicture[] = []
  for (const chart of placed) {
    const sheetIndex = snapshot.sheets.findIndex((sheet) => sheet.id === chart.sheetId)
    const sheet = snapshot.sheets[sheetIndex]
    const anchor = chart.anchor as ChartAnchor
    const { width, height } = chartBoxSize(sheet, anchor)
    if (width < 1 || height < 1) continue
    const svg = chartSvg(chart, chartData(chart, sheet.cells), width, height)
    pictures.push({ sheetIndex, anchor, png: render(svg, width * PICTURE_SCALE) })
  }
  return { pictures, notExported: placed.length - pictures.length }
}

/** What an export says of the charts it holds: drawn as pictures, or left out. */
export function chartsExportNote(result: ChartPictures): string | null {
  const notes: string[] = []
  if (result.pictures.length > 0) notes.push(`charts exported as pictures: ${result.pictures.length}`)
  if (result.notExported > 0) notes.push(`charts: ${result.notExported} not exported`)
  return notes.length > 0 ? notes.join('; ') : null
}
