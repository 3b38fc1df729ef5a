/**
 * AGGREGATE: nineteen aggregates in one, optionally ignoring error values and nested SUBTOTAL and
 * AGGREGATE results. Rows are never hidden in the engine, so the options about hidden rows change nothing.
 */
import { CellError, RangeRef, ReferenceList } from '../../values.js'
import type { Scalar } from '../../values.js'
import { forEachValue, numberResult, toArray } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'

type Aggregate = (numbers: number[], k: number) => number | CellError

function sorted(numbers: number[]): number[] {
  return [...numbers].sort((a, b) => a - b)
}

function mean(numbers: number[]): number {
  let total = 0
  for (const n of numbers) total += n
  return total / numbers.length
}

function variance(numbers: number[], sample: boolean): number | CellError {
  const n = numbers.length
  if (n === 0 || (sample && n === 1)) return CellError.DIV0
  const m = mean(numbers)
  let squares = 0
  for (const x of numbers) squares += (x - m) * (x - m)
  return squares / (sample ? n - 1 : n)
}

function percentile(numbers: number[], k: number, exclusive: boolean): number | CellError {
  const n = numbers.length
  if (n === 0) return CellError.NUM
  const h = exclusive ? (n + 1) * k - 1 : (n - 1) * k
  if (k < 0 || k > 1 || h < 0 || h > n - 1 || (exclusive && (k <= 0 || k >= 1))) return CellError.NUM
  const s = sorted(numbers)
  const low = Math.floor(h)
  return low + 1 < n ? s[low] + (h - low) * (s[low + 1] - s[low]) : s[low]
}

const AGGREGATES: Record<number, Aggregate> = {
  1: (n) => (n.length === 0 ? CellError.DIV0 : mean(n)),
  2: (n) => n.length,
  3: (n) => n.length,
  4: (n) => (n.length === 0 ? 0 : Math.max(...n)),
  5: (n) => (n.length === 0 ? 0 : Math.min(...n)),
  6: (n) => n.reduce((product, x) => product * x, 1),
  7: (n) => {
    const v = variance(n, true)
    return typeof v === 'number' ? Math.sqrt(v) : v
  },
  8: (n) => {
    const v = variance(n, false)
    return typeof v === 'number' ? Math.sqrt(v) : v
  },
  9: (n) => n.reduce((total, x) => total + x, 0),
  10: (n) => variance(n, true),
  11: (n) => variance(n, false),
  12: (n) => {
    if (n.length === 0) return CellError.NUM
    const s = sorted(n)
    const middle = s.length >> 1
    return s.length % 2 ? s[middle] : (s[middle - 1] + s[middle]) / 2
  },
  13: (n) => {
    const counts = new Map<number, number>()
    let best: number | undefined
    let bestCount = 1
    for (const x of n) {
      const count = (counts.get(x) ?? 0) + 1
      counts.set(x, count)
      if (count > bestCount) {
        bestCount = count
        best = x
      }
    }
    return best ?? CellError.NA
  },
  14: (n, k) => (k < 1 || k > n.length ? CellError.NUM : sorted(n)[n.length - Math.ceil(k)]),
  15: (n, k) => (k < 1 || k > n.length ? CellError.NUM : sorted(n)[Math.ceil(k) - 1]),
  16: (n, k) => percentile(n, k, false),
  17: (n, k) => (k < 0 || k > 4 ? CellError.NUM : percentile(n, Math.trunc(k) / 4, false)),
  18: (n, k) => percentile(n, k, true),
  19: (n, k) => (k < 1 || k > 3 ? CellError.NUM : percentile(n, Math.trunc(k) / 4, true)),
}

export const AGGREGATE: FunctionDefinition = {
  name: 'AGGREGATE',
  category: 'math',
  minArgs: 3,
  maxArgs: 255,
  args: ['number', 'number', 'any'],
  syntax: 'AGGREGATE(function_num, options, ref1, [ref2], ...) or AGGREGATE(function_num, options, array, k)',
  description:
    'Returns an aggregate (1 AVERAGE … 9 SUM … 19 QUARTILE.EXC) of references or an array, optionally ignoring errors (options 2, 3, 6, 7) and nested SUBTOTAL and AGGREGATE results (options 0 to 3).',
  example: 'AGGREGATE(9, 6, A1:A10)',
  impl: (args) => {
    const functionNumber = Math.trunc(args[0] as number)
    const options = Math.trunc(args[1] as number)
    const aggregate = AGGREGATES[functionNumber]
    if (!aggregate || options < 0 || options > 7) return CellError.VALUE
    const ignoreErrors = options === 2 || options === 3 || options === 6 || options === 7
    const ignoreNested = options <= 3
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
      if (areas && ignoreNested) {
        for (const area of areas) {
          area.sheet.forEachInBlock(area.top, area.left, area.bottom, area.right, (value, row, col) => {
            if (area.sheet.isSubtotalCell(row, col)) return
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
