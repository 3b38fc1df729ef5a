import { describe, expect, it } from 'vitest'
import type { ConditionalFormatRule } from '@finsheet/contracts'
import { ConditionalFormatEvaluator, scaleColour } from './conditional-evaluation.js'
import { WorkbookModel } from './workbook-model.js'

/** A sheet with 1..10 in A1:A10 and the given rules; returns a fresh evaluator per call (one per recalculation). */
function sheetWith(rules: ConditionalFormatRule[], cells: { address: string; input: string }[] = []) {
  const model = new WorkbookModel({ sheets: [{ id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] }] })
  model.apply([
    { type: 'set-cells', sheet: 'Sheet1', cells: [...Array.from({ length: 10 }, (_, i) => ({ address: `A${i + 1}`, input: String(i + 1) })), ...cells] },
    { type: 'set-conditional-formats', sheet: 'Sheet1', rules },
  ])
  const evaluator = () => new ConditionalFormatEvaluator(model.engine, 'Sheet1', model.sheets[0].conditionalFormats ?? [])
  return { model, evaluator, look: (row: number, col = 0) => evaluator().lookAt(row, col) }
}

const red = { fill: '#FFC7CE', color: '#9C0006' }

describe('conditional formats evaluated by the engine', () => {
  it('a cell-value rule follows the value when it changes', () => {
    const { model, look } = sheetWith([{ type: 'cellIs', ranges: ['A1:A10'], operator: 'greaterThan', formulas: ['5'], style: red }])
    expect(look(5)?.style).toEqual(red)
    expect(look(4)).toBeUndefined()
    model.apply([{ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A6', input: '2' }] }])
    expect(look(5)).toBeUndefined()
  })

  it('between reads its operands as formulas, relative to the top-left cell', () => {
    const { look } = sheetWith(
      [{ type: 'cellIs', ranges: ['A1:A10'], operator: 'between', formulas: ['B1', '$C$1'], style: { bold: true } }],
      [
        { address: 'B3', input: '1' },
        { address: 'C1', input: '4' },
        { address: 'B5', input: '9' },
      ],
    )
    expect(look(2)?.style).toEqual({ bold: true }) // 3 between B3=1 and 4
    expect(look(4)?.style).toEqual({ bold: true }) // 5 between B5=9 and 4 (either order)
    expect(look(6)).toBeUndefined() // 7 vs B7 (empty, 0) and 4
  })

  it('a formula rule moves its relative references along the range', () => {
    const { look } = sheetWith([{ type: 'expression', ranges: ['A1:A10'], formulas: ['MOD(A1,2)=0'], style: { italic: true } }])
    expect([0, 1, 2, 3].map((row) => look(row)?.style?.italic ?? false)).toEqual([false, true, false, true])
  })

  it('priority: the first rule wins a property, stopIfTrue ends the list', () => {
    const rules: ConditionalFormatRule[] = [
      { type: 'cellIs', ranges: ['A1:A10'], operator: 'greaterThan', formulas: ['8'], style: { fill: '#00FF00' }, stopIfTrue: true },
      { type: 'cellIs', ranges: ['A1:A10'], operator: 'greaterThan', formulas: ['5'], style: { fill: '#FF0000', bold: true } },
    ]
    const { look } = sheetWith(rules)
    expect(look(9)?.style).toEqual({ fill: '#00FF00' })
    expect(look(6)?.style).toEqual({ fill: '#FF0000', bold: true })
  })

  it('text, top and bottom, average and duplicates', () => {
    const { look: textLook } = sheetWith([{ type: 'containsText', ranges: ['B1:B3'], operator: 'containsText', text: 'loss', style: red }], [
      { address: 'B1', input: 'Net Loss' },
      { address: 'B2', input: 'Profit' },
    ])
    expect(textLook(0, 1)?.style).toEqual(red)
    expect(textLook(1, 1)).toBeUndefined()
    const { look: top } = sheetWith([{ type: 'top10', ranges: ['A1:A10'], rank: 20, percent: true, style: { bold: true } }])
    expect([9, 8, 7].map((row) => Boolean(top(row)))).toEqual([true, true, false])
    const { look: bottom } = sheetWith([{ type: 'top10', ranges: ['A1:A10'], rank: 3, bottom: true, style: { bold: true } }])
    expect([0, 2, 3].map((row) => Boolean(bottom(row)))).toEqual([true, true, false])
    const { look: below } = sheetWith([{ type: 'aboveAverage', ranges: ['A1:A10'], below: true, style: { bold: true } }])
    expect([4, 5].map((row) => Boolean(below(row)))).toEqual([true, false])
    const { look: dupes } = sheetWith([{ type: 'duplicateValues', ranges: ['A1:A10'], style: { bold: true } }], [{ address: 'A10', input: '3' }])
    expect([2, 9, 4].map((row) => Boolean(dupes(row)))).toEqual([true, true, false])
  })

  it('colour scales shade between their stops; data bars and icons scale with the range', () => {
    const { look } = sheetWith([
      { type: 'colorScale', ranges: ['A1:A10'], thresholds: [{ kind: 'min' }, { kind: 'percentile', value: '50' }, { kind: 'max' }], colors: ['#F8696B', '#FFEB84', '#63BE7B'] },
    ])
    expect(look(0)?.scaleFill).toBe('#f8696b')
    expect(look(9)?.scaleFill).toBe('#63be7b')
    expect(scaleColour(5.5, [1, 5.5, 10], ['#000000', '#808080', '#FFFFFF'])).toBe('#808080')
    const { look: bars } = sheetWith([{ type: 'dataBar', ranges: ['A1:A10'], thresholds: [{ kind: 'num', value: '0' }, { kind: 'max' }], colors: ['#638EC6'] }])
    expect(bars(4)?.bar).toEqual({ fraction: 0.5, color: '#638EC6' })
    const { look: icons } = sheetWith([
      { type: 'iconSet', ranges: ['A1:A10'], iconSet: '3Arrows', thresholds: [{ kind: 'percent', value: '0' }, { kind: 'percent', value: '33' }, { kind: 'percent', value: '67' }] },
    ])
    expect([0, 5, 9].map((row) => icons(row)?.icon?.index)).toEqual([0, 1, 2])
  })
})
