import { formatAddress, parseAddress } from '../address/a1.js'
import { mapTree, movePosition, renameSheetInTree, shiftTree, type StructuralChange } from '../engine/structure.js'
import type { Node } from './ast.js'
import { parseFormula } from './parser.js'
import { printFormula } from './printer.js'

/**
 * A formula moved from one cell to another as copy and fill do: relative references keep their
 * offset, absolute ones stay. References pushed off the sheet become #REF!. Throws FormulaSyntaxError
 * for text that does not parse.
 */
export function translateFormula(formula: string, fromAddress: string, toAddress: string): string {
  const from = parseAddress(fromAddress)
  const to = parseAddress(toAddress)
  return printFormula(parseFormula(formula, from.row, from.col), to.row, to.col)
}

/** Parses formula text as written in the cell at `address` (default A1). */
export function parseFormulaText(formula: string, address = 'A1'): Node {
  const { row, col } = parseAddress(address)
  return parseFormula(formula, row, col)
}

/** Prints a tree from `parseFormulaText` as the formula of the cell at `address` (default A1). */
export function printFormulaTree(tree: Node, address = 'A1'): string {
  const { row, col } = parseAddress(address)
  return printFormula(tree, row, col)
}

/**
 * A formula written at `address` on sheet `formulaSheet`, after rows or columns of `targetSheet` were
 * inserted or deleted, as the engine rewrites its own formulas: references into the moved part follow
 * it, references to deleted cells become #REF!, and the cell itself moves when it is on that sheet.
 * Undefined when the change deleted the cell. Throws FormulaSyntaxError for text that does not parse.
 */
export function shiftFormula(formula: string, formulaSheet: string, address: string, targetSheet: string, change: StructuralChange): { formula: string; address: string } | undefined {
  const from = parseAddress(address)
  const onTarget = formulaSheet.toUpperCase() === targetSheet.toUpperCase()
  const to = onTarget ? movePosition(from.row, from.col, change) : from
  if (to === undefined) return undefined
  const { ast } = shiftTree(parseFormula(formula, from.row, from.col), from, to, onTarget, targetSheet.toUpperCase(), change)
  return { formula: printFormula(ast, to.row, to.col), address: formatAddress(to.row, to.col) }
}

/** A formula written at `address` after the sheet `from` was renamed `to`: its references to that sheet name the new one. */
export function renameSheetInFormula(formula: string, address: string, from: string, to: string): string {
  const { row, col } = parseAddress(address)
  return printFormula(renameSheetInTree(parseFormula(formula, row, col), from, to), row, col)
}

/**
 * A formula written at `address` after a defined name was renamed `from` → `to`: its uses of the name
 * say the new one. `unqualified` renames plain `Name` uses (the formula reads this very name there);
 * `sheet` renames `Sheet!Name` uses of that sheet's own name.
 */
export function renameNameInFormula(formula: string, address: string, from: string, to: string, uses: { unqualified: boolean; sheet?: string }): string {
  const { row, col } = parseAddress(address)
  const upper = from.toUpperCase()
  const qualifier = uses.sheet?.toUpperCase()
  const renamed = mapTree(parseFormula(formula, row, col), (node) => {
    if (node.type !== 'name' || node.name.toUpperCase() !== upper) return node
    const reads = node.sheet === undefined ? uses.unqualified : qualifier !== undefined && node.sheet.toUpperCase() === qualifier
    return reads ? { ...node, name: to } : node
  })
  return printFormula(renamed, row, col)
}
