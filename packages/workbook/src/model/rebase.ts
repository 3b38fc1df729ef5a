/**
 * Commands made on an older revision of a workbook, moved over what happened since: rows and columns
 * inserted or deleted (their addresses and the references in their formulas follow, as the engine
 * moved the workbook's own), sheets renamed (their formulas' sheet names follow) and sheets deleted.
 * An edit is never written where its cell used to be: when what it wrote is gone, it is refused with
 * the cells it names.
 */
import type { CellEdit, SheetFilter, WorkbookCommand } from '@finsheet/contracts'
import { FormulaSyntaxError, renameSheetInFormula, shiftFormula, type StructuralChange } from '@finsheet/formula'
import { movedRules, renamedRules, type ConditionalFormatRule } from './conditional-formats.js'
import { formatAddress, formatRange, moveAddress, moveIndex, moveRange, tryParseAddress, tryParseRange, type StructuralEdit } from './a1.js'
import { movedValidations, renamedValidations } from './data-validation.js'
import { movedFilter } from './sheet-filter.js'
import { moveAnchor } from './sheet-charts.js'
import { copyPageSetup, movedPageSetup } from './page-setup.js'

/** One thing that happened to a workbook's layout, sheets named by id and by their name at that moment. */
export type LayoutStep =
  | { type: 'structure'; sheetId: string; sheetName: string; edit: StructuralEdit }
  | { type: 'rename'; sheetId: string; from: string; to: string }
  | { type: 'delete-sheet'; sheetId: string; sheetName: string }

export interface RebaseRefusal {
  /** Cells the commands wrote that no longer exist, as sheet (name at the commands' revision) and address. */
  cells: { sheet: string; address: string }[]
  reason: string
}

type Simple = Exclude<WorkbookCommand, { type: 'batch' }>
type Command<T extends Simple['type']> = Extract<Simple, { type: T }>

/**
 * The commands (sheets named by id) as they apply after `steps`; `names` gives each sheet's name at the
 * commands' revision. Returns the moved commands, or why they cannot be moved.
 */
export function rebaseCommands(
  commands: readonly WorkbookCommand[],
  steps: readonly LayoutStep[],
  names: ReadonlyMap<string, string>,
): { commands: WorkbookCommand[] } | { refused: RebaseRefusal } {
  if (steps.length === 0) return { commands: [...commands] }
  const lost: { sheet: string; address: string }[] = []
  const reasons: string[] = []
  const nameOf = (id: string) => names.get(id) ?? id
  const deleted = new Set(steps.flatMap((step) => (step.type === 'delete-sheet' ? [step.sheetId] : [])))

  const moveCell = (sheetId: string, address: string): string | undefined => {
    let position: { row: number; col: number } | undefined = tryParseAddress(address)
    // An address that does not parse is left as typed: applying the command refuses it as it would a fresh edit's.
    if (!position) return address
    for (const step of steps) {
      if (step.type !== 'structure' || step.sheetId !== sheetId || !position) continue
      position = moveAddress(position.row, position.col, step.edit)
    }
    return position && formatAddress(position.row, position.col)
  }

  const moveFormula = (input: string, sheetId: string, address: string): string => {
    let formula = input
    let at = address
    let sheetName = nameOf(sheetId)
    try {
      for (const step of steps) {
        if (step.type === 'rename') {
          formula = renameSheetInFormula(formula, at, step.from, step.to)
          if (step.sheetId === sheetId) sheetName = step.to
        } else if (step.type === 'structure') {
          const moved = shiftFormula(formula, sheetName, at, step.sheetName, engineChange(step.edit))
          if (!moved) return formula
          formula = moved.formula
          at = moved.address
        }
      }
    } catch (error) {
      // Text that does not parse is written as typed: the engine shows its own error for it.
      if (error instanceof FormulaSyntaxError) return input
      throw error
    }
    return formula
  }

  const moveRangeText = (sheetId: string, text: string): string | undefined => {
    let range = tryParseRange(text)
    for (const step of steps) {
      if (step.type !== 'structure' || step.sheetId !== sheetId || !range) continue
      range = moveRange(range, step.edit)
    }
    return range && formatRange(range)
  }

  const moveOne = (command: Simple): Simple[] => {
    const sheetOf = commandSheet(command)
    if (sheetOf !== undefined && deleted.has(sheetOf)) {
      reasons.push(`sheet ${nameOf(sheetOf)} was deleted`)
      return []
    }
    switch (command.type) {
      case 'set-cells': {
        const cells: CellEdit[] = []
        for (const cell of command.cells) {
          const address = moveCell(command.sheet, cell.address)
          if (address === undefined) {
            lost.push({ sheet: nameOf(command.sheet), address: cell.address })
            continue
          }
          const moved: CellEdit = { ...cell, address }
          if (typeof cell.input === 'string' && cell.input.startsWith('=')) moved.input = moveFormula(cell.input, command.sheet, cell.address)
          if (cell.arrayRange !== undefined) {
            const range = moveRangeText(command.sheet, cell.arrayRange)
            if (range === undefined) {
              lost.push({ sheet: nameOf(command.sheet), address: cell.address })
              continue
            }
            moved.arrayRange = range
          }
          cells.push(moved)
        }
        return [{ ...command, cells }]
      }
      case 'format-cells': {
        const ranges = command.ranges.flatMap((text) => moveRangeText(command.sheet, text) ?? [])
        return ranges.length > 0 ? [{ ...command, ranges }] : []
      }
      case 'merge-cells':
      case 'unmerge-cells': {
        const range = moveRangeText(command.sheet, command.range)
        return range && range.includes(':') ? [{ ...command, range }] : []
      }
      case 'move-cells': {
        const range = moveRangeText(command.sheet, command.range)
        const target = moveCell(command.targetSheet ?? command.sheet, command.target)
        if (range === undefined || target === undefined) {
          lost.push({ sheet: nameOf(command.sheet), address: command.range })
          return []
        }
        return [{ ...command, range, target }]
      }
      case 'resize-column': {
        let column: number | undefined = command.column
        for (const step of steps) {
          if (step.type !== 'structure' || step.sheetId !== command.sheet || step.edit.axis !== 'columns' || column === undefined) continue
          column = moveAddress(0, column, step.edit)?.col
        }
        return column === undefined ? [] : [{ ...command, column }]
      }
      case 'set-sheet-view': {
        // Spans of rows and columns follow the rows and columns inserted and deleted since; frozen panes stay.
        const moved: Simple = { ...command }
        for (const axis of ['rows', 'columns'] as const) {
          const spans = command[axis]
          if (!spans) continue
          const kept = spans.flatMap((span) => {
            let from = span.from
            let to = span.to
            for (const step of steps) {
              if (step.type !== 'structure' || step.sheetId !== command.sheet || step.edit.axis !== axis) continue
              from = moveIndex(from, step.edit) ?? step.edit.at
              to = moveIndex(to, step.edit) ?? step.edit.at - 1
              if (to < from) return []
            }
            return [{ ...span, from, to }]
          })
          ;(moved as Command<'set-sheet-view'>)[axis] = kept
        }
        // Notes and links follow their cells; one on a cell deleted since is refused, as a cell edit is.
        for (const kind of ['notes', 'links'] as const) {
          const edits = command[kind]
          if (!edits) continue
          const kept = edits.flatMap((edit) => {
            const address = moveCell(command.sheet, edit.address)
            if (address === undefined) lost.push({ sheet: nameOf(command.sheet), address: edit.address })
            return address === undefined ? [] : [{ ...edit, address }]
          })
          ;(moved as Command<'set-sheet-view'>)[kind] = kept as never
        }
        // A print area and title rows follow them too.
        if (command.pageSetup) {
          let setup = copyPageSetup(command.pageSetup)
          for (const step of steps) if (step.type === 'structure' && step.sheetId === command.sheet) setup = movedPageSetup(setup, step.edit)
          ;(moved as Command<'set-sheet-view'>).pageSetup = setup ?? null
        }
        return [moved]
      }
      case 'set-data-validation': {
        // Ranges follow the rows and columns inserted and deleted since; a rule whose cells are all gone goes.
        // Their formulas follow as well, as the model moves a sheet's own rules.
        const clear = command.clear.flatMap((text) => moveRangeText(command.sheet, text) ?? [])
        let rules = command.rules
        for (const step of steps) {
          if (step.type === 'rename') rules = renamedValidations(rules, step.from, step.to) ?? []
          // A rule on another sheet is on none of the edited sheet's cells: its sheet is given no name.
          else if (step.type === 'structure') rules = movedValidations(rules, step.sheetId === command.sheet ? step.sheetName : '', step.sheetName, step.edit) ?? []
        }
        return clear.length > 0 || rules.length > 0 ? [{ ...command, clear, rules }] : []
      }
      case 'set-filter': {
        // The filter's range, its columns and the rows it hides follow the rows and columns inserted and deleted since.
        if (command.filter === null) return [command]
        let filter: SheetFilter | undefined = command.filter
        let rows = command.filteredRows
        for (const step of steps) {
          if (step.type !== 'structure' || step.sheetId !== command.sheet || !filter) continue
          filter = movedFilter(filter, step.edit)
          if (rows && step.edit.axis === 'rows') {
            const edit = step.edit
            rows = rows.flatMap((span) => {
              const from = moveIndex(span.from, edit) ?? edit.at
              const to = moveIndex(span.to, edit) ?? edit.at - 1
              return to < from ? [] : [{ from, to }]
            })
          }
        }
        if (!filter) return []
        return [{ ...command, filter, ...(rows ? { filteredRows: rows } : {}) }]
      }
      case 'set-conditional-formats': {
        // Rules' ranges and formulas follow the rows and columns inserted and deleted since and sheets renamed, as the sheet's own did.
        let rules: ConditionalFormatRule[] = command.rules
        for (const step of steps) {
          if (step.type === 'rename') rules = renamedRules(rules, step.from, step.to)
          if (step.type !== 'structure' || step.sheetId !== command.sheet) continue
          rules = movedRules(rules, step.edit, step.sheetName) ?? []
        }
        return [{ ...command, rules }]
      }
      case 'insert-rows':
      case 'insert-columns':
      case 'delete-rows':
      case 'delete-columns': {
        const axis = command.type.endsWith('rows') ? 'rows' : 'columns'
        let band = { at: command.at, count: command.count }
        for (const step of steps) {
          if (step.type !== 'structure' || step.sheetId !== command.sheet || step.edit.axis !== axis) continue
          const next = command.type.startsWith('insert') ? moveInsertion(band, step.edit) : moveDeletion(band, step.edit)
          if (next === 'split') {
            reasons.push(`${axis} were inserted inside the ${axis} to delete on ${nameOf(command.sheet)}`)
            return []
          }
          if (next === 'gone') return []
          band = next
        }
        return [{ ...command, at: band.at, count: band.count }]
      }
      case 'define-name':
        return [command.formula === null ? command : { ...command, formula: moveNameFormula(command.formula, steps) }]
      case 'set-chart': {
        // The chart's range and anchor follow the rows and columns inserted and deleted since.
        if (command.chart === null) return [command]
        const dataRange = moveRangeText(command.sheet, command.chart.dataRange)
        if (dataRange === undefined) {
          reasons.push(`the range of a chart on ${nameOf(command.sheet)} was deleted`)
          return []
        }
        let anchor = command.chart.anchor
        for (const step of steps) if (anchor && step.type === 'structure' && step.sheetId === command.sheet) anchor = moveAnchor(anchor, step.edit)
        return [{ ...command, chart: { ...command.chart, dataRange, ...(anchor ? { anchor } : {}) } }]
      }
      default:
        return [command]
    }
  }

  const moved: WorkbookCommand[] = []
  for (const command of commands) {
    if (command.type === 'batch') moved.push({ ...command, commands: command.commands.flatMap(moveOne) })
    else moved.push(...moveOne(command))
  }
  if (lost.length > 0 || reasons.length > 0) {
    const parts = [...new Set(reasons)]
    if (lost.length > 0) parts.unshift(`${lost.length === 1 ? 'a cell it writes was' : `${lost.length} cells it writes were`} deleted since (${lost.slice(0, 10).map((cell) => `${cell.sheet}!${cell.address}`).join(', ')}${lost.length > 10 ? ', …' : ''})`)
    return { refused: { cells: lost, reason: `The edit was made on an older version of the workbook and cannot be moved over the changes since: ${parts.join('; ')}` } }
  }
  return { commands: moved }
}

/** The sheet a command acts on (by its reference), if it acts on one that exists already. */
function commandSheet(command: Simple): string | undefined {
  switch (command.type) {
    case 'add-sheet':
      return undefined
    case 'rename-sheet':
      return command.from
    case 'delete-sheet':
    case 'move-sheet':
      return command.name
    case 'define-name':
      return command.sheet
    case 'set-calculation':
      return undefined
    default:
      return command.sheet
  }
}


/** Where rows or columns to be inserted at `at` go after another edit: after the other's insertion, at the start of its deletion. */
function moveInsertion(band: { at: number; count: number }, edit: StructuralEdit): { at: number; count: number } {
  if (edit.kind === 'insert') return edit.at <= band.at ? { ...band, at: band.at + edit.count } : band
  if (band.at <= edit.at) return band
  return { ...band, at: Math.max(edit.at, band.at - edit.count) }
}

/** The rows or columns still to delete after another edit: shifted, shrunk by those it deleted, refused when it inserted inside them. */
function moveDeletion(band: { at: number; count: number }, edit: StructuralEdit): { at: number; count: number } | 'split' | 'gone' {
  const end = band.at + band.count
  if (edit.kind === 'insert') {
    if (edit.at <= band.at) return { ...band, at: band.at + edit.count }
    return edit.at >= end ? band : 'split'
  }
  const deletedEnd = edit.at + edit.count
  const keptBefore = Math.max(0, Math.min(end, edit.at) - band.at)
  const keptAfter = Math.max(0, end - Math.max(band.at, deletedEnd))
  const count = keptBefore + keptAfter
  if (count === 0) return 'gone'
  const at = band.at < edit.at ? band.at : Math.max(edit.at, band.at - edit.count)
  return { at, count }
}

/** A defined name's formula (absolute references, read from A1) moved over the steps. */
function moveNameFormula(formula: string, steps: readonly LayoutStep[]): string {
  let text = formula.startsWith('=') ? formula : `=${formula}`
  try {
    for (const step of steps) {
      if (step.type === 'rename') text = renameSheetInFormula(text, 'A1', step.from, step.to)
      else if (step.type === 'structure') text = shiftFormula(text, '', 'A1', step.sheetName, engineChange(step.edit))?.formula ?? text
    }
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return formula
    throw error
  }
  return text
}

/** The engine names the first row or column of an edit `index`. */
const engineChange = (edit: StructuralEdit): StructuralChange => ({ axis: edit.axis, kind: edit.kind, index: edit.at, count: edit.count })
