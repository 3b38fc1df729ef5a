import { describe, expect, it } from 'vitest'
import { cartesianLayout, formatChartNumber, niceScale, pieLayout, seriesInColumnsFor, seriesStats } from './chart-geometry.js'

const plot = { left: 40, top: 10, width: 300, height: 200 }

describe('axis scales', () => {
  it('rounds the axis to 1, 2, 2.5 or 5 times a power of ten, from zero', () => {
    expect(niceScale(3, 97)).toEqual({ min: 0, max: 100, ticks: [0, 20, 40, 60, 80, 100] })
    expect(niceScale(1200, 4800).ticks).toEqual([0, 1000, 2000, 3000, 4000, 5000])
    expect(niceScale(-30, 70)).toEqual({ min: -40, max: 80, ticks: [-40, -20, 0, 20, 40, 60, 80] })
    expect(niceScale(0.02, 0.13).ticks).toEqual([0, 0.05, 0.1, 0.15])
    expect(niceScale(5, 5).ticks.at(-1)).toBeGreaterThanOrEqual(5)
    expect(niceScale(0, 0)).toEqual({ min: 0, max: 1, ticks: [0, 0.2, 0.4, 0.6, 0.8, 1] })
  })

  it('writes axis numbers compactly', () => {
    expect(formatChartNumber(1200)).toBe('1,200')
    expect(formatChartNumber(45_000)).toBe('45K')
    expect(formatChartNumber(1_118_828)).toBe('1.12M')
    expect(formatChartNumber(-2_500_000_000)).toBe('-2.5B')
    expect(formatChartNumber(0.125)).toBe('0.125')
    expect(formatChartNumber(0)).toBe('0')
  })
})

describe('bar, line and area layouts', () => {
  const data = {
    labels: ['Y1', 'Y2', 'Y3'],
    series: [
      { name: 'Revenue', values: [100, 150, null] },
      { name: 'Costs', values: [50, -50, 80] },
    ],
  }

  it('groups the bars of each category around its middle, up from zero or down below it', () => {
    const layout = cartesianLayout(data, 'bar', plot)
    expect(layout.scale.min).toBe(-50)
    expect(layout.scale.max).toBe(150)
    expect(layout.categories.map((c) => c.x)).toEqual([90, 190, 290])
    const [revenue, costs] = layout.series
    expect(revenue.bars).toHaveLength(2)
    expect(costs.bars).toHaveLength(3)
    // zero sits a quarter of the way up a -50..150 axis
    expect(layout.zeroY).toBe(10 + 150)
    expect(revenue.bars[0]).toMatchObject({ y: 10 + 200 - (150 / 200) * 200, height: 100, value: 100 })
    expect(costs.bars[1]).toMatchObject({ y: layout.zeroY, height: 50, value: -50 })
    expect(revenue.bars[0].x + revenue.bars[0].width).toBeLessThanOrEqual(costs.bars[0].x)
  })

  it('breaks a line where a value is missing and closes areas down to zero', () => {
    const layout = cartesianLayout({ labels: ['a', 'b', 'c', 'd'], series: [{ name: 's', values: [1, null, 3, 4] }] }, 'area', plot)
    const [series] = layout.series
    expect(series.line.match(/M/g)).toHaveLength(2)
    expect(series.area.match(/Z/g)).toHaveLength(2)
    expect(series.points.map((p) => p.value)).toEqual([1, 3, 4])
    expect(series.bars).toEqual([])
  })
})

describe('pie layout', () => {
  it('gives each positive value its share of the circle, starting at the top', () => {
    const slices = pieLayout({ labels: ['A', 'B', 'C', 'D'], series: [{ name: 's', values: [30, 10, -5, null] }] }, 100, 100, 50)
    expect(slices.map((s) => [s.label, s.share])).toEqual([
      ['A', 0.75],
      ['B', 0.25],
    ])
    expect(slices[0].path.startsWith('M100,100 L100,50 A50,50 0 1 1')).toBe(true)
    expect(slices[1].path.startsWith('M100,100 L50,100 A50,50 0 0 1 100,50')).toBe(true)
  })

  it('draws a lone value as a whole circle and nothing without positive values', () => {
    expect(pieLayout({ labels: ['A'], series: [{ name: 's', values: [7] }] }, 0, 0, 10)[0].share).toBe(1)
    expect(pieLayout({ labels: ['A'], series: [{ name: 's', values: [-7] }] }, 0, 0, 10)).toEqual([])
    expect(pieLayout({ labels: [], series: [] }, 0, 0, 10)).toEqual([])
  })
})

describe('chart analytics', () => {
  it('sums up each series and its growth from the first value to the last', () => {
    const [mrr, churn] = seriesStats({ labels: ['1', '2', '3'], series: [{ name: 'MRR', values: [100, 110, 121] }, { name: 'Churn', values: [null, 0, 5] }] })
    expect(mrr).toMatchObject({ name: 'MRR', count: 3, total: 331, min: 100, max: 121 })
    expect(mrr.mean).toBeCloseTo(110.333, 3)
    expect(mrr.change).toBeCloseTo(0.21, 10)
    expect(mrr.growthPerStep).toBeCloseTo(0.1, 10)
    expect(churn).toMatchObject({ count: 2, change: null, growthPerStep: null })
  })

  it('takes the least and greatest of a series too long to spread into a call', () => {
    const values = Array.from({ length: 500_000 }, (_, i) => (i === 123_456 ? -7 : i % 1000))
    const [long] = seriesStats({ labels: values.map(String), series: [{ name: 'Long', values }] })
    expect(long).toMatchObject({ min: -7, max: 999 })
    expect(cartesianLayout({ labels: values.map(String), series: [{ name: 'Long', values }] }, 'line', plot).scale.min).toBeLessThan(0)
  })

  it('puts the series of a wide range in its rows', () => {
    expect(seriesInColumnsFor({ width: 6, height: 4 })).toBe(false)
    expect(seriesInColumnsFor({ width: 2, height: 12 })).toBe(true)
  })
})
