import { INDENT_STEP, wrapLines } from './cell-looks'
import { MIN_COLUMN_WIDTH } from './geometry'
import { fontFor, LINE_SPACING } from './render'
import type { CellStyle } from './types'
import { DEFAULT_FONT_SIZE } from './types'

/** Widest a column gets from a double click on its border; longer text is cut, as in Excel. */
export const MAX_AUTOFIT_WIDTH = 600
const PADDING = 12

/**
 * The width that shows every text of a column in full (Excel's double click on a column border):
 * the widest measured text plus the cell padding, between the minimum width and MAX_AUTOFIT_WIDTH.
 */
export function autoFitWidth(texts: Iterable<{ text: string; font: string }>, measure: (text: string, font: string) => number): number {
  let widest = 0
  for (const { text, font } of texts) {
    if (text === '') continue
    const longestLine = text.split('\n').reduce((a, b) => (b.length > a.length ? b : a), '')
    widest = Math.max(widest, measure(longestLine, font))
  }
  return Math.round(Math.min(MAX_AUTOFIT_WIDTH, Math.max(MIN_COLUMN_WIDTH, widest + PADDING)))
}

let context: CanvasRenderingContext2D | null = null

/** Measures text with a canvas, in the fonts the grid draws with. */
export function measureWithCanvas(text: string, font: string): number {
  // outside a browser (the store's unit tests) text is measured as the grid's average character
  if (typeof document === 'undefined') return text.length * 7
  context ??= document.createElement('canvas').getContext('2d')
  if (!context) return text.length * 7
  context.font = font
  return context.measureText(text).width
}

/** Room a row leaves above and below its tallest text. */
const ROW_TEXT_PADDING = 8
/** Room a cell leaves left and right of wrapped text, as the grid draws it. */
const WRAP_PADDING = 8

/** A cell as fitting its row reads it: its shown text, its look and its column's width. */
export interface FittedCell {
  text: string
  style?: CellStyle
  width: number
}

/**
 * The height a row needs for its text (Excel's AutoFit): its largest font, and the lines of its wrapped
 * text at its columns' widths; null when the default height holds it (the row then goes back to the
 * default).
 */
export function autoFitHeight(cells: Iterable<FittedCell>, defaultHeight: number, measure: (text: string, font: string) => number): number | null {
  let tallest = 0
  for (const cell of cells) {
    if (cell.text === '') continue
    const lineHeight = (cell.style?.fontSize ?? DEFAULT_FONT_SIZE) * LINE_SPACING
    const indent = (cell.style?.indent ?? 0) * INDENT_STEP
    const font = fontFor(cell.style)
    const lines = cell.style?.wrap ? wrapLines(cell.text, Math.max(1, cell.width - WRAP_PADDING - indent), (text) => measure(text, font)).length : 1
    tallest = Math.max(tallest, Math.ceil(lines * lineHeight) + ROW_TEXT_PADDING)
  }
  return tallest > defaultHeight ? tallest : null
}
