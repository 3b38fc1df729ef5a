/**
 * A sheet's layout as an xlsx worksheet part states it, read from and written to the same attributes
 * Excel uses: the frozen pane (`<pane xSplit ySplit state="frozen">`), rows (`ht` with
 * `customHeight`, `hidden`, `outlineLevel`, `collapsed`), columns (`hidden`, `outlineLevel`,
 * `collapsed`) and the sheet's `state="hidden"`.
 */
import type ExcelJS from 'exceljs'
import type { AxisEntry, SheetViewState } from '@finsheet/contracts'
import { MAX_OUTLINE_LEVEL, MAX_ROW_HEIGHT } from '@finsheet/contracts'
import { copyView } from '../model/sheet-view.js'
import type { ImportedSheet } from '../import/imported-workbook.js'
import { readAutoFilter, withImportedFilter } from './auto-filter.js'
import { isSafeLink } from '../model/cell-annotations.js'
import { writePageSetup } from './page-setup-xlsx.js'

/** Excel states row heights in points; the grid in CSS pixels (96 per inch, 72 points per inch). */
export const pointsToPixels = (points: number) => Math.round((points * 4) / 3)
export const pixelsToPoints = (pixels: number) => Math.round(pixels * 0.75 * 100) / 100

function numberAttribute(attributes: string, name: string): number | undefined {
  const match = new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(attributes)
  if (!match) return undefined
  const value = Number(match[1])
  return Number.isFinite(value) ? value : undefined
}

function flagAttribute(attributes: string, name: string): boolean {
  const match = new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(attributes)
  return match !== null && (match[1] === '1' || match[1] === 'true')
}

function entryOf(attributes: string, withHeight: boolean): AxisEntry | undefined {
  const entry: AxisEntry = {}
  if (withHeight && flagAttribute(attributes, 'customHeight')) {
    const points = numberAttribute(attributes, 'ht')
    if (points !== undefined) entry.height = Math.min(MAX_ROW_HEIGHT, Math.max(0, pointsToPixels(points)))
  }
  if (flagAttribute(attributes, 'hidden')) entry.hidden = true
  const level = numberAttribute(attributes, 'outlineLevel')
  if (level !== undefined && level > 0) entry.level = Math.min(MAX_OUTLINE_LEVEL, Math.floor(level))
  if (flagAttribute(attributes, 'collapsed')) entry.collapsed = true
  return Object.keys(entry).length > 0 ? entry : undefined
}

/** The layout a worksheet part states; `hidden` is the sheet's state in the workbook part. */
export function readSheetLayout(xml: string, hidden: boolean): SheetViewState | undefined {
  const view: SheetViewState = {}
  if (hidden) view.hidden = true
  const pane = /<(?:\w+:)?pane\b([^>]*)\/?>/.exec(xml)
  if (pane && /\sstate="frozen(?:Split)?"/.test(pane[1])) {
    const rows = numberAttribute(pane[1], 'ySplit')
    const columns = numberAttribute(pane[1], 'xSplit')
    if (rows !== undefined && rows > 0) view.frozenRows = Math.floor(rows)
    if (columns !== undefined && columns > 0) view.frozenColumns = Math.floor(columns)
  }
  const rows: Record<string, AxisEntry> = {}
  for (const match of xml.matchAll(/<(?:\w+:)?row\b([^>]*?)\/?>/g)) {
    const attributes = match[1]
    if (!/\s(?:customHeight|hidden|outlineLevel|collapsed)="/.test(attributes)) continue
    const number = numberAttribute(attributes, 'r')
    const entry = entryOf(attributes, true)
    if (number !== undefined && number >= 1 && entry) rows[String(number - 1)] = entry
  }
  if (Object.keys(rows).length > 0) view.rows = rows
  const columns: Record<string, AxisEntry> = {}
  const cols = /<(?:\w+:)?cols\b[^>]*>([\s\S]*?)<\/(?:\w+:)?cols>/.exec(xml)?.[1] ?? ''
  for (const match of cols.matchAll(/<(?:\w+:)?col\b([^>]*?)\/?>/g)) {
    const entry = entryOf(match[1], false)
    const min = numberAttribute(match[1], 'min')
    const max = numberAttribute(match[1], 'max')
    if (!entry || min === undefined || max === undefined) continue
    // A <col> may span to the sheet's last column; only columns up to the last one a sheet can show are kept.
    for (let col = min; col <= Math.min(max, 16_384); col++) columns[String(col - 1)] = { ...entry }
  }
  if (Object.keys(columns).length > 0) view.columns = columns
  return copyView(withImportedFilter(view, readAutoFilter(xml)))
}

/** States a sheet's layout on the worksheet exceljs is about to write; returns the deepest column outline level, for withColumnOutline. */
export function writeSheetLayout(worksheet: ExcelJS.Worksheet, view: SheetViewState | undefined): number {
  if (!view) return 0
  if (view.hidden) worksheet.state = view.veryHidden ? 'veryHidden' : 'hidden'
  writePageSetup(worksheet, view.pageSetup)
  if (view.frozenRows || view.frozenColumns) {
    worksheet.views = [{ state: 'frozen', xSplit: view.frozenColumns ?? 0, ySplit: view.frozenRows ?? 0 }]
  }
  // Rows are stated on the written file by withRowLayout: exceljs leaves out rows without cells.
  let columnLevel = 0
  for (const [index, entry] of Object.entries(view.columns ?? {})) {
    const column = worksheet.getColumn(Number(index) + 1)
    if (entry.hidden) column.hidden = true
    if (entry.level) {
      column.outlineLevel = entry.level
      columnLevel = Math.max(columnLevel, entry.level)
    }
  }
  let rowLevel = 0
  for (const entry of Object.values(view.rows ?? {})) rowLevel = Math.max(rowLevel, entry.level ?? 0)
  if (rowLevel > 0) worksheet.properties.outlineLevelRow = rowLevel
  // exceljs marks a column collapsed when its level reaches the sheet's outline level: a level past the
  // deepest keeps it from marking any, and withColumnOutline states the true one on the written file.
  if (columnLevel > 0) worksheet.properties.outlineLevelCol = MAX_OUTLINE_LEVEL + 1
  return columnLevel
}

/** A worksheet part whose format properties state the deepest column outline level. */
export function withColumnOutline(xml: string, level: number): string {
  if (level <= 0) return xml
  return xml.replace(/<sheetFormatPr\b([^>]*?)(\/?)>/, (_whole, attributes: string, selfClosing: string) => `<sheetFormatPr${attributes.replace(/\soutlineLevelCol="[^"]*"/, '')} outlineLevelCol="${level}"${selfClosing}>`)
}

const ROW_LAYOUT_ATTRIBUTES = /\s(?:ht|customHeight|hidden|outlineLevel|collapsed)="[^"]*"/g

function rowLayoutAttributes(entry: AxisEntry): string {
  let text = ''
  if (entry.height !== undefined) text += ` ht="${pixelsToPoints(entry.height)}" customHeight="1"`
  // A row the filter hides is a hidden row in the file.
  if (entry.hidden || entry.filtered) text += ' hidden="1"'
  if (entry.level) text += ` outlineLevel="${entry.level}"`
  if (entry.collapsed) text += ' collapsed="1"'
  return text
}

/**
 * A worksheet part with each row's height, hidden flag and outline group stated as the layout says:
 * attributes of written rows are replaced, and rows without cells are added in their place.
 */
export function withRowLayout(xml: string, rows: Record<string, AxisEntry>): string {
  const pending = Object.entries(rows)
    .map(([index, entry]) => ({ number: Number(index) + 1, entry }))
    .sort((a, b) => a.number - b.number)
  let next = 0
  const emptyRowsBefore = (number: number) => {
    let text = ''
    while (next < pending.length && pending[next].number < number) {
      text += `<row r="${pending[next].number}"${rowLayoutAttributes(pending[next].entry)}/>`
      next++
    }
    return text
  }
  const open = /<sheetData\s*\/>|<sheetData>/.exec(xml)
  if (!open) return xml
  const start = open.index + open[0].length
  const end = open[0].endsWith('/>') ? start : xml.indexOf('</sheetData>', start)
  const body = xml.slice(start, end).replace(/<row\b([^>]*?)(\/?)>/g, (_whole, attributes: string, selfClosing: string) => {
    const number = Number(/\sr="(\d+)"/.exec(attributes)?.[1])
    const text = emptyRowsBefore(number)
    let stated = attributes
    if (next < pending.length && pending[next].number === number) {
      stated = attributes.replace(ROW_LAYOUT_ATTRIBUTES, '') + rowLayoutAttributes(pending[next].entry)
      next++
    }
    return text + `<row${stated}${selfClosing}>`
  })
  const rest = emptyRowsBefore(Number.MAX_SAFE_INTEGER)
  if (open[0].endsWith('/>')) return xml.slice(0, open.index) + `<sheetData>${rest}</sheetData>` + xml.slice(start)
  return xml.slice(0, start) + body + rest + xml.slice(end)
}

/** The layout of a sheet read by the streaming reader, as the grid keeps it. */
export function importedSheetView(sheet: Pick<ImportedSheet, 'state' | 'rows' | 'columns' | 'frozen' | 'filter' | 'tabColor' | 'showGridLines' | 'zoom' | 'notes' | 'links' | 'pageSetup'>): SheetViewState | undefined {
  const view: SheetViewState = {}
  if (sheet.pageSetup) view.pageSetup = sheet.pageSetup
  if (sheet.state !== 'visible') view.hidden = true
  if (sheet.state === 'veryHidden') view.veryHidden = true
  if (sheet.frozen?.rows) view.frozenRows = sheet.frozen.rows
  if (sheet.frozen?.columns) view.frozenColumns = sheet.frozen.columns
  const rows: Record<string, AxisEntry> = {}
  for (const row of sheet.rows) {
    const entry: AxisEntry = {}
    if (row.height !== undefined && Number.isFinite(row.height)) entry.height = Math.min(MAX_ROW_HEIGHT, Math.max(0, pointsToPixels(row.height)))
    if (row.hidden) entry.hidden = true
    if (row.level) entry.level = row.level
    if (row.collapsed) entry.collapsed = true
    if (Object.keys(entry).length > 0) rows[String(row.row)] = entry
  }
  const columns: Record<string, AxisEntry> = {}
  for (const column of sheet.columns) {
    const entry: AxisEntry = {}
    if (column.hidden) entry.hidden = true
    if (column.level) entry.level = column.level
    if (column.collapsed) entry.collapsed = true
    if (Object.keys(entry).length > 0) columns[String(column.col)] = entry
  }
  if (Object.keys(rows).length > 0) view.rows = rows
  if (Object.keys(columns).length > 0) view.columns = columns
  if (sheet.tabColor) view.tabColor = sheet.tabColor
  if (sheet.showGridLines === false) view.showGridLines = false
  if (sheet.zoom !== undefined) view.zoom = sheet.zoom
  if (sheet.notes) view.notes = sheet.notes
  // A link a browser must not open (javascript:, file:) is left out.
  const links = Object.entries(sheet.links ?? {}).filter(([, url]) => isSafeLink(url))
  if (links.length > 0) view.links = Object.fromEntries(links)
  return copyView(withImportedFilter(view, sheet.filter))
}
