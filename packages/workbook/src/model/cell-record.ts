/**
 * Cell and sheet records: the workbook as services store it and clients receive it. A cell keeps what
 * the user typed (its input), the value the engine calculated, its style and its number format.
 */
import { formatValue, isCellError } from '@finsheet/formula'
import type { CellValue as EngineValue, FormulaEvaluation } from '@finsheet/formula'
import { ERROR_VALUE_MEANINGS } from '@finsheet/contracts'
import type { Cell, CellStyle, CellType, CellValue, ChangedCell, ConditionalFormatRule, DataValidationRule, FormulaResult, SheetViewState } from '@finsheet/contracts'

/** One non-empty cell (content, or only a style or format). */
export interface CellRecord {
  address: string
  /** 0-based. */
  row: number
  col: number
  /** What the user typed; formulas start with '='. '' for a cell filled by a spill or holding only a style. */
  input: string
  value: CellValue
  type: CellType
  /** The number format chosen by the user; absent for General. */
  userFormat?: string
  /** The number format the input or the formula's function suggests ('15%' → '0%'). */
  suggestedFormat?: string
  style?: CellStyle
  /**
   * A formula saved before dynamic arrays (a plain formula in an xlsx file): ranges where one value is
   * expected are implicitly intersected and it never spills, as Excel calculates it.
   */
  legacy?: boolean
  /** On the anchor of a fixed-size array formula (Ctrl+Shift+Enter): the range its result fills. */
  arrayRange?: string
}

export interface SheetRecord {
  /** Stable across renames, so history, undo and versions follow a renamed sheet. */
  id: string
  name: string
  /** CSS pixels by 0-based column index. */
  columnWidths: Record<string, number>
  /** Merged ranges such as 'A1:C1'. */
  merges: string[]
  /** Frozen panes, hidden rows, columns and sheet, row heights and outline groups; absent when none. */
  view?: SheetViewState
  /** Data-validation rules, each over its ranges; absent when none. */
  validations?: DataValidationRule[]
  /** Conditional-format rules in priority order; absent when none. */
  conditionalFormats?: ConditionalFormatRule[]
}

/**
 * A formula calculated without being written, as the API answers it: shown with `numberFormat`
 * (the target cell's own format) or else the format the formula's function suggests; an error
 * value says what it means.
 */
export function formulaResultOf(evaluation: FormulaEvaluation, numberFormat?: string): FormulaResult {
  const value = evaluation.value
  const result: FormulaResult = { value: toJsonValue(value), display: formatValue(value, numberFormat ?? evaluation.format), type: cellTypeOf(value) }
  if (isCellError(value)) result.error = value.message ?? ERROR_VALUE_MEANINGS[value.code] ?? value.code
  if (evaluation.rows > 1 || evaluation.columns > 1) result.spill = { rows: evaluation.rows, columns: evaluation.columns }
  return result
}

/** The JSON form of an engine value: errors become their code ('#DIV/0!'). */
export function toJsonValue(value: EngineValue): CellValue {
  if (value === null || typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value
  return value.code
}

export function cellTypeOf(value: EngineValue): CellType {
  if (value === null) return 'empty'
  if (isCellError(value)) return 'error'
  if (typeof value === 'number') return 'number'
  if (typeof value === 'boolean') return 'boolean'
  return 'text'
}

/** The number format in force: the user's, else the suggested one; null for General. */
export function effectiveFormat(record: Pick<CellRecord, 'userFormat' | 'suggestedFormat'>): string | null {
  return record.userFormat ?? record.suggestedFormat ?? null
}

/** The text the grid shows for a record. */
export function displayOf(record: Pick<CellRecord, 'value' | 'type' | 'userFormat' | 'suggestedFormat'>): string {
  if (record.type === 'error' || record.value === null) return record.value === null ? '' : String(record.value)
  try {
    return formatValue(record.value, effectiveFormat(record) ?? undefined)
  } catch {
    // A format the formatter cannot read shows the value as General, as Excel shows an unknown code.
    return formatValue(record.value, undefined)
  }
}

/** A record as the cells route returns it. */
export function toApiCell(record: CellRecord): Cell {
  return {
    value: record.value,
    formula: record.input.startsWith('=') ? record.input : null,
    input: record.input,
    type: record.type,
    format: effectiveFormat(record),
    style: record.style ?? null,
    display: displayOf(record),
  }
}

/** A record as a change answer lists it. */
export function toChangedCell(sheet: string, record: CellRecord): ChangedCell {
  return { sheet, address: record.address, ...toApiCell(record) }
}

/** How a cleared cell is reported. */
export function clearedCell(sheet: string, address: string): ChangedCell {
  return { sheet, address, value: null, type: 'empty', display: '', input: '', formula: null, format: null, style: null }
}

/** Whether two records hold the same content, value, style and format. */
export function sameRecord(a: CellRecord | undefined, b: CellRecord | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  return a.input === b.input && a.arrayRange === b.arrayRange && sameShown(a, b)
}

/**
 * Whether a cell shows the same after rows or columns moved as its moved self did: the same record,
 * except that two formulas may differ in text (the move rewrote their references, on the client too).
 */
export function sameAfterMove(a: CellRecord | undefined, b: CellRecord | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  return a.input.startsWith('=') && b.input.startsWith('=') ? sameShown(a, b) : sameRecord(a, b)
}

/** Value, type, formats, the legacy mark and style alike: what a cell shows, apart from its input. */
function sameShown(a: CellRecord, b: CellRecord): boolean {
  return (
    a.value === b.value &&
    a.type === b.type &&
    a.userFormat === b.userFormat &&
    a.suggestedFormat === b.suggestedFormat &&
    (a.legacy ?? false) === (b.legacy ?? false) &&
    sameStyle(a.style, b.style)
  )
}

export function sameStyle(a: CellStyle | undefined | null, b: CellStyle | undefined | null): boolean {
  if (!a || !b) return !a === !b
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof CellStyle>
  for (const key of keys) if (a[key] !== b[key]) return false
  return true
}

/** A style without its unset fields, or undefined when nothing is set. */
export function compactStyle(style: CellStyle | null | undefined): CellStyle | undefined {
  if (!style) return undefined
  const entries = Object.entries(style).filter(([, value]) => value !== undefined && value !== null)
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as CellStyle)
}

/** Column widths: the web grid works in CSS pixels, Excel in characters of the default font. */
export function pixelsToExcelWidth(pixels: number): number {
  return Math.max(0, Math.round(((pixels - 5) / 7) * 100) / 100)
}

export function excelWidthToPixels(width: number): number {
  return Math.round(width * 7 + 5)
}
