/**
 * Conditional formats as the grid shows them: a matching rule's format laid over the cell's own (its
 * fill, font colour, bold, italic, underline, strike, number format), a colour scale's fill, a data
 * bar drawn inside the cell under its text, an icon at the cell's left.
 */
import type { ConditionalLook } from '@finsheet/workbook/model'
import type { GridCell } from './types'

/** A cell's view with a conditional look over it; `text` is the value shown in the rule's number format, when it has one. */
export function withConditionalLook(plain: GridCell | undefined, look: ConditionalLook, text?: string): GridCell {
  const cell: GridCell = plain ? { ...plain } : { text: '', align: 'left', numeric: false, error: false }
  const rule = look.style
  const style = { ...cell.style }
  const fill = rule?.fill ?? look.scaleFill
  if (fill) style.fill = fill
  if (rule?.color) style.color = rule.color
  if (rule?.bold !== undefined) style.bold = rule.bold
  if (rule?.italic !== undefined) style.italic = rule.italic
  if (rule?.underline !== undefined) style.underline = rule.underline
  if (rule?.strike !== undefined) style.strike = rule.strike
  if (Object.keys(style).length > 0) cell.style = style
  if (text !== undefined) cell.text = text
  if (look.bar) cell.bar = look.bar
  if (look.icon) cell.icon = look.icon
  if (look.hideValue) cell.hideText = true
  return cell
}

/** Words for how conditional formats change a cell, for assistive technology; '' when they do not. */
export function describeConditionalLook(look: ConditionalLook | undefined): string {
  if (!look) return ''
  const parts: string[] = []
  const fill = look.style?.fill ?? look.scaleFill
  if (fill) parts.push(`fill ${fill.toLowerCase()}`)
  if (look.style?.color) parts.push(`text ${look.style.color.toLowerCase()}`)
  if (look.style?.bold) parts.push('bold')
  if (look.style?.italic) parts.push('italic')
  if (look.style?.underline) parts.push('underline')
  if (look.style?.strike) parts.push('strikethrough')
  if (look.style?.format) parts.push(`format ${look.style.format}`)
  if (look.bar) parts.push(`data bar ${Math.round(look.bar.fraction * 100)}%`)
  if (look.icon) parts.push(`icon ${look.icon.index + 1} of ${look.icon.count}`)
  return parts.length > 0 ? `Conditional format: ${parts.join(', ')}` : ''
}

/** Excel's icon colours, lowest values first: red, amber, green (and shades between for 4 and 5). */
const ICON_COLOURS: Record<number, string[]> = {
  3: ['#E0393E', '#F4B400', '#2E9B4F'],
  4: ['#E0393E', '#F4B400', '#A3C940', '#2E9B4F'],
  5: ['#E0393E', '#F08A24', '#F4B400', '#A3C940', '#2E9B4F'],
}

/** Pixels an icon takes at the left of its cell. */
export const ICON_SIZE = 12

/** Draws a data bar inside the cell at (x, y, width, height), under its text. */
export function drawDataBar(ctx: CanvasRenderingContext2D, bar: { fraction: number; color: string }, x: number, y: number, width: number, height: number): void {
  const inner = Math.max(0, width - 4)
  const length = Math.round(inner * bar.fraction)
  if (length <= 0) return
  ctx.globalAlpha = 0.55
  ctx.fillStyle = bar.color
  ctx.fillRect(x + 2, y + 3, length, Math.max(1, height - 7))
  ctx.globalAlpha = 1
}

/** Draws an icon of a set at the cell's left: arrows point up, sideways or down; other sets are dots. */
export function drawIcon(ctx: CanvasRenderingContext2D, icon: { set: string; index: number; count: number }, x: number, y: number, height: number): void {
  const colours = ICON_COLOURS[icon.count] ?? ICON_COLOURS[3]
  ctx.fillStyle = colours[Math.min(colours.length - 1, Math.max(0, icon.index))]
  const cx = x + 3 + ICON_SIZE / 2
  const cy = y + height / 2
  const r = ICON_SIZE / 2 - 1
  ctx.beginPath()
  if (/arrow/i.test(icon.set)) {
    const top = icon.index === icon.count - 1
    const bottom = icon.index === 0
    if (top) {
      ctx.moveTo(cx, cy - r)
      ctx.lineTo(cx + r, cy + r)
      ctx.lineTo(cx - r, cy + r)
    } else if (bottom) {
      ctx.moveTo(cx, cy + r)
      ctx.lineTo(cx + r, cy - r)
      ctx.lineTo(cx - r, cy - r)
    } else {
      ctx.moveTo(cx + r, cy)
      ctx.lineTo(cx - r, cy - r)
      ctx.lineTo(cx - r, cy + r)
    }
    ctx.closePath()
  } else ctx.arc(cx, cy, r, 0, Math.PI * 2)
  ctx.fill()
}
