import type { Node } from '../parser/ast.js'
import type { Evaluator, StaticCellDependency, StaticRangeDependency } from './formula-cell.js'
import type { Sheet } from './sheet.js'

/** A defined name: workbook-wide, or local to one sheet. */
export interface DefinedName {
  /** The name as defined (case kept for display). */
  readonly name: string
  /** The sheet it is local to, or null for the workbook. */
  readonly scope: Sheet | null
  ast: Node
  evaluate: Evaluator
  cells: StaticCellDependency[]
  ranges: StaticRangeDependency[]
  names: string[]
  /** Upper-case sheet names its formula mentions. */
  sheets: string[]
}

/** What the engine reports about a defined name. */
export interface NameInfo {
  name: string
  /** The sheet the name is local to, or undefined for a workbook name. */
  scope?: string
  /** The formula it stands for, with '='. */
  formula: string
}

const NAME_PATTERN = /^[A-Za-z_\\\u00C0-\uFFFF][A-Za-z0-9_.\\?\u00C0-\uFFFF]*$/

/** Whether text can be a defined name: not a cell reference, not TRUE/FALSE, not R/C alone. */
export function isValidName(name: string): boolean {
  if (name.length === 0 || name.length > 255 || !NAME_PATTERN.test(name)) return false
  if (/^[A-Za-z]{1,3}[0-9]+$/.test(name)) return false
  if (/^(R|C)$/i.test(name) || /^R[0-9]*C[0-9]*$/i.test(name)) return false
  return !/^(TRUE|FALSE)$/i.test(name)
}
