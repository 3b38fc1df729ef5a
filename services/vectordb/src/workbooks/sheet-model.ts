import type { Cell, CellValue, SheetCells } from '@finsheet/contracts'
import { columnToLetters, parseAddress } from '@finsheet/formula'

/** A cell of a sheet with where it is. */
export interface PlacedCell {
  address: string
  row: number
  col: number
  value: CellValue
  formula: string | null
  type: Cell['type']
}

const YEAR = /^(19|20|21)\d\d$/

/** A year written as a number or as text ('2025', 'FY2025', '2025E'): how models head their columns. */
export function isYearLike(cell: Pick<PlacedCell, 'value' | 'formula'>): boolean {
  if (typeof cell.value === 'number') return Number.isInteger(cell.value) && YEAR.test(String(cell.value))
  return typeof cell.value === 'string' && /^(fy|cy)?\s?'?(19|20|21)\d\d\s?[abefp]?$/i.test(cell.value.trim())
}

const isText = (cell: PlacedCell) => cell.type === 'text' && typeof cell.value === 'string' && cell.value.trim() !== ''
const isFigure = (cell: PlacedCell) => cell.type === 'number' || cell.type === 'error' || cell.type === 'boolean' || (cell.formula !== null && !isText(cell))

/**
 * How a sheet of a financial model reads: which cells are row labels (text with figures to their
 * right), which rows are headers (text or years over the figures below), and for any figure its row
 * label and column header, as a person reading the sheet would name it ('EBITDA, 2026').
 */
export class SheetModel {
  readonly cells: PlacedCell[]
  private readonly byRow = new Map<number, PlacedCell[]>()
  private readonly headerRows: number[] = []
  private readonly labelOfRow = new Map<number, PlacedCell>()

  constructor(readonly sheet: Pick<SheetCells, 'name' | 'cells'>) {
    this.cells = Object.entries(sheet.cells).flatMap(([address, cell]) => {
      if (cell.type === 'empty' && cell.formula === null) return []
      const { row, col } = parseAddress(address)
      return [{ address, row, col, value: cell.value, formula: cell.formula, type: cell.type }]
    })
    for (const cell of this.cells) {
      const row = this.byRow.get(cell.row) ?? []
      row.push(cell)
      this.byRow.set(cell.row, row)
    }
    for (const [row, cells] of this.byRow) {
      cells.sort((a, b) => a.col - b.col)
      // A header row: at least two cells, all text or years (years as numbers running one by one, as
      // a header's do: a row of figures near 2,000 is not a header), and figures below some of them.
      const years = cells.filter((cell) => typeof cell.value === 'number' && isYearLike(cell)).map((cell) => cell.value as number)
      const runningYears = years.every((year, i) => i === 0 || year === years[i - 1] + 1)
      if (cells.length >= 2 && runningYears && cells.every((cell) => isText(cell) || isYearLike(cell)) && cells.some((cell) => isYearLike(cell) || this.hasFigureBelow(cell))) {
        this.headerRows.push(row)
        continue
      }
      const label = cells.find(isText)
      if (label && cells.some((cell) => cell.col > label.col && isFigure(cell))) this.labelOfRow.set(row, label)
    }
    this.headerRows.sort((a, b) => a - b)
  }

  private hasFigureBelow(cell: PlacedCell): boolean {
    for (const [row, cells] of this.byRow) if (row > cell.row && cells.some((other) => other.col === cell.col && isFigure(other))) return true
    return false
  }

  isHeaderRow(row: number): boolean {
    return this.headerRows.includes(row)
  }

  /** The row's label cell, when the row is labelled. */
  rowLabel(row: number): PlacedCell | undefined {
    return this.labelOfRow.get(row)
  }

  /** The text of the nearest header row above `row` in this column. */
  columnHeader(row: number, col: number): string | null {
    for (let i = this.headerRows.length - 1; i >= 0; i--) {
      const headerRow = this.headerRows[i]
      if (headerRow >= row) continue
      const header = this.byRow.get(headerRow)?.find((cell) => cell.col === col)
      if (header) return String(header.value).trim()
    }
    return null
  }

  /** The cells of a row, left to right. */
  row(row: number): PlacedCell[] {
    return this.byRow.get(row) ?? []
  }

  labelledRows(): Array<[number, PlacedCell]> {
    return [...this.labelOfRow].sort((a, b) => a[0] - b[0])
  }

  isFigure(cell: PlacedCell): boolean {
    return isFigure(cell)
  }

  isText(cell: PlacedCell): boolean {
    return isText(cell)
  }
}

export const addressOf = (row: number, col: number) => `${columnToLetters(col)}${row + 1}`
