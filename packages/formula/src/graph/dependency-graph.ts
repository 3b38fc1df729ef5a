/**
 * The dependency graph: which formulas read which cells and ranges, and dirty marking of everything
 * downstream of a change (breadth-first, iterative, never recursive).
 */
import { CellState } from '../engine/formula-cell.js'
import type { FormulaCell, StaticCellDependency, StaticRangeDependency } from '../engine/formula-cell.js'
import type { Dependent, Sheet, Slot } from '../engine/sheet.js'
import type { StructuralChange } from '../engine/structure.js'
import { cornerCol, cornerRow } from '../parser/printer.js'
import { MAX_COL, MAX_ROW } from '../values.js'
import { RangeNode } from './range-node.js'

/** Ranges with more cells than this keep no per-cell edges (whole columns, whole rows, huge blocks). */
const WIDE_RANGE_CELLS = 1_000_000

/**
 * When a range node holds no edge per cell. `tallRows`: a node with at least this many rows of its own
 * is listed by its columns (see RangeNode.tall): a column total over 100,000 numbers keeps one entry,
 * not 100,000, and rows inserted or deleted under it move none of its edges. `broadColumns`: a node of
 * fewer own rows over at least this many columns is listed by its rows (see RangeNode.broad): a row
 * total across 99 periods keeps one entry, and a column inserted or deleted moves none.
 */
export const RANGE_EDGE_LIMITS = { tallRows: 256, broadColumns: 16 }

function addTall(sheet: Sheet, left: number, right: number, node: RangeNode): void {
  for (let col = left; col <= right; col++) (sheet.column(col).tallRanges ??= []).push(node)
}

/** What a name stands for, for dependency purposes. */
export interface NameDependencies {
  readonly cells: readonly StaticCellDependency[]
  readonly ranges: readonly StaticRangeDependency[]
  readonly names: readonly string[]
}

export interface GraphHost {
  /** The definition a name has for formulas on `sheet` (sheet scope first, then workbook). */
  nameDependencies(name: string, sheet: Sheet): NameDependencies | undefined
}

interface Bounds {
  top: number
  left: number
  bottom: number
  right: number
}

/** Bounds of a static range seen from (row, col), normalised and clipped; undefined when off the sheet. */
export function rangeBounds(dep: StaticRangeDependency, row: number, col: number): Bounds | undefined {
  let r1 = cornerRow(dep.start, row)
  let r2 = cornerRow(dep.end, row)
  let c1 = cornerCol(dep.start, col)
  let c2 = cornerCol(dep.end, col)
  if (dep.kind === 'columns') {
    r1 = 0
    r2 = MAX_ROW
  } else if (dep.kind === 'rows') {
    c1 = 0
    c2 = MAX_COL
  }
  const top = Math.min(r1, r2)
  const bottom = Math.max(r1, r2)
  const left = Math.min(c1, c2)
  const right = Math.max(c1, c2)
  if (top < 0 || left < 0 || bottom > MAX_ROW || right > MAX_COL) return undefined
  return { top, left, bottom, right }
}

function addToSlot<T>(slots: Slot<T>[], row: number, dependent: T): void {
  const slot = slots[row]
  if (slot === undefined) slots[row] = dependent
  else if (Array.isArray(slot)) slot.push(dependent)
  else slots[row] = [slot, dependent]
}

function removeFromSlot<T>(slots: Slot<T>[], row: number, dependent: T): void {
  const slot = slots[row]
  if (slot === undefined) return
  if (slot === dependent) {
    slots[row] = undefined
    return
  }
  if (!Array.isArray(slot)) return
  const index = slot.indexOf(dependent)
  if (index < 0) return
  slot[index] = slot[slot.length - 1]
  slot.pop()
  if (slot.length === 1) slots[row] = slot[0]
}

function removeFromList(list: Dependent[], dependent: Dependent): void {
  const index = list.lastIndexOf(dependent)
  if (index < 0) return
  list[index] = list[list.length - 1]
  list.pop()
}

export class DependencyGraph {
  /**
   * Range nodes by sheet and top row, then by columns: each list (a chain) holds the nodes with the
   * same sheet, top row and columns, sorted by bottom row. Numeric keys, no strings to build.
   */
  private readonly chains = new Map<number, Map<number, RangeNode[]>>()
  private nodeCount = 0
  /** Formulas per upper-case name they mention. */
  readonly nameUsers = new Map<string, Set<FormulaCell>>()
  readonly volatile = new Set<FormulaCell>()
  /** Formulas calling a function that skips hidden rows (SUBTOTAL, AGGREGATE). */
  readonly hiddenRowReaders = new Set<FormulaCell>()
  /** Formulas per upper-case sheet name they mention that does not exist. */
  readonly missingSheetUsers = new Map<string, Set<FormulaCell>>()
  /**
   * The ranges formulas read that their text does not name whole (see EvaluationHost.readsRange), as
   * found by their last calculation, with the nodes that make edits reach them.
   */
  readonly dynamicRanges = new Map<FormulaCell, RangeNode[]>()
  /** Counts dirty-marking rounds; range nodes remember the round that last marked them. */
  epoch = 0
  /**
   * Changes whenever what an edit reaches may change (formulas registered or removed, spills moved), so
   * that the cells an edit dirtied can be remembered and replayed for the next edit of the same cell.
   */
  version = 0
  /** The calculation round whose old values are being recorded (-1: none), see FormulaCell.previous. */
  private logRound = -1

  constructor(private readonly host: GraphHost) {}

  get rangeNodeCount(): number {
    return this.nodeCount
  }

  addCellEdge(sheet: Sheet, row: number, col: number, dependent: FormulaCell): void {
    const column = sheet.column(col)
    addToSlot((column.dependents ??= []), row, dependent)
  }

  removeCellEdge(sheet: Sheet, row: number, col: number, dependent: FormulaCell): void {
    const slots = sheet.columns[col]?.dependents
    if (slots) removeFromSlot(slots, row, dependent)
  }

  private chain(sheet: Sheet, top: number, left: number, right: number, create: true): RangeNode[]
  private chain(sheet: Sheet, top: number, left: number, right: number, create: false): RangeNode[] | undefined
  private chain(sheet: Sheet, top: number, left: number, right: number, create: boolean): RangeNode[] | undefined {
    const outerKey = sheet.id * 1_048_576 + top
    let byColumns = this.chains.get(outerKey)
    if (byColumns === undefined) {
      if (!create) return undefined
      this.chains.set(outerKey, (byColumns = new Map()))
    }
    const innerKey = left * 16_384 + right
    let chain = byColumns.get(innerKey)
    if (chain === undefined && create) byColumns.set(innerKey, (chain = []))
    return chain
  }

  /** Index of the first node of a chain whose bottom row is at least `bottom`. */
  private static position(chain: readonly RangeNode[], bottom: number): number {
    let low = 0
    let high = chain.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (chain[middle].bottom < bottom) low = middle + 1
      else high = middle
    }
    return low
  }

  /** The shared node for a range, created with its edges on first use. */
  rangeNode(sheet: Sheet, top: number, left: number, bottom: number, right: number): RangeNode {
    const chain = this.chain(sheet, top, left, right, true)
    const index = DependencyGraph.position(chain, bottom)
    if (index < chain.length && chain[index].bottom === bottom) return chain[index]
    const cells = (bottom - top + 1) * (right - left + 1)
    const wide = cells > WIDE_RANGE_CELLS
    const node = new RangeNode(sheet, top, left, bottom, right, wide)
    chain.splice(index, 0, node)
    this.nodeCount++
    if (wide) {
      sheet.wideRanges.push(node)
      return node
    }
    // The largest smaller node of the chain covers our upper rows (wide nodes are the largest of a
    // chain, so the smaller one is never wide).
    const smaller = index > 0 ? chain[index - 1] : null
    node.smaller = smaller
    if (smaller !== null) smaller.dependents.push(node)
    if (bottom - node.ownTop + 1 >= RANGE_EDGE_LIMITS.tallRows) {
      node.tall = true
      addTall(sheet, left, right, node)
      return node
    }
    if (right - left + 1 >= RANGE_EDGE_LIMITS.broadColumns) {
      node.broad = true
      for (let row = node.ownTop; row <= bottom; row++) addToSlot(sheet.rowRanges, row, node)
      return node
    }
    for (let col = left; col <= right; col++) {
      const column = sheet.column(col)
      const slots = (column.rangeDependents ??= [])
      for (let row = node.ownTop; row <= bottom; row++) addToSlot(slots, row, node)
    }
    return node
  }

  private findRangeNode(sheet: Sheet, top: number, left: number, bottom: number, right: number): RangeNode | undefined {
    const chain = this.chain(sheet, top, left, right, false)
    if (chain === undefined) return undefined
    const index = DependencyGraph.position(chain, bottom)
    return index < chain.length && chain[index].bottom === bottom ? chain[index] : undefined
  }

  /** Drops a dependent from a node, and the node itself (with its edges) once nothing depends on it. */
  private releaseRangeNode(node: RangeNode, dependent: Dependent): void {
    removeFromList(node.dependents, dependent)
    let current: RangeNode | null = node
    while (current !== null && current.dependents.length === 0) {
      const chain = this.chain(current.sheet, current.top, current.left, current.right, false)
      if (chain !== undefined) {
        const index = chain.indexOf(current)
        if (index >= 0) {
          chain.splice(index, 1)
          this.nodeCount--
        }
      }
      if (current.wide) {
        removeFromList(current.sheet.wideRanges as Dependent[], current)
        return
      }
      if (current.broad) {
        for (let row = current.ownTop; row <= current.bottom; row++) removeFromSlot(current.sheet.rowRanges, row, current)
      } else {
        for (let col = current.left; col <= current.right; col++) {
          const column = current.sheet.columns[col]
          if (current.tall) {
            const tall = column?.tallRanges
            if (tall) removeFromList(tall as Dependent[], current)
            continue
          }
          const slots = column?.rangeDependents
          if (!slots) continue
          for (let row = current.ownTop; row <= current.bottom; row++) removeFromSlot(slots, row, current)
        }
      }
      const smaller: RangeNode | null = current.smaller
      if (smaller !== null) removeFromList(smaller.dependents, current)
      current = smaller
    }
  }

  /** Adds the edges of a formula cell: its cells, ranges, names, spill references, volatility. */
  register(cell: FormulaCell): void {
    this.version++
    const compiled = cell.compiled
    this.registerReferences(cell, compiled.cells, compiled.ranges, true)
    for (const spill of compiled.spills) {
      const sheet = spill.sheet ?? cell.sheet
      const row = cornerRow(spill.ref, cell.row)
      const col = cornerCol(spill.ref, cell.col)
      if (row >= 0 && col >= 0 && row <= MAX_ROW && col <= MAX_COL) this.addCellEdge(sheet, row, col, cell)
    }
    if (compiled.names.length > 0) this.registerNames(cell, compiled.names, true, 0)
    if (compiled.volatile) this.volatile.add(cell)
    if (compiled.readsHiddenRows === true) this.hiddenRowReaders.add(cell)
    for (const name of compiled.missingSheets) {
      let users = this.missingSheetUsers.get(name)
      if (users === undefined) this.missingSheetUsers.set(name, (users = new Set()))
      users.add(cell)
    }
  }

  /** Removes every edge `register` added for the cell (its position and formula must be unchanged). */
  unregister(cell: FormulaCell): void {
    this.version++
    const compiled = cell.compiled
    this.registerReferences(cell, compiled.cells, compiled.ranges, false)
    for (const spill of compiled.spills) {
      const sheet = spill.sheet ?? cell.sheet
      const row = cornerRow(spill.ref, cell.row)
      const col = cornerCol(spill.ref, cell.col)
      if (row >= 0 && col >= 0 && row <= MAX_ROW && col <= MAX_COL) this.removeCellEdge(sheet, row, col, cell)
    }
    if (compiled.names.length > 0) this.registerNames(cell, compiled.names, false, 0)
    if (compiled.volatile) this.volatile.delete(cell)
    if (compiled.readsHiddenRows === true) this.hiddenRowReaders.delete(cell)
    for (const name of compiled.missingSheets) this.missingSheetUsers.get(name)?.delete(cell)
    if (this.dynamicRanges.size > 0) this.setDynamicRanges(cell, [])
  }

  /**
   * Makes `cell` a reader of exactly these ranges beside its static references (what its calculation
   * just read through the range operator). Unchanged ranges change nothing, so that recalculating the
   * same formula keeps the graph's version.
   */
  setDynamicRanges(cell: FormulaCell, ranges: readonly { sheet: Sheet; top: number; left: number; bottom: number; right: number }[]): void {
    const old = this.dynamicRanges.get(cell)
    if (old === undefined && ranges.length === 0) return
    const distinct: typeof ranges[number][] = []
    for (const range of ranges) {
      if (!distinct.some((other) => other.sheet === range.sheet && other.top === range.top && other.left === range.left && other.bottom === range.bottom && other.right === range.right)) {
        distinct.push(range)
      }
    }
    if (
      old !== undefined &&
      old.length === distinct.length &&
      old.every((node, i) => node.sheet === distinct[i].sheet && node.top === distinct[i].top && node.left === distinct[i].left && node.bottom === distinct[i].bottom && node.right === distinct[i].right)
    ) {
      return
    }
    this.version++
    // The new nodes first, so that a node kept from the old list is not dropped and built again.
    const nodes = distinct.map((range) => {
      const node = this.rangeNode(range.sheet, range.top, range.left, range.bottom, range.right)
      node.dependents.push(cell)
      return node
    })
    if (old !== undefined) for (const node of old) this.releaseRangeNode(node, cell)
    if (nodes.length > 0) this.dynamicRanges.set(cell, nodes)
    else this.dynamicRanges.delete(cell)
  }

  private registerReferences(
    cell: FormulaCell,
    cells: readonly StaticCellDependency[],
    ranges: readonly StaticRangeDependency[],
    add: boolean,
  ): void {
    for (let i = 0; i < cells.length; i++) {
      const dep = cells[i]
      const sheet = dep.sheet ?? cell.sheet
      const row = cornerRow(dep.ref, cell.row)
      const col = cornerCol(dep.ref, cell.col)
      if (row < 0 || col < 0 || row > MAX_ROW || col > MAX_COL) continue
      if (add) this.addCellEdge(sheet, row, col, cell)
      else this.removeCellEdge(sheet, row, col, cell)
    }
    for (let i = 0; i < ranges.length; i++) {
      const dep = ranges[i]
      const bounds = rangeBounds(dep, cell.row, cell.col)
      if (bounds === undefined) continue
      const sheet = dep.sheet ?? cell.sheet
      if (add) this.rangeNode(sheet, bounds.top, bounds.left, bounds.bottom, bounds.right).dependents.push(cell)
      else {
        const node = this.findRangeNode(sheet, bounds.top, bounds.left, bounds.bottom, bounds.right)
        if (node !== undefined) this.releaseRangeNode(node, cell)
      }
    }
  }

  private registerNames(cell: FormulaCell, names: readonly string[], add: boolean, depth: number): void {
    if (depth > 20) return
    for (const name of names) {
      if (depth === 0) {
        let users = this.nameUsers.get(name)
        if (add) {
          if (users === undefined) this.nameUsers.set(name, (users = new Set()))
          users.add(cell)
        } else users?.delete(cell)
      }
      const definition = this.host.nameDependencies(name, cell.sheet)
      if (definition === undefined) continue
      this.registerReferences(cell, definition.cells, definition.ranges, add)
      if (definition.names.length > 0) this.registerNames(cell, definition.names, add, depth + 1)
    }
  }

  /**
   * Moves a sheet's range nodes with its cells after rows or columns were inserted or deleted there
   * (their cell edges moved with the storage). Only nodes wholly after the change move; the formulas
   * reading a range across it were unregistered before, which dropped such nodes, except whole columns
   * (or rows) that keep their bounds.
   */
  shiftRanges(sheet: Sheet, change: StructuralChange): void {
    this.version++
    const after = change.kind === 'insert' ? change.index : change.index + change.count
    const delta = change.kind === 'insert' ? change.count : -change.count
    const outerBase = sheet.id * 1_048_576
    const rows = change.axis === 'rows'
    // Whole columns (for rows; whole rows for columns) keep their bounds: they end at the sheet's edge.
    const stays = (node: RangeNode) => (rows ? node.bottom === MAX_ROW : node.right === MAX_COL)
    const shift = (chain: RangeNode[]): RangeNode[] => {
      const kept: RangeNode[] = []
      let write = 0
      for (const node of chain) {
        if (stays(node)) {
          kept.push(node)
          continue
        }
        if (rows) {
          node.top += delta
          node.bottom += delta
        } else {
          node.left += delta
          node.right += delta
        }
        chain[write++] = node
      }
      chain.length = write
      return kept
    }
    if (rows) {
      const moving: [number, Map<number, RangeNode[]>][] = []
      for (const [key, byColumns] of this.chains) {
        const top = key - outerBase
        if (top >= after && top < 1_048_576) moving.push([top, byColumns])
      }
      for (const [top] of moving) this.chains.delete(outerBase + top)
      for (const [top, byColumns] of moving) {
        const staying = new Map<number, RangeNode[]>()
        for (const [columns, chain] of byColumns) {
          const kept = shift(chain)
          if (kept.length > 0) staying.set(columns, kept)
          if (chain.length === 0) byColumns.delete(columns)
        }
        if (byColumns.size > 0) this.chains.set(outerBase + top + delta, byColumns)
        if (staying.size > 0) this.chains.set(outerBase + top, staying)
      }
      return
    }
    for (const [key, byColumns] of this.chains) {
      const top = key - outerBase
      if (top < 0 || top >= 1_048_576) continue
      const moving: [number, RangeNode[]][] = []
      for (const [columns, chain] of byColumns) if (Math.floor(columns / 16_384) >= after) moving.push([columns, chain])
      if (moving.length === 0) continue
      for (const [columns] of moving) byColumns.delete(columns)
      for (const [columns, chain] of moving) {
        const kept = shift(chain)
        // Key: left × 16,384 + right, both moved by delta.
        if (chain.length > 0) byColumns.set(columns + delta * 16_385, chain)
        if (kept.length > 0) byColumns.set(columns, kept)
      }
    }
  }

  /**
   * Grows a sheet's range nodes across inserted rows or columns, in place (after the storage moved,
   * leaving the inserted cells without edges): the formulas reading them keep their registration.
   * Whole columns (for rows; whole rows for columns) keep their bounds.
   */
  growRanges(sheet: Sheet, change: StructuralChange): void {
    if (change.kind !== 'insert') return
    this.version++
    const { index, count } = change
    const outerBase = sheet.id * 1_048_576
    for (const [key, byColumns] of this.chains) {
      const top = key - outerBase
      if (top < 0 || top >= 1_048_576) continue
      if (change.axis === 'rows') {
        if (top >= index) continue
        for (const chain of byColumns.values()) {
          // Own segments are read before any bottom moves.
          const ownTops = chain.map((node) => node.ownTop)
          for (let i = 0; i < chain.length; i++) {
            const node = chain[i]
            if (node.bottom < index || node.bottom === MAX_ROW) continue
            if (node.broad && ownTops[i] <= index) {
              for (let row = index; row < index + count; row++) addToSlot(sheet.rowRanges, row, node)
            } else if (!node.wide && !node.tall && ownTops[i] <= index) {
              for (let col = node.left; col <= node.right; col++) {
                const slots = (sheet.column(col).rangeDependents ??= [])
                for (let row = index; row < index + count; row++) addToSlot(slots, row, node)
              }
            }
            node.bottom += count
          }
        }
        continue
      }
      const growing: [number, RangeNode[]][] = []
      for (const [columns, chain] of byColumns) {
        const left = Math.floor(columns / 16_384)
        const right = columns - left * 16_384
        if (left < index && right >= index && right !== MAX_COL) growing.push([columns, chain])
      }
      for (const [columns] of growing) byColumns.delete(columns)
      for (const [columns, chain] of growing) {
        for (const node of chain) {
          if (node.tall) addTall(sheet, index, index + count - 1, node)
          else if (!node.wide && !node.broad) {
            const ownTop = node.ownTop
            for (let col = index; col < index + count; col++) {
              const slots = (sheet.column(col).rangeDependents ??= [])
              for (let row = ownTop; row <= node.bottom; row++) addToSlot(slots, row, node)
            }
          }
          node.right += count
        }
        byColumns.set(columns + count, chain)
      }
    }
  }

  /** Drops every edge and node (before a rebuild after a structural change). */
  clear(): void {
    this.version++
    this.chains.clear()
    this.nodeCount = 0
    this.nameUsers.clear()
    this.volatile.clear()
    this.hiddenRowReaders.clear()
    this.missingSheetUsers.clear()
    this.dynamicRanges.clear()
  }

  /**
   * Marks dirty every formula downstream of the changed positions, of the clean formulas in `seeds`
   * (volatile ones) and of the formulas in `queue` from index `from` on (new ones, created dirty),
   * appending the newly dirtied formulas to `queue` in breadth-first order (which is close to
   * calculation order).
   */
  markDirty(
    positions: readonly { sheet: Sheet; row: number; col: number }[],
    seeds: readonly FormulaCell[],
    queue: FormulaCell[],
    from: number,
    logRound: number,
  ): void {
    this.epoch++
    this.logRound = logRound
    for (const seed of seeds) this.markFormula(seed, queue)
    for (const position of positions) {
      const sheet = position.sheet
      this.visitPosition(sheet, position.row, position.col, queue)
      if (sheet.spillOwners.size === 0) continue
      // A value typed into a spill area, or into the area a blocked formula wants, recalculates its owner.
      for (const owner of sheet.spillOwners) {
        const height = owner.spills ? owner.spillHeight : owner.blockedHeight
        const width = owner.spills ? owner.spillWidth : owner.blockedWidth
        if (
          position.row >= owner.row &&
          position.row < owner.row + height &&
          position.col >= owner.col &&
          position.col < owner.col + width
        ) {
          this.markFormula(owner, queue)
        }
      }
    }
    for (let i = from; i < queue.length; i++) {
      const cell = queue[i]
      this.visitPosition(cell.sheet, cell.row, cell.col, queue)
      if (cell.spillHeight > 1 || cell.spillWidth > 1) {
        for (let r = 0; r < cell.spillHeight; r++) {
          for (let c = 0; c < cell.spillWidth; c++) {
            if (r !== 0 || c !== 0) this.visitPosition(cell.sheet, cell.row + r, cell.col + c, queue)
          }
        }
      }
    }
  }

  private visitPosition(sheet: Sheet, row: number, col: number, queue: FormulaCell[]): void {
    const column = sheet.columns[col]
    if (column !== undefined) {
      const dependents = column.dependents
      if (dependents !== null) {
        const slot = dependents[row]
        if (slot !== undefined) {
          if (Array.isArray(slot)) for (let i = 0; i < slot.length; i++) this.markFormula(slot[i], queue)
          else this.markFormula(slot, queue)
        }
      }
      const ranges = column.rangeDependents
      if (ranges !== null) {
        const slot = ranges[row]
        if (slot !== undefined) {
          if (Array.isArray(slot)) {
            for (let i = 0; i < slot.length; i++) if (slot[i].markedEpoch !== this.epoch) this.visitNode(slot[i], queue)
          } else if (slot.markedEpoch !== this.epoch) this.visitNode(slot, queue)
        }
      }
      const tall = column.tallRanges
      if (tall !== null) {
        for (let i = 0; i < tall.length; i++) {
          const node = tall[i]
          if (node.markedEpoch !== this.epoch && row >= node.top && row <= node.bottom) this.visitNode(node, queue)
        }
      }
      if (column.spilledFrom !== null) {
        const owner = column.spilledFrom.get(row)
        if (owner !== undefined) this.markFormula(owner, queue)
      }
    }
    const broad = sheet.rowRanges[row]
    if (broad !== undefined) {
      if (Array.isArray(broad)) {
        for (let i = 0; i < broad.length; i++) {
          const node = broad[i]
          if (node.markedEpoch !== this.epoch && col >= node.left && col <= node.right) this.visitNode(node, queue)
        }
      } else if (broad.markedEpoch !== this.epoch && col >= broad.left && col <= broad.right) this.visitNode(broad, queue)
    }
    const wide = sheet.wideRanges
    for (let i = 0; i < wide.length; i++) {
      const node = wide[i]
      if (node.markedEpoch !== this.epoch && node.contains(row, col)) this.visitNode(node, queue)
    }
  }

  /**
   * Marks exactly the formulas a previous `markDirty` reached (valid while `version` is unchanged and
   * every formula is clean), without walking the graph again.
   */
  replay(cells: readonly FormulaCell[], queue: FormulaCell[], logRound: number): void {
    this.epoch++
    this.logRound = logRound
    for (let i = 0; i < cells.length; i++) this.markFormula(cells[i], queue)
  }

  private markFormula(cell: FormulaCell, queue: FormulaCell[]): void {
    if (cell.state !== CellState.Clean) return
    cell.state = CellState.Dirty
    const column = cell.column
    column.pendingFormulas++
    if (this.logRound >= 0 && cell.loggedEpoch !== this.logRound) {
      cell.loggedEpoch = this.logRound
      cell.previous = column.values[cell.row]
    }
    queue.push(cell)
  }

  /** Marks a range node's readers, and larger nodes of its chain, iteratively (chains can be long). */
  private visitNode(node: RangeNode, queue: FormulaCell[]): void {
    const epoch = this.epoch
    const pending: RangeNode[] = [node]
    node.markedEpoch = epoch
    while (pending.length > 0) {
      const dependents = (pending.pop() as RangeNode).dependents
      for (let i = 0; i < dependents.length; i++) {
        const dependent = dependents[i]
        if (dependent instanceof RangeNode) {
          if (dependent.markedEpoch !== epoch) {
            dependent.markedEpoch = epoch
            pending.push(dependent)
          }
        } else this.markFormula(dependent, queue)
      }
    }
  }
}

