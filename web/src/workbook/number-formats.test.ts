import { describe, expect, it } from 'vitest'
import { formatValue } from '@finsheet/formula'
import { checkFormat } from '@finsheet/workbook/model'
import type { FormatCategory, FormatChoice } from './number-formats'
import { adjustDecimals, choiceOfFormat, DEFAULT_DECIMALS, FORMAT_CATEGORIES, formatOfChoice, MAX_DECIMALS, NEGATIVE_STYLES, NUMBER_FORMATS } from './number-formats'

describe('adjustDecimals', () => {
  it('starts a General cell from the decimals it shows', () => {
    expect(adjustDecimals(null, 1, '1.5')).toBe('0.00')
    expect(adjustDecimals(null, 1, '12')).toBe('0.0')
    expect(adjustDecimals(null, -1, '3.14')).toBe('0.0')
    expect(adjustDecimals(undefined, -1, '3')).toBe('0')
  })

  it('keeps the text around the number', () => {
    expect(adjustDecimals('$#,##0.00', 1)).toBe('$#,##0.000')
    expect(adjustDecimals('$#,##0.00', -2)).toBe('$#,##0')
    expect(adjustDecimals('0%', 1)).toBe('0.0%')
    expect(adjustDecimals('0.0%', -1)).toBe('0%')
  })

  it('changes every section alike and stops at zero', () => {
    expect(adjustDecimals('#,##0;(#,##0)', 1)).toBe('#,##0.0;(#,##0.0)')
    expect(adjustDecimals('0', -1)).toBe('0')
  })

  it('leaves date codes alone', () => {
    expect(adjustDecimals('yyyy-mm-dd', 1)).toBe('yyyy-mm-dd')
  })
})

describe('the Format Cells dialog’s codes', () => {
  const choice = (patch: Partial<FormatChoice>): FormatChoice => ({ ...choiceOfFormat(null), ...patch })

  it('writes each category’s code from its options', () => {
    expect(formatOfChoice(choice({ category: 'General' }))).toBeNull()
    expect(formatOfChoice(choice({ category: 'Number', decimals: 1, thousands: true, negative: 'parentheses' }))).toBe('#,##0.0;(#,##0.0)')
    expect(formatOfChoice(choice({ category: 'Number', decimals: 0, thousands: false, negative: 'red' }))).toBe('0;[Red]-0')
    expect(formatOfChoice(choice({ category: 'Currency', decimals: 2, symbol: '€', negative: 'minus' }))).toBe('€#,##0.00')
    expect(formatOfChoice(choice({ category: 'Percentage', decimals: 1 }))).toBe('0.0%')
    expect(formatOfChoice(choice({ category: 'Thousands', decimals: 0, negative: 'minus' }))).toBe('#,##0,"K"')
    expect(formatOfChoice(choice({ category: 'Millions', decimals: 1, negative: 'minus' }))).toBe('#,##0.0,,"M"')
    expect(formatOfChoice(choice({ category: 'Multiple', decimals: 1 }))).toBe('0.0x')
    expect(formatOfChoice(choice({ category: 'Date', date: 'd-mmm-yy' }))).toBe('d-mmm-yy')
    expect(formatOfChoice(choice({ category: 'Custom', custom: '0.000" bn"' }))).toBe('0.000" bn"')
    expect(formatOfChoice(choice({ category: 'Custom', custom: '  ' }))).toBeNull()
  })

  it('renders the presets as Excel shows them', () => {
    const shown = (category: FormatCategory, value: number, patch: Partial<FormatChoice> = {}) =>
      formatValue(value, formatOfChoice(choice({ category, decimals: DEFAULT_DECIMALS[category], negative: 'minus', ...patch })) ?? undefined)
    expect(shown('Thousands', 1234567)).toBe('1,235K')
    expect(shown('Millions', 1234567)).toBe('1.2M')
    expect(shown('Multiple', 8.456)).toBe('8.5x')
    expect(shown('Percentage', 0.12345, { decimals: 1 })).toBe('12.3%')
    expect(shown('Number', -1234.5, { negative: 'parentheses' })).toBe('(1,234.50)')
    expect(shown('Accounting', -1234.5).trim()).toBe('$(1,234.50)')
    expect(shown('General', 1 / 3)).toBe('0.333333333')
  })

  it('writes only codes the workbook model accepts', () => {
    for (const category of FORMAT_CATEGORIES) {
      for (const decimals of [0, 1, 2, MAX_DECIMALS]) {
        for (const negative of NEGATIVE_STYLES) {
          const format = formatOfChoice(choice({ category, decimals, negative, custom: '0.0' }))
          expect(checkFormat(format), `${category} ${decimals} ${negative}`).toBe(format)
        }
      }
    }
    for (const preset of NUMBER_FORMATS) expect(checkFormat(preset.format)).toBe(preset.format)
  })

  it('opens on the category a cell’s code came from, and Custom for any other code', () => {
    expect(choiceOfFormat(null).category).toBe('General')
    expect(choiceOfFormat('#,##0.0;(#,##0.0)')).toMatchObject({ category: 'Number', decimals: 1, thousands: true, negative: 'parentheses' })
    expect(choiceOfFormat('0.0%')).toMatchObject({ category: 'Percentage', decimals: 1 })
    expect(choiceOfFormat('#,##0.0,,"M"')).toMatchObject({ category: 'Millions', decimals: 1 })
    expect(choiceOfFormat('£#,##0.00')).toMatchObject({ category: 'Currency', symbol: '£', decimals: 2 })
    expect(choiceOfFormat('mmmm d, yyyy')).toMatchObject({ category: 'Date', date: 'mmmm d, yyyy' })
    expect(choiceOfFormat('0.000" bn"')).toMatchObject({ category: 'Custom', custom: '0.000" bn"' })
  })
})
