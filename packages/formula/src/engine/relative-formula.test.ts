import { describe, expect, it } from 'vitest'
import { Engine } from './engine.js'
import { CellError } from '../values.js'

function sheet(): Engine {
  const engine = new Engine()
  engine.addSheet('Sheet1')
  engine.setCells([1, 2, 3, 4].flatMap((n) => [
    { sheet: 'Sheet1', address: `A${n}`, input: String(n * 10) },
    { sheet: 'Sheet1', address: `B${n}`, input: String(25) },
  ]))
  return engine
}

describe('compileRelativeFormula', () => {
  it('compiles once for its anchor and moves relative references along, absolute ones staying', () => {
    const engine = sheet()
    const formula = engine.compileRelativeFormula('Sheet1', 'A1', '=A1>$B$1')
    expect([0, 1, 2, 3].map((row) => formula.at(row, 0))).toEqual([false, false, true, true])
    const sum = engine.compileRelativeFormula('Sheet1', 'A1', 'SUM($A$1:A1)')
    expect(sum.at(3, 0)).toBe(100)
    expect(sum.error).toBeUndefined()
  })

  it('reads the values as they are after each change, and writes nothing', () => {
    const engine = sheet()
    const formula = engine.compileRelativeFormula('Sheet1', 'A1', 'A1*2')
    engine.setCell('Sheet1', 'A2', '7')
    expect(formula.at(1, 0)).toBe(14)
    expect(engine.getInput('Sheet1', 'C1')).toBe('')
  })

  it('says why a formula cannot be read, and gives #ERROR! everywhere', () => {
    const formula = sheet().compileRelativeFormula('Sheet1', 'A1', '=A1>)')
    expect(formula.error).toBeTruthy()
    expect(formula.at(2, 0)).toBeInstanceOf(CellError)
  })
})
