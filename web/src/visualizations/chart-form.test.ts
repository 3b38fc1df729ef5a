import { describe, expect, it } from 'vitest'
import { checkDataRange, usedRange } from './chart-form'

describe('chart data ranges', () => {
  it('reads a range, with or without its sheet', () => {
    expect(checkDataRange('B3:F8')).toEqual({ ok: true, sheet: null, range: { startCol: 1, startRow: 2, endCol: 5, endRow: 7 } })
    expect(checkDataRange(' Valuation!f8:b3 ')).toMatchObject({ ok: true, sheet: 'Valuation', range: { startCol: 1, endCol: 5 } })
    expect(checkDataRange("'Cash Flow'!A1:B2")).toMatchObject({ ok: true, sheet: 'Cash Flow' })
    expect(checkDataRange("'Bob''s'!A1:B2")).toMatchObject({ ok: true, sheet: "Bob's" })
  })

  it('refuses what cannot be charted, saying why', () => {
    expect(checkDataRange('')).toEqual({ ok: false, message: 'Enter the range to chart, such as A1:F6.' })
    expect(checkDataRange('revenue')).toEqual({ ok: false, message: 'revenue is not a range. Write it as A1:F6.' })
    expect(checkDataRange('!A1:B2')).toMatchObject({ ok: false })
    expect(checkDataRange('C4')).toEqual({ ok: false, message: 'A chart needs at least two cells: labels and values.' })
    expect(checkDataRange('A1:Z1000')).toEqual({ ok: false, message: 'A chart can draw at most 10,000 cells.' })
  })

  it('starts from the used block of the sheet', () => {
    expect(usedRange(19, 6)).toBe('A1:F19')
    expect(usedRange(0, 0)).toBe('')
  })
})
