/**
 * IF, IFERROR, AND and LET, and what the other logical functions share with them: reading truth
 * values, choosing element by element over arrays, and replacing errors.
 */
import { ArrayValue, CellError, RangeRef, ReferenceList } from '../../values.js'
import type { Scalar, Value } from '../../values.js'
import { broadcast, forEachValue, toBoolean, toMatrix, toScalar } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionContext, FunctionDefinition, LazyArg } from '../types.js'

/** Whether a value holds several cells (a range of more than one cell, a union or an array). */
export function isMulti(value: Value): value is RangeRef | ReferenceList | ArrayValue {
  if (value instanceof RangeRef) return !value.isSingleCell
  return value instanceof ArrayValue || value instanceof ReferenceList
}

/** A multi-cell value as a matrix, anything else as one scalar (for element-by-element choices). */
export function matrixOrScalar(value: Value, ctx: FunctionContext): ArrayValue | RangeRef | Scalar {
  if (isMulti(value)) return toMatrix(value) as ArrayValue | RangeRef
  return toScalar(value, ctx)
}

/**
 * Reads the truth values of AND/OR/XOR's arguments: in ranges and arrays only booleans and numbers
 * count (text and empty cells are skipped); typed directly, text must read as TRUE or FALSE. Returns
 * the first error, or how many values were TRUE out of how many were seen.
 */
export function readTruths(args: readonly Arg[]): { trues: number; seen: number } | CellError {
  let trues = 0
  let seen = 0
  for (const arg of args) {
    // An argument left empty is FALSE (=AND(TRUE,) is FALSE); empty text typed as an argument is
    // skipped like an empty cell (=OR("", TRUE) is TRUE).
    if (arg === MISSING) {
      seen++
      continue
    }
    if (arg === null || arg === '') continue
    if (typeof arg === 'object' && !(arg instanceof CellError)) {
      let error: CellError | undefined
      forEachValue(arg, (item) => {
        if (item instanceof CellError) {
          error = item
          return false
        }
        if (typeof item === 'boolean' || typeof item === 'number') {
          seen++
          if (item !== false && item !== 0) trues++
        }
      })
      if (error) return error
      continue
    }
    const truth = toBoolean(arg)
    if (truth instanceof CellError) return truth
    seen++
    if (truth) trues++
  }
  return { trues, seen }
}

/**
 * IFERROR and IFNA: the value, with value_if_error (an empty argument is 0) where it is an error that
 * `catches` accepts. Over an array the fallback is evaluated only when some element needs it, then
 * taken element by element like the value.
 */
export function replaceErrors(args: readonly LazyArg[], ctx: FunctionContext, catches: (item: Scalar) => boolean): Value {
  const value = args[0].evaluate(ctx)
  const fallback = (): Value => (args[1].isMissing ? 0 : args[1].evaluate(ctx))
  if (isMulti(value)) {
    const matrix = toMatrix(value) as ArrayValue | RangeRef
    let caught = false
    forEachValue(matrix, (item) => {
      caught = catches(item)
      return !caught
    })
    const replacement = caught ? matrixOrScalar(fallback(), ctx) : null
    return broadcast([matrix, replacement], ([item, other]) =>
      catches(item) ? (other === null ? 0 : other) : item === null ? 0 : item,
    )
  }
  const scalar = toScalar(value, ctx)
  if (catches(scalar)) return fallback()
  return value instanceof RangeRef || value instanceof ReferenceList ? value : scalar
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
      const whenTrue = matrixOrScalar(branch(args, 1, ctx), ctx)
      const whenFalse = matrixOrScalar(branch(args, 2, ctx), ctx)
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

export const IFERROR: FunctionDefinition = {
  name: 'IFERROR',
  category: 'logical',
  minArgs: 2,
  maxArgs: 2,
  lazy: true,
  syntax: 'IFERROR(value, value_if_error)',
  description: 'Returns value_if_error if the value is an error, and the value itself otherwise.',
  example: 'IFERROR(A1/B1, 0)',
  impl: (args, ctx) => replaceErrors(args, ctx, (item) => item instanceof CellError),
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
    const truths = readTruths(args)
    if (truths instanceof CellError) return truths
    return truths.seen === 0 ? CellError.VALUE : truths.trues === truths.seen
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
