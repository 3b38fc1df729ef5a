import { describe, expect, it } from 'vitest'
import { Engine } from './engine.js'
import type { CellError } from '../values.js'

function model(): Engine {
  const engine = new Engine({ clock: () => new Date(Date.UTC(2024, 4, 15, 12)) })
  engine.addSheet('Inputs')
  engine.addSheet('Model')
  engine.setCells([
    { sheet: 'Inputs', address: 'B1', input: '10%' },
    { sheet: 'Model', address: 'A1', input: '100' },
    { sheet: 'Model', address: 'A2', input: '200' },
    { sheet: 'Model', address: 'A3', input: '=A1+A2' },
    { sheet: 'Model', address: 'B1', input: '=A3*(1+Inputs!B1)' },
  ])
  return engine
}

describe('evaluateFormula', () => {
  it('calculates a formula at a cell, relative references reading from that cell', () => {
    const engine = model()
    expect(engine.evaluateFormula('Model', 'A4', '=SUM(A1:A3)').value).toBe(600)
    // A relative reference one row up: from B2 it reads B1, from A4 it reads A3.
    expect(engine.evaluateFormula('Model', 'B2', '=B1*2').value).toBeCloseTo(660)
    expect(engine.evaluateFormula('Model', 'A4', 'A3/2').value).toBe(150)
  })

  it('writes nothing: inputs, values and later recalculation are unchanged', () => {
    const engine = model()
    const before = engine.cells('Model').map((cell) => [cell.address, cell.input, cell.value])
    engine.evaluateFormula('Model', 'C1', '=A1*1000')
    engine.evaluateFormula('Model', 'A1', '=999')
    expect(engine.cells('Model').map((cell) => [cell.address, cell.input, cell.value])).toEqual(before)
    expect(engine.getInput('Model', 'C1')).toBe('')
    const changes = engine.setCell('Model', 'A1', '150')
    expect(changes.map((change) => change.address).sort()).toEqual(['A1', 'A3', 'B1'])
    expect(engine.getValue('Model', 'B1')).toBeCloseTo(385)
  })

  it('answers spreadsheet errors as values and closes missing parentheses as a commit would', () => {
    const engine = model()
    expect((engine.evaluateFormula('Model', 'C1', '=A1/0').value as CellError).code).toBe('#DIV/0!')
    expect((engine.evaluateFormula('Model', 'C1', '=NOSUCHFUNCTION(1)').value as CellError).code).toBe('#NAME?')
    expect((engine.evaluateFormula('Model', 'C1', '=Missing!A1').value as CellError).code).toBe('#REF!')
    expect((engine.evaluateFormula('Model', 'C1', '=SUM(A1:A2').value as number)).toBe(300)
    expect((engine.evaluateFormula('Model', 'C1', '=1+*2').value as CellError).code).toBe('#ERROR!')
  })

  it('gives the top-left value and the size of an array result, and the suggested format', () => {
    const engine = model()
    const array = engine.evaluateFormula('Model', 'D1', '=SEQUENCE(3,2,5)')
    expect(array).toMatchObject({ value: 5, rows: 3, columns: 2 })
    expect(engine.getValue('Model', 'D2')).toBe(null)
    const today = engine.evaluateFormula('Model', 'C1', '=TODAY()')
    expect(today.value).toBe(45427)
    expect(today.format).toBeDefined()
  })

  it('throws for a sheet that does not exist, as reads do', () => {
    expect(() => model().evaluateFormula('Nope', 'A1', '=1')).toThrow()
  })
})
