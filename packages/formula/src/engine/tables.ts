/**
 * Excel tables (list objects): a named block of a sheet with a header row of column names, data rows
 * and an optional totals row. Structured references (`Table1[Col]`) resolve against them.
 */
import type { NodeOf } from '../parser/ast.js'
import { CellError } from '../values.js'
import type { Sheet } from './sheet.js'

export interface Table {
  /** The name as defined (case kept for display); names compare case-insensitively. */
  name: string
  sheet: Sheet
  /** The whole table, header and totals rows included; 0-based, inclusive. */
  top: number
  left: number
  bottom: number
  right: number
  headerRow: boolean
  totalsRow: boolean
  /** One name per column, left to right. */
  columns: string[]
}

/** What the engine reports about a table. */
export interface TableInfo {
  name: string
  sheet: string
  /** The whole table as an A1 range, header and totals rows included: `B2:D10`. */
  range: string
  headerRow: boolean
  totalsRow: boolean
  columns: string[]
}

/** A table's description for `Engine.defineTable`. */
export interface TableDefinition {
  name: string
  sheet: string
  range: string
  /** Default true. */
  headerRow?: boolean
  /** Default false. */
  totalsRow?: boolean
  /** Column names; default: the header row's texts (`Column1`, `Column2`… where there is none). */
  columns?: string[]
}

/** Where a structured reference points, before the formula's own row is known. */
export type StructuredTarget =
  | { kind: 'block'; top: number; bottom: number; left: number; right: number }
  /** `#This Row`: the given columns in the formula's row, which must be one of the data rows. */
  | { kind: 'thisRow'; dataTop: number; dataBottom: number; left: number; right: number }

/**
 * How a formula records that a structured reference names a table, among its names: brackets cannot
 * occur in a defined name, so this never meets one (a bare `Table1` is recorded as the name itself).
 */
export function tableUseKey(name: string): string {
  return '[' + name.toUpperCase()
}

export function dataTop(table: Table): number {
  return table.headerRow ? table.top + 1 : table.top
}

export function dataBottom(table: Table): number {
  return table.totalsRow ? table.bottom - 1 : table.bottom
}

/** The column index of a name in the table (case-insensitive), or -1. */
export function columnIndex(table: Table, name: string): number {
  const upper = name.toUpperCase()
  return table.columns.findIndex((column) => column.toUpperCase() === upper)
}

/**
 * Resolves a structured reference against its table, following Excel:
 * - no item, or `#Data`: the data rows (header and totals rows left out); `Table1` alone is the same;
 * - `#All`: the whole table; `#Headers`: the header row; `#Totals`: the totals row — #REF! when the
 *   table has no such row;
 * - `[#Headers],[#Data]` and `[#Data],[#Totals]`: the data rows with that row (a row the table lacks
 *   adds nothing);
 * - `#This Row` (`@`): the formula's own row, #VALUE! outside the data rows (implicit intersection);
 * - columns: one column, or every column between two named ones in either order; an unknown column
 *   or table is #REF!.
 */
export function resolveStructured(table: Table, node: NodeOf<'structured'>): StructuredTarget | CellError {
  let left = table.left
  let right = table.right
  if (node.firstColumn !== undefined) {
    const first = columnIndex(table, node.firstColumn)
    const last = node.lastColumn === undefined ? first : columnIndex(table, node.lastColumn)
    if (first < 0 || last < 0) return CellError.REF
    left = table.left + Math.min(first, last)
    right = table.left + Math.max(first, last)
  }
  const areas = new Set(node.areas)
  const top = dataTop(table)
  const bottom = dataBottom(table)
  if (areas.has('thisRow')) return { kind: 'thisRow', dataTop: top, dataBottom: bottom, left, right }
  if (areas.has('all')) return { kind: 'block', top: table.top, bottom: table.bottom, left, right }
  if (areas.size === 1 && areas.has('headers')) {
    return table.headerRow ? { kind: 'block', top: table.top, bottom: table.top, left, right } : CellError.REF
  }
  if (areas.size === 1 && areas.has('totals')) {
    return table.totalsRow ? { kind: 'block', top: table.bottom, bottom: table.bottom, left, right } : CellError.REF
  }
  const first = areas.has('headers') ? table.top : top
  const last = areas.has('totals') ? table.bottom : bottom
  if (first > last) return CellError.REF
  return { kind: 'block', top: first, bottom: last, left, right }
}

/** The unique name a new or cleared header gets: `Column1`, `Column2`, … (Excel's rule). */
export function defaultColumnName(taken: readonly string[], position: number): string {
  const used = new Set(taken.map((name) => name.toUpperCase()))
  let n = position
  while (used.has(`COLUMN${n}`)) n++
  return `Column${n}`
}

/** A header text made unique among the other columns by a number, as Excel does (`Price2`). */
export function uniqueColumnName(name: string, others: readonly string[]): string {
  const used = new Set(others.map((other) => other.toUpperCase()))
  if (!used.has(name.toUpperCase())) return name
  let n = 2
  while (used.has(`${name}${n}`.toUpperCase())) n++
  return `${name}${n}`
}
