import { describe, expect, it } from 'vitest'
import { edit, modelWorkbook, runTurn } from '../testing/agent-workbook.js'
import { compactNumber } from './changeset-view.js'

describe('a changeset worked out for review', () => {
  it('lists each written cell before and after, with its label', async () => {
    const turn = await runTurn(modelWorkbook(), [{ name: 'write_cells', arguments: { sheet: 'Assumptions', cells: [{ address: 'B2', input: '12%' }], overwrite: true } }])
    expect(turn.view?.changes).toEqual([
      {
        sheet: 'Assumptions',
        address: 'B2',
        label: 'Revenue growth · Value',
        before: { input: '10%', value: 0.1, display: '10%' },
        after: { input: '12%', value: 0.12, display: '12%' },
      },
    ])
    expect(turn.view?.fingerprints).toEqual([{ sheetId: 'a', address: 'B2', input: '10%' }])
    expect(turn.view?.highlights).toEqual([{ sheet: 'Assumptions', range: 'B2' }])
  })

  it('lists the cells downstream whose values change, largest relative change first, as people read them', async () => {
    const state = modelWorkbook()
    edit(state, [{ type: 'set-cells', sheet: 'FCF', cells: [{ address: 'B2', input: '1200000000' }] }])
    const turn = await runTurn(state, [{ name: 'write_cells', arguments: { sheet: 'Assumptions', cells: [{ address: 'B2', input: '20%' }], overwrite: true } }])
    const view = turn.view!
    expect(view.downstreamCount).toBe(14)
    const ranks = view.downstream.map((effect) => effect.relativeChange ?? Infinity)
    expect([...ranks].sort((a, b) => b - a)).toEqual(ranks)
    expect(view.downstream[0]).toMatchObject({ sheet: 'FCF', address: 'E2', label: 'Revenue · FY2027', text: 'FCF!E2 1.60bn → 2.07bn' })
    expect(view.downstream.map((effect) => effect.address)).not.toContain('B2')
    expect(view.downstream.find((effect) => effect.sheet === 'Valuation' && effect.address === 'B1')?.text).toBe('Valuation!B1 881.77m → 1.01bn')
  })

  it('follows cells through inserted rows: before is where the cell was, and new rows start empty', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'write_cells', arguments: { sheet: 'FCF', cells: [{ address: 'B7', input: '=B5*2' }] } },
      { name: 'modify_structure', arguments: { action: 'insert_rows', sheet: 'FCF', at: 2 } },
      { name: 'write_cells', arguments: { sheet: 'FCF', cells: [{ address: 'A2', input: 'Volume' }] } },
    ])
    const changes = turn.view!.changes.map((change) => `${change.address} ${change.before.input || '∅'} → ${change.after.input}`)
    expect(changes).toEqual(['A2 ∅ → Volume', 'B8 ∅ → =B6*2'])
    // The inserted row's cell has no place before the changeset, so nothing to compare at apply.
    expect(turn.view!.fingerprints).toEqual([{ sheetId: 'f', address: 'B7', input: '' }])
    expect(turn.view!.downstreamCount).toBe(0)
  })

  it('lists the errors it brings', async () => {
    const turn = await runTurn(modelWorkbook(), [{ name: 'modify_structure', arguments: { action: 'delete_rows', sheet: 'Assumptions', at: 'Discount rate' } }])
    expect(turn.view!.errors).toEqual([{ sheet: 'Valuation', address: 'B1', value: '#REF!' }, { sheet: 'Valuation', address: 'B3', value: '#REF!' }])
  })
})

describe('compactNumber', () => {
  it('writes large numbers as people say them, and percentages as shown', () => {
    expect(compactNumber(1_200_000_000, undefined)).toBe('1.20bn')
    expect(compactNumber(35_400_000, '#,##0')).toBe('35.40m')
    expect(compactNumber(12_300, undefined)).toBe('12,300')
    expect(compactNumber(0.153, '0.0%')).toBe('15.3%')
    expect(compactNumber(null, undefined)).toBe('(empty)')
  })
})
