import type { FormulaNode } from '@finsheet/formula'
import { parseFormulaText } from '@finsheet/formula'

/** A block of cells a formula reads, 0-based and inclusive; `sheet` null for the formula's own sheet. */
export interface ReferencedBlock {
  sheet: string | null
  top: number
  left: number
  bottom: number
  right: number
}

export interface FormulaFacts {
  references: ReferencedBlock[]
  /** numbers typed into the formula itself, outside the arguments that are positions or counts */
  literals: number[]
  /** the formula names a defined name, whose cells cannot be known here */
  usesNames: boolean
}

/**
 * Functions whose number arguments say where or how many (ROUND's digits, INDEX's row, LEFT's
 * length...), not a figure of the model; numbers passed to them are not hard-coded assumptions.
 */
const POSITIONAL_FUNCTIONS = new Set([
  'ROUND',
  'ROUNDUP',
  'ROUNDDOWN',
  'INDEX',
  'MATCH',
  'XMATCH',
  'VLOOKUP',
  'HLOOKUP',
  'XLOOKUP',
  'OFFSET',
  'CHOOSE',
  'LARGE',
  'SMALL',
  'MID',
  'LEFT',
  'RIGHT',
  'DATE',
  'EDATE',
  'EOMONTH',
  'WEEKDAY',
  'TEXT',
  'SUBTOTAL',
  'AGGREGATE',
  'FIXED',
  'DOLLAR',
  'RANK',
  'PERCENTILE',
  'QUARTILE',
])

function isPositionalArgument(name: string, index: number): boolean {
  if (name === 'CHOOSE') return index === 0
  if (name === 'DATE') return true
  return index > 0 && POSITIONAL_FUNCTIONS.has(name)
}

/** Numbers so common in formulas (units, whole, percent, months) that typing them is not a finding. */
const ORDINARY_NUMBERS = new Set([0, 1, 100, 12])

function absolute(corner: { row: number; col: number; rowAbsolute: boolean; colAbsolute: boolean }, row: number, col: number) {
  return { row: corner.rowAbsolute ? corner.row : row + corner.row, col: corner.colAbsolute ? corner.col : col + corner.col }
}

/**
 * What a formula in the cell at (row, col) reads and which numbers it has typed in. A formula that
 * does not parse reads nothing known.
 */
export function formulaFacts(formula: string, address: string, row: number, col: number): FormulaFacts {
  const facts: FormulaFacts = { references: [], literals: [], usesNames: false }
  let tree: FormulaNode
  try {
    tree = parseFormulaText(formula, address)
  } catch {
    return facts
  }
  const visit = (node: FormulaNode, positional: boolean): void => {
    switch (node.type) {
      case 'number':
        if (!positional && !ORDINARY_NUMBERS.has(Math.abs(node.value))) facts.literals.push(node.value)
        return
      case 'cell': {
        const at = absolute(node.ref, row, col)
        facts.references.push({ sheet: node.sheet ?? null, top: at.row, left: at.col, bottom: at.row, right: at.col })
        return
      }
      case 'range': {
        const a = absolute(node.start, row, col)
        const b = absolute(node.end, row, col)
        facts.references.push({
          sheet: node.sheet ?? null,
          top: node.kind === 'columns' ? 0 : Math.min(a.row, b.row),
          bottom: node.kind === 'columns' ? Number.MAX_SAFE_INTEGER : Math.max(a.row, b.row),
          left: node.kind === 'rows' ? 0 : Math.min(a.col, b.col),
          right: node.kind === 'rows' ? Number.MAX_SAFE_INTEGER : Math.max(a.col, b.col),
        })
        return
      }
      case 'name':
        facts.usesNames = true
        return
      case 'call': {
        const name = node.name.toUpperCase()
        node.args.forEach((arg, index) => visit(arg, positional || isPositionalArgument(name, index)))
        return
      }
      case 'unary':
        return visit(node.operand, positional)
      case 'percent':
        // 15% in a formula is a typed rate like any other number
        if (node.operand.type === 'number') {
          const rate = node.operand.value / 100
          if (!positional && !ORDINARY_NUMBERS.has(Math.abs(rate))) facts.literals.push(rate)
          return
        }
        return visit(node.operand, positional)
      case 'binary':
      case 'rangeOp':
      case 'intersection':
        visit(node.left, positional)
        visit(node.right, positional)
        return
      case 'union':
        node.items.forEach((item) => visit(item, positional))
        return
      case 'spill':
        return visit(node.operand, positional)
      case 'array':
        node.rows.forEach((line) => line.forEach((item) => visit(item, positional)))
        return
      case 'group':
        return visit(node.expression, positional)
      case 'invoke':
        visit(node.callee, positional)
        node.args.forEach((arg) => visit(arg, positional))
        return
      default:
        return
    }
  }
  visit(tree, false)
  return facts
}
