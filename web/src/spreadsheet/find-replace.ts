import { MAX_UPDATES_PER_CHANGE } from '@finsheet/contracts'
import type { CellEdit, WorkbookCommand } from '@finsheet/contracts'
import { FormulaSyntaxError, parseFormulaText } from '@finsheet/formula'
import type { CellPosition } from '../grid/address'

/**
 * Excel's Find and Replace, framework-free. Cells are searched row by row (as Excel's "By Rows"),
 * sheet after sheet in tab order when the whole workbook is searched. `*` stands for any run of
 * characters, `?` for one, and `~` makes the next one literal (`~*` finds a star).
 */

/** Formulas: what was typed (a formula's text, a constant as entered). Values: what the cell shows. */
export type LookIn = 'formulas' | 'values'
export type SearchWithin = 'sheet' | 'workbook'

export interface FindOptions {
  find: string
  lookIn: LookIn
  matchCase: boolean
  /** the whole cell's text must match, not a part of it */
  wholeCell: boolean
  within: SearchWithin
}

/** What the search reads of a workbook: its sheets in tab order and their cells. */
export interface SearchableWorkbook {
  readonly sheetNames: readonly string[]
  forEachCell(sheet: string, visit: (cell: { address: string; row: number; col: number; input: string }) => void): void
  getDisplay(sheet: string, pos: CellPosition): string
}

export interface FoundCell {
  sheet: string
  address: string
  row: number
  col: number
  /** what the cell shows */
  value: string
  /** what was typed into it */
  input: string
}

/** Said when a search finds nothing, in Excel's words. */
export const NOTHING_FOUND = "We couldn't find what you were looking for."

/** Replace All's report, in Excel's words. */
export function replacedMessage(count: number): string {
  return `All done. We made ${count} replacement${count === 1 ? '' : 's'}.`
}

/** The pattern `find` stands for (wildcards read), or null when there is nothing to find. */
export function findPattern(options: Pick<FindOptions, 'find' | 'matchCase' | 'wholeCell'>, global = false): RegExp | null {
  if (options.find === '') return null
  let source = ''
  for (let i = 0; i < options.find.length; i++) {
    const ch = options.find[i]
    if (ch === '~' && i + 1 < options.find.length && '*?~'.includes(options.find[i + 1])) {
      source += escapeRegExp(options.find[++i])
    } else if (ch === '*') source += '[\\s\\S]*'
    else if (ch === '?') source += '[\\s\\S]'
    else source += escapeRegExp(ch)
  }
  if (options.wholeCell) source = `^(?:${source})$`
  return new RegExp(source, `${options.matchCase ? '' : 'i'}${global ? 'g' : ''}`)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The sheets searched, the active one first when only it is searched. */
function searchedSheets(workbook: SearchableWorkbook, options: FindOptions, activeSheet: string): string[] {
  return options.within === 'sheet' ? [activeSheet] : [...workbook.sheetNames]
}

/** The matching cells of one sheet, row by row; a cell's shown text is read only when it is needed. */
function matchingCells(workbook: SearchableWorkbook, sheet: string, pattern: RegExp, lookIn: LookIn): FoundCell[] {
  const cells: FoundCell[] = []
  workbook.forEachCell(sheet, (cell) => {
    if (lookIn === 'formulas' && (cell.input === '' || !pattern.test(cell.input))) return
    const value = workbook.getDisplay(sheet, { col: cell.col, row: cell.row })
    if (lookIn === 'values' && (value === '' || !pattern.test(value))) return
    cells.push({ sheet, address: cell.address, row: cell.row, col: cell.col, input: cell.input, value })
  })
  return cells.sort((a, b) => a.row - b.row || a.col - b.col)
}

/** Every matching cell, sheet by sheet in tab order, row by row (Find All). */
export function findAll(workbook: SearchableWorkbook, options: FindOptions, activeSheet: string): FoundCell[] {
  const pattern = findPattern(options)
  if (!pattern) return []
  return searchedSheets(workbook, options, activeSheet).flatMap((sheet) => matchingCells(workbook, sheet, pattern, options.lookIn))
}

/**
 * The next matching cell after `from` (row by row, then the following sheets, wrapping round to
 * `from` itself), or null when nothing matches (Find Next).
 */
export function findNext(workbook: SearchableWorkbook, options: FindOptions, from: { sheet: string } & CellPosition): FoundCell | null {
  const found = findAll(workbook, options, from.sheet)
  if (found.length === 0) return null
  const sheets = searchedSheets(workbook, options, from.sheet)
  const sheetIndex = (name: string) => sheets.indexOf(name)
  const here = sheetIndex(from.sheet)
  const after = found.find((cell) => {
    const index = sheetIndex(cell.sheet)
    return index > here || (index === here && (cell.row > from.row || (cell.row === from.row && cell.col > from.col)))
  })
  return after ?? found[0]
}

/** A cell's input with every match replaced; the whole input when whole cells are matched. */
export function replaceInput(input: string, options: Pick<FindOptions, 'find' | 'matchCase' | 'wholeCell'>, replacement: string): string | null {
  const pattern = findPattern(options, true)
  if (!pattern || !pattern.test(input)) return null
  pattern.lastIndex = 0
  // A function keeps `$&` and the like in the replacement literal.
  return input.replace(pattern, () => replacement)
}

/** Why a replaced input cannot be written, or null: a formula must still read as one. */
export function replacedInputProblem(input: string): string | null {
  if (!input.startsWith('=') || input.length === 1) return null
  try {
    parseFormulaText(input.slice(1))
    return null
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return `${input} is not a valid formula`
    throw error
  }
}

export interface RefusedReplacement {
  sheet: string
  address: string
  /** the formula the replacement would have written */
  reason: string
}

export interface ReplacementPlan {
  /** one undoable change, or null when nothing is to be replaced */
  command: WorkbookCommand | null
  /** cells replaced */
  count: number
  /** cells left as they were because the replacement would break their formula */
  refused: RefusedReplacement[]
}

/**
 * Replaces in the inputs of `cells` (Replace All passes every match; Replace one cell): a cell
 * whose formula would no longer read as a formula is left as it is and reported. Everything else is
 * one batch of set-cells, one undo.
 */
export function planReplacements(cells: readonly FoundCell[], options: FindOptions, replacement: string): ReplacementPlan {
  const bySheet = new Map<string, CellEdit[]>()
  const refused: RefusedReplacement[] = []
  let count = 0
  for (const cell of cells) {
    const next = replaceInput(cell.input, options, replacement)
    if (next === null || next === cell.input) continue
    const problem = replacedInputProblem(next)
    if (problem) {
      refused.push({ sheet: cell.sheet, address: cell.address, reason: problem })
      continue
    }
    const edits = bySheet.get(cell.sheet) ?? []
    edits.push({ address: cell.address, input: next })
    bySheet.set(cell.sheet, edits)
    count++
  }
  if (count > MAX_UPDATES_PER_CHANGE) throw new Error(`Replace All changes at most ${MAX_UPDATES_PER_CHANGE.toLocaleString('en-US')} cells at once; ${count.toLocaleString('en-US')} match`)
  const commands = [...bySheet].map(([sheet, edits]) => ({ type: 'set-cells' as const, sheet, cells: edits }))
  const command: WorkbookCommand | null =
    commands.length === 0 ? null : { type: 'batch', label: `Replace ${count} cell${count === 1 ? '' : 's'}`, commands }
  return { command, count, refused }
}

/** The message for cells a replacement would have broken. */
export function refusedMessage(refused: readonly RefusedReplacement[]): string {
  const shown = refused.slice(0, 3).map((cell) => `${cell.sheet}!${cell.address}`)
  const more = refused.length > shown.length ? ` and ${refused.length - shown.length} more` : ''
  return `Left unchanged: the replacement would break the formula in ${shown.join(', ')}${more}.`
}
