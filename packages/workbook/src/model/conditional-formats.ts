/**
 * A sheet's conditional-format rules, as Excel keeps them: an ordered list (the first has the highest
 * priority), each covering ranges of the sheet. The `set-conditional-formats` command replaces the
 * list, so adding, editing, deleting and reordering rules each undo by putting the old list back.
 * Ranges follow rows and columns inserted and deleted, and so do the references of rules' formulas.
 */
import { FormulaSyntaxError, formatAddress, parseFormulaText, renameSheetInFormula, shiftFormula, translateFormula } from '@finsheet/formula'
import { MAX_CONDITIONAL_FORMATS, type ConditionalFormatRule, type ConditionalThreshold } from '@finsheet/contracts'
import { formatRange, moveRange, tryParseRange, type RangeAddress, type StructuralEdit } from './a1.js'
import { commandErrors } from './command-checks.js'

export type { ConditionalFormatRule, ConditionalThreshold }

const COMPARISONS = new Set(['greaterThan', 'lessThan', 'greaterThanOrEqual', 'lessThanOrEqual', 'equal', 'notEqual', 'between', 'notBetween'])
const TEXT_MATCHES = new Set(['containsText', 'notContains', 'beginsWith', 'endsWith'])
const TWO_OPERANDS = new Set(['between', 'notBetween'])

/** The cell every relative reference of a rule's formulas is written for: the top-left cell of its first range. */
export function ruleAnchor(rule: Pick<ConditionalFormatRule, 'ranges'>): { row: number; col: number } {
  const first = tryParseRange(rule.ranges[0] ?? 'A1')
  return first ? { row: first.top, col: first.left } : { row: 0, col: 0 }
}

/** Why a formula of a rule cannot be read, or null when it can. */
export function conditionFormulaProblem(formula: string, anchor = 'A1'): string | null {
  try {
    parseFormulaText(formula.startsWith('=') ? formula : `=${formula}`, anchor)
    return null
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return error.message
    throw error
  }
}

function checkThresholds(thresholds: readonly ConditionalThreshold[] | undefined, count: [number, number], what: string, anchor: string): void {
  if (!thresholds || thresholds.length < count[0] || thresholds.length > count[1]) {
    throw commandErrors.invalidCommand(`A ${what} needs ${count[0] === count[1] ? count[0] : `${count[0]} to ${count[1]}`} thresholds`)
  }
  for (const threshold of thresholds) {
    if (threshold.kind === 'min' || threshold.kind === 'max') continue
    const value = threshold.value ?? ''
    if (threshold.kind === 'formula') {
      const problem = value === '' ? 'it is empty' : conditionFormulaProblem(value, anchor)
      if (problem) throw commandErrors.invalidCommand(`The ${what}'s formula ${value} cannot be read: ${problem}`)
    } else if (value.trim() === '' || !Number.isFinite(Number(value))) {
      throw commandErrors.invalidCommand(`The ${what}'s ${threshold.kind} threshold must be a number`)
    }
  }
}

/** Refuses a rule that cannot be evaluated: ranges off the sheet, missing operands, formulas that do not parse. */
export function checkRule(rule: ConditionalFormatRule): void {
  if (rule.ranges.length === 0) throw commandErrors.invalidCommand('A conditional format needs a range')
  for (const text of rule.ranges) if (!tryParseRange(text)) throw commandErrors.invalidRange(text)
  const anchorPosition = ruleAnchor(rule)
  const anchor = formatAddress(anchorPosition.row, anchorPosition.col)
  const formulas = rule.formulas ?? []
  for (const formula of formulas) {
    const problem = conditionFormulaProblem(formula, anchor)
    if (problem) throw commandErrors.invalidCommand(`The formula ${formula} cannot be read: ${problem}`)
  }
  switch (rule.type) {
    case 'cellIs': {
      if (!rule.operator || !COMPARISONS.has(rule.operator)) throw commandErrors.invalidCommand('A cell value rule needs a comparison such as greaterThan')
      const needed = TWO_OPERANDS.has(rule.operator) ? 2 : 1
      if (formulas.length !== needed) throw commandErrors.invalidCommand(`A ${rule.operator} rule needs ${needed === 1 ? 'one value' : 'two values'}`)
      return
    }
    case 'expression':
      if (formulas.length !== 1) throw commandErrors.invalidCommand('A formula rule needs one formula')
      return
    case 'containsText':
      if (rule.operator !== undefined && !TEXT_MATCHES.has(rule.operator)) throw commandErrors.invalidCommand(`A text rule cannot compare by ${rule.operator}`)
      if (!rule.text) throw commandErrors.invalidCommand('A text rule needs the text to look for')
      return
    case 'colorScale':
      checkThresholds(rule.thresholds, [2, 3], 'colour scale', anchor)
      if (rule.colors?.length !== rule.thresholds!.length) throw commandErrors.invalidCommand('A colour scale needs one colour per threshold')
      return
    case 'dataBar':
      checkThresholds(rule.thresholds, [2, 2], 'data bar', anchor)
      if (rule.colors?.length !== 1) throw commandErrors.invalidCommand('A data bar needs one colour')
      return
    case 'iconSet': {
      const icons = Number.parseInt(rule.iconSet ?? '', 10)
      if (!(icons >= 3 && icons <= 5)) throw commandErrors.invalidCommand('An icon set needs a set of 3, 4 or 5 icons')
      checkThresholds(rule.thresholds, [icons, icons], 'icon set', anchor)
      return
    }
    default:
      return
  }
}

/** Checks a sheet's new list of rules; refuses more than a sheet may hold. */
export function checkRules(rules: readonly ConditionalFormatRule[]): void {
  if (rules.length > MAX_CONDITIONAL_FORMATS) throw commandErrors.invalidCommand(`A sheet can have at most ${MAX_CONDITIONAL_FORMATS} conditional formats`)
  for (const rule of rules) checkRule(rule)
}

/** A deep copy, or undefined for an empty list, so that a sheet without rules stores none. */
export function copyRules(rules: readonly ConditionalFormatRule[] | undefined): ConditionalFormatRule[] | undefined {
  if (!rules || rules.length === 0) return undefined
  return rules.map((rule) => structuredClone(rule))
}

/** The formula written for `from`, rewritten for `to` after the edit (references follow the rows and columns moved). */
function movedFormula(formula: string, sheetName: string, from: { row: number; col: number }, to: { row: number; col: number }, edit: StructuralEdit): string {
  const text = formula.startsWith('=') ? formula : `=${formula}`
  const change = { axis: edit.axis, kind: edit.kind, index: edit.at, count: edit.count }
  try {
    // The anchor itself may be deleted: first write the formula for the cell that becomes the new anchor.
    const back = originalPosition(to, edit)
    const moving = back.row === from.row && back.col === from.col ? text : translateFormula(text, formatAddress(from.row, from.col), formatAddress(back.row, back.col))
    const shifted = shiftFormula(moving, sheetName, formatAddress(back.row, back.col), sheetName, change)
    return shifted ? shifted.formula.slice(1) : formula
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return formula
    throw error
  }
}

/** Where a cell stood before the edit (a cell the insertion made stands where the first moved one stood). */
function originalPosition(at: { row: number; col: number }, edit: StructuralEdit): { row: number; col: number } {
  const index = edit.axis === 'rows' ? at.row : at.col
  const before = edit.kind === 'delete' ? (index >= edit.at ? index + edit.count : index) : index >= edit.at + edit.count ? index - edit.count : Math.min(index, edit.at)
  return edit.axis === 'rows' ? { row: before, col: at.col } : { row: at.row, col: before }
}

/**
 * The rules of sheet `sheetName` after rows or columns of it were inserted or deleted: ranges widen,
 * narrow or move as merges do, a rule whose every range was deleted goes, and formulas are rewritten
 * for the new top-left cell.
 */
export function movedRules(rules: readonly ConditionalFormatRule[] | undefined, edit: StructuralEdit, sheetName: string): ConditionalFormatRule[] | undefined {
  if (!rules || rules.length === 0) return undefined
  const moved = rules.flatMap((rule) => {
    const ranges = rule.ranges.flatMap((text) => {
      const range = tryParseRange(text)
      const next = range && moveRange(range, edit)
      return next ? [next] : []
    })
    if (ranges.length === 0) return []
    const from = ruleAnchor(rule)
    const to = { row: ranges[0].top, col: ranges[0].left }
    const next: ConditionalFormatRule = { ...structuredClone(rule), ranges: ranges.map(formatRange) }
    const reanchor = (formula: string) => movedFormula(formula, sheetName, from, to, edit)
    if (rule.formulas) next.formulas = rule.formulas.map(reanchor)
    if (rule.thresholds) next.thresholds = rule.thresholds.map((threshold) => (threshold.kind === 'formula' && threshold.value ? { ...threshold, value: reanchor(threshold.value) } : { ...threshold }))
    return [next]
  })
  return moved.length > 0 ? moved : undefined
}

/** The rules with their formulas' references to sheet `from` naming it `to`; the same list when none mentions it. */
export function renamedRules(rules: ConditionalFormatRule[], from: string, to: string): ConditionalFormatRule[] {
  const needle = from.toUpperCase()
  if (!rules.some((rule) => JSON.stringify([rule.formulas, rule.thresholds]).toUpperCase().includes(needle))) return rules
  return rules.map((rule) => {
    const anchor = ruleAnchor(rule)
    const address = formatAddress(anchor.row, anchor.col)
    const rename = (formula: string) => {
      try {
        return renameSheetInFormula(`=${formula.replace(/^=/, '')}`, address, from, to).slice(1)
      } catch (error) {
        if (error instanceof FormulaSyntaxError) return formula
        throw error
      }
    }
    const next: ConditionalFormatRule = structuredClone(rule)
    if (next.formulas) next.formulas = next.formulas.map(rename)
    if (next.thresholds) next.thresholds = next.thresholds.map((threshold) => (threshold.kind === 'formula' && threshold.value ? { ...threshold, value: rename(threshold.value) } : threshold))
    return next
  })
}

/**
 * Rules after a cut and paste moved the block `from` by (`rows`, `cols`), as Excel carries conditional
 * formats with cut cells: a rule whose every range lies in the block goes with it (to the target
 * sheet); on one sheet, the ranges of other rules that lie in the block move and the rest stay. Its
 * formulas are written for its new top-left cell as a copied rule's are: relative references shift
 * with it, absolute ones stay. Undefined when nothing moved.
 */
export function rulesMovedWithBlock(
  sourceRules: readonly ConditionalFormatRule[] | undefined,
  from: RangeAddress,
  rows: number,
  cols: number,
  sameSheet: boolean,
): { source: ConditionalFormatRule[]; moved: ConditionalFormatRule[] } | undefined {
  if (!sourceRules || sourceRules.length === 0) return undefined
  const within = (range: RangeAddress) => range.top >= from.top && range.bottom <= from.bottom && range.left >= from.left && range.right <= from.right
  const shifted = (range: RangeAddress): RangeAddress => ({ top: range.top + rows, bottom: range.bottom + rows, left: range.left + cols, right: range.right + cols })
  const source: ConditionalFormatRule[] = []
  const moved: ConditionalFormatRule[] = []
  let changed = false
  for (const rule of sourceRules) {
    const ranges = ruleRanges(rule)
    const inside = ranges.map(within)
    if (!inside.some(Boolean)) {
      source.push(rule)
      continue
    }
    const whole = inside.every(Boolean)
    if (!whole && !sameSheet) {
      source.push(rule)
      continue
    }
    changed = true
    const nextRanges = ranges.map((range, i) => (inside[i] ? shifted(range) : range))
    const from0 = ruleAnchor(rule)
    const to0 = { row: nextRanges[0].top, col: nextRanges[0].left }
    const reanchor = (formula: string) => {
      if (from0.row === to0.row && from0.col === to0.col) return formula
      try {
        return translateFormula(`=${formula.replace(/^=/, '')}`, formatAddress(from0.row, from0.col), formatAddress(to0.row, to0.col)).slice(1)
      } catch (error) {
        if (error instanceof FormulaSyntaxError) return formula
        throw error
      }
    }
    const next: ConditionalFormatRule = { ...structuredClone(rule), ranges: nextRanges.map(formatRange) }
    if (next.formulas) next.formulas = next.formulas.map(reanchor)
    if (next.thresholds) next.thresholds = next.thresholds.map((threshold) => (threshold.kind === 'formula' && threshold.value ? { ...threshold, value: reanchor(threshold.value) } : threshold))
    if (sameSheet) source.push(next)
    else moved.push(next)
  }
  return changed ? { source, moved } : undefined
}

/** Whether two lists of rules are the same. */
export function sameRules(a: readonly ConditionalFormatRule[] | undefined, b: readonly ConditionalFormatRule[] | undefined): boolean {
  return JSON.stringify(a ?? []) === JSON.stringify(b ?? [])
}

/** The parsed ranges of a rule, skipping any that do not parse. */
export function ruleRanges(rule: Pick<ConditionalFormatRule, 'ranges'>): RangeAddress[] {
  return rule.ranges.flatMap((text) => tryParseRange(text) ?? [])
}

