import type { CellStyle } from '../grid/types'

/**
 * Every change to a workbook is one of these plain, serialisable commands: the grid, the
 * toolbar, undo and redo, the server's change log and the assistant's changesets all speak them.
 */
export type WorkbookCommand =
  | SetCellsCommand
  | FormatCellsCommand
  | ResizeColumnCommand
  | InsertRowsCommand
  | DeleteRowsCommand
  | InsertColumnsCommand
  | DeleteColumnsCommand
  | AddSheetCommand
  | RenameSheetCommand
  | DeleteSheetCommand
  | MoveSheetCommand
  | MergeCellsCommand
  | UnmergeCellsCommand
  | BatchCommand

export interface CellChange {
  /** A1 address on the command's sheet */
  address: string
  /** what the user typed; '' clears the cell's content */
  input?: string
  /** the cell's whole style; null removes it */
  style?: CellStyle | null
  /** an Excel number format code; null returns to General */
  format?: string | null
}

export interface SetCellsCommand {
  type: 'set-cells'
  sheet: string
  cells: CellChange[]
}

/** Merges a style patch into every cell of the ranges (a toolbar click), or sets their number format. */
export interface FormatCellsCommand {
  type: 'format-cells'
  sheet: string
  /** A1 ranges such as 'A1:C3' */
  ranges: string[]
  style?: Partial<CellStyle>
  format?: string | null
}

export interface ResizeColumnCommand {
  type: 'resize-column'
  sheet: string
  /** zero-based column index */
  column: number
  /** width in CSS pixels; null returns to the default width */
  width: number | null
}

export interface InsertRowsCommand {
  type: 'insert-rows'
  sheet: string
  /** zero-based index of the first new row */
  at: number
  count: number
}

export interface DeleteRowsCommand {
  type: 'delete-rows'
  sheet: string
  at: number
  count: number
}

export interface InsertColumnsCommand {
  type: 'insert-columns'
  sheet: string
  at: number
  count: number
}

export interface DeleteColumnsCommand {
  type: 'delete-columns'
  sheet: string
  at: number
  count: number
}

export interface AddSheetCommand {
  type: 'add-sheet'
  name: string
  /** position in the sheet order; the end when absent */
  index?: number
}

export interface RenameSheetCommand {
  type: 'rename-sheet'
  from: string
  to: string
}

export interface DeleteSheetCommand {
  type: 'delete-sheet'
  name: string
}

/** Moves a sheet to a position in the sheet order. */
export interface MoveSheetCommand {
  type: 'move-sheet'
  name: string
  index: number
}

/** Merges a range into one cell showing its top-left cell; the other cells' contents are cleared. */
export interface MergeCellsCommand {
  type: 'merge-cells'
  sheet: string
  range: string
}

export interface UnmergeCellsCommand {
  type: 'unmerge-cells'
  sheet: string
  range: string
}

/** Several commands applied, undone and sent as one change (a paste, a fill, an undo of a delete). */
export interface BatchCommand {
  type: 'batch'
  label: string
  commands: WorkbookCommand[]
}

/** A short description for the undo and redo buttons' tooltips. */
export function describeCommand(command: WorkbookCommand): string {
  switch (command.type) {
    case 'set-cells':
      return command.cells.length === 1 ? `edit ${command.cells[0].address}` : `edit ${command.cells.length} cells`
    case 'format-cells':
      return command.format !== undefined ? 'number format' : 'formatting'
    case 'resize-column':
      return 'column width'
    case 'insert-rows':
      return command.count === 1 ? 'insert row' : `insert ${command.count} rows`
    case 'delete-rows':
      return command.count === 1 ? 'delete row' : `delete ${command.count} rows`
    case 'insert-columns':
      return command.count === 1 ? 'insert column' : `insert ${command.count} columns`
    case 'delete-columns':
      return command.count === 1 ? 'delete column' : `delete ${command.count} columns`
    case 'add-sheet':
      return `add ${command.name}`
    case 'rename-sheet':
      return `rename ${command.from}`
    case 'delete-sheet':
      return `delete ${command.name}`
    case 'move-sheet':
      return `move ${command.name}`
    case 'merge-cells':
      return `merge ${command.range}`
    case 'unmerge-cells':
      return `unmerge ${command.range}`
    case 'batch':
      return command.label
  }
}

/** The next unused name SheetN (spec 1 §4): Sheet1, Sheet2, … skipping names already taken. */
export function nextSheetName(existing: readonly string[]): string {
  const taken = new Set(existing.map((n) => n.toLowerCase()))
  for (let n = 1; ; n++) {
    const name = `Sheet${n}`
    if (!taken.has(name.toLowerCase())) return name
  }
}

/** Why a sheet name cannot be used, in Excel's rules, or null when it can. */
export function sheetNameProblem(name: string, existing: readonly string[], current?: string): string | null {
  const trimmed = name.trim()
  if (trimmed === '') return 'A sheet name cannot be empty'
  if (trimmed.length > 31) return 'A sheet name can have at most 31 characters'
  if (/[\\/?*[\]:]/.test(trimmed)) return 'A sheet name cannot contain \\ / ? * [ ] or :'
  if (trimmed.startsWith("'") || trimmed.endsWith("'")) return 'A sheet name cannot start or end with an apostrophe'
  const lower = trimmed.toLowerCase()
  if (existing.some((n) => n.toLowerCase() === lower && n !== current)) return `There is already a sheet named ${trimmed}`
  return null
}
