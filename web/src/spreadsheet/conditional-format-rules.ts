/**
 * The Conditional formatting dialog's rules, framework-free: what the form holds, the rule it makes
 * (checked as the workbook checks it, so a bad formula is refused with a message before anything is
 * written), Excel's format presets, how a rule reads in the list, and the command that adds, edits,
 * deletes or moves one (one undoable `set-conditional-formats`).
 */
import type { ConditionalFormatRule, ConditionalStyle, WorkbookCommand } from '@finsheet/contracts'
import { checkRule } from '@finsheet/workbook/model'

/** What the form offers, as Excel's Highlight Cells Rules, Color Scales and Data Bars menus do. */
export const RULE_KINDS = [
  { id: 'greaterThan', label: 'Cell value is greater than' },
  { id: 'lessThan', label: 'Cell value is less than' },
  { id: 'between', label: 'Cell value is between' },
  { id: 'equal', label: 'Cell value is equal to' },
  { id: 'containsText', label: 'Text contains' },
  { id: 'expression', label: 'Custom formula is' },
  { id: 'colorScale', label: 'Colour scale' },
  { id: 'dataBar', label: 'Data bar' },
] as const
export type RuleKind = (typeof RULE_KINDS)[number]['id']

/** Excel's preset formats for highlight rules. */
export const FORMAT_PRESETS: { id: string; label: string; style: ConditionalStyle }[] = [
  { id: 'light-red', label: 'Light red fill with dark red text', style: { fill: '#FFC7CE', color: '#9C0006' } },
  { id: 'yellow', label: 'Yellow fill with dark yellow text', style: { fill: '#FFEB9C', color: '#9C5700' } },
  { id: 'green', label: 'Green fill with dark green text', style: { fill: '#C6EFCE', color: '#006100' } },
  { id: 'red-fill', label: 'Light red fill', style: { fill: '#FFC7CE' } },
  { id: 'red-text', label: 'Red text', style: { color: '#9C0006' } },
  { id: 'bold', label: 'Bold text', style: { bold: true } },
]

/** Excel's colour scale presets, lowest values' colour first. */
export const SCALE_PRESETS: { id: string; label: string; colors: string[] }[] = [
  { id: 'green-yellow-red', label: 'Green – yellow – red', colors: ['#63BE7B', '#FFEB84', '#F8696B'] },
  { id: 'red-yellow-green', label: 'Red – yellow – green', colors: ['#F8696B', '#FFEB84', '#63BE7B'] },
  { id: 'white-green', label: 'White – green', colors: ['#FFFFFF', '#63BE7B'] },
  { id: 'white-red', label: 'White – red', colors: ['#FFFFFF', '#F8696B'] },
]

export const BAR_PRESETS: { id: string; label: string; color: string }[] = [
  { id: 'blue', label: 'Blue', color: '#638EC6' },
  { id: 'green', label: 'Green', color: '#63C384' },
  { id: 'red', label: 'Red', color: '#FF555A' },
  { id: 'orange', label: 'Orange', color: '#FFB628' },
]

export interface RuleForm {
  kind: RuleKind
  /** the ranges the rule covers, as typed: 'B2:B10' or 'B2:B10, D2:D10' */
  ranges: string
  /** the value, formula or text; the second value of between */
  first: string
  second: string
  preset: string
  stopIfTrue: boolean
}

export function emptyForm(ranges: string): RuleForm {
  return { kind: 'greaterThan', ranges, first: '', second: '', preset: FORMAT_PRESETS[0].id, stopIfTrue: false }
}

/** A value as a rule's operand: a formula loses its '=', text that is not a number becomes a quoted string. */
function operand(text: string): string {
  const value = text.trim()
  if (value.startsWith('=')) return value.slice(1)
  if (value !== '' && Number.isFinite(Number(value))) return value
  if (/^(TRUE|FALSE)$/i.test(value)) return value.toUpperCase()
  return `"${value.replace(/"/g, '""')}"`
}

/** The rule the form describes, or why it cannot be one. */
export function ruleFromForm(form: RuleForm): { rule: ConditionalFormatRule } | { problem: string } {
  const ranges = form.ranges
    .split(/[,;]/)
    .map((text) => text.trim().replace(/\$/g, '').toUpperCase())
    .filter((text) => text !== '')
  if (ranges.length === 0) return { problem: 'Say which cells the rule applies to, such as B2:B10' }
  const style = FORMAT_PRESETS.find((preset) => preset.id === form.preset)?.style ?? FORMAT_PRESETS[0].style
  const stop = form.stopIfTrue ? { stopIfTrue: true } : {}
  let rule: ConditionalFormatRule
  switch (form.kind) {
    case 'greaterThan':
    case 'lessThan':
    case 'equal':
      if (form.first.trim() === '') return { problem: 'Enter a value to compare with' }
      rule = { type: 'cellIs', ranges, operator: form.kind, formulas: [operand(form.first)], style, ...stop }
      break
    case 'between':
      if (form.first.trim() === '' || form.second.trim() === '') return { problem: 'Enter both values' }
      rule = { type: 'cellIs', ranges, operator: 'between', formulas: [operand(form.first), operand(form.second)], style, ...stop }
      break
    case 'containsText':
      if (form.first === '') return { problem: 'Enter the text to look for' }
      rule = { type: 'containsText', ranges, operator: 'containsText', text: form.first, style, ...stop }
      break
    case 'expression': {
      const formula = form.first.trim().replace(/^=/, '')
      if (formula === '') return { problem: 'Enter a formula, such as =B2>100' }
      rule = { type: 'expression', ranges, formulas: [formula], style, ...stop }
      break
    }
    case 'colorScale': {
      const colors = (SCALE_PRESETS.find((preset) => preset.id === form.preset) ?? SCALE_PRESETS[0]).colors
      const thresholds: ConditionalFormatRule['thresholds'] =
        colors.length === 3 ? [{ kind: 'min' }, { kind: 'percentile', value: '50' }, { kind: 'max' }] : [{ kind: 'min' }, { kind: 'max' }]
      rule = { type: 'colorScale', ranges, thresholds, colors: [...colors] }
      break
    }
    case 'dataBar': {
      const color = (BAR_PRESETS.find((preset) => preset.id === form.preset) ?? BAR_PRESETS[0]).color
      rule = { type: 'dataBar', ranges, thresholds: [{ kind: 'min' }, { kind: 'max' }], colors: [color] }
      break
    }
  }
  try {
    checkRule(rule)
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) }
  }
  return { rule }
}

const unquote = (formula: string) => (/^".*"$/.test(formula) ? formula.slice(1, -1).replace(/""/g, '"') : formula.startsWith('"') ? formula : /^-?[\d.]+(E[+-]?\d+)?$/i.test(formula) || /^(TRUE|FALSE)$/i.test(formula) ? formula : `=${formula}`)

/** The form for editing a rule; null for kinds the form does not offer (they can still be deleted and moved). */
export function formFromRule(rule: ConditionalFormatRule): RuleForm | null {
  const ranges = rule.ranges.join(', ')
  const preset = FORMAT_PRESETS.find((candidate) => JSON.stringify(candidate.style) === JSON.stringify(rule.style))?.id ?? FORMAT_PRESETS[0].id
  const base = { ranges, second: '', preset, stopIfTrue: rule.stopIfTrue === true }
  if (rule.type === 'cellIs' && (rule.operator === 'greaterThan' || rule.operator === 'lessThan' || rule.operator === 'equal' || rule.operator === 'between')) {
    return { ...base, kind: rule.operator, first: unquote(rule.formulas?.[0] ?? ''), second: unquote(rule.formulas?.[1] ?? '') }
  }
  if (rule.type === 'containsText' && (rule.operator ?? 'containsText') === 'containsText') return { ...base, kind: 'containsText', first: rule.text ?? '' }
  if (rule.type === 'expression') return { ...base, kind: 'expression', first: `=${rule.formulas?.[0] ?? ''}` }
  if (rule.type === 'colorScale') {
    const scale = SCALE_PRESETS.find((candidate) => JSON.stringify(candidate.colors) === JSON.stringify(rule.colors))
    return { ...base, kind: 'colorScale', first: '', preset: scale?.id ?? SCALE_PRESETS[0].id }
  }
  if (rule.type === 'dataBar') {
    const bar = BAR_PRESETS.find((candidate) => candidate.color === rule.colors?.[0])
    return { ...base, kind: 'dataBar', first: '', preset: bar?.id ?? BAR_PRESETS[0].id }
  }
  return null
}

const OPERATOR_WORDS: Record<string, string> = {
  greaterThan: '>',
  lessThan: '<',
  greaterThanOrEqual: '≥',
  lessThanOrEqual: '≤',
  equal: '=',
  notEqual: '≠',
}

/** How a rule reads in the list: 'Cell value > 100', 'Colour scale', 'Formula: =$B2>0'. */
export function describeRule(rule: ConditionalFormatRule): string {
  const [a, b] = (rule.formulas ?? []).map(unquote)
  switch (rule.type) {
    case 'cellIs':
      if (rule.operator === 'between' || rule.operator === 'notBetween') return `Cell value ${rule.operator === 'between' ? 'between' : 'not between'} ${a} and ${b}`
      return `Cell value ${OPERATOR_WORDS[rule.operator ?? ''] ?? rule.operator} ${a}`
    case 'expression':
      return `Formula: =${rule.formulas?.[0] ?? ''}`
    case 'containsText': {
      const words = { containsText: 'contains', notContains: 'does not contain', beginsWith: 'begins with', endsWith: 'ends with' } as Record<string, string>
      return `Text ${words[rule.operator ?? 'containsText'] ?? 'contains'} "${rule.text ?? ''}"`
    }
    case 'top10':
      return `${rule.bottom ? 'Bottom' : 'Top'} ${rule.rank ?? 10}${rule.percent ? '%' : ''}`
    case 'aboveAverage':
      return `${rule.below ? 'Below' : 'Above'} average`
    case 'duplicateValues':
      return 'Duplicate values'
    case 'uniqueValues':
      return 'Unique values'
    case 'colorScale':
      return `${rule.colors?.length ?? 2}-colour scale`
    case 'dataBar':
      return 'Data bar'
    case 'iconSet':
      return `Icon set ${rule.iconSet ?? ''}`
  }
}

/** The command that puts a rule in place `index` (a new rule goes first: it applies above the others, as in Excel). */
export function withRule(sheet: string, rules: readonly ConditionalFormatRule[], rule: ConditionalFormatRule, index?: number): WorkbookCommand {
  const next = [...rules]
  if (index === undefined) next.unshift(rule)
  else next[index] = rule
  return { type: 'set-conditional-formats', sheet, rules: next }
}

export function withoutRule(sheet: string, rules: readonly ConditionalFormatRule[], index: number): WorkbookCommand {
  return { type: 'set-conditional-formats', sheet, rules: rules.filter((_, i) => i !== index) }
}

/** Moves a rule up (-1, to a higher priority) or down (+1); null when it is already at that end. */
export function movedRule(sheet: string, rules: readonly ConditionalFormatRule[], index: number, by: -1 | 1): WorkbookCommand | null {
  const to = index + by
  if (to < 0 || to >= rules.length) return null
  const next = [...rules]
  ;[next[index], next[to]] = [next[to], next[index]]
  return { type: 'set-conditional-formats', sheet, rules: next }
}
