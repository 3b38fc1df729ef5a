/**
 * What-if data tables, Excel's {=TABLE(row_input, column_input)}: the sensitivity tables of DCF and
 * LBO models. A table is a Ctrl+Shift+Enter array formula `=TABLE(r, c)` over its result area:
 *
 * - with a row input only, the values to try are in the row above the area and the formulas in the
 *   column to its left: each result is the formula of its row with the value of its column put in;
 * - with a column input only, the values are in the column to the left and the formulas in the row
 *   above: each result is the formula of its column with the value of its row put in;
 * - with both, the formula is the cell above and to the left of the area, the row input's values run
 *   along the row above and the column input's down the column to the left.
 *
 * Results are found as Excel finds them: each value is put into the input cell, the model recalculates
 * what depends on it, the formula's value is read, and the input cell gets back what it held. This runs
 * between calculations, never inside one, so the formulas of the table read cached results.
 */
import { cornerCol, cornerRow } from '../parser/printer.js'
import type { Node } from '../parser/ast.js'
import { ArrayValue, CellError } from '../values.js'
import type { Scalar } from '../values.js'
import type { FormulaCell } from './formula-cell.js'
import type { Sheet } from './sheet.js'

/** A cell to put a value into, and the value. */
export interface TableInput {
  sheet: Sheet
  row: number
  col: number
  input: string | number | boolean | null
  /** For a formula put back: it was saved without dynamic arrays. */
  legacy?: boolean
}

/** What a data table needs from the engine. */
export interface DataTableHost {
  /** The value a cell shows. */
  valueAt(sheet: Sheet, row: number, col: number): Scalar
  /** Whether the formula is still in its cell of a sheet of the workbook. */
  isLive(cell: FormulaCell): boolean
  /** What the cell holds, so that it can be put back exactly (an input, a formula with its kind). */
  save(sheet: Sheet, row: number, col: number): () => TableInput[]
  /** Writes the inputs and recalculates what depends on them, without a change list. */
  write(inputs: readonly TableInput[]): void
}

/** Whether a formula tree is a data table's TABLE(row_input, column_input). */
export function isTableFormula(ast: Node): boolean {
  return ast.type === 'call' && ast.name.toUpperCase() === 'TABLE' && ast.args.length === 2
}

/** The cell an argument of TABLE names, from the table's anchor; undefined when it is left empty. */
function inputCell(arg: Node | undefined, anchor: FormulaCell): { row: number; col: number } | undefined | null {
  if (arg === undefined || arg.type === 'missing') return undefined
  if (arg.type !== 'cell' || arg.sheet !== undefined) return null
  return { row: cornerRow(arg.ref, anchor.row), col: cornerCol(arg.ref, anchor.col) }
}

/** A header value as what a user would type to get it back (text kept as text). */
function asInput(value: Scalar): string | number | boolean | null {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value
  if (typeof value === 'string') return value === '' ? null : "'" + value
  return value.code
}

export class DataTables {
  private readonly anchors = new Set<FormulaCell>()
  private readonly results = new Map<FormulaCell, ArrayValue>()
  /** Set while tables are calculated: the calculations they cause do not calculate tables again. */
  refreshing = false

  get size(): number {
    return this.anchors.size
  }

  add(cell: FormulaCell): void {
    this.anchors.add(cell)
  }

  delete(cell: FormulaCell): void {
    this.anchors.delete(cell)
    this.results.delete(cell)
  }

  /** The results of the table anchored at the formula, as last calculated (#N/A before the first time). */
  resultsOf(cell: FormulaCell | undefined): ArrayValue | CellError {
    if (cell === undefined || !this.anchors.has(cell)) return CellError.REF
    return this.results.get(cell) ?? CellError.NA
  }

  /** Calculates every table again; answers the anchors whose results changed. */
  refresh(host: DataTableHost): FormulaCell[] {
    const changed: FormulaCell[] = []
    this.refreshing = true
    try {
      for (const anchor of [...this.anchors]) {
        if (!host.isLive(anchor)) {
          this.delete(anchor)
          continue
        }
        const results = this.calculate(anchor, host)
        const previous = this.results.get(anchor)
        if (previous === undefined || !sameResults(previous, results)) {
          this.results.set(anchor, results)
          changed.push(anchor)
        }
      }
    } finally {
      this.refreshing = false
    }
    return changed
  }

  private calculate(anchor: FormulaCell, host: DataTableHost): ArrayValue {
    const sheet = anchor.sheet
    const height = anchor.arrayHeight
    const width = anchor.arrayWidth
    const ast = anchor.compiled.ast
    const rowInput = ast.type === 'call' ? inputCell(ast.args[0], anchor) : null
    const columnInput = ast.type === 'call' ? inputCell(ast.args[1], anchor) : null
    const top = anchor.row
    const left = anchor.col
    if (rowInput === null || columnInput === null || (rowInput === undefined && columnInput === undefined) || top === 0 || left === 0) {
      return ArrayValue.filled(height, width, CellError.REF)
    }
    const data: Scalar[] = new Array(height * width)
    const inputs = [rowInput, columnInput].filter((cell) => cell !== undefined)
    const restores = inputs.map((cell) => host.save(sheet, cell.row, cell.col))
    const put = (row: Scalar | undefined, column: Scalar | undefined) => {
      const writes: TableInput[] = []
      if (rowInput !== undefined && row !== undefined) writes.push({ sheet, ...rowInput, input: asInput(row) })
      if (columnInput !== undefined && column !== undefined) writes.push({ sheet, ...columnInput, input: asInput(column) })
      host.write(writes)
    }
    try {
      if (rowInput !== undefined && columnInput !== undefined) {
        for (let r = 0; r < height; r++) {
          for (let c = 0; c < width; c++) {
            put(host.valueAt(sheet, top - 1, left + c), host.valueAt(sheet, top + r, left - 1))
            data[r * width + c] = host.valueAt(sheet, top - 1, left - 1)
          }
        }
      } else if (rowInput !== undefined) {
        for (let c = 0; c < width; c++) {
          put(host.valueAt(sheet, top - 1, left + c), undefined)
          for (let r = 0; r < height; r++) data[r * width + c] = host.valueAt(sheet, top + r, left - 1)
        }
      } else {
        for (let r = 0; r < height; r++) {
          put(undefined, host.valueAt(sheet, top + r, left - 1))
          for (let c = 0; c < width; c++) data[r * width + c] = host.valueAt(sheet, top - 1, left + c)
        }
      }
    } finally {
      host.write(restores.flatMap((restore) => restore()))
    }
    return new ArrayValue(height, width, data.map((value) => (value === null ? 0 : value)))
  }
}

function sameResults(a: ArrayValue, b: ArrayValue): boolean {
  if (a.height !== b.height || a.width !== b.width) return false
  for (let i = 0; i < a.data.length; i++) {
    const x = a.data[i]
    const y = b.data[i]
    if (x === y) continue
    if (x instanceof CellError && y instanceof CellError && x.code === y.code) continue
    return false
  }
  return true
}
