import { describe, expect, it } from 'vitest'
import { Engine } from './engine.js'
import { EngineUsageError, SheetNotFoundError } from '../errors.js'
import { MAX_ROW } from '../values.js'

/** Sheet1 with 1..5 in A1:A5, SUBTOTALs in B1:B3 and formulas that read them or not. */
function workbook(): Engine {
  const engine = new Engine()
  engine.addSheet('Sheet1')
  engine.setCells([
    ...[1, 2, 3, 4, 5].map((n) => ({ sheet: 'Sheet1', address: `A${n}`, input: n })),
    { sheet: 'Sheet1', address: 'B1', input: '=SUBTOTAL(9,A1:A5)' },
    { sheet: 'Sheet1', address: 'B2', input: '=SUBTOTAL(109,A1:A5)' },
    { sheet: 'Sheet1', address: 'B3', input: '=IF(TRUE,AGGREGATE(9,5,A1:A5))' },
    { sheet: 'Sheet1', address: 'C1', input: '=B1*10' },
    { sheet: 'Sheet1', address: 'C2', input: '=SUM(A1:A5)' },
  ])
  return engine
}

const values = (engine: Engine) => engine.getRangeValues('Sheet1', 'B1:C3').flat()
const changed = (changes: { address: string }[]) => changes.map((change) => change.address).sort()

describe('Engine.setHiddenRows', () => {
  it('recalculates the formulas calling SUBTOTAL or AGGREGATE and what reads them, and reports them', () => {
    const engine = workbook()
    expect(values(engine)).toEqual([15, 150, 15, 15, 15, null])
    const changes = engine.setHiddenRows('Sheet1', { hidden: [0], filtered: [4] })
    expect(values(engine)).toEqual([10, 100, 9, 15, 9, null])
    expect(changed(changes)).toEqual(['B1', 'B2', 'B3', 'C1'])
  })

  it('changes nothing and reports nothing when the same rows are stated again', () => {
    const engine = workbook()
    engine.setHiddenRows('Sheet1', { hidden: [0], filtered: [4] })
    expect(engine.setHiddenRows('Sheet1', { hidden: new Set([0]), filtered: [4, 4] })).toEqual([])
    expect(values(engine)).toEqual([10, 100, 9, 15, 9, null])
  })

  it('tells rows the user hid from rows the filter hid, and forgets them when stated empty', () => {
    const engine = workbook()
    engine.setHiddenRows('Sheet1', { hidden: [0], filtered: [4] })
    // The same rows, the other way round: SUBTOTAL 9 now skips row 1 instead of row 5.
    engine.setHiddenRows('Sheet1', { hidden: [4], filtered: [0] })
    expect(values(engine)).toEqual([14, 140, 9, 15, 9, null])
    expect(engine.getHiddenRows('Sheet1')).toEqual({ hidden: [4], filtered: [0] })
    engine.setHiddenRows('Sheet1', { hidden: [], filtered: [] })
    expect(values(engine)).toEqual([15, 150, 15, 15, 15, null])
    expect(engine.getHiddenRows('Sheet1')).toEqual({ hidden: [], filtered: [] })
  })

  it('applies to formulas written after the rows were hidden, and keeps the rows through a rename', () => {
    const engine = workbook()
    engine.setHiddenRows('Sheet1', { hidden: [], filtered: [1, 2] })
    engine.renameSheet('Sheet1', 'Data')
    engine.setCell('Data', 'D1', '=SUBTOTAL(2,A1:A5)')
    expect(engine.getValue('Data', 'D1')).toBe(3)
    expect(engine.getHiddenRows('Data')).toEqual({ hidden: [], filtered: [1, 2] })
  })

  it('recalculates formulas on other sheets that read the sheet, and none once the SUBTOTAL is gone', () => {
    const engine = workbook()
    engine.addSheet('Summary')
    engine.setCell('Summary', 'A1', '=SUBTOTAL(9,Sheet1!A1:A5)')
    expect(changed(engine.setHiddenRows('Sheet1', { hidden: [], filtered: [0] })).includes('A1')).toBe(true)
    expect(engine.getValue('Summary', 'A1')).toBe(14)
    engine.setCell('Summary', 'A1', '=SUM(Sheet1!A1:A5)')
    engine.setCells([1, 2, 3].map((n) => ({ sheet: 'Sheet1', address: `B${n}`, input: '' })))
    expect(engine.setHiddenRows('Sheet1', { hidden: [], filtered: [] })).toEqual([])
  })

  it('recalculates formulas using a defined name that calls SUBTOTAL, directly or through another name', () => {
    const engine = workbook()
    engine.defineName('Shown', '=SUBTOTAL(109,Sheet1!$A$1:$A$5)')
    engine.defineName('Twice', '=Shown*2')
    engine.setCells([
      { sheet: 'Sheet1', address: 'E1', input: '=Shown' },
      { sheet: 'Sheet1', address: 'E2', input: '=Twice+0' },
    ])
    const changes = engine.setHiddenRows('Sheet1', { hidden: [3], filtered: [] })
    expect(engine.getRangeValues('Sheet1', 'E1:E2')).toEqual([[11], [22]])
    expect(changed(changes)).toEqual(['B2', 'B3', 'E1', 'E2'])
  })

  it('refuses what is not a row of the sheet, changing nothing', () => {
    const engine = workbook()
    engine.setHiddenRows('Sheet1', { hidden: [0], filtered: [] })
    for (const bad of [-1, 1.5, MAX_ROW + 1, Number.NaN]) {
      expect(() => engine.setHiddenRows('Sheet1', { hidden: [], filtered: [2, bad] })).toThrow(EngineUsageError)
    }
    expect(() => engine.setHiddenRows('Nowhere', { hidden: [1], filtered: [] })).toThrow(SheetNotFoundError)
    expect(engine.getHiddenRows('Sheet1')).toEqual({ hidden: [0], filtered: [] })
    expect(values(engine)).toEqual([15, 150, 14, 15, 14, null])
  })

  it('hides the last row of a sheet', () => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    engine.setCells([
      { sheet: 'Sheet1', address: 'A1048576', input: 7 },
      { sheet: 'Sheet1', address: 'B1', input: '=SUBTOTAL(9,A:A)' },
    ])
    engine.setHiddenRows('Sheet1', { hidden: [], filtered: [MAX_ROW] })
    expect(engine.getValue('Sheet1', 'B1')).toBe(0)
  })
})
