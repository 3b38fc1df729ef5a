import { describe, expect, it } from 'vitest'
import { Engine } from '../../index.js'
import type { Scalar } from '../../values.js'

/** Evaluates formulas in a fresh sheet whose A1:C2 holds 1..6; returns each formula's cell values. */
function calculate(formulas: Record<string, string>): (address: string) => Scalar {
  const engine = new Engine()
  engine.addSheet('Sheet1')
  engine.setCells(
    [
      ['A1', 1],
      ['B1', 2],
      ['C1', 3],
      ['A2', 4],
      ['B2', 5],
      ['C2', 6],
    ].map(([address, value]) => ({ sheet: 'Sheet1', address: address as string, input: String(value) })),
  )
  for (const [address, formula] of Object.entries(formulas)) engine.setCell('Sheet1', address, formula)
  return (address) => engine.getValue('Sheet1', address)
}

describe('LAMBDA', () => {
  it('is called inline, through LET names, and shows #CALC! when left uncalled', () => {
    const value = calculate({
      E1: '=LAMBDA(x, x+1)(5)',
      E2: '=LAMBDA(x, y, SQRT(x*x+y*y))(3, 4)',
      E3: '=LET(area, LAMBDA(w, h, w*h), area(6, 7))',
      E4: '=LAMBDA(x, x)',
      E5: '=LAMBDA(x, y, IF(ISOMITTED(y), "missing", x+y))(1,)',
      E6: '=LAMBDA(a, b, IF(ISOMITTED(b), a/2, a*b))(12)',
      E7: '=LAMBDA(x, x)(1, 2)',
      E8: '=LAMBDA(x, x, x)(1, 2)',
    })
    expect(value('E1')).toBe(6)
    expect(value('E2')).toBe(5)
    expect(value('E3')).toBe(42)
    expect(value('E4')).toMatchObject({ code: '#CALC!' })
    expect(value('E5')).toBe('missing')
    expect(value('E6')).toBe(6)
    expect(value('E7')).toMatchObject({ code: '#VALUE!' })
    expect(value('E8')).toMatchObject({ code: '#VALUE!' })
  })
})

describe('MAP, REDUCE, SCAN, BYROW, BYCOL, MAKEARRAY', () => {
  it('apply a lambda over arrays', () => {
    const value = calculate({
      E1: '=MAP(A1:C2, LAMBDA(x, x*10))',
      E4: '=MAP(A1:C1, A2:C2, LAMBDA(x, y, x*y))',
      E6: '=REDUCE(0, A1:C2, LAMBDA(total, x, total + x^2))',
      E7: '=SCAN(1, A1:C2, LAMBDA(acc, x, acc + 8*x))',
      E10: '=BYROW(A1:C2, LAMBDA(row, MAX(row)))',
      G10: '=BYCOL(A1:C2, LAMBDA(col, SUM(col)))',
      E12: '=MAKEARRAY(2, 3, LAMBDA(r, c, r*10 + c))',
      E15: '=SCAN("Days:", {"Mon","Tue"}, LAMBDA(acc, x, acc & " " & x))',
      E16: '=MAP(A1:C1, LAMBDA(x, y, x))',
      E17: '=MAP(A1:C1, 5)',
      E18: '=BYROW(A1:C2, LAMBDA(row, row))',
    })
    expect([value('E1'), value('F1'), value('G1'), value('E2'), value('G2')]).toEqual([10, 20, 30, 40, 60])
    expect([value('E4'), value('F4'), value('G4')]).toEqual([4, 10, 18])
    expect(value('E6')).toBe(91)
    expect([value('E7'), value('F7'), value('G7'), value('E8'), value('F8'), value('G8')]).toEqual([9, 25, 49, 81, 121, 169])
    expect([value('E10'), value('E11')]).toEqual([3, 6])
    expect([value('G10'), value('H10'), value('I10')]).toEqual([5, 7, 9])
    expect([value('E12'), value('G12'), value('E13'), value('G13')]).toEqual([11, 13, 21, 23])
    expect([value('E15'), value('F15')]).toEqual(['Days: Mon', 'Days: Mon Tue'])
    expect(value('E16')).toMatchObject({ code: '#VALUE!' })
    expect(value('E17')).toMatchObject({ code: '#VALUE!' })
    expect(value('E18')).toMatchObject({ code: '#CALC!' })
  })
})
