import { describe, expect, it } from 'vitest'
import { comboSeriesKind, isWaterfallTotal, waterfallBars } from './chart-series.js'

const bridge = {
  labels: ['Enterprise value', 'Less: debt', 'Plus: cash', 'Less: minorities', 'Equity value'],
  series: [{ name: 'EUR m', values: [1200, -350, 80, -30, 900] }],
}

describe('waterfallBars', () => {
  it('stands the first and last bars on zero and floats the steps from the running total', () => {
    expect(waterfallBars(bridge)).toEqual([
      { label: 'Enterprise value', value: 1200, kind: 'total', start: 0, end: 1200 },
      { label: 'Less: debt', value: -350, kind: 'decrease', start: 1200, end: 850 },
      { label: 'Plus: cash', value: 80, kind: 'increase', start: 850, end: 930 },
      { label: 'Less: minorities', value: -30, kind: 'decrease', start: 930, end: 900 },
      { label: 'Equity value', value: 900, kind: 'total', start: 0, end: 900 },
    ])
  })

  it('a point labelled Total, or flagged, is a total that resets the running total', () => {
    const data = { labels: ['Revenue', 'Costs', 'Total', 'Tax', 'Other', 'Net'], series: [{ name: 'x', values: [100, -40, 60, -15, 5, 50] }] }
    const bars = waterfallBars(data, [4])
    expect(bars.map((bar) => bar.kind)).toEqual(['total', 'decrease', 'total', 'decrease', 'total', 'total'])
    expect(bars[3]).toMatchObject({ start: 60, end: 45 })
    expect(bars[4]).toMatchObject({ start: 0, end: 5 })
  })

  it('an empty total shows the running total; an empty step adds nothing', () => {
    const data = { labels: ['Start', 'Up', 'Gap', 'End'], series: [{ name: 'x', values: [10, 5, null, null] }] }
    expect(waterfallBars(data).map((bar) => [bar.start, bar.end])).toEqual([
      [0, 10],
      [10, 15],
      [15, 15],
      [0, 15],
    ])
  })

  it('draws nothing without a series', () => {
    expect(waterfallBars({ labels: [], series: [] })).toEqual([])
  })

  it('reads Total labels without case or spaces', () => {
    expect(isWaterfallTotal('  TOTAL ', 2, 5)).toBe(true)
    expect(isWaterfallTotal('Total debt', 2, 5)).toBe(false)
  })
})

describe('comboSeriesKind', () => {
  it('draws the first series as bars and the rest as lines unless told', () => {
    expect([0, 1, 2].map((index) => comboSeriesKind(undefined, index))).toEqual(['bar', 'line', 'line'])
    expect([0, 1, 2].map((index) => comboSeriesKind(['line', 'bar'], index))).toEqual(['line', 'bar', 'line'])
  })
})
