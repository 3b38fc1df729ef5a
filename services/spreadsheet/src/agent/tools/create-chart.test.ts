import { describe, expect, it } from 'vitest'
import { contentOf, modelWorkbook, runTurn, shownState } from '../../testing/agent-workbook.js'

describe('create_chart', () => {
  it('previews the chart and keeps it for when the changeset is applied', async () => {
    const state = modelWorkbook()
    const before = shownState(state)
    const turn = await runTurn(state, [{ name: 'create_chart', arguments: { sheet: 'FCF', range: 'A1:E2', type: 'line', title: 'Revenue' } }])
    expect(turn.results[0].summary).toBe('Adding a line chart of FCF!A1:E2')
    // Periods across: one series, the line, with a point per year (as the app's own new charts read a wide range).
    expect(contentOf(turn.results[0]).preview).toEqual({ labels: ['FY2024', 'FY2025', 'FY2026', 'FY2027'], series: [{ name: 'Revenue', points: 4 }] })
    expect(turn.records.charts).toEqual([{ sheet: 'FCF', range: 'A1:E2', type: 'line', title: 'Revenue' }])
    expect(state.charts).toEqual([])
    expect(shownState(state)).toEqual(before)
  })

  it('refuses a range with nothing to draw, and an unknown chart type', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'create_chart', arguments: { sheet: 'FCF', range: 'A1:A5', type: 'bar' } },
      { name: 'create_chart', arguments: { sheet: 'FCF', range: 'A1:E2', type: 'radar' } },
    ])
    expect(turn.results[0].error).toMatch(/holds no numbers to chart/)
    expect(turn.results[1].error).toMatch(/^The arguments do not match create_chart's schema: type/)
  })

  it('reads a tall range with its series in columns', async () => {
    const turn = await runTurn(modelWorkbook(), [{ name: 'create_chart', arguments: { sheet: 'FCF', range: 'A1:B5', type: 'bar' } }])
    expect(contentOf(turn.results[0]).preview.series).toEqual([{ name: 'FY2024', points: 4 }])
  })
})
