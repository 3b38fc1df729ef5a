import { describe, expect, it } from 'vitest'
import { columnToLetters } from '../address/a1.js'
import { Engine } from '../engine/engine.js'
import type { EngineOptions } from '../engine/engine.js'
import { CellError, isBudgetError } from '../values.js'
import type { BudgetError } from '../values.js'
import { DEFAULT_EVALUATION_LIMITS } from './budget.js'

function workbook(cells: Record<string, string | number>, options?: EngineOptions): Engine {
  const engine = new Engine(options)
  engine.addSheet('Sheet1')
  engine.setCells(Object.entries(cells).map(([address, input]) => ({ sheet: 'Sheet1', address, input })))
  return engine
}

function error(engine: Engine, address: string): { code: string; message: string | undefined } | undefined {
  const value = engine.getValue('Sheet1', address)
  return value instanceof CellError ? { code: value.code, message: value.message } : undefined
}

/** A clock that moves `step` milliseconds each time it is read: time passes only as the meter reads it. */
function steppingClock(step: number): () => number {
  let now = 0
  return () => (now += step)
}

describe('the array budget', () => {
  it('stops a formula whose array is larger than maxArrayCells with #NUM! naming the limit', () => {
    const engine = workbook({ A1: '=SUM(SEQUENCE(4096,4096))' })
    const value = engine.getValue('Sheet1', 'A1')
    expect(isBudgetError(value)).toBe(true)
    expect((value as BudgetError).code).toBe('#NUM!')
    expect((value as BudgetError).message).toBe("The array would hold 16,777,216 cells; a formula's arrays may hold up to 4,194,304 cells each")
  })

  it.each([
    ['MAKEARRAY', '=SUM(MAKEARRAY(4096,4096,LAMBDA(r,c,r*c)))'],
    ['TEXTJOIN', '=LEN(TEXTJOIN(",",TRUE,SEQUENCE(4096,4096)))'],
    ['REDUCE', '=REDUCE(0,SEQUENCE(4096,4096),LAMBDA(a,x,a+x))'],
    ['an operator over whole columns', '=SUM(A:XFD*2)'],
    ['MUNIT', '=SUM(MUNIT(10000))'],
    ['EXPAND', '=SUM(EXPAND(1,100000,100,0))'],
  ])('stops %s over a huge array before building it', (_name, formula) => {
    const engine = workbook({ A1: 1, XFD1048576: 2, B2: formula })
    expect(error(engine, 'B2')?.code).toBe('#NUM!')
  })

  it('counts every array of a formula against maxFormulaCells', () => {
    const engine = workbook({ A1: '=SUM(SEQUENCE(60))+SUM(SEQUENCE(60))', A2: '=SUM(SEQUENCE(90))' }, { limits: { maxFormulaCells: 100 } })
    expect(error(engine, 'A1')).toEqual({ code: '#NUM!', message: "The formula's arrays would hold more than 100 cells together, the most one formula may build" })
    // The budget is per formula: another formula starts afresh.
    expect(engine.getValue('Sheet1', 'A2')).toBe(4095)
  })

  it('stops the whole formula, which IFERROR does not turn into a value', () => {
    expect(error(workbook({ A1: '=IFERROR(SUM(SEQUENCE(5000,5000)),0)' }), 'A1')?.code).toBe('#NUM!')
  })

  it('keeps the workbook usable: other cells calculate, and the formula recovers once it fits', () => {
    const engine = workbook({ A1: 3000, B1: '=SUM(SEQUENCE(A1,A1))', C1: '=B1+1', D1: '=A1*2' })
    expect(error(engine, 'B1')?.code).toBe('#NUM!')
    expect(error(engine, 'C1')?.code).toBe('#NUM!')
    expect(engine.getValue('Sheet1', 'D1')).toBe(6000)
    engine.setCell('Sheet1', 'A1', 10)
    expect(engine.getValue('Sheet1', 'B1')).toBe(5050)
    expect(engine.getValue('Sheet1', 'C1')).toBe(5051)
  })

  it('refuses a legacy array formula whose fixed area is larger than any array may be', () => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    engine.setCells([{ sheet: 'Sheet1', address: 'A1', input: '=1', arrayRange: 'A1:XFD1048576' }])
    expect(error(engine, 'A1')?.code).toBe('#NUM!')
  })

  it('fits a legacy array formula under its own budget, whatever the formula before it used', () => {
    const engine = new Engine({ limits: { maxFormulaCells: 10 } })
    engine.addSheet('Sheet1')
    engine.setCells([
      { sheet: 'Sheet1', address: 'B1', input: '=SUM(SEQUENCE(9))' },
      { sheet: 'Sheet1', address: 'A1', input: '=1', arrayRange: 'A1:A20' },
      { sheet: 'Sheet1', address: 'C1', input: '=2', arrayRange: 'C1:C5' },
    ])
    expect(engine.getValue('Sheet1', 'B1')).toBe(45)
    expect(error(engine, 'A1')?.code).toBe('#NUM!')
    expect(engine.getValue('Sheet1', 'C5')).toBe(2)
  })
})

describe('the spill budget', () => {
  it('shows #SPILL! for a whole column spilled, and computes what reads the column', () => {
    const engine = workbook({ A1: 5, A2: 7, B1: '=A:A*2', C1: '=SUM(A:A*2)' })
    const spill = error(engine, 'B1')
    expect(spill?.code).toBe('#SPILL!')
    expect(spill?.message).toContain('would spill into 1,048,576 cells; a formula may spill into at most 100,000')
    expect(engine.getValue('Sheet1', 'B2')).toBe(null)
    expect(engine.getValue('Sheet1', 'C1')).toBe(24)
  })

  it('spills again once the array fits, and empties its old spill when it grows past the limit', () => {
    const engine = workbook({ A1: 3, B1: '=SEQUENCE(A1)' }, { limits: { maxSpillCells: 10 } })
    expect(engine.getValue('Sheet1', 'B3')).toBe(3)
    engine.setCell('Sheet1', 'A1', 11)
    expect(error(engine, 'B1')?.code).toBe('#SPILL!')
    expect(engine.getValue('Sheet1', 'B3')).toBe(null)
    engine.setCell('Sheet1', 'A1', 10)
    expect(engine.getValue('Sheet1', 'B10')).toBe(10)
  })
})

describe('the time budget', () => {
  it('stops MMULT of two 2000×2000 arrays with #CALC! once the formula has used its time', () => {
    const engine = workbook({ A1: '=SUM(MMULT(SEQUENCE(2000,2000),SEQUENCE(2000,2000)))', A2: '=1+1' }, { timer: steppingClock(100) })
    expect(error(engine, 'A1')).toEqual({ code: '#CALC!', message: 'The formula took longer than 1 s to calculate and was stopped' })
    expect(engine.getValue('Sheet1', 'A2')).toBe(2)
  })

  it.each([
    ['MAKEARRAY', '=SUM(MAKEARRAY(2048,2048,LAMBDA(r,c,r*c)))'],
    ['REDUCE', '=REDUCE(0,SEQUENCE(2048,2048),LAMBDA(a,x,a+x))'],
    ['MAP', '=SUM(MAP(SEQUENCE(2048,2048),LAMBDA(x,x*2)))'],
    ['BYROW', '=SUM(BYROW(SEQUENCE(2048,2048),LAMBDA(r,SUM(r))))'],
    ['SCAN', '=SUM(SCAN(0,SEQUENCE(2048,2048),LAMBDA(a,x,a+x)))'],
    ['SORT', '=SUM(SORT(RANDARRAY(1000000)))'],
    ['MINVERSE', '=SUM(MINVERSE(MUNIT(1500)))'],
    ['an operator over a large array', '=SUM(SEQUENCE(2048,2048)*2)'],
  ])('stops %s with #CALC! past its time', (_name, formula) => {
    const engine = workbook({ A1: formula }, { timer: steppingClock(250) })
    expect(error(engine, 'A1')?.code).toBe('#CALC!')
  })

  it('stops TEXTJOIN over a huge sparse range: #VALUE! once the text is longer than a cell holds, #CALC! when it only skips empties', () => {
    const engine = workbook({ C1: 'a', XFD1048576: 'z', A1: '=TEXTJOIN(",",FALSE,C1:XFD1048576)', A2: '=TEXTJOIN(",",TRUE,C1:XFD1048576)' }, { timer: steppingClock(250) })
    expect(error(engine, 'A1')?.code).toBe('#VALUE!')
    expect(error(engine, 'A2')?.code).toBe('#CALC!')
  })

  it('gives each formula what is left of the recalculation, and lets formulas without loops finish', () => {
    const heavy = '=SUM(MAKEARRAY(2048,2048,LAMBDA(r,c,r*c)))'
    const engine = workbook({}, { timer: steppingClock(100), limits: { formulaTimeMs: 10_000, recalculationTimeMs: 3_000 } })
    engine.setCells([
      { sheet: 'Sheet1', address: 'A1', input: heavy },
      { sheet: 'Sheet1', address: 'A2', input: heavy },
      { sheet: 'Sheet1', address: 'A3', input: '=2*21' },
    ])
    const messages = ['A1', 'A2'].map((address) => error(engine, address)?.message)
    expect(messages).toContain('The recalculation took longer than 3 s, so this formula was stopped')
    expect(engine.getValue('Sheet1', 'A3')).toBe(42)
  })

  it('never reads the clock for formulas without loops', () => {
    let reads = 0
    const engine = workbook({ A1: 1, A2: '=A1*2', A3: '=SUM(A1:A2)', A4: '=IF(A3>2,"big","small")' }, { timer: () => ++reads })
    engine.setCell('Sheet1', 'A1', 5)
    expect(engine.getValue('Sheet1', 'A4')).toBe('big')
    // One read starts each recalculation; formulas themselves read it only inside long loops.
    expect(reads).toBe(2)
  })
})

describe('what the JavaScript engine itself cannot do', () => {
  it('answers a LAMBDA that calls itself without end with #NUM!', () => {
    const engine = workbook({ A1: '=LET(f,LAMBDA(f,n,f(f,n+1)),f(f,1))' })
    expect(error(engine, 'A1')).toEqual({ code: '#NUM!', message: 'The formula calls itself or nests too deeply to calculate' })
  })
})

describe('whole-column edits', () => {
  it('inserts a million rows without spreading them into a call', () => {
    const engine = workbook({ A1: 1, A2: '=A1+1' })
    engine.insertRows('Sheet1', 0, 1_000_000)
    expect(engine.getValue('Sheet1', 'A1000002')).toBe(2)
    expect(engine.getFormula('Sheet1', 'A1000002')).toBe('=A1000001+1')
  })

  it('inserts sixteen thousand columns the same way, dropping what is pushed off the sheet', () => {
    const engine = workbook({ A1: 1, XFD1: 9 })
    engine.insertColumns('Sheet1', 0, 16_000)
    expect(engine.getValue('Sheet1', `${columnToLetters(16_000)}1`)).toBe(1)
    expect(engine.getUsedRange('Sheet1')).toEqual({ top: 0, left: 16_000, bottom: 0, right: 16_000 })
  })
})

describe('EngineOptions.limits', () => {
  it('refuses a limit that is not above 0', () => {
    expect(() => new Engine({ limits: { formulaTimeMs: 0 } })).toThrow('Invalid option formulaTimeMs')
  })

  it('keeps the defaults for what it does not set', () => {
    const engine = workbook({ A1: '=SUM(SEQUENCE(1000,1000))' }, { limits: { formulaTimeMs: 5_000 } })
    expect(engine.getValue('Sheet1', 'A1')).toBe(500_000_500_000)
    expect(DEFAULT_EVALUATION_LIMITS.maxArrayCells).toBe(4_194_304)
  })
})
