/**
 * Data-validation rules of a sheet, as Excel keeps them: each rule covers ranges, and a cell has at
 * most one rule. Setting validation on cells first takes those cells out of every rule (a rule left
 * with no cells goes), then adds the new rules; the inverse clears the same cells and puts back the
 * pieces the old rules had there. A rule's formulas are written for the top-left cell of its first
 * range, so whenever that cell changes they are moved as a copy would move them.
 */
import {
  DATA_VALIDATION_ERROR_STYLES,
  DATA_VALIDATION_OPERATORS,
  DATA_VALIDATION_TYPES,
  MAX_VALIDATION_ERROR_LENGTH,
  MAX_VALIDATION_INPUT_LENGTH,
  MAX_VALIDATION_LIST_LENGTH,
  MAX_VALIDATION_RANGES,
  MAX_VALIDATION_RULES,
  MAX_VALIDATION_TITLE_LENGTH,
  type DataValidationRule,
  type SetDataValidationCommand,
} from '@finsheet/contracts'
import { FormulaSyntaxError, parseFormulaText, renameSheetInFormula, shiftFormula, translateFormula } from '@finsheet/formula'
import { formatAddress, formatRange, MAX_COL, MAX_ROW, moveRange, rangesOverlap, tryParseRange, type RangeAddress, type StructuralEdit } from './a1.js'
import { commandErrors } from './command-checks.js'

export type { DataValidationRule }
type Rule = DataValidationRule
type Criteria = Omit<Rule, 'ranges'>

/** The operators that need a second value. */
const TWO_VALUES = new Set(['between', 'notBetween'])

/** A deep copy, undefined when there are no rules (a sheet without rules stores none). */
export function copyValidations(rules: readonly Rule[] | undefined): Rule[] | undefined {
  if (!rules || rules.length === 0) return undefined
  return rules.map((rule) => ({ ...rule, ranges: [...rule.ranges] }))
}

/** A formula's text as Excel keeps it in a rule: without the leading `=`. */
const bare = (formula: string) => (formula.startsWith('=') ? formula.slice(1) : formula)

/** The cell a rule's formulas are written for: the top-left cell of its first range. */
export function anchorOf(rule: Pick<Rule, 'ranges'>): string {
  const range = tryParseRange(rule.ranges[0])
  return range ? formatAddress(range.top, range.left) : 'A1'
}

/** Whether a list's source is a typed list (`"Low,High"`) rather than a range or a name. */
export const isTypedList = (formula: string) => bare(formula).trim().startsWith('"')

/** The items of a typed list: `"Low, High"` gives Low and High. */
export function typedListItems(formula: string): string[] {
  const text = bare(formula).trim()
  const inner = text.startsWith('"') && text.endsWith('"') && text.length >= 2 ? text.slice(1, -1).replace(/""/g, '"') : text
  return inner.split(',').map((item) => item.trim()).filter((item) => item !== '')
}

/** A typed list's source as Excel keeps it, from its items. */
export function typedListFormula(items: readonly string[]): string {
  return `"${items.map((item) => item.trim()).join(',').replace(/"/g, '""')}"`
}

/** Why a rule's criteria cannot be kept, or undefined when they can. */
export function criteriaProblem(rule: Criteria): string | undefined {
  if (!DATA_VALIDATION_TYPES.includes(rule.type)) return `There is no validation type ${String(rule.type)}`
  if (rule.operator !== undefined && !DATA_VALIDATION_OPERATORS.includes(rule.operator)) return `There is no validation operator ${String(rule.operator)}`
  if (rule.errorStyle !== undefined && !DATA_VALIDATION_ERROR_STYLES.includes(rule.errorStyle)) return `There is no error alert style ${String(rule.errorStyle)}`
  if ((rule.inputTitle?.length ?? 0) > MAX_VALIDATION_TITLE_LENGTH || (rule.errorTitle?.length ?? 0) > MAX_VALIDATION_TITLE_LENGTH) {
    return `A title can have at most ${MAX_VALIDATION_TITLE_LENGTH} characters`
  }
  if ((rule.inputMessage?.length ?? 0) > MAX_VALIDATION_INPUT_LENGTH) return `An input message can have at most ${MAX_VALIDATION_INPUT_LENGTH} characters`
  if ((rule.errorMessage?.length ?? 0) > MAX_VALIDATION_ERROR_LENGTH) return `An error message can have at most ${MAX_VALIDATION_ERROR_LENGTH} characters`
  if (rule.type === 'none') return undefined
  const first = rule.formula1?.trim() ?? ''
  if (first === '' || first === '=') return rule.type === 'list' ? 'A list needs a source: items separated by commas, a range or a name' : 'The rule needs a value or formula'
  if (rule.type === 'list' && isTypedList(first)) {
    if (typedListItems(first).length === 0) return 'A list needs at least one item'
    if (bare(first).length > MAX_VALIDATION_LIST_LENGTH) return `A typed list can have at most ${MAX_VALIDATION_LIST_LENGTH} characters`
  }
  const needsSecond = rule.type !== 'list' && rule.type !== 'custom' && TWO_VALUES.has(rule.operator ?? 'between')
  if (needsSecond && (rule.formula2?.trim() ?? '') === '') return 'The rule needs a maximum as well as a minimum'
  for (const formula of needsSecond ? [first, rule.formula2!] : [first]) {
    try {
      parseFormulaText(`=${bare(formula)}`)
    } catch (error) {
      if (error instanceof FormulaSyntaxError) return `There's a problem with this formula: ${bare(formula)}`
      throw error
    }
  }
  return undefined
}

function parsedRanges(texts: readonly string[]): RangeAddress[] {
  return texts.map((text) => {
    const range = tryParseRange(text)
    if (!range || range.bottom > MAX_ROW || range.right > MAX_COL) throw commandErrors.invalidCommand(`${text} is not a range of this sheet`)
    return range
  })
}

/** A rule's criteria in the order the contract lists them, without fields that say nothing. */
function criteriaOf(rule: Rule): Criteria {
  const { ranges: _ranges, ...criteria } = rule
  const out: Criteria = { type: criteria.type }
  for (const [key, value] of Object.entries(criteria) as [keyof Criteria, unknown][]) {
    if (value === undefined || key === 'type') continue
    ;(out as Record<string, unknown>)[key] = key === 'formula1' || key === 'formula2' ? bare(String(value)) : value
  }
  if (out.type === 'none') {
    delete out.formula1
    delete out.formula2
  }
  if (out.type === 'list' || out.type === 'custom' || out.type === 'none') delete out.formula2
  if (out.type === 'list' || out.type === 'custom' || out.type === 'none') delete out.operator
  else if (!TWO_VALUES.has(out.operator ?? 'between')) delete out.formula2
  return out
}

/** The criteria with formulas moved from one anchor cell to another, as a copy moves them. */
function reanchored(criteria: Criteria, from: string, to: string): Criteria {
  if (from === to) return criteria
  const moved = { ...criteria }
  for (const key of ['formula1', 'formula2'] as const) {
    const formula = moved[key]
    // A typed list holds no references, and reprinting it would only risk its text.
    if (formula === undefined || (criteria.type === 'list' && isTypedList(formula))) continue
    try {
      moved[key] = bare(translateFormula(`=${formula}`, from, to))
    } catch (error) {
      if (!(error instanceof FormulaSyntaxError)) throw error
    }
  }
  return moved
}

/** The parts of `range` outside `cut`: at most four rectangles (above, below, left, right). */
function subtract(range: RangeAddress, cut: RangeAddress): RangeAddress[] {
  if (!rangesOverlap(range, cut)) return [range]
  const pieces: RangeAddress[] = []
  if (range.top < cut.top) pieces.push({ ...range, bottom: cut.top - 1 })
  if (range.bottom > cut.bottom) pieces.push({ ...range, top: cut.bottom + 1 })
  const top = Math.max(range.top, cut.top)
  const bottom = Math.min(range.bottom, cut.bottom)
  if (range.left < cut.left) pieces.push({ top, bottom, left: range.left, right: cut.left - 1 })
  if (range.right > cut.right) pieces.push({ top, bottom, left: cut.right + 1, right: range.right })
  return pieces
}

function intersection(a: RangeAddress, b: RangeAddress): RangeAddress | undefined {
  if (!rangesOverlap(a, b)) return undefined
  return { top: Math.max(a.top, b.top), bottom: Math.min(a.bottom, b.bottom), left: Math.max(a.left, b.left), right: Math.min(a.right, b.right) }
}

/** A rule over new ranges, its formulas moved to the new anchor; undefined when no range is left. */
function withRanges(rule: Rule, ranges: readonly RangeAddress[]): Rule | undefined {
  if (ranges.length === 0) return undefined
  const texts = ranges.map((range) => formatRange(range))
  const criteria = reanchored(criteriaOf(rule), anchorOf(rule), anchorOf({ ranges: texts }))
  return { ranges: texts, ...criteria }
}

/**
 * Applies a set-data-validation command to a sheet's rules. Returns the rules after it and the
 * command (without `type` and `sheet`) that undoes it.
 */
export function applyDataValidation(
  rules: readonly Rule[] | undefined,
  command: Pick<SetDataValidationCommand, 'clear' | 'rules'>,
): { rules: Rule[] | undefined; undo: Pick<SetDataValidationCommand, 'clear' | 'rules'> } {
  const added = command.rules.map((rule) => {
    const problem = criteriaProblem(rule)
    if (problem) throw commandErrors.invalidCommand(problem)
    if (rule.ranges.length === 0) throw commandErrors.invalidCommand('A validation rule needs at least one range')
    return withRanges(rule, parsedRanges(rule.ranges))!
  })
  const cleared = [...parsedRanges(command.clear), ...added.flatMap((rule) => parsedRanges(rule.ranges))]
  const kept: Rule[] = []
  const restores: Rule[] = []
  for (const rule of rules ?? []) {
    const ranges = parsedRanges(rule.ranges)
    const remaining = ranges.flatMap((range) => cleared.reduce((pieces, cut) => pieces.flatMap((piece) => subtract(piece, cut)), [range]))
    // Each cleared cell once: a part inside several cleared ranges is taken by the first.
    const taken = ranges.flatMap((range) =>
      cleared.flatMap((cut, index) => {
        const part = intersection(range, cut)
        return part ? cleared.slice(0, index).reduce((pieces, earlier) => pieces.flatMap((piece) => subtract(piece, earlier)), [part]) : []
      }),
    )
    if (taken.length === 0) {
      kept.push(rule)
      continue
    }
    const left = withRanges(rule, remaining)
    if (left) kept.push(left)
    restores.push(withRanges(rule, taken)!)
  }
  const next = [...kept, ...added]
  if (next.length > MAX_VALIDATION_RULES) throw commandErrors.invalidCommand(`A sheet can have at most ${MAX_VALIDATION_RULES} validation rules`)
  if (next.some((rule) => rule.ranges.length > MAX_VALIDATION_RANGES)) throw commandErrors.invalidCommand(`A validation rule can cover at most ${MAX_VALIDATION_RANGES} ranges`)
  return { rules: copyValidations(next), undo: { clear: cleared.map((range) => formatRange(range)), rules: restores } }
}

/** The rule that applies to a cell, if any. */
export function validationAt(rules: readonly Rule[] | undefined, row: number, col: number): Rule | undefined {
  if (!rules) return undefined
  return rules.find((rule) =>
    rule.ranges.some((text) => {
      const range = tryParseRange(text)
      return range !== undefined && row >= range.top && row <= range.bottom && col >= range.left && col <= range.right
    }),
  )
}

/** The engine names the first row or column of an edit `index`. */
const engineChange = (edit: StructuralEdit) => ({ axis: edit.axis, kind: edit.kind, index: edit.at, count: edit.count })

/** Where an index after the edit was before it (undefined for an inserted one). */
function indexBefore(index: number, edit: StructuralEdit): number | undefined {
  if (edit.kind === 'delete') return index >= edit.at ? index + edit.count : index
  if (index < edit.at) return index
  return index >= edit.at + edit.count ? index - edit.count : undefined
}

function shiftedFormula(formula: string, sheetName: string, address: string, editedSheet: string, edit: StructuralEdit): string {
  try {
    const moved = shiftFormula(`=${formula}`, sheetName, address, editedSheet, engineChange(edit))
    return moved ? bare(moved.formula) : formula
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return formula
    throw error
  }
}

/**
 * A sheet's rules after rows or columns of `editedSheet` were inserted or deleted: on that sheet their
 * ranges move (a rule whose cells are all deleted goes), and on every sheet the references in their
 * formulas follow, as the engine moves its own formulas.
 */
export function movedValidations(rules: readonly Rule[] | undefined, sheetName: string, editedSheet: string, edit: StructuralEdit): Rule[] | undefined {
  if (!rules || rules.length === 0) return undefined
  const onSheet = sheetName.toUpperCase() === editedSheet.toUpperCase()
  const moved = rules.flatMap((rule): Rule[] => {
    const criteria = criteriaOf(rule)
    const anchor = anchorOf(rule)
    const ranges = onSheet ? parsedRanges(rule.ranges).flatMap((range) => moveRange(range, edit) ?? []) : parsedRanges(rule.ranges)
    if (ranges.length === 0) return []
    const texts = ranges.map((range) => formatRange(range))
    // The new anchor's place before the edit: formulas are moved there first, then over the edit.
    const newAnchor = tryParseRange(texts[0])!
    let from = anchor
    if (onSheet) {
      const row = edit.axis === 'rows' ? indexBefore(newAnchor.top, edit) : newAnchor.top
      const col = edit.axis === 'columns' ? indexBefore(newAnchor.left, edit) : newAnchor.left
      if (row !== undefined && col !== undefined) from = formatAddress(row, col)
    }
    const base = reanchored(criteria, anchor, from)
    const next: Criteria = { ...base }
    for (const key of ['formula1', 'formula2'] as const) {
      const formula = base[key]
      if (formula === undefined || (base.type === 'list' && isTypedList(formula))) continue
      next[key] = shiftedFormula(formula, sheetName, from, editedSheet, edit)
    }
    return [{ ranges: texts, ...next }]
  })
  return copyValidations(moved)
}

/** A sheet's rules after the sheet `from` was renamed `to`: their formulas name the new sheet. */
export function renamedValidations(rules: readonly Rule[] | undefined, from: string, to: string): Rule[] | undefined {
  if (!rules || rules.length === 0) return undefined
  return rules.map((rule) => {
    const next: Rule = { ...rule, ranges: [...rule.ranges] }
    const anchor = anchorOf(rule)
    for (const key of ['formula1', 'formula2'] as const) {
      const formula = rule[key]
      if (formula === undefined || (rule.type === 'list' && isTypedList(formula))) continue
      try {
        next[key] = bare(renameSheetInFormula(`=${formula}`, anchor, from, to))
      } catch (error) {
        if (!(error instanceof FormulaSyntaxError)) throw error
      }
    }
    return next
  })
}

/** Whether two sheets' rules are the same, so that an edit which did not change them adds nothing to its inverse. */
export function sameValidations(a: readonly Rule[] | undefined, b: readonly Rule[] | undefined): boolean {
  return JSON.stringify(a ?? []) === JSON.stringify(b ?? [])
}

/** The whole sheet, for commands that replace every rule. */
export const WHOLE_SHEET = formatRange({ top: 0, left: 0, bottom: MAX_ROW, right: MAX_COL })
