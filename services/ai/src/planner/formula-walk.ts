/** Reading a parsed formula: every node in turn, and where a reference's corner lands for the cell holding it. */
import type { FormulaNode } from '@finsheet/formula'

/** Visits the node and every node under it, parents first. */
export function walk(node: FormulaNode, visit: (node: FormulaNode) => void): void {
  visit(node)
  switch (node.type) {
    case 'call':
      node.args.forEach((arg) => walk(arg, visit))
      break
    case 'unary':
    case 'percent':
    case 'spill':
      walk(node.operand, visit)
      break
    case 'binary':
    case 'rangeOp':
    case 'intersection':
      walk(node.left, visit)
      walk(node.right, visit)
      break
    case 'union':
      node.items.forEach((item) => walk(item, visit))
      break
    case 'group':
      walk(node.expression, visit)
      break
    case 'array':
      node.rows.forEach((row) => row.forEach((item) => walk(item, visit)))
      break
    case 'invoke':
      walk(node.callee, visit)
      node.args.forEach((arg) => walk(arg, visit))
      break
    default:
      break
  }
}

/** The cell a reference corner names, for a formula parsed at (row, col): relative parts are offsets. */
export function absolute(corner: { row: number; col: number; rowAbsolute: boolean; colAbsolute: boolean }, row: number, col: number) {
  return { row: corner.rowAbsolute ? corner.row : row + corner.row, col: corner.colAbsolute ? corner.col : col + corner.col }
}
