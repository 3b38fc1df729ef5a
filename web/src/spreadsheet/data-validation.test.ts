import { describe, expect, it } from 'vitest'
import { WorkbookStore } from '../workbook/workbook-store'
import { dropdownItems, formFromRule, inputMessageAt, judgeInput, LIST_SOURCE_ERROR, ruleFromForm, validationCommand, type ValidationForm } from './data-validation'

const at = (col: number, row: number) => ({ col, row })
const range = (startCol: number, startRow: number, endCol: number, endRow: number) => ({ startCol, startRow, endCol, endRow })
const context = { sheetNames: ['Sheet1', 'Lists'], definedNames: [], activeSheet: 'Sheet1' }

function workbook() {
  return new WorkbookStore({
    id: 'wb',
    sheets: [
      { name: 'Sheet1', cells: {} },
      { name: 'Lists', cells: { A1: { input: 'North' }, A2: { input: 'South' }, A3: { input: 'East' } } },
    ],
  })
}

const form = (changes: Partial<ValidationForm>): ValidationForm => ({ ...formFromRule(undefined, at(1, 1)), ...changes })

describe('data validation on the grid', () => {
  it('sets a list from a range through the form, offers its items and judges typed values with the engine', () => {
    const store = workbook()
    const made = ruleFromForm(form({ allow: 'list-range', source: '=Lists!$A$1:$A$3' }), range(1, 1, 1, 9), at(1, 1), context)
    if (!('rule' in made)) throw new Error(made.error)
    store.dispatch(validationCommand('Sheet1', range(1, 1, 1, 9), made.rule))
    expect(dropdownItems(store, 'Sheet1', at(1, 4))).toEqual(['North', 'South', 'East'])
    expect(dropdownItems(store, 'Sheet1', at(2, 4))).toBeNull()
    expect(judgeInput(store, 'Sheet1', at(1, 4), 'east')).toEqual({ valid: true })
    expect(judgeInput(store, 'Sheet1', at(1, 4), 'West')).toMatchObject({ valid: false, alert: { style: 'stop' } })
    // The list follows its range: a new item is offered at once.
    store.dispatch({ type: 'set-cells', sheet: 'Lists', cells: [{ address: 'A3', input: 'West' }] })
    expect(judgeInput(store, 'Sheet1', at(1, 4), 'West')).toEqual({ valid: true })
    // Undo removes the rule.
    store.undo()
    store.undo()
    expect(dropdownItems(store, 'Sheet1', at(1, 4))).toBeNull()
  })

  it('refuses a list source that is not a row or a column, or not a reference', () => {
    expect(ruleFromForm(form({ allow: 'list-range', source: 'A1:B3' }), range(0, 0, 0, 0), at(0, 0), context)).toEqual({ error: LIST_SOURCE_ERROR })
    expect(ruleFromForm(form({ allow: 'list-range', source: 'Nowhere!A1:A3' }), range(0, 0, 0, 0), at(0, 0), context)).toEqual({ error: LIST_SOURCE_ERROR })
    expect(ruleFromForm(form({ allow: 'list-items', items: ' , ' }), range(0, 0, 0, 0), at(0, 0), context)).toEqual({ error: 'Enter the items of the list, separated by commas.' })
    expect(ruleFromForm(form({ allow: 'whole', operator: 'between', value1: '1', value2: '' }), range(0, 0, 0, 0), at(0, 0), context)).toEqual({ error: 'Enter a minimum and a maximum.' })
  })

  it('reads typed dates as their numbers and custom formulas for the range’s first cell', () => {
    const date = ruleFromForm(form({ allow: 'date', operator: 'greaterThan', value1: '2024-01-31' }), range(1, 1, 1, 5), at(1, 1), context)
    expect(date).toMatchObject({ rule: { type: 'date', operator: 'greaterThan', formula1: '45322' } })
    // Typed for the active cell B4, kept for B2.
    const custom = ruleFromForm(form({ allow: 'custom', formula: '=B4>A4' }), range(1, 1, 1, 5), at(1, 3), context)
    expect(custom).toMatchObject({ rule: { type: 'custom', formula1: 'B2>A2', ranges: ['B2:B6'] } })
    // And shown again for the active cell.
    if (!('rule' in custom)) throw new Error(custom.error)
    expect(formFromRule(custom.rule, at(1, 3)).formula).toBe('=B4>A4')
  })

  it('keeps messages and the alert style, and shows the input message of a selected cell', () => {
    const store = workbook()
    const made = ruleFromForm(
      form({ allow: 'list-items', items: 'Low, High', showDropdown: false, inputTitle: 'Case', inputMessage: 'Pick one', errorStyle: 'warning', errorMessage: 'Unknown case' }),
      range(0, 0, 0, 0),
      at(0, 0),
      context,
    )
    if (!('rule' in made)) throw new Error(made.error)
    expect(made.rule).toEqual({
      ranges: ['A1'],
      type: 'list',
      formula1: '"Low,High"',
      allowBlank: true,
      showDropdown: false,
      showInputMessage: true,
      inputTitle: 'Case',
      inputMessage: 'Pick one',
      showErrorMessage: true,
      errorStyle: 'warning',
      errorMessage: 'Unknown case',
    })
    store.dispatch(validationCommand('Sheet1', range(0, 0, 0, 0), made.rule))
    expect(dropdownItems(store, 'Sheet1', at(0, 0))).toBeNull()
    expect(inputMessageAt(store, 'Sheet1', at(0, 0))).toEqual({ title: 'Case', message: 'Pick one' })
    expect(judgeInput(store, 'Sheet1', at(0, 0), 'Mid')).toEqual({ valid: false, alert: { style: 'warning', title: 'Finsheet', message: 'Unknown case' } })
    expect(formFromRule(made.rule, at(0, 0))).toMatchObject({ allow: 'list-items', items: 'Low, High', showDropdown: false, errorStyle: 'warning' })
  })
})
