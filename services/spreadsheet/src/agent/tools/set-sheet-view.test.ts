import { describe, expect, it } from 'vitest'
import { contentOf, modelWorkbook, runTurn } from '../../testing/agent-workbook.js'

describe('set_sheet_view', () => {
  it('freezes panes, hides and shows rows and columns, and sets widths, as the grid does', async () => {
    const state = modelWorkbook()
    const fcf = state.sheets.find((sheet) => sheet.name === 'FCF')!
    const turn = await runTurn(state, [
      { name: 'set_sheet_view', arguments: { sheet: 'FCF', freeze: { rows: 1, columns: 1 }, hide: ['4', 'C:D'], columnWidths: [{ columns: 'A', width: 220 }] } },
      { name: 'read_range', arguments: { sheet: 'FCF', range: 'B5:E5' } },
    ])
    expect(turn.results[0].ok, turn.results[0].error).toBe(true)
    expect(contentOf(turn.results[0]).done).toEqual(['Freeze the top 1 row and the left 1 column of FCF', 'Hide row 4 of FCF', 'Hide columns C–D of FCF', 'Set column A of FCF to 220 pixels wide'])
    expect(contentOf(turn.results[0]).frozen).toEqual({ rows: 1, columns: 1 })
    expect(turn.records.structural.map((step) => step.action)).toEqual(['set_sheet_view', 'set_sheet_view', 'set_sheet_view', 'set_sheet_view'])
    // Hidden cells are still read by formulas.
    expect(Object.keys(contentOf(turn.results[1]).rows[0].cells)).toEqual(['B5', 'C5', 'D5', 'E5'])
    // The draft is undone when the turn ends: the open workbook is as the store holds it.
    expect(fcf.view?.frozenRows ?? 0).toBe(0)
    expect(fcf.columnWidths).toEqual({})
  })

  it('shows again and unfreezes', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'set_sheet_view', arguments: { sheet: 'FCF', hide: ['2:3'] } },
      { name: 'set_sheet_view', arguments: { sheet: 'FCF', unhide: ['2:3'], freeze: { rows: 0, columns: 0 }, columnWidths: [{ columns: 'B:C', width: null }] } },
    ])
    expect(contentOf(turn.results[1]).done).toEqual(['Unfreeze the panes of FCF', 'Show rows 2–3 of FCF', 'Set columns B–C of FCF to the default width'])
  })

  it('refuses what is not rows or columns, a width on rows and an empty call, changing nothing', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'set_sheet_view', arguments: { sheet: 'FCF', hide: ['B2'] } },
      { name: 'set_sheet_view', arguments: { sheet: 'FCF', columnWidths: [{ columns: '3', width: 50 }] } },
      { name: 'set_sheet_view', arguments: { sheet: 'FCF' } },
      { name: 'set_sheet_view', arguments: { sheet: 'Nowhere', hide: ['C'] } },
    ])
    expect(turn.results[0].error).toBe('"B2" is not rows ("5", "5:7") or columns ("C", "C:E").')
    expect(turn.results[1].error).toBe('"3" is not a column: widths are set on columns ("B", "B:F").')
    expect(turn.results[2].error).toBe('Nothing to change: give freeze, hide, unhide or columnWidths.')
    expect(turn.results[3].ok).toBe(false)
    expect(turn.session.wrote).toBe(false)
  })
})
