/**
 * The calculation scheduler. Dirty formulas are calculated from an explicit stack, never by recursion,
 * so a chain of 100,000 formulas is as safe as a short one. When a formula reads a formula that is not
 * calculated yet, the read throws a "need" signal; the scheduler puts the needed cells on the stack,
 * calculates them and retries. Reading a cell that is itself waiting means a cycle: with iteration off
 * its cells keep their last values (Excel's circular-reference warning), with it on they are iterated
 * as Excel does.
 */
import { formatAddress } from '../address/a1.js'
import { OverBudget, arrayTooLargeMessage, resourceMessage, spillTooLargeMessage } from '../evaluator/budget.js'
import type { EvaluationMeter } from '../evaluator/budget.js'
import type { EvalContext } from '../evaluator/context.js'
import { ArrayValue, BudgetError, CellError, MAX_COL, MAX_ROW, RangeRef, ReferenceList } from '../values.js'
import type { Scalar, Value } from '../values.js'
import { cornerCol, cornerRow } from '../parser/printer.js'
import { rangeBounds } from '../graph/dependency-graph.js'
import type { DependencyGraph, NameDependencies } from '../graph/dependency-graph.js'
import { CellState } from './formula-cell.js'
import type { FormulaCell, StaticCellDependency, StaticRangeDependency } from './formula-cell.js'
import type { CalculationGuard, Sheet } from './sheet.js'

/** Thrown by reads of uncalculated cells; a single instance, since only one calculation runs at a time. */
class NeedSignal {
  cells: FormulaCell[] = []
}
const NEED = new NeedSignal()

export interface IterationSettings {
  enabled: boolean
  maxIterations: number
  maxChange: number
}

/** A changed cell, as every mutating call of the engine reports it. */
export interface CellChange {
  sheet: string
  address: string
  /** 0-based row and column of the cell. */
  row: number
  col: number
  value: Scalar
}

export interface CalculatorHost {
  readonly graph: DependencyGraph
  readonly iteration: IterationSettings
  /** The budget every formula is calculated under. */
  readonly meter: EvaluationMeter
  nameDependencies(name: string, sheet: Sheet): NameDependencies | undefined
  /** Sheets in workbook order, to order iteration and cycle reports. */
  sheetIndex(sheet: Sheet): number
}

function sameScalar(a: Scalar | undefined, b: Scalar | undefined): boolean {
  if (a === b) return true
  if ((a === undefined || a === null) && (b === undefined || b === null)) return true
  return a instanceof CellError && b instanceof CellError && a.code === b.code
}

export class Calculator implements CalculationGuard {
  ctx!: EvalContext
  private readonly stack: FormulaCell[] = []
  private queue: FormulaCell[] = []
  /** Circular references found (iteration off), kept until one of their cells is recalculated. */
  private cycles: FormulaCell[][] = []
  private run = 0
  private spillLog = new Map<number, { sheet: Sheet; row: number; col: number; old: Scalar | undefined }>()
  /** Changes recorded as cells finish calculating (while they are in the processor's cache). */
  private reported: CellChange[] = []
  /** Some cell was calculated twice this round (a spill moved): the change list is rebuilt at the end. */
  private recalculatedTwice = false
  /** How many times this round volatile formulas were calculated again because a spill moved. */
  private volatileRounds = 0
  /** How many times this round each formula was dirtied again by a moving spill. */
  private respills = new Map<FormulaCell, number>()
  /** The formulas recent single-cell edits reached, by edited cell, with the graph version they hold for. */
  private readonly reached = new Map<string, { version: number; cells: FormulaCell[] }>()
  /**
   * Formulas calling a function whose value comes from outside the workbook that show the value their
   * file was saved with (see evaluate), and the arrays such formulas were saved spilling.
   */
  readonly savedValues = new Set<FormulaCell>()
  readonly savedArrays = new Map<FormulaCell, ArrayValue>()
  /** The formula being calculated, and the ranges it read that its text does not name whole. */
  private current: FormulaCell | null = null
  private readonly rangesRead: RangeRef[] = []

  constructor(private readonly host: CalculatorHost) {}

  get evaluating(): FormulaCell | null {
    return this.current
  }

  need(cells: FormulaCell[]): never {
    NEED.cells = cells
    throw NEED
  }

  /** Notes a range the formula being calculated read through the range operator (see EvaluationHost). */
  readsRange(range: RangeRef): void {
    if (this.current !== null) this.rangesRead.push(range)
  }

  /** Starts noting the ranges a formula reads. */
  private startReading(cell: FormulaCell): void {
    this.current = cell
    this.rangesRead.length = 0
  }

  /** Makes the formula a reader of the ranges its finished calculation read. */
  private finishReading(cell: FormulaCell): void {
    this.current = null
    const graph = this.host.graph
    if (this.rangesRead.length === 0 && graph.dynamicRanges.size === 0) return
    graph.setDynamicRanges(
      cell,
      this.rangesRead.map((range) => ({ sheet: range.sheet as Sheet, top: range.top, left: range.left, bottom: range.bottom, right: range.right })),
    )
    this.rangesRead.length = 0
  }

  private logging = true
  /** This round loads saved values: circular references whose saved values are settled keep them. */
  private keepSettled = false

  /**
   * Starts a calculation round: the change log is emptied (and kept only when `log` is true).
   * `keepSettled` marks a load of saved values (see iterate).
   */
  begin(log = true, keepSettled = false): void {
    this.logging = log
    this.keepSettled = keepSettled
    this.host.meter.beginRecalculation()
    this.run++
    this.spillLog = new Map()
    this.queue = []
    this.reported = []
    this.recalculatedTwice = false
    this.volatileRounds = 0
    this.respills = new Map()
  }

  /** Records the value a formula cell had before this round (once per round). */
  logOld(cell: FormulaCell): void {
    if (!this.logging || cell.loggedEpoch === this.run) return
    cell.loggedEpoch = this.run
    cell.previous = cell.column.values[cell.row]
  }

  /** Adds a new (dirty) formula cell to this round's work. */
  enqueue(cell: FormulaCell): void {
    this.queue.push(cell)
  }

  get pending(): FormulaCell[] {
    return this.queue
  }

  /** Marks everything downstream of the positions (and volatile formulas) dirty and calculates. */
  recalculate(positions: readonly { sheet: Sheet; row: number; col: number }[], volatile: readonly FormulaCell[]): void {
    const queue = this.queue
    const graph = this.host.graph
    const logRound = this.logging ? this.run : -1
    // Editing the same input again (what-if analysis) reaches the same formulas while the graph is
    // unchanged: they are remembered and replayed instead of walking the graph again.
    const single = positions.length === 1 && volatile.length === 0 && queue.length === 0 ? positions[0] : undefined
    const key = single === undefined ? '' : `${single.sheet.id}:${single.row}:${single.col}`
    const remembered = single === undefined ? undefined : this.reached.get(key)
    if (remembered !== undefined && remembered.version === graph.version) {
      graph.replay(remembered.cells, queue, logRound)
    } else {
      graph.markDirty(positions, volatile, queue, 0, logRound)
      if (single !== undefined && queue.length >= 64) {
        if (this.reached.size >= 16) this.reached.clear()
        this.reached.set(key, { version: graph.version, cells: queue.slice() })
      }
    }
    this.dropCyclesOf(queue)
    this.calculate()
  }

  /** Marks the readers of positions dirty mid-calculation (spills that grew or shrank). */
  private redirty(positions: { sheet: Sheet; row: number; col: number }[]): void {
    const queue = this.queue
    // OFFSET and INDIRECT read cells without edges to them: when a spill moves, the volatile formulas
    // already calculated in this round may have read its cells, so they calculate again (a few times
    // at most, so that arrays feeding their own size cannot loop).
    let volatile: FormulaCell[] = []
    if (this.volatileRounds < 3 && this.host.graph.volatile.size > 0) {
      this.volatileRounds++
      volatile = [...this.host.graph.volatile]
    }
    const from = queue.length
    this.host.graph.markDirty(positions, volatile, queue, from, this.logging ? this.run : -1)
    // Arrays whose spills feed each other's size could be dirtied back and forth for ever: after a
    // few rounds such a formula is a circular reference.
    for (let i = from; i < queue.length; i++) {
      const cell = queue[i]
      const rounds = (this.respills.get(cell) ?? 0) + 1
      this.respills.set(cell, rounds)
      if (rounds > 8 && cell.state === CellState.Dirty) {
        cell.state = CellState.Clean
        cell.column.pendingFormulas--
        cell.column.values[cell.row] = new CellError('#CIRC!', 'Arrays that spill into each other')
        cell.column.version++
      }
    }
  }

  /**
   * This round's changes: formula cells whose value differs from before, then cells an array spilled
   * into or out of (except positions `skipPosition` names, which the caller reports itself).
   */
  changes(skipPosition: (sheet: Sheet, row: number, col: number) => boolean): CellChange[] {
    if (this.recalculatedTwice) {
      this.reported = []
      const seen = new Set<FormulaCell>()
      for (const cell of this.queue) {
        if (cell.loggedEpoch !== this.run || seen.has(cell)) continue
        seen.add(cell)
        cell.reportedEpoch = -1
        this.report(cell)
      }
    }
    const changes = this.reported
    for (const { sheet, row, col, old } of this.spillLog.values()) {
      if (skipPosition(sheet, row, col)) continue
      const value = sheet.columns[col]?.values[row]
      if (sameScalar(old, value)) continue
      changes.push({ sheet: sheet.name, address: formatAddress(row, col), row, col, value: value ?? null })
    }
    return changes
  }

  /** Circular references that could not be calculated (iteration off), each as its cells. */
  currentCycles(): FormulaCell[][] {
    return this.cycles.filter((cycle) => cycle.every((cell) => cell.sheet.formulaAt(cell.row, cell.col) === cell))
  }

  private dropCyclesOf(cells: readonly FormulaCell[]): void {
    if (this.cycles.length === 0) return
    const touched = new Set(cells)
    this.cycles = this.cycles.filter((cycle) => !cycle.some((cell) => touched.has(cell)))
  }

  forgetCycles(): void {
    this.cycles = []
  }

  private calculate(): void {
    try {
      this.calculateQueue()
    } finally {
      this.host.meter.disarm()
    }
  }

  private calculateQueue(): void {
    const stack = this.stack
    const queue = this.queue
    let next = 0
    while (true) {
      let cell: FormulaCell
      let fromStack: boolean
      if (stack.length > 0) {
        cell = stack[stack.length - 1]
        fromStack = true
      } else {
        if (next >= queue.length) break
        cell = queue[next++]
        fromStack = false
      }
      if (cell.state === CellState.Clean) {
        if (fromStack) stack.pop()
        continue
      }
      const needed = this.evaluate(cell)
      if (needed === null) {
        if (fromStack) stack.pop()
        continue
      }
      if (!fromStack) stack.push(cell)
      cell.state = CellState.Waiting
      let cyclic: FormulaCell | undefined
      for (const other of needed) {
        if (other.state === CellState.Waiting || other.state === CellState.Evaluating) {
          cyclic = other
          break
        }
      }
      if (cyclic !== undefined) {
        this.resolveCycle(cyclic, cell)
        continue
      }
      for (let i = needed.length - 1; i >= 0; i--) if (needed[i].state === CellState.Dirty) stack.push(needed[i])
    }
  }

  /** Calculates one cell; returns the cells it needs first, or null when it is done. */
  private evaluate(cell: FormulaCell): FormulaCell[] | null {
    if (cell.compiled.external === true && this.keepsSavedValue(cell)) return null
    cell.state = CellState.Evaluating
    const ctx = this.ctx
    ctx.at(cell.sheet, cell.row, cell.col)
    let result: Scalar | ArrayValue
    // Disarmed once the calculation ends (see calculate): nothing between two formulas builds arrays.
    this.host.meter.arm()
    this.startReading(cell)
    try {
      result = finalize(cell.compiled.evaluate(ctx))
    } catch (error) {
      if (error === NEED) {
        this.current = null
        const cells = NEED.cells
        NEED.cells = []
        return cells
      }
      result = failure(error)
    }
    this.finishReading(cell)
    // Clean before storing: a spill that moves may dirty this very cell again through its readers.
    cell.state = CellState.Clean
    cell.column.pendingFormulas--
    this.store(cell, result)
    if (this.logging) this.report(cell)
    return null
  }

  /**
   * A formula calling a function that reaches outside the workbook (STOCKHISTORY, WEBSERVICE, a cube)
   * keeps, while a workbook loads, the value its file was saved with: calculating it here could only
   * fail. An edit that reaches it later calculates it.
   */
  private keepsSavedValue(cell: FormulaCell): boolean {
    if (this.logging || cell.column.values[cell.row] === undefined) {
      this.savedValues.delete(cell)
      this.savedArrays.delete(cell)
      return false
    }
    cell.state = CellState.Clean
    cell.column.pendingFormulas--
    const array = this.savedArrays.get(cell)
    if (array !== undefined) this.store(cell, array)
    this.savedValues.add(cell)
    return true
  }

  /** Records the cell's change, if its value differs from the one it had before this round. */
  private report(cell: FormulaCell): void {
    if (cell.loggedEpoch !== this.run) return
    if (cell.reportedEpoch === this.run) {
      this.recalculatedTwice = true
      return
    }
    cell.reportedEpoch = this.run
    const value = cell.column.values[cell.row]
    const previous = cell.previous
    if (value === previous || sameScalar(previous, value)) return
    this.reported.push({
      sheet: cell.sheet.name,
      address: (cell.addressText ??= formatAddress(cell.row, cell.col)),
      row: cell.row,
      col: cell.col,
      value: value === undefined ? null : value,
    })
  }

  /** Writes a result, spilling arrays into the cells below and to the right when they are free. */
  private store(cell: FormulaCell, value: Scalar | ArrayValue): void {
    const sheet = cell.sheet
    const result = cell.arrayHeight > 0 ? this.fitted(cell, value) : value
    if (!(result instanceof ArrayValue)) {
      if (cell.spillHeight > 1 || cell.spillWidth > 1 || cell.blockedHeight > 0) this.clearSpill(cell)
      const column = cell.column
      column.values[cell.row] = result
      column.version++
      if (column.prefixes !== null) column.invalidateFrom(cell.row)
      return
    }
    const height = result.height
    const width = result.width
    const spillLimit = this.host.meter.limits.maxSpillCells
    if (height * width > spillLimit) {
      if (cell.spills || cell.blockedHeight > 0) this.clearSpill(cell)
      sheet.writeValue(cell.row, cell.col, new BudgetError('#SPILL!', spillTooLargeMessage(height * width, spillLimit)))
      return
    }
    this.host.graph.version++ // spill areas decide what edits reach
    let blocked = cell.row + height - 1 > MAX_ROW || cell.col + width - 1 > MAX_COL
    for (let c = 0; c < width && !blocked; c++) {
      const column = sheet.columns[cell.col + c]
      if (column === undefined) continue
      for (let r = c === 0 ? 1 : 0; r < height; r++) {
        const row = cell.row + r
        const ownSpill = column.spilledFrom !== null && column.spilledFrom.get(row) === cell
        if ((column.values[row] !== undefined && !ownSpill) || column.formulas?.[row] !== undefined) {
          blocked = true
          break
        }
      }
    }
    if (blocked) {
      if (cell.spills) this.clearSpill(cell)
      sheet.spillOwners.add(cell)
      cell.blockedHeight = height
      cell.blockedWidth = width
      sheet.writeValue(cell.row, cell.col, new CellError('#SPILL!', 'The array cannot spill: cells in its way are not empty'))
      return
    }
    if (this.spillsIntoOwnReferences(cell, height, width)) {
      if (cell.spills) this.clearSpill(cell)
      sheet.writeValue(cell.row, cell.col, new CellError('#CIRC!', 'The array would spill into cells the formula reads'))
      return
    }
    // Cells newly covered or uncovered have readers that did not wait for this formula: they recalculate.
    // Cells that stay covered need nothing, their readers waited for this formula already.
    const changed: { sheet: Sheet; row: number; col: number }[] = []
    const previousHeight = cell.spillHeight
    const previousWidth = cell.spillWidth
    for (let c = 0; c < previousWidth; c++) {
      const column = sheet.columns[cell.col + c]
      if (column === undefined || column.spilledFrom === null) continue
      for (let r = 0; r < previousHeight; r++) {
        if (r < height && c < width) continue
        const row = cell.row + r
        if (column.spilledFrom.get(row) !== cell) continue
        column.spilledFrom.delete(row)
        this.logSpill(sheet, row, cell.col + c)
        sheet.writeValue(row, cell.col + c, undefined)
        changed.push({ sheet, row, col: cell.col + c })
      }
      if (column.spilledFrom.size === 0) column.spilledFrom = null
    }
    sheet.spillOwners.add(cell)
    cell.blockedHeight = 0
    cell.blockedWidth = 0
    cell.spillHeight = height
    cell.spillWidth = width
    for (let c = 0; c < width; c++) {
      const column = sheet.column(cell.col + c)
      for (let r = 0; r < height; r++) {
        const item = result.data[r * width + c]
        const value = item === null ? 0 : item
        if (r === 0 && c === 0) {
          sheet.writeValue(cell.row, cell.col, value)
          continue
        }
        const row = cell.row + r
        const spilledFrom = (column.spilledFrom ??= new Map())
        const covered = spilledFrom.get(row) === cell
        // Recalculating an array rewrites only the cells whose value changed: an edit feeding one
        // element of a 100,000-row spill changes one cell.
        if (covered && Object.is(column.values[row], value)) continue
        this.logSpill(sheet, row, cell.col + c)
        sheet.writeValue(row, cell.col + c, value)
        if (!covered) {
          spilledFrom.set(row, cell)
          changed.push({ sheet, row, col: cell.col + c })
        }
      }
    }
    if (changed.length > 0) this.redirty(changed)
  }

  /** The result of a legacy array formula over its fixed area, unless that area is larger than any array may be. */
  private fitted(cell: FormulaCell, value: Scalar | ArrayValue): Scalar | ArrayValue {
    const cells = cell.arrayHeight * cell.arrayWidth
    const { maxArrayCells, maxFormulaCells } = this.host.meter.limits
    const limit = Math.min(maxArrayCells, maxFormulaCells)
    if (cells > limit) return new BudgetError('#NUM!', arrayTooLargeMessage(cells, limit))
    // The fitted array is built under this engine's limits, whatever the last formula left of its own.
    this.host.meter.arm()
    return fitToArea(value, cell.arrayHeight, cell.arrayWidth)
  }

  /** Whether an array of this size spilled from the cell would cover a cell or range its formula names. */
  private spillsIntoOwnReferences(cell: FormulaCell, height: number, width: number): boolean {
    const top = cell.row
    const left = cell.col
    const bottom = top + height - 1
    const right = left + width - 1
    const covers = (r1: number, c1: number, r2: number, c2: number): boolean => {
      if (r2 < top || r1 > bottom || c2 < left || c1 > right) return false
      // The formula's own cell is not part of what it spills into.
      return !(r1 === top && r2 === top && c1 === left && c2 === left)
    }
    for (const dep of cell.compiled.cells) {
      if ((dep.sheet ?? cell.sheet) !== cell.sheet) continue
      const row = cornerRow(dep.ref, cell.row)
      const col = cornerCol(dep.ref, cell.col)
      if (covers(row, col, row, col)) return true
    }
    for (const dep of cell.compiled.ranges) {
      if ((dep.sheet ?? cell.sheet) !== cell.sheet) continue
      const bounds = rangeBounds(dep, cell.row, cell.col)
      if (bounds !== undefined && covers(bounds.top, bounds.left, bounds.bottom, bounds.right)) return true
    }
    return false
  }

  private logSpill(sheet: Sheet, row: number, col: number): void {
    if (!this.logging) return
    // A number rather than a text key: a spill logs every cell it covers. Rows need 20 bits, columns 14.
    const key = (sheet.id * 1_048_576 + row) * 16_384 + col
    if (!this.spillLog.has(key)) this.spillLog.set(key, { sheet, row, col, old: sheet.columns[col]?.values[row] })
  }

  /** Empties the cells an array spilled into (those still spilled from it) and re-dirties their readers. */
  clearSpill(cell: FormulaCell): void {
    const sheet = cell.sheet
    this.host.graph.version++
    const cleared: { sheet: Sheet; row: number; col: number }[] = []
    for (let c = 0; c < cell.spillWidth; c++) {
      const column = sheet.columns[cell.col + c]
      if (column === undefined || column.spilledFrom === null) continue
      for (let r = 0; r < cell.spillHeight; r++) {
        if (r === 0 && c === 0) continue
        const row = cell.row + r
        if (column.spilledFrom.get(row) !== cell) continue
        column.spilledFrom.delete(row)
        this.logSpill(sheet, row, cell.col + c)
        sheet.writeValue(row, cell.col + c, undefined)
        cleared.push({ sheet, row, col: cell.col + c })
      }
      if (column.spilledFrom.size === 0) column.spilledFrom = null
    }
    cell.spillHeight = 1
    cell.spillWidth = 1
    cell.blockedHeight = 0
    cell.blockedWidth = 0
    sheet.spillOwners.delete(cell)
    if (cleared.length > 0) this.redirty(cleared)
  }

  // ---------------------------------------------------------------------------------------------------
  // Cycles
  // ---------------------------------------------------------------------------------------------------

  private resolveCycle(seed: FormulaCell, current: FormulaCell): void {
    const component = this.stronglyConnected(seed)
    if (!component.includes(current)) component.push(current)
    if (!this.host.iteration.enabled) {
      // Excel cannot calculate a circular reference without iteration: it warns, and each cell of the
      // cycle keeps the value it last calculated (the value a file was saved with), or 0 when it has none.
      for (const cell of component) {
        const kept = cell.column.values[cell.row]
        this.store(cell, kept === undefined || kept === null ? 0 : kept)
        cell.state = CellState.Clean
        cell.column.pendingFormulas--
        if (this.logging) this.report(cell)
      }
      this.cycles.push(this.sorted(component))
      return
    }
    // Everything the cycle reads from outside must be calculated before iterating.
    const members = new Set(component)
    const outside: FormulaCell[] = []
    for (const cell of component) {
      this.forEachPrecedent(cell, (precedent) => {
        if (!members.has(precedent) && precedent.state === CellState.Dirty) outside.push(precedent)
      })
    }
    if (outside.length > 0) {
      for (const cell of outside) this.stack.push(cell)
      return
    }
    this.iterate(this.sorted(component))
  }

  private sorted(cells: FormulaCell[]): FormulaCell[] {
    return cells.sort(
      (a, b) => this.host.sheetIndex(a.sheet) - this.host.sheetIndex(b.sheet) || a.row - b.row || a.col - b.col,
    )
  }

  /**
   * Excel's iterative calculation: passes over the cycle's cells in sheet, row and column order, each
   * reading the latest values, until a pass moves no value by maxChange or more, or maxIterations
   * passes ran.
   *
   * A load of saved values keeps them when they are settled (the first pass moves no value by
   * maxChange or more): Excel shows a file's values as saved until something recalculates them, and a
   * file saved after Excel's own iteration is settled by this rule. Passing over them anyway would
   * move each value by up to maxChange.
   */
  private iterate(cells: FormulaCell[]): void {
    const { maxIterations, maxChange } = this.host.iteration
    for (const cell of cells) cell.state = CellState.Iterating
    const ctx = this.ctx
    // During a load a cell of the cycle has not been calculated yet: a value it holds is its saved one.
    const saved = this.keepSettled && cells.every((cell) => cell.column.values[cell.row] !== undefined)
      ? cells.map((cell) => cell.column.values[cell.row] as Scalar)
      : undefined
    for (let iteration = 0; iteration < maxIterations; iteration++) {
      let largestChange = 0
      for (const cell of cells) {
        const before = cell.sheet.columns[cell.col]?.values[cell.row]
        ctx.at(cell.sheet, cell.row, cell.col)
        let result: Scalar | ArrayValue
        this.host.meter.arm()
        this.startReading(cell)
        try {
          result = finalize(cell.compiled.evaluate(ctx))
          this.finishReading(cell)
        } catch (error) {
          this.current = null
          if (error === NEED) {
            // A dynamic reference reached an uncalculated cell: calculate it, then iterate again.
            const needed = NEED.cells
            NEED.cells = []
            for (const member of cells) member.state = CellState.Waiting
            for (const other of needed) if (other.state === CellState.Dirty) this.stack.push(other)
            return
          }
          result = failure(error)
        }
        this.store(cell, result)
        const after = cell.sheet.columns[cell.col]?.values[cell.row]
        const change =
          typeof before === 'number' && typeof after === 'number'
            ? Math.abs(after - before)
            : typeof after === 'number' && (before === undefined || before === null)
              ? Math.abs(after)
              : sameScalar(before, after)
                ? 0
                : Infinity
        if (change > largestChange) largestChange = change
      }
      if (largestChange < maxChange) {
        if (iteration === 0 && saved !== undefined) cells.forEach((cell, index) => this.store(cell, saved[index]))
        break
      }
    }
    for (const cell of cells) {
      cell.state = CellState.Clean
      cell.column.pendingFormulas--
      if (this.logging) this.report(cell)
    }
  }

  /** Tarjan's algorithm, iteratively, over uncalculated formulas: the component that contains `seed`. */
  private stronglyConnected(seed: FormulaCell): FormulaCell[] {
    const index = new Map<FormulaCell, number>()
    const low = new Map<FormulaCell, number>()
    const onStack = new Set<FormulaCell>()
    const stack: FormulaCell[] = []
    let counter = 0
    const work: { cell: FormulaCell; precedents: FormulaCell[]; next: number }[] = []
    const open = (cell: FormulaCell) => {
      index.set(cell, counter)
      low.set(cell, counter)
      counter++
      stack.push(cell)
      onStack.add(cell)
      const precedents: FormulaCell[] = []
      this.forEachPrecedent(cell, (precedent) => {
        if (precedent.state !== CellState.Clean) precedents.push(precedent)
      })
      work.push({ cell, precedents, next: 0 })
    }
    open(seed)
    let result: FormulaCell[] = [seed]
    while (work.length > 0) {
      const frame = work[work.length - 1]
      if (frame.next < frame.precedents.length) {
        const precedent = frame.precedents[frame.next++]
        if (!index.has(precedent)) open(precedent)
        else if (onStack.has(precedent)) {
          low.set(frame.cell, Math.min(low.get(frame.cell) as number, index.get(precedent) as number))
        }
        continue
      }
      work.pop()
      if (work.length > 0) {
        const parent = work[work.length - 1].cell
        low.set(parent, Math.min(low.get(parent) as number, low.get(frame.cell) as number))
      }
      if (low.get(frame.cell) === index.get(frame.cell)) {
        const component: FormulaCell[] = []
        let member: FormulaCell
        do {
          member = stack.pop() as FormulaCell
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.cell)
        if (component.includes(seed)) result = component
      }
    }
    return result
  }

  /** The formula cells a formula reads by its static references (and names and spill references). */
  private forEachPrecedent(cell: FormulaCell, visit: (precedent: FormulaCell) => void): void {
    const compiled = cell.compiled
    this.visitReferences(cell, compiled.cells, compiled.ranges, visit)
    for (const node of this.host.graph.dynamicRanges.get(cell) ?? []) this.visitBlock(node.sheet, node, visit)
    for (const spill of compiled.spills) this.visitCell(spill, cell, visit)
    for (const name of compiled.names) {
      const definition = this.host.nameDependencies(name, cell.sheet)
      if (definition) this.visitReferences(cell, definition.cells, definition.ranges, visit)
    }
  }

  private visitCell(dep: StaticCellDependency, cell: FormulaCell, visit: (precedent: FormulaCell) => void): void {
    const sheet = dep.sheet ?? cell.sheet
    const row = cornerRow(dep.ref, cell.row)
    const col = cornerCol(dep.ref, cell.col)
    if (row < 0 || col < 0 || row > MAX_ROW || col > MAX_COL) return
    const column = sheet.columns[col]
    if (column === undefined) return
    const formula = column.formulas?.[row]
    if (formula !== undefined) visit(formula)
    const owner = column.spilledFrom?.get(row)
    if (owner !== undefined) visit(owner)
  }

  private visitReferences(
    cell: FormulaCell,
    cells: readonly StaticCellDependency[],
    ranges: readonly StaticRangeDependency[],
    visit: (precedent: FormulaCell) => void,
  ): void {
    for (const dep of cells) this.visitCell(dep, cell, visit)
    for (const dep of ranges) {
      const bounds = rangeBounds(dep, cell.row, cell.col)
      if (bounds !== undefined) this.visitBlock(dep.sheet ?? cell.sheet, bounds, visit)
    }
  }

  /** The formulas in a block of cells, and the owners of the values spilled into it. */
  private visitBlock(sheet: Sheet, bounds: { top: number; left: number; bottom: number; right: number }, visit: (precedent: FormulaCell) => void): void {
    const lastCol = Math.min(bounds.right, sheet.columns.length - 1)
    for (let col = bounds.left; col <= lastCol; col++) {
      const column = sheet.columns[col]
      if (column === undefined) continue
      const formulas = column.formulas
      if (formulas !== null) {
        const end = Math.min(bounds.bottom, formulas.length - 1)
        for (let row = bounds.top; row <= end; row++) {
          const formula = formulas[row]
          if (formula !== undefined) visit(formula)
        }
      }
      if (column.spilledFrom !== null) {
        for (const [row, owner] of column.spilledFrom) if (row >= bounds.top && row <= bounds.bottom) visit(owner)
      }
    }
  }
}

/** What a formula that threw shows: its budget's error, or the failure of a function, as a value. */
function failure(error: unknown): CellError {
  if (error instanceof OverBudget) return new BudgetError(error.code, error.message)
  // The call stack or the memory of the JavaScript engine ran out (a LAMBDA calling itself without end).
  if (error instanceof RangeError) return new BudgetError('#NUM!', resourceMessage(error))
  // A bug in a function must not stop the workbook: the cell shows the failure.
  return new CellError('#ERROR!', error instanceof Error ? error.message : String(error))
}

/**
 * The result of a legacy array formula fitted to its fixed area: a single value fills it, a row or
 * column repeats, and positions beyond a smaller array show #N/A.
 */
function fitToArea(value: Scalar | ArrayValue, height: number, width: number): Scalar | ArrayValue {
  if (height === 1 && width === 1) return value instanceof ArrayValue ? finalize(value.data[0]) : value
  const data: Scalar[] = new Array(height * width)
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      if (!(value instanceof ArrayValue)) {
        data[r * width + c] = value
        continue
      }
      const rr = value.height === 1 ? 0 : r
      const cc = value.width === 1 ? 0 : c
      data[r * width + c] = rr < value.height && cc < value.width ? value.get(rr, cc) : CellError.NA
    }
  }
  return new ArrayValue(height, width, data)
}

/** A formula result as a cell holds it: references are read, an empty result shows 0. */
export function finalize(value: Value): Scalar | ArrayValue {
  if (typeof value !== 'object') return value
  if (value === null) return 0
  if (value instanceof CellError) return value
  if (value instanceof RangeRef) {
    if (value.isSingleCell) {
      const single = value.get(0, 0)
      return single === null ? 0 : single
    }
    return value.toArray()
  }
  if (value instanceof ReferenceList) {
    return value.areas.length === 1 ? finalize(value.areas[0]) : CellError.VALUE
  }
  if (value.height === 0 || value.width === 0) return CellError.CALC
  if (value.height === 1 && value.width === 1) {
    const single = value.data[0]
    return single === null ? 0 : single
  }
  return value
}
