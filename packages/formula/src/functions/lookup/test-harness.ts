/**
 * A small stand-in for the evaluator, for unit tests of function implementations: an in-memory sheet,
 * a function context, and `call`, which prepares arguments by their declared kinds as the engine does
 * (coercion of scalar kinds, broadcasting over ranges and arrays, lazy arguments).
 */
import { ArrayValue, CellError, RangeRef, ReferenceList, isCellError } from '../../values.js'
import type { Scalar, SheetView, Value } from '../../values.js'
import { broadcast, toBoolean, toMatrix, toNumber, toScalar, toText } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, ArgKind, FunctionContext, FunctionDefinition, LazyArg } from '../types.js'

let nextSheetId = 1

/** A sheet whose cells are given as rows of scalars (row 0 is spreadsheet row 1). */
export function makeSheet(rows: readonly (readonly Scalar[])[], name = 'Sheet1'): SheetView {
  const id = nextSheetId++
  const read = (row: number, col: number): Scalar => rows[row]?.[col] ?? null
  const height = rows.length
  const width = rows.reduce((widest, row) => Math.max(widest, row.length), 0)
  return {
    id,
    name,
    read,
    forEachInBlock(top, left, bottom, right, visit) {
      for (let col = left; col <= Math.min(right, width - 1); col++) {
        for (let row = top; row <= Math.min(bottom, height - 1); row++) {
          const value = read(row, col)
          if (value !== null && visit(value, row, col) === false) return
        }
      }
    },
    usedRowEnd: () => height,
    usedColEnd: () => width,
    isSubtotalCell: () => false,
    hasFormula: () => false,
    formulaText: () => undefined,
  }
}

function columnIndex(letters: string): number {
  let col = 0
  for (const ch of letters.toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64)
  return col - 1
}

/** A reference such as `A1:C3` or `B2` to a sheet made with {@link makeSheet}. */
export function ref(sheet: SheetView, text: string): RangeRef {
  const corners = text.split(':').map((part) => {
    const match = /^\$?([A-Za-z]+)\$?(\d+)$/.exec(part) as RegExpExecArray
    return { row: Number(match[2]) - 1, col: columnIndex(match[1]) }
  })
  const [a, b = a] = corners
  return new RangeRef(sheet, Math.min(a.row, b.row), Math.min(a.col, b.col), Math.max(a.row, b.row), Math.max(a.col, b.col))
}

/** An array value from rows, as an array constant `{1,2;3,4}` gives. */
export function arr(rows: readonly (readonly Scalar[])[]): ArrayValue {
  return ArrayValue.fromRows(rows)
}

/** A function context for a formula in `sheet` at a 0-based position. */
export function makeContext(
  sheet: SheetView = makeSheet([]),
  position: { row?: number; col?: number; now?: number; sheets?: SheetView[] } = {},
): FunctionContext {
  const bindings: Map<string, Value>[] = []
  const sheets = position.sheets ?? [sheet]
  return {
    sheet,
    row: position.row ?? 0,
    col: position.col ?? 0,
    now: () => position.now ?? 45_000.5,
    reference: (target, top, left, bottom, right) =>
      top < 0 || left < 0 ? CellError.REF : new RangeRef(target, top, left, bottom, right),
    parseReference: (text) => {
      const bang = text.lastIndexOf('!')
      const target = bang < 0 ? sheet : sheets.find((s) => s.name.toLowerCase() === text.slice(0, bang).replace(/'/g, '').toLowerCase())
      if (!target) return CellError.REF
      try {
        return ref(target, bang < 0 ? text : text.slice(bang + 1))
      } catch {
        return CellError.REF
      }
    },
    sheetByName: (name) => sheets.find((s) => s.name.toLowerCase() === name.toLowerCase()),
    sheets: () => sheets,
    pushBindings: (map) => bindings.push(map),
    popBindings: () => void bindings.pop(),
  }
}

function isMulti(value: Value): boolean {
  if (value instanceof RangeRef) return !value.isSingleCell
  return value instanceof ArrayValue || value instanceof ReferenceList
}

function prepareScalar(value: Scalar, kind: ArgKind): Scalar {
  switch (kind) {
    case 'number':
      return isCellError(value) ? value : toNumber(value)
    case 'text':
      return isCellError(value) ? value : toText(value)
    case 'boolean':
      return isCellError(value) ? value : toBoolean(value)
    default:
      return value
  }
}

/** Calls a function as the engine would with these argument values (MISSING for an empty argument). */
export function call(definition: FunctionDefinition, args: readonly Arg[], ctx: FunctionContext = makeContext()): Value {
  if (args.length < definition.minArgs || args.length > definition.maxArgs) return CellError.VALUE
  if (definition.lazy) {
    const lazyArgs: LazyArg[] = args.map((arg) => ({
      evaluate: () => (arg === MISSING ? null : arg),
      identifier: undefined,
      isMissing: arg === MISSING,
    }))
    return definition.impl(lazyArgs, ctx)
  }
  const kinds = definition.args ?? []
  const kindAt = (i: number): ArgKind => (kinds.length === 0 ? 'any' : kinds[Math.min(i, kinds.length - 1)])
  const prepared: Arg[] = []
  const broadcastAt: number[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    const kind = kindAt(i)
    if (arg === MISSING || kind === 'any') {
      prepared.push(arg)
      continue
    }
    if (kind === 'reference') {
      if (!(arg instanceof RangeRef || arg instanceof ReferenceList)) return isCellError(arg) ? arg : CellError.VALUE
      prepared.push(arg)
      continue
    }
    if (isMulti(arg)) {
      broadcastAt.push(i)
      prepared.push(arg)
      continue
    }
    const scalar = prepareScalar(toScalar(arg, ctx), kind)
    if (isCellError(scalar) && kind !== 'scalarOrError') return scalar
    prepared.push(scalar)
  }
  if (broadcastAt.length === 0) return definition.impl(prepared, ctx)
  const matrices = broadcastAt.map((i) => toMatrix(prepared[i]))
  for (const matrix of matrices) if (isCellError(matrix)) return matrix
  return broadcast(
    matrices as Exclude<(typeof matrices)[number], CellError>[],
    (values) => {
      const each = [...prepared]
      for (let j = 0; j < broadcastAt.length; j++) {
        const kind = kindAt(broadcastAt[j])
        const scalar = prepareScalar(values[j], kind)
        if (isCellError(scalar) && kind !== 'scalarOrError') return scalar
        each[broadcastAt[j]] = scalar
      }
      const result = definition.impl(each, ctx)
      return isMulti(result) ? CellError.VALUE : (toScalar(result, ctx) as Scalar)
    },
  )
}

/** Finds a definition by name in a list of them (the tests' way to reach a function). */
export function byName(definitions: readonly FunctionDefinition[]): (name: string) => FunctionDefinition {
  return (name) => {
    const found = definitions.find((definition) => definition.name === name)
    if (!found) throw new Error(`No function ${name}`)
    return found
  }
}

/** Calls a function by name from a list with plain argument values. */
export function caller(definitions: readonly FunctionDefinition[], ctx?: FunctionContext) {
  const find = byName(definitions)
  return (name: string, ...args: Arg[]): Value => call(find(name), args, ctx)
}
