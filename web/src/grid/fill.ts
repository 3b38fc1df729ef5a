import type { CellPosition, CellRange } from './address'

/** Moves the relative references of a formula as if it were copied `rows` down and `cols` right. */
export type TranslateFormula = (formula: string, rows: number, cols: number) => string

export interface FilledCell {
  pos: CellPosition
  input: string
  /** the source cell whose number format and style this one takes, as Excel's fill does */
  from: CellPosition
}

/** The source cell at `index` steps along a line of `k` source cells (negative before it), cycling. */
const cycled = (index: number, k: number) => ((index % k) + k) % k

export type FillDirection = 'down' | 'up' | 'right' | 'left'

/**
 * The direction a fill handle drag extends `source` into `target` (which contains it), or null when
 * the target adds nothing.
 */
export function fillDirection(source: CellRange, target: CellRange): FillDirection | null {
  if (target.endRow > source.endRow) return 'down'
  if (target.startRow < source.startRow) return 'up'
  if (target.endCol > source.endCol) return 'right'
  if (target.startCol < source.startCol) return 'left'
  return null
}

/**
 * Where a fill handle drag to `pointer` extends `source`: along the axis the pointer moved further
 * from the source, as Excel does, so the extension is always a full band of rows or of columns.
 */
export function fillTargetRange(source: CellRange, pointer: CellPosition): CellRange {
  const rowsBeyond = pointer.row > source.endRow ? pointer.row - source.endRow : pointer.row < source.startRow ? source.startRow - pointer.row : 0
  const colsBeyond = pointer.col > source.endCol ? pointer.col - source.endCol : pointer.col < source.startCol ? source.startCol - pointer.col : 0
  if (rowsBeyond === 0 && colsBeyond === 0) return source
  if (rowsBeyond >= colsBeyond) {
    return pointer.row > source.endRow ? { ...source, endRow: pointer.row } : { ...source, startRow: pointer.row }
  }
  return pointer.col > source.endCol ? { ...source, endCol: pointer.col } : { ...source, startCol: pointer.col }
}

const MONTHS_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const MONTHS_LONG = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const DAYS_SHORT = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']
const DAYS_LONG = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']
const CUSTOM_LISTS = [MONTHS_SHORT, MONTHS_LONG, DAYS_SHORT, DAYS_LONG]

const NUMBER_PATTERN = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i
const TRAILING_INTEGER = /^(.*?)(\d+)$/

type LineSeries = (index: number) => string

/**
 * How one line of source cells (one column when filling down, one row when filling right)
 * continues, in Excel's manner: two or more numbers follow their linear trend, text ending in a
 * number counts on ('Year 1', 'Year 2'), month and day names continue their lists, formulas are
 * copied with their relative references moved, and anything else repeats the source cycle.
 */
function lineSeries(inputs: readonly string[], translate: TranslateFormula, vertical: boolean): LineSeries {
  const k = inputs.length
  const cyclic = (index: number) => {
    const sourceIndex = ((index % k) + k) % k
    const input = inputs[sourceIndex]
    if (!input.startsWith('=')) return input
    const shift = index - sourceIndex
    return vertical ? translate(input, shift, 0) : translate(input, 0, shift)
  }
  if (k === 0) return () => ''

  const trimmed = inputs.map((s) => s.trim())
  if (k >= 2 && trimmed.every((s) => NUMBER_PATTERN.test(s))) {
    const ys = trimmed.map(Number)
    const { intercept, slope } = leastSquares(ys)
    const decimals = trimmed.reduce((most, text) => Math.max(most, decimalPlaces(text)), 0)
    return (index) => formatNumber(intercept + slope * index, decimals)
  }

  for (const list of CUSTOM_LISTS) {
    const positions = inputs.map((s) => list.findIndex((item) => item.toLowerCase() === s.trim().toLowerCase()))
    if (positions.every((p) => p >= 0)) {
      const step = k >= 2 ? positions[1] - positions[0] : 1
      const arithmetic = positions.every((p, i) => i === 0 || p - positions[i - 1] === step)
      if (!arithmetic) break
      const upper = inputs[0] === inputs[0].toUpperCase()
      return (index) => {
        const item = list[(((positions[0] + step * index) % list.length) + list.length) % list.length]
        return upper ? item.toUpperCase() : item
      }
    }
  }

  // a number alone is copied, not counted on from its last digits (0.25 is no '0.' followed by 25)
  const parts = inputs.map((s) => (s.startsWith('=') || NUMBER_PATTERN.test(s.trim()) ? null : TRAILING_INTEGER.exec(s)))
  if (parts.every((p) => p !== null && p[1] !== '' && p[1] === parts[0]![1])) {
    const prefix = parts[0]![1]
    const numbers = parts.map((p) => Number(p![2]))
    const step = k >= 2 ? numbers[1] - numbers[0] : 1
    if (numbers.every((v, i) => i === 0 || v - numbers[i - 1] === step)) {
      const width = parts[0]![2].length
      return (index) => {
        const value = numbers[0] + step * index
        return prefix + (value < 0 ? String(value) : String(value).padStart(width, '0'))
      }
    }
  }
  return cyclic
}

function leastSquares(ys: readonly number[]): { intercept: number; slope: number } {
  const n = ys.length
  const meanX = (n - 1) / 2
  const meanY = ys.reduce((a, b) => a + b, 0) / n
  let num = 0
  let den = 0
  ys.forEach((y, x) => {
    num += (x - meanX) * (y - meanY)
    den += (x - meanX) ** 2
  })
  const slope = den === 0 ? 0 : num / den
  return { intercept: meanY - slope * meanX, slope }
}

function decimalPlaces(s: string): number {
  if (/e/i.test(s)) return 15
  const dot = s.indexOf('.')
  return dot < 0 ? 0 : s.length - dot - 1
}

function formatNumber(value: number, decimals: number): string {
  // round away binary noise (0.1 + 0.2) while keeping the precision the source cells used
  const rounded = Number(value.toFixed(Math.min(15, Math.max(decimals, 0))))
  return String(Object.is(rounded, -0) ? 0 : rounded)
}

/**
 * The inputs a fill handle drag writes: every cell of `target` outside `source`, continuing each
 * line of the source as `lineSeries` describes. `getInput` reads a source cell's input.
 */
export function fillSeries(
  source: CellRange,
  target: CellRange,
  getInput: (pos: CellPosition) => string,
  translate: TranslateFormula,
): FilledCell[] {
  const direction = fillDirection(source, target)
  if (!direction) return []
  const out: FilledCell[] = []
  if (direction === 'down' || direction === 'up') {
    const k = source.endRow - source.startRow + 1
    for (let col = source.startCol; col <= source.endCol; col++) {
      const inputs = Array.from({ length: k }, (_, i) => getInput({ col, row: source.startRow + i }))
      const series = lineSeries(inputs, translate, true)
      const [from, to] = direction === 'down' ? [source.endRow + 1, target.endRow] : [target.startRow, source.startRow - 1]
      for (let row = from; row <= to; row++) {
        const index = row - source.startRow
        out.push({ pos: { col, row }, input: series(index), from: { col, row: source.startRow + cycled(index, k) } })
      }
    }
  } else {
    const k = source.endCol - source.startCol + 1
    for (let row = source.startRow; row <= source.endRow; row++) {
      const inputs = Array.from({ length: k }, (_, i) => getInput({ col: source.startCol + i, row }))
      const series = lineSeries(inputs, translate, false)
      const [from, to] = direction === 'right' ? [source.endCol + 1, target.endCol] : [target.startCol, source.startCol - 1]
      for (let col = from; col <= to; col++) {
        const index = col - source.startCol
        out.push({ pos: { col, row }, input: series(index), from: { col: source.startCol + cycled(index, k), row } })
      }
    }
  }
  return out
}

/**
 * Ctrl+D (down) and Ctrl+R (right): copy the first row (or column) of the selection over the rest of
 * it; a one-row selection copies the row above it (a one-column selection, the column to its left).
 * Formulas move their relative references. Nothing happens at the grid's top or left edge.
 */
export function fillCopy(
  range: CellRange,
  axis: 'down' | 'right',
  getInput: (pos: CellPosition) => string,
  translate: TranslateFormula,
): FilledCell[] {
  const out: FilledCell[] = []
  if (axis === 'down') {
    const sourceRow = range.startRow === range.endRow ? range.startRow - 1 : range.startRow
    if (sourceRow < 0) return []
    for (let col = range.startCol; col <= range.endCol; col++) {
      const input = getInput({ col, row: sourceRow })
      for (let row = Math.max(range.startRow, sourceRow + 1); row <= range.endRow; row++) {
        out.push({ pos: { col, row }, input: input.startsWith('=') ? translate(input, row - sourceRow, 0) : input, from: { col, row: sourceRow } })
      }
    }
  } else {
    const sourceCol = range.startCol === range.endCol ? range.startCol - 1 : range.startCol
    if (sourceCol < 0) return []
    for (let row = range.startRow; row <= range.endRow; row++) {
      const input = getInput({ col: sourceCol, row })
      for (let col = Math.max(range.startCol, sourceCol + 1); col <= range.endCol; col++) {
        out.push({ pos: { col, row }, input: input.startsWith('=') ? translate(input, 0, col - sourceCol) : input, from: { col: sourceCol, row } })
      }
    }
  }
  return out
}

/**
 * Where a double click on the fill handle fills down to, as in Excel: as far as the column just
 * left of the selection (or else just right of it) holds data without a gap, starting beside the
 * selection. Null when there is nothing beside it to follow.
 */
export function fillDownExtent(source: CellRange, isFilled: (pos: CellPosition) => boolean, lastRow: number): CellRange | null {
  for (const col of [source.startCol - 1, source.endCol + 1]) {
    if (col < 0) continue
    if (!isFilled({ col, row: source.endRow + 1 })) continue
    let row = source.endRow + 1
    while (row + 1 <= lastRow && isFilled({ col, row: row + 1 })) row++
    return { ...source, endRow: row }
  }
  return null
}
