/**
 * A sheet's page setup as the model keeps it (inside the sheet's view): checked when set, copied
 * deeply, and moved with the rows and columns inserted and deleted, as Excel moves its Print_Area
 * and Print_Titles names.
 */
import { MAX_PRINT_SCALE, MIN_PRINT_SCALE, PAPER_SIZES, type PageSetup } from '@finsheet/contracts'
import { formatRange, MAX_COL, MAX_ROW, moveRange, tryParseRange, type StructuralEdit } from './a1.js'
import { commandErrors } from './command-checks.js'

export type { PageSetup }

/** A deep copy without absent fields; undefined when it holds nothing. */
export function copyPageSetup(setup: PageSetup | undefined | null): PageSetup | undefined {
  if (!setup) return undefined
  const copy: PageSetup = {}
  for (const [key, value] of Object.entries(setup) as [keyof PageSetup, PageSetup[keyof PageSetup]][]) {
    if (value === undefined) continue
    ;(copy as Record<string, unknown>)[key] = typeof value === 'object' ? { ...value } : value
  }
  return Object.keys(copy).length > 0 ? copy : undefined
}

/** Throws a command error naming what is wrong with a page setup. */
export function checkPageSetup(setup: PageSetup): void {
  if (setup.orientation !== undefined && setup.orientation !== 'portrait' && setup.orientation !== 'landscape') {
    throw commandErrors.invalidCommand('A page is portrait or landscape')
  }
  if (setup.paperSize !== undefined && !PAPER_SIZES.includes(setup.paperSize)) {
    throw commandErrors.invalidCommand(`The paper size is one of ${PAPER_SIZES.join(', ')}`)
  }
  if (setup.scale !== undefined && !(Number.isInteger(setup.scale) && setup.scale >= MIN_PRINT_SCALE && setup.scale <= MAX_PRINT_SCALE)) {
    throw commandErrors.invalidCommand(`The print scale runs from ${MIN_PRINT_SCALE}% to ${MAX_PRINT_SCALE}%`)
  }
  if (setup.printArea !== undefined && !tryParseRange(setup.printArea)) throw commandErrors.invalidCommand(`The print area ${setup.printArea} is not a range`)
  const titles = setup.titleRows
  if (titles && !(Number.isInteger(titles.first) && Number.isInteger(titles.last) && titles.first >= 0 && titles.first <= titles.last && titles.last <= MAX_ROW)) {
    throw commandErrors.invalidCommand('The rows to repeat at the top run from a first row to a last row')
  }
  const columns = setup.titleColumns
  if (columns && !(Number.isInteger(columns.first) && Number.isInteger(columns.last) && columns.first >= 0 && columns.first <= columns.last && columns.last <= MAX_COL)) {
    throw commandErrors.invalidCommand('The columns to repeat at the left run from a first column to a last column')
  }
}

/**
 * The page setup after rows or columns were inserted or deleted: the print area widens or narrows as
 * a merge does (and goes when all its cells are deleted), the title rows and columns likewise.
 */
export function movedPageSetup(setup: PageSetup | undefined, edit: StructuralEdit): PageSetup | undefined {
  if (!setup || (setup.printArea === undefined && setup.titleRows === undefined && setup.titleColumns === undefined)) return setup
  const next: PageSetup = copyPageSetup(setup) ?? {}
  if (setup.printArea !== undefined) {
    const range = tryParseRange(setup.printArea)
    const moved = range && moveRange(range, edit)
    if (moved) next.printArea = formatRange(moved)
    else delete next.printArea
  }
  if (setup.titleRows && edit.axis === 'rows') {
    const moved = moveRange({ top: setup.titleRows.first, bottom: setup.titleRows.last, left: 0, right: 0 }, edit)
    if (moved) next.titleRows = { first: moved.top, last: moved.bottom }
    else delete next.titleRows
  }
  if (setup.titleColumns && edit.axis === 'columns') {
    const moved = moveRange({ top: 0, bottom: 0, left: setup.titleColumns.first, right: setup.titleColumns.last }, edit)
    if (moved) next.titleColumns = { first: moved.left, last: moved.right }
    else delete next.titleColumns
  }
  return copyPageSetup(next)
}

/** Whether two page setups print alike. */
export function samePageSetup(a: PageSetup | undefined, b: PageSetup | undefined): boolean {
  const canonical = (setup: PageSetup | undefined) => {
    const copy = copyPageSetup(setup)
    return copy ? JSON.stringify(Object.keys(copy).sort().map((key) => [key, copy[key as keyof PageSetup]])) : 'null'
  }
  return canonical(a) === canonical(b)
}
