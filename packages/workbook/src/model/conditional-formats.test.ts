import { describe, expect, it } from 'vitest'
import type { ConditionalFormatRule } from '@finsheet/contracts'
import { CommandError } from './command-checks.js'
import { rebaseCommands } from './rebase.js'
import { WorkbookModel } from './workbook-model.js'

const blank = () =>
  new WorkbookModel({
    sheets: [
      { id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] },
      { id: 's2', name: 'Sheet2', columnWidths: {}, merges: [] },
    ],
  })

const greater: ConditionalFormatRule = { type: 'cellIs', ranges: ['B2:B10'], operator: 'greaterThan', formulas: ['100'], style: { fill: '#FFC7CE', color: '#9C0006' } }
const byFormula: ConditionalFormatRule = { type: 'expression', ranges: ['A2:C10'], formulas: ['$C2>A$1'], style: { bold: true } }

describe('set-conditional-formats', () => {
  it('stores the rules in order and its inverse puts back the list before', () => {
    const model = blank()
    model.apply([{ type: 'set-conditional-formats', sheet: 'Sheet1', rules: [greater] }])
    const { inverse } = model.apply([{ type: 'set-conditional-formats', sheet: 'Sheet1', rules: [byFormula, greater] }])
    expect(model.sheets[0].conditionalFormats).toEqual([byFormula, greater])
    model.apply(inverse)
    expect(model.sheets[0].conditionalFormats).toEqual([greater])
    const cleared = model.apply([{ type: 'set-conditional-formats', sheet: 'Sheet1', rules: [] }])
    expect(model.sheets[0].conditionalFormats).toBeUndefined()
    model.apply(cleared.inverse)
    expect(model.sheets[0].conditionalFormats).toEqual([greater])
  })

  it('refuses a formula that does not parse, a missing operand and a bad range, and writes nothing', () => {
    const model = blank()
    const refused = (rule: ConditionalFormatRule) => () => model.apply([{ type: 'set-conditional-formats', sheet: 'Sheet1', rules: [rule] }])
    expect(refused({ type: 'expression', ranges: ['A1:A3'], formulas: ['A1>(2'] })).toThrow(/cannot be read/)
    expect(refused({ type: 'cellIs', ranges: ['A1:A3'], operator: 'between', formulas: ['1'] })).toThrow(/two values/)
    expect(refused({ type: 'cellIs', ranges: ['A0:A3'], operator: 'equal', formulas: ['1'] })).toThrow(CommandError)
    expect(refused({ type: 'colorScale', ranges: ['A1:A3'], thresholds: [{ kind: 'min' }, { kind: 'max' }], colors: ['#FFFFFF'] })).toThrow(/one colour per threshold/)
    expect(model.sheets[0].conditionalFormats).toBeUndefined()
  })

  it('moves ranges and formulas with inserted rows and columns; undo restores them exactly', () => {
    const model = blank()
    model.apply([{ type: 'set-conditional-formats', sheet: 'Sheet1', rules: [greater, byFormula] }])
    const inserted = model.apply([{ type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 2 }])
    expect(model.sheets[0].conditionalFormats?.[0].ranges).toEqual(['B4:B12'])
    expect(model.sheets[0].conditionalFormats?.[1]).toMatchObject({ ranges: ['A4:C12'], formulas: ['$C4>A$3'] })
    model.apply(inserted.inverse)
    expect(model.sheets[0].conditionalFormats).toEqual([greater, byFormula])
    model.apply([{ type: 'insert-columns', sheet: 'Sheet1', at: 1, count: 1 }])
    expect(model.sheets[0].conditionalFormats?.[1]).toMatchObject({ ranges: ['A2:D10'], formulas: ['$D2>A$1'] })
  })

  it('narrows ranges cut by a deletion, drops a rule wholly deleted, and undo brings both back', () => {
    const model = blank()
    model.apply([{ type: 'set-conditional-formats', sheet: 'Sheet1', rules: [greater, byFormula] }])
    const deleted = model.apply([{ type: 'delete-rows', sheet: 'Sheet1', at: 1, count: 1 }])
    // The formula rule's top row went: its formula is written for the row that is now its first.
    expect(model.sheets[0].conditionalFormats?.[1]).toMatchObject({ ranges: ['A2:C9'], formulas: ['$C2>A$1'] })
    model.apply(deleted.inverse)
    expect(model.sheets[0].conditionalFormats).toEqual([greater, byFormula])
    const gone = model.apply([{ type: 'delete-columns', sheet: 'Sheet1', at: 1, count: 1 }])
    expect(model.sheets[0].conditionalFormats).toHaveLength(1)
    model.apply(gone.inverse)
    expect(model.sheets[0].conditionalFormats).toEqual([greater, byFormula])
  })

  it('formulas follow a renamed sheet, and undo names it again', () => {
    const model = blank()
    const crossSheet: ConditionalFormatRule = { type: 'expression', ranges: ['A1:A5'], formulas: ['A1>Sheet2!$B$1'], style: { bold: true } }
    model.apply([{ type: 'set-conditional-formats', sheet: 'Sheet1', rules: [crossSheet] }])
    const { inverse } = model.apply([{ type: 'rename-sheet', from: 'Sheet2', to: 'Inputs' }])
    expect(model.sheets[0].conditionalFormats?.[0].formulas).toEqual(['A1>Inputs!$B$1'])
    model.apply(inverse)
    expect(model.sheets[0].conditionalFormats).toEqual([crossSheet])
  })

  it('goes with cut cells, to another sheet too, and undo brings it back', () => {
    const model = blank()
    model.apply([{ type: 'set-conditional-formats', sheet: 'Sheet1', rules: [greater, byFormula] }])
    const moved = model.apply([{ type: 'move-cells', sheet: 'Sheet1', range: 'B2:B10', target: 'E3' }])
    expect(model.sheets[0].conditionalFormats?.map((rule) => rule.ranges)).toEqual([['E3:E11'], ['A2:C10']])
    model.apply(moved.inverse)
    expect(model.sheets[0].conditionalFormats).toEqual([greater, byFormula])
    const across = model.apply([{ type: 'move-cells', sheet: 'Sheet1', range: 'A1:C10', targetSheet: 'Sheet2', target: 'B1' }])
    expect(model.sheets[0].conditionalFormats).toBeUndefined()
    expect(model.sheets[1].conditionalFormats).toMatchObject([{ ranges: ['C2:C10'] }, { ranges: ['B2:D10'], formulas: ['$C2>B$1'] }])
    model.apply(across.inverse)
    expect(model.sheets[0].conditionalFormats).toEqual([greater, byFormula])
    expect(model.sheets[1].conditionalFormats).toBeUndefined()
  })

  it('comes back with its sheet when a sheet deletion is undone', () => {
    const model = blank()
    model.apply([{ type: 'set-conditional-formats', sheet: 'Sheet2', rules: [greater] }])
    const { inverse } = model.apply([{ type: 'delete-sheet', name: 'Sheet2' }])
    model.apply(inverse)
    expect(model.sheets[1].conditionalFormats).toEqual([greater])
  })

  it('made on an older revision, follows the rows inserted since', () => {
    const rebased = rebaseCommands(
      [{ type: 'set-conditional-formats', sheet: 's1', rules: [greater] }],
      [{ type: 'structure', sheetId: 's1', sheetName: 'Sheet1', edit: { axis: 'rows', kind: 'insert', at: 0, count: 3 } }],
      new Map([['s1', 'Sheet1']]),
    )
    expect(rebased).toEqual({ commands: [{ type: 'set-conditional-formats', sheet: 's1', rules: [{ ...greater, ranges: ['B5:B13'] }] }] })
  })
})
