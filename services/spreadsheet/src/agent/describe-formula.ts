/**
 * A formula in words: "the sum of C5:C10 (PV of FCF) plus C11 (Terminal value)". The syntax tree is
 * read with references placed at the formula's cell; `refName` says how a reference is shown (its
 * address with its label and value).
 */
import { formatAddress, formatRange, MAX_COL, MAX_ROW } from '@finsheet/workbook'
import { printStructured } from '@finsheet/formula'
import type { FormulaNode } from '@finsheet/formula'

type Corner = { row: number; col: number; rowAbsolute: boolean; colAbsolute: boolean }

export interface DescribeScope {
  row: number
  col: number
  /** How a reference is shown: `text` is its A1 form as written (with its sheet when it names one). */
  refName(text: string, sheet: string | undefined, top: number, left: number, bottom: number, right: number): string
}

const OPERATORS: Record<string, string> = {
  '+': 'plus',
  '-': 'minus',
  '*': 'times',
  '/': 'divided by',
  '^': 'to the power of',
  '&': 'joined with',
  '=': 'equals',
  '<>': 'differs from',
  '<': 'is less than',
  '>': 'is more than',
  '<=': 'is at most',
  '>=': 'is at least',
}

/** Functions read as phrases; others are named with their arguments. */
const PHRASES: Record<string, (args: string[]) => string> = {
  SUM: (args) => `the sum of ${list(args)}`,
  AVERAGE: (args) => `the average of ${list(args)}`,
  MIN: (args) => `the smallest of ${list(args)}`,
  MAX: (args) => `the largest of ${list(args)}`,
  COUNT: (args) => `the count of numbers in ${list(args)}`,
  PRODUCT: (args) => `the product of ${list(args)}`,
  ROUND: (args) => `${args[0]} rounded to ${args[1] ?? 0} decimal places`,
  ABS: (args) => `the absolute value of ${args[0]}`,
  IF: (args) => `if ${args[0]} then ${args[1] ?? 'TRUE'}${args[2] !== undefined ? `, otherwise ${args[2]}` : ''}`,
  IFERROR: (args) => `${args[0]}, or ${args[1]} when that is an error`,
  NPV: (args) => `the net present value at rate ${args[0]} of ${list(args.slice(1))}`,
  IRR: (args) => `the internal rate of return of ${list(args)}`,
  SUMPRODUCT: (args) => `the sum of the products of ${list(args)}`,
  SUMIF: (args) => `the sum of ${args[2] ?? args[0]} where ${args[0]} matches ${args[1]}`,
  SUMIFS: (args) => `the sum of ${args[0]} where ${pairs(args.slice(1))}`,
  COUNTIF: (args) => `the count of ${args[0]} matching ${args[1]}`,
  VLOOKUP: (args) => `the value in column ${args[2]} of ${args[1]} on the row where its first column matches ${args[0]}`,
  XLOOKUP: (args) => `the value of ${args[2]} where ${args[1]} matches ${args[0]}`,
  INDEX: (args) => `the item of ${args[0]} at ${args.slice(1).join(', ')}`,
  MATCH: (args) => `the position of ${args[0]} in ${args[1]}`,
}

const list = (args: string[]) => (args.length <= 1 ? (args[0] ?? 'nothing') : `${args.slice(0, -1).join(', ')} and ${args[args.length - 1]}`)
function pairs(args: string[]): string {
  const parts: string[] = []
  for (let i = 0; i + 1 < args.length; i += 2) parts.push(`${args[i]} matches ${args[i + 1]}`)
  return parts.join(' and ')
}

function place(corner: Corner, row: number, col: number): { row: number; col: number; text: string } {
  const r = Math.max(0, Math.min(MAX_ROW, corner.rowAbsolute ? corner.row : row + corner.row))
  const c = Math.max(0, Math.min(MAX_COL, corner.colAbsolute ? corner.col : col + corner.col))
  return { row: r, col: c, text: formatAddress(r, c) }
}

/** A formula's tree in words. */
export function describeTree(node: FormulaNode, scope: DescribeScope): string {
  const say = (child: FormulaNode) => describeTree(child, scope)
  switch (node.type) {
    case 'number':
      return String(Number(node.value.toPrecision(12)))
    case 'string':
      return JSON.stringify(node.value)
    case 'boolean':
      return node.value ? 'TRUE' : 'FALSE'
    case 'error':
      return node.code
    case 'missing':
      return '(nothing)'
    case 'cell': {
      const at = place(node.ref, scope.row, scope.col)
      return scope.refName(at.text, node.sheet, at.row, at.col, at.row, at.col)
    }
    case 'range': {
      const start = place(node.start, scope.row, scope.col)
      const end = place(node.end, scope.row, scope.col)
      const range =
        node.kind === 'columns'
          ? { top: 0, bottom: MAX_ROW, left: Math.min(start.col, end.col), right: Math.max(start.col, end.col) }
          : node.kind === 'rows'
            ? { top: Math.min(start.row, end.row), bottom: Math.max(start.row, end.row), left: 0, right: MAX_COL }
            : { top: Math.min(start.row, end.row), bottom: Math.max(start.row, end.row), left: Math.min(start.col, end.col), right: Math.max(start.col, end.col) }
      return scope.refName(formatRange(range), node.sheet, range.top, range.left, range.bottom, range.right)
    }
    case 'name':
      return `the name ${node.name}`
    case 'structured':
      return `the table reference ${printStructured(node)}`
    case 'call': {
      const name = node.name.toUpperCase().replace(/^_XLFN\./, '')
      const args = node.args.map(say)
      const phrase = PHRASES[name]
      return phrase ? phrase(args) : `${name}(${args.join(', ')})`
    }
    case 'unary':
      return node.operator === '-' ? `minus ${say(node.operand)}` : say(node.operand)
    case 'percent':
      return `${say(node.operand)} percent`
    case 'binary':
      return `${say(node.left)} ${OPERATORS[node.operator] ?? node.operator} ${say(node.right)}`
    case 'group':
      return `(${say(node.expression)})`
    case 'rangeOp':
      return `the range from ${say(node.left)} to ${say(node.right)}`
    case 'union':
      return node.items.map(say).join(' and ')
    case 'intersection':
      return `where ${say(node.left)} crosses ${say(node.right)}`
    case 'spill':
      return `the spilled range of ${say(node.operand)}`
    case 'array':
      return `the array {${node.rows.map((row) => row.map(say).join(', ')).join('; ')}}`
    case 'invoke':
      return `${say(node.callee)} applied to ${node.args.map(say).join(', ')}`
  }
}

/** The functions a tree calls, once each, in order of first use. */
export function functionsIn(node: FormulaNode, found: Set<string> = new Set()): Set<string> {
  switch (node.type) {
    case 'call':
      found.add(node.name.toUpperCase().replace(/^_XLFN\./, ''))
      for (const arg of node.args) functionsIn(arg, found)
      break
    case 'unary':
    case 'percent':
    case 'spill':
      functionsIn(node.operand, found)
      break
    case 'group':
      functionsIn(node.expression, found)
      break
    case 'binary':
    case 'rangeOp':
    case 'intersection':
      functionsIn(node.left, found)
      functionsIn(node.right, found)
      break
    case 'union':
      for (const item of node.items) functionsIn(item, found)
      break
    case 'invoke':
      functionsIn(node.callee, found)
      for (const arg of node.args) functionsIn(arg, found)
      break
    case 'array':
      for (const row of node.rows) for (const item of row) functionsIn(item, found)
      break
    default:
      break
  }
  return found
}
