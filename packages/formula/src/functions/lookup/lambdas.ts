/**
 * LAMBDA and the functions that apply one: MAP, REDUCE, SCAN, BYROW, BYCOL, MAKEARRAY, and ISOMITTED.
 *
 * A lambda is a value: {@link LambdaValue}. It is a kind of #CALC! error, because that is what Excel
 * shows for a lambda left uncalled in a cell, and because errors already flow through every part of the
 * engine untouched; the functions here recognise it and call it. Parameters are bound as LET binds its
 * names, so the body sees them and any LET names around the call.
 */
import { reserveCells, work } from '../../evaluator/budget.js'
import { ArrayValue, CellError, RangeRef, ReferenceList } from '../../values.js'
import type { Scalar, Value } from '../../values.js'
import { toNumber } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionContext, FunctionDefinition, LazyArg } from '../types.js'
import { readArray } from './arrays.js'

/** Excel stores parameter names as `_xlpm.x` (and optional ones as `_xlop.x`); the body says `_xlpm.x`. */
function parameterNames(identifier: string): string[] {
  const bare = identifier.replace(/^_XL(PM|OP)\./, '')
  return [bare, `_XLPM.${bare}`]
}

/** The value bound to a parameter the caller left out; ISOMITTED recognises it, elsewhere it is empty. */
const omittedValues = new WeakSet<ArrayValue>()

function omitted(): ArrayValue {
  const value = ArrayValue.filled(1, 1, null)
  omittedValues.add(value)
  return value
}

/** A function value made by LAMBDA. */
export class LambdaValue extends CellError {
  constructor(
    /** Upper-cased parameter names, as written. */
    readonly parameters: readonly string[],
    private readonly body: LazyArg,
  ) {
    super('#CALC!', 'A LAMBDA needs to be called')
  }

  /** Calls the lambda; fewer arguments than parameters leave the rest omitted, more are #VALUE!. */
  call(args: readonly Value[], ctx: FunctionContext): Value {
    if (args.length > this.parameters.length) return CellError.VALUE
    // MAP, REDUCE, MAKEARRAY… call a lambda once per element: each call counts against the time budget.
    work(1)
    const bindings = new Map<string, Value>()
    this.parameters.forEach((parameter, i) => {
      const value = i < args.length ? args[i] : omitted()
      for (const name of parameterNames(parameter)) bindings.set(name, value)
    })
    ctx.pushBindings(bindings)
    try {
      return this.body.evaluate(ctx)
    } finally {
      ctx.popBindings()
    }
  }
}

export const LAMBDA: FunctionDefinition = {
  name: 'LAMBDA',
  category: 'logical',
  minArgs: 1,
  maxArgs: 254,
  lazy: true,
  syntax: 'LAMBDA([parameter1, parameter2, ...], calculation)',
  description: 'Creates a function from a calculation and the names of its parameters, to be called with values.',
  example: 'MAP(A1:A5, LAMBDA(x, x * 2))',
  impl: (args) => {
    const parameters: string[] = []
    for (let i = 0; i < args.length - 1; i++) {
      const name = args[i].identifier
      if (name === undefined || parameters.includes(name)) return CellError.VALUE
      parameters.push(name)
    }
    return new LambdaValue(parameters, args[args.length - 1])
  },
}

export const ISOMITTED: FunctionDefinition = {
  name: 'ISOMITTED',
  category: 'information',
  minArgs: 1,
  maxArgs: 1,
  args: ['any'],
  syntax: 'ISOMITTED(argument)',
  description: 'Returns TRUE if a parameter of a LAMBDA was left out by the caller.',
  example: 'LAMBDA(x, y, IF(ISOMITTED(y), x, x * y))',
  impl: ([value]) => value instanceof ArrayValue && omittedValues.has(value),
}

/** An argument as a lambda taking `arity` parameters, or the error to return (test with instanceof LambdaValue). */
function lambdaArg(arg: Arg | undefined, arity: number): LambdaValue | CellError {
  if (arg instanceof LambdaValue) return arg.parameters.length === arity ? arg : CellError.VALUE
  if (arg instanceof CellError) return arg
  return CellError.VALUE
}

/** A lambda's result as one cell of an array: a single cell is read, anything larger is #CALC!. */
function cellOf(value: Value): Scalar {
  if (value instanceof LambdaValue) return CellError.CALC
  if (value instanceof RangeRef) return value.isSingleCell ? value.get(0, 0) ?? 0 : CellError.CALC
  if (value instanceof ArrayValue) return value.height === 1 && value.width === 1 ? value.data[0] ?? 0 : CellError.CALC
  if (value instanceof ReferenceList) return CellError.CALC
  return value
}

/** An array argument whose empty cells read as 0, as they do in array formulas. */
function arrayArg(arg: Arg | undefined): ArrayValue | CellError {
  if (arg instanceof CellError) return arg
  const array = readArray(arg === undefined ? MISSING : arg)
  if (array instanceof CellError) return array
  return new ArrayValue(array.height, array.width, array.data.map((value) => value ?? 0))
}

export const MAP: FunctionDefinition = {
  name: 'MAP',
  category: 'logical',
  minArgs: 2,
  maxArgs: 254,
  args: ['any'],
  syntax: 'MAP(array1, [array2, ...], lambda)',
  description: 'Returns an array of the results of a LAMBDA applied to each value of the arrays (one parameter per array).',
  example: 'MAP(A1:B3, LAMBDA(x, x ^ 2))',
  impl: (args, ctx) => {
    const lambda = lambdaArg(args[args.length - 1], args.length - 1)
    if (!(lambda instanceof LambdaValue)) return lambda
    const arrays: ArrayValue[] = []
    for (const arg of args.slice(0, -1)) {
      const array = arrayArg(arg)
      if (array instanceof CellError) return array
      arrays.push(array)
    }
    let height = 1
    let width = 1
    for (const array of arrays) {
      height = Math.max(height, array.height)
      width = Math.max(width, array.width)
    }
    reserveCells(height, width)
    const data: Scalar[] = []
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        const values = arrays.map((a) => {
          const rr = a.height === 1 ? 0 : r
          const cc = a.width === 1 ? 0 : c
          return rr < a.height && cc < a.width ? a.get(rr, cc) : CellError.NA
        })
        data.push(cellOf(lambda.call(values, ctx)))
      }
    }
    return new ArrayValue(height, width, data)
  },
}

/** REDUCE and SCAN: the initial value is optional (the accumulator then starts empty). */
function accumulate(args: Arg[], ctx: FunctionContext, keepSteps: boolean): Value {
  const lambda = lambdaArg(args[args.length - 1], 2)
  if (!(lambda instanceof LambdaValue)) return lambda
  const array = arrayArg(args.length === 3 ? args[1] : args[0])
  if (array instanceof CellError) return array
  const initial = args.length === 3 && args[0] !== MISSING ? (args[0] as Value) : 0
  let accumulator: Value = initial instanceof RangeRef && initial.isSingleCell ? initial.get(0, 0) : initial
  const steps: Scalar[] = []
  for (const value of array.data) {
    accumulator = lambda.call([accumulator, value], ctx)
    if (keepSteps) steps.push(cellOf(accumulator))
  }
  return keepSteps ? new ArrayValue(array.height, array.width, steps) : accumulator
}

export const REDUCE: FunctionDefinition = {
  name: 'REDUCE',
  category: 'logical',
  minArgs: 2,
  maxArgs: 3,
  args: ['any', 'any', 'any'],
  syntax: 'REDUCE([initial_value], array, lambda)',
  description: 'Reduces an array to one value by applying a LAMBDA(accumulator, value) to each value in turn.',
  example: 'REDUCE(0, A1:A10, LAMBDA(total, x, total + x ^ 2))',
  impl: (args, ctx) => accumulate(args, ctx, false),
}

export const SCAN: FunctionDefinition = {
  name: 'SCAN',
  category: 'logical',
  minArgs: 2,
  maxArgs: 3,
  args: ['any', 'any', 'any'],
  syntax: 'SCAN([initial_value], array, lambda)',
  description: 'Applies a LAMBDA(accumulator, value) to each value of an array in turn and returns every intermediate result.',
  example: 'SCAN(0, A1:A10, LAMBDA(total, x, total + x))',
  impl: (args, ctx) => accumulate(args, ctx, true),
}

function byLine(args: Arg[], ctx: FunctionContext, byRow: boolean): Value {
  const lambda = lambdaArg(args[1], 1)
  if (!(lambda instanceof LambdaValue)) return lambda
  const array = arrayArg(args[0])
  if (array instanceof CellError) return array
  const count = byRow ? array.height : array.width
  const results: Scalar[] = []
  for (let i = 0; i < count; i++) {
    const line = byRow
      ? new ArrayValue(1, array.width, array.data.slice(i * array.width, (i + 1) * array.width))
      : new ArrayValue(array.height, 1, Array.from({ length: array.height }, (_, r) => array.get(r, i)))
    results.push(cellOf(lambda.call([line], ctx)))
  }
  return byRow ? new ArrayValue(count, 1, results) : new ArrayValue(1, count, results)
}

export const BYROW: FunctionDefinition = {
  name: 'BYROW',
  category: 'logical',
  minArgs: 2,
  maxArgs: 2,
  args: ['any', 'any'],
  syntax: 'BYROW(array, lambda)',
  description: 'Applies a LAMBDA to each row of an array and returns a column of the results.',
  example: 'BYROW(A1:C10, LAMBDA(row, SUM(row)))',
  impl: (args, ctx) => byLine(args, ctx, true),
}

export const BYCOL: FunctionDefinition = {
  name: 'BYCOL',
  category: 'logical',
  minArgs: 2,
  maxArgs: 2,
  args: ['any', 'any'],
  syntax: 'BYCOL(array, lambda)',
  description: 'Applies a LAMBDA to each column of an array and returns a row of the results.',
  example: 'BYCOL(A1:C10, LAMBDA(column, MAX(column)))',
  impl: (args, ctx) => byLine(args, ctx, false),
}

export const MAKEARRAY: FunctionDefinition = {
  name: 'MAKEARRAY',
  category: 'logical',
  minArgs: 3,
  maxArgs: 3,
  args: ['any', 'any', 'any'],
  syntax: 'MAKEARRAY(rows, columns, lambda)',
  description: 'Returns an array of the given size whose values are a LAMBDA(row, column) of their 1-based positions.',
  example: 'MAKEARRAY(3, 3, LAMBDA(r, c, r * c))',
  impl: (args, ctx) => {
    const lambda = lambdaArg(args[2], 2)
    if (!(lambda instanceof LambdaValue)) return lambda
    const size: number[] = []
    for (const arg of args.slice(0, 2)) {
      // A size left empty is 0, which no array has.
      if (arg === MISSING) return CellError.VALUE
      const scalar = arg instanceof RangeRef && arg.isSingleCell ? arg.get(0, 0) : arg
      if (typeof scalar === 'object' && scalar !== null && !(scalar instanceof CellError)) return CellError.VALUE
      const number = toNumber(scalar as Scalar)
      if (number instanceof CellError) return number
      size.push(Math.trunc(number))
    }
    const [rows, columns] = size
    if (rows < 1 || columns < 1) return CellError.VALUE
    reserveCells(rows, columns)
    const data: Scalar[] = []
    for (let r = 1; r <= rows; r++) for (let c = 1; c <= columns; c++) data.push(cellOf(lambda.call([r, c], ctx)))
    return new ArrayValue(rows, columns, data)
  },
}

export const functions: readonly FunctionDefinition[] = [LAMBDA, ISOMITTED, MAP, REDUCE, SCAN, BYROW, BYCOL, MAKEARRAY]
