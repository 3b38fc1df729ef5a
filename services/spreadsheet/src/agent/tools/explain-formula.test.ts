import { describe, expect, it } from 'vitest'
import { contentOf, edit, modelWorkbook, runTurn } from '../../testing/agent-workbook.js'

describe('explain_formula', () => {
  it('explains a formula in words with the labels and values of what it reads', async () => {
    const content = contentOf((await runTurn(modelWorkbook(), [{ name: 'explain_formula', arguments: { sheet: 'Valuation', address: 'B1' } }])).results[0])
    expect(content.explanation).toBe(
      'Enterprise value (Valuation!B1) = the net present value at rate Assumptions!B5 (Discount rate · Value, = 0.09) of FCF!B5:E5 (Free cash flow, total 916.5975).',
    )
    expect(content.reads[1]).toMatchObject({ ref: 'FCF!B5:E5', values: [197.5, 217.25, 238.975, 262.8725] })
    expect(content.functions).toEqual([{ name: 'NPV', syntax: expect.stringContaining('NPV('), description: expect.stringContaining('net present value') }])
  })

  it('says whether a formula is one of a block of copies, or breaks the pattern around it', async () => {
    const state = modelWorkbook()
    const copies = contentOf((await runTurn(state, [{ name: 'explain_formula', arguments: { sheet: 'FCF', address: 'D3' } }])).results[0])
    expect(copies.pattern).toBe('One of 4 copies of the same formula across B3:E3 (references shift with each cell).')
    expect(copies.explanation).toBe('EBITDA · FY2026 (FCF!D3) = D2 (Revenue · FY2026, = 1210) times Assumptions!B3 (EBITDA margin · Value, = 0.25).')
    edit(state, [{ type: 'set-cells', sheet: 'FCF', cells: [{ address: 'C3', input: '=C2*0.3' }] }])
    const odd = contentOf((await runTurn(state, [{ name: 'explain_formula', arguments: { sheet: 'FCF', address: 'C3' } }])).results[0])
    expect(odd.pattern).toMatch(/Differs from the formulas on both sides of it in its row/)
  })

  it('tells an input from a formula', async () => {
    const content = contentOf((await runTurn(modelWorkbook(), [{ name: 'explain_formula', arguments: { sheet: 'Assumptions', address: { row: 'Tax rate', column: 'Value' } } }])).results[0])
    expect(content).toMatchObject({ cell: 'Assumptions!B4', formula: null, value: 0.21, shown: '21%' })
    expect(content.explanation).toMatch(/holds a typed value, not a formula/)
  })
})
