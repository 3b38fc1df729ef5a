/**
 * Built-in financial model templates (spec 1 §3): real models whose outputs are formulas of their
 * inputs. Each is written as rows of cells from A1, values or formulas, with number formats and
 * styles by range.
 */
import { Engine, formatValue, tryParseRange, formatAddress } from '@finsheet/formula'
import type { CellInputValue } from '@finsheet/formula'
import {
  TEMPLATE_PREVIEW_COLUMNS,
  TEMPLATE_PREVIEW_ROWS,
  type CellStyle,
  type ImportSheet,
  type TemplateCategory,
  type TemplateDifficulty,
  type TemplateRow,
  type TemplateSummary,
} from '@finsheet/contracts'

export interface TemplateSheet {
  name: string
  /** Rows from row 1, cells from column A; undefined or null leaves a cell empty. */
  rows: (CellInputValue | undefined)[][]
  /** Number formats by range ('B4:F14'), applied to the non-empty cells of the range. */
  formats?: [range: string, format: string][]
  /** Styles by range, applied to the non-empty cells of the range. */
  styles?: [range: string, style: CellStyle][]
  /** CSS pixels by 0-based column index. */
  columnWidths?: Record<string, number>
  merges?: string[]
}

/** A cell whose value the template exists to compute, named for tests and previews. */
export interface KeyOutput {
  label: string
  sheet: string
  address: string
}

export interface TemplateDefinition {
  id: string
  name: string
  description: string
  category: TemplateCategory
  difficulty: TemplateDifficulty
  tags: string[]
  sheets: TemplateSheet[]
  keyOutputs: KeyOutput[]
  /** The sheet holding every input (typed numbers, styled as inputs); every other number is a formula. */
  inputSheet: string
  /**
   * Iterative calculation, for a model whose formulas are meant to be circular (interest on average
   * debt balances): switched on in the workbook it makes.
   */
  iterativeCalculation?: boolean
}

/** The template's cells as the bulk import takes them: inputs with their formats and styles. */
export function templateSheets(template: TemplateDefinition): ImportSheet[] {
  return template.sheets.map((sheet) => {
    const formats = new Map<string, string>()
    const styles = new Map<string, CellStyle>()
    for (const [range, format] of sheet.formats ?? []) for (const address of cellsOf(range)) formats.set(address, format)
    for (const [range, style] of sheet.styles ?? []) {
      for (const address of cellsOf(range)) styles.set(address, { ...styles.get(address), ...style })
    }
    const cells: ImportSheet['cells'] = []
    sheet.rows.forEach((row, rowIndex) => {
      row.forEach((input, colIndex) => {
        if (input === undefined || input === null || input === '') return
        const address = formatAddress(rowIndex, colIndex)
        const format = formats.get(address)
        const style = styles.get(address)
        cells.push({ address, input, ...(format ? { format } : {}), ...(style ? { style } : {}) })
      })
    })
    return { name: sheet.name, cells, columnWidths: { ...(sheet.columnWidths ?? {}) }, merges: [...(sheet.merges ?? [])] }
  })
}

function cellsOf(range: string): string[] {
  const bounds = tryParseRange(range)
  if (!bounds) throw new Error(`Invalid range in a template: ${range}`)
  const addresses: string[] = []
  for (let row = bounds.top; row <= bounds.bottom; row++) {
    for (let col = bounds.left; col <= bounds.right; col++) addresses.push(formatAddress(row, col))
  }
  return addresses
}

/** Loads a template into a new engine, calculated. */
export function calculateTemplate(template: TemplateDefinition): Engine {
  const engine = new Engine(template.iterativeCalculation ? { iterative: { enabled: true } } : {})
  for (const sheet of template.sheets) engine.addSheet(sheet.name)
  engine.loadCells(
    templateSheets(template).flatMap((sheet) => sheet.cells.map((cell) => ({ sheet: sheet.name, address: cell.address, input: cell.input }))),
  )
  return engine
}

/** The template as GET /templates lists it, with its first 15 rows typed and calculated. */
export function summarizeTemplate(template: TemplateDefinition): TemplateSummary {
  const engine = calculateTemplate(template)
  const first = template.sheets[0]
  const formats = new Map(templateSheets(template)[0].cells.map((cell) => [cell.address, cell.format]))
  const typed: TemplateRow[] = []
  const shown: TemplateRow[] = []
  for (let row = 0; row < TEMPLATE_PREVIEW_ROWS; row++) {
    const typedRow = { rowIndex: row } as TemplateRow
    const shownRow = { rowIndex: row } as TemplateRow
    TEMPLATE_PREVIEW_COLUMNS.forEach((column, col) => {
      const input = first.rows[row]?.[col]
      typedRow[column] = input === undefined || input === '' ? null : input
      const address = formatAddress(row, col)
      const value = engine.getValue(first.name, address)
      shownRow[column] = value === null ? null : formatValue(value, formats.get(address) ?? engine.getSuggestedFormat(first.name, address))
    })
    typed.push(typedRow)
    shown.push(shownRow)
  }
  return {
    id: template.id,
    name: template.name,
    description: template.description,
    category: template.category,
    difficulty: template.difficulty,
    tags: [...template.tags],
    sheets: template.sheets.map((sheet) => sheet.name),
    template: typed,
    preview: shown,
  }
}
