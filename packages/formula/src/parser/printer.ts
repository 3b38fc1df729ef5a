/**
 * Writes a syntax tree back as formula text for a given cell, which is also how formulas are moved:
 * parse for the source cell, print for the target cell.
 */
import { columnToLetters, formatSheetPrefix } from '../address/a1.js'
import { formatExternalSheetPrefix, isExternalSheetName } from '../address/external.js'
import { MAX_COL, MAX_ROW } from '../values.js'
import type { Node, RefCorner } from './ast.js'
import { printStructured } from './structured.js'

/** Prints `node` as it reads in the cell at (row, col), with a leading '='. */
export function printFormula(node: Node, row = 0, col = 0): string {
  return '=' + printNode(node, row, col)
}

const PRECEDENCE: Record<string, number> = {
  '=': 1,
  '<>': 1,
  '<': 1,
  '>': 1,
  '<=': 1,
  '>=': 1,
  '&': 2,
  '+': 3,
  '-': 3,
  '*': 4,
  '/': 4,
  '^': 5,
}
const PERCENT_PRECEDENCE = 6
const UNARY_PRECEDENCE = 7
const REFERENCE_PRECEDENCE = 8
const ATOM_PRECEDENCE = 9

function precedenceOf(node: Node): number {
  switch (node.type) {
    case 'binary':
      return PRECEDENCE[node.operator]
    case 'percent':
      return PERCENT_PRECEDENCE
    case 'unary':
      return UNARY_PRECEDENCE
    case 'rangeOp':
    case 'intersection':
      return REFERENCE_PRECEDENCE
    default:
      return ATOM_PRECEDENCE
  }
}

function wrap(node: Node, minimum: number, row: number, col: number): string {
  const text = printNode(node, row, col)
  return precedenceOf(node) < minimum ? `(${text})` : text
}

/** The absolute index of a corner's row or column as seen from (row, col); may be out of the sheet. */
export function cornerRow(corner: RefCorner, row: number): number {
  return corner.rowAbsolute ? corner.row : row + corner.row
}

export function cornerCol(corner: RefCorner, col: number): number {
  return corner.colAbsolute ? corner.col : col + corner.col
}

function printSheet(sheet: string | undefined): string {
  if (sheet === undefined) return ''
  return (isExternalSheetName(sheet) ? formatExternalSheetPrefix(sheet) : formatSheetPrefix(sheet)) + '!'
}

function printCell(corner: RefCorner, row: number, col: number): string | undefined {
  const r = cornerRow(corner, row)
  const c = cornerCol(corner, col)
  if (r < 0 || r > MAX_ROW || c < 0 || c > MAX_COL) return undefined
  return (corner.colAbsolute ? '$' : '') + columnToLetters(c) + (corner.rowAbsolute ? '$' : '') + String(r + 1)
}

function printColumn(corner: RefCorner, col: number): string | undefined {
  const c = cornerCol(corner, col)
  if (c < 0 || c > MAX_COL) return undefined
  return (corner.colAbsolute ? '$' : '') + columnToLetters(c)
}

function printRow(corner: RefCorner, row: number): string | undefined {
  const r = cornerRow(corner, row)
  if (r < 0 || r > MAX_ROW) return undefined
  return (corner.rowAbsolute ? '$' : '') + String(r + 1)
}

function printNumber(value: number): string {
  return String(value).replace('e', 'E')
}

export function printNode(node: Node, row: number, col: number): string {
  switch (node.type) {
    case 'number':
      return printNumber(node.value)
    case 'string':
      return '"' + node.value.replace(/"/g, '""') + '"'
    case 'boolean':
      return node.value ? 'TRUE' : 'FALSE'
    case 'error':
      return node.code
    case 'missing':
      return ''
    case 'cell': {
      const text = printCell(node.ref, row, col)
      return printSheet(node.sheet) + (text ?? '#REF!')
    }
    case 'range': {
      let first: string | undefined
      let second: string | undefined
      if (node.kind === 'cells') {
        first = printCell(node.start, row, col)
        second = printCell(node.end, row, col)
      } else if (node.kind === 'columns') {
        first = printColumn(node.start, col)
        second = printColumn(node.end, col)
      } else {
        first = printRow(node.start, row)
        second = printRow(node.end, row)
      }
      const body = first === undefined || second === undefined ? '#REF!' : `${first}:${second}`
      return printSheet(node.sheet) + body
    }
    case 'name':
      return printSheet(node.sheet) + node.name
    case 'structured':
      return printStructured(node)
    case 'call':
      return `${node.name}(${node.args.map((arg) => printNode(arg, row, col)).join(',')})`
    case 'unary':
      return node.operator + wrap(node.operand, UNARY_PRECEDENCE, row, col)
    case 'percent':
      return wrap(node.operand, PERCENT_PRECEDENCE, row, col) + '%'
    case 'binary': {
      const precedence = PRECEDENCE[node.operator]
      // Left-associative: a right operand of equal precedence needs parentheses.
      return (
        wrap(node.left, precedence, row, col) + node.operator + wrap(node.right, precedence + 1, row, col)
      )
    }
    case 'rangeOp':
      return wrap(node.left, REFERENCE_PRECEDENCE, row, col) + ':' + wrap(node.right, ATOM_PRECEDENCE, row, col)
    case 'intersection':
      return wrap(node.left, REFERENCE_PRECEDENCE, row, col) + ' ' + wrap(node.right, ATOM_PRECEDENCE, row, col)
    case 'union':
      return '(' + node.items.map((item) => printNode(item, row, col)).join(',') + ')'
    case 'spill':
      return wrap(node.operand, ATOM_PRECEDENCE, row, col) + '#'
    case 'array':
      return (
        '{' +
        node.rows.map((items) => items.map((item) => printNode(item, row, col)).join(',')).join(';') +
        '}'
      )
    case 'group':
      return '(' + printNode(node.expression, row, col) + ')'
    case 'invoke':
      return `${printNode(node.callee, row, col)}(${node.args.map((arg) => printNode(arg, row, col)).join(',')})`
  }
}
