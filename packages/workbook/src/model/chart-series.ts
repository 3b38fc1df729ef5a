/**
 * What combo and waterfall charts draw from their data, the same in the browser and in an export.
 *
 * A waterfall (the bridge of a valuation, from enterprise value to equity value) draws its first
 * series: the first and last points and every point marked as a total stand on zero and show the
 * running total they state; each point between floats from the running total to the running total
 * plus its value, an increase or a decrease.
 */
import type { ChartData, ChartSeriesKind } from '@finsheet/contracts'

export interface WaterfallBar {
  label: string
  /** The cell's value (0 for an empty step); for a total, the total it shows. */
  value: number
  kind: 'total' | 'increase' | 'decrease'
  /** Where the bar starts and ends on the value axis: a total from zero, a step from the running total before it. */
  start: number
  end: number
}

/** Labels that mark a point as a total, compared without case or surrounding spaces. */
const TOTAL_LABELS = new Set(['total', 'subtotal', 'sub-total'])

/** Whether point `index` of `count` is a total: the first, the last, one labelled Total, or one flagged. */
export function isWaterfallTotal(label: string, index: number, count: number, flagged: readonly number[] = []): boolean {
  return index === 0 || index === count - 1 || TOTAL_LABELS.has(label.trim().toLowerCase()) || flagged.includes(index)
}

/**
 * The bars of a waterfall of the first series. A total whose cell is empty shows the running total;
 * an empty step adds nothing.
 */
export function waterfallBars(data: ChartData, totals: readonly number[] = []): WaterfallBar[] {
  const values = data.series[0]?.values ?? []
  const count = Math.max(values.length, data.labels.length)
  const bars: WaterfallBar[] = []
  let running = 0
  for (let index = 0; index < count; index++) {
    const label = data.labels[index] ?? String(index + 1)
    const raw = values[index]
    const value = raw === null || raw === undefined || !Number.isFinite(raw) ? null : raw
    if (isWaterfallTotal(label, index, count, totals)) {
      const total = value ?? running
      bars.push({ label, value: total, kind: 'total', start: 0, end: total })
      running = total
      continue
    }
    const step = value ?? 0
    bars.push({ label, value: step, kind: step < 0 ? 'decrease' : 'increase', start: running, end: running + step })
    running += step
  }
  return bars
}

/** How a combo chart draws series `index`: as its kind says, else the first series as bars and the rest as lines. */
export function comboSeriesKind(kinds: readonly ChartSeriesKind[] | undefined, index: number): ChartSeriesKind {
  return kinds?.[index] ?? (index === 0 ? 'bar' : 'line')
}
