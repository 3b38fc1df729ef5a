import { describe, expect, it } from 'vitest'
import type { WorkbookCommand } from '@finsheet/contracts'
import { formatAddress, parseAddress } from './a1.js'
import { toJsonValue } from './cell-record.js'
import { WorkbookModel } from './workbook-model.js'

/** The same content with `gap` empty rows and columns between its cells. */
function modelWith(gap: number): WorkbookModel {
  const model = new WorkbookModel({ sheets: [{ id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] }] })
  const at = (row: number, col: number) => formatAddress(row * (gap + 1), col * (gap + 1))
  const cells = [
    { address: at(0, 0), input: '5' },
    { address: at(0, 1), input: `=${at(0, 0)}*2` },
    { address: at(0, 2), input: '=1/0' },
    { address: at(1, 0), input: '10%' },
    { address: at(1, 1), input: 'label' },
    // Spills into the cells below it when nothing stands there.
    { address: at(1, 2), input: '=SEQUENCE(2)' },
  ]
  const commands: WorkbookCommand[] = [
    { type: 'set-cells', sheet: 'Sheet1', cells },
    { type: 'format-cells', sheet: 'Sheet1', ranges: [at(2, 0)], style: { bold: true } },
    { type: 'format-cells', sheet: 'Sheet1', ranges: [at(2, 1), at(0, 1)], format: '0.00' },
  ]
  model.apply(commands)
  return model
}

/** What a store of every cell keeps of each record, row by row: the reference the walk must match. */
function expectedParts(model: WorkbookModel) {
  return model
    .sheetRecords('s1')
    .map((record) => {
      const { row, col } = parseAddress(record.address)
      const extras: Record<string, unknown> = {}
      if (record.type === 'error') extras.error = true
      if (record.style !== undefined) extras.style = record.style
      if (record.userFormat !== undefined) extras.userFormat = record.userFormat
      if (record.suggestedFormat !== undefined) extras.suggestedFormat = record.suggestedFormat
      if (record.arrayRange !== undefined) extras.arrayRange = record.arrayRange
      return { row, col, input: record.input, value: toJsonValue(record.value), extras: Object.keys(extras).length > 0 ? extras : undefined }
    })
    .sort((a, b) => a.row - b.row || a.col - b.col)
}

describe('cellPartsRowMajor', () => {
  it('gives every cell with content, a style or a format, row by row, as its record says', () => {
    const model = modelWith(0)
    const parts = [...model.cellPartsRowMajor('s1')]
    expect(parts).toEqual(expectedParts(model))
    // The spill, the error, the suggested and the user's formats and the style-only cell are all there.
    const at = (address: string) => parts.find((part) => formatAddress(part.row, part.col) === address)
    expect(parts.map((part) => formatAddress(part.row, part.col))).toEqual(['A1', 'B1', 'C1', 'A2', 'B2', 'C2', 'A3', 'B3', 'C3'])
    expect(at('C3')).toMatchObject({ input: '', value: 2 })
    expect(at('C1')?.extras).toEqual({ error: true })
    expect(at('A2')?.extras).toEqual({ suggestedFormat: '0%' })
  })

  it('walks a sheet whose cells stand far apart the same way', () => {
    const model = modelWith(60)
    expect([...model.cellPartsRowMajor('s1')]).toEqual(expectedParts(model))
  })
})
