/**
 * Tree transformations for structural edits: inserting and deleting rows and columns (references
 * move, grow, shrink, or become #REF!), renaming and removing sheets.
 */
import type { Node, RefCorner } from '../parser/ast.js'
import { cornerCol, cornerRow } from '../parser/printer.js'
import { MAX_COL, MAX_ROW } from '../values.js'
import type { Sheet } from './sheet.js'

export interface StructuralChange {
  axis: 'rows' | 'columns'
  kind: 'insert' | 'delete'
  /** 0-based first row or column inserted before / deleted. */
  index: number
  count: number
}

interface Position {
  row: number
  col: number
}

const REF_ERROR: Node = { type: 'error', code: '#REF!' }

/** Rebuilds a tree bottom-up with `leaf` applied to every node; returns the same object when nothing changed. */
export function mapTree(node: Node, leaf: (node: Node) => Node): Node {
  switch (node.type) {
    case 'call': {
      const args = node.args.map((arg) => mapTree(arg, leaf))
      return args.every((arg, i) => arg === node.args[i]) ? node : { ...node, args }
    }
    case 'unary':
    case 'percent':
    case 'spill': {
      const operand = mapTree(node.operand, leaf)
      if (node.type === 'spill' && operand.type === 'error') return operand
      return operand === node.operand ? node : ({ ...node, operand } as Node)
    }
    case 'binary':
    case 'rangeOp':
    case 'intersection': {
      const left = mapTree(node.left, leaf)
      const right = mapTree(node.right, leaf)
      return left === node.left && right === node.right ? node : ({ ...node, left, right } as Node)
    }
    case 'union': {
      const items = node.items.map((item) => mapTree(item, leaf))
      return items.every((item, i) => item === node.items[i]) ? node : { ...node, items }
    }
    case 'group': {
      const expression = mapTree(node.expression, leaf)
      return expression === node.expression ? node : { ...node, expression }
    }
    case 'invoke': {
      const callee = mapTree(node.callee, leaf)
      const args = node.args.map((arg) => mapTree(arg, leaf))
      return callee === node.callee && args.every((arg, i) => arg === node.args[i]) ? node : { ...node, callee, args }
    }
    default:
      return leaf(node)
  }
}

/** Shifts one index for an insertion or deletion; undefined when the index is deleted. */
function shiftIndex(index: number, change: StructuralChange, limit: number): number | undefined {
  if (change.kind === 'insert') {
    const moved = index >= change.index ? index + change.count : index
    return moved > limit ? undefined : moved
  }
  if (index < change.index) return index
  if (index >= change.index + change.count) return index - change.count
  return undefined
}

/** Shifts an interval: insertions inside it grow it, deletions shrink it; undefined when all deleted. */
export function shiftInterval(first: number, last: number, change: StructuralChange, limit: number): [number, number] | undefined {
  if (change.kind === 'insert') {
    const start = first >= change.index ? first + change.count : first
    const end = last >= change.index ? last + change.count : last
    if (start > limit) return undefined
    return [start, Math.min(end, limit)]
  }
  const deletedEnd = change.index + change.count
  if (first >= change.index && last < deletedEnd) return undefined
  const start = first < change.index ? first : first >= deletedEnd ? first - change.count : change.index
  const end = last < change.index ? last : last >= deletedEnd ? last - change.count : change.index - 1
  return [start, end]
}

function relocate(corner: RefCorner, row: number, col: number, to: Position): RefCorner {
  return {
    row: corner.rowAbsolute ? row : row - to.row,
    col: corner.colAbsolute ? col : col - to.col,
    rowAbsolute: corner.rowAbsolute,
    colAbsolute: corner.colAbsolute,
  }
}

function sameCorner(a: RefCorner, b: RefCorner): boolean {
  return a.row === b.row && a.col === b.col
}

/**
 * The tree of a formula after rows or columns of the sheet `targetSheet` (upper-case) were inserted
 * or deleted. `from` is the formula's position before, `to` after; `onTarget` says whether the formula
 * itself is on that sheet (its unqualified references then point there).
 */
export function shiftTree(
  ast: Node,
  from: Position,
  to: Position,
  onTarget: boolean,
  targetSheet: string,
  change: StructuralChange,
): { ast: Node; changed: boolean; retargeted: boolean; onlyGrown: boolean; valueKept: boolean } {
  // Whether a reference now names other cells than the ones it read, beyond following them: a cell
  // deleted, a range grown or shrunk, a whole row or column that lost or gained cells.
  let retargeted = false
  // Whether every such reference is a range that grew by the inserted rows or columns (nothing clipped).
  let onlyGrown = true
  // Whether every range that grew is read only by a function that skips empty cells: the inserted
  // cells are empty, so the formula's value stays.
  let valueKept = true
  const skippingEmpty = rangesSkippingEmpty(ast)
  const pointsAtTarget = (sheet: string | undefined) =>
    sheet === undefined ? onTarget : sheet.toUpperCase() === targetSheet
  const rows = change.axis === 'rows'
  const noteResize = (node: Node, shifted: [number, number] | undefined, first: number, last: number) => {
    if (shifted !== undefined && shifted[1] - shifted[0] === last - first) return
    retargeted = true
    const grown = shifted !== undefined && change.kind === 'insert' && shifted[1] - shifted[0] === last - first + change.count
    if (!grown) onlyGrown = false
    else if (!skippingEmpty.has(node)) valueKept = false
  }
  const result = mapTree(ast, (node) => {
    if (node.type === 'cell') {
      let row = cornerRow(node.ref, from.row)
      let col = cornerCol(node.ref, from.col)
      if (row < 0 || col < 0 || row > MAX_ROW || col > MAX_COL) return node
      if (pointsAtTarget(node.sheet)) {
        const moved = rows ? shiftIndex(row, change, MAX_ROW) : shiftIndex(col, change, MAX_COL)
        if (moved === undefined) {
          retargeted = true
          onlyGrown = false
          return REF_ERROR
        }
        if (rows) row = moved
        else col = moved
      }
      const ref = relocate(node.ref, row, col, to)
      return sameCorner(ref, node.ref) ? node : { ...node, ref }
    }
    if (node.type === 'range') {
      let r1 = cornerRow(node.start, from.row)
      let r2 = cornerRow(node.end, from.row)
      let c1 = cornerCol(node.start, from.col)
      let c2 = cornerCol(node.end, from.col)
      let start = node.start
      let end = node.end
      if (r1 > r2) {
        ;[r1, r2] = [r2, r1]
        start = { ...start, row: node.end.row, rowAbsolute: node.end.rowAbsolute }
        end = { ...end, row: node.start.row, rowAbsolute: node.start.rowAbsolute }
      }
      if (c1 > c2) {
        ;[c1, c2] = [c2, c1]
        const startCol = { col: end.col, colAbsolute: end.colAbsolute }
        end = { ...end, col: start.col, colAbsolute: start.colAbsolute }
        start = { ...start, ...startCol }
      }
      if (r1 < 0 || c1 < 0 || r2 > MAX_ROW || c2 > MAX_COL) return node
      if (pointsAtTarget(node.sheet)) {
        if (rows && node.kind !== 'columns') {
          const shifted = shiftInterval(r1, r2, change, MAX_ROW)
          noteResize(node, shifted, r1, r2)
          if (shifted === undefined) return REF_ERROR
          ;[r1, r2] = shifted
        } else if (!rows && node.kind !== 'rows') {
          const shifted = shiftInterval(c1, c2, change, MAX_COL)
          noteResize(node, shifted, c1, c2)
          if (shifted === undefined) return REF_ERROR
          ;[c1, c2] = shifted
        } else {
          // Whole columns lose the deleted rows' cells (whole rows the deleted columns'), or gain the
          // inserted ones with the cells below moved down: a lookup in them finds other positions.
          retargeted = true
          if (change.kind === 'delete') onlyGrown = false
          else if (!skippingEmpty.has(node)) valueKept = false
        }
      }
      const newStart = relocate(start, r1, c1, to)
      const newEnd = relocate(end, r2, c2, to)
      if (sameCorner(newStart, node.start) && sameCorner(newEnd, node.end)) return node
      return { ...node, start: newStart, end: newEnd }
    }
    return node
  })
  const grownOnly = retargeted && onlyGrown
  return { ast: result, changed: result !== ast, retargeted, onlyGrown: grownOnly, valueKept: grownOnly && valueKept }
}

/** Functions whose value from a range does not depend on its empty cells. */
const SKIPPING_EMPTY = new Set(['SUM', 'COUNT', 'COUNTA', 'AVERAGE', 'MIN', 'MAX', 'PRODUCT', 'SUMSQ'])

/**
 * The range nodes of a tree read only as an argument of a function that skips empty cells (a tree may
 * share one node between several places).
 */
function rangesSkippingEmpty(ast: Node): Set<Node> {
  const found = new Set<Node>()
  const elsewhere = new Set<Node>()
  const visit = (node: Node): void => {
    if (node.type === 'call') {
      const skips = SKIPPING_EMPTY.has(node.name.toUpperCase())
      for (const arg of node.args) {
        if (skips && arg.type === 'range') found.add(arg)
        else visit(arg)
      }
      return
    }
    if (node.type === 'range') {
      elsewhere.add(node)
      return
    }
    switch (node.type) {
      case 'unary':
      case 'percent':
      case 'spill':
        visit(node.operand)
        return
      case 'binary':
      case 'rangeOp':
      case 'intersection':
        visit(node.left)
        visit(node.right)
        return
      case 'union':
        node.items.forEach(visit)
        return
      case 'group':
        visit(node.expression)
        return
      case 'invoke':
        visit(node.callee)
        node.args.forEach(visit)
        return
      default:
    }
  }
  visit(ast)
  for (const node of elsewhere) found.delete(node)
  return found
}

/** The tree with references to sheet `from` renamed to `to`. */
export function renameSheetInTree(ast: Node, from: string, to: string): Node {
  const upper = from.toUpperCase()
  return mapTree(ast, (node) => {
    if ((node.type === 'cell' || node.type === 'range' || node.type === 'name') && node.sheet?.toUpperCase() === upper) {
      return { ...node, sheet: to }
    }
    return node
  })
}

/** The tree with every reference to the sheet (upper-case name) replaced by #REF!. */
export function dropSheetFromTree(ast: Node, sheet: string): Node {
  return mapTree(ast, (node) => {
    if ((node.type === 'cell' || node.type === 'range' || node.type === 'name') && node.sheet?.toUpperCase() === sheet) {
      return REF_ERROR
    }
    return node
  })
}

/** Upper-case names of the sheets a tree mentions. */
export function collectSheetNames(ast: Node): string[] {
  const names = new Set<string>()
  mapTree(ast, (node) => {
    if ((node.type === 'cell' || node.type === 'range' || node.type === 'name') && node.sheet !== undefined) {
      names.add(node.sheet.toUpperCase())
    }
    return node
  })
  return [...names]
}

/** Where a cell of the restructured sheet goes; undefined when it is deleted. */
export function movePosition(row: number, col: number, change: StructuralChange): { row: number; col: number } | undefined {
  const position = change.axis === 'rows' ? row : col
  let moved = position
  if (change.kind === 'insert') {
    if (position >= change.index) moved = position + change.count
  } else if (position >= change.index + change.count) moved = position - change.count
  else if (position >= change.index) return undefined
  return change.axis === 'rows' ? { row: moved, col } : { row, col: moved }
}

/** Gaps up to this many places are opened by one splice (its arguments go through the call stack). */
const SPLICED_GAP = 1_024

/**
 * Opens `count` empty places at `index` of an array, keeping at most `limit` items (those pushed past
 * it drop off), without spreading `count` items into a call: a million inserted rows would not fit on
 * the call stack.
 */
export function insertGap<T>(array: (T | undefined)[], index: number, count: number, limit: number): void {
  if (array.length <= index) return
  if (count <= SPLICED_GAP) {
    // The native splice moves the items in one copy, several times faster than a loop.
    array.splice(index, 0, ...new Array<undefined>(count))
    if (array.length > limit) array.length = limit
    return
  }
  const length = Math.min(array.length + count, limit)
  const end = array.length
  array.length = length
  for (let to = length - 1; to >= index + count; to--) array[to] = array[to - count]
  for (let i = index, last = Math.min(index + count, end); i < last; i++) array[i] = undefined
}

/**
 * Moves the sheet's cells for an insertion or deletion. With `keepEdges`, the dependency edges stored
 * beside the values move with them (the graph is kept, not rebuilt); otherwise the caller has dropped them.
 */
export function moveStorage(sheet: Sheet, change: StructuralChange, keepEdges = false): void {
  const { index, count } = change
  if (change.axis === 'columns') {
    if (change.kind === 'insert') insertGap(sheet.columns, index, count, MAX_COL + 1)
    else sheet.columns.splice(index, count)
    return
  }
  const shift = <T>(array: (T | undefined)[]): void => {
    if (change.kind === 'insert') insertGap(array, index, count, MAX_ROW + 1)
    else if (array.length > index) array.splice(index, count)
  }
  if (keepEdges) shift(sheet.rowRanges)
  for (const column of sheet.columns) {
    if (column === undefined) continue
    shift(column.values)
    column.version++
    if (column.formulas !== null) {
      shift(column.formulas)
      // Each shape's rows move as its formulas did (a span wholly deleted goes).
      const spans = column.shapeRows
      if (spans !== null) {
        let write = 0
        for (const span of spans) {
          const moved = shiftInterval(span.top, span.bottom, change, MAX_ROW)
          if (moved === undefined) continue
          span.top = moved[0]
          span.bottom = moved[1]
          spans[write++] = span
        }
        spans.length = write
      }
    }
    if (keepEdges) {
      if (column.dependents !== null) shift(column.dependents)
      if (column.rangeDependents !== null) shift(column.rangeDependents)
      // Prefix sums are by row from a top row: they start over.
      column.prefixes = null
    }
    const remap = <T>(map: Map<number, T> | null): Map<number, T> | null => {
      if (map === null) return null
      const next = new Map<number, T>()
      for (const [row, value] of map) {
        const moved = movePosition(row, 0, change)
        if (moved !== undefined && moved.row <= MAX_ROW) next.set(moved.row, value)
      }
      return next
    }
    column.inputs = remap(column.inputs)
    column.formats = remap(column.formats)
    column.spilledFrom = null
  }
}

