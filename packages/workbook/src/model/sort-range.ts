/**
 * Sorting a range's rows by one or more of its columns, as Excel's Data → Sort does it: by the values
 * the cells calculate to (formulas by their results), numbers before text before logical values before
 * errors, blank cells last whichever the order, text compared without regard to case, rows that tie
 * kept in the order they had, rows a filter hides left where they are. Each row moves whole within
 * the range with its styles and number formats; in a formula that moves, a relative reference to a row of the sorted rows moves with it
 * (`B5` moved from row 5 to row 2 reads `B2`), while references to other rows and absolute ones stay.
 *
 * The sort is built as one set-cells command from the model's own values, so that the browser and the
 * service write the same cells and one undo puts them back.
 */
import { isCellError, mapFormulaTree, parseFormulaText, printFormulaTree, type CellValue, type FormulaNode } from '@finsheet/formula'
import type { CellEdit, SetCellsCommand } from '@finsheet/contracts'
import { MAX_UPDATES_PER_CHANGE } from '@finsheet/contracts'
import { formatAddress, formatRange, rangesOverlap, type RangeAddress } from './a1.js'
import { checkRange, CommandError, commandErrors } from './command-checks.js'
import type { WorkbookModel } from './workbook-model.js'

/** The most cells one sort may rewrite: what one set-cells command may hold. */
export const MAX_SORTED_CELLS = MAX_UPDATES_PER_CHANGE * 2

export interface SortKey {
  /** The sheet's 0-based column index; it must lie within the range. */
  column: number
  /** Z → A (largest first); A → Z otherwise. */
  descending?: boolean
}

export interface SortRequest {
  range: string
  /** The range's first row holds headers, which stay where they are. */
  hasHeaders: boolean
  keys: readonly SortKey[]
}

/** Ranks of the kinds of value, in ascending order; blanks are placed last apart from the rank. */
const enum Kind {
  Number = 0,
  Text = 1,
  Logical = 2,
  Error = 3,
  Blank = 4,
}

interface SortValue {
  kind: Kind
  number: number
  text: string
}

// Made on the first sort: building a collator loads locale data, a cost the app's start need not pay.
let collator: Intl.Collator | undefined

function sortValueOf(value: CellValue): SortValue {
  if (value === null) return { kind: Kind.Blank, number: 0, text: '' }
  if (typeof value === 'number') return { kind: Kind.Number, number: value, text: '' }
  if (typeof value === 'boolean') return { kind: Kind.Logical, number: value ? 1 : 0, text: '' }
  if (typeof value === 'string') return { kind: Kind.Text, number: 0, text: value }
  if (isCellError(value)) return { kind: Kind.Error, number: 0, text: '' }
  // An array result shows its top-left value; any other value sorts as an error would.
  return { kind: Kind.Error, number: 0, text: '' }
}

/**
 * Compares two values in ascending (1) or descending (-1) order, Excel's way: the kinds' ranks
 * reverse with the order, but blanks always come last; errors tie with each other.
 */
export function compareSortValues(a: CellValue, b: CellValue, direction: 1 | -1): number {
  const left = sortValueOf(a)
  const right = sortValueOf(b)
  if (left.kind === Kind.Blank || right.kind === Kind.Blank) return left.kind === right.kind ? 0 : left.kind === Kind.Blank ? 1 : -1
  if (left.kind !== right.kind) return (left.kind - right.kind) * direction
  if (left.kind === Kind.Text) return (collator ??= new Intl.Collator('en-US', { sensitivity: 'accent' })).compare(left.text, right.text) * direction
  return (left.number - right.number) * direction
}

/**
 * A formula moved from row `from` to row `to` by a sort of the rows `top` to `bottom` of `sheetName`:
 * relative row references into those rows keep their offset (they move with the row), every other
 * reference keeps pointing where it did.
 */
export function repointSortedFormula(formula: string, col: number, from: number, to: number, sheetName: string, top: number, bottom: number): string {
  const own = sheetName.toUpperCase()
  const fromAddress = formatAddress(from, col)
  const tree = parseFormulaText(formula, fromAddress)
  // Trees hold relative rows as offsets from the formula's cell: an offset kept moves the reference with the row.
  const corner = <T extends { row: number; rowAbsolute: boolean }>(ref: T, ownSheet: boolean): T => {
    if (ref.rowAbsolute) return ref
    const row = from + ref.row
    if (ownSheet && row >= top && row <= bottom) return ref
    return { ...ref, row: row - to }
  }
  const mapped = mapFormulaTree(tree, (node): FormulaNode => {
    if (node.type !== 'cell' && node.type !== 'range') return node
    const ownSheet = node.sheet === undefined || node.sheet.toUpperCase() === own
    if (node.type === 'cell') return { ...node, ref: corner(node.ref, ownSheet) }
    if (node.kind === 'columns') return node
    return { ...node, start: corner(node.start, ownSheet), end: corner(node.end, ownSheet) }
  })
  return printFormulaTree(mapped, formatAddress(to, col))
}

/** Refuses a range that cuts a merged cell or holds part of an array (a spill or a legacy array formula). */
function checkSortable(model: WorkbookModel, sheetId: string, range: RangeAddress, text: string): void {
  const sheet = model.sheetById(sheetId)
  for (const merge of sheet.merges) {
    const parsed = checkRange(merge).range
    if (rangesOverlap(parsed, range)) throw new CommandError('OVERLAPPING_MERGE', `Cannot sort ${text}: it holds merged cells (${merge}). Unmerge them first.`)
  }
  const partOfArray = () => new CommandError('INVALID_COMMAND', `Cannot sort ${text}: it holds part of an array. Change or delete the array first.`)
  for (let row = range.top; row <= range.bottom; row++) {
    for (let col = range.left; col <= range.right; col++) {
      if (model.engine.getInputAt(sheet.name, row, col) === '' && model.engine.getValueAt(sheet.name, row, col) === null) continue
      const cell = model.engine.getCell(sheet.name, formatAddress(row, col))
      if (cell.spilled || cell.arrayRange !== undefined) throw partOfArray()
      // A dynamic-array formula whose result spills beside or below it.
      if (cell.formula !== undefined && (model.engine.getCell(sheet.name, formatAddress(row + 1, col)).spilled || model.engine.getCell(sheet.name, formatAddress(row, col + 1)).spilled)) throw partOfArray()
    }
  }
}

/**
 * The set-cells command that sorts a range of a sheet (by id) as `request` says, in the model's own
 * sheet references; null when the rows are in order already. Throws a CommandError for a range that
 * cannot be sorted.
 */
export function sortRangeCommand(model: WorkbookModel, sheetId: string, request: SortRequest): SetCellsCommand | null {
  const sheet = model.sheetById(sheetId)
  const { range, text } = checkRange(request.range)
  if (request.keys.length === 0) throw commandErrors.invalidCommand('Choose a column to sort by')
  for (const key of request.keys) {
    if (!Number.isInteger(key.column) || key.column < range.left || key.column > range.right) {
      throw commandErrors.invalidCommand(`Sort by a column of ${text}`)
    }
  }
  const top = range.top + (request.hasHeaders ? 1 : 0)
  if (top >= range.bottom) return null
  const width = range.right - range.left + 1
  if ((range.bottom - top + 1) * width > MAX_SORTED_CELLS) {
    throw new CommandError('TOO_MANY_CELLS', `At most ${MAX_SORTED_CELLS.toLocaleString('en-US')} cells can be sorted at once; ${formatRange({ ...range, top })} has more`)
  }
  checkSortable(model, sheetId, range, text)

  const engine = model.engine
  // Rows a filter hides stay where they are, as Excel sorts only the rows a filter shows.
  const filtered = sheet.view?.rows
  const rows: number[] = []
  for (let row = top; row <= range.bottom; row++) if (!filtered?.[String(row)]?.filtered) rows.push(row)
  const keys = request.keys.map((key) => ({ column: key.column, direction: (key.descending ? -1 : 1) as 1 | -1, values: new Map(rows.map((row) => [row, engine.getValueAt(sheet.name, row, key.column)])) }))
  // Array.prototype.sort is stable: rows that tie on every key keep their order.
  const order = [...rows].sort((a, b) => {
    for (const key of keys) {
      const compared = compareSortValues(key.values.get(a)!, key.values.get(b)!, key.direction)
      if (compared !== 0) return compared
    }
    return 0
  })
  if (order.every((row, index) => row === rows[index])) return null

  const cells: CellEdit[] = []
  order.forEach((from, index) => {
    const to = rows[index]
    if (from === to) return
    for (let col = range.left; col <= range.right; col++) {
      const source = model.record(sheetId, formatAddress(from, col))
      const target = model.record(sheetId, formatAddress(to, col))
      if (!source && !target) continue
      const edit: CellEdit = { address: formatAddress(to, col), input: source?.input ?? '', style: source?.style ?? null, format: source?.userFormat ?? null }
      if (source && source.input.startsWith('=')) {
        edit.input = repointSortedFormula(source.input, col, from, to, sheet.name, top, range.bottom)
        if (source.legacy) edit.legacy = true
      }
      cells.push(edit)
    }
  })
  return { type: 'set-cells', sheet: model.refOf(sheet), cells }
}
