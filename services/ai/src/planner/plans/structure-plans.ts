/** Plans that change the shape of the workbook: rows, columns and sheets, through modify_structure. */
import { columnToLetters, formatAddress, lettersToColumn } from '@finsheet/workbook'
import type { PlannerCommand } from '../command-language.js'
import { readAs, writeOutcome } from '../answers.js'
import { stop, type PlanAnswer, type PlanContext, type Step } from '../plan-kit.js'
import { resolveTarget } from '../targets.js'
import { lookOver, useToolOrStop, writeCells } from '../tool-steps.js'
import type { WorkbookView } from '../workbook-view.js'

type Command<T extends PlannerCommand['type']> = Extract<PlannerCommand, { type: T }>

function* structure(args: Record<string, unknown>, paraphrase: string): Step<PlanAnswer> {
  const result = yield* useToolOrStop('modify_structure', args, paraphrase)
  const errors = (result.content?.newErrors ?? []) as string[]
  const removed = typeof result.content?.removedCells === 'number' ? ` It removed ${result.content.removedCells} cell${result.content.removedCells === 1 ? '' : 's'} with content.` : ''
  return { text: readAs(paraphrase, `Done: ${result.content?.done ?? paraphrase}.${removed}${errors.length > 0 ? ` Watch out: ${errors.slice(0, 5).join(', ')} now show #REF! because they read removed cells.` : ''}`) }
}

/** The 0-based column a column anchor names: letters, or a header (“the FY2025 column”). */
function* anchorColumn(view: WorkbookView, command: Command<'insert'>, context: PlanContext): Step<{ sheet: string; col: number; last: number; named: string }> {
  const anchor = command.anchor
  // "before FY2025" reads like an address (column FY, row 2025): a header that says so wins.
  if (anchor.kind === 'address') {
    const sheet = view.sheetFor(anchor.sheet, context.activeSheet)
    const header = view.headerSaying(sheet, anchor.address)
    if (header) return { sheet: sheet.name, col: header.col, last: header.col, named: `column ${columnToLetters(header.col)} (${header.text})` }
  }
  if (anchor.kind === 'label') {
    const sheet = view.sheetFor(anchor.sheet, context.activeSheet)
    const header = view.matchHeader(sheet, anchor.text.replace(/\s+column$/i, ''))
    if (!header) stop(`No column headed “${anchor.text}” on ${sheet.name}.`)
    return { sheet: sheet.name, col: header.col, last: header.col, named: `column ${columnToLetters(header.col)} (${header.text})` }
  }
  const found = yield* resolveTarget(view, anchor, context)
  return { sheet: found.sheet.name, col: found.range.left, last: found.range.right, named: `column ${columnToLetters(found.range.left)}` }
}

export function* planInsert(command: Command<'insert'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const n = command.count
  const plural = (word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  if (command.axis === 'rows') {
    const found = yield* resolveTarget(view, command.anchor, context)
    const at = command.side === 'after' ? found.range.bottom + 2 : found.range.top + 1
    const named = found.label ? `row ${found.range.top + 1} (${found.label.label.text})` : `row ${found.range.top + 1}`
    const where = command.side === 'after' ? `below ${named}` : command.side === 'before' ? `above ${named}` : `at row ${at}`
    return yield* structure({ action: 'insert_rows', sheet: found.sheet.name, at, count: n }, `insert ${plural('row')} on ${found.sheet.name} ${where}, so the new rows start at row ${at}`)
  }
  const anchor = yield* anchorColumn(view, command, context)
  const at = command.side === 'after' ? anchor.last + 1 : anchor.col
  const where = command.side === 'after' ? `right of ${anchor.named}` : command.side === 'before' ? `left of ${anchor.named}` : `at column ${columnToLetters(at)}`
  return yield* structure({ action: 'insert_columns', sheet: anchor.sheet, at: columnToLetters(at), count: n }, `insert ${plural('column')} on ${anchor.sheet} ${where}, so the new columns start at column ${columnToLetters(at)}`)
}

export function* planDelete(command: Command<'delete'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const target = command.target
  if (target.kind === 'columns') {
    const sheet = view.sheetFor(target.sheet, context.activeSheet)
    const left = Math.min(lettersToColumn(target.from), lettersToColumn(target.to))
    const right = Math.max(lettersToColumn(target.from), lettersToColumn(target.to))
    const count = right - left + 1
    return yield* structure(
      { action: 'delete_columns', sheet: sheet.name, at: columnToLetters(left), count },
      `delete ${count === 1 ? `column ${columnToLetters(left)}` : `columns ${columnToLetters(left)}–${columnToLetters(right)}`} on ${sheet.name} (the columns to the right move left)`,
    )
  }
  const found = yield* resolveTarget(view, target, context)
  const top = found.range.top
  const count = found.range.bottom - top + 1
  const named = found.label ? `row ${top + 1} (${found.label.label.text})` : count === 1 ? `row ${top + 1}` : `rows ${top + 1}–${top + count}`
  return yield* structure({ action: 'delete_rows', sheet: found.sheet.name, at: top + 1, count }, `delete ${named} on ${found.sheet.name} (the rows below move up)`)
}

export function* planAddSheet(command: Command<'add_sheet'>): Step<PlanAnswer> {
  const view = yield* lookOver()
  let name = command.name
  if (name === undefined) {
    // The next unused SheetN, as the add-sheet button names a sheet.
    let index = view.sheets.length + 1
    while (view.findSheet(`Sheet${index}`)?.name.toLowerCase() === `sheet${index}`) index++
    name = `Sheet${index}`
  }
  if (view.sheets.some((sheet) => sheet.name.toLowerCase() === name.toLowerCase())) stop(`There is already a sheet named “${name}”. The sheets are: ${view.sheets.map((sheet) => sheet.name).join(', ')}.`)
  const position = command.position
  return yield* structure({ action: 'add_sheet', name, ...(position ? { position } : {}) }, `add a sheet named “${name}”${position ? ` at position ${position}` : ' after the last sheet'}`)
}

export function* planRenameSheet(command: Command<'rename_sheet'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  // "rename revenue to Net revenue": no sheet has that name, a line does; its label is what changes.
  if (command.from !== undefined && !view.findSheet(command.from)) {
    const line = view.matchLabel(command.from, undefined, context.activeSheet)
    if (line && !line.column) {
      const cell = formatAddress(line.label.row, line.label.col)
      const result = yield* writeCells(line.sheet.name, [{ address: cell, input: command.to }], `the label of ${line.label.text}`)
      return { text: readAs(`relabel the line “${line.label.text}” (${line.sheet.name}!${cell}) as “${command.to}”: no sheet is named “${command.from}”`, writeOutcome(result)) }
    }
  }
  const sheet = view.sheetFor(command.from, context.activeSheet)
  if (sheet.name === command.to) stop(`The sheet is already named “${command.to}”.`)
  return yield* structure({ action: 'rename_sheet', sheet: sheet.name, name: command.to }, `rename the sheet “${sheet.name}” to “${command.to}” (formulas that name it follow)`)
}

export function* planDeleteSheet(command: Command<'delete_sheet'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const sheet = view.sheetFor(command.name, context.activeSheet)
  if (view.sheets.length === 1) stop(`“${sheet.name}” is the workbook’s only sheet; a workbook keeps at least one.`)
  return yield* structure({ action: 'delete_sheet', sheet: sheet.name }, `delete the sheet “${sheet.name}” and its ${sheet.cells} cell${sheet.cells === 1 ? '' : 's'}`)
}
