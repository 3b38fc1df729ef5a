import { describe, expect, it } from 'vitest'
import type { DataValidationRule, WorkbookCommand } from '@finsheet/contracts'
import { CommandError } from './command-checks.js'
import { applyDataValidation, criteriaProblem, typedListFormula, typedListItems, validationAt } from './data-validation.js'
import { rebaseCommands } from './rebase.js'
import { WorkbookModel } from './workbook-model.js'

const twoSheets = () =>
  new WorkbookModel({
    sheets: [
      { id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] },
      { id: 's2', name: 'Lists', columnWidths: {}, merges: [] },
    ],
  })

const list = (ranges: string[], formula1 = '"Low,High"'): DataValidationRule => ({ ranges, type: 'list', formula1, allowBlank: true })
const positive = (ranges: string[]): DataValidationRule => ({ ranges, type: 'custom', formula1: 'B2>0', errorStyle: 'warning' })

function set(model: WorkbookModel, clear: string[], rules: DataValidationRule[], sheet = 'Sheet1'): WorkbookCommand[] {
  return model.apply([{ type: 'set-data-validation', sheet, clear, rules }]).inverse
}

describe('set-data-validation', () => {
  it('adds a rule and its inverse clears it', () => {
    const model = twoSheets()
    const inverse = set(model, [], [list(['B2:B9'])])
    expect(model.sheets[0].validations).toEqual([list(['B2:B9'])])
    model.apply(inverse)
    expect(model.sheets[0].validations).toBeUndefined()
  })

  it('takes the cells out of older rules, and undo puts back exactly what was there', () => {
    const model = twoSheets()
    set(model, [], [positive(['B2:D4'])])
    const before = structuredClone(model.sheets[0].validations)
    const inverse = set(model, ['C3'], [list(['C3'])])
    const rules = model.sheets[0].validations!
    expect(rules).toHaveLength(2)
    expect(rules[0].ranges).toEqual(['B2:D2', 'B4:D4', 'B3', 'D3'])
    // The first range still starts at B2, so the formula is unchanged.
    expect(rules[0].formula1).toBe('B2>0')
    expect(validationAt(rules, 2, 2)?.type).toBe('list')
    expect(validationAt(rules, 1, 1)?.type).toBe('custom')
    model.apply(inverse)
    const after = model.sheets[0].validations!
    // C3 is back under the custom rule, its formula written for C3 itself.
    expect(validationAt(after, 2, 2)).toMatchObject({ type: 'custom', formula1: 'C3>0', ranges: ['C3'] })
    const cellsUnder = (rules: readonly DataValidationRule[]) => {
      const seen: string[] = []
      for (let row = 0; row < 6; row++) for (let col = 0; col < 6; col++) seen.push(validationAt(rules, row, col)?.type ?? '-')
      return seen
    }
    expect(cellsUnder(after)).toEqual(cellsUnder(before!))
  })

  it('moves formulas to the new anchor when the first cell of a rule is cleared', () => {
    const model = twoSheets()
    set(model, [], [positive(['B2:B4'])])
    set(model, ['B2'], [])
    expect(model.sheets[0].validations).toEqual([{ ...positive(['B3:B4']), formula1: 'B3>0' }])
  })

  it('refuses bad criteria, and nothing is written', () => {
    const model = twoSheets()
    const attempt = (rule: DataValidationRule) => () => set(model, [], [rule])
    expect(attempt({ ranges: ['A1'], type: 'list', formula1: '' })).toThrow(CommandError)
    expect(attempt({ ranges: ['A1'], type: 'whole', operator: 'between', formula1: '1' })).toThrow(/maximum/)
    expect(attempt({ ranges: ['A1'], type: 'custom', formula1: 'SUM(' })).toThrow(/problem with this formula/)
    expect(attempt({ ranges: ['not a range'], type: 'list', formula1: '"a"' })).toThrow(/not a range/)
    expect(model.sheets[0].validations).toBeUndefined()
  })

  it('moves ranges and formulas when rows are inserted and deleted, and undo of a deletion restores the rules', () => {
    const model = twoSheets()
    set(model, [], [list(['B2:B9'], 'Lists!$A$1:$A$5')])
    set(model, [], [{ ranges: ['D5'], type: 'decimal', operator: 'lessThan', formula1: '$C$5' }])
    model.apply([{ type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 2 }])
    expect(model.sheets[0].validations).toEqual([list(['B4:B11'], 'Lists!$A$1:$A$5'), { ranges: ['D7'], type: 'decimal', operator: 'lessThan', formula1: '$C$7' }])
    // The list's source follows rows inserted on its own sheet.
    model.apply([{ type: 'insert-rows', sheet: 'Lists', at: 0, count: 1 }])
    expect(model.sheets[0].validations![0].formula1).toBe('Lists!$A$2:$A$6')
    const before = structuredClone(model.sheets[0].validations)
    const { inverse } = model.apply([{ type: 'delete-rows', sheet: 'Sheet1', at: 5, count: 3 }])
    expect(model.sheets[0].validations).toEqual([list(['B4:B8'], 'Lists!$A$2:$A$6')])
    model.apply(inverse)
    expect(model.sheets[0].validations).toEqual(before)
  })

  it('follows a renamed sheet, and deleting a sheet is undone with its rules', () => {
    const model = twoSheets()
    set(model, [], [list(['A1'], 'Lists!$A$1:$A$3')])
    set(model, [], [list(['C1'])], 'Lists')
    model.apply([{ type: 'rename-sheet', from: 'Lists', to: 'Choices' }])
    expect(model.sheets[0].validations![0].formula1).toBe('Choices!$A$1:$A$3')
    const { inverse } = model.apply([{ type: 'delete-sheet', name: 'Choices' }])
    model.apply(inverse)
    expect(model.sheets[1].validations).toEqual([list(['C1'])])
  })

  it('rebases an edit made before rows were inserted', () => {
    const rebased = rebaseCommands(
      [{ type: 'set-data-validation', sheet: 's1', clear: ['A1:A3'], rules: [list(['A1:A3'])] }],
      [{ type: 'structure', sheetId: 's1', sheetName: 'Sheet1', edit: { axis: 'rows', kind: 'insert', at: 1, count: 2 } }],
      new Map([['s1', 'Sheet1']]),
    )
    expect(rebased).toEqual({ commands: [{ type: 'set-data-validation', sheet: 's1', clear: ['A1:A5'], rules: [list(['A1:A5'])] }] })
  })

  it('rebases the formulas of an edit made before rows were inserted above it and on the sheet its list reads', () => {
    const rebased = rebaseCommands(
      [{ type: 'set-data-validation', sheet: 's1', clear: [], rules: [{ ...positive(['B2:B4']) }, list(['C2'], 'Lists!$A$1:$A$3')] }],
      [
        { type: 'structure', sheetId: 's1', sheetName: 'Sheet1', edit: { axis: 'rows', kind: 'insert', at: 0, count: 2 } },
        { type: 'structure', sheetId: 's2', sheetName: 'Lists', edit: { axis: 'rows', kind: 'insert', at: 0, count: 1 } },
      ],
      new Map([['s1', 'Sheet1'], ['s2', 'Lists']]),
    )
    expect(rebased).toEqual({
      commands: [{ type: 'set-data-validation', sheet: 's1', clear: [], rules: [{ ...positive(['B4:B6']), formula1: 'B4>0' }, list(['C4'], 'Lists!$A$2:$A$4')] }],
    })
  })
})

describe('rule criteria', () => {
  it('reads and writes typed lists as Excel keeps them', () => {
    expect(typedListItems('"Low, Medium ,High"')).toEqual(['Low', 'Medium', 'High'])
    expect(typedListFormula(['Low', 'High'])).toBe('"Low,High"')
    expect(criteriaProblem({ type: 'list', formula1: '""' })).toMatch(/at least one item/)
    expect(criteriaProblem({ type: 'textLength', operator: 'lessThanOrEqual', formula1: '10' })).toBeUndefined()
  })

  it('drops fields a type does not use', () => {
    const { rules } = applyDataValidation(undefined, { clear: [], rules: [{ ranges: ['A1'], type: 'list', operator: 'between', formula1: '"a"', formula2: '3' }] })
    expect(rules).toEqual([{ ranges: ['A1'], type: 'list', formula1: '"a"' }])
  })
})
