/**
 * Export PDF: the printed pages written as a PDF in the browser with pdf-lib, so the file shows exactly
 * what the grid shows (the same formatted values, local edits included) without a trip to the server.
 * Text is set in the PDF's standard Helvetica family, which every reader has, so nothing is fetched
 * or embedded; characters it cannot encode print as '?'.
 */
import type { LineCapStyle, PDFFont, PDFPage, rgb } from 'pdf-lib'
import type { BorderEdge, CellStyle } from '@finsheet/contracts'
import { DEFAULT_FONT_SIZE } from '../grid/types'
import type { GridDataSource } from '../grid/types'
import { placePage, type PlacedCell } from './page-cells'
import { MARGINS, POINTS_PER_PIXEL, type PrintPage } from './print-layout'

const CELL_PADDING = 4
const GRIDLINE_GREY = 0.82
const HEADING_FILL = 0.94

/** A CSS colour as 0–1 RGB: #rgb, #rrggbb, rgb()/rgba() and the basic names; undefined when unknown. */
export function parseColour(text: string | undefined): [number, number, number] | undefined {
  if (!text) return undefined
  const value = text.trim().toLowerCase()
  const named: Record<string, string> = { black: '#000000', white: '#ffffff', red: '#ff0000', green: '#008000', blue: '#0000ff', yellow: '#ffff00', grey: '#808080', gray: '#808080', orange: '#ffa500' }
  const hex = named[value] ?? value
  let match = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(hex)
  if (match) return [parseInt(match[1] + match[1], 16) / 255, parseInt(match[2] + match[2], 16) / 255, parseInt(match[3] + match[3], 16) / 255]
  match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})(?:[0-9a-f]{2})?$/.exec(hex)
  if (match) return [parseInt(match[1], 16) / 255, parseInt(match[2], 16) / 255, parseInt(match[3], 16) / 255]
  match = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/.exec(value)
  if (match) return [Number(match[1]) / 255, Number(match[2]) / 255, Number(match[3]) / 255]
  return undefined
}

const BORDER_WIDTHS: Partial<Record<BorderEdge['line'], number>> = { hair: 0.25, thin: 0.5, medium: 1, thick: 1.5, double: 1.5, mediumDashed: 1, mediumDashDot: 1, mediumDashDotDot: 1 }
const BORDER_DASHES: Partial<Record<BorderEdge['line'], number[]>> = { dashed: [3, 2], mediumDashed: [4, 2], dotted: [1, 1], dashDot: [3, 1, 1, 1], mediumDashDot: [4, 1, 1, 1], dashDotDot: [3, 1, 1, 1, 1, 1], mediumDashDotDot: [4, 1, 1, 1, 1, 1], slantDashDot: [3, 1, 1, 1] }

interface Fonts {
  regular: PDFFont
  bold: PDFFont
  italic: PDFFont
  boldItalic: PDFFont
}

/** Text the font can set: characters outside its encoding become '?'. */
function encodable(font: PDFFont, text: string): string {
  let out = ''
  for (const char of text) {
    try {
      font.encodeText(char)
      out += char
    } catch {
      out += '?'
    }
  }
  return out
}

/** The longest start of `text` that fits `width` points. */
function fitted(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text
  let end = text.length
  while (end > 0 && font.widthOfTextAtSize(text.slice(0, end), size) > width) end--
  return text.slice(0, end)
}

/** Writes the pages as one PDF; `sources` gives each sheet's cells by its name. */
export async function writePdf(pages: readonly PrintPage[], sources: ReadonlyMap<string, GridDataSource>, title: string): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb, LineCapStyle } = await import('pdf-lib')
  const doc = await PDFDocument.create()
  doc.setTitle(title)
  doc.setCreator('Finsheet')
  doc.setProducer('Finsheet')
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    italic: await doc.embedFont(StandardFonts.HelveticaOblique),
    boldItalic: await doc.embedFont(StandardFonts.HelveticaBoldOblique),
  }
  const fontOf = (style: CellStyle | undefined) => (style?.bold ? (style.italic ? fonts.boldItalic : fonts.bold) : style?.italic ? fonts.italic : fonts.regular)

  for (const printPage of pages) {
    const source = sources.get(printPage.sheet)
    if (!source) continue
    const page: PDFPage = doc.addPage([printPage.width, printPage.height])
    const placed = placePage(printPage, source)
    const unit = POINTS_PER_PIXEL * printPage.scale
    // page coordinates: points from the bottom-left corner
    const px = (x: number) => MARGINS.left + x * unit
    const py = (y: number) => printPage.height - MARGINS.top - y * unit
    const box = (x: number, y: number, width: number, height: number) => ({ x: px(x), y: py(y + height), width: width * unit, height: height * unit })

    for (const heading of placed.headings) {
      page.drawRectangle({ ...box(heading.x, heading.y, heading.width, heading.height), color: rgb(HEADING_FILL, HEADING_FILL, HEADING_FILL), borderColor: rgb(GRIDLINE_GREY, GRIDLINE_GREY, GRIDLINE_GREY), borderWidth: 0.5 })
      const size = 10 * POINTS_PER_PIXEL * printPage.scale
      const width = fonts.regular.widthOfTextAtSize(heading.text, size)
      page.drawText(heading.text, { x: px(heading.x + heading.width / 2) - width / 2, y: py(heading.y + heading.height / 2) - size / 3, size, font: fonts.regular, color: rgb(0.3, 0.3, 0.3) })
    }
    for (const placedCell of placed.cells) {
      const fill = parseColour(placedCell.cell?.style?.fill)
      if (fill) page.drawRectangle({ ...box(placedCell.x, placedCell.y, placedCell.width, placedCell.height), color: rgb(...fill) })
      if (printPage.gridlines) {
        page.drawRectangle({ ...box(placedCell.x, placedCell.y, placedCell.width, placedCell.height), borderColor: rgb(GRIDLINE_GREY, GRIDLINE_GREY, GRIDLINE_GREY), borderWidth: 0.4 })
      }
    }
    for (const placedCell of placed.cells) drawCell(page, placedCell, { px, py, unit, fontOf, rgb, LineCapStyle })
  }
  return doc.save()
}

interface DrawContext {
  px(x: number): number
  py(y: number): number
  unit: number
  fontOf(style: CellStyle | undefined): PDFFont
  rgb: typeof rgb
  LineCapStyle: typeof LineCapStyle
}

function drawCell(page: PDFPage, placed: PlacedCell, context: DrawContext): void {
  const { px, py, unit, fontOf, rgb } = context
  const { cell } = placed
  const style = cell?.style
  const borders = style?.borders
  if (borders) {
    const edges: [keyof NonNullable<CellStyle['borders']>, number, number, number, number][] = [
      ['top', placed.x, placed.y, placed.x + placed.width, placed.y],
      ['bottom', placed.x, placed.y + placed.height, placed.x + placed.width, placed.y + placed.height],
      ['left', placed.x, placed.y, placed.x, placed.y + placed.height],
      ['right', placed.x + placed.width, placed.y, placed.x + placed.width, placed.y + placed.height],
    ]
    for (const [edge, x1, y1, x2, y2] of edges) {
      const border = borders[edge]
      if (!border) continue
      const colour = parseColour(border.color) ?? [0, 0, 0]
      page.drawLine({ start: { x: px(x1), y: py(y1) }, end: { x: px(x2), y: py(y2) }, thickness: BORDER_WIDTHS[border.line] ?? 0.5, color: rgb(...colour), dashArray: BORDER_DASHES[border.line], lineCap: context.LineCapStyle.Butt })
    }
  }
  if (!cell || cell.text === '') return
  const font = fontOf(style)
  const size = (style?.fontSize ?? DEFAULT_FONT_SIZE) * unit
  const room = placed.width * unit - 2 * CELL_PADDING * unit
  let text = encodable(font, cell.text)
  if (font.widthOfTextAtSize(text, size) > room) text = cell.numeric ? '#'.repeat(Math.max(1, Math.floor(room / font.widthOfTextAtSize('#', size)))) : fitted(font, text, size, room)
  const width = font.widthOfTextAtSize(text, size)
  const align = style?.align ?? cell.align
  const indent = (style?.indent ?? 0) * 9 * unit
  const left = px(placed.x) + CELL_PADDING * unit
  const x = align === 'right' ? px(placed.x + placed.width) - CELL_PADDING * unit - width - indent : align === 'center' ? px(placed.x + placed.width / 2) - width / 2 : left + indent
  const vertical = style?.verticalAlign
  const y = vertical === 'top' ? py(placed.y) - size - CELL_PADDING * unit : vertical === 'middle' ? py(placed.y + placed.height / 2) - size / 3 : py(placed.y + placed.height) + CELL_PADDING * unit
  const colour = parseColour(style?.color) ?? (cell.error ? [0.75, 0, 0] : [0, 0, 0])
  page.drawText(text, { x, y, size, font, color: rgb(...colour) })
  if (style?.underline) page.drawLine({ start: { x, y: y - size * 0.12 }, end: { x: x + width, y: y - size * 0.12 }, thickness: Math.max(0.4, size / 16), color: rgb(...colour) })
  if (style?.strike) page.drawLine({ start: { x, y: y + size * 0.3 }, end: { x: x + width, y: y + size * 0.3 }, thickness: Math.max(0.4, size / 16), color: rgb(...colour) })
}
