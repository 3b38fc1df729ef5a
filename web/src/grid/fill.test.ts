import { describe, expect, it } from 'vitest'
import type { CellPosition } from './address'
import { cellAddress, parseRangeAddress, rangeAddress } from './address'
import { fillCopy, fillDownExtent, fillSeries, fillTargetRange } from './fill'
import { translateFormula } from './formula-editing'

function sheet(cells: Record<string, string>) {
  return (pos: CellPosition) => cells[cellAddress(pos)] ?? ''
}
const asMap = (filled: { pos: CellPosition; input: string }[]) =>
  Object.fromEntries(filled.map((f) => [cellAddress(f.pos), f.input]))
const range = (text: string) => parseRangeAddress(text)!

describe('fill handle', () => {
  it('extends along the axis the pointer moved furthest', () => {
    expect(rangeAddress(fillTargetRange(range('A1:B2'), { col: 1, row: 6 }))).toBe('A1:B7')
    expect(rangeAddress(fillTargetRange(range('A1:B2'), { col: 4, row: 2 }))).toBe('A1:E2')
    expect(rangeAddress(fillTargetRange(range('C3'), { col: 2, row: 0 }))).toBe('C1:C3')
    expect(rangeAddress(fillTargetRange(range('C3'), { col: 2, row: 2 }))).toBe('C3')
  })

  it('copies a single number and continues a linear trend of two or more', () => {
    expect(asMap(fillSeries(range('A1'), range('A1:A3'), sheet({ A1: '5' }), translateFormula))).toEqual({ A2: '5', A3: '5' })
    expect(asMap(fillSeries(range('A1:A2'), range('A1:A5'), sheet({ A1: '1', A2: '3' }), translateFormula))).toEqual({
      A3: '5', A4: '7', A5: '9',
    })
    expect(asMap(fillSeries(range('A1:A2'), range('A1:A4'), sheet({ A1: '0.1', A2: '0.2' }), translateFormula))).toEqual({
      A3: '0.3', A4: '0.4',
    })
  })

  it('continues a trend of more numbers than fit on the call stack', () => {
    const cells: Record<string, string> = {}
    for (let row = 1; row <= 300_000; row++) cells[`A${row}`] = String(row * 2)
    const filled = fillSeries(range('A1:A300000'), range('A1:A300002'), sheet(cells), translateFormula)
    expect(asMap(filled)).toEqual({ A300001: '600002', A300002: '600004' })
  })

  it('fills upwards and leftwards by continuing backwards', () => {
    expect(asMap(fillSeries(range('A3:A4'), range('A1:A4'), sheet({ A3: '10', A4: '20' }), translateFormula))).toEqual({
      A1: '-10', A2: '0',
    })
    expect(asMap(fillSeries(range('C1'), range('A1:C1'), sheet({ C1: 'Year 3' }), translateFormula))).toEqual({
      A1: 'Year 1', B1: 'Year 2',
    })
  })

  it('counts on text ending in a number and continues month and day names', () => {
    expect(asMap(fillSeries(range('A1'), range('A1:C1'), sheet({ A1: 'Year 1' }), translateFormula))).toEqual({
      B1: 'Year 2', C1: 'Year 3',
    })
    expect(asMap(fillSeries(range('A1'), range('A1:A3'), sheet({ A1: 'Q1' }), translateFormula))).toEqual({ A2: 'Q2', A3: 'Q3' })
    expect(asMap(fillSeries(range('A1'), range('A1:D1'), sheet({ A1: 'Nov' }), translateFormula))).toEqual({
      B1: 'Dec', C1: 'Jan', D1: 'Feb',
    })
    expect(asMap(fillSeries(range('A1:A2'), range('A1:A4'), sheet({ A1: 'Monday', A2: 'Wednesday' }), translateFormula))).toEqual({
      A3: 'Friday', A4: 'Sunday',
    })
  })

  it('moves the relative references of formulas and repeats plain text', () => {
    expect(asMap(fillSeries(range('B1'), range('B1:B3'), sheet({ B1: '=A1*$C$1' }), translateFormula))).toEqual({
      B2: '=A2*$C$1', B3: '=A3*$C$1',
    })
    expect(asMap(fillSeries(range('A1:A2'), range('A1:A5'), sheet({ A1: 'x', A2: 'y' }), translateFormula))).toEqual({
      A3: 'x', A4: 'y', A5: 'x',
    })
  })
})

describe('Ctrl+D and Ctrl+R', () => {
  it('copies the top row down over the selection', () => {
    const filled = fillCopy(range('A1:B3'), 'down', sheet({ A1: '=C1+1', B1: '7' }), translateFormula)
    expect(asMap(filled)).toEqual({ A2: '=C2+1', A3: '=C3+1', B2: '7', B3: '7' })
  })

  it('copies the cell above into a one-row selection, and nothing at the top edge', () => {
    expect(asMap(fillCopy(range('A2'), 'down', sheet({ A1: 'top' }), translateFormula))).toEqual({ A2: 'top' })
    expect(fillCopy(range('A1:C1'), 'down', sheet({}), translateFormula)).toEqual([])
  })

  it('copies the left column right', () => {
    expect(asMap(fillCopy(range('B1:C1'), 'right', sheet({ B1: '=B2' }), translateFormula))).toEqual({ C1: '=C2' })
    expect(asMap(fillCopy(range('B1'), 'right', sheet({ A1: '=A2' }), translateFormula))).toEqual({ B1: '=B2' })
  })
})

describe('a single decimal number dragged down', () => {
  it('is copied, not counted on from the digits after its point', () => {
    expect(asMap(fillSeries(range('A1'), range('A1:A3'), sheet({ A1: '0.25' }), translateFormula))).toEqual({ A2: '0.25', A3: '0.25' })
    expect(asMap(fillSeries(range('A1'), range('A1:A2'), sheet({ A1: '12' }), translateFormula))).toEqual({ A2: '12' })
  })
})

describe('the source each filled cell takes its format and style from', () => {
  const sources = (filled: { pos: CellPosition; from: CellPosition }[]) =>
    Object.fromEntries(filled.map((f) => [cellAddress(f.pos), cellAddress(f.from)]))
  it('cycles through the source cells of a drag, down and up', () => {
    const cells = sheet({ A1: '1', A2: '2' })
    expect(sources(fillSeries(range('A1:A2'), range('A1:A5'), cells, translateFormula))).toEqual({ A3: 'A1', A4: 'A2', A5: 'A1' })
    expect(sources(fillSeries(range('A3:A4'), range('A1:A4'), sheet({ A3: '1', A4: '2' }), translateFormula))).toEqual({ A1: 'A3', A2: 'A4' })
  })
  it('is the copied row or column for Ctrl+D and Ctrl+R', () => {
    expect(sources(fillCopy(range('B1:B3'), 'down', sheet({ B1: '5' }), translateFormula))).toEqual({ B2: 'B1', B3: 'B1' })
    expect(sources(fillCopy(range('B2:D2'), 'right', sheet({ B2: '5' }), translateFormula))).toEqual({ C2: 'B2', D2: 'B2' })
  })
})

describe('fill handle double click', () => {
  const filled = (cells: string[]) => (pos: CellPosition) => cells.includes(cellAddress(pos))
  it('fills down as far as the column on the left goes', () => {
    const extent = fillDownExtent(range('B1'), filled(['A1', 'A2', 'A3', 'A4', 'A6']), 1000)
    expect(extent && rangeAddress(extent)).toBe('B1:B4')
  })
  it('follows the column on the right when the left is empty, and gives up with neither', () => {
    expect(rangeAddress(fillDownExtent(range('A1:A2'), filled(['B3', 'B4']), 1000)!)).toBe('A1:A4')
    expect(fillDownExtent(range('C1'), filled(['A2']), 1000)).toBeNull()
  })
})
