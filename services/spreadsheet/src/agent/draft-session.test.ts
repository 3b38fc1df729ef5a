import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { WorkbookCommand } from '@finsheet/contracts'
import { CommandError } from '@finsheet/workbook'
import { modelWorkbook, runTurn, shownState } from '../testing/agent-workbook.js'
import { DraftSession } from './draft-session.js'

/** A draft of every kind of command the tools produce, with deletions that cut formulas, charts and names. */
const everyKind: WorkbookCommand[] = [
  { type: 'set-cells', sheet: 'FCF', cells: [{ address: 'F1', input: 'FY2028' }, { address: 'F2', input: '=E2*1.1' }, { address: 'B2', input: '1200' }] },
  { type: 'format-cells', sheet: 'FCF', ranges: ['B2:F5'], style: { bold: true, fill: '#FFF2CC' }, format: '#,##0' },
  { type: 'insert-rows', sheet: 'FCF', at: 2, count: 2 },
  { type: 'delete-rows', sheet: 'FCF', at: 5, count: 1 },
  { type: 'insert-columns', sheet: 'Assumptions', at: 1, count: 1 },
  { type: 'delete-columns', sheet: 'FCF', at: 3, count: 1 },
  { type: 'add-sheet', name: 'Scenarios', index: 1 },
  { type: 'set-cells', sheet: 'Scenarios', cells: [{ address: 'A1', input: '=FCF!B2*2' }] },
  { type: 'rename-sheet', from: 'Valuation', to: 'DCF' },
  { type: 'delete-sheet', name: 'Assumptions' },
]

describe('a draft applied for a turn and undone', () => {
  it('leaves the workbook as it was, snapshot for snapshot, whatever the draft did', () => {
    const state = modelWorkbook()
    state.charts.push({ id: 'c1', type: 'bar', title: 'Revenue', sheetId: 'f', dataRange: 'A4:E4', seriesInColumns: true, createdAt: '2026-01-01T00:00:00.000Z' })
    const before = shownState(state)
    const session = DraftSession.open(state, { id: 'd1', commands: everyKind, written: [] })
    expect(state.sheets.map((sheet) => sheet.name)).toEqual(['Scenarios', 'FCF', 'DCF'])
    // The chart's whole range was deleted with its row.
    expect(state.charts).toEqual([])
    expect(shownState(state)).not.toEqual(before)
    session.close()
    expect(shownState(state)).toEqual(before)
  })

  it('leaves it as it was after any sequence of writes, insertions, deletions and sheet changes', () => {
    const address = fc.tuple(fc.constantFrom('A', 'B', 'C', 'D', 'E', 'F'), fc.integer({ min: 1, max: 8 })).map(([col, row]) => `${col}${row}`)
    const sheet = fc.constantFrom('Assumptions', 'FCF', 'Valuation')
    const command: fc.Arbitrary<WorkbookCommand> = fc.oneof(
      fc.record({
        type: fc.constant('set-cells' as const),
        sheet,
        cells: fc.array(fc.record({ address, input: fc.oneof(fc.integer().map(String), fc.constantFrom('=B2*2', '=SUM(B2:E2)', '=FCF!B5/0', 'text', '', '=TaxRate*3')) }), { minLength: 1, maxLength: 4 }),
      }),
      fc.record({ type: fc.constantFrom('insert-rows' as const, 'delete-rows' as const, 'insert-columns' as const, 'delete-columns' as const), sheet, at: fc.integer({ min: 0, max: 6 }), count: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ type: fc.constant('format-cells' as const), sheet, ranges: fc.constant(['B2:C3'] as string[]), style: fc.constant({ italic: true }) }),
    )
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 8 }), (commands) => {
        const state = modelWorkbook()
        const before = shownState(state)
        let session: DraftSession
        try {
          session = DraftSession.open(state, { id: 'p', commands, written: [] })
        } catch (error) {
          // A draft the model refuses changes nothing.
          expect(error).toBeInstanceOf(CommandError)
          expect(shownState(state)).toEqual(before)
          return
        }
        session.close()
        expect(shownState(state)).toEqual(before)
      }),
      { numRuns: 60 },
    )
  })

  it('refuses a draft that no longer applies and changes nothing', () => {
    const state = modelWorkbook()
    const before = shownState(state)
    expect(() => DraftSession.open(state, { id: 'd2', commands: [everyKind[0], { type: 'set-cells', sheet: 'Gone', cells: [{ address: 'A1', input: '1' }] }], written: [] })).toThrow(/Sheet not found: Gone/)
    expect(shownState(state)).toEqual(before)
  })

  it('goes back to a checkpoint, keeping what came before it', () => {
    const state = modelWorkbook()
    const session = DraftSession.open(state, { id: 'd3', commands: [], written: [] })
    session.write([{ type: 'set-cells', sheet: 'FCF', cells: [{ address: 'G1', input: 'kept' }] }])
    const kept = shownState(state)
    const checkpoint = session.checkpoint()
    session.write([{ type: 'insert-rows', sheet: 'FCF', at: 0, count: 1 }])
    session.write([{ type: 'set-cells', sheet: 'FCF', cells: [{ address: 'A1', input: 'dropped' }] }])
    session.rollBackTo(checkpoint)
    expect(shownState(state)).toEqual(kept)
    expect(session.added).toHaveLength(1)
    expect(session.wasWritten('f', 'G1')).toBe(true)
    expect(session.wasWritten('f', 'G2')).toBe(false)
    session.close()
  })

  it('follows written cells through rows inserted later, and knows where each was before the draft', () => {
    const state = modelWorkbook()
    const session = DraftSession.open(state, { id: 'd4', commands: [], written: [] })
    session.write([{ type: 'set-cells', sheet: 'FCF', cells: [{ address: 'B7', input: '5' }] }])
    session.write([{ type: 'insert-rows', sheet: 'FCF', at: 2, count: 1 }])
    expect(session.wasWritten('f', 'B8')).toBe(true)
    expect(session.wasWritten('f', 'B7')).toBe(false)
    expect([...session.effects().touched]).toContain('f!B8')
    const origin = session.originOf()
    expect(origin('f', 2, 1)).toBeUndefined()
    expect(origin('f', 5, 1)).toEqual({ row: 4, col: 1 })
    session.close()
  })

  it('shows reads within a turn what earlier calls wrote, and nothing of it afterwards', async () => {
    const state = modelWorkbook()
    const before = shownState(state)
    const turn = await runTurn(state, [
      { name: 'write_cells', arguments: { sheet: 'Assumptions', cells: [{ address: 'B2', input: '20%' }], overwrite: true } },
      { name: 'read_range', arguments: { sheet: 'FCF', range: 'C2' } },
    ])
    expect(turn.results[1].content).toMatchObject({ rows: [{ cells: { C2: { value: 1200 } } }] })
    expect(shownState(state)).toEqual(before)
  })
})
