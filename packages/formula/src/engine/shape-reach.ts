/**
 * How far a formula's tree (its shape: relative references are offsets) reaches along rows and columns, so that a structural edit can tell
 * without rewriting its tree that a formula's references all lie on one side of the inserted or deleted
 * rows (or columns): its tree then stays as it is, and the formula only moves.
 */
import type { Node, RefCorner } from '../parser/ast.js'
import { mapTree } from './structure.js'
import type { StructuralChange } from './structure.js'
import { MAX_COL, MAX_ROW } from '../values.js'

interface AxisReach {
  /** Smallest and largest offset of the relative references from the formula's own row (or column). */
  relativeMin: number
  relativeMax: number
  /** Smallest and largest absolute row (or column); min > max when there is none. */
  absoluteMin: number
  absoluteMax: number
  /** A range has one end absolute and the other relative along this axis (`$A$1:A5`). */
  mixed: boolean
}

export interface ShapeReach {
  rows: AxisReach
  cols: AxisReach
  /** A reference names a sheet (it may point at another sheet, or at the restructured one from elsewhere). */
  qualified: boolean
  /** Whole columns (`A:C`) or whole rows (`2:5`) are read. */
  wholeColumns: boolean
  wholeRows: boolean
}

function emptyAxis(): AxisReach {
  return { relativeMin: Infinity, relativeMax: -Infinity, absoluteMin: Infinity, absoluteMax: -Infinity, mixed: false }
}

function include(axis: AxisReach, value: number, absolute: boolean): void {
  if (absolute) {
    if (value < axis.absoluteMin) axis.absoluteMin = value
    if (value > axis.absoluteMax) axis.absoluteMax = value
  } else {
    if (value < axis.relativeMin) axis.relativeMin = value
    if (value > axis.relativeMax) axis.relativeMax = value
  }
}

function includeCorner(reach: ShapeReach, corner: RefCorner, rows: boolean, cols: boolean): void {
  if (rows) include(reach.rows, corner.row, corner.rowAbsolute)
  if (cols) include(reach.cols, corner.col, corner.colAbsolute)
}

export function shapeReach(ast: Node): ShapeReach {
  const reach: ShapeReach = { rows: emptyAxis(), cols: emptyAxis(), qualified: false, wholeColumns: false, wholeRows: false }
  mapTree(ast, (node: Node) => {
    if (node.type === 'cell') {
      if (node.sheet !== undefined) reach.qualified = true
      includeCorner(reach, node.ref, true, true)
    } else if (node.type === 'range') {
      if (node.sheet !== undefined) reach.qualified = true
      if (node.kind === 'columns') reach.wholeColumns = true
      if (node.kind === 'rows') reach.wholeRows = true
      includeCorner(reach, node.start, node.kind !== 'columns', node.kind !== 'rows')
      includeCorner(reach, node.end, node.kind !== 'columns', node.kind !== 'rows')
      if (node.kind !== 'columns' && node.start.rowAbsolute !== node.end.rowAbsolute) reach.rows.mixed = true
      if (node.kind !== 'rows' && node.start.colAbsolute !== node.end.colAbsolute) reach.cols.mixed = true
    } else if (node.type === 'name' && node.sheet !== undefined) {
      reach.qualified = true
    }
    return node
  })
  return reach
}

/**
 * The positions (rows for a change of rows, columns for columns) at which a formula of this shape on
 * the restructured sheet keeps its tree (its references all lie before the change and so does it, or everything moves together): `keptFrom <= position <= keptTo`, or
 * `keptAbove <= position < keptBelow`. Lets a pass over every formula decide with a few comparisons per cell.
 */
export interface KeptPositions {
  keptAbove: number
  keptBelow: number
  keptFrom: number
  keptTo: number
}

export function keptPositions(reach: ShapeReach, change: StructuralChange): KeptPositions {
  const none = { keptAbove: 0, keptBelow: 0, keptFrom: Infinity, keptTo: -Infinity }
  const rows = change.axis === 'rows'
  if (reach.qualified || (rows ? reach.wholeColumns : reach.wholeRows)) return none
  const axis = rows ? reach.rows : reach.cols
  const hasRelative = axis.relativeMin <= axis.relativeMax
  const hasAbsolute = axis.absoluteMin <= axis.absoluteMax
  const after = change.kind === 'insert' ? change.index : change.index + change.count
  const room = change.kind === 'insert' ? (rows ? MAX_ROW : MAX_COL) - change.count : Infinity
  // Before the change: every reference before it too, none off the sheet.
  let keptAbove = 0
  let keptBelow = change.index
  if (hasAbsolute && (axis.absoluteMax >= change.index || axis.absoluteMin < 0)) keptBelow = 0
  if (hasRelative) {
    keptAbove = Math.max(keptAbove, -axis.relativeMin)
    keptBelow = Math.min(keptBelow, change.index - axis.relativeMax)
  }
  // After it: relative references move with the formula (none pushed off the sheet), absolute ones lie
  // before the change, and no range runs from an absolute end before it to a relative one that moves
  // (it would grow or shrink with the change).
  const absoluteMoves = hasAbsolute && axis.absoluteMax >= change.index
  const keptFrom = absoluteMoves || axis.mixed ? Infinity : hasRelative ? Math.max(after, after - axis.relativeMin) : after
  const keptTo = room - (hasRelative ? Math.max(0, axis.relativeMax) : 0)
  return { keptAbove, keptBelow, keptFrom, keptTo }
}
