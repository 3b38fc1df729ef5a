/**
 * Building a model sheet row by row, with any number of period columns: each line gets the next row,
 * says what goes in its label cell and in each period column, and the builder keeps the number formats
 * and styles by range. Lines are referred to by the row number `line` returns, so a formula never
 * hard-codes where another line sits.
 */
import { columnToLetters, formatSheetPrefix } from '@finsheet/formula'
import type { CellInputValue } from '@finsheet/formula'
import type { CellStyle } from '@finsheet/contracts'
import type { TemplateSheet } from './template.js'
import { HEADER, INPUT, NOTE, TITLE } from './builtin/styles.js'

/** What a period column holds: from its letters, its 0-based index and the letters of the one before. */
export type PeriodCell = (column: string, index: number, previous: string | undefined) => CellInputValue

export interface LineOptions {
  format?: string
  /** The style of the whole line, label included. */
  style?: CellStyle
}

/** Text as a cell keeps it: never read as a formula, a number or a date, whatever it says. */
export const text = (value: string): string => `'${value}`

export class SheetBuilder {
  private readonly rows: (CellInputValue | undefined)[][] = []
  private readonly formats: [string, string][] = []
  private readonly styles: [string, CellStyle][] = []
  readonly columnWidths: Record<string, number>

  /**
   * @param periods how many period columns the sheet has
   * @param firstPeriodColumn the 0-based column of the first period (1 is B)
   */
  constructor(
    readonly name: string,
    readonly periods: number,
    readonly firstPeriodColumn = 1,
  ) {
    this.columnWidths = { '0': 340 }
    for (let index = 0; index < Math.max(periods, 1); index++) this.columnWidths[String(firstPeriodColumn + index)] = 110
  }

  /** The sheet as written before `!` in a reference from another sheet. */
  get prefix(): string {
    return `${formatSheetPrefix(this.name)}!`
  }

  /** The letters of period `index` (0-based). */
  column(index: number): string {
    return columnToLetters(this.firstPeriodColumn + index)
  }

  get firstColumn(): string {
    return this.column(0)
  }

  get lastColumn(): string {
    return this.column(this.periods - 1)
  }

  /** The period cells of a row: 'B7:F7'. */
  span(row: number): string {
    return `${this.firstColumn}${row}:${this.lastColumn}${row}`
  }

  /** The row the next line goes to (1-based). */
  get nextRow(): number {
    return this.rows.length + 1
  }

  /** A line with cells from column A; answers its row (1-based). */
  cells(cells: (CellInputValue | undefined)[], options: LineOptions & { lastColumn?: number } = {}): number {
    this.rows.push(cells)
    const row = this.rows.length
    const last = columnToLetters(Math.max(0, options.lastColumn ?? cells.length - 1))
    if (options.format && cells.length > 1) this.formats.push([`B${row}:${last}${row}`, options.format])
    if (options.style) this.styles.push([`A${row}:${last}${row}`, options.style])
    return row
  }

  /** A labelled line with a cell in every period column. */
  line(label: string, cell: PeriodCell, options: LineOptions = {}): number {
    const row: (CellInputValue | undefined)[] = [label]
    for (let index = 0; index < this.periods; index++) {
      row[this.firstPeriodColumn + index] = cell(this.column(index), index, index === 0 ? undefined : this.column(index - 1))
    }
    this.rows.push(row)
    const number = this.rows.length
    if (options.format) this.formats.push([this.span(number), options.format])
    if (options.style) this.styles.push([`A${number}:${this.lastColumn}${number}`, options.style])
    return number
  }

  /** A line whose first period is `first` and each later one is `next` of the one before. */
  chain(label: string, first: (column: string) => CellInputValue, next: (column: string, previous: string) => CellInputValue, options: LineOptions = {}): number {
    return this.line(label, (column, _index, previous) => (previous === undefined ? first(column) : next(column, previous)), options)
  }

  title(value: string): number {
    return this.cells([value], { style: TITLE })
  }

  note(value: string): number {
    return this.cells([value], { style: NOTE })
  }

  /** A header row across the period columns (or the given cells). */
  header(cells: (CellInputValue | undefined)[], lastColumn?: number): number {
    return this.cells(cells, { style: HEADER, lastColumn })
  }

  blank(): number {
    return this.cells([])
  }

  /** An input in column B, styled as one; answers its absolute reference from other sheets. */
  input(label: string, value: CellInputValue, format: string): string {
    const row = this.cells([label, value])
    this.formats.push([`B${row}`, format])
    this.styles.push([`B${row}`, INPUT])
    return `${this.prefix}$B$${row}`
  }

  /** Styles a range once every line is written (a block's total, a highlighted output). */
  style(range: string, style: CellStyle): void {
    this.styles.push([range, style])
  }

  format(range: string, format: string): void {
    this.formats.push([range, format])
  }

  build(): TemplateSheet {
    return { name: this.name, rows: this.rows, formats: this.formats, styles: this.styles, columnWidths: this.columnWidths }
  }
}

/** A cell of another sheet by its row on that sheet, period column and all: `FCF!C11`. */
export function at(sheet: SheetBuilder, column: string, row: number): string {
  return `${sheet.prefix}${column}${row}`
}
