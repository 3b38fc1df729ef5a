import { describe, expect, it } from 'vitest'
import type { ConditionalFormatRule } from '@finsheet/contracts'
import { describeRule, emptyForm, formFromRule, movedRule, ruleFromForm, withoutRule, withRule } from './conditional-format-rules'

describe('the conditional formatting form', () => {
  it('makes a greater-than rule with the light red preset for the selection', () => {
    const made = ruleFromForm({ ...emptyForm('B2:B10'), first: '100' })
    expect(made).toEqual({ rule: { type: 'cellIs', ranges: ['B2:B10'], operator: 'greaterThan', formulas: ['100'], style: { fill: '#FFC7CE', color: '#9C0006' } } })
  })

  it('quotes text operands, keeps formulas, and reads back the same form', () => {
    const made = ruleFromForm({ ...emptyForm('$a$1:$a$5, C1:C5'), kind: 'between', first: 'low', second: '=$D$1', preset: 'green' })
    if (!('rule' in made)) throw new Error(made.problem)
    expect(made.rule).toMatchObject({ ranges: ['A1:A5', 'C1:C5'], formulas: ['"low"', '$D$1'], style: { fill: '#C6EFCE', color: '#006100' } })
    expect(formFromRule(made.rule)).toMatchObject({ kind: 'between', first: 'low', second: '=$D$1', preset: 'green', ranges: 'A1:A5, C1:C5' })
    expect(describeRule(made.rule)).toBe('Cell value between low and =$D$1')
  })

  it('refuses a formula that does not parse, an empty value and no range, with a message', () => {
    expect(ruleFromForm({ ...emptyForm('A1:A3'), kind: 'expression', first: '=A1>(' })).toEqual({ problem: expect.stringMatching(/cannot be read/) })
    expect(ruleFromForm({ ...emptyForm('A1:A3') })).toEqual({ problem: 'Enter a value to compare with' })
    expect(ruleFromForm({ ...emptyForm(' '), first: '1' })).toEqual({ problem: expect.stringMatching(/which cells/) })
    expect(ruleFromForm({ ...emptyForm('A0:A3'), first: '1' })).toEqual({ problem: expect.stringMatching(/Invalid range/) })
  })

  it('makes colour scales and data bars from their presets', () => {
    expect(ruleFromForm({ ...emptyForm('A1:A9'), kind: 'colorScale', preset: 'white-green' })).toEqual({
      rule: { type: 'colorScale', ranges: ['A1:A9'], thresholds: [{ kind: 'min' }, { kind: 'max' }], colors: ['#FFFFFF', '#63BE7B'] },
    })
    expect(ruleFromForm({ ...emptyForm('A1:A9'), kind: 'dataBar', preset: 'green' })).toMatchObject({ rule: { type: 'dataBar', colors: ['#63C384'] } })
  })

  it('adds a new rule first, replaces an edited one, deletes and moves', () => {
    const a: ConditionalFormatRule = { type: 'duplicateValues', ranges: ['A1:A3'] }
    const b: ConditionalFormatRule = { type: 'aboveAverage', ranges: ['B1:B3'] }
    const c: ConditionalFormatRule = { type: 'uniqueValues', ranges: ['C1:C3'] }
    expect(withRule('S', [a, b], c)).toEqual({ type: 'set-conditional-formats', sheet: 'S', rules: [c, a, b] })
    expect(withRule('S', [a, b], c, 1)).toEqual({ type: 'set-conditional-formats', sheet: 'S', rules: [a, c] })
    expect(withoutRule('S', [a, b, c], 1)).toEqual({ type: 'set-conditional-formats', sheet: 'S', rules: [a, c] })
    expect(movedRule('S', [a, b, c], 2, -1)).toEqual({ type: 'set-conditional-formats', sheet: 'S', rules: [a, c, b] })
    expect(movedRule('S', [a, b, c], 0, -1)).toBeNull()
  })
})
