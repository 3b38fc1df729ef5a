import { describe, expect, it } from 'vitest'
import { contentOf, modelWorkbook, runTurn } from '../../testing/agent-workbook.js'

describe('fill_formula', () => {
  it('copies a formula across as Excel fills it: relative references shift, absolute ones stay', async () => {
    const state = modelWorkbook()
    const turn = await runTurn(state, [
      { name: 'fill_formula', arguments: { sheet: 'FCF', source: 'E2', target: 'F2:H2' } },
      { name: 'read_range', arguments: { sheet: 'FCF', range: 'F2:H2', include: 'formulas' } },
    ])
    expect(turn.results[0].summary).toBe('Filling FCF!E2 into F2:H2 (3 cells)')
    expect(contentOf(turn.results[1]).rows[0].cells).toEqual({ F2: '=E2*(1+Assumptions!$B$2)', G2: '=F2*(1+Assumptions!$B$2)', H2: '=G2*(1+Assumptions!$B$2)' })
    expect(contentOf(turn.results[0]).sample['FCF!H2'].value).toBeCloseTo(1000 * 1.1 ** 6, 6)
  })

  it('fills a block of formulas, the source inside the target left as it is, by labels', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'fill_formula', arguments: { sheet: 'FCF', source: 'E3:E5', target: 'E3:G5' } },
      { name: 'read_range', arguments: { sheet: 'FCF', range: 'G3:G5', include: 'formulas' } },
    ])
    expect(contentOf(turn.results[0]).filled).toBe(6)
    expect(contentOf(turn.results[1]).rows.map((row: { cells: Record<string, string> }) => Object.values(row.cells)[0])).toEqual(['=G2*Assumptions!$B$3', '=-G3*TaxRate', '=G3+G4'])
  })

  it('refuses to fill over cells that hold something, and a source without a formula', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'fill_formula', arguments: { sheet: 'FCF', source: 'C2', target: 'B2:E2' } },
      { name: 'fill_formula', arguments: { sheet: 'FCF', source: 'A2', target: 'A3:A6' } },
      { name: 'fill_formula', arguments: { sheet: 'FCF', source: 'C2', target: 'B2:E2', overwrite: true } },
    ])
    expect(turn.results[0].error).toMatch(/^Refused: 3 cells already hold something and would be replaced: FCF!B2 \(1000\), FCF!D2/)
    expect(turn.results[1].error).toBe('FCF!A2 holds no formula to fill. Write the formula first (write_cells), then fill it.')
    // B2 now reads the label in A2: it and everything after it show #VALUE!, which the model is told.
    const errors = contentOf(turn.results[2]).newErrors
    expect(errors[0]).toBe('FCF!B2 = #VALUE!')
    expect(errors).toContain('Valuation!B1 = #VALUE!')
  })
})
