import type { DataValidationErrorStyle, DataValidationOperator, DataValidationRule, WorkbookCommand } from '@finsheet/contracts'
import { FormulaSyntaxError, numberToText, parseCellInput, translateFormula } from '@finsheet/formula'
import { criteriaProblem, isTypedList, judgeValidation, listSourceItems, typedListFormula, typedListItems, validationAt, type ValidationJudgement } from '@finsheet/workbook/model'
import type { DefinedNameRecord } from '@finsheet/workbook/model'
import type { CellPosition, CellRange } from '../grid/address'
import { cellAddress, rangeAddress } from '../grid/address'
import type { WorkbookStore } from '../workbook/workbook-store'
import { parseGoToReference } from './goto'

/**
 * Data validation on the grid, as Excel has it: the rule of a cell, what typing into it is judged to
 * be (with the engine of the open workbook), the items of its dropdown, and the Data validation
 * dialog's form read into a rule and back.
 */

/** The rule of a cell, if it has one. */
export function ruleAt(store: WorkbookStore, sheet: string, pos: CellPosition): DataValidationRule | undefined {
  return validationAt(store.sheet(sheet)?.record.validations, pos.row, pos.col)
}

const contextOf = (store: WorkbookStore, sheet: string) => ({ evaluate: (formula: string, address: string) => store.evaluate(sheet, formula, address).value })

/** What writing `input` into a cell is judged to be under the cell's rule (valid when it has none). */
export function judgeInput(store: WorkbookStore, sheet: string, pos: CellPosition, input: string): ValidationJudgement {
  const rule = ruleAt(store, sheet, pos)
  return rule ? judgeValidation(rule, cellAddress(pos), input, contextOf(store, sheet)) : { valid: true }
}

/** The items of a cell's dropdown: a list rule that shows its arrow; null for any other cell. */
export function dropdownItems(store: WorkbookStore, sheet: string, pos: CellPosition): string[] | null {
  const rule = ruleAt(store, sheet, pos)
  if (!rule || rule.type !== 'list' || rule.showDropdown === false) return null
  return listSourceItems(rule, cellAddress(pos), contextOf(store, sheet))
}

/** The input message shown beside a selected cell, if its rule has one to show. */
export function inputMessageAt(store: WorkbookStore, sheet: string, pos: CellPosition): { title: string; message: string } | null {
  const rule = ruleAt(store, sheet, pos)
  if (!rule?.showInputMessage || (!rule.inputTitle && !rule.inputMessage)) return null
  return { title: rule.inputTitle ?? '', message: rule.inputMessage ?? '' }
}

// ---- the dialog's form ------------------------------------------------------------------------------

/** The dialog's "Allow" choices: a list splits into typed items and a range. */
export const ALLOW_CHOICES = [
  ['none', 'Any value'],
  ['list-items', 'List of items'],
  ['list-range', 'List from a range'],
  ['whole', 'Whole number'],
  ['decimal', 'Decimal'],
  ['date', 'Date'],
  ['time', 'Time'],
  ['textLength', 'Text length'],
  ['custom', 'Custom formula'],
] as const
export type AllowChoice = (typeof ALLOW_CHOICES)[number][0]

export const OPERATOR_CHOICES: readonly (readonly [DataValidationOperator, string])[] = [
  ['between', 'between'],
  ['notBetween', 'not between'],
  ['equal', 'equal to'],
  ['notEqual', 'not equal to'],
  ['greaterThan', 'greater than'],
  ['lessThan', 'less than'],
  ['greaterThanOrEqual', 'greater than or equal to'],
  ['lessThanOrEqual', 'less than or equal to'],
]

export const ERROR_STYLE_CHOICES: readonly (readonly [DataValidationErrorStyle, string])[] = [
  ['stop', 'Stop'],
  ['warning', 'Warning'],
  ['information', 'Information'],
]

export interface ValidationForm {
  allow: AllowChoice
  operator: DataValidationOperator
  /** the minimum (or the one value) and the maximum of a comparison */
  value1: string
  value2: string
  /** a list's items, separated by commas */
  items: string
  /** a list's range or name ('$A$1:$A$5', 'Lists!A1:A9', 'Regions') */
  source: string
  /** a custom formula, with or without '=' */
  formula: string
  allowBlank: boolean
  showDropdown: boolean
  showInputMessage: boolean
  inputTitle: string
  inputMessage: string
  showErrorMessage: boolean
  errorStyle: DataValidationErrorStyle
  errorTitle: string
  errorMessage: string
}

const TWO_VALUES = new Set<DataValidationOperator>(['between', 'notBetween'])
export const needsTwoValues = (operator: DataValidationOperator) => TWO_VALUES.has(operator)

/** A formula of a rule as the dialog shows it for the active cell. */
function shown(formula: string | undefined, from: string, to: string): string {
  if (!formula) return ''
  if (from === to) return formula
  try {
    return translateFormula(`=${formula}`, from, to).slice(1)
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return formula
    throw error
  }
}

/** The form as the dialog opens it: the active cell's rule, or a new list (Excel's defaults otherwise). */
export function formFromRule(rule: DataValidationRule | undefined, active: CellPosition): ValidationForm {
  const anchor = rule ? rule.ranges[0].split(':')[0] : cellAddress(active)
  const at = cellAddress(active)
  const typed = rule?.type === 'list' && isTypedList(rule.formula1 ?? '')
  const allow: AllowChoice = !rule ? 'list-items' : rule.type === 'list' ? (typed ? 'list-items' : 'list-range') : rule.type
  return {
    allow,
    operator: rule?.operator ?? 'between',
    value1: allow === 'custom' || rule?.type === 'list' ? '' : shown(rule?.formula1, anchor, at),
    value2: shown(rule?.formula2, anchor, at),
    items: typed ? typedListItems(rule!.formula1!).join(', ') : '',
    source: allow === 'list-range' ? shown(rule?.formula1, anchor, at) : '',
    formula: allow === 'custom' ? `=${shown(rule?.formula1, anchor, at)}` : '',
    allowBlank: rule ? rule.allowBlank === true : true,
    showDropdown: rule?.showDropdown !== false,
    showInputMessage: rule ? rule.showInputMessage === true : true,
    inputTitle: rule?.inputTitle ?? '',
    inputMessage: rule?.inputMessage ?? '',
    showErrorMessage: rule?.showErrorMessage !== false,
    errorStyle: rule?.errorStyle ?? 'stop',
    errorTitle: rule?.errorTitle ?? '',
    errorMessage: rule?.errorMessage ?? '',
  }
}

/** A value of a comparison as a rule keeps it: a number or date typed becomes its number; anything else is a formula. */
function boundFormula(text: string): string {
  const parsed = parseCellInput(text.trim())
  if (parsed.kind === 'value' && typeof parsed.value === 'number') return numberToText(parsed.value)
  return text.trim().replace(/^=/, '')
}

export interface FormContext {
  sheetNames: readonly string[]
  definedNames: readonly DefinedNameRecord[]
  activeSheet: string
}

/** Excel's refusal of a list source it cannot read. */
export const LIST_SOURCE_ERROR = 'The list source must be a delimited list, or a reference to a single row or column.'

/**
 * The rule the form describes over `range`, its formulas written for the range's top-left cell (the
 * dialog shows and takes them for the active cell); or why the form cannot be a rule.
 */
export function ruleFromForm(form: ValidationForm, range: CellRange, active: CellPosition, context: FormContext): { rule: DataValidationRule } | { error: string } {
  const anchor = cellAddress({ col: range.startCol, row: range.startRow })
  const at = cellAddress(active)
  const toAnchor = (formula: string) => shown(formula, at, anchor)
  const rule: DataValidationRule = { ranges: [rangeAddress(range)], type: 'none' }
  switch (form.allow) {
    case 'none':
      break
    case 'list-items': {
      const items = form.items.split(',').map((item) => item.trim()).filter((item) => item !== '')
      if (items.length === 0) return { error: 'Enter the items of the list, separated by commas.' }
      rule.type = 'list'
      rule.formula1 = typedListFormula(items)
      break
    }
    case 'list-range': {
      const source = form.source.trim().replace(/^=/, '')
      const found = parseGoToReference(source, context.sheetNames, { defined: context.definedNames, activeSheet: context.activeSheet })
      if ('error' in found || (found.range.startRow !== found.range.endRow && found.range.startCol !== found.range.endCol)) return { error: LIST_SOURCE_ERROR }
      rule.type = 'list'
      rule.formula1 = toAnchor(source)
      break
    }
    case 'custom': {
      const formula = form.formula.trim().replace(/^=/, '')
      if (formula === '') return { error: 'Enter the formula that must be TRUE for a valid value.' }
      rule.type = 'custom'
      rule.formula1 = toAnchor(formula)
      break
    }
    default: {
      rule.type = form.allow
      rule.operator = form.operator
      if (form.value1.trim() === '') return { error: needsTwoValues(form.operator) ? 'Enter a minimum and a maximum.' : 'Enter a value to compare with.' }
      rule.formula1 = toAnchor(boundFormula(form.value1))
      if (needsTwoValues(form.operator)) {
        if (form.value2.trim() === '') return { error: 'Enter a minimum and a maximum.' }
        rule.formula2 = toAnchor(boundFormula(form.value2))
      }
    }
  }
  if (form.allowBlank) rule.allowBlank = true
  if (rule.type === 'list' && !form.showDropdown) rule.showDropdown = false
  if (form.showInputMessage) rule.showInputMessage = true
  if (form.inputTitle.trim()) rule.inputTitle = form.inputTitle.trim()
  if (form.inputMessage.trim()) rule.inputMessage = form.inputMessage
  rule.showErrorMessage = form.showErrorMessage
  if (form.errorStyle !== 'stop') rule.errorStyle = form.errorStyle
  if (form.errorTitle.trim()) rule.errorTitle = form.errorTitle.trim()
  if (form.errorMessage.trim()) rule.errorMessage = form.errorMessage
  const problem = criteriaProblem(rule)
  return problem ? { error: problem } : { rule }
}

/** The command that sets the rule over the range (or, without one, removes validation from it). */
export function validationCommand(sheet: string, range: CellRange, rule: DataValidationRule | null): WorkbookCommand {
  return { type: 'set-data-validation', sheet, clear: [rangeAddress(range)], rules: rule ? [rule] : [] }
}
