import { ArrayValue, CellError, RangeRef, ReferenceList } from '../../values.js'
import type { Scalar, Value } from '../../values.js'
import { broadcast, forEachValue, toBoolean, toMatrix, toScalar } from '../helpers.js'
import { MISSING } from '../types.js'
import type { FunctionContext, FunctionDefinition, LazyArg } from '../types.js'

/** Whether a value holds several cells (a range of more than one cell, a union or an array). */
function isMulti(value: Value): value is RangeRef | ReferenceList | ArrayValue {
  if (value instanceof RangeRef) return !value.isSingleCell
  return value instanceof ArrayValue || value instanceof ReferenceList
}

/** The value of an IF branch: an empty argument is 0, an absent one FALSE. */
function branch(args: readonly LazyArg[], index: number, ctx: FunctionContext): Value {
  if (index >= args.length) return false
  if (args[index].isMissing) return 0
  return args[index].evaluate(ctx)
}

export const IF: FunctionDefinition = {
  name: 'IF',
  category: 'logical',
  minArgs: 1,
  maxArgs: 3,
  lazy: true,
  syntax: 'IF(logical_test, [value_if_true], [value_if_false])',
  description: 'Returns one value if a condition is TRUE and another if it is FALSE.',
  example: 'IF(A1>0, "Profit", "Loss")',
  impl: (args, ctx) => {
    const condition = args[0].evaluate(ctx)
    if (isMulti(condition)) {
      // An array condition picks element by element, so both branches are needed (Excel 365).
      const conditions = toMatrix(condition) as ArrayValue | RangeRef
      const whenTrue = toMatrixOrScalar(branch(args, 1, ctx), ctx)
      const whenFalse = toMatrixOrScalar(branch(args, 2, ctx), ctx)
      return broadcast([conditions, whenTrue, whenFalse], ([test, yes, no]) => {
        const truth = toBoolean(test)
        if (truth instanceof CellError) return truth
        return truth ? yes : no
      })
    }
    const truth = toBoolean(toScalar(condition, ctx))
    if (truth instanceof CellError) return truth
    return branch(args, truth ? 1 : 2, ctx)
  },
}

function toMatrixOrScalar(value: Value, ctx: FunctionContext): ArrayValue | RangeRef | Scalar {
  if (isMulti(value)) return toMatrix(value) as ArrayValue | RangeRef
  return toScalar(value, ctx)
}

export const IFERROR: FunctionDefinition = {
  name: 'IFERROR',
  category: 'logical',
  minArgs: 2,
  maxArgs: 2,
  lazy: true,
  syntax: 'IFERROR(value, value_if_error)',
  description: 'Returns value_if_error if the value is an error, and the value itself otherwise.',
  example: 'IFERROR(A1/B1, 0)',
  impl: (args, ctx) => {
    const value = args[0].evaluate(ctx)
    const fallback = (): Value => (args[1].isMissing ? 0 : args[1].evaluate(ctx))
    if (isMulti(value)) {
      const matrix = toMatrix(value) as ArrayValue | RangeRef
      let hasError = false
      forEachValue(matrix, (item) => {
        if (item instanceof CellError) hasError = true
        return !hasError
      })
      // The fallback is evaluated only when needed, then taken element by element like the value.
      const replacement = hasError ? toMatrixOrScalar(fallback(), ctx) : null
      return broadcast([matrix, replacement], ([item, other]) =>
        item instanceof CellError ? (other === null ? 0 : other) : item === null ? 0 : item,
      )
    }
    const scalar = toScalar(value, ctx)
    if (scalar instanceof CellError) return fallback()
    return value instanceof RangeRef || value instanceof ReferenceList ? value : scalar
  },
}

export const AND: FunctionDefinition = {
  name: 'AND',
  category: 'logical',
  minArgs: 1,
  maxArgs: Infinity,
  args: ['any'],
  syntax: 'AND(logical1, [logical2], ...)',
  description: 'Returns TRUE if all of its arguments are TRUE.',
  example: 'AND(A1>0, B1>0)',
  impl: (args) => {
    let result = true
    let seen = false
    for (const arg of args) {
      if (arg === MISSING) continue
      if (typeof arg === 'object' && arg !== null && !(arg instanceof CellError)) {
        // In ranges and arrays only numbers and booleans count; text and empty cells are skipped.
        let error: CellError | undefined
        forEachValue(arg, (item) => {
          if (item instanceof CellError) {
            error = item
            return false
          }
          if (typeof item === 'boolean' || typeof item === 'number') {
            seen = true
            if (item === false || item === 0) result = false
          }
        })
        if (error) return error
        continue
      }
      // An empty argument or empty text is ignored, like an empty cell.
      if (arg === null || arg === '') continue
      const truth = toBoolean(arg)
      if (truth instanceof CellError) return truth
      seen = true
      if (!truth) result = false
    }
    return seen ? result : CellError.VALUE
  },
}

export const LET: FunctionDefinition = {
  name: 'LET',
  category: 'logical',
  minArgs: 3,
  maxArgs: 253,
  lazy: true,
  syntax: 'LET(name1, value1, [name2, value2], ..., calculation)',
  description: 'Assigns names to calculation results and returns the last argument, calculated with those names.',
  example: 'LET(x, A1*2, x+1)',
  impl: (args, ctx) => {
    if (args.length % 2 === 0) return CellError.VALUE
    const bindings = new Map<string, Value>()
    ctx.pushBindings(bindings)
    try {
      for (let i = 0; i < args.length - 1; i += 2) {
        const name = args[i].identifier
        if (name === undefined) return CellError.VALUE
        bindings.set(name, args[i + 1].evaluate(ctx))
      }
      return args[args.length - 1].evaluate(ctx)
    } finally {
      ctx.popBindings()
    }
  },
}

export const functions: readonly FunctionDefinition[] = [IF, IFERROR, AND, LET]
