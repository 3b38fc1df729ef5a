/**
 * Conditional formats evaluated against a sheet's calculated values, by the engine, as Excel does:
 * rules in priority order, the first rule to set a property wins it, a matching rule with stopIfTrue
 * ends the list for that cell. Formulas (a formula rule's test, a cell-value rule's operands, a
 * threshold's formula) are compiled once per rule for the top-left cell of its first range and
 * calculated at each cell with their relative references moved along. What a rule needs from its
 * whole range (the lowest and highest values, the average, the top N, the duplicates) is read once
 * per evaluator: make a new evaluator after each recalculation.
 */
import { compareScalars, formatAddress, isCellError, toText, type CellValue, type Engine, type RelativeFormula } from '@finsheet/formula'
import type { ConditionalFormatRule, ConditionalStyle, ConditionalThreshold } from '@finsheet/contracts'
import { ruleAnchor, ruleRanges } from './conditional-formats.js'
import type { RangeAddress } from './a1.js'

/** How conditional formats change a cell's look; absent fields leave the cell's own. */
export interface ConditionalLook {
  /** The differential format of the rules that matched, merged by priority. */
  style?: ConditionalStyle
  /** A colour scale's fill (a `#rrggbb` colour), drawn unless a matching rule's own fill wins. */
  scaleFill?: string
  /** A data bar: its length as a fraction of the cell's width (0 to 1), and its colour. */
  bar?: { fraction: number; color: string }
  /** An icon set's icon: the set's name and the icon's place in it (0 is the lowest values' icon). */
  icon?: { set: string; index: number; count: number }
  /** Icon sets and data bars may hide the value. */
  hideValue?: boolean
}

/** Cells of a range read for its statistics: a whole-column range stops at the sheet's last used row. */
const MAX_STATISTIC_CELLS = 1_000_000

type Numeric = { values: number[]; sorted: number[] }

interface CompiledRule {
  rule: ConditionalFormatRule
  ranges: RangeAddress[]
  formulas: RelativeFormula[]
  /** Computed the first time a cell of the rule is asked for. */
  numeric?: Numeric
  counts?: Map<string, number>
  stops?: number[]
}

function rangeHas(range: RangeAddress, row: number, col: number): boolean {
  return row >= range.top && row <= range.bottom && col >= range.left && col <= range.right
}

function isTrue(value: CellValue): boolean {
  if (typeof value === 'boolean') return value
  if (typeof value === 'number') return value !== 0
  return false
}

function scalar(value: CellValue): Exclude<CellValue, object> | undefined {
  return isCellError(value) ? undefined : (value as Exclude<CellValue, object>)
}

/** Excel's PERCENTILE.INC over sorted numbers. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0
  const k = Math.min(1, Math.max(0, p)) * (sorted.length - 1)
  const low = Math.floor(k)
  const high = Math.min(sorted.length - 1, low + 1)
  return sorted[low] + (sorted[high] - sorted[low]) * (k - low)
}

function parseColour(text: string): [number, number, number] | undefined {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.trim())
  if (!hex) return undefined
  const digits = hex[1].length === 3 ? [...hex[1]].map((d) => d + d).join('') : hex[1]
  return [0, 2, 4].map((i) => Number.parseInt(digits.slice(i, i + 2), 16)) as [number, number, number]
}

const hex2 = (n: number) => Math.round(Math.min(255, Math.max(0, n))).toString(16).padStart(2, '0')

/** The colour a fraction `t` of the way from `a` to `b`. */
export function mixColours(a: string, b: string, t: number): string {
  const from = parseColour(a)
  const to = parseColour(b)
  if (!from || !to) return t < 0.5 ? a : b
  return `#${[0, 1, 2].map((i) => hex2(from[i] + (to[i] - from[i]) * t)).join('')}`
}

/** Merges a lower-priority rule's format under what higher ones set. */
function under(style: ConditionalStyle | undefined, lower: ConditionalStyle | undefined): ConditionalStyle | undefined {
  if (!lower) return style
  return { ...lower, ...style }
}

export class ConditionalFormatEvaluator {
  private readonly compiled: CompiledRule[]
  private readonly lastRow: number
  private readonly lastCol: number

  /**
   * `rules` are the sheet's, in priority order. Whole rows or columns are read only as far as the
   * sheet's used area.
   */
  constructor(
    private readonly engine: Engine,
    private readonly sheet: string,
    rules: readonly ConditionalFormatRule[],
  ) {
    const used = engine.getUsedRange(sheet)
    this.lastRow = used?.bottom ?? 0
    this.lastCol = used?.right ?? 0
    this.compiled = rules.map((rule) => {
      const anchor = ruleAnchor(rule)
      const address = formatAddress(anchor.row, anchor.col)
      return { rule, ranges: ruleRanges(rule), formulas: (rule.formulas ?? []).map((formula) => engine.compileRelativeFormula(sheet, address, formula)) }
    })
  }

  /** Whether any rule covers the cell: a cheap test before `lookAt`. */
  covers(row: number, col: number): boolean {
    return this.compiled.some((entry) => entry.ranges.some((range) => rangeHas(range, row, col)))
  }

  /** How the rules change the look of the cell at 0-based `row`, `col`; undefined when none applies. */
  lookAt(row: number, col: number): ConditionalLook | undefined {
    let look: ConditionalLook | undefined
    for (const entry of this.compiled) {
      if (!entry.ranges.some((range) => rangeHas(range, row, col))) continue
      const value = this.engine.getValueAt(this.sheet, row, col)
      const matched = this.apply(entry, value, row, col, (change) => {
        look ??= {}
        if (change.style) look.style = under(look.style, change.style)
        if (change.scaleFill && look.scaleFill === undefined) look.scaleFill = change.scaleFill
        if (change.bar && look.bar === undefined) look.bar = change.bar
        if (change.icon && look.icon === undefined) look.icon = change.icon
        if (change.hideValue) look.hideValue = true
      })
      if (matched && entry.rule.stopIfTrue) break
    }
    return look
  }

  /** Applies one rule to a cell; returns whether it matched. */
  private apply(entry: CompiledRule, value: CellValue, row: number, col: number, add: (look: ConditionalLook) => void): boolean {
    const { rule } = entry
    const styled = () => {
      if (rule.style) add({ style: rule.style })
      return true
    }
    switch (rule.type) {
      case 'cellIs':
        return this.cellIs(entry, value, row, col) && styled()
      case 'expression':
        return entry.formulas.length > 0 && isTrue(entry.formulas[0].at(row, col)) && styled()
      case 'containsText':
        return this.containsText(rule, value) && styled()
      case 'top10':
        return this.inTop(entry, value) && styled()
      case 'aboveAverage':
        return this.beyondAverage(entry, value) && styled()
      case 'duplicateValues':
      case 'uniqueValues': {
        const key = this.valueKey(value)
        if (key === undefined) return false
        const count = this.counts(entry).get(key) ?? 0
        return (rule.type === 'duplicateValues' ? count > 1 : count === 1) && styled()
      }
      case 'colorScale': {
        if (typeof value !== 'number') return false
        const stops = this.stops(entry)
        const colours = rule.colors ?? []
        if (stops.length < 2 || colours.length !== stops.length) return false
        add({ scaleFill: scaleColour(value, stops, colours) })
        return true
      }
      case 'dataBar': {
        if (typeof value !== 'number') return false
        const [low, high] = this.stops(entry)
        const fraction = high > low ? (value - low) / (high - low) : value >= high ? 1 : 0
        add({ bar: { fraction: Math.min(1, Math.max(0, fraction)), color: rule.colors?.[0] ?? '#638EC6' }, ...(rule.hideValue ? { hideValue: true } : {}) })
        return true
      }
      case 'iconSet': {
        if (typeof value !== 'number') return false
        const stops = this.stops(entry)
        let index = 0
        for (let i = 1; i < stops.length; i++) if (value >= stops[i]) index = i
        const count = stops.length
        add({ icon: { set: rule.iconSet ?? '3TrafficLights1', index: rule.reverse ? count - 1 - index : index, count }, ...(rule.hideValue ? { hideValue: true } : {}) })
        return true
      }
      default:
        return false
    }
  }

  private cellIs(entry: CompiledRule, value: CellValue, row: number, col: number): boolean {
    const cell = scalar(value)
    if (cell === undefined) return false
    const operands = entry.formulas.map((formula) => scalar(formula.at(row, col)))
    if (operands.some((operand) => operand === undefined)) return false
    const order = (operand: Exclude<CellValue, object>) => compareScalars(cell, operand as never)
    const [a, b] = operands as Exclude<CellValue, object>[]
    switch (entry.rule.operator) {
      case 'greaterThan':
        return order(a) > 0
      case 'lessThan':
        return order(a) < 0
      case 'greaterThanOrEqual':
        return order(a) >= 0
      case 'lessThanOrEqual':
        return order(a) <= 0
      case 'equal':
        return order(a) === 0
      case 'notEqual':
        return order(a) !== 0
      case 'between':
      case 'notBetween': {
        if (b === undefined) return false
        const [low, high] = compareScalars(a as never, b as never) <= 0 ? [a, b] : [b, a]
        const inside = order(low) >= 0 && order(high) <= 0
        return entry.rule.operator === 'between' ? inside : !inside
      }
      default:
        return false
    }
  }

  private containsText(rule: ConditionalFormatRule, value: CellValue): boolean {
    const cell = scalar(value)
    if (cell === undefined) return rule.operator === 'notContains'
    const text = String(cell === null ? '' : toText(cell)).toLowerCase()
    const wanted = (rule.text ?? '').toLowerCase()
    switch (rule.operator ?? 'containsText') {
      case 'notContains':
        return !text.includes(wanted)
      case 'beginsWith':
        return text.startsWith(wanted)
      case 'endsWith':
        return text.endsWith(wanted)
      default:
        return text.includes(wanted)
    }
  }

  private inTop(entry: CompiledRule, value: CellValue): boolean {
    if (typeof value !== 'number') return false
    const { sorted } = this.numeric(entry)
    if (sorted.length === 0) return false
    const rank = entry.rule.rank ?? 10
    const count = entry.rule.percent ? Math.max(1, Math.floor((sorted.length * rank) / 100)) : Math.min(rank, sorted.length)
    return entry.rule.bottom ? value <= sorted[count - 1] : value >= sorted[sorted.length - count]
  }

  private beyondAverage(entry: CompiledRule, value: CellValue): boolean {
    if (typeof value !== 'number') return false
    const { values } = this.numeric(entry)
    if (values.length === 0) return false
    const mean = values.reduce((sum, v) => sum + v, 0) / values.length
    const deviations = entry.rule.stdDev ?? 0
    const spread = deviations > 0 ? Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length) * deviations : 0
    const equal = entry.rule.equalAverage === true
    if (entry.rule.below) return equal ? value <= mean - spread : value < mean - spread
    return equal ? value >= mean + spread : value > mean + spread
  }

  /** Each value of the rule's ranges, read once. */
  private eachValue(entry: CompiledRule, visit: (value: CellValue) => void): void {
    let read = 0
    for (const range of entry.ranges) {
      const bottom = Math.min(range.bottom, this.lastRow)
      const right = Math.min(range.right, this.lastCol)
      for (let row = range.top; row <= bottom; row++) {
        for (let col = range.left; col <= right; col++) {
          if (++read > MAX_STATISTIC_CELLS) return
          visit(this.engine.getValueAt(this.sheet, row, col))
        }
      }
    }
  }

  private numeric(entry: CompiledRule): Numeric {
    if (!entry.numeric) {
      const values: number[] = []
      this.eachValue(entry, (value) => {
        if (typeof value === 'number') values.push(value)
      })
      entry.numeric = { values, sorted: [...values].sort((a, b) => a - b) }
    }
    return entry.numeric
  }

  private valueKey(value: CellValue): string | undefined {
    const cell = scalar(value)
    if (cell === undefined || cell === null || cell === '') return undefined
    return typeof cell === 'string' ? `t${cell.toLowerCase()}` : `${typeof cell}${String(cell)}`
  }

  private counts(entry: CompiledRule): Map<string, number> {
    if (!entry.counts) {
      const counts = new Map<string, number>()
      this.eachValue(entry, (value) => {
        const key = this.valueKey(value)
        if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1)
      })
      entry.counts = counts
    }
    return entry.counts
  }

  /** The numbers a scale's, bar's or icon set's thresholds stand for over the rule's range. */
  private stops(entry: CompiledRule): number[] {
    if (!entry.stops) {
      const { sorted } = this.numeric(entry)
      const min = sorted[0] ?? 0
      const max = sorted[sorted.length - 1] ?? 0
      const anchor = ruleAnchor(entry.rule)
      const resolve = (threshold: ConditionalThreshold): number => {
        const number = Number(threshold.value)
        switch (threshold.kind) {
          case 'min':
            return min
          case 'max':
            return max
          case 'num':
            return Number.isFinite(number) ? number : 0
          case 'percent':
            return min + ((max - min) * (Number.isFinite(number) ? number : 0)) / 100
          case 'percentile':
            return percentile(sorted, (Number.isFinite(number) ? number : 0) / 100)
          case 'formula': {
            const result = this.engine.compileRelativeFormula(this.sheet, formatAddress(anchor.row, anchor.col), threshold.value ?? '0').at(anchor.row, anchor.col)
            return typeof result === 'number' ? result : 0
          }
        }
      }
      entry.stops = (entry.rule.thresholds ?? []).map(resolve)
    }
    return entry.stops
  }
}

/** A value's colour on a 2- or 3-colour scale with stops at `stops`. */
export function scaleColour(value: number, stops: readonly number[], colours: readonly string[]): string {
  if (value <= stops[0]) return mixColours(colours[0], colours[0], 0)
  for (let i = 1; i < stops.length; i++) {
    if (value <= stops[i]) {
      const span = stops[i] - stops[i - 1]
      return mixColours(colours[i - 1], colours[i], span > 0 ? (value - stops[i - 1]) / span : 1)
    }
  }
  const last = colours[colours.length - 1]
  return mixColours(last, last, 0)
}
