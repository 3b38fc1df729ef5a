/**
 * The formula syntax tree. References are stored position-independently: a relative row or column
 * is an offset from the formula's own cell, an absolute one is a 0-based index. Formulas copied down a
 * column therefore have identical trees, which lets them share one compiled function.
 */
import type { ErrorCode } from '../values.js'

/** One corner of a reference. `row`/`col` are offsets when relative, indices when absolute. */
export interface RefCorner {
  row: number
  col: number
  rowAbsolute: boolean
  colAbsolute: boolean
}

/** The rows of a table a structured reference names: `#All`, `#Data`, `#Headers`, `#Totals`, `#This Row`. */
export type TableArea = 'all' | 'data' | 'headers' | 'totals' | 'thisRow'

export type BinaryOperator = '+' | '-' | '*' | '/' | '^' | '&' | '=' | '<>' | '<' | '>' | '<=' | '>='

export type Node =
  | { type: 'number'; value: number }
  | { type: 'string'; value: string }
  | { type: 'boolean'; value: boolean }
  | { type: 'error'; code: ErrorCode }
  /** A missing argument: the gap in `IF(A1,,2)`. */
  | { type: 'missing' }
  /** A single cell, `A1`, `$B$2`, `Sheet2!C3`. `sheet` is absent for the formula's own sheet. */
  | { type: 'cell'; sheet?: string; ref: RefCorner }
  /** `A1:B3` (cells), `A:C` (columns: rows unused), `2:5` (rows: columns unused). */
  | { type: 'range'; sheet?: string; kind: 'cells' | 'columns' | 'rows'; start: RefCorner; end: RefCorner }
  /** A defined name or a LET variable as written (names compare case-insensitively); `sheet` for `Sheet1!Name`. */
  | { type: 'name'; name: string; sheet?: string }
  /**
   * A structured reference to a table: `Table1[Col]`, `Table1[[#Headers],[A]:[B]]`, `Table1[@Col]`.
   * `areas` empty means the data rows; no column means every column.
   */
  | { type: 'structured'; table: string; areas: TableArea[]; firstColumn?: string; lastColumn?: string }
  | { type: 'call'; name: string; args: Node[] }
  | { type: 'unary'; operator: '-' | '+' | '@'; operand: Node }
  | { type: 'percent'; operand: Node }
  | { type: 'binary'; operator: BinaryOperator; left: Node; right: Node }
  /** The range operator between two reference expressions that are not both plain cells. */
  | { type: 'rangeOp'; left: Node; right: Node }
  | { type: 'union'; items: Node[] }
  | { type: 'intersection'; left: Node; right: Node }
  /** `A1#`, the spill range of the formula in A1. */
  | { type: 'spill'; operand: Node }
  | { type: 'array'; rows: Node[][] }
  /** Parentheses the user wrote, kept so that printing gives back the same text. */
  | { type: 'group'; expression: Node }
  /** A call of a function value: `LAMBDA(x, x+1)(5)`. */
  | { type: 'invoke'; callee: Node; args: Node[] }

export type NodeOf<T extends Node['type']> = Extract<Node, { type: T }>
