/**
 * The API's commands (sheets by name, inputs as sent) checked and turned into the change log's
 * commands (sheets by id, addresses canonical). Every bad input is refused here, before anything is
 * applied, with the message the user sees.
 */
import { formatValue } from '@finsheet/formula'
import {
  isValidNameText,
  MAX_CELL_TEXT_LENGTH,
  MAX_FORMATTED_CELLS,
  MAX_FORMULA_LENGTH,
  type CellInput,
  type CellStyle,
  type WorkbookCommand,
} from '@finsheet/contracts'
import { formatAddress, formatRange, MAX_COL, MAX_ROW, normalizeAddress, rangeSize, tryParseRange } from '@finsheet/workbook'
import { spreadsheetErrors } from '../errors.js'
import type { CellWrite, InternalCommand } from './commands.js'
import { newSheetId } from './ids.js'
import { checkInsertion, checkMergeSize } from './limits.js'
import type { WorkbookState } from './workbook-state.js'

/** A canonical address ('b3' → 'B3'); 400 when outside A1:XFD1048576. */
export function checkAddress(address: string): string {
  const normal = normalizeAddress(address)
  if (normal === undefined) throw spreadsheetErrors.invalidAddress(address)
  return normal
}

/** Refuses a workbook or sheet name that is not valid Unicode text or holds control characters (400). */
export function checkNameText(name: string): void {
  if (!isValidNameText(name)) throw spreadsheetErrors.invalidNameText()
}

/** A workbook name as given, trimmed: 400 when empty or not valid text. */
export function checkWorkbookName(name: string): string {
  const trimmed = name.trim()
  if (trimmed === '') throw spreadsheetErrors.invalidWorkbookName()
  checkNameText(trimmed)
  return trimmed
}

/** What goes into the engine for an input: '' clears. Formulas over 8,192 characters are refused. */
export function checkInput(address: string, input: CellInput): string | number | boolean {
  if (input === null) return ''
  if (typeof input !== 'string') return input
  if (input.startsWith('=') && input.length > MAX_FORMULA_LENGTH) throw spreadsheetErrors.formulaTooLong(address, input.length)
  if (input.length > MAX_CELL_TEXT_LENGTH) throw spreadsheetErrors.textTooLong(address)
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
  if (!isWellFormedFormat(format)) throw spreadsheetErrors.invalidFormat(format)
  try {
    formatValue(1234.5678, format)
    formatValue(-1, format)
    formatValue('text', format)
  } catch {
    throw spreadsheetErrors.invalidFormat(format)
  }
  return format
}

function checkRange(text: string): { range: NonNullable<ReturnType<typeof tryParseRange>>; text: string } {
  const range = tryParseRange(text)
  if (!range) throw spreadsheetErrors.invalidRange(text)
  return { range, text: formatRange(range) }
}

function checkStructure(axis: 'rows' | 'columns', kind: 'insert' | 'delete', at: number, count: number): void {
  const limit = axis === 'rows' ? MAX_ROW : MAX_COL
  const what = axis === 'rows' ? 'row' : 'column'
  if (at > limit) throw spreadsheetErrors.invalidStructure(`There is no ${what} ${at + 1}: a sheet has ${limit + 1} ${axis}`)
  if (kind === 'delete' && at + count - 1 > limit) throw spreadsheetErrors.invalidStructure(`Cannot delete past the last ${what} of the sheet`)
}

/** The next unused SheetN (spec 1 §4). */
export function nextSheetName(state: WorkbookState): string {
  for (let n = 1; ; n++) if (!state.findSheet(`Sheet${n}`)) return `Sheet${n}`
}

/** Translates one API command against the workbook as it is now (earlier commands of a change applied). */
export function translateCommand(state: WorkbookState, command: WorkbookCommand): InternalCommand[] {
  switch (command.type) {
    case 'set-cells': {
      const sheet = state.sheetByName(command.sheet)
      const cells: CellWrite[] = command.cells.map((cell) => {
        const address = checkAddress(cell.address)
        const write: CellWrite = { address }
        if (cell.input !== undefined) write.input = checkInput(address, cell.input)
        if (cell.style !== undefined) write.style = cell.style
        if (cell.format !== undefined) write.format = checkFormat(cell.format)
        return write
      })
      return [{ type: 'set-cells', sheetId: sheet.id, cells }]
    }
    case 'format-cells': {
      const sheet = state.sheetByName(command.sheet)
      const ranges = command.ranges.map((text) => checkRange(text).range)
      if (ranges.reduce((sum, range) => sum + rangeSize(range), 0) > MAX_FORMATTED_CELLS) throw spreadsheetErrors.tooManyFormattedCells()
      const format = command.format === undefined ? undefined : checkFormat(command.format)
      const cells = new Map<string, CellWrite>()
      for (const range of ranges) {
        for (let row = range.top; row <= range.bottom; row++) {
          for (let col = range.left; col <= range.right; col++) {
            const address = formatAddress(row, col)
            const write: CellWrite = { address }
            if (command.style) write.style = { ...(state.styleAt(sheet.id, address) ?? {}), ...command.style } as CellStyle
            if (format !== undefined) write.format = format
            cells.set(address, write)
          }
        }
      }
      return [{ type: 'set-cells', sheetId: sheet.id, cells: [...cells.values()] }]
    }
    case 'resize-column':
      return [{ type: 'resize-column', sheetId: state.sheetByName(command.sheet).id, column: command.column, width: command.width }]
    case 'insert-rows':
    case 'delete-rows':
    case 'insert-columns':
    case 'delete-columns': {
      const sheet = state.sheetByName(command.sheet)
      const axis = command.type.endsWith('rows') ? 'rows' : 'columns'
      const kind = command.type.startsWith('insert') ? 'insert' : 'delete'
      checkStructure(axis, kind, command.at, command.count)
      if (kind === 'insert') checkInsertion(state, sheet.id, axis, command.at, command.count)
      return [{ type: command.type, sheetId: sheet.id, at: command.at, count: command.count }]
    }
    case 'add-sheet':
      checkNameText(command.name)
      return [{ type: 'add-sheet', sheetId: newSheetId(), name: command.name, index: command.index ?? state.sheets.length }]
    case 'rename-sheet':
      checkNameText(command.to)
      return [{ type: 'rename-sheet', sheetId: state.sheetByName(command.from).id, name: command.to }]
    case 'delete-sheet':
      return [{ type: 'delete-sheet', sheetId: state.sheetByName(command.name).id }]
    case 'move-sheet':
      return [{ type: 'move-sheet', sheetId: state.sheetByName(command.name).id, index: command.index }]
    case 'merge-cells':
    case 'unmerge-cells': {
      const { range, text } = checkRange(command.range)
      if (command.type === 'merge-cells') checkMergeSize(range, text)
      return [{ type: command.type, sheetId: state.sheetByName(command.sheet).id, range: text }]
    }
    case 'batch':
      return command.commands.flatMap((inner) => translateCommand(state, inner))
  }
}

/** How many cell writes a list of API commands holds, to refuse oversized changes up front. */
export function countUpdates(commands: readonly WorkbookCommand[]): number {
  let count = 0
  for (const command of commands) {
    if (command.type === 'set-cells') count += command.cells.length
    else if (command.type === 'batch') count += countUpdates(command.commands)
  }
  return count
}

/** Whether any command may move cells or rewrite formulas, so that the change is compared in full. */
export function mayRestructure(commands: readonly WorkbookCommand[]): boolean {
  return commands.some((command) =>
    command.type === 'batch'
      ? mayRestructure(command.commands)
      : ['insert-rows', 'delete-rows', 'insert-columns', 'delete-columns', 'rename-sheet', 'delete-sheet', 'move-sheet', 'add-sheet'].includes(command.type),
  )
}
