import { describe, expect, it } from 'vitest'
import { WorkbookStore } from '../workbook/workbook-store'
import { describeConditionalLook, withConditionalLook } from './conditional-looks'

describe('conditional looks in the grid', () => {
  it("lays a rule's format over the cell's own, and a scale's fill under a rule's fill", () => {
    const own = { text: '5', align: 'right' as const, numeric: true, error: false, style: { fill: '#EEEEEE', italic: true, bold: true } }
    expect(withConditionalLook(own, { style: { color: '#9C0006', bold: false } }).style).toEqual({ fill: '#EEEEEE', italic: true, bold: false, color: '#9C0006' })
    expect(withConditionalLook(own, { scaleFill: '#63be7b' }).style?.fill).toBe('#63be7b')
    expect(withConditionalLook(own, { scaleFill: '#63be7b', style: { fill: '#FFC7CE' } }).style?.fill).toBe('#FFC7CE')
    expect(withConditionalLook(undefined, { bar: { fraction: 0.5, color: '#638EC6' } })).toMatchObject({ text: '', bar: { fraction: 0.5 } })
    expect(withConditionalLook(own, { style: { format: '0.00' } }, '5.00').text).toBe('5.00')
    // a hidden value is kept for reading (the cell's label), only not drawn
    expect(withConditionalLook(own, { icon: { set: '3Arrows', index: 0, count: 3 }, hideValue: true })).toMatchObject({ text: '5', hideText: true })
  })

  it('describes the look in words for assistive technology', () => {
    expect(describeConditionalLook(undefined)).toBe('')
    expect(describeConditionalLook({ style: { fill: '#FFC7CE', color: '#9C0006', bold: true } })).toBe('Conditional format: fill #ffc7ce, text #9c0006, bold')
    expect(describeConditionalLook({ bar: { fraction: 0.25, color: '#000' }, icon: { set: '3Arrows', index: 2, count: 3 } })).toBe('Conditional format: data bar 25%, icon 3 of 3')
  })

  it('the store draws the look and follows the values after each change', () => {
    const store = new WorkbookStore({ id: 'wb', sheets: [{ name: 'Sheet1', cells: { A1: { input: '5' }, A2: { input: '=A1*3' } } }] })
    store.dispatch({ type: 'set-conditional-formats', sheet: 'Sheet1', rules: [{ type: 'cellIs', ranges: ['A1:A2'], operator: 'greaterThan', formulas: ['10'], style: { fill: '#FFC7CE', format: '0.0' } }] })
    const source = store.dataSource('Sheet1')!
    expect(source.getCell(0, 1)).toMatchObject({ text: '15.0', style: { fill: '#FFC7CE' } })
    expect(source.getCell(0, 0)?.style).toBeUndefined()
    store.dispatch({ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A1', input: '2' }] })
    expect(store.dataSource('Sheet1')!.getCell(0, 1)).toMatchObject({ text: '6' })
    expect(store.dataSource('Sheet1')!.getCell(0, 1)?.style).toBeUndefined()
    expect(store.conditionalLook('Sheet1', { col: 0, row: 1 })).toBeUndefined()
    store.undo()
    expect(store.conditionalLook('Sheet1', { col: 0, row: 1 })?.style?.fill).toBe('#FFC7CE')
  })
})
