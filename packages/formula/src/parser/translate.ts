import { parseAddress } from '../address/a1.js'
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
