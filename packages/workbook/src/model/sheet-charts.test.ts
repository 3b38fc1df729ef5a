import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ChartSpec, WorkbookCommand } from '@finsheet/contracts'
import { CommandError } from './command-checks.js'
import { rebaseCommands } from './rebase.js'
import { moveAnchor } from './sheet-charts.js'
import { WorkbookModel } from './workbook-model.js'

const twoSheets = () =>
  new WorkbookModel({
    sheets: [
      { id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] },
      { id: 's2', name: 'Sheet2', columnWidths: {}, merges: [] },
    ],
  })

const bridge: ChartSpec = {
  type: 'waterfall',
  title: 'EV bridge',
  dataRange: 'A1:B5',
  seriesInColumns: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  anchor: { from: { row: 2, col: 4, dx: 10, dy: 5 }, to: { row: 12, col: 9, dx: 20, dy: 8 } },
}

const place = (spec: ChartSpec = bridge): WorkbookCommand => ({ type: 'set-chart', sheet: 'Sheet1', id: 'c1', chart: spec })

describe('set-chart', () => {
  it('adds a chart over the cells and its inverse removes it', () => {
    const model = twoSheets()
    const { inverse, applied } = model.apply([place()])
    expect(model.charts).toEqual([{ id: 'c1', sheetId: 's1', ...bridge }])
    expect(applied).toEqual([place()])
    expect(inverse).toEqual([{ type: 'set-chart', sheet: 'Sheet1', id: 'c1', chart: null }])
    model.apply(inverse)
    expect(model.charts).toEqual([])
  })

  it('moving a chart is undone by writing back its old anchor', () => {
    const model = twoSheets()
    model.apply([place()])
    const moved = { ...bridge, anchor: { from: { row: 20, col: 1, dx: 0, dy: 0 }, to: { row: 30, col: 6, dx: 0, dy: 0 } } }
    const { inverse } = model.apply([place(moved)])
    expect(model.charts[0].anchor).toEqual(moved.anchor)
    model.apply(inverse)
    expect(model.charts[0].anchor).toEqual(bridge.anchor)
  })

  it('deleting a chart is undone with the chart as it was', () => {
    const model = twoSheets()
    model.apply([place({ ...bridge, totals: [2], seriesKinds: ['bar'] })])
    const before = structuredClone(model.charts)
    const { inverse } = model.apply([{ type: 'set-chart', sheet: 'Sheet1', id: 'c1', chart: null }])
    expect(model.charts).toEqual([])
    model.apply(inverse)
    expect(model.charts).toEqual(before)
  })

  it('refuses a range past the chart limit, an inverted anchor and a chart id of another sheet, changing nothing', () => {
    const model = twoSheets()
    expect(() => model.apply([place({ ...bridge, dataRange: 'A1:J1001' })])).toThrow(CommandError)
    expect(() => model.apply([place({ ...bridge, dataRange: 'nonsense' })])).toThrow(/Invalid range/)
    const inverted = { from: { row: 9, col: 4, dx: 0, dy: 0 }, to: { row: 2, col: 9, dx: 0, dy: 0 } }
    expect(() => model.apply([place({ ...bridge, anchor: inverted })])).toThrow(/bottom-right corner/)
    expect(model.charts).toEqual([])
    model.apply([place()])
    expect(() => model.apply([{ type: 'set-chart', sheet: 'Sheet2', id: 'c1', chart: bridge }])).toThrow(/is on sheet Sheet1/)
    expect(model.charts).toHaveLength(1)
  })
})

describe('charts through row and column insertion and deletion', () => {
  it('rows inserted above push the chart and its range down; deleting them again brings both back', () => {
    const model = twoSheets()
    model.apply([place()])
    const { inverse } = model.apply([{ type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 3 }])
    expect(model.charts[0].dataRange).toBe('A4:B8')
    expect(model.charts[0].anchor).toEqual({ from: { row: 5, col: 4, dx: 10, dy: 5 }, to: { row: 15, col: 9, dx: 20, dy: 8 } })
    model.apply(inverse)
    expect(model.charts[0]).toEqual({ id: 'c1', sheetId: 's1', ...bridge })
  })

  it('rows inserted inside the chart make it taller; columns inserted left of it move it right', () => {
    const model = twoSheets()
    model.apply([place()])
    model.apply([{ type: 'insert-rows', sheet: 'Sheet1', at: 6, count: 2 }])
    expect(model.charts[0].anchor).toEqual({ from: { row: 2, col: 4, dx: 10, dy: 5 }, to: { row: 14, col: 9, dx: 20, dy: 8 } })
    model.apply([{ type: 'insert-columns', sheet: 'Sheet1', at: 0, count: 1 }])
    expect(model.charts[0].anchor?.from.col).toBe(5)
    expect(model.charts[0].dataRange).toBe('B1:C5')
  })

  it('deleting rows under its top corner pulls the corner to the first row after them, and undo restores the chart exactly', () => {
    const model = twoSheets()
    model.apply([place()])
    const { inverse } = model.apply([{ type: 'delete-rows', sheet: 'Sheet1', at: 1, count: 3 }])
    expect(model.charts[0].anchor).toEqual({ from: { row: 1, col: 4, dx: 10, dy: 0 }, to: { row: 9, col: 9, dx: 20, dy: 8 } })
    expect(model.charts[0].dataRange).toBe('A1:B2')
    model.apply(inverse)
    expect(model.charts).toEqual([{ id: 'c1', sheetId: 's1', ...bridge }])
  })

  it('deleting its whole range removes the chart, and undo brings it back', () => {
    const model = twoSheets()
    model.apply([place()])
    const { inverse } = model.apply([{ type: 'delete-columns', sheet: 'Sheet1', at: 0, count: 2 }])
    expect(model.charts).toEqual([])
    model.apply(inverse)
    expect(model.charts).toEqual([{ id: 'c1', sheetId: 's1', ...bridge }])
  })

  it('deleting its sheet removes the chart, and undo brings sheet and chart back', () => {
    const model = twoSheets()
    model.apply([place()])
    const { inverse } = model.apply([{ type: 'delete-sheet', name: 'Sheet1' }])
    expect(model.charts).toEqual([])
    model.apply(inverse)
    expect(model.charts).toEqual([{ id: 'c1', sheetId: 's1', ...bridge }])
  })

  it('an anchor corner at the last row stays on the sheet', () => {
    const anchor = { from: { row: 1_048_570, col: 0, dx: 0, dy: 0 }, to: { row: 1_048_575, col: 2, dx: 0, dy: 0 } }
    expect(moveAnchor(anchor, { axis: 'rows', kind: 'insert', at: 0, count: 10 }).to.row).toBe(1_048_575)
  })
})

describe('rebasing set-chart', () => {
  it('moves a chart placed on an older revision over rows inserted since', () => {
    const steps = [{ type: 'structure' as const, sheetId: 's1', sheetName: 'Sheet1', edit: { axis: 'rows' as const, kind: 'insert' as const, at: 0, count: 2 } }]
    const result = rebaseCommands([{ type: 'set-chart', sheet: 's1', id: 'c1', chart: bridge }], steps, new Map([['s1', 'Sheet1']]))
    expect(result).toEqual({ commands: [{ type: 'set-chart', sheet: 's1', id: 'c1', chart: { ...bridge, dataRange: 'A3:B7', anchor: { from: { ...bridge.anchor!.from, row: 4 }, to: { ...bridge.anchor!.to, row: 14 } } } }] })
  })

  it('refuses a chart whose range was deleted since', () => {
    const steps = [{ type: 'structure' as const, sheetId: 's1', sheetName: 'Sheet1', edit: { axis: 'rows' as const, kind: 'delete' as const, at: 0, count: 10 } }]
    const result = rebaseCommands([{ type: 'set-chart', sheet: 's1', id: 'c1', chart: bridge }], steps, new Map([['s1', 'Sheet1']]))
    expect(result).toHaveProperty('refused.reason', expect.stringContaining('the range of a chart on Sheet1 was deleted'))
  })
})

describe('charts under random edits', () => {
  const corner = fc.record({ row: fc.integer({ min: 0, max: 12 }), col: fc.integer({ min: 0, max: 8 }), dx: fc.integer({ min: 0, max: 60 }), dy: fc.integer({ min: 0, max: 20 }) })
  const spec = fc.record({ top: fc.integer({ min: 0, max: 8 }), height: fc.integer({ min: 1, max: 5 }), from: corner, rows: fc.integer({ min: 0, max: 10 }), cols: fc.integer({ min: 0, max: 5 }) }).map(
    ({ top, height, from, rows, cols }): ChartSpec => ({
      ...bridge,
      dataRange: `A${top + 1}:B${top + height}`,
      anchor: { from, to: { row: from.row + rows, col: from.col + cols, dx: from.dx, dy: from.dy } },
    }),
  )
  const edit: fc.Arbitrary<WorkbookCommand> = fc.oneof(
    fc.record({ type: fc.constant('set-chart' as const), sheet: fc.constantFrom('Sheet1', 'Sheet2'), id: fc.constantFrom('c1', 'c2'), chart: fc.option(spec, { nil: null }) }),
    fc.record({ type: fc.constantFrom('insert-rows' as const, 'delete-rows' as const, 'insert-columns' as const, 'delete-columns' as const), sheet: fc.constantFrom('Sheet1', 'Sheet2'), at: fc.integer({ min: 0, max: 10 }), count: fc.integer({ min: 1, max: 4 }) }),
    fc.constant<WorkbookCommand>({ type: 'delete-sheet', name: 'Sheet2' }),
  )

  it('undoing any sequence of chart edits, row and column changes and sheet deletions restores the charts exactly', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 10 }), (commands) => {
        const model = twoSheets()
        model.apply([place(), { type: 'set-chart', sheet: 'Sheet2', id: 'c3', chart: { ...bridge, title: 'Other' } }])
        const start = structuredClone(model.charts)
        const inverses: WorkbookCommand[][] = []
        for (const command of commands) {
          const before = structuredClone(model.charts)
          try {
            inverses.push(model.apply([command]).inverse)
          } catch (error) {
            if (!(error instanceof CommandError)) throw error
            expect(model.charts).toEqual(before)
          }
        }
        for (const inverse of inverses.reverse()) model.apply(inverse)
        const byId = (charts: typeof start) => [...charts].sort((a, b) => a.id.localeCompare(b.id))
        expect(byId(model.charts)).toEqual(byId(start))
      }),
      { numRuns: 150 },
    )
  })
})
