import { describe, expect, it } from 'vitest'
import { Engine } from '../engine/engine.js'
import { CellError } from '../values.js'
import { functionCatalogue } from './index.js'

function calc(formula: string, cells: Record<string, string | number | boolean> = {}): unknown {
  const engine = new Engine({ clock: () => new Date(2024, 0, 31, 12, 0, 0) })
  engine.addSheet('Sheet1')
  engine.setCells(Object.entries({ ...cells, J10: formula }).map(([address, input]) => ({ sheet: 'Sheet1', address, input })))
  const value = engine.getValue('Sheet1', 'J10')
  return value instanceof CellError ? value.code : value
}

const data = { A1: 1, A2: 2, A3: 'x', A4: true, A5: 4, B1: 10, B2: 20, B3: 30 }

describe('the core functions', () => {
  it.each([
    ['=SUM(A1:A5)', 7],
    ['=SUM(A1:A5,"3",TRUE)', 11],
    ['=SUM("x")', '#VALUE!'],
    ['=SUM(A1,#N/A)', '#N/A'],
    ['=SUM(A:A)', 7],
    ['=SUM(1,,2)', 3],
    ['=IF(A1>0,"yes","no")', 'yes'],
    ['=IF(A1>5,"yes")', false],
    ['=IF(A1>0,,1)', 0],
    ['=IF("x",1,2)', '#VALUE!'],
    ['=IF(A1,1/0,2)', '#DIV/0!'],
    ['=IF(FALSE,1/0,2)', 2],
    ['=IFERROR(1/0,"div")', 'div'],
    ['=IFERROR(5,"div")', 5],
    ['=IFERROR(NA(),0)+1', 1],
    ['=CHOOSE(3,"a","b","c")', 'c'],
    ['=CHOOSE(4,"a","b","c")', '#VALUE!'],
    ['=CHOOSE(0,"a")', '#VALUE!'],
    ['=SUM(CHOOSE(2,A1:A2,B1:B3))', 60],
    ['=AND(A1:A5)', true],
    ['=AND(A1:A5,FALSE)', false],
    ['=AND("x")', '#VALUE!'],
    ['=AND(A3)', '#VALUE!'],
    ['=INDEX(B1:B3,2)', 20],
    ['=INDEX(A1:B3,3,2)', 30],
    ['=INDEX(A1:B3,4,1)', '#REF!'],
    ['=SUM(INDEX(A1:B3,0,2))', 60],
    ['=SUM(INDEX((A1:A2,B1:B3),0,1,2))', 60],
    ['=INDEX({1,2,3},2)', 2],
    ['=ROW()', 10],
    ['=ROW(C7)', 7],
    ['=COLUMN()', 10],
    ['=COLUMN(AB1)', 28],
    ['=SUM(COLUMN(A1:C1))', 6],
    ['=SUM(OFFSET(A1,0,1,3,1))', 60],
    ['=OFFSET(B3,-1,0)', 20],
    ['=SUM(OFFSET(B3,0,0,-2,1))', 50],
    ['=OFFSET(A1,-1,0)', '#REF!'],
    ['=INDIRECT("B"&2)', 20],
    ['=SUM(INDIRECT("B1:B3"))', 60],
    ['=INDIRECT("R3C2",FALSE)', 30],
    ['=INDIRECT("NoSuchSheet!A1")', '#REF!'],
    ['=LET(a,2,b,a*a,b+a)', 6],
    ['=LET(a,2,b)', '#NAME?'],
    ['=LET(a,1,LET(a,2,a)+a)', 3],
    ['=SUBTOTAL(9,B1:B3)', 60],
    ['=SUBTOTAL(1,B1:B3)', 20],
    ['=SUBTOTAL(2,A1:A5)', 3],
    ['=SUBTOTAL(3,A1:A5)', 5],
    ['=SUBTOTAL(4,B1:B3)', 30],
    ['=SUBTOTAL(109,B1:B3)', 60],
    ['=SUBTOTAL(12,B1:B3)', '#VALUE!'],
    ['=TODAY()', 45322],
    ['=NOW()', 45322.5],
    ['=SUM(TRANSPOSE(B1:B3))', 60],
    ['=INDEX(TRANSPOSE(B1:B3),1,3)', 30],
  ])('%s gives %s', (formula, expected) => {
    expect(calc(formula, data)).toEqual(expected)
  })

  it('spills ROW, COLUMN and TRANSPOSE results', () => {
    const engine = new Engine()
    engine.addSheet('S')
    engine.setCells([
      { sheet: 'S', address: 'A1', input: '=ROW(A5:A7)' },
      { sheet: 'S', address: 'B1', input: '=TRANSPOSE({1;2;3})' },
    ])
    expect(['A1', 'A2', 'A3', 'B1', 'C1', 'D1'].map((address) => engine.getValue('S', address))).toEqual([5, 6, 7, 1, 2, 3])
  })

  it('lists every function in a catalogue generated from the metadata', () => {
    const catalogue = functionCatalogue()
    const sum = catalogue.find((entry) => entry.name === 'SUM')
    expect(sum).toEqual({
      name: 'SUM',
      syntax: 'SUM(number1, [number2], ...)',
      description: 'Adds all the numbers in a range of cells.',
      category: 'Math & Trigonometry',
      example: 'SUM(A1:A10)',
      minArgs: 1,
      maxArgs: Infinity,
    })
    for (const entry of catalogue) {
      expect(entry.syntax.startsWith(entry.name + '(')).toBe(true)
      expect(entry.description.length).toBeGreaterThan(10)
    }
    const names = catalogue.map((entry) => entry.name)
    expect(new Set(names).size).toBe(names.length)
  })
})
