/**
 * Compiles a syntax tree into a tree of closures: evaluation is a few direct calls per node, with fast
 * paths for numbers, instead of a walk that switches on node types at every step. The compiled
 * formula is position-independent (relative references read `ctx.row + offset`), so every cell with the
 * same formula shape shares it.
 */
import { toBoolean, toNumber, toText } from '../coerce.js'
import type {
  CompiledFormula,
  Evaluator,
  StaticCellDependency,
  StaticRangeDependency,
} from '../engine/formula-cell.js'
import type { Sheet } from '../engine/sheet.js'
import { broadcast, isMatrix, toScalar } from '../functions/helpers.js'
import type { FunctionRegistry } from '../functions/registry.js'
import { MISSING } from '../functions/types.js'
import type { Arg, ArgKind, EagerFunctionDefinition, FunctionDefinition, LazyArg } from '../functions/types.js'
import type { Node, NodeOf, RefCorner } from '../parser/ast.js'
import { ArrayValue, CellError, MAX_COL, MAX_ROW, RangeRef, ReferenceList, isCallable } from '../values.js'
import type { Matrix, Scalar, SheetView, Value } from '../values.js'
import { collectSheetNames } from '../engine/structure.js'
import { resolveStructured, tableUseKey } from '../engine/tables.js'
import type { Table } from '../engine/tables.js'
import { ExternalSheet } from '../engine/external-links.js'
import { isExternalSheetName } from '../address/external.js'
import type { EvalContext } from './context.js'
import {
  binary,
  intersect,
  negate,
  operand,
  percent,
  power,
  rangeBetween,
  scalarBinary,
  union,
} from './operators.js'

export interface CompileHost {
  readonly functions: FunctionRegistry
  sheetByName(name: string): Sheet | undefined
  /** The table of this name (case-insensitive), for structured references. */
  table(name: string): Table | undefined
  /** Another workbook's sheet as the engine keeps its cached values (`[1]Sheet1`, see address/external.ts). */
  externalSheet(name: string): ExternalSheet
}

/** What an external reference gives when the file holds no value for it (see engine/external-links.ts). */
const UNCACHED_EXTERNAL = new CellError('#REF!', 'This file holds no value of the linked workbook for this reference')

type Mode = 'value' | 'reference'
type ArgEvaluator = (ctx: EvalContext) => Arg

/**
 * Functions whose arguments pre-dynamic-array Excel evaluated as arrays: inside them, legacy formulas
 * keep ranges whole instead of intersecting them.
 */
const ARRAY_CONTEXT_FUNCTIONS = new Set([
  'SUMPRODUCT', 'MMULT', 'MDETERM', 'MINVERSE', 'TRANSPOSE', 'FREQUENCY', 'LINEST', 'LOGEST', 'TREND', 'GROWTH',
  'SUMX2MY2', 'SUMX2PY2', 'SUMXMY2', 'CORREL', 'COVAR', 'COVARIANCE.P', 'COVARIANCE.S', 'PEARSON', 'RSQ',
  'SLOPE', 'INTERCEPT', 'FORECAST', 'FORECAST.LINEAR', 'STEYX', 'TTEST', 'T.TEST', 'CHITEST', 'CHISQ.TEST',
  'FTEST', 'F.TEST', 'PROB', 'LOOKUP', 'MATCH', 'INDEX', 'VLOOKUP', 'HLOOKUP', 'XLOOKUP', 'XMATCH', 'AGGREGATE',
  'NPV', 'IRR', 'MIRR', 'XNPV', 'XIRR', 'FVSCHEDULE', 'MODE.MULT', 'PERCENTRANK', 'QUARTILE', 'PERCENTILE',
  'FILTER', 'SORT', 'SORTBY', 'UNIQUE', 'SEQUENCE', 'TEXTJOIN', 'CONCAT', 'COUNTIF', 'COUNTIFS', 'SUMIF',
  'SUMIFS', 'AVERAGEIF', 'AVERAGEIFS', 'MAXIFS', 'MINIFS',
])

class Compilation {
  readonly cells: StaticCellDependency[] = []
  readonly ranges: StaticRangeDependency[] = []
  readonly names = new Set<string>()
  readonly spills: StaticCellDependency[] = []
  readonly missingSheets = new Set<string>()
  volatile = false
  /** A function whose value comes from outside the workbook is called. */
  external = false
  /** A reference names another workbook's sheet. */
  linksWorkbooks = false
  /** A function that skips hidden rows (SUBTOTAL, AGGREGATE) is called. */
  readsHiddenRows = false
  /** Depth of array-evaluated function arguments around the node being compiled (legacy formulas). */
  private arrayContext = 0

  constructor(
    private readonly host: CompileHost,
    /**
     * A formula saved without dynamic-array semantics (a plain formula in an xlsx file): where a single
     * value is expected, ranges are implicitly intersected with the formula's row or column, as
     * Excel 365 shows with '@'.
     */
    private readonly legacy = false,
  ) {}

  /** Whether ranges in value positions are intersected here. */
  private get intersecting(): boolean {
    return this.legacy && this.arrayContext === 0
  }

  /** Wraps an operand so that a range in it is reduced to one cell (legacy formulas only). */
  private scalarOperand(evaluator: Evaluator): Evaluator {
    if (!this.intersecting) return evaluator
    return (ctx) => {
      const value = evaluator(ctx)
      return value instanceof RangeRef || value instanceof ReferenceList ? toScalar(value, ctx) : value
    }
  }

  /** The other workbook's sheet a reference names, or undefined for a sheet of this workbook. */
  private externalSheetOf(name: string | undefined): ExternalSheet | undefined {
    if (name === undefined || !isExternalSheetName(name)) return undefined
    this.linksWorkbooks = true
    return this.host.externalSheet(name)
  }

  /** The sheet a reference names; undefined for the formula's own sheet; null when it does not exist. */
  private sheetOf(name: string | undefined): Sheet | undefined | null {
    if (name === undefined) return undefined
    const sheet = this.host.sheetByName(name)
    if (sheet === undefined) {
      this.missingSheets.add(name.toUpperCase())
      return null
    }
    return sheet
  }

  compile(node: Node, mode: Mode): Evaluator {
    switch (node.type) {
      case 'number':
      case 'string':
      case 'boolean': {
        const value = node.value
        return () => value
      }
      case 'error': {
        const error = CellError.of(node.code)
        return () => error
      }
      case 'missing':
        // Only reachable outside function arguments, where an empty operand reads as empty.
        return () => null
      case 'cell':
        return this.compileCell(node, mode)
      case 'range':
        return this.compileRange(node)
      case 'name':
        return this.compileName(node, mode)
      case 'structured':
        return this.compileStructured(node, mode)
      case 'call':
        return this.compileCall(node)
      case 'unary':
        return this.compileUnary(node)
      case 'percent': {
        const inner = this.scalarOperand(this.compile(node.operand, 'value'))
        return (ctx) => {
          const value = inner(ctx)
          return typeof value === 'number' ? value / 100 : percent(value)
        }
      }
      case 'binary':
        return this.compileBinary(node)
      case 'rangeOp': {
        const left = this.compile(node.left, 'reference')
        const right = this.compile(node.right, 'reference')
        // The range between two references known only when calculating (spill ranges, INDEX): the
        // formula depends on every cell of it, not only on what its text names.
        return (ctx) => {
          const range = rangeBetween(left(ctx), right(ctx))
          if (range instanceof RangeRef && !(range.sheet instanceof ExternalSheet)) ctx.host.readsRange(range)
          return range
        }
      }
      case 'union': {
        const items = node.items.map((item) => this.compile(item, 'reference'))
        return (ctx) => union(items.map((item) => item(ctx)))
      }
      case 'intersection': {
        const left = this.compile(node.left, 'reference')
        const right = this.compile(node.right, 'reference')
        return (ctx) => intersect(left(ctx), right(ctx))
      }
      case 'spill':
        return this.compileSpill(node)
      case 'array': {
        const rows = node.rows.map((items) =>
          items.map((item): Scalar => {
            switch (item.type) {
              case 'number':
              case 'string':
              case 'boolean':
                return item.value
              case 'error':
                return CellError.of(item.code)
              default:
                return CellError.VALUE
            }
          }),
        )
        const array = ArrayValue.fromRows(rows)
        return () => array
      }
      case 'group':
        return this.compile(node.expression, mode)
      case 'invoke': {
        const callee = this.compile(node.callee, 'reference')
        const args = this.compileCallArguments(node.args)
        return (ctx) => invoke(callee(ctx), args, ctx)
      }
    }
  }

  private compileCell(node: NodeOf<'cell'>, mode: Mode): Evaluator {
    const external = this.externalSheetOf(node.sheet)
    if (external !== undefined) return compileExternalCell(external, node.ref, mode)
    const fixedSheet = this.sheetOf(node.sheet)
    if (fixedSheet === null) return () => CellError.REF
    const ref = node.ref
    this.cells.push({ sheet: fixedSheet ?? null, ref })
    const { row, col, rowAbsolute, colAbsolute } = ref
    if (mode === 'value') {
      if (fixedSheet === undefined && !rowAbsolute && !colAbsolute) {
        return (ctx) => {
          const r = ctx.row + row
          const c = ctx.col + col
          if (r < 0 || c < 0 || r > MAX_ROW || c > MAX_COL) return CellError.REF
          return ctx.sheet.read(r, c)
        }
      }
      return (ctx) => {
        const r = rowAbsolute ? row : ctx.row + row
        const c = colAbsolute ? col : ctx.col + col
        if (r < 0 || c < 0 || r > MAX_ROW || c > MAX_COL) return CellError.REF
        return (fixedSheet ?? ctx.sheet).read(r, c)
      }
    }
    return (ctx) => {
      const r = rowAbsolute ? row : ctx.row + row
      const c = colAbsolute ? col : ctx.col + col
      if (r < 0 || c < 0 || r > MAX_ROW || c > MAX_COL) return CellError.REF
      return new RangeRef(fixedSheet ?? ctx.sheet, r, c, r, c)
    }
  }

  private compileRange(node: NodeOf<'range'>): Evaluator {
    const external = this.externalSheetOf(node.sheet)
    if (external !== undefined) {
      const { start, end, kind } = node
      return (ctx) => {
        const range = makeRange(external, kind, start, end, ctx.row, ctx.col)
        if (range instanceof CellError) return range
        return external.holdsAny(range.top, range.left, range.bottom, range.right) ? range : UNCACHED_EXTERNAL
      }
    }
    const fixedSheet = this.sheetOf(node.sheet)
    if (fixedSheet === null) return () => CellError.REF
    const { start, end, kind } = node
    this.ranges.push({ sheet: fixedSheet ?? null, kind, start, end })
    const absolute = (corner: RefCorner) => corner.rowAbsolute && corner.colAbsolute
    if (fixedSheet !== undefined && absolute(start) && absolute(end)) {
      const reference = makeRange(fixedSheet, kind, start, end, 0, 0)
      return () => reference
    }
    return (ctx) => makeRange(fixedSheet ?? ctx.sheet, kind, start, end, ctx.row, ctx.col)
  }

  private compileName(node: NodeOf<'name'>, mode: Mode): Evaluator {
    // A name of another workbook (`[1]!Rate`): the file keeps only cell values of linked workbooks.
    if (this.externalSheetOf(node.sheet) !== undefined) return () => UNCACHED_EXTERNAL
    const name = node.name.toUpperCase()
    this.names.add(name)
    const qualifier = this.sheetOf(node.sheet)
    if (qualifier === null) return () => CellError.REF
    const evaluate: Evaluator = (ctx) => {
      if (ctx.hasBindings && qualifier === undefined) {
        const bound = ctx.binding(name)
        if (bound !== undefined) return bound
      }
      return ctx.host.evaluateName(name, qualifier, ctx)
    }
    if (mode === 'reference') return evaluate
    return (ctx) => {
      const value = evaluate(ctx)
      return value instanceof RangeRef && value.isSingleCell ? value.get(0, 0) : value
    }
  }

  /**
   * A structured reference resolves when compiled, to fixed cells of the table's sheet: formulas using a
   * table are compiled again whenever the table changes (it is recorded among the formula's names).
   */
  private compileStructured(node: NodeOf<'structured'>, mode: Mode): Evaluator {
    this.names.add(tableUseKey(node.table))
    const table = node.table === '' ? undefined : this.host.table(node.table)
    if (table === undefined) return () => CellError.REF
    const target = resolveStructured(table, node)
    if (target instanceof CellError) return () => target
    const sheet = table.sheet
    const { left, right } = target
    if (target.kind === 'block') {
      const { top, bottom } = target
      const corner = (row: number, col: number): RefCorner => ({ row, col, rowAbsolute: true, colAbsolute: true })
      this.ranges.push({ sheet, kind: 'cells', start: corner(top, left), end: corner(bottom, right) })
      const reference = new RangeRef(sheet, top, left, bottom, right)
      if (mode === 'value' && reference.isSingleCell) return () => sheet.read(top, left)
      return () => reference
    }
    // This row: the same row of the table's sheet, read relative to the formula.
    const { dataTop, dataBottom } = target
    const corner = (col: number): RefCorner => ({ row: 0, col, rowAbsolute: false, colAbsolute: true })
    if (left === right) this.cells.push({ sheet, ref: corner(left) })
    else this.ranges.push({ sheet, kind: 'cells', start: corner(left), end: corner(right) })
    if (mode === 'value' && left === right) {
      return (ctx) => (ctx.row < dataTop || ctx.row > dataBottom ? CellError.VALUE : sheet.read(ctx.row, left))
    }
    return (ctx) =>
      ctx.row < dataTop || ctx.row > dataBottom ? CellError.VALUE : new RangeRef(sheet, ctx.row, left, ctx.row, right)
  }

  private compileSpill(node: NodeOf<'spill'>): Evaluator {
    const target = node.operand.type === 'group' ? node.operand.expression : node.operand
    if (target.type !== 'cell') {
      const inner = this.compile(target, 'reference')
      return (ctx) => {
        const value = inner(ctx)
        if (!(value instanceof RangeRef)) return value instanceof CellError ? value : CellError.REF
        return ctx.host.spillRange(value.sheet as Sheet, value.top, value.left)
      }
    }
    // Another workbook's arrays do not spill here: the file keeps their cells, not their formulas.
    if (this.externalSheetOf(target.sheet) !== undefined) return () => UNCACHED_EXTERNAL
    const fixedSheet = this.sheetOf(target.sheet)
    if (fixedSheet === null) return () => CellError.REF
    const ref = target.ref
    this.spills.push({ sheet: fixedSheet ?? null, ref })
    return (ctx) => {
      const r = ref.rowAbsolute ? ref.row : ctx.row + ref.row
      const c = ref.colAbsolute ? ref.col : ctx.col + ref.col
      if (r < 0 || c < 0 || r > MAX_ROW || c > MAX_COL) return CellError.REF
      return ctx.host.spillRange(fixedSheet ?? ctx.sheet, r, c)
    }
  }

  private compileUnary(node: NodeOf<'unary'>): Evaluator {
    if (node.operator === '@') {
      // Excel's `@`: one value from a range (the formula's row or column) or an array (its first item).
      const inner = this.compile(node.operand, 'reference')
      return (ctx) => toScalar(inner(ctx), ctx)
    }
    const inner = this.scalarOperand(this.compile(node.operand, 'value'))
    if (node.operator === '+') return inner
    return (ctx) => {
      const value = inner(ctx)
      return typeof value === 'number' ? -value : negate(value)
    }
  }

  private compileBinary(node: NodeOf<'binary'>): Evaluator {
    const left = this.scalarOperand(this.compile(node.left, 'value'))
    const right = this.scalarOperand(this.compile(node.right, 'value'))
    const operator = node.operator
    switch (operator) {
      case '+':
        return (ctx) => {
          const a = left(ctx)
          const b = right(ctx)
          if (typeof a === 'number' && typeof b === 'number') {
            const result = a + b
            return result - result === 0 ? result : CellError.NUM
          }
          return binary(operator, a, b)
        }
      case '-':
        return (ctx) => {
          const a = left(ctx)
          const b = right(ctx)
          if (typeof a === 'number' && typeof b === 'number') {
            const result = a - b
            return result - result === 0 ? result : CellError.NUM
          }
          return binary(operator, a, b)
        }
      case '*':
        return (ctx) => {
          const a = left(ctx)
          const b = right(ctx)
          if (typeof a === 'number' && typeof b === 'number') {
            const result = a * b
            return result - result === 0 ? result : CellError.NUM
          }
          return binary(operator, a, b)
        }
      case '/':
        return (ctx) => {
          const a = left(ctx)
          const b = right(ctx)
          if (typeof a === 'number' && typeof b === 'number') {
            if (b === 0) return CellError.DIV0
            const result = a / b
            return result - result === 0 ? result : CellError.NUM
          }
          return binary(operator, a, b)
        }
      case '^':
        return (ctx) => {
          const a = left(ctx)
          const b = right(ctx)
          if (typeof a === 'number' && typeof b === 'number') return power(a, b)
          return binary(operator, a, b)
        }
      default:
        return (ctx) => {
          const a = left(ctx)
          const b = right(ctx)
          if ((typeof a !== 'object' || a === null) && (typeof b !== 'object' || b === null)) {
            return scalarBinary(operator, a, b)
          }
          return binary(operator, a, b)
        }
    }
  }

  private compileCall(node: NodeOf<'call'>): Evaluator {
    const definition = this.host.functions.get(node.name)
    if (definition === undefined && node.name.toUpperCase() === 'TABLE' && node.args.length === 2) {
      // A data table's {=TABLE(row_input, column_input)}: its results are calculated between
      // calculations (see engine/data-tables.ts); the formula shows them.
      for (const arg of node.args) if (arg.type !== 'missing') this.compile(arg, 'reference')
      return (ctx) => ctx.host.dataTable(ctx.sheet, ctx.row, ctx.col)
    }
    if (definition === undefined) {
      // Not a built-in function: a LET name or a defined name holding a LAMBDA, looked up when called.
      const name = node.name
      this.names.add(name)
      const args = this.compileCallArguments(node.args)
      const unknown = new CellError('#NAME?', `Unknown function ${name}`)
      return (ctx) => {
        const bound = ctx.hasBindings ? ctx.binding(name) : undefined
        const target = bound ?? ctx.host.evaluateName(name, undefined, ctx)
        return isCallable(target) ? invoke(target, args, ctx) : unknown
      }
    }
    if (definition.volatile) this.volatile = true
    if (definition.readsHiddenRows === true) this.readsHiddenRows = true
    if (definition.savedValue !== undefined) this.external = true
    if (node.args.length < definition.minArgs || node.args.length > definition.maxArgs) {
      for (const arg of node.args) if (arg.type !== 'missing') this.compile(arg, 'reference')
      const expected =
        definition.minArgs === definition.maxArgs
          ? `${definition.minArgs}`
          : definition.maxArgs === Infinity
            ? `at least ${definition.minArgs}`
            : `${definition.minArgs} to ${definition.maxArgs}`
      const error = new CellError('#ERROR!', `${definition.name} takes ${expected} arguments`)
      return () => error
    }
    const arrayArguments = this.legacy && ARRAY_CONTEXT_FUNCTIONS.has(definition.name)
    if (arrayArguments) this.arrayContext++
    try {
      return this.compileKnownCall(definition, node)
    } finally {
      if (arrayArguments) this.arrayContext--
    }
  }

  private compileKnownCall(definition: FunctionDefinition, node: NodeOf<'call'>): Evaluator {
    if (definition.lazy) {
      const args: LazyArg[] = node.args.map((arg) => ({
        evaluate: arg.type === 'missing' ? () => null : (this.compile(arg, 'reference') as LazyArg['evaluate']),
        identifier: arg.type === 'name' && arg.sheet === undefined ? arg.name.toUpperCase() : undefined,
        isMissing: arg.type === 'missing',
      }))
      const impl = definition.impl
      return (ctx) => impl(args, ctx)
    }
    return this.compileEagerCall(definition, node.args)
  }

  /** Arguments of a call of a function value; empty trailing ones are left out (the LAMBDA sees them omitted). */
  private compileCallArguments(nodes: Node[]): Evaluator[] {
    let count = nodes.length
    while (count > 0 && nodes[count - 1].type === 'missing') count--
    return nodes.slice(0, count).map((arg) => (arg.type === 'missing' ? () => null : this.compile(arg, 'reference')))
  }

  private compileEagerCall(definition: EagerFunctionDefinition, argNodes: Node[]): Evaluator {
    const kinds: ArgKind[] = argNodes.map((_, i) => kindAt(definition, i))
    const args: ArgEvaluator[] = argNodes.map((arg, i) => {
      if (arg.type === 'missing') return () => MISSING
      if (!isScalarKind(kinds[i])) return this.compile(arg, 'reference')
      return this.scalarOperand(this.compile(arg, 'value'))
    })
    const impl = definition.impl
    if (kinds.every((kind) => kind === 'any')) {
      // Aggregates such as SUM take their arguments as they come.
      if (args.length === 1) {
        const only = args[0]
        return (ctx) => impl([only(ctx)], ctx)
      }
      return (ctx) => {
        const values: Arg[] = new Array(args.length)
        for (let i = 0; i < args.length; i++) values[i] = args[i](ctx)
        return impl(values, ctx)
      }
    }
    return (ctx) => callEager(definition, args, kinds, ctx)
  }
}

function kindAt(definition: EagerFunctionDefinition, index: number): ArgKind {
  const kinds = definition.args
  if (kinds === undefined || kinds.length === 0) return 'any'
  return kinds[Math.min(index, kinds.length - 1)]
}

function isScalarKind(kind: ArgKind): boolean {
  return kind !== 'any' && kind !== 'reference'
}

function coerce(kind: ArgKind, value: Scalar): Scalar {
  switch (kind) {
    case 'number':
      return toNumber(value)
    case 'text':
      return toText(value)
    case 'boolean':
      return toBoolean(value)
    default:
      return value
  }
}

/** Prepares the arguments by kind, then calls the function once, or once per element when broadcasting. */
function callEager(definition: EagerFunctionDefinition, argEvaluators: ArgEvaluator[], kinds: ArgKind[], ctx: EvalContext): Value {
  const count = argEvaluators.length
  const args: Arg[] = new Array(count)
  let broadcasting = false
  for (let i = 0; i < count; i++) {
    const value = argEvaluators[i](ctx)
    const kind = kinds[i]
    if (value === MISSING) {
      // A required argument left empty is an empty value: 0, "" or FALSE by its kind (DATE(2024,,15) is
      // DATE(2024,0,15)); an optional one stays MISSING for the function to apply its own rule.
      args[i] = i < definition.minArgs && isScalarKind(kind) && definition.readsEmptyArguments !== true ? coerce(kind, null) : MISSING
      continue
    }
    if (kind === 'any') {
      args[i] = value
      continue
    }
    if (kind === 'reference') {
      if (!(value instanceof RangeRef) && !(value instanceof ReferenceList)) {
        return value instanceof CellError ? value : CellError.VALUE
      }
      args[i] = value
      continue
    }
    const scalarOrMatrix = operand(value)
    if (isMatrix(scalarOrMatrix)) {
      broadcasting = true
      args[i] = scalarOrMatrix as RangeRef | ArrayValue
      continue
    }
    if (scalarOrMatrix instanceof CellError && kind !== 'scalarOrError') return scalarOrMatrix
    const coerced = coerce(kind, scalarOrMatrix)
    if (coerced instanceof CellError && kind !== 'scalarOrError') return coerced
    args[i] = coerced
  }
  if (!broadcasting) return definition.impl(args, ctx)
  const matrixIndexes: number[] = []
  const operands: (Matrix | Scalar)[] = []
  for (let i = 0; i < count; i++) {
    const arg = args[i]
    if (isScalarKind(kinds[i]) && arg !== MISSING && isMatrix(arg as Scalar | Matrix)) {
      matrixIndexes.push(i)
      operands.push(arg as Matrix)
    }
  }
  const elementArgs = args.slice()
  return broadcast(operands, (values) => {
    for (let j = 0; j < matrixIndexes.length; j++) {
      const index = matrixIndexes[j]
      const kind = kinds[index]
      const value = values[j]
      if (value instanceof CellError && kind !== 'scalarOrError') return value
      const coerced = coerce(kind, value)
      if (coerced instanceof CellError && kind !== 'scalarOrError') return coerced
      elementArgs[index] = coerced
    }
    return scalarOf(definition.impl(elementArgs, ctx))
  }, !definition.volatile)
}

/** Calls a function value with evaluated arguments; #VALUE! when it is not callable (errors pass). */
function invoke(callee: Value, args: Evaluator[], ctx: EvalContext): Value {
  if (!isCallable(callee)) return callee instanceof CellError ? callee : CellError.VALUE
  const values: Value[] = new Array(args.length)
  for (let i = 0; i < args.length; i++) values[i] = args[i](ctx)
  return callee.call(values, ctx)
}

/** One element of a broadcast result: references are read, arrays give their first item. */
function scalarOf(value: Value): Scalar {
  if (value instanceof RangeRef) return value.isSingleCell ? value.get(0, 0) : CellError.VALUE
  if (value instanceof ArrayValue) return value.height > 0 && value.width > 0 ? value.data[0] : CellError.VALUE
  if (value instanceof ReferenceList) return CellError.VALUE
  return value
}

/** The reference a range node denotes for a formula at (row, col); #REF! when it leaves the sheet. */
export function makeRange(
  sheet: SheetView,
  kind: 'cells' | 'columns' | 'rows',
  start: RefCorner,
  end: RefCorner,
  row: number,
  col: number,
): RangeRef | CellError {
  let r1 = start.rowAbsolute ? start.row : row + start.row
  let r2 = end.rowAbsolute ? end.row : row + end.row
  let c1 = start.colAbsolute ? start.col : col + start.col
  let c2 = end.colAbsolute ? end.col : col + end.col
  if (kind === 'columns') {
    r1 = 0
    r2 = MAX_ROW
  } else if (kind === 'rows') {
    c1 = 0
    c2 = MAX_COL
  }
  if (r1 > r2) [r1, r2] = [r2, r1]
  if (c1 > c2) [c1, c2] = [c2, c1]
  if (r1 < 0 || c1 < 0 || r2 > MAX_ROW || c2 > MAX_COL) return CellError.REF
  return new RangeRef(sheet, r1, c1, r2, c2)
}

/** A reference to one cell of another workbook: its cached value, or #REF! when the file holds none. */
function compileExternalCell(external: ExternalSheet, ref: RefCorner, mode: Mode): Evaluator {
  const { row, col, rowAbsolute, colAbsolute } = ref
  return (ctx) => {
    const r = rowAbsolute ? row : ctx.row + row
    const c = colAbsolute ? col : ctx.col + col
    if (r < 0 || c < 0 || r > MAX_ROW || c > MAX_COL) return CellError.REF
    if (!external.holds(r, c)) return UNCACHED_EXTERNAL
    return mode === 'value' ? external.read(r, c) : new RangeRef(external, r, c, r, c)
  }
}

/** A legacy formula's result in its one cell: a range intersects, an array gives its first item. */
function legacyResult(value: Value, ctx: EvalContext): Value {
  return value instanceof RangeRef && value.isSingleCell ? value : toScalar(value, ctx)
}

function outermostCall(node: Node): string | undefined {
  let current = node
  while (current.type === 'group') current = current.expression
  return current.type === 'call' ? current.name : undefined
}

/**
 * Compiles a formula tree. `key` is its shape key (see parser). `legacy` formulas (saved without
 * dynamic arrays) intersect ranges where one value is expected, including their result.
 */
export function compileFormula(ast: Node, key: string, host: CompileHost, legacy = false): CompiledFormula {
  const compilation = new Compilation(host, legacy)
  const body = compilation.compile(ast, 'value')
  const evaluate: Evaluator = legacy ? (ctx) => legacyResult(body(ctx), ctx) : body
  const outer = outermostCall(ast)
  const outerDefinition: FunctionDefinition | undefined = outer === undefined ? undefined : host.functions.get(outer)
  return {
    key,
    ast,
    evaluate,
    cells: compilation.cells,
    ranges: compilation.ranges,
    names: [...compilation.names],
    spills: compilation.spills,
    volatile: compilation.volatile,
    external: compilation.external,
    linksWorkbooks: compilation.linksWorkbooks,
    readsHiddenRows: compilation.readsHiddenRows,
    isSubtotal: outer === 'SUBTOTAL' || outer === 'AGGREGATE',
    missingSheets: [...compilation.missingSheets],
    resultFormat: outerDefinition?.resultFormat,
    sheets: collectSheetNames(ast),
    legacy,
  }
}

/** Compiles an expression for evaluation in reference mode (defined names, INDIRECT text). */
export function compileExpression(ast: Node, host: CompileHost): {
  evaluate: Evaluator
  cells: StaticCellDependency[]
  ranges: StaticRangeDependency[]
  names: string[]
} {
  const compilation = new Compilation(host)
  const evaluate = compilation.compile(ast, 'reference')
  return { evaluate, cells: compilation.cells, ranges: compilation.ranges, names: [...compilation.names] }
}
