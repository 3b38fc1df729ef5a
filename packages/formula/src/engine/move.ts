/**
 * The tree transformation of a cut and paste (a block of cells moved to another place), after Excel:
 * a reference to a cell of the moved block, or to a range wholly inside it, follows the block to its
 * new place; a reference to cells the block lands on (that are not themselves moved) becomes #REF!;
 * every other reference keeps pointing at the cells it pointed at, whether the formula moved or not.
 * A range reaching outside the moved block therefore never changes, even when it contains the block.
 */
import type { RangeAddress } from '../address/a1.js'
import type { Node, RefCorner } from '../parser/ast.js'
import { cornerCol, cornerRow } from '../parser/printer.js'
import { MAX_COL, MAX_ROW } from '../values.js'
import { mapTree } from './structure.js'

/** A sheet as a formula names it: `upper` to compare, `name` to print. */
export interface SheetRef {
  upper: string
  name: string
}

export interface BlockMove {
  source: SheetRef
  /** the cells cut */
  from: RangeAddress
  target: SheetRef
  /** the cells the block lands on, the same size as `from` */
  to: RangeAddress
}

interface Position {
  row: number
  col: number
}

const REF_ERROR: Node = { type: 'error', code: '#REF!' }

function contains(block: RangeAddress, top: number, left: number, bottom: number, right: number): boolean {
  return top >= block.top && bottom <= block.bottom && left >= block.left && right <= block.right
}

/** Whether a cell is part of a block. */
export function insideBlock(block: RangeAddress, row: number, col: number): boolean {
  return contains(block, row, col, row, col)
}

/** A corner re-expressed from a formula now at `at`: relative parts become offsets from there. */
function corner(original: RefCorner, row: number, col: number, at: Position): RefCorner {
  return {
    row: original.rowAbsolute ? row : row - at.row,
    col: original.colAbsolute ? col : col - at.col,
    rowAbsolute: original.rowAbsolute,
    colAbsolute: original.colAbsolute,
  }
}

/**
 * The tree of a formula after a block move. `from` is the formula's cell before the move and `to`
 * after (they differ for a formula inside the block); `homeBefore` and `homeAfter` its sheet before
 * and after, or null for a defined name, whose unqualified references name no sheet of their own.
 */
export function moveTree(
  ast: Node,
  from: Position,
  to: Position,
  homeBefore: SheetRef | null,
  homeAfter: SheetRef | null,
  move: BlockMove,
): { ast: Node; changed: boolean } {
  const rowOffset = move.to.top - move.from.top
  const colOffset = move.to.left - move.from.left

  /** Where a reference to the area now points: moved, #REF!, or where it was (null). */
  const relocateArea = (sheet: string | undefined, top: number, left: number, bottom: number, right: number): 'moved' | 'ref' | 'stays' => {
    const upper = sheet === undefined ? homeBefore?.upper : sheet.toUpperCase()
    if (upper === undefined) return 'stays'
    if (upper === move.source.upper && contains(move.from, top, left, bottom, right)) return 'moved'
    if (upper === move.target.upper && contains(move.to, top, left, bottom, right)) return 'ref'
    return 'stays'
  }

  /** The qualifier a reference needs once the formula sits on `homeAfter`. */
  const qualifier = (written: string | undefined, moved: boolean): string | undefined => {
    if (moved) {
      if (written !== undefined) return move.target.name
      return homeAfter?.upper === move.target.upper ? undefined : move.target.name
    }
    if (written !== undefined) return written
    // an unqualified reference pointed at the formula's own sheet: it keeps naming that sheet
    if (homeBefore === null || homeAfter === null || homeBefore.upper === homeAfter.upper) return undefined
    return homeBefore.name
  }

  const result = mapTree(ast, (node) => {
    if (node.type === 'cell') {
      const row = cornerRow(node.ref, from.row)
      const col = cornerCol(node.ref, from.col)
      if (row < 0 || col < 0 || row > MAX_ROW || col > MAX_COL) return node
      const fate = relocateArea(node.sheet, row, col, row, col)
      if (fate === 'ref') return REF_ERROR
      const moved = fate === 'moved'
      const ref = corner(node.ref, moved ? row + rowOffset : row, moved ? col + colOffset : col, to)
      const sheet = qualifier(node.sheet, moved)
      if (sheet === node.sheet && ref.row === node.ref.row && ref.col === node.ref.col) return node
      const next: Node = { type: 'cell', ref }
      if (sheet !== undefined) next.sheet = sheet
      return next
    }
    if (node.type === 'range') {
      let r1 = cornerRow(node.start, from.row)
      let r2 = cornerRow(node.end, from.row)
      let c1 = cornerCol(node.start, from.col)
      let c2 = cornerCol(node.end, from.col)
      // whole columns span every row, whole rows every column
      if (node.kind === 'columns') [r1, r2] = [0, MAX_ROW]
      if (node.kind === 'rows') [c1, c2] = [0, MAX_COL]
      const top = Math.min(r1, r2)
      const bottom = Math.max(r1, r2)
      const left = Math.min(c1, c2)
      const right = Math.max(c1, c2)
      if (top < 0 || left < 0 || bottom > MAX_ROW || right > MAX_COL) return node
      const fate = relocateArea(node.sheet, top, left, bottom, right)
      if (fate === 'ref') return REF_ERROR
      const moved = fate === 'moved'
      const dr = moved && node.kind !== 'columns' ? rowOffset : 0
      const dc = moved && node.kind !== 'rows' ? colOffset : 0
      const start = corner(node.start, cornerRow(node.start, from.row) + dr, cornerCol(node.start, from.col) + dc, to)
      const end = corner(node.end, cornerRow(node.end, from.row) + dr, cornerCol(node.end, from.col) + dc, to)
      // whole-column and whole-row ranges keep their unused axis as written
      if (node.kind === 'columns') {
        start.row = node.start.row
        end.row = node.end.row
      }
      if (node.kind === 'rows') {
        start.col = node.start.col
        end.col = node.end.col
      }
      const sheet = qualifier(node.sheet, moved)
      const same = sheet === node.sheet && start.row === node.start.row && start.col === node.start.col && end.row === node.end.row && end.col === node.end.col
      if (same) return node
      const next: Node = { type: 'range', kind: node.kind, start, end }
      if (sheet !== undefined) next.sheet = sheet
      return next
    }
    return node
  })
  return { ast: result, changed: result !== ast }
}
