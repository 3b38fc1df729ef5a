/**
 * Cell looks of an xlsx: styles.xml (number formats, fonts, fills, borders, alignment per cellXfs
 * entry) with theme and indexed colours resolved to '#RRGGBB', so the workbook carries plain styles.
 */
import { SaxesParser } from 'saxes'
import type { BorderSide, HorizontalAlign, ImportedStyle, VerticalAlign } from '../import/imported-workbook.js'

/** Formats every xlsx may use by id without declaring them (ECMA-376 §18.8.30), as exceljs names them. */
export const BUILTIN_NUMBER_FORMATS: Readonly<Record<number, string>> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  5: '"$"#,##0_);\\("$"#,##0\\)',
  6: '"$"#,##0_);[Red]\\("$"#,##0\\)',
  7: '"$"#,##0.00_);\\("$"#,##0.00\\)',
  8: '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'mm-dd-yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy "h":mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00 ;(#,##0.00)',
  40: '#,##0.00 ;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
}

/** The default indexed palette (indexes 0–63); 64 and 65 are the system foreground and background. */
const INDEXED_COLORS = [
  '000000', 'FFFFFF', 'FF0000', '00FF00', '0000FF', 'FFFF00', 'FF00FF', '00FFFF',
  '000000', 'FFFFFF', 'FF0000', '00FF00', '0000FF', 'FFFF00', 'FF00FF', '00FFFF',
  '800000', '008000', '000080', '808000', '800080', '008080', 'C0C0C0', '808080',
  '9999FF', '993366', 'FFFFCC', 'CCFFFF', '660066', 'FF8080', '0066CC', 'CCCCFF',
  '000080', 'FF00FF', 'FFFF00', '00FFFF', '800080', '800000', '008080', '0000FF',
  '00CCFF', 'CCFFFF', 'CCFFCC', 'FFFF99', '99CCFF', 'FF99CC', 'CC99FF', 'FFCC99',
  '3366FF', '33CCCC', '99CC00', 'FFCC00', 'FF9900', 'FF6600', '666699', '969696',
  '003366', '339966', '003300', '333300', '993300', '993366', '333399', '333333',
  '000000', 'FFFFFF',
]

/** Office's default theme, used when a file has no theme part. Order: dk1 lt1 dk2 lt2 accent1–6 hlink folHlink. */
const DEFAULT_THEME = ['000000', 'FFFFFF', '44546A', 'E7E6E6', '4472C4', 'ED7D31', 'A5A5A5', 'FFC000', '5B9BD5', '70AD47', '0563C1', '954F72']

export interface ColorSpec {
  rgb?: string
  theme?: number
  indexed?: number
  tint?: number
  auto?: boolean
}

interface FontSpec {
  bold?: boolean
  italic?: boolean
  underline?: boolean
  strike?: boolean
  size?: number
  name?: string
  color?: ColorSpec
}

interface XfSpec {
  numFmtId: number
  fontId: number
  fillId: number
  borderId: number
  alignment?: { horizontal?: string; vertical?: string; wrapText?: boolean; indent?: number; textRotation?: number }
}

type BorderSpec = Partial<Record<'top' | 'right' | 'bottom' | 'left', { style: string; color?: ColorSpec }>>

/** Reads the theme's colour scheme; the result is indexed as cells use `theme="n"`. */
export function readThemeColors(themeXml: string | undefined): string[] {
  if (!themeXml) return themeOrder(DEFAULT_THEME)
  const scheme = /<(?:\w+:)?clrScheme\b[\s\S]*?<\/(?:\w+:)?clrScheme>/.exec(themeXml)?.[0]
  if (!scheme) return themeOrder(DEFAULT_THEME)
  const slots = ['dk1', 'lt1', 'dk2', 'lt2', 'accent1', 'accent2', 'accent3', 'accent4', 'accent5', 'accent6', 'hlink', 'folHlink']
  const colors = slots.map((slot, index) => {
    const block = new RegExp(`<(?:\\w+:)?${slot}>([\\s\\S]*?)</(?:\\w+:)?${slot}>`).exec(scheme)?.[1] ?? ''
    const rgb = /srgbClr\s+val="([0-9A-Fa-f]{6})"/.exec(block)?.[1] ?? /lastClr="([0-9A-Fa-f]{6})"/.exec(block)?.[1]
    return (rgb ?? DEFAULT_THEME[index]).toUpperCase()
  })
  return themeOrder(colors)
}

/** Cells number theme colours lt1, dk1, lt2, dk2, then the accents: the first two pairs swap. */
function themeOrder(scheme: string[]): string[] {
  return [scheme[1], scheme[0], scheme[3], scheme[2], ...scheme.slice(4)]
}

export interface StyleTable {
  /** The imported style of each cellXfs index; undefined where it is the default look. */
  readonly byXf: (ImportedStyle | undefined)[]
  /** The workbook's default font (the first font), which cells' looks leave out. */
  readonly defaultFont?: { family: string; size: number }
}

/** Parses styles.xml into the look of each cellXfs entry. */
export function readStyles(stylesXml: string | undefined, themeColors: string[]): StyleTable {
  if (!stylesXml) return { byXf: [] }
  const numFmts = new Map<number, string>()
  const fonts: FontSpec[] = []
  const fills: (ColorSpec | undefined)[] = []
  const borders: BorderSpec[] = []
  const xfs: XfSpec[] = []

  const parser = createXmlParser()
  const stack: string[] = []
  let font: FontSpec | null = null
  let fill: { pattern?: string; fg?: ColorSpec; bg?: ColorSpec } | null = null
  let border: BorderSpec | null = null
  let borderSide: { side: 'top' | 'right' | 'bottom' | 'left'; style: string; color?: ColorSpec } | null = null
  let xf: XfSpec | null = null

  parser.on('opentag', (tag) => {
    const name = localName(tag.name)
    const parent = stack[stack.length - 1]
    const a = tag.attributes as Record<string, string>
    stack.push(name)
    switch (name) {
      case 'numFmt':
        if (a.numFmtId !== undefined && a.formatCode !== undefined) numFmts.set(Number(a.numFmtId), a.formatCode)
        break
      case 'font':
        if (parent === 'fonts') font = {}
        break
      case 'b':
      case 'i':
      case 'strike':
        if (font) font[name === 'b' ? 'bold' : name === 'i' ? 'italic' : 'strike'] = a.val === undefined || (a.val !== '0' && a.val !== 'false')
        break
      case 'u':
        if (font) font.underline = a.val !== 'none'
        break
      case 'sz':
        if (font && a.val) font.size = Number(a.val)
        break
      case 'name':
        if (font && a.val) font.name = a.val
        break
      case 'color':
        if (font && parent === 'font') font.color = colorSpec(a)
        else if (borderSide) borderSide.color = colorSpec(a)
        break
      case 'fill':
        if (parent === 'fills') fill = {}
        break
      case 'patternFill':
        if (fill) fill.pattern = a.patternType ?? 'none'
        break
      case 'fgColor':
        if (fill) fill.fg = colorSpec(a)
        break
      case 'bgColor':
        if (fill) fill.bg = colorSpec(a)
        break
      case 'border':
        if (parent === 'borders') border = {}
        break
      case 'left':
      case 'right':
      case 'top':
      case 'bottom':
        if (border && a.style) borderSide = { side: name, style: a.style }
        break
      case 'xf':
        if (parent === 'cellXfs') {
          xf = { numFmtId: Number(a.numFmtId ?? 0), fontId: Number(a.fontId ?? 0), fillId: Number(a.fillId ?? 0), borderId: Number(a.borderId ?? 0) }
        }
        break
      case 'alignment':
        if (xf) {
          xf.alignment = {
            horizontal: a.horizontal,
            vertical: a.vertical,
            wrapText: a.wrapText === '1' || a.wrapText === 'true',
            indent: a.indent !== undefined ? Number(a.indent) : undefined,
            textRotation: a.textRotation !== undefined ? Number(a.textRotation) : undefined,
          }
        }
        break
    }
  })
  parser.on('closetag', (tag) => {
    const name = localName(tag.name)
    stack.pop()
    if (name === 'font' && font) {
      fonts.push(font)
      font = null
    } else if (name === 'fill' && fill) {
      fills.push(fill.pattern && fill.pattern !== 'none' ? (fill.pattern === 'solid' ? fill.fg : (fill.fg ?? fill.bg)) : undefined)
      fill = null
    } else if ((name === 'left' || name === 'right' || name === 'top' || name === 'bottom') && borderSide && border) {
      border[borderSide.side] = { style: borderSide.style, color: borderSide.color }
      borderSide = null
    } else if (name === 'border' && border) {
      borders.push(border)
      border = null
    } else if (name === 'xf' && xf) {
      xfs.push(xf)
      xf = null
    }
  })
  parser.write(stylesXml).close()

  const defaultFont = fonts[0] ?? {}
  const byXf = xfs.map((spec) => {
    const style: ImportedStyle = {}
    const format = numFmts.get(spec.numFmtId) ?? BUILTIN_NUMBER_FORMATS[spec.numFmtId]
    if (format && format !== 'General') style.numberFormat = format
    const font = fonts[spec.fontId]
    if (font) {
      if (font.bold) style.bold = true
      if (font.italic) style.italic = true
      if (font.underline) style.underline = true
      if (font.strike) style.strike = true
      if (font.name && font.name !== defaultFont.name) style.fontFamily = font.name
      if (font.size && font.size !== defaultFont.size) style.fontSize = font.size
      const color = resolveColor(font.color, themeColors)
      if (color && color !== '#000000') {
        style.color = color
        const theme = themeReference(font.color)
        if (theme) style.colorTheme = theme
      }
    }
    const fillColor = resolveColor(fills[spec.fillId], themeColors)
    if (fillColor) {
      style.fill = fillColor
      const theme = themeReference(fills[spec.fillId])
      if (theme) style.fillTheme = theme
    }
    const border = borders[spec.borderId]
    if (border) {
      const sides: NonNullable<ImportedStyle['borders']> = {}
      for (const side of ['top', 'right', 'bottom', 'left'] as const) {
        const edge = border[side]
        if (!edge) continue
        const resolved: BorderSide = { style: edge.style }
        const color = resolveColor(edge.color, themeColors)
        if (color) resolved.color = color
        sides[side] = resolved
      }
      if (Object.keys(sides).length > 0) style.borders = sides
    }
    const alignment = spec.alignment
    if (alignment) {
      if (alignment.horizontal && alignment.horizontal !== 'general') style.align = alignment.horizontal as HorizontalAlign
      if (alignment.vertical && alignment.vertical !== 'bottom') style.verticalAlign = alignment.vertical as VerticalAlign
      if (alignment.wrapText) style.wrapText = true
      if (alignment.indent) style.indent = alignment.indent
      if (alignment.textRotation) style.textRotation = alignment.textRotation
    }
    return Object.keys(style).length > 0 ? style : undefined
  })
  const family = defaultFont.name?.trim().slice(0, 64)
  const size = defaultFont.size
  return { byXf, ...(family && size !== undefined && size >= 1 && size <= 409 ? { defaultFont: { family, size } } : {}) }
}

/** A colour as an element's attributes state it (`rgb`, `theme`, `indexed`, `tint`, `auto`). */
export function colorAttributes(a: Record<string, string>): ColorSpec {
  return colorSpec(a)
}

function colorSpec(a: Record<string, string>): ColorSpec {
  return {
    rgb: a.rgb,
    theme: a.theme !== undefined ? Number(a.theme) : undefined,
    indexed: a.indexed !== undefined ? Number(a.indexed) : undefined,
    tint: a.tint !== undefined ? Number(a.tint) : undefined,
    auto: a.auto === '1' || a.auto === 'true',
  }
}

/** The theme colour a spec names (without an rgb of its own), as the workbook keeps it. */
function themeReference(spec: ColorSpec | undefined): { theme: number; tint?: number } | undefined {
  if (!spec || spec.rgb || spec.theme === undefined || !Number.isInteger(spec.theme) || spec.theme < 0 || spec.theme > 11) return undefined
  const tint = spec.tint !== undefined && Number.isFinite(spec.tint) && spec.tint !== 0 ? Math.max(-1, Math.min(1, spec.tint)) : undefined
  return { theme: spec.theme, ...(tint !== undefined ? { tint } : {}) }
}

/** '#RRGGBB' of a colour spec, or undefined for automatic or unknown colours. */
export function resolveColor(spec: ColorSpec | undefined, themeColors: string[]): string | undefined {
  if (!spec || spec.auto) return undefined
  let hex: string | undefined
  if (spec.rgb && /^[0-9A-Fa-f]{6,8}$/.test(spec.rgb)) hex = spec.rgb.slice(-6)
  else if (spec.theme !== undefined) hex = themeColors[spec.theme]
  else if (spec.indexed !== undefined) hex = INDEXED_COLORS[spec.indexed]
  if (!hex) return undefined
  if (spec.tint) hex = applyTint(hex, spec.tint)
  return '#' + hex.toUpperCase()
}

/** Excel's tint: lightens (tint > 0) or darkens (tint < 0) the colour's luminance in HSL. */
function applyTint(hex: string, tint: number): string {
  const [h, s, l] = rgbToHsl(parseInt(hex.slice(0, 2), 16), parseInt(hex.slice(2, 4), 16), parseInt(hex.slice(4, 6), 16))
  const lum = tint < 0 ? l * (1 + tint) : l * (1 - tint) + tint
  return hslToRgb(h, s, Math.min(1, Math.max(0, lum)))
    .map((channel) => Math.round(channel).toString(16).padStart(2, '0'))
    .join('')
}

function rgbToHsl(r: number, g: number, b: number): [number, number, number] {
  const [rn, gn, bn] = [r / 255, g / 255, b / 255]
  const max = Math.max(rn, gn, bn)
  const min = Math.min(rn, gn, bn)
  const l = (max + min) / 2
  if (max === min) return [0, 0, l]
  const d = max - min
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min)
  const h = max === rn ? (gn - bn) / d + (gn < bn ? 6 : 0) : max === gn ? (bn - rn) / d + 2 : (rn - gn) / d + 4
  return [h / 6, s, l]
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  if (s === 0) return [l * 255, l * 255, l * 255]
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s
  const p = 2 * l - q
  const channel = (t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t
    if (u < 1 / 6) return p + (q - p) * 6 * u
    if (u < 1 / 2) return q
    if (u < 2 / 3) return p + (q - p) * (2 / 3 - u) * 6
    return p
  }
  return [channel(h + 1 / 3) * 255, channel(h) * 255, channel(h - 1 / 3) * 255]
}

export function localName(name: string): string {
  const colon = name.indexOf(':')
  return colon === -1 ? name : name.slice(colon + 1)
}

/** A SAX parser for OOXML parts: plain attribute values, no position tracking (faster). */
export function createXmlParser() {
  return new SaxesParser({ xmlns: false, position: false })
}

export type XmlParser = ReturnType<typeof createXmlParser>
