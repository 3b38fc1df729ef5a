/**
 * Data validation as a worksheet part holds it (`<dataValidations>`), both ways. Written here rather
 * than through exceljs, whose writer leaves out the in-cell dropdown flag and reads number bounds
 * that are formulas (`$C$1`) as NaN. Excel's own quirk is kept: `showDropDown="1"` HIDES the arrow.
 * Excel 2010 writes lists whose source is on another sheet in the extension list
 * (`<x14:dataValidation>` with `<xm:f>` and `<xm:sqref>`); the reader takes both forms.
 */
import { DATA_VALIDATION_ERROR_STYLES, DATA_VALIDATION_OPERATORS, DATA_VALIDATION_TYPES, type DataValidationRule } from '@finsheet/contracts'
import { formatRange, tryParseRange } from '../model/a1.js'

/** The attributes and texts of one `<dataValidation>` element as a reader collects them. */
export interface DataValidationXml {
  attributes: Record<string, string>
  formula1?: string
  formula2?: string
  /** From `<xm:sqref>` of the extension form; the plain form has the `sqref` attribute. */
  sqref?: string
}

const isTrue = (value: string | undefined) => value === '1' || value === 'true'
const oneOf = <T extends string>(words: readonly T[], value: string | undefined): T | undefined => (words as readonly string[]).includes(value ?? '') ? (value as T) : undefined

/** A rule from a `<dataValidation>` element; undefined for one that applies to no range or is unreadable. */
export function ruleFromXml(element: DataValidationXml): DataValidationRule | undefined {
  const a = element.attributes
  const ranges = (element.sqref ?? a.sqref ?? '')
    .split(/\s+/)
    .flatMap((text) => {
      const range = tryParseRange(text)
      return range ? [formatRange(range)] : []
    })
  if (ranges.length === 0) return undefined
  const type = a.type === undefined ? 'none' : oneOf(DATA_VALIDATION_TYPES, a.type)
  if (!type) return undefined
  const rule: DataValidationRule = { ranges, type }
  if (type !== 'list' && type !== 'custom' && type !== 'none') rule.operator = oneOf(DATA_VALIDATION_OPERATORS, a.operator) ?? 'between'
  const formula1 = element.formula1?.trim()
  const formula2 = element.formula2?.trim()
  if (formula1) rule.formula1 = formula1
  if (formula2 && (rule.operator === 'between' || rule.operator === 'notBetween')) rule.formula2 = formula2
  if (isTrue(a.allowBlank)) rule.allowBlank = true
  if (type === 'list' && isTrue(a.showDropDown)) rule.showDropdown = false
  if (isTrue(a.showInputMessage)) rule.showInputMessage = true
  if (a.promptTitle) rule.inputTitle = a.promptTitle
  if (a.prompt) rule.inputMessage = a.prompt
  // Any value passes a rule of type none: whether it would alert says nothing.
  if (type !== 'none') rule.showErrorMessage = isTrue(a.showErrorMessage)
  const style = oneOf(DATA_VALIDATION_ERROR_STYLES, a.errorStyle)
  if (style && style !== 'stop') rule.errorStyle = style
  if (a.errorTitle) rule.errorTitle = a.errorTitle
  if (a.error) rule.errorMessage = a.error
  return rule
}

function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, '&#10;')
}

const element = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** A sheet's rules as its `<dataValidations>` element; '' when it has none. */
export function dataValidationsXml(rules: readonly DataValidationRule[] | undefined): string {
  if (!rules || rules.length === 0) return ''
  const items = rules.map((rule) => {
    const attributes: [string, string][] = []
    if (rule.type !== 'none') attributes.push(['type', rule.type])
    if (rule.operator && rule.operator !== 'between' && rule.type !== 'list' && rule.type !== 'custom' && rule.type !== 'none') attributes.push(['operator', rule.operator])
    if (rule.errorStyle && rule.errorStyle !== 'stop') attributes.push(['errorStyle', rule.errorStyle])
    if (rule.allowBlank) attributes.push(['allowBlank', '1'])
    if (rule.type === 'list' && rule.showDropdown === false) attributes.push(['showDropDown', '1'])
    if (rule.showInputMessage) attributes.push(['showInputMessage', '1'])
    // Excel shows the alert unless told not to; a rule that never said keeps it on.
    if (rule.showErrorMessage !== false && rule.type !== 'none') attributes.push(['showErrorMessage', '1'])
    if (rule.errorTitle) attributes.push(['errorTitle', rule.errorTitle])
    if (rule.errorMessage) attributes.push(['error', rule.errorMessage])
    if (rule.inputTitle) attributes.push(['promptTitle', rule.inputTitle])
    if (rule.inputMessage) attributes.push(['prompt', rule.inputMessage])
    attributes.push(['sqref', rule.ranges.join(' ')])
    const formulas = [rule.formula1, rule.formula2].flatMap((formula, index) => (formula === undefined || formula === '' ? [] : [`<formula${index + 1}>${element(formula)}</formula${index + 1}>`]))
    return `<dataValidation${attributes.map(([name, value]) => ` ${name}="${attribute(value)}"`).join('')}>${formulas.join('')}</dataValidation>`
  })
  return `<dataValidations count="${items.length}">${items.join('')}</dataValidations>`
}

/** What follows `<dataValidations>` in a worksheet part: it goes before the first of these that is there. */
const AFTER_VALIDATIONS = ['<hyperlinks', '<printOptions', '<pageMargins', '<pageSetup', '<headerFooter', '<rowBreaks', '<colBreaks', '<customProperties', '<cellWatches', '<ignoredErrors', '<smartTags', '<drawing', '<legacyDrawing', '<picture', '<oleObjects', '<controls', '<webPublishItems', '<tableParts', '<extLst', '</worksheet>']

/** A worksheet part with the rules written at their place (any the part held before are replaced). */
export function withDataValidations(xml: string, rules: readonly DataValidationRule[] | undefined): string {
  const part = dataValidationsXml(rules)
  const cleared = xml.replace(/<dataValidations\b[^>]*\/>|<dataValidations\b[\s\S]*?<\/dataValidations>/, '')
  if (part === '') return cleared
  const at = AFTER_VALIDATIONS.map((tag) => cleared.indexOf(tag)).filter((index) => index >= 0)
  const index = at.length > 0 ? Math.min(...at) : cleared.length
  return cleared.slice(0, index) + part + cleared.slice(index)
}
