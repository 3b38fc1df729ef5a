/**
 * Whether what a user types into a cell passes the cell's data-validation rule, judged as Excel
 * judges it: with the engine, the rule's formulas moved from the rule's anchor to the cell, a list
 * from a range read through MATCH (case-insensitive, exact), a custom formula calculated with the
 * typed value in place of the cell.
 */
import type { DataValidationErrorStyle, DataValidationRule } from '@finsheet/contracts'
import { FormulaSyntaxError, isCellError, numberToText, parseCellInput, parseFormulaText, printFormulaTree, toNumber, translateFormula, type FormulaNode, type Scalar } from '@finsheet/formula'
import { parseAddress } from './a1.js'
import { anchorOf, isTypedList, typedListItems } from './data-validation.js'

/** Excel's refusal when a rule gives no message of its own. */
export const VALIDATION_DEFAULT_ERROR = "This value doesn't match the data validation restrictions defined for this cell."
/** The alert's title when a rule gives none. */
export const VALIDATION_DEFAULT_TITLE = 'Finsheet'
/** A dropdown lists at most this many items of a range. */
export const MAX_LIST_ITEMS = 1000

export interface ValidationContext {
  /** A formula (starting with `=`) calculated as if written at `address` on the rule's sheet. */
  evaluate(formula: string, address: string): Scalar
}

export type ValidationJudgement =
  | { valid: true }
  /** `alert` is null when the rule shows no error alert: Excel then writes the value without a word. */
  | { valid: false; alert: { style: DataValidationErrorStyle; title: string; message: string } | null }

/** A rule's formula as written for `address`. */
function formulaAt(rule: DataValidationRule, formula: string, address: string): string {
  const text = formula.startsWith('=') ? formula : `=${formula}`
  try {
    return translateFormula(text, anchorOf(rule), address)
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return text
    throw error
  }
}

/** A value as a formula literal. */
function literal(value: Exclude<Scalar, null>): string {
  if (typeof value === 'number') return numberToText(value)
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE'
  if (isCellError(value)) return value.code
  return `"${value.replace(/"/g, '""')}"`
}

function literalNode(value: Exclude<Scalar, null>): FormulaNode {
  if (typeof value === 'number') return value < 0 ? { type: 'unary', operator: '-', operand: { type: 'number', value: -value } } : { type: 'number', value }
  if (typeof value === 'boolean') return { type: 'boolean', value }
  if (isCellError(value)) return { type: 'error', code: value.code }
  return { type: 'string', value }
}

/** A formula tree with every plain reference to the cell (row, col) of its own sheet replaced by `value`. */
function withValue(node: FormulaNode, row: number, col: number, value: Exclude<Scalar, null>): FormulaNode {
  const walk = (current: FormulaNode): FormulaNode => {
    switch (current.type) {
      case 'cell': {
        if (current.sheet !== undefined) return current
        const refRow = current.ref.rowAbsolute ? current.ref.row : row + current.ref.row
        const refCol = current.ref.colAbsolute ? current.ref.col : col + current.ref.col
        return refRow === row && refCol === col ? literalNode(value) : current
      }
      case 'call':
        return { ...current, args: current.args.map(walk) }
      case 'unary':
      case 'percent':
      case 'spill':
        return current.type === 'spill' ? current : { ...current, operand: walk(current.operand) }
      case 'binary':
        return { ...current, left: walk(current.left), right: walk(current.right) }
      case 'union':
        return { ...current, items: current.items.map(walk) }
      case 'array':
        return { ...current, rows: current.rows.map((cells) => cells.map(walk)) }
      case 'group':
        return { ...current, expression: walk(current.expression) }
      default:
        return current
    }
  }
  return walk(node)
}

function compare(value: number, rule: DataValidationRule, first: number, second: number): boolean {
  switch (rule.operator ?? 'between') {
    case 'between':
      return value >= Math.min(first, second) && value <= Math.max(first, second)
    case 'notBetween':
      return value < Math.min(first, second) || value > Math.max(first, second)
    case 'equal':
      return value === first
    case 'notEqual':
      return value !== first
    case 'greaterThan':
      return value > first
    case 'lessThan':
      return value < first
    case 'greaterThanOrEqual':
      return value >= first
    case 'lessThanOrEqual':
      return value <= first
  }
}

const textOf = (value: Exclude<Scalar, null>): string => (typeof value === 'string' ? value : literal(value).replace(/^"|"$/g, ''))

/** Whether a value passes a rule (blank handled by the caller). */
function passes(rule: DataValidationRule, value: Exclude<Scalar, null>, address: string, context: ValidationContext): boolean {
  const { row, col } = parseAddress(address)
  const formula1 = rule.formula1 ?? ''
  switch (rule.type) {
    case 'none':
      return true
    case 'list': {
      if (isTypedList(formula1)) {
        const text = textOf(value).toUpperCase()
        return typedListItems(formula1).some((item) => item.toUpperCase() === text || (typeof value === 'number' && Number(item) === value))
      }
      // MATCH with 0 is exact and case-insensitive; ~ keeps typed wildcards literal.
      const sought = typeof value === 'string' ? literal(value.replace(/[~*?]/g, (mark) => `~${mark}`)) : literal(value)
      const source = formulaAt(rule, formula1, address).slice(1)
      return context.evaluate(`=ISNUMBER(MATCH(${sought},${source},0))`, address) === true
    }
    case 'custom': {
      try {
        const tree = withValue(parseFormulaText(formulaAt(rule, formula1, address), address), row, col, value)
        const result = context.evaluate(printFormulaTree(tree, address), address)
        if (isCellError(result) || result === null) return false
        return typeof result === 'string' ? false : Boolean(result)
      } catch (error) {
        if (error instanceof FormulaSyntaxError) return false
        throw error
      }
    }
    default: {
      let measured: number
      if (rule.type === 'textLength') measured = textOf(value).length
      else if (typeof value !== 'number') return false
      else if (rule.type === 'whole' && !Number.isInteger(value)) return false
      else measured = value
      const bound = (formula: string | undefined): number | undefined => {
        if (formula === undefined || formula === '') return undefined
        const result = toNumber(context.evaluate(formulaAt(rule, formula, address), address))
        return isCellError(result) ? undefined : result
      }
      const first = bound(rule.formula1)
      const twoValues = (rule.operator ?? 'between') === 'between' || rule.operator === 'notBetween'
      const second = twoValues ? bound(rule.formula2) : 0
      if (first === undefined || second === undefined) return false
      return compare(measured!, rule, first, second)
    }
  }
}

/**
 * Judges `input` (as typed: text, a number, a formula) for the cell at `address` under `rule`. A
 * formula is judged by its result.
 */
export function judgeValidation(rule: DataValidationRule, address: string, input: string, context: ValidationContext): ValidationJudgement {
  if (rule.type === 'none') return { valid: true }
  const parsed = parseCellInput(input)
  let value: Scalar
  if (parsed.kind === 'empty') value = null
  else if (parsed.kind === 'formula') value = context.evaluate(parsed.text, address)
  else value = parsed.value
  const valid = value === null || value === '' ? rule.allowBlank === true : passes(rule, value, address, context)
  if (valid) return { valid: true }
  if (rule.showErrorMessage === false) return { valid: false, alert: null }
  return {
    valid: false,
    alert: {
      style: rule.errorStyle ?? 'stop',
      title: rule.errorTitle?.trim() ? rule.errorTitle : VALIDATION_DEFAULT_TITLE,
      message: rule.errorMessage?.trim() ? rule.errorMessage : VALIDATION_DEFAULT_ERROR,
    },
  }
}

/** The items a list rule offers in the cell at `address`: a typed list's, or the values of its range (blanks left out). */
export function listSourceItems(rule: DataValidationRule, address: string, context: ValidationContext): string[] {
  const formula1 = rule.formula1 ?? ''
  if (rule.type !== 'list' || formula1 === '') return []
  if (isTypedList(formula1)) return typedListItems(formula1)
  const source = formulaAt(rule, formula1, address).slice(1)
  const rows = toNumber(context.evaluate(`=ROWS(${source})`, address))
  const columns = toNumber(context.evaluate(`=COLUMNS(${source})`, address))
  if (isCellError(rows) || isCellError(columns)) return []
  const items: string[] = []
  for (let r = 1; r <= rows && items.length < MAX_LIST_ITEMS; r++) {
    for (let c = 1; c <= columns && items.length < MAX_LIST_ITEMS; c++) {
      const value = context.evaluate(`=INDEX(${source},${r},${c})`, address)
      if (value === null || value === '' || isCellError(value)) continue
      items.push(textOf(value))
    }
  }
  return items
}
