import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { WorkbookCommand } from '@finsheet/contracts'
import { rebaseCommands, type LayoutStep } from './rebase.js'
import { WorkbookModel } from './workbook-model.js'

const start = () =>
  new WorkbookModel(
    {
      sheets: [
        { id: 'a', name: 'Inputs', columnWidths: {}, merges: [] },
        { id: 'b', name: 'Model', columnWidths: {}, merges: [] },
      ],
    },
    { refs: 'id' },
  )

const shown = (model: WorkbookModel) => {
  const { revision: _revision, ...rest } = model.snapshot('Book')
  return rest
}

/** The layout step a structural or rename command is, with the sheet's name before it. */
function stepOf(model: WorkbookModel, command: WorkbookCommand): LayoutStep {
  if (command.type === 'rename-sheet') return { type: 'rename', sheetId: command.from, from: model.sheetName(command.from), to: command.to }
  if (command.type === 'insert-rows' || command.type === 'delete-rows' || command.type === 'insert-columns' || command.type === 'delete-columns') {
    return {
      type: 'structure',
      sheetId: command.sheet,
      sheetName: model.sheetName(command.sheet),
      edit: { axis: command.type.endsWith('rows') ? 'rows' : 'columns', kind: command.type.startsWith('insert') ? 'insert' : 'delete', at: command.at, count: command.count },
    }
  }
  throw new Error(`not a layout step: ${command.type}`)
}

describe('rebaseCommands', () => {
  it('moves an edit made before another client inserted a row to where its cell went, with its formula', () => {
    const names = new Map([
      ['a', 'Inputs'],
      ['b', 'Model'],
    ])
    const steps: LayoutStep[] = [{ type: 'structure', sheetId: 'a', sheetName: 'Inputs', edit: { axis: 'rows', kind: 'insert', at: 2, count: 1 } }]
    const moved = rebaseCommands([{ type: 'set-cells', sheet: 'a', cells: [{ address: 'C5', input: '=A5*2' }, { address: 'C1', input: '1' }] }], steps, names)
    expect(moved).toEqual({ commands: [{ type: 'set-cells', sheet: 'a', cells: [{ address: 'C6', input: '=A6*2' }, { address: 'C1', input: '1' }] }] })
  })

  it('leaves an address that does not parse as typed for the command to refuse (it threw, a 500 through the API)', () => {
    const names = new Map([['a', 'Inputs']])
    const steps: LayoutStep[] = [{ type: 'structure', sheetId: 'a', sheetName: 'Inputs', edit: { axis: 'rows', kind: 'insert', at: 0, count: 2 } }]
    expect(rebaseCommands([{ type: 'set-cells', sheet: 'a', cells: [{ address: 'A&s', input: '1' }, { address: 'B2', input: '2' }] }], steps, names)).toEqual({
      commands: [{ type: 'set-cells', sheet: 'a', cells: [{ address: 'A&s', input: '1' }, { address: 'B4', input: '2' }] }],
    })
  })

  it('follows a renamed sheet in formulas, and refuses an edit to a deleted row naming the cell', () => {
    const names = new Map([
      ['a', 'Inputs'],
      ['b', 'Model'],
    ])
    const renamed: LayoutStep[] = [{ type: 'rename', sheetId: 'a', from: 'Inputs', to: 'Drivers' }]
    expect(rebaseCommands([{ type: 'set-cells', sheet: 'b', cells: [{ address: 'A1', input: '=Inputs!B2*2' }] }], renamed, names)).toEqual({
      commands: [{ type: 'set-cells', sheet: 'b', cells: [{ address: 'A1', input: '=Drivers!B2*2' }] }],
    })
    const deleted: LayoutStep[] = [{ type: 'structure', sheetId: 'a', sheetName: 'Inputs', edit: { axis: 'rows', kind: 'delete', at: 4, count: 1 } }]
    const refused = rebaseCommands([{ type: 'set-cells', sheet: 'a', cells: [{ address: 'B5', input: '7' }] }], deleted, names)
    expect(refused).toMatchObject({ refused: { cells: [{ sheet: 'Inputs', address: 'B5' }] } })
    expect('refused' in refused && refused.refused.reason).toContain('Inputs!B5')
  })

  it('moves insertions and shrinks deletions over the rows others inserted and deleted', () => {
    const names = new Map([['a', 'Inputs']])
    const insertedAbove: LayoutStep[] = [{ type: 'structure', sheetId: 'a', sheetName: 'Inputs', edit: { axis: 'rows', kind: 'insert', at: 0, count: 2 } }]
    expect(rebaseCommands([{ type: 'delete-rows', sheet: 'a', at: 5, count: 3 }], insertedAbove, names)).toEqual({ commands: [{ type: 'delete-rows', sheet: 'a', at: 7, count: 3 }] })
    const deletedPart: LayoutStep[] = [{ type: 'structure', sheetId: 'a', sheetName: 'Inputs', edit: { axis: 'rows', kind: 'delete', at: 6, count: 4 } }]
    expect(rebaseCommands([{ type: 'delete-rows', sheet: 'a', at: 5, count: 3 }], deletedPart, names)).toEqual({ commands: [{ type: 'delete-rows', sheet: 'a', at: 5, count: 1 }] })
    const insertedInside: LayoutStep[] = [{ type: 'structure', sheetId: 'a', sheetName: 'Inputs', edit: { axis: 'rows', kind: 'insert', at: 6, count: 1 } }]
    expect(rebaseCommands([{ type: 'delete-rows', sheet: 'a', at: 5, count: 3 }], insertedInside, names)).toHaveProperty('refused')
  })

  it('gives the workbook an edit would have made had it been applied before the others’ row, column and sheet changes', () => {
    const address = fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 6 })).map(([col, row]) => `${'ABCDE'[col]}${row + 1}`)
    const formula = fc.constantFrom('=A1+B2', '=SUM(A1:C4)', '=Model!B3*2', '=Inputs!$A$2', '=COUNT(B:B)', '=D7-A1', '12', 'text')
    const sheet = fc.constantFrom('a', 'b')
    const layout = fc.oneof(
      fc.record({
        type: fc.constantFrom('insert-rows' as const, 'delete-rows' as const, 'insert-columns' as const, 'delete-columns' as const),
        sheet,
        at: fc.integer({ min: 0, max: 5 }),
        count: fc.integer({ min: 1, max: 2 }),
      }),
      fc.record({ type: fc.constant('rename-sheet' as const), from: sheet, to: fc.constantFrom('Drivers', 'Calc') }),
    )
    const edit = fc.record({ type: fc.constant('set-cells' as const), sheet, cells: fc.uniqueArray(fc.record({ address, input: formula }), { minLength: 1, maxLength: 4, selector: (cell) => cell.address }) })
    fc.assert(
      fc.property(edit, fc.array(layout, { minLength: 1, maxLength: 4 }), (stale, others) => {
        const first = start()
        first.apply([{ type: 'set-cells', sheet: 'a', cells: [{ address: 'A1', input: '2' }, { address: 'B2', input: '3' }] }])
        const namesAtBase = new Map(first.sheets.map((sheet) => [sheet.id, sheet.name]))
        const theirs = WorkbookModel.fromSnapshot(first.snapshot('Book'), 0, { refs: 'id' })
        // The edit applied first, then the others' changes: what the workbook would be had it arrived in time.
        first.apply([stale])
        const steps: LayoutStep[] = []
        for (const other of others) {
          try {
            steps.push(stepOf(theirs, other))
            theirs.apply([other])
            first.apply([other])
          } catch {
            steps.pop()
          }
        }
        const moved = rebaseCommands([stale], steps, namesAtBase)
        if ('refused' in moved) {
          expect(moved.refused.cells.length).toBeGreaterThan(0)
          return
        }
        theirs.apply(moved.commands)
        expect(shown(theirs)).toEqual(shown(first))
      }),
      { numRuns: 400 },
    )
  })
})

describe('rebaseCommands on sheet layout', () => {
  it('moves hidden and grouped rows over rows inserted and deleted since, and drops a span whose rows are gone', () => {
    const names = new Map([['a', 'Inputs']])
    const steps: LayoutStep[] = [
      { type: 'structure', sheetId: 'a', sheetName: 'Inputs', edit: { axis: 'rows', kind: 'insert', at: 0, count: 2 } },
      { type: 'structure', sheetId: 'a', sheetName: 'Inputs', edit: { axis: 'rows', kind: 'delete', at: 10, count: 3 } },
    ]
    const moved = rebaseCommands(
      [{ type: 'set-sheet-view', sheet: 'a', frozenRows: 1, rows: [{ from: 3, to: 5, hidden: true }, { from: 8, to: 10, level: 1 }, { from: 20, to: 21, height: 30 }], columns: [{ from: 1, to: 1, hidden: true }] }],
      steps,
      names,
    )
    expect(moved).toEqual({
      commands: [
        {
          type: 'set-sheet-view',
          sheet: 'a',
          frozenRows: 1,
          // rows 8–10 became 10–12 and were deleted; rows 20–21 became 22–23, then 19–20
          rows: [{ from: 5, to: 7, hidden: true }, { from: 19, to: 20, height: 30 }],
          columns: [{ from: 1, to: 1, hidden: true }],
        },
      ],
    })
  })
})
