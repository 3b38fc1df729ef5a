import { CellError, RangeRef, ReferenceList } from '../../values.js'
import type { Scalar } from '../../values.js'
import { numberResult, sumAndCount } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { AGGREGATES } from './aggregate.js'
import { HIDDEN_ANY, HIDDEN_BY_FILTER, isSkippedRow } from '../../engine/hidden-rows.js'

export const SUM: FunctionDefinition = {
  name: 'SUM',
  category: 'math',
  minArgs: 1,
  maxArgs: Infinity,
  args: ['any'],
  syntax: 'SUM(number1, [number2], ...)',
  description: 'Adds all the numbers in a range of cells.',
  example: 'SUM(A1:A10)',
  impl: (args) => {
    const result = sumAndCount(args)
    return result instanceof CellError ? result : numberResult(result.sum)
  },
}

export const SUBTOTAL: FunctionDefinition = {
  name: 'SUBTOTAL',
  category: 'math',
  minArgs: 2,
  maxArgs: Infinity,
  args: ['number', 'any'],
  syntax: 'SUBTOTAL(function_num, ref1, [ref2], ...)',
  description:
    'Returns an aggregate (1 AVERAGE, 2 COUNT, 3 COUNTA, 4 MAX, 5 MIN, 6 PRODUCT, 7 STDEV, 8 STDEVP, 9 SUM, 10 VAR, 11 VARP; add 100 to skip hidden rows too) of references, skipping rows a filter hid and other SUBTOTALs in them.',
  example: 'SUBTOTAL(9, A1:A10)',
  readsHiddenRows: true,
  impl: (args) => {
    const functionNumber = Math.trunc(args[0] as number)
    // Rows a filter hid are always skipped; 101–111 skip the rows the user hid as well.
    const aggregateNumber = functionNumber > 100 ? functionNumber - 100 : functionNumber
    if (!(aggregateNumber >= 1 && aggregateNumber <= 11)) return CellError.VALUE
    const skip = functionNumber > 100 ? HIDDEN_ANY : HIDDEN_BY_FILTER
    const numbers: number[] = []
    let nonEmpty = 0
    for (let i = 1; i < args.length; i++) {
      const arg: Arg = args[i]
      if (arg === MISSING) continue
      const areas = arg instanceof RangeRef ? [arg] : arg instanceof ReferenceList ? arg.areas : undefined
      if (!areas) return arg instanceof CellError ? arg : CellError.VALUE
      for (const area of areas) {
        let error: CellError | undefined
        const hiddenRows = area.sheet.hiddenRows?.() ?? null
        area.sheet.forEachInBlock(area.top, area.left, area.bottom, area.right, (value: Scalar, row, col) => {
          if (isSkippedRow(hiddenRows, row, skip) || area.sheet.isSubtotalCell(row, col)) return
          if (value instanceof CellError) {
            error = value
            return false
          }
          nonEmpty++
          if (typeof value === 'number') numbers.push(value)
        })
        if (error) return error
      }
    }
    // COUNTA counts every cell with content, which the numbers alone do not tell.
    return numberResult(aggregateNumber === 3 ? nonEmpty : AGGREGATES[aggregateNumber](numbers, 0))
  },
}

export const functions: readonly FunctionDefinition[] = [SUM, SUBTOTAL]

