import { describe, expect, it } from 'vitest'
import { formulaFacts } from './formula-references'

describe('what a formula reads', () => {
  it('resolves relative and absolute references from the formula’s own cell', () => {
    // the formula sits in D5 (row 4, column 3)
    const facts = formulaFacts("=SUM(B2:B4)*Sheet2!$C$1+'Cash Flow'!A:A", 'D5', 4, 3)
    expect(facts.references).toEqual([
      { sheet: null, top: 1, left: 1, bottom: 3, right: 1 },
      { sheet: 'Sheet2', top: 0, left: 2, bottom: 0, right: 2 },
      { sheet: 'Cash Flow', top: 0, left: 0, bottom: Number.MAX_SAFE_INTEGER, right: 0 },
    ])
    expect(formulaFacts('=SUM(3:3)', 'A1', 0, 0).references[0]).toEqual({ sheet: null, top: 2, left: 0, bottom: 2, right: Number.MAX_SAFE_INTEGER })
  })

  it('finds the numbers typed into a formula, not positions, counts or ordinary units', () => {
    expect(formulaFacts('=B4*1.08-250', 'C4', 3, 2).literals).toEqual([1.08, 250])
    expect(formulaFacts('=B4*(1+B5)/100*12', 'C4', 3, 2).literals).toEqual([])
    expect(formulaFacts('=ROUND(B4*0.21,2)+INDEX(A1:A9,3)+LEFT(A1,4)', 'C4', 3, 2).literals).toEqual([0.21])
    expect(formulaFacts('=CHOOSE(2,B1*1.5,7)', 'C4', 3, 2).literals).toEqual([1.5, 7])
    expect(formulaFacts('=DATE(2025,6,30)+B1*15%', 'C4', 3, 2).literals).toEqual([0.15])
    expect(formulaFacts('=-B2*-3', 'C4', 3, 2).literals).toEqual([3])
  })

  it('notes defined names and survives formulas that do not parse', () => {
    expect(formulaFacts('=Revenue*TaxRate', 'B2', 1, 1).usesNames).toBe(true)
    expect(formulaFacts('=SUM(', 'B2', 1, 1)).toEqual({ references: [], literals: [], usesNames: false })
  })
})
