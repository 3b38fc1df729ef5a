import type { Sheet } from '../engine/sheet.js'
import type { FunctionContext } from '../functions/types.js'
import { CellError, MAX_COL, MAX_ROW, RangeRef } from '../values.js'
import type { SheetView, Value } from '../values.js'

/** What evaluation needs from the engine beyond the cells themselves. */
export interface EvaluationHost {
  now(): number
  sheetByName(name: string): Sheet | undefined
  /** The sheets in tab order. */
  sheets(): readonly Sheet[]
  /** The value of a defined name for a formula on `ctx.sheet`, or #NAME? when undefined. */
  evaluateName(name: string, qualifier: Sheet | undefined, ctx: EvalContext): Value
  parseReference(text: string, a1Style: boolean, ctx: EvalContext): RangeRef | CellError
  /** The range an array formula at (row, col) spills into (its own cell when it does not spill), or #REF!. */
  spillRange(sheet: Sheet, row: number, col: number): RangeRef | CellError
  /**
   * Tells the formula being calculated read `range`, which no reference of its text names whole (the
   * range operator between spill references or functions): it recalculates when a cell of it changes.
   */
  readsRange(range: RangeRef): void
  /** The results of the data table whose TABLE formula is anchored at (row, col), as last calculated. */
  dataTable(sheet: Sheet, row: number, col: number): Value
}

/**
 * The context of one formula evaluation. One instance is reused for every cell: the scheduler sets
 * the position before each evaluation.
 */
export class EvalContext implements FunctionContext {
  sheet!: Sheet
  row = 0
  col = 0
  private readonly bindings: Map<string, Value>[] = []

  constructor(readonly host: EvaluationHost) {}

  /** Points the context at a cell and forgets LET bindings a failed evaluation may have left. */
  at(sheet: Sheet, row: number, col: number): void {
    this.sheet = sheet
    this.row = row
    this.col = col
    if (this.bindings.length !== 0) this.bindings.length = 0
  }

  now(): number {
    return this.host.now()
  }

  reference(sheet: SheetView, top: number, left: number, bottom: number, right: number): RangeRef | CellError {
    if (top < 0 || left < 0 || bottom > MAX_ROW || right > MAX_COL || top > bottom || left > right) {
      return CellError.REF
    }
    return new RangeRef(sheet, top, left, bottom, right)
  }

  parseReference(text: string, a1Style: boolean): RangeRef | CellError {
    return this.host.parseReference(text, a1Style, this)
  }

  sheetByName(name: string): SheetView | undefined {
    return this.host.sheetByName(name)
  }

  sheets(): readonly SheetView[] {
    return this.host.sheets()
  }

  pushBindings(bindings: Map<string, Value>): void {
    this.bindings.push(bindings)
  }

  popBindings(): void {
    this.bindings.pop()
  }

  /** A LET variable in scope, innermost first. */
  binding(name: string): Value | undefined {
    for (let i = this.bindings.length - 1; i >= 0; i--) {
      const value = this.bindings[i].get(name)
      if (value !== undefined) return value
    }
    return undefined
  }

  get hasBindings(): boolean {
    return this.bindings.length > 0
  }
}
