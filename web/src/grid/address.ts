/**
 * A1 addresses in the grid's terms (positions and ranges of start and end cells), written and read by
 * the engine's own A1 helpers so the grid and the formulas agree on every address.
 */
import { columnToLetters, formatAddress, lettersToColumn, MAX_COL, MAX_ROW, tryParseAddress } from '@finsheet/formula'

/** A cell position, zero-based: column 0 is A, row 0 is row 1. */
export interface CellPosition {
  col: number
  row: number
}

/** An inclusive, normalised rectangle of cells (start ≤ end on both axes). */
export interface CellRange {
  startCol: number
  startRow: number
  endCol: number
  endRow: number
}

/** Excel's limits; addresses beyond them are not cell references. */
export const MAX_COLUMNS = MAX_COL + 1
export const MAX_ROWS = MAX_ROW + 1

/** 0 → 'A', 26 → 'AA'. */
export function columnLabel(col: number): string {
  return columnToLetters(col)
}

/** 'A' → 0, 'AA' → 26; -1 when the text is not a column label. */
export function parseColumnLabel(label: string): number {
  return lettersToColumn(label)
}

export function cellAddress(pos: CellPosition): string {
  return formatAddress(pos.row, pos.col)
}

/** Parses 'B3' or '$B$3' into a position; null for anything else. */
export function parseCellAddress(text: string): CellPosition | null {
  return tryParseAddress(text.trim()) ?? null
}

export function normaliseRange(a: CellPosition, b: CellPosition): CellRange {
  return {
    startCol: Math.min(a.col, b.col),
    startRow: Math.min(a.row, b.row),
    endCol: Math.max(a.col, b.col),
    endRow: Math.max(a.row, b.row),
  }
}

export function isSingleCell(range: CellRange): boolean {
  return range.startCol === range.endCol && range.startRow === range.endRow
}

/** 'A1' for one cell, 'A1:C4' for a block. */
export function rangeAddress(range: CellRange): string {
  const start = cellAddress({ col: range.startCol, row: range.startRow })
  if (isSingleCell(range)) return start
  return `${start}:${cellAddress({ col: range.endCol, row: range.endRow })}`
}

/** Parses 'A1', 'A1:C4' (either corner order) into a normalised range; null for anything else. */
export function parseRangeAddress(text: string): CellRange | null {
  const parts = text.trim().split(':')
  if (parts.length === 1) {
    const pos = parseCellAddress(parts[0])
    return pos ? normaliseRange(pos, pos) : null
  }
  if (parts.length !== 2) return null
  const a = parseCellAddress(parts[0])
  const b = parseCellAddress(parts[1])
  return a && b ? normaliseRange(a, b) : null
}

export function rangeContains(range: CellRange, pos: CellPosition): boolean {
  return pos.col >= range.startCol && pos.col <= range.endCol && pos.row >= range.startRow && pos.row <= range.endRow
}

export function rangeWidth(range: CellRange): number {
  return range.endCol - range.startCol + 1
}

export function rangeHeight(range: CellRange): number {
  return range.endRow - range.startRow + 1
}

/** Calls `visit` for every cell of the range, row by row. */
export function forEachCell(range: CellRange, visit: (pos: CellPosition) => void): void {
  for (let row = range.startRow; row <= range.endRow; row++) {
    for (let col = range.startCol; col <= range.endCol; col++) visit({ col, row })
  }
}
