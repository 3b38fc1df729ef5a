/**
 * A workbook read from a file as the body of the spreadsheet service's bulk import
 * (POST /workbooks/import): what the user would have typed in each cell, its number format and the
 * part of its look the workbook model holds. What the model cannot hold yet is named in `notKept`.
 */
import { columnToLetters, parseCellInput, tryParseRange } from '@finsheet/formula'
import type { ImportedStyle, ImportedValue, ImportedWorkbook } from '@finsheet/workbook'

type CellInput = string | number | boolean | null

export interface ImportCellBody {
  address: string
  input: CellInput
  format?: string
  style?: ImportCellStyle
}

export interface ImportCellStyle {
  bold?: boolean
  italic?: boolean
  underline?: boolean
  fontFamily?: string
  fontSize?: number
  color?: string
  fill?: string
  align?: 'left' | 'center' | 'right'
}

export interface WorkbookImportBody {
  name: string
  sheets: { name: string; cells: ImportCellBody[]; columnWidths?: Record<string, number>; merges?: string[] }[]
  definedNames?: { name: string; formula: string; sheet?: string }[]
}

export interface BuiltImport {
  body: WorkbookImportBody
  /** Features present in the file that the import leaves out. */
  notKept: string[]
}

/** Excel column width (characters) to the grid's CSS pixels, as the spreadsheet model converts it. */
export function excelWidthToPixels(width: number): number {
  return Math.round(width * 7 + 5)
}

export function buildImportBody(workbook: ImportedWorkbook, name: string): BuiltImport {
  const styles = workbook.styles.map(toCellStyle)
  const notKept = new Set<string>()
  for (const style of workbook.styles) {
    if (style.borders) notKept.add('borders')
    if (style.strike) notKept.add('strikethrough')
    if (style.verticalAlign || style.wrapText || style.indent || style.textRotation) notKept.add('vertical alignment, wrapping, indents and rotation')
    if (style.align && !['left', 'center', 'right'].includes(style.align)) notKept.add(`${style.align} alignment`)
  }
  const sheets = workbook.sheets.map((sheet) => {
    if (sheet.rows.length > 0) notKept.add('row heights and hidden rows')
    if (sheet.state !== 'visible') notKept.add('hidden sheets (imported as visible)')
    const arrayFilled = arrayFilledAddresses(sheet.cells)
    const cells: ImportCellBody[] = []
    for (const cell of sheet.cells) {
      if (arrayFilled.has(cell.address)) continue
      const input = cell.formula !== undefined ? '=' + cell.formula : inputOf(cell.value)
      const style = cell.style === undefined ? undefined : workbook.styles[cell.style]
      const format = style?.numberFormat
      const look = cell.style === undefined ? undefined : styles[cell.style]
      if (input === null && !format && !look) continue
      const body: ImportCellBody = { address: cell.address, input }
      if (format) body.format = format
      if (look) body.style = look
      cells.push(body)
    }
    const columnWidths: Record<string, number> = {}
    for (const column of sheet.columns) columnWidths[String(column.col)] = column.hidden ? 0 : excelWidthToPixels(column.width)
    return { name: sheet.name, cells, columnWidths, merges: sheet.merges }
  })
  return {
    body: {
      name,
      sheets,
      definedNames: workbook.definedNames.map((definition) => ({
        name: definition.name,
        formula: '=' + definition.formula,
        ...(definition.sheet ? { sheet: definition.sheet } : {}),
      })),
    },
    notKept: [...notKept],
  }
}

function toCellStyle(style: ImportedStyle): ImportCellStyle | undefined {
  const look: ImportCellStyle = {}
  if (style.bold) look.bold = true
  if (style.italic) look.italic = true
  if (style.underline) look.underline = true
  if (style.fontFamily) look.fontFamily = style.fontFamily.slice(0, 64)
  if (style.fontSize && style.fontSize >= 1 && style.fontSize <= 409) look.fontSize = style.fontSize
  if (style.color) look.color = style.color
  if (style.fill) look.fill = style.fill
  if (style.align === 'left' || style.align === 'right') look.align = style.align
  else if (style.align === 'center' || style.align === 'centerContinuous') look.align = 'center'
  return Object.keys(look).length > 0 ? look : undefined
}

/**
 * A constant as the input that gives it back. Text the input reader would take for something else (a
 * number, a date, TRUE, a formula) gets the apostrophe that keeps it text.
 */
export function inputOf(value: ImportedValue): CellInput {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value
  if (typeof value === 'object') return value.error
  if (value === '') return null
  const reading = parseCellInput(value)
  return reading.kind === 'value' && reading.value === value ? value : "'" + value
}

/** Cells inside an array formula's range, other than its anchor: their values are the formula's results. */
function arrayFilledAddresses(cells: ImportedWorkbook['sheets'][number]['cells']): Set<string> {
  const filled = new Set<string>()
  for (const cell of cells) {
    const range = cell.arrayRange ? tryParseRange(cell.arrayRange) : undefined
    if (!range) continue
    for (let row = range.top; row <= range.bottom; row++) {
      for (let col = range.left; col <= range.right; col++) {
        if (row !== cell.row || col !== cell.col) filled.add(columnToLetters(col) + String(row + 1))
      }
    }
  }
  return filled
}
