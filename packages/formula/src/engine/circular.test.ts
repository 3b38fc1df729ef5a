import { describe, expect, it } from 'vitest'
import { CellError } from '../values.js'
import { Engine } from './engine.js'
import type { CellUpdate, EngineOptions } from './engine.js'

const ITERATE = { enabled: true, maxIterations: 100, maxChange: 0.001 }

function sheet(cells: Record<string, string | number>, options?: EngineOptions): Engine {
  const engine = new Engine(options)
  engine.addSheet('Sheet1')
  engine.setCells(Object.entries(cells).map(([address, input]) => ({ sheet: 'Sheet1', address, input })))
  return engine
}

function v(engine: Engine, address: string, name = 'Sheet1') {
  const value = engine.getValue(name, address)
  return value instanceof CellError ? value.code : value
}

function cycles(engine: Engine): string[][] {
  return engine.getCircularReferences().map((cycle) => cycle.map((cell) => `${cell.sheet}!${cell.address}`))
}

describe('circular references with iterative calculation off', () => {
  it('shows 0 in the cells of a new cycle, never an error, and lists the cycle', () => {
    const engine = sheet({ A1: '=B1+1', B1: '=C1+1', C1: '=A1+1', D1: '=A1*2+1', E1: '=E1+1' })
    expect([v(engine, 'A1'), v(engine, 'B1'), v(engine, 'C1'), v(engine, 'E1')]).toEqual([0, 0, 0, 0])
    // A formula reading a circular cell is calculated from the value the cell shows.
    expect(v(engine, 'D1')).toBe(1)
    expect(cycles(engine)).toContainEqual(['Sheet1!A1', 'Sheet1!B1', 'Sheet1!C1'])
    expect(cycles(engine)).toContainEqual(['Sheet1!E1'])
  })

  it('calculates the cells again once the cycle is broken, and stops listing it', () => {
    const engine = sheet({ A1: '=B1+1', B1: '=C1+1', C1: '=A1+1', D1: '=A1*2', E1: '=E1+1' })
    engine.setCell('Sheet1', 'C1', 5)
    expect([v(engine, 'A1'), v(engine, 'B1'), v(engine, 'D1')]).toEqual([7, 6, 14])
    expect(cycles(engine)).toEqual([['Sheet1!E1']])
  })

  it('keeps the last value a cell calculated when an edit closes a cycle through it', () => {
    const engine = sheet({ A1: '=B1+1', B1: 5 })
    expect(v(engine, 'A1')).toBe(6)
    engine.setCell('Sheet1', 'B1', '=A1*10')
    // B1 is new and has never been calculated: 0. A1 keeps the 6 it showed.
    expect([v(engine, 'A1'), v(engine, 'B1')]).toEqual([6, 0])
    expect(cycles(engine)).toEqual([['Sheet1!A1', 'Sheet1!B1']])
  })

  it('does not take the constant a circular formula replaced for its last value', () => {
    const engine = sheet({ A1: 42 })
    engine.setCell('Sheet1', 'A1', '=A1+1')
    expect(v(engine, 'A1')).toBe(0)
  })

  it('keeps the values a workbook was saved with in its circular cells', () => {
    const engine = new Engine()
    engine.addSheet('Model')
    const updates: CellUpdate[] = [
      { sheet: 'Model', address: 'B2', input: '=B3*0.1', saved: 12.5 },
      { sheet: 'Model', address: 'B3', input: '=100+B2', saved: 111.11 },
      { sheet: 'Model', address: 'B4', input: '=B3*2' },
    ]
    engine.loadCells(updates)
    expect([v(engine, 'B2', 'Model'), v(engine, 'B3', 'Model')]).toEqual([12.5, 111.11])
    expect(v(engine, 'B4', 'Model')).toBeCloseTo(222.22, 12)
    expect(cycles(engine)).toEqual([['Model!B2', 'Model!B3']])
  })

  it('calculates a saved formula that is not circular, whatever value it was saved with', () => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    engine.loadCells([
      { sheet: 'Sheet1', address: 'A1', input: 3 },
      { sheet: 'Sheet1', address: 'A2', input: '=A1*2', saved: 99 },
    ])
    expect(v(engine, 'A2')).toBe(6)
  })
})

describe("Excel's iterative calculation", () => {
  it('calculates the cells of a cycle in sheet, row, column order, each reading the latest values', () => {
    // Excel with 10 iterations: A1 = 1, A2 = 2 after the first, 19 and 20 after the tenth.
    const engine = sheet({ A1: '=1+A2', A2: '=1+A1' }, { iterative: { enabled: true, maxIterations: 10, maxChange: 0.001 } })
    expect([v(engine, 'A1'), v(engine, 'A2')]).toEqual([19, 20])
    // Each recalculation goes on from the values the cells hold.
    engine.recalculateAll()
    expect([v(engine, 'A1'), v(engine, 'A2')]).toEqual([39, 40])
  })

  it('orders a cycle across sheets by the sheets’ order in the workbook', () => {
    const engine = new Engine({ iterative: { enabled: true, maxIterations: 1, maxChange: 0.001 } })
    engine.addSheet('First')
    engine.addSheet('Second')
    engine.setCells([
      { sheet: 'Second', address: 'A1', input: '=First!Z9+1' },
      { sheet: 'First', address: 'Z9', input: '=Second!A1*10' },
    ])
    // One pass: First!Z9 = 10 × 0, then Second!A1 = 0 + 1.
    expect([v(engine, 'Z9', 'First'), v(engine, 'A1', 'Second')]).toEqual([0, 1])
  })

  it('stops at the first pass in which no value changed by the maximum change or more', () => {
    // x = x/2 + 1 from 0 moves by 1, 1/2, 1/4, …: pass k moves by 2^(1-k), and pass 11 is the first
    // to move by less than 0.001 (pass 15 for 0.0001).
    const engine = sheet({ A1: '=A1/2+1' }, { iterative: ITERATE })
    expect(v(engine, 'A1')).toBe(2 - 2 ** -10)
    const tighter = sheet({ A1: '=A1/2+1' }, { iterative: { ...ITERATE, maxChange: 0.0001 } })
    expect(tighter.getValue('Sheet1', 'A1')).toBe(2 - 2 ** -14)
  })

  it('runs every pass allowed when the maximum change is 0 and values keep moving', () => {
    const engine = sheet({ A1: '=A1+1' }, { iterative: { ...ITERATE, maxChange: 0, maxIterations: 250 } })
    expect(v(engine, 'A1')).toBe(250)
  })

  it('starts iterating from the values a workbook was saved with', () => {
    const engine = new Engine({ iterative: { enabled: true, maxIterations: 10, maxChange: 0.001 } })
    engine.addSheet('Sheet1')
    engine.loadCells([{ sheet: 'Sheet1', address: 'A1', input: '=A1+1', saved: 50 }])
    expect(v(engine, 'A1')).toBe(60)
  })

  it('leaves a converged saved model where it was: one pass, no value moving', () => {
    const fixedPoint = 2
    const engine = new Engine({ iterative: ITERATE })
    engine.addSheet('Sheet1')
    engine.loadCells([{ sheet: 'Sheet1', address: 'A1', input: '=A1/2+1', saved: fixedPoint }])
    expect(v(engine, 'A1')).toBe(fixedPoint)
  })

  it('keeps saved values that are settled: their first pass moves no value by the maximum change', () => {
    const load = (saved: number, recalculateSaved = false) => {
      const engine = new Engine({ iterative: ITERATE })
      engine.addSheet('Sheet1')
      engine.loadCells([{ sheet: 'Sheet1', address: 'A1', input: '=A1/2+1', saved }, { sheet: 'Sheet1', address: 'B1', input: '=A1*3' }], { recalculateSaved })
      return engine
    }
    // From 1.9995 a pass would move A1 by 0.00025: Excel shows the file's value until it recalculates.
    const settled = load(1.9995)
    expect([v(settled, 'A1'), v(settled, 'B1')]).toEqual([1.9995, 1.9995 * 3])
    // A file asking for a full calculation on opening gets its passes.
    expect(v(load(1.9995, true), 'A1')).toBe(1.9995 / 2 + 1)
    // From 1.5 the passes move by 1/4, 1/8, …: the ninth moves by 1/1024 and is the last.
    expect(v(load(1.5), 'A1')).toBe(2 - 2 ** -10)
    // Once loaded, an edit that reaches the cycle iterates it again from the values it holds.
    settled.setCell('Sheet1', 'C1', 1)
    expect(v(settled, 'A1')).toBe(1.9995)
    settled.setCell('Sheet1', 'A1', '=A1/2+C1')
    expect(v(settled, 'A1')).toBeCloseTo(2, 2)
  })

  it('keeps an error that entered the cycle, as Excel does (no value can leave it)', () => {
    const engine = sheet({ A1: '=1/(B1-0)', B1: '=A1+1' }, { iterative: ITERATE })
    // First pass: A1 = 1/0 → #DIV/0!, which B1 reads; the error goes round for ever.
    expect([v(engine, 'A1'), v(engine, 'B1')]).toEqual(['#DIV/0!', '#DIV/0!'])
  })

  it('switching iteration on calculates the listed cycles; switching it off keeps their values', () => {
    const engine = sheet({ A1: '=A1/2+1', B1: '=A1*3' })
    expect([v(engine, 'A1'), v(engine, 'B1')]).toEqual([0, 0])
    engine.setIterativeSettings({ enabled: true, maxChange: 1e-12 })
    expect(v(engine, 'A1')).toBeCloseTo(2, 11)
    expect(cycles(engine)).toEqual([])
    engine.setIterativeSettings({ enabled: false })
    expect(v(engine, 'A1')).toBeCloseTo(2, 11)
    expect(v(engine, 'B1')).toBeCloseTo(6, 10)
    expect(cycles(engine)).toEqual([['Sheet1!A1']])
  })
})
