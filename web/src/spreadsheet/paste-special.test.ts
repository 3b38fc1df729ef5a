import { describe, expect, it } from 'vitest'
import { MAX_COLUMNS, MAX_ROWS, parseRangeAddress, rangeAddress } from '../grid/address'
import type { CopiedBlock } from './paste-special'
import { planPasteSpecial, valueInput } from './paste-special'

const bounds = { columnCount: MAX_COLUMNS, rowCount: MAX_ROWS }
const range = (text: string) => parseRangeAddress(text)!

/** A1:B2 copied: numbers in row 1, formulas in row 2, a format and a style on A1. */
const block: CopiedBlock = {
  range: range('A1:B2'),
  inputs: [
    ['10', '20'],
    ['=A1*2', '=$A$1+B1'],
  ],
  values: [
    [10, 20],
    [20, 30],
  ],
  styles: [
    [{ bold: true }, undefined],
    [undefined, undefined],
  ],
  formats: [
    ['0.0%', undefined],
    [undefined, undefined],
  ],
}

const byAddress = (cells: { address: string }[]) => Object.fromEntries(cells.map(({ address, ...rest }) => [address, rest]))

describe('planPasteSpecial', () => {
  it('pastes values only: the calculated numbers, no formulas, formats untouched', () => {
    const { cells, range: landed } = planPasteSpecial(block, range('D1'), { part: 'values', transpose: false }, bounds)
    expect(rangeAddress(landed)).toBe('D1:E2')
    expect(byAddress(cells)).toEqual({ D1: { input: 10 }, E1: { input: 20 }, D2: { input: 20 }, E2: { input: 30 } })
  })

  it('pastes formulas with their relative references moved, and no formats', () => {
    const cells = byAddress(planPasteSpecial(block, range('D3'), { part: 'formulas', transpose: false }, bounds).cells)
    expect(cells.D4).toEqual({ input: '=D3*2' })
    expect(cells.E4).toEqual({ input: '=$A$1+E3' })
    expect(cells.D3).toEqual({ input: '10' })
  })

  it('pastes formats only: style and number format, contents untouched', () => {
    const cells = byAddress(planPasteSpecial(block, range('D1'), { part: 'formats', transpose: false }, bounds).cells)
    expect(cells.D1).toEqual({ style: { bold: true }, format: '0.0%' })
    expect(cells.E2).toEqual({ style: null, format: null })
  })

  it('transposes: rows become columns, formulas moved by where each cell lands', () => {
    const { cells, range: landed } = planPasteSpecial(block, range('D3'), { part: 'all', transpose: true }, bounds)
    expect(rangeAddress(landed)).toBe('D3:E4')
    const pasted = byAddress(cells)
    // A2 (=A1*2) lands on E3: one row down and four columns right of where it was
    expect(pasted.E3).toMatchObject({ input: '=E2*2' })
    // B1 (20) lands on D4
    expect(pasted.D4).toMatchObject({ input: '20' })
    expect(pasted.D3).toMatchObject({ input: '10', style: { bold: true }, format: '0.0%' })
  })

  it('transposes a row into a column', () => {
    const row: CopiedBlock = { range: range('A1:C1'), inputs: [['1', '2', '3']], values: [[1, 2, 3]], styles: [[undefined, undefined, undefined]], formats: [[undefined, undefined, undefined]] }
    const { cells, range: landed } = planPasteSpecial(row, range('A3'), { part: 'values', transpose: true }, bounds)
    expect(rangeAddress(landed)).toBe('A3:A5')
    expect(byAddress(cells)).toEqual({ A3: { input: 1 }, A4: { input: 2 }, A5: { input: 3 } })
  })
})

describe('valueInput', () => {
  it('writes values back as themselves', () => {
    expect(valueInput(0.1 + 0.2)).toBe(0.1 + 0.2)
    expect(valueInput(true)).toBe(true)
    expect(valueInput(null)).toBe('')
    expect(valueInput({ code: '#DIV/0!' })).toBe('#DIV/0!')
    expect(valueInput('Revenue')).toBe('Revenue')
    // text that would read as a number or a formula stays text
    expect(valueInput('123')).toBe("'123")
    expect(valueInput('=A1')).toBe("'=A1")
  })
})
