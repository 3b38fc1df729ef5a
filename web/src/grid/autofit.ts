import { MIN_COLUMN_WIDTH } from './geometry'

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
  context ??= document.createElement('canvas').getContext('2d')
  if (!context) return text.length * 7
  context.font = font
  return context.measureText(text).width
}

/** Room a row leaves above and below its tallest text. */
const ROW_TEXT_PADDING = 8

/**
 * The height a row needs for its largest font; null when the default height holds it (the row then
 * goes back to the default, as Excel's AutoFit does).
 */
export function autoFitHeight(fontSizes: Iterable<number>, defaultHeight: number): number | null {
  let tallest = 0
  for (const size of fontSizes) tallest = Math.max(tallest, Math.ceil(size * 1.25) + ROW_TEXT_PADDING)
  return tallest > defaultHeight ? tallest : null
}
