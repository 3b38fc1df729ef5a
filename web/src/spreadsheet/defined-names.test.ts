import { describe, expect, it } from 'vitest'
import { WorkbookStore } from '../workbook/workbook-store'
import { defineNameCommand, deleteNameCommand, nameProblem, nameRows, refersToProblem } from './defined-names'

function model(): WorkbookStore {
  return new WorkbookStore({
    id: 'w',
    sheets: [
      { name: 'Inputs', cells: { B1: { input: '100' }, B2: { input: '200' }, B3: { input: '300' }, C1: { input: '0.25' } } },
      { name: 'Model', cells: { A1: { input: '=SUM(Sales)*TaxRate' } } },
    ],
    definedNames: [
      { name: 'Sales', formula: '=Inputs!$B$1:$B$3' },
      { name: 'TaxRate', formula: '=Inputs!$C$1' },
    ],
  })
}

describe('nameProblem', () => {
  it('accepts names as Excel does', () => {
    for (const name of ['Revenue', '_rate', '\\base', 'Tax.Rate', 'growth_2025', 'Ümsatz', 'ABCD1']) expect(nameProblem(name, undefined, [])).toBeNull()
  })

  it('refuses spaces, cell references, a bad first character, reserved words and over-long names', () => {
    expect(nameProblem('', undefined, [])).toBe('Enter a name.')
    expect(nameProblem('Tax rate', undefined, [])).toBe('A name cannot contain spaces.')
    expect(nameProblem('A1', undefined, [])).toBe('A1 is a cell reference (such as A1 or R1C1), not a name.')
    expect(nameProblem('r1c1', undefined, [])).toBe('r1c1 is a cell reference (such as A1 or R1C1), not a name.')
    expect(nameProblem('C', undefined, [])).not.toBeNull()
    expect(nameProblem('1stYear', undefined, [])).toBe('A name must start with a letter, an underscore or a backslash.')
    expect(nameProblem('Rate%', undefined, [])).toBe('A name can hold only letters, digits, underscores, periods, question marks and backslashes.')
    expect(nameProblem('TRUE', undefined, [])).toBe('TRUE is a value, not a name.')
    expect(nameProblem('N'.repeat(255), undefined, [])).toBeNull()
    expect(nameProblem('N'.repeat(256), undefined, [])).toBe('A name can be at most 255 characters long.')
  })

  it('keeps names unique within a scope, in any case, and lets the edited name keep its own', () => {
    const existing = [{ name: 'Rate' }, { name: 'Local', sheet: 'Inputs' }]
    expect(nameProblem('RATE', undefined, existing)).toBe('The name that you entered already exists. Enter a unique name.')
    expect(nameProblem('Rate', 'Inputs', existing)).toBeNull()
    expect(nameProblem('local', 'Inputs', existing)).not.toBeNull()
    expect(nameProblem('Local', undefined, existing)).toBeNull()
    expect(nameProblem('rate', undefined, existing, { name: 'Rate' })).toBeNull()
  })
})

describe('refersToProblem', () => {
  it('accepts formulas with or without = and refuses what does not parse', () => {
    expect(refersToProblem('=Inputs!$B$1:$B$3')).toBeNull()
    expect(refersToProblem('0.21')).toBeNull()
    expect(refersToProblem('=')).toBe('Enter what the name refers to, such as =Sheet1!$B$2.')
    expect(refersToProblem('=SUM(Inputs!B1')).toMatch(/^There's a problem with this formula/)
  })
})

describe('the Name Manager list', () => {
  it('lists every name with its evaluated value, formula and scope', () => {
    const store = model()
    expect(nameRows(store, 'Model')).toEqual([
      { name: 'Sales', formula: '=Inputs!$B$1:$B$3', value: '{"100";"200";"300"}' },
      { name: 'TaxRate', formula: '=Inputs!$C$1', value: '0.25' },
    ])
    expect(store.getDisplay('Model', { col: 0, row: 0 })).toBe('150')
  })

  it('defines, edits, scopes and deletes names through undoable commands the formulas follow', () => {
    const store = model()
    store.dispatch(defineNameCommand({ name: 'Growth', formula: '0.05', sheet: 'Model' }))
    expect(nameRows(store, 'Model').find((row) => row.name === 'Growth')).toEqual({ name: 'Growth', sheet: 'Model', formula: '=0.05', value: '0.05' })

    store.dispatch(defineNameCommand({ name: 'TaxRate', formula: '=0.5' }, { name: 'TaxRate' }))
    expect(store.getDisplay('Model', { col: 0, row: 0 })).toBe('300')

    // renamed: the formulas that used the old name say the new one, in the same undo
    const renamed = defineNameCommand({ name: 'Tax', formula: '=0.5' }, { name: 'TaxRate' }, store)
    expect(renamed).toEqual({
      type: 'batch',
      label: 'Edit name Tax',
      commands: [
        { type: 'define-name', name: 'TaxRate', formula: null },
        { type: 'define-name', name: 'Tax', formula: '=0.5' },
        { type: 'set-cells', sheet: 'Model', cells: [{ address: 'A1', input: '=SUM(Sales)*Tax' }] },
      ],
    })
    store.dispatch(renamed)
    expect(store.definedNames.map((name) => name.name).sort()).toEqual(['Growth', 'Sales', 'Tax'])
    expect(store.getDisplay('Model', { col: 0, row: 0 })).toBe('300')
    store.undo()
    expect(store.getInput('Model', { col: 0, row: 0 })).toBe('=SUM(Sales)*TaxRate')
    expect(store.getDisplay('Model', { col: 0, row: 0 })).toBe('300')

    store.dispatch(deleteNameCommand({ name: 'Sales' }))
    expect(store.getDisplay('Model', { col: 0, row: 0 })).toBe('#NAME?')
    store.undo()
    store.undo()
    expect(store.getDisplay('Model', { col: 0, row: 0 })).toBe('150')
  })
})

describe('renaming a name', () => {
  it('rewrites only the uses that read it: a sheet name of the same spelling hides a workbook name', () => {
    const store = new WorkbookStore({
      id: 'w',
      sheets: [
        { name: 'A', cells: { A1: { input: '=Rate*2' }, A2: { input: '=B!Rate+1' } } },
        { name: 'B', cells: { A1: { input: '=Rate*3' }, A2: { input: '="Rate"&Rate' } } },
      ],
      definedNames: [
        { name: 'Rate', formula: '=0.1' },
        { name: 'Rate', formula: '=0.2', sheet: 'B' },
      ],
    })
    const workbookName = defineNameCommand({ name: 'Growth', formula: '=0.1' }, { name: 'Rate' }, store)
    expect(workbookName.type === 'batch' && workbookName.commands.slice(2)).toEqual([{ type: 'set-cells', sheet: 'A', cells: [{ address: 'A1', input: '=Growth*2' }] }])
    const sheetName = defineNameCommand({ name: 'Local', formula: '=0.2', sheet: 'B' }, { name: 'Rate', sheet: 'B' }, store)
    expect(sheetName.type === 'batch' && sheetName.commands.slice(2)).toEqual([
      { type: 'set-cells', sheet: 'A', cells: [{ address: 'A2', input: '=B!Local+1' }] },
      { type: 'set-cells', sheet: 'B', cells: [{ address: 'A1', input: '=Local*3' }, { address: 'A2', input: '="Rate"&Local' }] },
    ])
  })
})
