/**
 * Which rows of a sheet are hidden, and by what: the user (hidden rows, collapsed outline groups) or the
 * sheet's filter. Excel's SUBTOTAL and AGGREGATE tell them apart: SUBTOTAL 1–11 skips the rows a filter
 * hid and counts the ones the user hid, 101–111 and AGGREGATE's hidden-row options skip both. Kept as
 * one byte of flags per row up to the last hidden one, so that a function reading a range asks in O(1).
 */
import type { Node } from '../parser/ast.js'
import { MAX_ROW } from '../values.js'

/** A row the user hid, or one inside a collapsed outline group. */
export const HIDDEN_BY_USER = 1
/** A row the sheet's filter hid. */
export const HIDDEN_BY_FILTER = 2
/** Either way hidden: what SUBTOTAL 101–111 and AGGREGATE's hidden-row options skip. */
export const HIDDEN_ANY = HIDDEN_BY_USER | HIDDEN_BY_FILTER

/** Rows of a sheet as the engine is told them; 0-based row indexes. */
export interface HiddenRows {
  /** Rows the user hid (collapsed outline groups included). */
  readonly hidden: Iterable<number>
  /** Rows the sheet's filter hid; a row may be in both lists. */
  readonly filtered: Iterable<number>
}

/** The first value that is not a row of a sheet, or undefined when all are. */
function invalidRow(rows: Iterable<number>): number | undefined {
  for (const row of rows) if (!Number.isInteger(row) || row < 0 || row > MAX_ROW) return row
  return undefined
}

/** The first value of either list that is not a 0-based row index, for the caller's error. */
export function badRowIndex(rows: HiddenRows): number | undefined {
  return invalidRow(rows.hidden) ?? invalidRow(rows.filtered)
}

/** The flags of each row up to the last hidden one, or null when no row is hidden. */
export function hiddenRowFlags(rows: HiddenRows): Uint8Array | null {
  let length = 0
  for (const row of rows.hidden) if (row + 1 > length) length = row + 1
  for (const row of rows.filtered) if (row + 1 > length) length = row + 1
  if (length === 0) return null
  const flags = new Uint8Array(length)
  for (const row of rows.hidden) flags[row] |= HIDDEN_BY_USER
  for (const row of rows.filtered) flags[row] |= HIDDEN_BY_FILTER
  return flags
}

/** Whether two sets of flags hide the same rows the same way. */
export function sameHiddenRows(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Whether `row` is hidden in one of the ways `skip` names (flags of `hiddenRowFlags`, null: none hidden). */
export function isSkippedRow(flags: Uint8Array | null, row: number, skip: number): boolean {
  return flags !== null && row < flags.length && (flags[row] & skip) !== 0
}

/**
 * Whether a formula tree calls a function `reads` names (one that skips hidden rows) or mentions a name
 * `readingName` says does: defined names whose formula calls SUBTOTAL make their users read hidden rows.
 */
export function treeReadsHiddenRows(node: Node, reads: (functionName: string) => boolean, readingName: (name: string) => boolean): boolean {
  const walk = (current: Node): boolean => {
    switch (current.type) {
      case 'call':
        return reads(current.name) || readingName(current.name) || current.args.some(walk)
      case 'name':
        return readingName(current.name)
      case 'unary':
      case 'percent':
      case 'spill':
        return walk(current.operand)
      case 'binary':
      case 'rangeOp':
      case 'intersection':
        return walk(current.left) || walk(current.right)
      case 'union':
        return current.items.some(walk)
      case 'group':
        return walk(current.expression)
      case 'invoke':
        return walk(current.callee) || current.args.some(walk)
      case 'array':
        return current.rows.some((row) => row.some(walk))
      default:
        return false
    }
  }
  return walk(node)
}
