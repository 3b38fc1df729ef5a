/**
 * The parts of a cell's look beyond its font and fill: borders per edge (line and colour, as Excel
 * draws them), text wrapped onto lines within the cell, vertical alignment and indents.
 */
import type { BorderEdge, BorderLine } from '@finsheet/contracts'

/** Pixels one indent step moves the text (Excel's step is about three characters of the default font). */
export const INDENT_STEP = 9

interface LineDrawing {
  width: number
  dash: number[]
  /** Two thin lines, as Excel draws `double`. */
  double?: boolean
}

const LINES: Record<BorderLine, LineDrawing> = {
  thin: { width: 1, dash: [] },
  hair: { width: 1, dash: [1, 1] },
  dotted: { width: 1, dash: [1, 2] },
  dashed: { width: 1, dash: [4, 2] },
  dashDot: { width: 1, dash: [6, 2, 2, 2] },
  dashDotDot: { width: 1, dash: [6, 2, 2, 2, 2, 2] },
  medium: { width: 2, dash: [] },
  mediumDashed: { width: 2, dash: [6, 3] },
  mediumDashDot: { width: 2, dash: [8, 3, 3, 3] },
  mediumDashDotDot: { width: 2, dash: [8, 3, 3, 3, 3, 3] },
  slantDashDot: { width: 2, dash: [8, 2, 3, 2] },
  thick: { width: 3, dash: [] },
  double: { width: 1, dash: [], double: true },
}

export type Edge = 'top' | 'right' | 'bottom' | 'left'

/** Draws one edge of the cell at (x, y, width, height) over its grid line. */
export function drawBorderEdge(ctx: CanvasRenderingContext2D, edge: Edge, border: BorderEdge, x: number, y: number, width: number, height: number): void {
  const line = LINES[border.line] ?? LINES.thin
  ctx.strokeStyle = border.color ?? '#000000'
  ctx.lineWidth = line.width
  ctx.setLineDash(line.dash)
  // The grid line sits on the cell's right and bottom pixel rows; a border is drawn centred on it.
  const left = x - 0.5
  const top = y - 0.5
  const right = x + width - 0.5
  const bottom = y + height - 0.5
  const segments: [number, number, number, number][] =
    edge === 'top'
      ? [[left, top, right, top]]
      : edge === 'bottom'
        ? [[left, bottom, right, bottom]]
        : edge === 'left'
          ? [[left, top, left, bottom]]
          : [[right, top, right, bottom]]
  if (line.double) {
    const [x1, y1, x2, y2] = segments[0]
    const horizontal = y1 === y2
    segments.push(horizontal ? [x1, y1 + (edge === 'top' ? 2 : -2), x2, y2 + (edge === 'top' ? 2 : -2)] : [x1 + (edge === 'left' ? 2 : -2), y1, x2 + (edge === 'left' ? 2 : -2), y2])
  }
  ctx.beginPath()
  for (const [x1, y1, x2, y2] of segments) {
    ctx.moveTo(x1, y1)
    ctx.lineTo(x2, y2)
  }
  ctx.stroke()
  ctx.setLineDash([])
}

/**
 * The text broken into lines no wider than `width` (as measured): at spaces, and inside a word only
 * when the word alone is wider; line breaks in the text are kept.
 */
export function wrapLines(text: string, width: number, measure: (text: string) => number): string[] {
  const lines: string[] = []
  for (const paragraph of text.split(/\r?\n/)) {
    let line = ''
    for (const word of paragraph.split(' ')) {
      const candidate = line === '' ? word : `${line} ${word}`
      if (measure(candidate) <= width || (line === '' && measure(word) <= width)) {
        line = candidate
        continue
      }
      if (line !== '') lines.push(line)
      line = ''
      // A word wider than the cell is broken where it fills a line.
      let rest = word
      while (measure(rest) > width && rest.length > 1) {
        let take = rest.length - 1
        while (take > 1 && measure(rest.slice(0, take)) > width) take--
        lines.push(rest.slice(0, take))
        rest = rest.slice(take)
      }
      line = rest
    }
    lines.push(line)
  }
  return lines
}

/** Where the first of `lines` text lines of `lineHeight` sits (its middle) in a cell of `height` at `y`. */
export function firstLineY(verticalAlign: 'top' | 'middle' | 'bottom' | undefined, y: number, height: number, lines: number, lineHeight: number): number {
  const block = lines * lineHeight
  if (verticalAlign === 'top') return y + 2 + lineHeight / 2
  if (verticalAlign === 'bottom') return y + height - 2 - block + lineHeight / 2
  return y + (height - block) / 2 + lineHeight / 2 + 1
}

/** Excel's text rotation that stacks the letters one under another rather than turning them. */
export const STACKED_TEXT = 255

/**
 * Where text turned by `degrees` (Excel's rotation: counter-clockwise, -90 to 90) sits in a cell: the
 * centre of its turned box, placed by the alignments as an upright line would be, and the angle to turn
 * the canvas by (clockwise, in radians). `textWidth` and `textHeight` are the line's upright size.
 */
export function rotatedTextPlacement(
  degrees: number,
  align: 'left' | 'center' | 'right',
  verticalAlign: 'top' | 'middle' | 'bottom' | undefined,
  cell: { x: number; y: number; width: number; height: number },
  textWidth: number,
  textHeight: number,
  padding: number,
): { centerX: number; centerY: number; angle: number } {
  const radians = (degrees * Math.PI) / 180
  const boxWidth = Math.abs(textWidth * Math.cos(radians)) + Math.abs(textHeight * Math.sin(radians))
  const boxHeight = Math.abs(textWidth * Math.sin(radians)) + Math.abs(textHeight * Math.cos(radians))
  const left = align === 'right' ? cell.x + cell.width - padding - boxWidth : align === 'center' ? cell.x + (cell.width - boxWidth) / 2 : cell.x + padding
  const top = verticalAlign === 'top' ? cell.y + 2 : verticalAlign === 'middle' ? cell.y + (cell.height - boxHeight) / 2 : cell.y + cell.height - 2 - boxHeight
  return { centerX: left + boxWidth / 2, centerY: top + boxHeight / 2, angle: -radians }
}
