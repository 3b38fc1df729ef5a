/**
 * The rules a command must pass before the workbook model applies it, written once for the browser
 * and the spreadsheet service. A refused command throws a CommandError naming the rule; nothing of it
 * is applied.
 */
import { formatValue, sheetNameFormatProblem } from '@finsheet/formula'
import {
  cellsOffSheetMessage,
  INVALID_NAME_TEXT_MESSAGE,
  isValidNameText,
  MAX_CELL_TEXT_LENGTH,
  MAX_FORMATTED_CELLS,
  MAX_FORMULA_LENGTH,
  MAX_SHEETS,
  mergeTooLargeMessage,
  type CellInput,
} from '@finsheet/contracts'
import { formatAddress, formatRange, MAX_COL, MAX_ROW, normalizeAddress, tryParseRange, type RangeAddress } from './a1.js'

export type CommandErrorCode =
  | 'SHEET_NOT_FOUND'
  | 'INVALID_ADDRESS'
  | 'INVALID_RANGE'
  | 'INVALID_SHEET_NAME'
  | 'SHEET_EXISTS'
  | 'LAST_SHEET'
  | 'TOO_MANY_SHEETS'
  | 'INVALID_STRUCTURE_CHANGE'
  | 'OVERLAPPING_MERGE'
  | 'TOO_MANY_CELLS'
  | 'INVALID_FORMAT'
  | 'FORMULA_TOO_LONG'
  | 'TEXT_TOO_LONG'
  | 'INVALID_NAME'
  | 'INVALID_NAME_TEXT'
  | 'INVALID_COMMAND'
  | 'MERGE_TOO_LARGE'
  | 'CELLS_OFF_SHEET'

/** Refusals of a command that is well formed but would cause more work, or lose more data, than a workbook allows. */
const WORK_LIMIT_CODES: Partial<Record<CommandErrorCode, true>> = { MERGE_TOO_LARGE: true, CELLS_OFF_SHEET: true }

/**
 * A command the model refuses; its message is meant for the user. `statusCode` is what a service
 * answers with (a clash with an existing sheet is a conflict, the rest bad requests), so that the
 * services' error handler shows it as it is.
 */
export class CommandError extends Error {
  readonly code: CommandErrorCode
  readonly statusCode: number

  constructor(code: CommandErrorCode, message: string) {
    super(message)
    this.name = 'CommandError'
    this.code = code
    this.statusCode = code === 'SHEET_EXISTS' ? 409 : code in WORK_LIMIT_CODES ? 422 : 400
  }
}

const thousands = (n: number) => n.toLocaleString('en-US')

export const commandErrors = {
  sheetNotFound: (name: string) => new CommandError('SHEET_NOT_FOUND', `Sheet not found: ${name}`),
  invalidAddress: (address: string) =>
    new CommandError('INVALID_ADDRESS', `Invalid cell address: ${JSON.stringify(address)} (addresses run from A1 to XFD1048576)`),
  invalidRange: (range: string) => new CommandError('INVALID_RANGE', `Invalid range: ${JSON.stringify(range)} (use A1:C3 within A1:XFD1048576)`),
  formulaTooLong: (address: string, length: number) =>
    new CommandError('FORMULA_TOO_LONG', `The formula in ${address} has ${thousands(length)} characters; formulas can have at most ${thousands(MAX_FORMULA_LENGTH)}`),
  textTooLong: (address: string) =>
    new CommandError('TEXT_TOO_LONG', `The text in ${address} is longer than ${thousands(MAX_CELL_TEXT_LENGTH)} characters, the most a cell can hold`),
  invalidFormat: (format: string) => new CommandError('INVALID_FORMAT', `Invalid number format: ${JSON.stringify(format)}`),
  tooManyFormattedCells: () => new CommandError('TOO_MANY_CELLS', `A format can cover at most ${thousands(MAX_FORMATTED_CELLS)} cells at once`),
  invalidSheetName: (message: string) => new CommandError('INVALID_SHEET_NAME', message),
  sheetExists: (name: string) => new CommandError('SHEET_EXISTS', `There is already a sheet named ${name}`),
  lastSheet: () => new CommandError('LAST_SHEET', 'A workbook must keep at least one sheet'),
  lastVisibleSheet: () => new CommandError('LAST_SHEET', 'A workbook must keep at least one visible sheet'),
  tooManySheets: () => new CommandError('TOO_MANY_SHEETS', `A workbook can have at most ${MAX_SHEETS} sheets`),
  invalidStructure: (message: string) => new CommandError('INVALID_STRUCTURE_CHANGE', message),
  overlappingMerge: (range: string) => new CommandError('OVERLAPPING_MERGE', `The range ${range} overlaps a merged range`),
  invalidName: (message: string) => new CommandError('INVALID_NAME', message),
  invalidCommand: (message: string) => new CommandError('INVALID_COMMAND', message),
  tooManyMovedCells: () => new CommandError('TOO_MANY_CELLS', `A move can cover at most ${thousands(MAX_FORMATTED_CELLS)} cells at once`),
  partOfMerge: (range: string) => new CommandError('OVERLAPPING_MERGE', `Cannot change part of a merged cell: ${range} cuts across a merged range`),
  invalidNameText: () => new CommandError('INVALID_NAME_TEXT', INVALID_NAME_TEXT_MESSAGE),
  mergeTooLarge: (range: string, cells: number) => new CommandError('MERGE_TOO_LARGE', mergeTooLargeMessage(range, cells)),
  cellsOffSheet: (axis: 'rows' | 'columns', count: number) => new CommandError('CELLS_OFF_SHEET', cellsOffSheetMessage(axis, count)),
}

/** Refuses a name (of a sheet or a workbook) that is not valid Unicode text or holds control characters. */
export function checkNameText(name: string): void {
  if (!isValidNameText(name)) throw commandErrors.invalidNameText()
}

/** A canonical address ('b3' → 'B3'); refused when outside A1:XFD1048576. */
export function checkAddress(address: string): string {
  const normal = normalizeAddress(address)
  if (normal === undefined) throw commandErrors.invalidAddress(address)
  return normal
}

/** A range in canonical text ('a1:c3' → 'A1:C3'). */
export function checkRange(text: string): { range: RangeAddress; text: string } {
  const range = tryParseRange(text)
  if (!range) throw commandErrors.invalidRange(text)
  return { range, text: formatRange(range) }
}

/** What goes into the engine for an input: '' clears. Formulas over 8,192 characters are refused. */
export function checkInput(address: string, input: CellInput): string | number | boolean {
  if (input === null) return ''
  if (typeof input !== 'string') {
    if (typeof input === 'number' && !Number.isFinite(input)) throw commandErrors.invalidCommand(`The number in ${address} is not finite`)
    return input
  }
  if (input.startsWith('=') && input.length > MAX_FORMULA_LENGTH) throw commandErrors.formulaTooLong(address, input.length)
  if (input.length > MAX_CELL_TEXT_LENGTH) throw commandErrors.textTooLong(address)
  return input
}

/**
 * Whether a number format code is well formed as Excel reads it: quotes and brackets closed, no
 * dangling backslash, at most four sections (positive; negative; zero; text).
 */
export function isWellFormedFormat(format: string): boolean {
  let sections = 1
  for (let i = 0; i < format.length; i++) {
    const ch = format[i]
    if (ch === '\\' || ch === '_' || ch === '*') {
      if (i + 1 >= format.length) return false
      i++
    } else if (ch === '"') {
      const end = format.indexOf('"', i + 1)
      if (end < 0) return false
      i = end
    } else if (ch === '[') {
      const end = format.indexOf(']', i + 1)
      if (end < 0 || end === i + 1) return false
      i = end
    } else if (ch === ']') return false
    else if (ch === ';') sections++
  }
  return sections <= 4
}

/** A number format code the formatter can read; '' and null mean General. */
export function checkFormat(format: string | null): string | null {
  if (format === null || format === '') return null
  if (!isWellFormedFormat(format)) throw commandErrors.invalidFormat(format)
  try {
    formatValue(1234.5678, format)
    formatValue(-1, format)
    formatValue('text', format)
  } catch {
    throw commandErrors.invalidFormat(format)
  }
  return format
}

/** Rows or columns inserted or deleted must stay on the sheet. */
export function checkStructure(axis: 'rows' | 'columns', kind: 'insert' | 'delete', at: number, count: number): void {
  const limit = axis === 'rows' ? MAX_ROW : MAX_COL
  const what = axis === 'rows' ? 'row' : 'column'
  if (!Number.isInteger(at) || at < 0 || !Number.isInteger(count) || count < 1) {
    throw commandErrors.invalidStructure(`Inserting or deleting ${axis} needs a position of 0 or more and a count of at least 1`)
  }
  if (at > limit) throw commandErrors.invalidStructure(`There is no ${what} ${at + 1}: a sheet has ${limit + 1} ${axis}`)
  if (kind === 'delete' && at + count - 1 > limit) throw commandErrors.invalidStructure(`Cannot delete past the last ${what} of the sheet`)
}

/** Why a sheet name cannot be used, by Excel's rules, or null when it can. `current` is the sheet being renamed. */
export function sheetNameProblem(name: string, existing: readonly string[], current?: string): string | null {
  const trimmed = name.trim()
  const problem = sheetNameFormatProblem(trimmed)
  if (problem) return problem
  const upper = trimmed.toUpperCase()
  if (existing.some((other) => other.toUpperCase() === upper && other !== current)) return `There is already a sheet named ${trimmed}`
  return null
}

/** Refuses a list of new sheets' names that breaks a rule or names one sheet twice (in any case). */
export function checkSheetNames(names: readonly string[]): void {
  const seen = new Set<string>()
  for (const name of names) {
    const problem = sheetNameFormatProblem(name)
    if (problem) throw commandErrors.invalidSheetName(`Invalid sheet name ${JSON.stringify(name)}: ${problem.charAt(0).toLowerCase()}${problem.slice(1)}`)
    checkNameText(name)
    if (seen.has(name.toUpperCase())) throw commandErrors.sheetExists(name)
    seen.add(name.toUpperCase())
  }
}

/** The next unused name SheetN: Sheet1, Sheet2, … skipping names already taken (in any case). */
export function nextSheetName(existing: readonly string[]): string {
  const taken = new Set(existing.map((name) => name.toUpperCase()))
  for (let n = 1; ; n++) if (!taken.has(`SHEET${n}`)) return `Sheet${n}`
}

/** The top-left cell of a range as an address. */
export const rangeAnchor = (range: RangeAddress): string => formatAddress(range.top, range.left)
