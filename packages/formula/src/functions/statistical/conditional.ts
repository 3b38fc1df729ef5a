/**
 * Counting, averaging and extremes over the cells that meet criteria.
 */
import { CellError } from '../../values.js'
import { numberResult } from '../helpers.js'
import type { FunctionDefinition } from '../types.js'
import { condition, criteriaPairKinds, readConditions, scanMatches, toArea, totalIf, totalIfs } from '../math/conditional.js'
import type { NumberAccumulator } from '../math/conditional.js'

export const COUNTIF: FunctionDefinition = {
  name: 'COUNTIF',
  category: 'statistical',
  minArgs: 2,
  maxArgs: 2,
  args: ['any', 'scalarOrError'],
  syntax: 'COUNTIF(range, criteria)',
  description: 'Counts the cells of a range that meet the criteria.',
  example: 'COUNTIF(A1:A10, ">5")',
  impl: ([rangeArg, criteria]) => {
    const range = toArea(rangeArg)
    if (range instanceof CellError) return range
    const made = condition(range, criteria)
    if (made instanceof CellError) return made
    return scanMatches([made], undefined, () => undefined)
  },
}

export const COUNTIFS: FunctionDefinition = {
  name: 'COUNTIFS',
  category: 'statistical',
  minArgs: 2,
  maxArgs: 254,
  args: criteriaPairKinds([]),
  syntax: 'COUNTIFS(criteria_range1, criteria1, [criteria_range2, criteria2], ...)',
  description: 'Counts the positions where every range meets its criteria.',
  example: 'COUNTIFS(A1:A10, "East", B1:B10, ">100")',
  impl: (args) => {
    if (args.length % 2 === 1) return CellError.VALUE
    const conditions = readConditions(args, 0)
    if (conditions instanceof CellError) return conditions
    return scanMatches(conditions, undefined, () => undefined)
  },
}

export const AVERAGEIF: FunctionDefinition = {
  name: 'AVERAGEIF',
  category: 'statistical',
  minArgs: 2,
  maxArgs: 3,
  args: ['any', 'scalarOrError', 'any'],
  syntax: 'AVERAGEIF(range, criteria, [average_range])',
  description: 'Returns the mean of the cells of average_range (or range) whose cells in range meet the criteria.',
  example: 'AVERAGEIF(A1:A10, ">5", B1:B10)',
  impl: (args) => {
    const total = totalIf(args)
    if (total instanceof CellError) return total
    return total.count === 0 ? CellError.DIV0 : numberResult(total.sum / total.count)
  },
}

/** AVERAGEIFS, MINIFS and MAXIFS: a target range, then range/criteria pairs of the same size. */
function targetIfs(
  name: string,
  description: string,
  finish: (total: NumberAccumulator) => number | CellError,
): FunctionDefinition {
  const target = name === 'AVERAGEIFS' ? 'average_range' : name === 'MINIFS' ? 'min_range' : 'max_range'
  return {
    name,
    category: 'statistical',
    minArgs: 3,
    maxArgs: 255,
    args: criteriaPairKinds(['any']),
    syntax: `${name}(${target}, criteria_range1, criteria1, [criteria_range2, criteria2], ...)`,
    description,
    example: `${name}(C1:C10, A1:A10, "East", B1:B10, ">100")`,
    impl: (args) => {
      const total = totalIfs(args)
      return total instanceof CellError ? total : finish(total)
    },
  }
}

export const AVERAGEIFS = targetIfs('AVERAGEIFS', 'Returns the mean of the cells that meet every criteria.', (total) =>
  total.count === 0 ? CellError.DIV0 : numberResult(total.sum / total.count),
)

export const MINIFS = targetIfs('MINIFS', 'Returns the smallest number among the cells that meet every criteria.', (total) =>
  total.count === 0 ? 0 : total.min,
)

export const MAXIFS = targetIfs('MAXIFS', 'Returns the largest number among the cells that meet every criteria.', (total) =>
  total.count === 0 ? 0 : total.max,
)

export const functions: readonly FunctionDefinition[] = [COUNTIF, COUNTIFS, AVERAGEIF, AVERAGEIFS, MINIFS, MAXIFS]
