import { describe, expect, it } from 'vitest'
import { contentOf, modelWorkbook, runTurn, shownState } from '../../testing/agent-workbook.js'

describe('validate_formula', () => {
  it('calculates a formula in place without writing it', async () => {
    const state = modelWorkbook()
    const before = shownState(state)
    const turn = await runTurn(state, [{ name: 'validate_formula', arguments: { sheet: 'FCF', address: { row: 'EBITDA', column: 'FY2027' }, formula: 'E2*0.3' } }])
    expect(contentOf(turn.results[0])).toMatchObject({ cell: 'FCF!E3', formula: '=E2*0.3', value: 399.3, valid: true, currentContent: '=E2*Assumptions!$B$3', written: false })
    expect(turn.view).toBeUndefined()
    expect(shownState(state)).toEqual(before)
  })

  it('reports an error value and the reason', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'validate_formula', arguments: { sheet: 'FCF', address: 'G2', formula: '=E2/0' } },
      { name: 'validate_formula', arguments: { sheet: 'FCF', address: 'G2', formula: '=SUMM(E2:E3)' } },
      { name: 'validate_formula', arguments: { sheet: 'FCF', address: 'G2', formula: '=HYPERLINK(A1)' } },
    ])
    expect(contentOf(turn.results[0])).toMatchObject({ valid: false, value: '#DIV/0!' })
    expect(contentOf(turn.results[1])).toMatchObject({ valid: false, value: '#NAME?' })
    expect(contentOf(turn.results[1]).error).toMatch(/SUMM/)
    expect(contentOf(turn.results[2]).needsApproval).toMatch(/HYPERLINK opens an address computed from the workbook/)
  })
})
