import { describe, expect, it } from 'vitest'
import { contentOf, modelWorkbook, runTurn, shownState } from '../../testing/agent-workbook.js'

describe('write_cells', () => {
  it('writes inputs as a user types them and reads back what the cells show', async () => {
    const state = modelWorkbook()
    const turn = await runTurn(state, [
      { name: 'write_cells', arguments: { sheet: 'FCF', cells: [{ address: 'G1', input: 'Notes' }, { address: 'G2', input: '12.5%' }, { address: 'G3', input: '=E3/E2' }] } },
    ])
    const result = turn.results[0]
    expect(result.summary).toBe('Writing 3 cells on FCF')
    expect(contentOf(result).written).toEqual({
      'FCF!G1': 'Notes',
      'FCF!G2': { value: 0.125, shown: '12.50%' },
      'FCF!G3': { value: 0.25, formula: '=E3/E2' },
    })
    expect(turn.view?.changeCount).toBe(3)
  })

  it('writes to a cell named by row label and column header, and says which cell that was', async () => {
    const turn = await runTurn(modelWorkbook(), [{ name: 'write_cells', arguments: { sheet: 'FCF', cells: [{ address: { row: 'Revenue', column: 'FY2024' }, input: '1500' }], overwrite: true } }])
    const content = contentOf(turn.results[0])
    expect(content.written).toEqual({ 'FCF!B2': 1500 })
    expect(content.resolved).toEqual([{ cell: 'FCF!B2', via: 'row "Revenue" (A2) × column "FY2024" (B1)' }])
  })

  it('refuses to overwrite cells that hold something, names them, and writes nothing', async () => {
    const state = modelWorkbook()
    const before = shownState(state)
    const turn = await runTurn(state, [
      { name: 'write_cells', arguments: { sheet: 'Assumptions', cells: [{ address: 'B2', input: '15%' }, { address: 'B3', input: '30%' }, { address: 'C2', input: 'new' }] } },
    ])
    const result = turn.results[0]
    expect(result.ok).toBe(false)
    expect(result.error).toBe(
      'Refused: 2 cells already hold something and would be replaced: Assumptions!B2 ("10%"), Assumptions!B3 ("25%"). Nothing was written. Call write_cells again with overwrite: true to replace them, or choose empty cells.',
    )
    expect(turn.view).toBeUndefined()
    expect(shownState(state)).toEqual(before)
    const formula = await runTurn(state, [{ name: 'write_cells', arguments: { sheet: 'FCF', cells: [{ address: 'C2', input: '5' }] } }])
    expect(formula.results[0].error).toContain('FCF!C2 (=B2*(1+Assumptions!$B$2))')
  })

  it('replaces cells with overwrite: true, and cells the changeset wrote itself without it', async () => {
    const state = modelWorkbook()
    const first = await runTurn(state, [{ name: 'write_cells', arguments: { sheet: 'Assumptions', cells: [{ address: 'B2', input: '15%' }, { address: 'C9', input: 'draft' }], overwrite: true } }])
    expect(first.results[0].ok).toBe(true)
    const second = await runTurn(state, [{ name: 'write_cells', arguments: { sheet: 'Assumptions', cells: [{ address: 'C9', input: 'again' }, { address: 'B2', input: '12%' }] } }], {
      commands: first.session.added,
      written: first.session.writtenCells(),
    })
    expect(second.results[0].ok).toBe(true)
    expect(contentOf(second.results[0]).written['Assumptions!B2']).toEqual({ value: 0.12, shown: '12%' })
  })

  it('reports every cell that became an error because of the write', async () => {
    const turn = await runTurn(modelWorkbook(), [{ name: 'write_cells', arguments: { sheet: 'Assumptions', cells: [{ address: 'B5', input: 'nine percent' }], overwrite: true } }])
    const content = contentOf(turn.results[0])
    expect(content.newErrors).toEqual(['Valuation!B1 = #VALUE!', 'Valuation!B3 = #VALUE!'])
    expect(content.check).toMatch(/fix them or explain them/)
    expect(turn.view?.errors).toEqual([
      { sheet: 'Valuation', address: 'B1', value: '#VALUE!' },
      { sheet: 'Valuation', address: 'B3', value: '#VALUE!' },
    ])
  })

  it('holds a formula that could reach the network for approval', async () => {
    const turn = await runTurn(modelWorkbook(), [{ name: 'write_cells', arguments: { sheet: 'Valuation', cells: [{ address: 'C1', input: '=WEBSERVICE("https://rates.example/?v="&B1)' }] } }])
    expect(contentOf(turn.results[0]).needsApproval).toEqual(['Valuation!C1: WEBSERVICE fetches a web address'])
  })

  it('answers arguments that do not fit its schema with the reason', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'write_cells', arguments: { sheet: 'FCF', cells: [] } },
      { name: 'write_cells', arguments: { sheet: 'FCF', cells: [{ address: 'B2' }], extra: true } },
      { name: 'write_cells', arguments: '{"sheet": "FCF", "cells": [{"address": "Z1", "input": 1}]}' },
      { name: 'write_cells', arguments: '{"sheet": ' },
    ])
    expect(turn.results[0].error).toBe("The arguments do not match write_cells's schema: cells must not have fewer than 1 items.")
    expect(turn.results[1].error).toMatch(/the arguments have no field "extra"/)
    expect(turn.results[1].error).toMatch(/cells\.0 need "input"/)
    expect(turn.results[2].ok).toBe(true)
    expect(turn.results[3].error).toMatch(/^The arguments are not valid JSON/)
  })

  it('refuses an address it cannot resolve and a sheet that does not exist', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'write_cells', arguments: { sheet: 'FCF', cells: [{ address: 'ZZZZ9', input: 1 }] } },
      { name: 'write_cells', arguments: { sheet: 'P&L', cells: [{ address: 'A1', input: 1 }] } },
    ])
    expect(turn.results[0].error).toMatch(/"ZZZZ9" is not an A1 address or range/)
    expect(turn.results[1].error).toMatch(/There is no sheet named "P&L"/)
  })
})
