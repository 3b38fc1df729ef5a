import { describe, expect, it } from 'vitest'
import { WorkbookModel } from '@finsheet/workbook/model'
import { borderCommand } from './borders'

const block = { startCol: 1, startRow: 1, endCol: 2, endRow: 3 } // B2:C4

function bordersAfter(choice: Parameters<typeof borderCommand>[2]) {
  const model = new WorkbookModel({ sheets: [{ id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] }] })
  model.apply([{ type: 'format-cells', sheet: 'Sheet1', ranges: ['C4'], style: { borders: { left: { line: 'dotted' } } } }])
  model.apply([borderCommand('Sheet1', block, choice)])
  return (address: string) => model.styleAt('s1', address)?.borders
}

describe('borderCommand', () => {
  it('draws the outline of the block as one change, keeping edges the cells had', () => {
    const borders = bordersAfter('outside')
    expect(borders('B2')).toEqual({ top: { line: 'thin' }, left: { line: 'thin' } })
    expect(borders('C2')).toEqual({ top: { line: 'thin' }, right: { line: 'thin' } })
    expect(borders('B3')).toEqual({ left: { line: 'thin' } })
    expect(borders('C4')).toEqual({ left: { line: 'dotted' }, bottom: { line: 'thin' }, right: { line: 'thin' } })
  })

  it('draws every edge, one side, a thick bottom, or removes them all', () => {
    expect(bordersAfter('all')('B3')).toEqual({ top: { line: 'thin' }, right: { line: 'thin' }, bottom: { line: 'thin' }, left: { line: 'thin' } })
    expect(bordersAfter('bottom')('B4')).toEqual({ bottom: { line: 'thin' } })
    expect(bordersAfter('bottom')('B3')).toBeUndefined()
    expect(bordersAfter('thick-bottom')('C4')).toEqual({ left: { line: 'dotted' }, bottom: { line: 'medium' } })
    expect(bordersAfter('right')('C2')).toEqual({ right: { line: 'thin' } })
    expect(bordersAfter('none')('C4')).toBeUndefined()
  })
})
