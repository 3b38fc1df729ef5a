import { describe, expect, it } from 'vitest'
import { contentOf, modelWorkbook, runTurn } from '../../testing/agent-workbook.js'

describe('move_cells', () => {
  it('moves an input as cut and paste does: the formulas that read it follow it, the source is left empty', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'move_cells', arguments: { sheet: 'Assumptions', range: 'A2:B2', to: 'D2' } },
      { name: 'read_range', arguments: { sheet: 'FCF', range: 'C2:E2', include: 'formulas' } },
      { name: 'read_range', arguments: { sheet: 'Assumptions', range: 'A2:E2' } },
    ])
    expect(turn.results[0].ok).toBe(true)
    expect(turn.results[0].summary).toBe('Moving Assumptions!A2:B2 to Assumptions!D2:E2 (2 cells)')
    expect(contentOf(turn.results[1]).rows[0].cells).toEqual({ C2: '=B2*(1+Assumptions!$E$2)', D2: '=C2*(1+Assumptions!$E$2)', E2: '=D2*(1+Assumptions!$E$2)' })
    const row = contentOf(turn.results[2]).rows[0].cells
    expect(row.A2).toBeUndefined()
    expect(row.B2).toBeUndefined()
    expect(row.D2).toBe('Revenue growth')
    // The percent format went along.
    expect(row.E2).toEqual({ value: 0.1, shown: '10%' })
    // The values did not change: revenue still grows 10% a year.
    expect(contentOf(turn.results[0]).newErrors).toEqual([])
    // The review shows the move as one step beside the cells it changed.
    expect(turn.records.structural.map((step) => step.description)).toEqual(['Move Assumptions!A2:B2 to Assumptions!D2:E2'])
  })

  it('moves a block to another sheet, formulas inside it keeping what they read', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'move_cells', arguments: { sheet: 'Valuation', range: 'A3:B3', to: 'FCF!A8' } },
      { name: 'read_range', arguments: { sheet: 'FCF', range: 'A8:B8', include: 'formulas' } },
    ])
    expect(turn.results[0].ok, turn.results[0].error).toBe(true)
    expect(contentOf(turn.results[1]).rows[0].cells).toEqual({ A8: 'EV / Revenue', B8: '=Valuation!B1/FCF!E2' })
  })

  it('refuses to move over cells that hold something, an empty range and a move off the sheet, writing nothing', async () => {
    const state = modelWorkbook()
    const turn = await runTurn(state, [
      { name: 'move_cells', arguments: { sheet: 'FCF', range: 'B2', to: 'C2' } },
      { name: 'move_cells', arguments: { sheet: 'FCF', range: 'H20:H22', to: 'J2' } },
      { name: 'move_cells', arguments: { sheet: 'FCF', range: 'B2:C2', to: 'XFD1' } },
      { name: 'move_cells', arguments: { sheet: 'FCF', range: 'B2', to: 'B2' } },
      { name: 'read_range', arguments: { sheet: 'FCF', range: 'B2:C2', include: 'formulas' } },
    ])
    expect(turn.results[0].error).toMatch(/^Refused: 1 cell already holds something and would be replaced: FCF!C2 /)
    expect(turn.results[1].error).toBe('FCF!H20:H22 is empty: there is nothing to move.')
    expect(turn.results[2].error).toBe('FCF!B2:C2 moved to FCF!XFD1 would run off the sheet.')
    expect(turn.results[3].error).toBe('FCF!B2 is already at FCF!B2: there is nothing to move.')
    expect(contentOf(turn.results[4]).rows[0].cells).toEqual({ B2: '1000', C2: '=B2*(1+Assumptions!$B$2)' })
    expect(turn.session.wrote).toBe(false)
  })

  it('moves over cells with overwrite: the replaced cell is gone and its readers follow the moved one', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'move_cells', arguments: { sheet: 'FCF', range: 'B2', to: 'G2', overwrite: true } },
      { name: 'read_range', arguments: { sheet: 'FCF', range: 'C2:G2', include: 'formulas' } },
    ])
    expect(turn.results[0].ok, turn.results[0].error).toBe(true)
    expect(contentOf(turn.results[1]).rows[0].cells.C2).toBe('=G2*(1+Assumptions!$B$2)')
  })
})
