import { describe, expect, it } from 'vitest'
import { CellError } from '../values.js'
import { Engine } from './engine.js'

function v(engine: Engine, address: string, sheet = 'S') {
  const value = engine.getValue(sheet, address)
  return value instanceof CellError ? value.code : value
}

/** Payment on a loan: B1 rate, B2 years, B3 amount, B4 the payment. */
function loan(): Engine {
  const engine = new Engine()
  engine.addSheet('S')
  engine.setCells([
    { sheet: 'S', address: 'B1', input: '5%' },
    { sheet: 'S', address: 'B2', input: 10 },
    { sheet: 'S', address: 'B3', input: 100000 },
    { sheet: 'S', address: 'B4', input: '=PMT(B1,B2,-B3)' },
  ])
  return engine
}

const pmt = (rate: number, years: number, amount: number) => (amount * rate) / (1 - (1 + rate) ** -years)

describe('data tables', () => {
  it('calculate a two-variable table: the formula at its corner, rates across, years down', () => {
    const engine = loan()
    engine.setCells([
      { sheet: 'S', address: 'D5', input: '=B4' },
      { sheet: 'S', address: 'E5', input: 0.04 },
      { sheet: 'S', address: 'F5', input: 0.06 },
      { sheet: 'S', address: 'D6', input: 5 },
      { sheet: 'S', address: 'D7', input: 15 },
      { sheet: 'S', address: 'E6', input: '=TABLE(B1,B2)', arrayRange: 'E6:F7' },
    ])
    expect(v(engine, 'E6')).toBeCloseTo(pmt(0.04, 5, 100000), 9)
    expect(v(engine, 'F6')).toBeCloseTo(pmt(0.06, 5, 100000), 9)
    expect(v(engine, 'E7')).toBeCloseTo(pmt(0.04, 15, 100000), 9)
    expect(v(engine, 'F7')).toBeCloseTo(pmt(0.06, 15, 100000), 9)
    // The model shows its own inputs again.
    expect([v(engine, 'B1'), v(engine, 'B2'), engine.getInput('S', 'B1')]).toEqual([0.05, 10, '5%'])
    expect(v(engine, 'B4')).toBeCloseTo(pmt(0.05, 10, 100000), 9)
    expect(engine.getCell('S', 'E6')).toMatchObject({ formula: '=TABLE(B1,B2)', arrayRange: 'E6:F7' })
  })

  it('calculate one-variable tables down a column and along a row', () => {
    const engine = loan()
    engine.setCells([
      // Column input: rates down D, formulas along row 9.
      { sheet: 'S', address: 'E9', input: '=B4' },
      { sheet: 'S', address: 'F9', input: '=B4*B2' },
      { sheet: 'S', address: 'D10', input: 0.03 },
      { sheet: 'S', address: 'D11', input: 0.07 },
      { sheet: 'S', address: 'E10', input: '=TABLE(,B1)', arrayRange: 'E10:F11' },
      // Row input: amounts along row 13, formulas down column D.
      { sheet: 'S', address: 'E13', input: 50000 },
      { sheet: 'S', address: 'F13', input: 200000 },
      { sheet: 'S', address: 'D14', input: '=B4' },
      { sheet: 'S', address: 'E14', input: '=TABLE(B3,)', arrayRange: 'E14:F14' },
    ])
    expect(v(engine, 'E10')).toBeCloseTo(pmt(0.03, 10, 100000), 9)
    expect(v(engine, 'F11')).toBeCloseTo(pmt(0.07, 10, 100000) * 10, 8)
    expect(v(engine, 'E14')).toBeCloseTo(pmt(0.05, 10, 50000), 9)
    expect(v(engine, 'F14')).toBeCloseTo(pmt(0.05, 10, 200000), 9)
  })

  it('recalculate when the model changes, and report their changed cells and what reads them', () => {
    const engine = loan()
    engine.setCells([
      { sheet: 'S', address: 'E9', input: '=B4' },
      { sheet: 'S', address: 'D10', input: 0.03 },
      { sheet: 'S', address: 'D11', input: 0.07 },
      { sheet: 'S', address: 'E10', input: '=TABLE(,B1)', arrayRange: 'E10:E11' },
      { sheet: 'S', address: 'G1', input: '=SUM(E10:E11)' },
    ])
    const changes = engine.setCell('S', 'B3', 200000)
    expect(v(engine, 'E11')).toBeCloseTo(pmt(0.07, 10, 200000), 9)
    expect(v(engine, 'G1')).toBeCloseTo(pmt(0.03, 10, 200000) + pmt(0.07, 10, 200000), 8)
    const reported = changes.map((change) => change.address)
    expect(reported).toEqual(expect.arrayContaining(['B3', 'B4', 'E10', 'E11', 'G1']))
    expect(new Set(reported).size).toBe(reported.length)
    // The values tried follow edits too.
    engine.setCell('S', 'D10', 0.05)
    expect(v(engine, 'E10')).toBeCloseTo(v(engine, 'B4') as number, 9)
  })

  it('put a formula input cell back as it was, legacy mark included', () => {
    const engine = new Engine()
    engine.addSheet('S')
    engine.setCells([
      { sheet: 'S', address: 'A1', input: '=SUM(C1:C2)', legacy: true },
      { sheet: 'S', address: 'C1', input: 2 },
      { sheet: 'S', address: 'A2', input: '=A1*10' },
      { sheet: 'S', address: 'B4', input: '=A2' },
      { sheet: 'S', address: 'A5', input: 7 },
      { sheet: 'S', address: 'B5', input: '=TABLE(,A1)', arrayRange: 'B5:B5' },
    ])
    expect(v(engine, 'B5')).toBe(70)
    expect(engine.getFormula('S', 'A1')).toBe('=SUM(C1:C2)')
    expect(v(engine, 'A2')).toBe(20)
  })

  it('are #REF! without an input cell, and stop when their formula is removed', () => {
    const engine = loan()
    engine.setCells([{ sheet: 'S', address: 'E6', input: '=TABLE(,)', arrayRange: 'E6:E6' }])
    expect(v(engine, 'E6')).toBe('#REF!')
    engine.setCells([{ sheet: 'S', address: 'E6', input: '' }])
    expect(v(engine, 'E6')).toBe(null)
    engine.setCell('S', 'B1', '6%')
    expect(v(engine, 'B4')).toBeCloseTo(pmt(0.06, 10, 100000), 9)
  })

  it('are calculated when a workbook loads', () => {
    const engine = new Engine()
    engine.addSheet('S')
    engine.loadCells([
      { sheet: 'S', address: 'B1', input: 2 },
      { sheet: 'S', address: 'B2', input: '=B1^2' },
      { sheet: 'S', address: 'C2', input: '=B2' },
      { sheet: 'S', address: 'B3', input: 3 },
      { sheet: 'S', address: 'B4', input: 4 },
      { sheet: 'S', address: 'C3', input: '=TABLE(,B1)', arrayRange: 'C3:C4', saved: 9 },
    ])
    expect([v(engine, 'C3'), v(engine, 'C4'), v(engine, 'B2')]).toEqual([9, 16, 4])
  })
})
