/**
 * How a sheet is laid out, as an analyst reads it: the label of each row (its leftmost text, left of
 * its numbers), the header rows above the numbers (years, periods, names), the formula patterns (one
 * formula filled across a block of cells is one pattern), error cells and text cells. One pass over
 * the sheet, row by row.
 */
import { formatValue, isCellError, isDateFormat, type CellValue, type RangeAddress } from '@finsheet/formula'
import { formatAddress, type SheetRecord, type WorkbookModel } from '@finsheet/workbook'

export interface RowLabel {
  row: number
  col: number
  text: string
}

export interface HeaderRow {
  row: number
  cells: { col: number; text: string }[]
}

/** A block of cells holding the same formula relative to each cell (a fill). */
export interface FormulaPattern {
  top: number
  left: number
  bottom: number
  right: number
  count: number
  /** The formula as written in the top-left cell. */
  formula: string
}

export interface SheetLayout {
  sheetId: string
  name: string
  used: RangeAddress | null
  cells: number
  formulas: number
  labels: RowLabel[]
  /** The column most row labels sit in. */
  labelColumn: number | null
  headerRows: HeaderRow[]
  patterns: FormulaPattern[]
  errorCount: number
  /** The first error cells, row by row. */
  errors: { address: string; value: string }[]
  /** Text constants, row by row (for search), the first MAX_TEXT_CELLS. */
  texts: { row: number; col: number; text: string }[]
}

const MAX_LISTED_ERRORS = 50
const MAX_TEXT_CELLS = 50_000
const MAX_LABEL_LENGTH = 200
/** A lone header longer than this is a note, not a header. */
const MAX_SINGLE_HEADER_LENGTH = 40
/** Rows below a header row searched for the numbers it heads. */
const HEADER_REACH = 3

/** What the scan keeps of a row. */
interface RowStats {
  nonEmpty: number
  /** Number values and formulas. */
  figures: number
  /** Text, years and dates: what headers are made of. */
  headerish: number
  firstFigureCol: number
  label: RowLabel | undefined
}

const isYear = (value: number) => Number.isInteger(value) && value >= 1900 && value <= 2100

/** The number format a cell shows with: the user's, else the one its input suggested. */
function formatAt(state: WorkbookModel, sheet: SheetRecord, row: number, col: number): string | undefined {
  return state.formatAtPosition(sheet.id, row, col) ?? state.engine.getSuggestedFormat(sheet.name, formatAddress(row, col))
}

/** The text a cell shows, formatted. */
export function displayAt(state: WorkbookModel, sheet: SheetRecord, row: number, col: number): string {
  const value = state.engine.getValueAt(sheet.name, row, col)
  if (value === null) return ''
  try {
    return formatValue(value, formatAt(state, sheet, row, col))
  } catch {
    return formatValue(value)
  }
}

/** Used ranges up to this many positions are walked position by position; larger ones are collected and sorted. */
const DENSE_WALK_LIMIT = 1_000_000

/**
 * Calls `visit` for every non-empty cell of a sheet in a range, row by row: a range of moderate area is
 * walked position by position, a larger one (mostly empty, or it would not fit in memory) has its
 * cells collected and sorted.
 */
export function forEachCellRowMajor(state: WorkbookModel, sheet: SheetRecord, used: RangeAddress, visit: (row: number, col: number, value: CellValue, shape: string | undefined) => void): void {
  const engine = state.engine
  const area = (used.bottom - used.top + 1) * (used.right - used.left + 1)
  if (area <= DENSE_WALK_LIMIT) {
    for (let row = used.top; row <= used.bottom; row++) {
      for (let col = used.left; col <= used.right; col++) {
        const value = engine.getValueAt(sheet.name, row, col)
        const shape = engine.getFormulaShapeAt(sheet.name, row, col)
        // Every non-empty cell has a value or a formula (a formula that does not parse shows #ERROR!).
        if (value === null && shape === undefined) continue
        visit(row, col, value, shape)
      }
    }
    return
  }
  const positions: number[] = []
  engine.forEachCell(sheet.name, (cell) => {
    if (cell.row >= used.top && cell.row <= used.bottom && cell.col >= used.left && cell.col <= used.right) positions.push(cell.row * 16_384 + cell.col)
  })
  positions.sort((a, b) => a - b)
  for (const position of positions) {
    const row = Math.floor(position / 16_384)
    const col = position % 16_384
    visit(row, col, engine.getValueAt(sheet.name, row, col), engine.getFormulaShapeAt(sheet.name, row, col))
  }
}

/** Reads a sheet's layout in one pass. */
export function analyseSheet(state: WorkbookModel, sheet: SheetRecord): SheetLayout {
  const engine = state.engine
  const layout: SheetLayout = {
    sheetId: sheet.id,
    name: sheet.name,
    used: engine.getUsedRange(sheet.name) ?? null,
    cells: 0,
    formulas: 0,
    labels: [],
    labelColumn: null,
    headerRows: [],
    patterns: [],
    errorCount: 0,
    errors: [],
    texts: [],
  }
  if (!layout.used) return layout
  const rows = new Map<number, RowStats>()
  const patterns = new PatternBuilder()
  let current: RowStats | undefined
  let currentRow = -1
  forEachCellRowMajor(state, sheet, layout.used, (row, col, value, shape) => {
    if (row !== currentRow) {
      currentRow = row
      current = { nonEmpty: 0, figures: 0, headerish: 0, firstFigureCol: Infinity, label: undefined }
      rows.set(row, current)
    }
    const stats = current as RowStats
    layout.cells++
    stats.nonEmpty++
    const formula = shape !== undefined || (value !== null && isCellError(value) && engine.getInputAt(sheet.name, row, col).startsWith('='))
    if (formula) {
      layout.formulas++
      patterns.add(row, col, shape ?? `\u0000${engine.getInputAt(sheet.name, row, col)}`)
    }
    if (typeof value === 'string') {
      stats.headerish++
      if (value.trim() !== '') {
        if (stats.label === undefined && col < stats.firstFigureCol) stats.label = { row, col, text: value.trim().slice(0, MAX_LABEL_LENGTH) }
        if (!formula && layout.texts.length < MAX_TEXT_CELLS) layout.texts.push({ row, col, text: value })
      }
    } else if (typeof value === 'number') {
      if (isYear(value)) stats.headerish++
      else {
        const format = formatAt(state, sheet, row, col)
        if (format !== undefined && isDateFormat(format)) stats.headerish++
      }
    } else if (value !== null && isCellError(value)) {
      layout.errorCount++
      if (layout.errors.length < MAX_LISTED_ERRORS) layout.errors.push({ address: formatAddress(row, col), value: value.code })
    }
    if (formula || typeof value === 'number') {
      stats.figures++
      if (col < stats.firstFigureCol) stats.firstFigureCol = col
    }
  })
  layout.patterns = patterns.finish()
  for (const pattern of layout.patterns) pattern.formula = engine.getInputAt(sheet.name, pattern.top, pattern.left)

  const labelColumns = new Map<number, number>()
  for (const stats of rows.values()) {
    if (!stats.label) continue
    layout.labels.push(stats.label)
    labelColumns.set(stats.label.col, (labelColumns.get(stats.label.col) ?? 0) + 1)
  }
  let best = 0
  for (const [col, count] of labelColumns) {
    if (count > best) {
      best = count
      layout.labelColumn = col
    }
  }
  layout.headerRows = headerRows(state, sheet, rows, layout.used)
  return layout
}

/**
 * Rows that head the numbers below them: mostly text, years or dates, with a row of figures within a
 * few rows below (a single header must sit right above a figure).
 */
function headerRows(state: WorkbookModel, sheet: SheetRecord, rows: Map<number, RowStats>, used: RangeAddress): HeaderRow[] {
  const found: HeaderRow[] = []
  for (const [row, stats] of rows) {
    const beyondLabel = stats.nonEmpty - (stats.label ? 1 : 0)
    const headerish = stats.headerish - (stats.label ? 1 : 0)
    if (headerish < 1 || headerish < 0.6 * beyondLabel) continue
    let heads = false
    for (let below = row + 1; below <= Math.min(row + HEADER_REACH, used.bottom); below++) {
      const next = rows.get(below)
      if (next && next.figures > 0) {
        heads = true
        break
      }
    }
    if (!heads) continue
    const cells: HeaderRow['cells'] = []
    for (let col = used.left; col <= used.right; col++) {
      if (stats.label && col === stats.label.col) continue
      const text = displayAt(state, sheet, row, col).trim()
      if (text !== '') cells.push({ col, text: text.slice(0, MAX_LABEL_LENGTH) })
    }
    // One header alone (a "Value" column beside the labels) must be short and sit right above a figure.
    if (headerish === 1) {
      const only = cells[0]
      if (!only || only.text.length > MAX_SINGLE_HEADER_LENGTH) continue
      const below = state.engine.getValueAt(sheet.name, row + 1, only.col)
      if (typeof below !== 'number' && state.engine.getFormulaShapeAt(sheet.name, row + 1, only.col) === undefined) continue
    }
    found.push({ row, cells })
  }
  return found.sort((a, b) => a.row - b.row)
}

/**
 * Groups formula cells, met row by row, into blocks of one shape: runs along a row first, then runs
 * with the same columns and shape in consecutive rows are stacked into one block.
 */
class PatternBuilder {
  private runs: { row: number; left: number; right: number; shape: string }[] = []
  private run: { row: number; left: number; right: number; shape: string } | undefined

  add(row: number, col: number, shape: string): void {
    const run = this.run
    if (run && run.row === row && run.right === col - 1 && run.shape === shape) {
      run.right = col
      return
    }
    if (run) this.runs.push(run)
    this.run = { row, left: col, right: col, shape }
  }

  finish(): FormulaPattern[] {
    if (this.run) this.runs.push(this.run)
    const open = new Map<string, FormulaPattern & { shape: string }>()
    const blocks: (FormulaPattern & { shape: string })[] = []
    for (const run of this.runs) {
      const key = `${run.left}:${run.right}:${run.shape}`
      const block = open.get(key)
      if (block && block.bottom === run.row - 1) {
        block.bottom = run.row
        block.count += run.right - run.left + 1
        continue
      }
      const fresh = { top: run.row, left: run.left, bottom: run.row, right: run.right, count: run.right - run.left + 1, formula: '', shape: run.shape }
      open.set(key, fresh)
      blocks.push(fresh)
    }
    this.runs = []
    return blocks.map(({ shape: _shape, ...block }) => block)
  }
}
