/**
 * Aggregates over the cells that meet criteria: SUMIF and SUMIFS here, and the scan they share with
 * COUNTIF(S), AVERAGEIF(S), MINIFS and MAXIFS (statistical).
 */
import { ArrayValue, CellError, MAX_COL, MAX_ROW, RangeRef, ReferenceList } from '../../values.js'
import type { Scalar } from '../../values.js'
import { numberResult, parseCriteria, scalarKey } from '../helpers.js'
import type { CriteriaMatcher } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, ArgKind, FunctionDefinition } from '../types.js'

/** A range or array the criteria functions read by position. */
export type Area = RangeRef | ArrayValue

/** The range or array of an argument; a scalar counts as a 1×1 array. */
export function toArea(arg: Arg): Area | CellError {
  if (arg === MISSING) return ArrayValue.filled(1, 1, null)
  if (arg instanceof RangeRef || arg instanceof ArrayValue) return arg
  if (arg instanceof ReferenceList) return arg.areas.length === 1 ? arg.areas[0] : CellError.VALUE
  if (arg instanceof CellError) return arg
  return ArrayValue.filled(1, 1, arg)
}

/** A range moved to start where `area` starts but sized as `height` × `width` (SUMIF's sum_range rule). */
function resize(area: Area, height: number, width: number): Area {
  if (area.height === height && area.width === width) return area
  if (area instanceof RangeRef) {
    return new RangeRef(
      area.sheet,
      area.top,
      area.left,
      Math.min(MAX_ROW, area.top + height - 1),
      Math.min(MAX_COL, area.left + width - 1),
    )
  }
  const data: Scalar[] = []
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) data.push(r < area.height && c < area.width ? area.get(r, c) : null)
  }
  return new ArrayValue(height, width, data)
}

/** The criteria as a matcher; an empty cell as criteria means 0, as Excel documents. */
export function criteriaMatcher(criteria: Arg): CriteriaMatcher | CellError {
  if (criteria === MISSING || criteria === null) return parseCriteria(0)
  if (criteria instanceof CellError) return parseCriteria(criteria)
  if (typeof criteria === 'object') return CellError.VALUE
  return parseCriteria(criteria)
}

export interface Condition {
  readonly area: Area
  readonly matches: CriteriaMatcher
  /** Names the criteria, so the engine can share the rows that meet it among formulas. */
  readonly criteria: string
}

/** A condition on `area`, named by its criteria value. */
export function condition(area: Area, criteria: Arg): Condition | CellError {
  const matches = criteriaMatcher(criteria)
  if (matches instanceof CellError) return matches
  // An empty criteria cell means 0 (criteriaMatcher); other values are scalars by now.
  return { area, matches, criteria: criteria === MISSING || criteria === null ? scalarKey(0) : scalarKey(criteria as Scalar) }
}

/**
 * Whether each row of a condition's one-column range meets it, from the engine, which shares the pass
 * among formulas testing the same column for the same criteria (200 SUMIFS over one data table test
 * each column once per criteria, not once per formula); undefined where that does not apply.
 */
function rowMask(condition: Condition): Uint8Array | undefined {
  const { area, criteria } = condition
  if (!(area instanceof RangeRef) || area.left !== area.right || area.sheet.matchMask === undefined) return undefined
  return area.sheet.matchMask(area.top, area.left, area.bottom, criteria, condition.matches)
}

/** The rows and columns of an area that can hold values (a whole column is as tall as its data). */
function usedExtent(area: Area): { height: number; width: number } {
  if (area instanceof ArrayValue) return { height: area.height, width: area.width }
  const usedRows = area.sheet.usedRowEnd(area.left, area.right) - area.top
  const usedCols = area.sheet.usedColEnd(area.top, area.bottom) - area.left
  return {
    height: Math.max(0, Math.min(area.height, usedRows)),
    width: Math.max(0, Math.min(area.width, usedCols)),
  }
}

/**
 * Visits the positions where every condition holds, with the value of `target` there (null when no
 * target), and returns how many positions matched. The areas all have the same size. Positions past
 * the data of every area are empty everywhere: they are counted without being visited one by one.
 */
export function scanMatches(
  conditions: readonly Condition[],
  target: Area | undefined,
  visit: (value: Scalar) => void,
): number {
  const first = conditions[0].area
  const height = first.height
  const width = first.width
  let usedHeight = 0
  let usedWidth = 0
  for (const area of [...conditions.map((condition) => condition.area), ...(target ? [target] : [])]) {
    const extent = usedExtent(area)
    usedHeight = Math.max(usedHeight, extent.height)
    usedWidth = Math.max(usedWidth, extent.width)
  }
  let matched = 0
  if (usedWidth === 1) {
    const masks = conditions.map(rowMask)
    if (masks.every((mask) => mask !== undefined)) {
      const blankMatches = conditions.map((condition) => condition.matches(null))
      for (let r = 0; r < usedHeight; r++) {
        let all = true
        for (let j = 0; j < masks.length; j++) {
          const mask = masks[j] as Uint8Array
          if (r < mask.length ? mask[r] === 0 : !blankMatches[j]) {
            all = false
            break
          }
        }
        if (!all) continue
        matched++
        visit(target ? target.get(r, 0) : null)
      }
      return matched + emptyMatches(conditions, height * width - usedHeight * usedWidth)
    }
  }
  for (let r = 0; r < usedHeight; r++) {
    for (let c = 0; c < usedWidth; c++) {
      let all = true
      for (const condition of conditions) {
        if (!condition.matches(condition.area.get(r, c))) {
          all = false
          break
        }
      }
      if (!all) continue
      matched++
      visit(target ? target.get(r, c) : null)
    }
  }
  return matched + emptyMatches(conditions, height * width - usedHeight * usedWidth)
}

/** The positions past every area's data match when every criteria takes an empty cell. */
function emptyMatches(conditions: readonly Condition[], emptyPositions: number): number {
  // Their targets are empty too, which no aggregate takes in.
  return emptyPositions > 0 && conditions.every((condition) => condition.matches(null)) ? emptyPositions : 0
}

/**
 * Reads `range, criteria, [range, criteria]...` pairs starting at `start` into conditions of the same
 * size as `size`; #VALUE! when a range has another size (the *IFS rule).
 */
export function readConditions(args: readonly Arg[], start: number, size?: Area): Condition[] | CellError {
  const conditions: Condition[] = []
  for (let i = start; i + 1 < args.length; i += 2) {
    const area = toArea(args[i])
    if (area instanceof CellError) return area
    const reference = size ?? conditions[0]?.area
    if (reference && (area.height !== reference.height || area.width !== reference.width)) return CellError.VALUE
    const made = condition(area, args[i + 1])
    if (made instanceof CellError) return made
    conditions.push(made)
  }
  return conditions
}

/** Argument kinds for `leading..., range1, criteria1, range2, criteria2, ...` up to 255 arguments. */
export function criteriaPairKinds(leading: readonly ArgKind[]): ArgKind[] {
  const kinds = [...leading]
  while (kinds.length < 255) kinds.push('any', 'scalarOrError')
  return kinds
}

/** Sums the numbers visited; the first error met is kept. */
export class NumberAccumulator {
  sum = 0
  count = 0
  min = Infinity
  max = -Infinity
  error: CellError | undefined

  readonly add = (value: Scalar): void => {
    if (this.error) return
    if (typeof value === 'number') {
      this.sum += value
      this.count++
      if (value < this.min) this.min = value
      if (value > this.max) this.max = value
    } else if (value instanceof CellError) this.error = value
  }
}

/**
 * SUMIF and AVERAGEIF: the numbers of `[target]` (else of `range`) where `range` meets `criteria`, from
 * `range, criteria, [target]`; a target of another size is read from its top-left cell at range's size.
 */
export function totalIf(args: readonly Arg[]): NumberAccumulator | CellError {
  const range = toArea(args[0])
  if (range instanceof CellError) return range
  const rangeCondition = condition(range, args[1])
  if (rangeCondition instanceof CellError) return rangeCondition
  let target: Area = range
  if (args.length > 2 && args[2] !== MISSING) {
    const given = toArea(args[2])
    if (given instanceof CellError) return given
    target = resize(given, range.height, range.width)
  }
  const total = new NumberAccumulator()
  scanMatches([rangeCondition], target, total.add)
  return total.error ?? total
}

/**
 * SUMIFS, AVERAGEIFS, MINIFS and MAXIFS: the numbers of the target where every criteria holds, from
 * `target, range1, criteria1, [range2, criteria2]...` with every range the target's size.
 */
export function totalIfs(args: readonly Arg[]): NumberAccumulator | CellError {
  if (args.length % 2 === 0) return CellError.VALUE
  const target = toArea(args[0])
  if (target instanceof CellError) return target
  const conditions = readConditions(args, 1, target)
  if (conditions instanceof CellError) return conditions
  const total = new NumberAccumulator()
  scanMatches(conditions, target, total.add)
  return total.error ?? total
}

export const SUMIF: FunctionDefinition = {
  name: 'SUMIF',
  category: 'math',
  minArgs: 2,
  maxArgs: 3,
  args: ['any', 'scalarOrError', 'any'],
  syntax: 'SUMIF(range, criteria, [sum_range])',
  description: 'Adds the cells of sum_range (or range) whose cells in range meet the criteria.',
  example: 'SUMIF(A1:A10, ">5", B1:B10)',
  impl: (args) => {
    const total = totalIf(args)
    return total instanceof CellError ? total : numberResult(total.sum)
  },
}

export const SUMIFS: FunctionDefinition = {
  name: 'SUMIFS',
  category: 'math',
  minArgs: 3,
  maxArgs: 255,
  args: criteriaPairKinds(['any']),
  syntax: 'SUMIFS(sum_range, criteria_range1, criteria1, [criteria_range2, criteria2], ...)',
  description: 'Adds the cells of sum_range that meet every criteria.',
  example: 'SUMIFS(C1:C10, A1:A10, "East", B1:B10, ">100")',
  impl: (args) => {
    const total = totalIfs(args)
    return total instanceof CellError ? total : numberResult(total.sum)
  },
}

export const functions: readonly FunctionDefinition[] = [SUMIF, SUMIFS]
