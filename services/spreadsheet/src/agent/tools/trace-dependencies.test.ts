import { describe, expect, it } from 'vitest'
import { contentOf, modelWorkbook, runTurn } from '../../testing/agent-workbook.js'

describe('trace_dependencies', () => {
  it('lists what a formula reads, with labels and values, and follows it down levels', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'trace_dependencies', arguments: { sheet: 'Valuation', address: 'B1', direction: 'precedents' } },
      { name: 'trace_dependencies', arguments: { sheet: 'FCF', address: { row: 'Free cash flow', column: 'FY2024' }, direction: 'precedents', depth: 2 } },
    ])
    const first = contentOf(turn.results[0])
    expect(first.formula).toBe('=NPV(Assumptions!B5,FCF!B5:E5)')
    expect(first.precedents).toEqual([
      { level: 1, ref: 'Assumptions!B5', label: 'Discount rate · Value', value: 0.09 },
      expect.objectContaining({ level: 1, ref: 'FCF!B5:E5', label: 'Free cash flow', cells: 4, formulas: 4 }),
    ])
    const second = contentOf(turn.results[1])
    expect(second.precedents.map((entry: { ref: string; level: number }) => `${entry.level} ${entry.ref}`)).toEqual([
      '1 FCF!B3',
      '1 FCF!B4',
      '2 FCF!B2',
      '2 Assumptions!B3',
      '2 FCF!B3',
      '2 Assumptions!B4',
    ])
    expect(second.precedents[5]).toMatchObject({ of: 'FCF!B4', name: 'TaxRate', label: 'Tax rate · Value' })
  })

  it('lists the formulas that read a cell, through names and ranges too', async () => {
    const content = contentOf((await runTurn(modelWorkbook(), [{ name: 'trace_dependencies', arguments: { sheet: 'Assumptions', address: 'TaxRate', direction: 'dependents', depth: 3 } }])).results[0])
    expect(content.dependents.map((entry: { ref: string; level: number }) => `${entry.level} ${entry.ref}`)).toEqual([
      '1 FCF!B4',
      '1 FCF!C4',
      '1 FCF!D4',
      '1 FCF!E4',
      '2 FCF!B5',
      '2 FCF!C5',
      '2 FCF!D5',
      '2 FCF!E5',
      '3 Valuation!B1',
    ])
    expect(content.dependents[0]).toMatchObject({ label: 'Taxes · FY2024', formula: '=-B3*TaxRate', value: -52.5 })
  })

  it('says when a cell is an input or nothing reads it', async () => {
    const content = contentOf((await runTurn(modelWorkbook(), [{ name: 'trace_dependencies', arguments: { sheet: 'Valuation', address: 'B3', direction: 'both' } }])).results[0])
    expect(content.precedents).toHaveLength(2)
    expect(content.dependentsNote).toBe('No formula reads this cell.')
    const input = contentOf((await runTurn(modelWorkbook(), [{ name: 'trace_dependencies', arguments: { sheet: 'FCF', address: 'B2', direction: 'precedents' } }])).results[0])
    expect(input.precedentsNote).toMatch(/it is an input/)
  })
})
