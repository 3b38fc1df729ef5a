import type { WorkbookCommand } from '@finsheet/contracts'
import { formatValue, FormulaSyntaxError, isValidName, parseFormulaText, renameNameInFormula } from '@finsheet/formula'
import type { DefinedNameRecord } from '@finsheet/workbook/model'
import type { CellRange } from '../grid/address'
import { parseRangeAddress } from '../grid/address'

/**
 * Defined names as Excel's Name Manager shows and checks them: each name with its value, what it
 * refers to and its scope (the workbook, or one sheet whose own name wins there over a workbook name).
 */

/** The scope a name is shown with when it belongs to no one sheet. */
export const WORKBOOK_SCOPE = 'Workbook'

export interface NameRow {
  name: string
  /** the sheet it belongs to, or undefined for the workbook */
  sheet?: string
  /** the formula it stands for, with '=' */
  formula: string
  /** what it gives now, as the Name Manager shows it */
  value: string
}

/** What a workbook lends the Name Manager. */
export interface NamedWorkbook {
  readonly definedNames: readonly DefinedNameRecord[]
  readonly sheetNames: readonly string[]
  evaluate(sheet: string, formula: string): { value: Parameters<typeof formatValue>[0]; rows: number; columns: number }
  getDisplay(sheet: string, pos: { col: number; row: number }): string
  forEachCell(sheet: string, visit: (cell: { address: string; input: string }) => void): void
}

/** A value listed at most this many cells long before '…'. */
const LISTED_CELLS = 6

/**
 * Why `name` cannot be defined in `sheet`'s scope (undefined: the workbook), or null. `renaming` is
 * the name being edited, which may keep its own name.
 */
export function nameProblem(name: string, sheet: string | undefined, existing: readonly Pick<DefinedNameRecord, 'name' | 'sheet'>[], renaming?: Pick<DefinedNameRecord, 'name' | 'sheet'>): string | null {
  if (name === '') return 'Enter a name.'
  if (/\s/.test(name)) return 'A name cannot contain spaces.'
  if (name.length > 255) return 'A name can be at most 255 characters long.'
  if (!/^[\p{L}_\\]/u.test(name)) return 'A name must start with a letter, an underscore or a backslash.'
  if (/^[A-Za-z]{1,3}[0-9]+$/.test(name) || /^(R|C)$/i.test(name) || /^R[0-9]*C[0-9]*$/i.test(name)) return `${name} is a cell reference (such as A1 or R1C1), not a name.`
  if (/^(TRUE|FALSE)$/i.test(name)) return `${name} is a value, not a name.`
  if (!isValidName(name)) return 'A name can hold only letters, digits, underscores, periods, question marks and backslashes.'
  const upper = name.toUpperCase()
  const same = (other: Pick<DefinedNameRecord, 'name' | 'sheet'>) => other.name.toUpperCase() === upper && (other.sheet ?? '') === (sheet ?? '')
  if (renaming && same(renaming)) return null
  if (existing.some(same)) return 'The name that you entered already exists. Enter a unique name.'
  return null
}

/** Why a Refers to formula cannot be used, or null. */
export function refersToProblem(formula: string): string | null {
  const text = formula.trim().replace(/^=/, '')
  if (text === '') return 'Enter what the name refers to, such as =Sheet1!$B$2.'
  try {
    parseFormulaText(text)
    return null
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return `There's a problem with this formula: ${error.message}.`
    throw error
  }
}

/** The range a name's formula is, when it is a plain reference ('=Sheet1!$B$2:$B$9'), else null. */
export function nameReference(formula: string, sheets: readonly string[]): { sheet: string | null; range: CellRange } | null {
  const text = formula.trim().replace(/^=/, '').replace(/\$/g, '')
  const bang = text.lastIndexOf('!')
  let sheet: string | null = null
  if (bang >= 0) {
    let name = text.slice(0, bang)
    if (name.startsWith("'") && name.endsWith("'") && name.length >= 2) name = name.slice(1, -1).replace(/''/g, "'")
    sheet = sheets.find((candidate) => candidate.toUpperCase() === name.toUpperCase()) ?? null
    if (sheet === null) return null
  }
  const range = parseRangeAddress(text.slice(bang + 1))
  return range ? { sheet, range } : null
}

/** The name `text` calls from `activeSheet`: the sheet's own name first, then the workbook's. */
export function findName(names: readonly DefinedNameRecord[], text: string, activeSheet: string): DefinedNameRecord | undefined {
  const upper = text.trim().toUpperCase()
  const matching = names.filter((name) => name.name.toUpperCase() === upper)
  return matching.find((name) => name.sheet === activeSheet) ?? matching.find((name) => name.sheet === undefined)
}

/** A name's value as the Name Manager lists it: a value, or the cells of its range in braces. */
export function nameValue(workbook: NamedWorkbook, record: DefinedNameRecord, activeSheet: string): string {
  const where = record.sheet ?? activeSheet
  const reference = nameReference(record.formula, workbook.sheetNames)
  if (reference) {
    const { range } = reference
    const sheet = reference.sheet ?? where
    const cells = (range.endRow - range.startRow + 1) * (range.endCol - range.startCol + 1)
    if (cells > 1) {
      const rows: string[] = []
      let listed = 0
      for (let row = range.startRow; row <= range.endRow && listed < LISTED_CELLS; row++) {
        const line: string[] = []
        for (let col = range.startCol; col <= range.endCol && listed < LISTED_CELLS; col++, listed++) line.push(JSON.stringify(workbook.getDisplay(sheet, { col, row })))
        rows.push(line.join(','))
      }
      return `{${rows.join(';')}${cells > LISTED_CELLS ? ';…' : ''}}`
    }
  }
  try {
    const result = workbook.evaluate(where, record.formula)
    const text = formatValue(result.value)
    return result.rows * result.columns > 1 ? `{${text};…}` : text
  } catch {
    return '#REF!'
  }
}

/** Every name with its value, by name, as the Name Manager lists them. */
export function nameRows(workbook: NamedWorkbook, activeSheet: string): NameRow[] {
  return [...workbook.definedNames]
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || (a.sheet ?? '').localeCompare(b.sheet ?? ''))
    .map((record) => ({ ...record, formula: record.formula.startsWith('=') ? record.formula : `=${record.formula}`, value: nameValue(workbook, record, activeSheet) }))
}

/**
 * The change that defines a name, or redefines one being edited: one define-name, or, renamed, the
 * old name removed, the new one defined and every formula that used the old name rewritten to the
 * new one (as Excel does), as one undoable batch.
 */
export function defineNameCommand(next: { name: string; sheet?: string; formula: string }, previous?: Pick<DefinedNameRecord, 'name' | 'sheet'>, workbook?: Pick<NamedWorkbook, 'sheetNames' | 'definedNames' | 'forEachCell'>): WorkbookCommand {
  const formula = next.formula.trim().startsWith('=') ? next.formula.trim() : `=${next.formula.trim()}`
  const define = { type: 'define-name' as const, name: next.name, formula, ...(next.sheet ? { sheet: next.sheet } : {}) }
  const same = previous && previous.name.toUpperCase() === next.name.toUpperCase() && (previous.sheet ?? '') === (next.sheet ?? '')
  if (!previous || same) return define
  const remove = { type: 'define-name' as const, name: previous.name, formula: null, ...(previous.sheet ? { sheet: previous.sheet } : {}) }
  const rewrites = workbook ? renamedUses(workbook, previous, next.name) : []
  return { type: 'batch', label: `Edit name ${next.name}`, commands: [remove, define, ...rewrites] }
}

/** The formulas that read `previous`, rewritten to say `name`: one set-cells per sheet. */
function renamedUses(workbook: Pick<NamedWorkbook, 'sheetNames' | 'definedNames' | 'forEachCell'>, previous: Pick<DefinedNameRecord, 'name' | 'sheet'>, name: string): Extract<WorkbookCommand, { type: 'set-cells' }>[] {
  const upper = previous.name.toUpperCase()
  const commands: Extract<WorkbookCommand, { type: 'set-cells' }>[] = []
  for (const sheet of workbook.sheetNames) {
    // A plain use reads this name on its own sheet, or, for a workbook name, where no sheet name of the same spelling hides it.
    const unqualified = previous.sheet !== undefined ? previous.sheet === sheet : !workbook.definedNames.some((other) => other.sheet === sheet && other.name.toUpperCase() === upper)
    const cells: { address: string; input: string }[] = []
    workbook.forEachCell(sheet, (cell) => {
      if (!cell.input.startsWith('=') || !cell.input.toUpperCase().includes(upper)) return
      try {
        // the printed formula starts with '='
        const text = renameNameInFormula(cell.input.slice(1), cell.address, previous.name, name, { unqualified, ...(previous.sheet ? { sheet: previous.sheet } : {}) })
        if (text !== cell.input) cells.push({ address: cell.address, input: text })
      } catch {
        // a formula that does not parse reads no name
      }
    })
    if (cells.length > 0) commands.push({ type: 'set-cells', sheet, cells })
  }
  return commands
}

/** The change that deletes a name. */
export function deleteNameCommand(record: Pick<DefinedNameRecord, 'name' | 'sheet'>): WorkbookCommand {
  return { type: 'define-name', name: record.name, formula: null, ...(record.sheet ? { sheet: record.sheet } : {}) }
}
