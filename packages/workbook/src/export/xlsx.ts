/**
 * A workbook as an xlsx file: every sheet, formulas with the values they calculated (so that a reader
 * that does not recalculate shows the same numbers), number formats, styles, column widths and merges.
 */
import ExcelJS from 'exceljs'
import type { CellStyle } from '@finsheet/contracts'
import { tryParseRange } from '../model/a1.js'
import { effectiveFormat, pixelsToExcelWidth } from '../model/cell-record.js'
import type { CellRecord } from '../model/cell-record.js'
import type { WorkbookSnapshot } from '../model/snapshot.js'
import { storedFormula } from './formula-storage.js'

/** Writes the snapshot as an xlsx file. */
export async function writeXlsx(snapshot: WorkbookSnapshot, options: { creator?: string } = {}): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  workbook.creator = options.creator ?? 'Finsheet'
  workbook.created = new Date()
  // Formulas carry their calculated results; a reader recalculating on open gets the same values.
  workbook.calcProperties.fullCalcOnLoad = false
  for (const sheet of snapshot.sheets) {
    const worksheet = workbook.addWorksheet(sheet.name)
    for (const [col, width] of Object.entries(sheet.columnWidths)) {
      const column = worksheet.getColumn(Number(col) + 1)
      if (width === 0) column.hidden = true
      else column.width = pixelsToExcelWidth(width)
    }
    const arrayAreas = sheet.cells.flatMap((record) => (record.arrayRange ? [tryParseRange(record.arrayRange)].filter((range) => range !== undefined) : []))
    const insideArray = (record: CellRecord) =>
      arrayAreas.some((area) => record.row >= area.top && record.row <= area.bottom && record.col >= area.left && record.col <= area.right)
    for (const record of sheet.cells) writeCell(worksheet.getCell(record.row + 1, record.col + 1), record, arrayAreas.length > 0 && insideArray(record))
    for (const range of sheet.merges) {
      try {
        worksheet.mergeCells(range)
      } catch {
        // Overlapping merges cannot exist in a file; the first one wins, as Excel keeps it.
      }
    }
  }
  for (const name of snapshot.definedNames) {
    const reference = name.formula.replace(/^=/, '')
    // exceljs writes only names that refer to ranges; others (constants, formulas) are left out.
    if (/^('[^']+'|[A-Za-z0-9_.]+)!\$?[A-Z]{1,3}\$?\d+(:\$?[A-Z]{1,3}\$?\d+)?$/.test(reference) && name.sheet === undefined) {
      workbook.definedNames.add(reference, name.name)
    }
  }
  const buffer = await workbook.xlsx.writeBuffer()
  return Buffer.from(buffer as ArrayBuffer)
}

function resultOf(record: CellRecord): ExcelJS.CellValue {
  switch (record.type) {
    case 'error':
      return { error: String(record.value) as ExcelJS.CellErrorValue['error'] }
    case 'empty':
      return null
    default:
      return record.value as string | number | boolean
  }
}

/**
 * A plain formula is read by Excel as one saved before dynamic arrays (implicit intersection), which
 * is what a legacy formula is; a fixed-size array formula is written over its range, and the cells of
 * that range other than its anchor carry their results as cached values.
 */
function writeCell(cell: ExcelJS.Cell, record: CellRecord, inArrayRange: boolean): void {
  if (record.input.startsWith('=')) {
    const result = resultOf(record)
    cell.value = {
      formula: storedFormula(record.input.slice(1)),
      ...(result !== null ? { result } : {}),
      ...(record.arrayRange ? { shareType: 'array', ref: record.arrayRange } : {}),
    } as ExcelJS.CellFormulaValue
  } else if (record.input !== '' || (inArrayRange && record.value !== null)) {
    cell.value = resultOf(record)
  }
  const format = effectiveFormat(record)
  if (format !== null) cell.numFmt = format
  if (record.style) applyStyle(cell, record.style)
}

function applyStyle(cell: ExcelJS.Cell, style: CellStyle): void {
  const font: Partial<ExcelJS.Font> = {}
  if (style.bold) font.bold = true
  if (style.italic) font.italic = true
  if (style.underline) font.underline = true
  if (style.fontFamily) font.name = style.fontFamily
  if (style.fontSize) font.size = style.fontSize
  const color = style.color ? argb(style.color) : undefined
  if (color) font.color = { argb: color }
  if (Object.keys(font).length > 0) cell.font = font
  const fill = style.fill ? argb(style.fill) : undefined
  if (fill) cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: fill } }
  if (style.align) cell.alignment = { horizontal: style.align }
}

const NAMED_COLOURS: Record<string, string> = {
  black: '000000',
  white: 'FFFFFF',
  red: 'FF0000',
  green: '008000',
  blue: '0000FF',
  yellow: 'FFFF00',
  orange: 'FFA500',
  purple: '800080',
  gray: '808080',
  grey: '808080',
}

/** A CSS colour (#rgb, #rrggbb, rgb(), or a basic name) as Excel's ARGB; undefined when unreadable. */
export function argb(css: string): string | undefined {
  const text = css.trim().toLowerCase()
  if (NAMED_COLOURS[text]) return 'FF' + NAMED_COLOURS[text]
  let match = /^#([0-9a-f]{3})$/.exec(text)
  if (match) return 'FF' + [...match[1]].map((digit) => digit + digit).join('').toUpperCase()
  match = /^#([0-9a-f]{6})$/.exec(text)
  if (match) return 'FF' + match[1].toUpperCase()
  const rgb = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})/.exec(text)
  if (rgb) return 'FF' + rgb.slice(1, 4).map((part) => Math.min(255, Number(part)).toString(16).padStart(2, '0')).join('').toUpperCase()
  return undefined
}
