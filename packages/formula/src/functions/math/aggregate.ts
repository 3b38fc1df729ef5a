/**
 * AGGREGATE: nineteen aggregates in one, optionally ignoring hidden rows (by the user or a filter), error
 * values and nested SUBTOTAL and AGGREGATE results.
 */
import { CellError, RangeRef, ReferenceList } from '../../values.js'
import type { Scalar } from '../../values.js'
import { forEachValue, numberResult, toArray } from '../helpers.js'
import { MISSING } from '../types.js'
import { HIDDEN_ANY, isSkippedRow } from '../../engine/hidden-rows.js'
import type { Arg, FunctionDefinition } from '../types.js'
import {
  average,
  firstMode,
  kthOf,
  maximum,
  median,
  minimum,
  populationStdev,
  populationVariance,
  sampleStdev,
  sampleVariance,
} from '../statistical/aggregates.js'
import { sum } from '../statistical/collect.js'
import { percentileExclusive, percentileInclusive } from '../statistical/ranking.js'

type Aggregate = (numbers: number[], k: number) => number | CellError

/** PRODUCT of the numbers; 0 when there are none. */
export const product: Aggregate = (n) => (n.length === 0 ? 0 : n.reduce((total, x) => total * x, 1))

/**
 * The functions AGGREGATE's function numbers stand for, reduced as those functions reduce; SUBTOTAL's
 * 1 to 11 are the same but for COUNTA (3), which counts cells rather than numbers.
 */
export const AGGREGATES: Record<number, Aggregate> = {
  1: average,
  2: (n) => n.length,
  3: (n) => n.length,
  4: maximum,
  5: minimum,
  6: product,
  7: sampleStdev,
  8: populationStdev,
  9: sum,
  10: sampleVariance,
  11: populationVariance,
  12: median,
  13: firstMode,
  14: (n, k) => kthOf(n, k, true),
  15: (n, k) => kthOf(n, k, false),
  16: percentileInclusive,
  17: (n, k) => (k < 0 || k > 4 ? CellError.NUM : percentileInclusive(n, Math.trunc(k) / 4)),
  18: percentileExclusive,
  19: (n, k) => (k < 1 || k > 3 ? CellError.NUM : percentileExclusive(n, Math.trunc(k) / 4)),
}

export const AGGREGATE: FunctionDefinition = {
  name: 'AGGREGATE',
  category: 'math',
  minArgs: 3,
  maxArgs: 255,
  args: ['number', 'number', 'any'],
  syntax: 'AGGREGATE(function_num, options, ref1, [ref2], ...) or AGGREGATE(function_num, options, array, k)',
  description:
    'Returns an aggregate (1 AVERAGE … 9 SUM … 19 QUARTILE.EXC) of references or an array, optionally ignoring hidden rows (options 1, 3, 5, 7), errors (options 2, 3, 6, 7) and nested SUBTOTAL and AGGREGATE results (options 0 to 3).',
  example: 'AGGREGATE(9, 6, A1:A10)',
  readsHiddenRows: true,
  impl: (args) => {
    const functionNumber = Math.trunc(args[0] as number)
    const options = Math.trunc(args[1] as number)
    const aggregate = AGGREGATES[functionNumber]
    if (!aggregate || options < 0 || options > 7) return CellError.VALUE
    const ignoreErrors = options === 2 || options === 3 || options === 6 || options === 7
    const ignoreNested = options <= 3
    const ignoreHidden = options % 2 === 1
    const countAll = functionNumber === 3
    let k = 0
    let sources: Arg[] = args.slice(2)
    if (functionNumber >= 14) {
      if (args.length !== 4 || args[3] === MISSING) return CellError.VALUE
      const kArg = args[3]
      if (typeof kArg !== 'number') {
        const array = toArray(kArg)
        if (array instanceof CellError) return array
        const first = array.data[0]
        if (typeof first !== 'number') return first instanceof CellError ? first : CellError.VALUE
        k = first
      } else k = kArg
      sources = [args[2]]
    }
    const numbers: number[] = []
    let error: CellError | undefined
    const take = (value: Scalar): boolean | void => {
      if (value instanceof CellError) {
        if (ignoreErrors) return
        error = value
        return false
      }
      if (typeof value === 'number') numbers.push(value)
      else if (countAll && value !== null) numbers.push(0)
    }
    for (const source of sources) {
      if (source === MISSING) continue
      const areas = source instanceof RangeRef ? [source] : source instanceof ReferenceList ? source.areas : undefined
      if (areas && (ignoreNested || ignoreHidden)) {
        for (const area of areas) {
          const hiddenRows = ignoreHidden ? (area.sheet.hiddenRows?.() ?? null) : null
          area.sheet.forEachInBlock(area.top, area.left, area.bottom, area.right, (value, row, col) => {
            if (isSkippedRow(hiddenRows, row, HIDDEN_ANY)) return
            if (ignoreNested && area.sheet.isSubtotalCell(row, col)) return
            return take(value)
          })
          if (error) return error
        }
        continue
      }
      if (source instanceof CellError) {
        if (ignoreErrors) continue
        return source
      }
      forEachValue(source, take)
      if (error) return error
    }
    const result = aggregate(numbers, k)
    return numberResult(result)
  },
}

export const functions: readonly FunctionDefinition[] = [AGGREGATE]
