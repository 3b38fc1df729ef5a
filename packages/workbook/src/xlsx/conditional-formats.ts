/**
 * Conditional formats in xlsx files: read from a sheet part's `<conditionalFormatting>` elements with
 * their differential formats (`<dxfs>` of the styles part), and written through exceljs's
 * `addConditionalFormatting`. exceljs leaves out what it does not model (stopIfTrue, duplicate and
 * unique values, a text rule's text, percent top N as Excel words it); those are stated on its
 * `<cfRule>` elements once the file is written, found by their priority.
 */
import type { ConditionalFormatRule, ConditionalStyle, ConditionalThreshold } from '@finsheet/contracts'
import type ExcelJS from 'exceljs'
import { storedFormula } from '../export/formula-storage.js'
import { normalizeFormula } from './formula-text.js'
import { createXmlParser, localName, resolveColor } from './xlsx-styles.js'

type ColorAttributes = Record<string, string>

function colourOf(a: ColorAttributes, themeColors: string[]): string | undefined {
  return resolveColor(
    {
      rgb: a.rgb,
      theme: a.theme !== undefined ? Number(a.theme) : undefined,
      indexed: a.indexed !== undefined ? Number(a.indexed) : undefined,
      tint: a.tint !== undefined ? Number(a.tint) : undefined,
      auto: a.auto === '1' || a.auto === 'true',
    },
    themeColors,
  )
}

const isOn = (a: Record<string, string>) => a.val === undefined || (a.val !== '0' && a.val !== 'false')

/** The differential formats (`<dxfs>`) of a styles part, by index, as conditional formats lay them over cells. */
export function readDifferentialFormats(stylesXml: string | undefined, themeColors: string[]): ConditionalStyle[] {
  if (!stylesXml || !stylesXml.includes('<dxfs')) return []
  const formats: ConditionalStyle[] = []
  const numFmts = new Map<number, string>()
  const parser = createXmlParser()
  const stack: string[] = []
  let dxf: ConditionalStyle | null = null
  let fill: { pattern?: string; fg?: string; bg?: string } | null = null
  parser.on('opentag', (tag) => {
    const name = localName(tag.name)
    const a = tag.attributes as Record<string, string>
    const parent = stack[stack.length - 1]
    stack.push(name)
    if (name === 'dxf') dxf = {}
    if (!dxf) return
    const current: ConditionalStyle = dxf
    switch (name) {
      case 'b':
        current.bold = isOn(a)
        return
      case 'i':
        current.italic = isOn(a)
        return
      case 'strike':
        current.strike = isOn(a)
        return
      case 'u':
        current.underline = a.val !== 'none'
        return
      case 'color': {
        const colour = parent === 'font' ? colourOf(a, themeColors) : undefined
        if (colour) current.color = colour
        return
      }
      case 'numFmt':
        if (a.formatCode !== undefined) current.format = a.formatCode
        else if (a.numFmtId !== undefined && numFmts.has(Number(a.numFmtId))) current.format = numFmts.get(Number(a.numFmtId))
        return
      case 'patternFill':
        fill = { pattern: a.patternType }
        return
      case 'fgColor':
        if (fill) fill.fg = colourOf(a, themeColors)
        return
      case 'bgColor':
        if (fill) fill.bg = colourOf(a, themeColors)
        return
    }
  })
  parser.on('closetag', (tag) => {
    const name = localName(tag.name)
    stack.pop()
    if (name === 'patternFill' && fill && dxf) {
      // A differential fill's colour is its background colour, unless the pattern says otherwise.
      const colour = fill.pattern && fill.pattern !== 'solid' && fill.pattern !== 'none' ? (fill.fg ?? fill.bg) : (fill.bg ?? fill.fg)
      if (colour && fill.pattern !== 'none') dxf.fill = colour
      fill = null
    } else if (name === 'dxf' && dxf) {
      formats.push(dxf)
      dxf = null
    }
  })
  parser.write(stylesXml).close()
  return formats
}

const KNOWN_TYPES = new Set(['cellIs', 'expression', 'containsText', 'notContainsText', 'beginsWith', 'endsWith', 'top10', 'aboveAverage', 'duplicateValues', 'uniqueValues', 'colorScale', 'dataBar', 'iconSet'])
const THRESHOLD_KINDS = new Set(['min', 'max', 'num', 'percent', 'percentile', 'formula'])
const COMPARISONS = new Set(['greaterThan', 'lessThan', 'greaterThanOrEqual', 'lessThanOrEqual', 'equal', 'notEqual', 'between', 'notBetween'])

interface RuleInProgress {
  attributes: Record<string, string>
  formulas: string[]
  thresholds: ConditionalThreshold[]
  colors: string[]
}

/**
 * Collects a sheet part's conditional formats as its SAX events pass: `open`, `text` and `close`
 * answer whether the event was one of theirs. Rules of the x14 extension list (Excel 2010's
 * duplicates of data bars and icon sets) are left aside: the main rule carries what is kept.
 */
export class ConditionalFormatCollector {
  private readonly found: { priority: number; order: number; rule: ConditionalFormatRule }[] = []
  private ranges: string[] | null = null
  private rule: RuleInProgress | null = null
  private extensionDepth = 0
  private collecting = false
  private formulaText = ''
  /** Rules read but not kept, because their kind is not one Finsheet evaluates (time periods, blanks, errors). */
  skipped = 0

  constructor(
    private readonly formats: readonly ConditionalStyle[],
    private readonly themeColors: string[],
  ) {}

  open(name: string, a: Record<string, string>): boolean {
    if (name === 'extLst') {
      this.extensionDepth++
      return true
    }
    if (this.extensionDepth > 0) return true
    switch (name) {
      case 'conditionalFormatting':
        this.ranges = (a.sqref ?? '').split(/\s+/).filter((text) => text !== '')
        return true
      case 'cfRule':
        if (this.ranges) this.rule = { attributes: a, formulas: [], thresholds: [], colors: [] }
        return true
      case 'formula':
        if (!this.rule) return false
        this.collecting = true
        this.formulaText = ''
        return true
      case 'cfvo':
        if (!this.rule) return false
        if (THRESHOLD_KINDS.has(a.type)) this.rule.thresholds.push({ kind: a.type as ConditionalThreshold['kind'], ...(a.val !== undefined ? { value: normalizeFormula(a.val) } : {}) })
        else this.rule.thresholds.push({ kind: 'min' })
        return true
      case 'color': {
        if (!this.rule) return false
        const colour = colourOf(a, this.themeColors)
        this.rule.colors.push(colour ?? '#638EC6')
        return true
      }
      case 'colorScale':
      case 'dataBar':
      case 'iconSet':
        if (this.rule && name === 'iconSet') Object.assign(this.rule.attributes, { iconSetName: a.iconSet ?? '3TrafficLights1', iconReverse: a.reverse ?? '', iconShowValue: a.showValue ?? '' })
        if (this.rule && name === 'dataBar') Object.assign(this.rule.attributes, { barShowValue: a.showValue ?? '' })
        return this.rule !== null
      default:
        return this.ranges !== null
    }
  }

  text(chunk: string): void {
    if (this.collecting) this.formulaText += chunk
  }

  close(name: string): boolean {
    if (name === 'extLst') {
      this.extensionDepth--
      return true
    }
    if (this.extensionDepth > 0) return true
    switch (name) {
      case 'formula':
        if (!this.collecting) return false
        this.collecting = false
        if (this.rule && this.formulaText.trim() !== '') this.rule.formulas.push(normalizeFormula(this.formulaText.trim()))
        return true
      case 'cfRule': {
        if (this.rule && this.ranges) {
          const made = this.finish(this.rule, this.ranges)
          if (made) this.found.push({ ...made, order: this.found.length })
          else this.skipped++
        }
        this.rule = null
        return true
      }
      case 'conditionalFormatting':
        this.ranges = null
        return true
      default:
        return this.ranges !== null
    }
  }

  /** The sheet's rules in priority order (lowest number first), as the file ranked them. */
  rules(): ConditionalFormatRule[] {
    return [...this.found].sort((a, b) => a.priority - b.priority || a.order - b.order).map((entry) => entry.rule)
  }

  private finish(progress: RuleInProgress, ranges: string[]): { priority: number; rule: ConditionalFormatRule } | undefined {
    const a = progress.attributes
    if (!KNOWN_TYPES.has(a.type) || ranges.length === 0) return undefined
    const priority = Number(a.priority ?? 0) || 0
    const style = a.dxfId !== undefined ? this.formats[Number(a.dxfId)] : undefined
    const common = {
      ranges,
      ...(a.stopIfTrue === '1' || a.stopIfTrue === 'true' ? { stopIfTrue: true } : {}),
      ...(style && Object.keys(style).length > 0 ? { style: { ...style } } : {}),
    }
    const formulas = progress.formulas
    const flag = (value: string | undefined) => value === '1' || value === 'true'
    let rule: ConditionalFormatRule
    switch (a.type) {
      case 'cellIs':
        if (!COMPARISONS.has(a.operator) || formulas.length === 0) return undefined
        rule = { type: 'cellIs', operator: a.operator as ConditionalFormatRule['operator'], formulas: formulas.slice(0, a.operator === 'between' || a.operator === 'notBetween' ? 2 : 1), ...common }
        break
      case 'expression':
        if (formulas.length === 0) return undefined
        rule = { type: 'expression', formulas: [formulas[0]], ...common }
        break
      case 'containsText':
      case 'notContainsText':
      case 'beginsWith':
      case 'endsWith': {
        const operator = a.type === 'notContainsText' ? 'notContains' : a.type
        const text = a.text ?? /SEARCH\("((?:[^"]|"")*)"/i.exec(formulas[0] ?? '')?.[1]?.replace(/""/g, '"')
        if (text === undefined || text === '') return undefined
        rule = { type: 'containsText', operator: operator as ConditionalFormatRule['operator'], text, ...common }
        break
      }
      case 'top10':
        rule = { type: 'top10', rank: Math.min(1000, Math.max(1, Number(a.rank ?? 10) || 10)), ...(flag(a.percent) ? { percent: true } : {}), ...(flag(a.bottom) ? { bottom: true } : {}), ...common }
        break
      case 'aboveAverage': {
        const stdDev = Number(a.stdDev ?? 0)
        rule = {
          type: 'aboveAverage',
          ...(a.aboveAverage === '0' || a.aboveAverage === 'false' ? { below: true } : {}),
          ...(flag(a.equalAverage) ? { equalAverage: true } : {}),
          ...(stdDev >= 1 && stdDev <= 3 ? { stdDev: Math.floor(stdDev) } : {}),
          ...common,
        }
        break
      }
      case 'duplicateValues':
      case 'uniqueValues':
        rule = { type: a.type, ...common }
        break
      case 'colorScale':
        if (progress.thresholds.length < 2 || progress.thresholds.length > 3 || progress.colors.length !== progress.thresholds.length) return undefined
        rule = { type: 'colorScale', ranges, thresholds: progress.thresholds, colors: progress.colors, ...(common.stopIfTrue ? { stopIfTrue: true } : {}) }
        break
      case 'dataBar':
        if (progress.thresholds.length !== 2) return undefined
        rule = { type: 'dataBar', ranges, thresholds: progress.thresholds, colors: [progress.colors[0] ?? '#638EC6'], ...(a.barShowValue === '0' ? { hideValue: true } : {}) }
        break
      case 'iconSet': {
        const set = a.iconSetName ?? '3TrafficLights1'
        if (!/^[3-5][A-Za-z0-9]*$/.test(set) || progress.thresholds.length !== Number(set[0])) return undefined
        rule = { type: 'iconSet', ranges, iconSet: set, thresholds: progress.thresholds, ...(flag(a.iconReverse) ? { reverse: true } : {}), ...(a.iconShowValue === '0' ? { hideValue: true } : {}) }
        break
      }
      default:
        return undefined
    }
    return { priority, rule }
  }
}

// ---- writing ------------------------------------------------------------------------------------

/** What exceljs leaves out of one `<cfRule>`, stated after it has written the file. */
export interface RulePatch {
  type?: string
  attributes: Record<string, string>
  /** The rule has no formula of its own in the file (duplicate and unique values). */
  dropFormula?: boolean
  /** A data bar drawn without the cell's value. */
  barWithoutValue?: boolean
}

/** A placeholder formula exceljs writes for a rule kind it does not know; replaced once the file is written. */
const PLACEHOLDER = 'FINSHEET_RULE'

function argbOf(css: string | undefined): string | undefined {
  if (!css) return undefined
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(css.trim())
  if (!match) return undefined
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join('') : match[1]
  return `FF${digits.toUpperCase()}`
}

function dxfStyle(style: ConditionalStyle | undefined): Partial<ExcelJS.Style> | undefined {
  if (!style) return undefined
  const out: Partial<ExcelJS.Style> = {}
  const font: Partial<ExcelJS.Font> = {}
  if (style.bold !== undefined) font.bold = style.bold
  if (style.italic !== undefined) font.italic = style.italic
  if (style.underline !== undefined) font.underline = style.underline
  if (style.strike !== undefined) font.strike = style.strike
  const colour = argbOf(style.color)
  if (colour) font.color = { argb: colour }
  if (Object.keys(font).length > 0) out.font = font
  const fill = argbOf(style.fill)
  if (fill) out.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: fill }, bgColor: { argb: fill } }
  if (style.format) out.numFmt = style.format
  return out
}

function thresholdsOf(thresholds: readonly ConditionalThreshold[] | undefined): { type: string; value?: number | string }[] {
  return (thresholds ?? []).map((threshold) => {
    if (threshold.kind === 'min' || threshold.kind === 'max') return { type: threshold.kind }
    if (threshold.kind === 'formula') return { type: 'formula', value: storedFormula(threshold.value ?? '0') }
    return { type: threshold.kind, value: Number(threshold.value) }
  })
}

/** Excel's formula for a text rule at the top-left cell of its range. */
function textFormula(rule: ConditionalFormatRule, anchor: string): string {
  const text = `"${(rule.text ?? '').replace(/"/g, '""')}"`
  switch (rule.operator) {
    case 'notContains':
      return `ISERROR(SEARCH(${text},${anchor}))`
    case 'beginsWith':
      return `LEFT(${anchor},LEN(${text}))=${text}`
    case 'endsWith':
      return `RIGHT(${anchor},LEN(${text}))=${text}`
    default:
      return `NOT(ISERROR(SEARCH(${text},${anchor})))`
  }
}

const TEXT_TYPES: Record<string, string> = { containsText: 'containsText', notContains: 'notContainsText', beginsWith: 'beginsWith', endsWith: 'endsWith' }

/**
 * Adds a sheet's rules to an exceljs worksheet, priority 1 first; returns, by priority, what must be
 * stated on the written `<cfRule>` elements that exceljs cannot say.
 */
export function writeConditionalFormats(worksheet: ExcelJS.Worksheet, rules: readonly ConditionalFormatRule[] | undefined): Map<number, RulePatch> {
  const patches = new Map<number, RulePatch>()
  for (const [index, rule] of (rules ?? []).entries()) {
    const priority = index + 1
    const ref = rule.ranges.join(' ')
    const anchor = rule.ranges[0]?.split(':')[0] ?? 'A1'
    const style = dxfStyle(rule.style)
    const patch: RulePatch = { attributes: {} }
    if (rule.stopIfTrue) patch.attributes.stopIfTrue = '1'
    let written: Record<string, unknown>
    switch (rule.type) {
      case 'cellIs':
        written = { type: 'cellIs', operator: rule.operator, formulae: (rule.formulas ?? []).map(storedFormula) }
        break
      case 'expression':
        written = { type: 'expression', formulae: [storedFormula(rule.formulas?.[0] ?? 'FALSE')] }
        break
      case 'containsText': {
        const type = TEXT_TYPES[rule.operator ?? 'containsText'] ?? 'containsText'
        written = { type: 'containsText', operator: type, formulae: [textFormula(rule, anchor)] }
        patch.attributes.text = rule.text ?? ''
        patch.attributes.operator = rule.operator ?? 'containsText'
        break
      }
      case 'top10':
        written = { type: 'top10', rank: rule.rank ?? 10, percent: rule.percent === true, bottom: rule.bottom === true }
        break
      case 'aboveAverage':
        written = { type: 'aboveAverage', aboveAverage: rule.below !== true }
        if (rule.below) patch.attributes.aboveAverage = '0'
        if (rule.equalAverage) patch.attributes.equalAverage = '1'
        if (rule.stdDev) patch.attributes.stdDev = String(rule.stdDev)
        break
      case 'duplicateValues':
      case 'uniqueValues':
        written = { type: 'expression', formulae: [PLACEHOLDER] }
        patch.type = rule.type
        patch.dropFormula = true
        break
      case 'colorScale':
        written = { type: 'colorScale', cfvo: thresholdsOf(rule.thresholds), color: (rule.colors ?? []).map((colour) => ({ argb: argbOf(colour) ?? 'FF638EC6' })) }
        break
      case 'dataBar':
        written = { type: 'dataBar', cfvo: thresholdsOf(rule.thresholds), color: { argb: argbOf(rule.colors?.[0]) ?? 'FF638EC6' } }
        if (rule.hideValue) patch.barWithoutValue = true
        break
      case 'iconSet':
        written = { type: 'iconSet', iconSet: rule.iconSet ?? '3TrafficLights1', cfvo: thresholdsOf(rule.thresholds), reverse: rule.reverse === true, showValue: rule.hideValue !== true }
        break
    }
    worksheet.addConditionalFormatting({ ref, rules: [{ ...written, priority, ...(style ? { style } : {}) } as unknown as ExcelJS.ConditionalFormattingRule] })
    if (patch.type || patch.dropFormula || patch.barWithoutValue || Object.keys(patch.attributes).length > 0) patches.set(priority, patch)
  }
  return patches
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** States on a written sheet part's `<cfRule>` elements what exceljs left out of them. */
export function withRulePatches(xml: string, patches: ReadonlyMap<number, RulePatch>): string {
  if (patches.size === 0) return xml
  return xml.replace(/<cfRule\b([^>]*?)(?:\/>|>([\s\S]*?)<\/cfRule>)/g, (whole, attributes: string, body: string | undefined) => {
    const priority = Number(/\bpriority="(\d+)"/.exec(attributes)?.[1])
    const patch = patches.get(priority)
    if (!patch) return whole
    let next = attributes
    if (patch.type) next = next.replace(/\btype="[^"]*"/, `type="${patch.type}"`)
    for (const [name, value] of Object.entries(patch.attributes)) {
      const stated = ` ${name}="${escapeAttribute(value)}"`
      next = new RegExp(`\\b${name}="[^"]*"`).test(next) ? next.replace(new RegExp(` ${name}="[^"]*"`), stated) : next + stated
    }
    if (patch.dropFormula) return `<cfRule${next}/>`
    const content = patch.barWithoutValue && body !== undefined ? body.replace(/<dataBar\b/, '<dataBar showValue="0"') : body
    return content === undefined ? `<cfRule${next}/>` : `<cfRule${next}>${content}</cfRule>`
  })
}
