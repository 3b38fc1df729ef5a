import { describe, expect, it } from 'vitest'
import { contentOf, modelWorkbook, runTurn } from '../../testing/agent-workbook.js'

describe('modify_structure', () => {
  it('inserts rows before a labelled row, and formulas follow the moved cells', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'modify_structure', arguments: { action: 'insert_rows', sheet: 'FCF', at: 'Taxes', count: 2 } },
      { name: 'read_range', arguments: { sheet: 'FCF', range: 'B7', include: 'formulas' } },
    ])
    expect(turn.results[0].summary).toBe('Insert 2 rows on FCF before row 4')
    expect(contentOf(turn.results[1]).rows[0].cells.B7).toBe('=B3+B6')
    expect(turn.records.structural).toEqual([{ action: 'insert_rows', sheet: 'FCF', at: '4', count: 2, description: 'Insert 2 rows on FCF before row 4' }])
  })

  it('deletes a row and reports the formulas that now show #REF!', async () => {
    const turn = await runTurn(modelWorkbook(), [{ name: 'modify_structure', arguments: { action: 'delete_rows', sheet: 'FCF', at: 3 } }])
    const content = contentOf(turn.results[0])
    expect(content.done).toBe('Delete row 3 on FCF')
    expect(content.removedCells).toBe(5)
    expect(content.newErrors).toContain('FCF!B3 = #REF!')
    expect(content.newErrors).toContain('Valuation!B1 = #REF!')
  })

  it('inserts and deletes columns by letters or header', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'modify_structure', arguments: { action: 'insert_columns', sheet: 'FCF', at: 'FY2025' } },
      { name: 'modify_structure', arguments: { action: 'delete_columns', sheet: 'FCF', at: 'C' } },
      { name: 'read_range', arguments: { sheet: 'FCF', range: 'C1:C2', include: 'formulas' } },
    ])
    expect(turn.results[0].summary).toBe('Insert 1 column on FCF before column C')
    expect(turn.results[1].summary).toBe('Delete column C on FCF')
    expect(contentOf(turn.results[2]).rows[1].cells.C2).toBe('=B2*(1+Assumptions!$B$2)')
  })

  it('adds, renames and deletes sheets', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'modify_structure', arguments: { action: 'add_sheet', name: 'Scenarios', position: 2 } },
      { name: 'modify_structure', arguments: { action: 'rename_sheet', sheet: 'Valuation', name: 'DCF' } },
      { name: 'modify_structure', arguments: { action: 'delete_sheet', sheet: 'scenarios' } },
      { name: 'modify_structure', arguments: { action: 'delete_sheet', sheet: 'Assumptions' } },
    ])
    expect(contentOf(turn.results[0]).sheets).toEqual(['Assumptions', 'Scenarios', 'FCF', 'Valuation'])
    expect(contentOf(turn.results[1]).sheets).toEqual(['Assumptions', 'Scenarios', 'FCF', 'DCF'])
    expect(contentOf(turn.results[2]).sheets).toEqual(['Assumptions', 'FCF', 'DCF'])
    expect(contentOf(turn.results[3]).newErrors).toContain('FCF!C2 = #REF!')
  })

  it('says what is missing or wrong', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'modify_structure', arguments: { action: 'insert_rows', sheet: 'FCF' } },
      { name: 'modify_structure', arguments: { action: 'add_sheet' } },
      { name: 'modify_structure', arguments: { action: 'rename_sheet', sheet: 'FCF', name: 'Valuation' } },
      { name: 'modify_structure', arguments: { action: 'delete_rows', sheet: 'FCF', at: 'Net debt' } },
      { name: 'modify_structure', arguments: { action: 'merge_sheets', sheet: 'FCF' } },
    ])
    expect(turn.results[0].error).toBe('insert_rows needs at: the row number or label')
    expect(turn.results[1].error).toBe('add_sheet needs name: the new sheet name')
    expect(turn.results[2].error).toBe('There is already a sheet named Valuation')
    expect(turn.results[3].error).toBe('No row labelled "Net debt" on FCF; give a row number.')
    expect(turn.results[4].error).toMatch(/action must be one of "insert_rows", "delete_rows"/)
    expect(turn.view).toBeUndefined()
  })
})
