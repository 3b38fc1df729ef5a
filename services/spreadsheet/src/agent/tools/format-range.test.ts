import { describe, expect, it } from 'vitest'
import { contentOf, modelWorkbook, runTurn } from '../../testing/agent-workbook.js'

describe('format_range', () => {
  it('applies a style patch and a number format to a range, in the changeset', async () => {
    const state = modelWorkbook()
    const turn = await runTurn(state, [
      { name: 'format_range', arguments: { sheet: 'FCF', range: { row: 'Revenue' }, style: { bold: true, color: '#1F4E79' }, numberFormat: '#,##0' } },
      { name: 'read_range', arguments: { sheet: 'FCF', range: 'E2', include: 'values' } },
    ])
    expect(turn.results[0].summary).toBe('Formatting FCF!B2:E2 (bold, color #1F4E79, number format #,##0)')
    expect(contentOf(turn.results[1]).rows[0].cells.E2).toEqual({ value: 1331, shown: '1,331' })
    expect(turn.records.formats).toEqual([{ sheet: 'FCF', range: 'B2:E2', style: { bold: true, color: '#1F4E79' }, numberFormat: '#,##0' }])
    expect(turn.view?.highlights).toEqual([{ sheet: 'FCF', range: 'B2:E2' }])
    // A format changes no cell's content: nothing is listed as changed.
    expect(turn.view?.changeCount).toBe(0)
    expect(state.styleAt('f', 'B2')).toBeUndefined()
  })

  it('needs a style or a number format, and a format it can read', async () => {
    const turn = await runTurn(modelWorkbook(), [
      { name: 'format_range', arguments: { sheet: 'FCF', range: 'B2:E2' } },
      { name: 'format_range', arguments: { sheet: 'FCF', range: 'B2:E2', numberFormat: '0.0"%' } },
      { name: 'format_range', arguments: { sheet: 'FCF', range: 'B2:E2', style: { color: 'url(javascript:x)' } } },
    ])
    expect(turn.results[0].error).toBe('Give a style, a numberFormat, or both.')
    expect(turn.results[1].error).toBe('Invalid number format: "0.0\\"%"')
    expect(turn.results[2].error).toMatch(/^The arguments do not match format_range's schema: style\.color must match pattern/)
  })
})
