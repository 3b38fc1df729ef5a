/**
 * Logical functions beyond the core's IF, IFERROR, AND and LET: OR, XOR, NOT, TRUE, FALSE, IFNA, IFS, SWITCH.
 */
import { CellError } from '../../values.js'
import type { ArrayValue, RangeRef, Scalar, Value } from '../../values.js'
import { broadcast, compareScalars, toBoolean, toMatrix, toScalar } from '../helpers.js'
import type { FunctionContext, FunctionDefinition, LazyArg } from '../types.js'
import { isMulti, matrixOrScalar, readTruths, replaceErrors } from './core.js'

export const OR: FunctionDefinition = {
  name: 'OR',
  category: 'logical',
  minArgs: 1,
  maxArgs: 255,
  args: ['any'],
  syntax: 'OR(logical1, [logical2], ...)',
  description: 'Returns TRUE if any of its arguments is TRUE.',
  example: 'OR(A1>0, B1>0)',
  impl: (args) => {
    const truths = readTruths(args)
    if (truths instanceof CellError) return truths
    return truths.seen === 0 ? CellError.VALUE : truths.trues > 0
  },
}

export const XOR: FunctionDefinition = {
  name: 'XOR',
  category: 'logical',
  minArgs: 1,
  maxArgs: 254,
  args: ['any'],
  syntax: 'XOR(logical1, [logical2], ...)',
  description: 'Returns TRUE if an odd number of its arguments are TRUE.',
  example: 'XOR(A1>0, B1>0)',
  impl: (args) => {
    const truths = readTruths(args)
    if (truths instanceof CellError) return truths
    return truths.seen === 0 ? CellError.VALUE : truths.trues % 2 === 1
  },
}

export const NOT: FunctionDefinition = {
  name: 'NOT',
  category: 'logical',
  minArgs: 1,
  maxArgs: 1,
  args: ['boolean'],
  syntax: 'NOT(logical)',
  description: 'Reverses a logical value: TRUE becomes FALSE and FALSE becomes TRUE.',
  example: 'NOT(A1>10)',
  impl: ([value]) => value !== true,
}

export const TRUE: FunctionDefinition = {
  name: 'TRUE',
  category: 'logical',
  minArgs: 0,
  maxArgs: 0,
  args: [],
  syntax: 'TRUE()',
  description: 'Returns the logical value TRUE.',
  example: 'TRUE()',
  impl: () => true,
}

export const FALSE: FunctionDefinition = {
  name: 'FALSE',
  category: 'logical',
  minArgs: 0,
  maxArgs: 0,
  args: [],
  syntax: 'FALSE()',
  description: 'Returns the logical value FALSE.',
  example: 'FALSE()',
  impl: () => false,
}

export const IFNA: FunctionDefinition = {
  name: 'IFNA',
  category: 'logical',
  minArgs: 2,
  maxArgs: 2,
  lazy: true,
  syntax: 'IFNA(value, value_if_na)',
  description: 'Returns value_if_na if the value is #N/A, and the value itself otherwise.',
  example: 'IFNA(VLOOKUP(A1, B:C, 2, FALSE), "not found")',
  impl: (args, ctx) => replaceErrors(args, ctx, (item) => item instanceof CellError && item.code === '#N/A'),
}

/** A condition of IFS as TRUE or FALSE; numbers count as Excel's conditions do, text is #VALUE!. */
function conditionTruth(value: Scalar): boolean | CellError {
  if (typeof value === 'string') return CellError.VALUE
  return toBoolean(value)
}

export const IFS: FunctionDefinition = {
  name: 'IFS',
  category: 'logical',
  minArgs: 2,
  maxArgs: 254,
  lazy: true,
  syntax: 'IFS(logical_test1, value_if_true1, [logical_test2, value_if_true2], ...)',
  description: 'Returns the value of the first condition that is TRUE; #N/A when none is.',
  example: 'IFS(A1>=90, "A", A1>=80, "B", TRUE, "C")',
  impl: (args, ctx) => {
    if (args.length % 2 === 1) return CellError.NA
    for (let i = 0; i < args.length; i += 2) {
      const condition = args[i].evaluate(ctx)
      if (isMulti(condition)) return ifsByElement(args, i, ctx)
      const truth = conditionTruth(toScalar(condition, ctx))
      if (truth instanceof CellError) return truth
      if (truth) return args[i + 1].isMissing ? 0 : args[i + 1].evaluate(ctx)
    }
    return CellError.NA
  },
}

/** IFS with array conditions (from pair `start` on): the choice is made element by element. */
function ifsByElement(args: readonly LazyArg[], start: number, ctx: FunctionContext): Value {
  const operands: (ArrayValue | RangeRef | Scalar)[] = []
  for (let i = start; i < args.length; i++) {
    operands.push(args[i].isMissing ? 0 : matrixOrScalar(args[i].evaluate(ctx), ctx))
  }
  return broadcast(operands, (values) => {
    for (let i = 0; i < values.length; i += 2) {
      const truth = conditionTruth(values[i])
      if (truth instanceof CellError) return truth
      if (truth) return values[i + 1] === null ? 0 : values[i + 1]
    }
    return CellError.NA
  })
}

/** SWITCH's match: same type and equal, text compared without regard to case. */
function switchMatches(expression: Scalar, candidate: Scalar): boolean {
  if (expression instanceof CellError || candidate instanceof CellError) return false
  return compareScalars(expression, candidate) === 0
}

export const SWITCH: FunctionDefinition = {
  name: 'SWITCH',
  category: 'logical',
  minArgs: 3,
  maxArgs: 254,
  lazy: true,
  syntax: 'SWITCH(expression, value1, result1, [value2, result2], ..., [default])',
  description: 'Returns the result of the first value that equals the expression, or the default; #N/A when none does.',
  example: 'SWITCH(A1, 1, "One", 2, "Two", "Other")',
  impl: (args, ctx) => {
    const evaluated = args[0].evaluate(ctx)
    if (isMulti(evaluated)) {
      const matrix = toMatrix(evaluated) as ArrayValue | RangeRef
      const rest = args.slice(1).map((arg) => (arg.isMissing ? 0 : matrixOrScalar(arg.evaluate(ctx), ctx)))
      return broadcast([matrix, ...rest], ([expression, ...cases]) => chooseCase(expression, cases))
    }
    const expression = toScalar(evaluated, ctx)
    if (expression instanceof CellError) return expression
    const pairs = Math.floor((args.length - 1) / 2)
    for (let i = 0; i < pairs; i++) {
      const candidate = args[1 + 2 * i].isMissing ? null : toScalar(args[1 + 2 * i].evaluate(ctx), ctx)
      if (candidate instanceof CellError) return candidate
      if (switchMatches(expression, candidate)) {
        const result = args[2 + 2 * i]
        return result.isMissing ? 0 : result.evaluate(ctx)
      }
    }
    if ((args.length - 1) % 2 === 1) {
      const fallback = args[args.length - 1]
      return fallback.isMissing ? 0 : fallback.evaluate(ctx)
    }
    return CellError.NA
  },
}

/** SWITCH for one element: cases are value/result pairs, then the default if their count is odd. */
function chooseCase(expression: Scalar, cases: Scalar[]): Scalar {
  if (expression instanceof CellError) return expression
  const pairs = Math.floor(cases.length / 2)
  for (let i = 0; i < pairs; i++) {
    if (cases[2 * i] instanceof CellError) return cases[2 * i]
    if (switchMatches(expression, cases[2 * i])) return cases[2 * i + 1] ?? 0
  }
  return cases.length % 2 === 1 ? cases[cases.length - 1] : CellError.NA
}

export const functions: readonly FunctionDefinition[] = [OR, XOR, NOT, TRUE, FALSE, IFNA, IFS, SWITCH]
