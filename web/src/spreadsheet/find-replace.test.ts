import { describe, expect, it } from 'vitest'
import { WorkbookStore } from '../workbook/workbook-store'
import type { FindOptions } from './find-replace'
import { findAll, findNext, findPattern, planReplacements, refusedMessage, replacedInputProblem, replacedMessage, replaceInput } from './find-replace'

const options = (patch: Partial<FindOptions>): FindOptions => ({ find: '', lookIn: 'formulas', matchCase: false, wholeCell: false, within: 'sheet', ...patch })

function model(): WorkbookStore {
  return new WorkbookStore({
    id: 'w',
    sheets: [
      {
        name: 'Inputs',
        cells: {
          A1: { input: 'Revenue' },
          B1: { input: '100' },
          A2: { input: 'Cost of revenue' },
          B2: { input: '=B1*0.4' },
          A3: { input: 'Margin' },
          B3: { input: '=B1-B2' },
          C1: { input: 'revenue growth' },
        },
      },
      { name: 'Outputs', cells: { A1: { input: 'Revenue' }, B1: { input: '=Inputs!B1' }, B2: { input: '=SUM(Inputs!B1:B3)' } } },
    ],
  })
}

describe('find', () => {
  it('finds in formulas what was typed and in values what the cell shows', () => {
    const store = model()
    expect(findAll(store, options({ find: 'B1' }), 'Inputs').map((cell) => cell.address)).toEqual(['B2', 'B3'])
    expect(findAll(store, options({ find: '40', lookIn: 'values' }), 'Inputs').map((cell) => cell.address)).toEqual(['B2'])
    expect(findAll(store, options({ find: '40' }), 'Inputs')).toEqual([])
  })

  it('reads cells row by row, ignores case unless asked, and matches whole cells when asked', () => {
    const store = model()
    expect(findAll(store, options({ find: 'revenue' }), 'Inputs').map((cell) => cell.address)).toEqual(['A1', 'C1', 'A2'])
    expect(findAll(store, options({ find: 'revenue', matchCase: true }), 'Inputs').map((cell) => cell.address)).toEqual(['C1', 'A2'])
    expect(findAll(store, options({ find: 'revenue', wholeCell: true }), 'Inputs').map((cell) => cell.address)).toEqual(['A1'])
  })

  it('searches every sheet in tab order for the whole workbook, with the value each cell shows', () => {
    const found = findAll(model(), options({ find: 'Revenue', within: 'workbook', matchCase: true }), 'Outputs')
    expect(found.map((cell) => `${cell.sheet}!${cell.address}`)).toEqual(['Inputs!A1', 'Outputs!A1'])
    expect(findAll(model(), options({ find: 'Inputs!B1', within: 'workbook' }), 'Inputs')[0]).toMatchObject({ sheet: 'Outputs', address: 'B1', value: '100' })
  })

  it('reads * and ? as wildcards and ~ as making them literal', () => {
    expect(findPattern(options({ find: 'C*t' }))?.test('Cost')).toBe(true)
    expect(findPattern(options({ find: 'C?t' }))?.test('Cost')).toBe(false)
    expect(findPattern(options({ find: 'B?' }))?.test('B1')).toBe(true)
    expect(findPattern(options({ find: '~*' }))?.test('=B1*2')).toBe(true)
    expect(findPattern(options({ find: '~*' }))?.test('=B1+2')).toBe(false)
    expect(findPattern(options({ find: '(1.5)' }))?.test('(1.5)')).toBe(true)
    expect(findPattern(options({ find: '(1.5)' }))?.test('(105)')).toBe(false)
    expect(findPattern(options({ find: '' }))).toBeNull()
  })

  it('goes to the next match after the active cell, on to the next sheet, and round to the first', () => {
    const store = model()
    const search = options({ find: 'revenue', within: 'workbook' })
    expect(findNext(store, search, { sheet: 'Inputs', col: 0, row: 0 })).toMatchObject({ sheet: 'Inputs', address: 'C1' })
    expect(findNext(store, search, { sheet: 'Inputs', col: 2, row: 0 })).toMatchObject({ sheet: 'Inputs', address: 'A2' })
    expect(findNext(store, search, { sheet: 'Inputs', col: 0, row: 1 })).toMatchObject({ sheet: 'Outputs', address: 'A1' })
    expect(findNext(store, search, { sheet: 'Outputs', col: 0, row: 0 })).toMatchObject({ sheet: 'Inputs', address: 'A1' })
    expect(findNext(store, options({ find: 'nowhere' }), { sheet: 'Inputs', col: 0, row: 0 })).toBeNull()
  })
})

describe('replace', () => {
  it('replaces every match in an input, literally, keeping the rest', () => {
    expect(replaceInput('=B1*0.4+B1', options({ find: 'b1' }), 'C1')).toBe('=C1*0.4+C1')
    expect(replaceInput('Revenue', options({ find: 'rev', matchCase: true }), 'x')).toBeNull()
    expect(replaceInput('Price', options({ find: 'Price' }), '$&$1')).toBe('$&$1')
    expect(replaceInput('Revenue growth', options({ find: 'Revenue', wholeCell: true }), 'Sales')).toBeNull()
  })

  it('Replace All is one batch of set-cells over every sheet, counted by cell', () => {
    const store = model()
    const search = options({ find: 'Inputs!', within: 'workbook' })
    const plan = planReplacements(findAll(store, search, 'Inputs'), search, 'Inputs!$')
    expect(plan.count).toBe(2)
    expect(plan.command).toEqual({
      type: 'batch',
      label: 'Replace 2 cells',
      commands: [{ type: 'set-cells', sheet: 'Outputs', cells: [{ address: 'B1', input: '=Inputs!$B1' }, { address: 'B2', input: '=SUM(Inputs!$B1:B3)' }] }],
    })
    store.dispatch(plan.command!)
    expect(store.getDisplay('Outputs', { col: 1, row: 0 })).toBe('100')
    store.undo()
    expect(store.getInput('Outputs', { col: 1, row: 0 })).toBe('=Inputs!B1')
    expect(replacedMessage(plan.count)).toBe('All done. We made 2 replacements.')
    expect(replacedMessage(1)).toBe('All done. We made 1 replacement.')
  })

  it('refuses a cell whose formula the replacement would break and replaces the others', () => {
    const store = model()
    const search = options({ find: 'B1' })
    const plan = planReplacements(findAll(store, search, 'Inputs'), search, '(')
    expect(plan.count).toBe(0)
    expect(plan.command).toBeNull()
    expect(plan.refused.map((cell) => cell.address)).toEqual(['B2', 'B3'])
    expect(refusedMessage(plan.refused)).toBe('Left unchanged: the replacement would break the formula in Inputs!B2, Inputs!B3.')


    const partly = planReplacements(findAll(store, search, 'Inputs'), search, 'B1*')
    expect(partly.count).toBe(1)
    expect(partly.refused.map((cell) => cell.address)).toEqual(['B2'])
    expect(partly.command).toEqual({ type: 'batch', label: 'Replace 1 cell', commands: [{ type: 'set-cells', sheet: 'Inputs', cells: [{ address: 'B3', input: '=B1*-B2' }] }] })
  })

  it('tells a formula that no longer reads as one', () => {
    expect(replacedInputProblem('=SUM(B1:B3')).toBe('=SUM(B1:B3 is not a valid formula')
    expect(replacedInputProblem('=B1+')).not.toBeNull()
    expect(replacedInputProblem('=Rate*2')).toBeNull()
    expect(replacedInputProblem('plain text (')).toBeNull()
    expect(replacedInputProblem('=')).toBeNull()
  })
})
