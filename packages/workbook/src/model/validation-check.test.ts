import { describe, expect, it } from 'vitest'
import type { DataValidationRule } from '@finsheet/contracts'
import { judgeValidation, listSourceItems, VALIDATION_DEFAULT_ERROR, type ValidationContext } from './validation-check.js'
import { WorkbookModel } from './workbook-model.js'

function workbook(cells: Record<string, string>): ValidationContext {
  const model = new WorkbookModel({ sheets: [{ id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] }] })
  model.apply([{ type: 'set-cells', sheet: 'Sheet1', cells: Object.entries(cells).map(([address, input]) => ({ address, input })) }])
  return { evaluate: (formula, address) => model.engine.evaluateFormula('Sheet1', address, formula).value }
}

const judge = (rule: Omit<DataValidationRule, 'ranges'> & { ranges?: string[] }, address: string, input: string, context = workbook({})) =>
  judgeValidation({ ranges: ['B2:B20'], ...rule }, address, input, context).valid

describe('judging typed values', () => {
  it('accepts a typed list item in any case, and refuses others with the default stop alert', () => {
    const rule = { type: 'list', formula1: '"Low,High"' } as const
    expect(judge(rule, 'B2', 'high')).toBe(true)
    expect(judgeValidation({ ranges: ['B2'], ...rule }, 'B2', 'Medium', workbook({}))).toEqual({
      valid: false,
      alert: { style: 'stop', title: 'Finsheet', message: VALIDATION_DEFAULT_ERROR },
    })
  })

  it('reads a list from a range with the engine, exactly (wildcards typed are literal)', () => {
    const context = workbook({ A1: 'North', A2: 'South', A3: '42' })
    const rule = { type: 'list', formula1: '$A$1:$A$3' } as const
    expect(judge(rule, 'B5', 'south', context)).toBe(true)
    expect(judge(rule, 'B5', '42', context)).toBe(true)
    expect(judge(rule, 'B5', 'Nor*', context)).toBe(false)
    expect(judge(rule, 'B5', 'East', context)).toBe(false)
    expect(listSourceItems({ ranges: ['B2'], ...rule }, 'B5', context)).toEqual(['North', 'South', '42'])
  })

  it('compares whole numbers, decimals, dates and text lengths with their operator', () => {
    const context = workbook({ C1: '10' })
    const whole = { type: 'whole', operator: 'between', formula1: '1', formula2: '$C$1' } as const
    expect(judge(whole, 'B2', '10', context)).toBe(true)
    expect(judge(whole, 'B2', '11', context)).toBe(false)
    expect(judge(whole, 'B2', '2.5', context)).toBe(false)
    expect(judge(whole, 'B2', 'ten', context)).toBe(false)
    expect(judge({ type: 'decimal', operator: 'notBetween', formula1: '0', formula2: '1' }, 'B2', '0.5')).toBe(false)
    expect(judge({ type: 'decimal', operator: 'greaterThanOrEqual', formula1: '0' }, 'B2', '=2-1')).toBe(true)
    expect(judge({ type: 'date', operator: 'greaterThan', formula1: 'DATE(2024,1,1)' }, 'B2', '2024-06-30')).toBe(true)
    expect(judge({ type: 'date', operator: 'greaterThan', formula1: 'DATE(2024,1,1)' }, 'B2', '2023-06-30')).toBe(false)
    expect(judge({ type: 'time', operator: 'lessThan', formula1: 'TIME(12,0,0)' }, 'B2', '10:30')).toBe(true)
    expect(judge({ type: 'textLength', operator: 'lessThanOrEqual', formula1: '3' }, 'B2', 'abcd')).toBe(false)
  })

  it('calculates a custom formula relative to the cell, with the typed value in place of the cell', () => {
    const context = workbook({ A3: '5' })
    // Written for B2 (the rule's first cell): at B3 it reads A3 and B3.
    const rule = { type: 'custom', formula1: 'B2>A2' } as const
    expect(judge(rule, 'B3', '6', context)).toBe(true)
    expect(judge(rule, 'B3', '4', context)).toBe(false)
  })

  it('lets blanks through only when the rule ignores blanks, and a rule without alert writes silently', () => {
    expect(judge({ type: 'whole', operator: 'equal', formula1: '1', allowBlank: true }, 'B2', '')).toBe(true)
    expect(judge({ type: 'whole', operator: 'equal', formula1: '1' }, 'B2', '')).toBe(false)
    expect(judgeValidation({ ranges: ['B2'], type: 'whole', operator: 'equal', formula1: '1', showErrorMessage: false }, 'B2', '2', workbook({}))).toEqual({ valid: false, alert: null })
    expect(
      judgeValidation({ ranges: ['B2'], type: 'whole', operator: 'equal', formula1: '1', errorStyle: 'warning', errorTitle: 'Units', errorMessage: 'One unit only' }, 'B2', '2', workbook({})),
    ).toEqual({ valid: false, alert: { style: 'warning', title: 'Units', message: 'One unit only' } })
  })
})
