/** Where each part of a chart goes in its plot area: shared by the app's charts and the pictures an export draws. */
import type { ChartData, ChartSeriesKind, ChartType } from '@finsheet/contracts'
import { comboSeriesKind, waterfallBars, type WaterfallBar } from './chart-series.js'

/** Series colours, in order; they repeat past eight series. */
export const SERIES_COLORS = ['#1e7d5a', '#2f6fd6', '#e08a1e', '#8e44c9', '#d64545', '#1aa3a3', '#7a8b2b', '#c2508f'] as const

export function seriesColor(index: number): string {
  return SERIES_COLORS[index % SERIES_COLORS.length]
}

export interface Scale {
  min: number
  max: number
  ticks: number[]
}

/**
 * An axis from `min` to `max` on round numbers (1, 2, 2.5 or 5 times a power of ten) with about
 * `target` ticks. The axis always includes zero, so bars and areas start from it.
 */
export function niceScale(dataMin: number, dataMax: number, target = 5): Scale {
  let low = Math.min(0, dataMin)
  let high = Math.max(0, dataMax)
  if (!Number.isFinite(low) || !Number.isFinite(high)) return { min: 0, max: 1, ticks: [0, 1] }
  if (low === high) high = low + 1
  const rough = (high - low) / Math.max(1, target)
  const power = 10 ** Math.floor(Math.log10(rough))
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((candidate) => candidate >= rough) ?? 10 * power
  low = Math.floor(low / step) * step
  high = Math.ceil(high / step) * step
  const ticks: number[] = []
  for (let tick = low; tick <= high + step / 2; tick += step) ticks.push(Number(tick.toPrecision(12)))
  return { min: low, max: high, ticks }
}

/** Axis and tooltip numbers: grouped thousands, K/M/B past ten thousand. */
export function formatChartNumber(value: number): string {
  const size = Math.abs(value)
  const compact = (divisor: number, suffix: string) => `${Number((value / divisor).toPrecision(3))}${suffix}`
  if (size >= 1e9) return compact(1e9, 'B')
  if (size >= 1e6) return compact(1e6, 'M')
  if (size >= 1e4) return compact(1e3, 'K')
  if (size !== 0 && size < 0.01) return value.toExponential(1)
  return Number(value.toPrecision(4)).toLocaleString('en-US')
}

export interface PlotArea {
  left: number
  top: number
  width: number
  height: number
}

export interface Bar {
  x: number
  y: number
  width: number
  height: number
  value: number
  label: string
}

export interface CartesianSeries {
  name: string
  color: string
  bars: Bar[]
  /** the line through the points, with gaps where a value is missing */
  line: string
  /** the line closed down to zero, for area charts */
  area: string
  points: { x: number; y: number; value: number; label: string }[]
}

export interface CartesianLayout {
  scale: Scale
  /** y of each tick */
  ticks: { y: number; value: number }[]
  /** x of each category's middle */
  categories: { x: number; label: string }[]
  zeroY: number
  series: CartesianSeries[]
}

function numericValues(data: ChartData): number[] {
  return data.series.flatMap((series) => series.values.filter((value): value is number => value !== null && Number.isFinite(value)))
}

/** Bars grouped by category, or lines and areas through the categories, in the plot area. */
export function cartesianLayout(data: ChartData, type: Exclude<ChartType, 'pie'>, plot: PlotArea): CartesianLayout {
  const values = numericValues(data)
  const scale = niceScale(values.length ? smallest(values) : 0, values.length ? largest(values) : 1)
  const y = (value: number) => plot.top + plot.height - ((value - scale.min) / (scale.max - scale.min)) * plot.height
  const count = Math.max(1, data.labels.length)
  const band = plot.width / count
  const zeroY = y(0)
  const groupWidth = band * 0.72
  const barWidth = groupWidth / Math.max(1, data.series.length)
  const categories = data.labels.map((label, index) => ({ x: plot.left + band * (index + 0.5), label }))

  const series = data.series.map((s, seriesIndex): CartesianSeries => {
    const points: CartesianSeries['points'] = []
    const bars: Bar[] = []
    const runs: { x: number; y: number }[][] = [[]]
    s.values.forEach((value, index) => {
      if (value === null || !Number.isFinite(value)) {
        if (runs[runs.length - 1].length > 0) runs.push([])
        return
      }
      const label = data.labels[index] ?? String(index + 1)
      const cx = plot.left + band * (index + 0.5)
      points.push({ x: cx, y: y(value), value, label })
      runs[runs.length - 1].push({ x: cx, y: y(value) })
      if (type === 'bar') {
        const x = plot.left + band * index + (band - groupWidth) / 2 + barWidth * seriesIndex
        const top = Math.min(y(value), zeroY)
        bars.push({ x, y: top, width: Math.max(1, barWidth - 2), height: Math.abs(y(value) - zeroY), value, label })
      }
    })
    const drawn = runs.filter((run) => run.length > 0)
    const line = drawn.map((run) => run.map((p, i) => `${i === 0 ? 'M' : 'L'}${round(p.x)},${round(p.y)}`).join(' ')).join(' ')
    const area = drawn
      .map((run) => `M${round(run[0].x)},${round(zeroY)} ${run.map((p) => `L${round(p.x)},${round(p.y)}`).join(' ')} L${round(run[run.length - 1].x)},${round(zeroY)} Z`)
      .join(' ')
    return { name: s.name, color: seriesColor(seriesIndex), bars, line, area, points }
  })

  return { scale, ticks: scale.ticks.map((value) => ({ y: y(value), value })), categories, zeroY, series }
}

export interface PieSlice {
  label: string
  value: number
  share: number
  color: string
  path: string
  /** where the slice's label sits */
  labelX: number
  labelY: number
}

/**
 * Slices of the first series: each positive value's share of their total. Negative, missing and
 * zero values cannot be slices and are left out.
 */
export function pieLayout(data: ChartData, cx: number, cy: number, radius: number): PieSlice[] {
  const values = data.series[0]?.values ?? []
  const entries = values.map((value, index) => ({ label: data.labels[index] ?? String(index + 1), value })).filter((e): e is { label: string; value: number } => e.value !== null && e.value > 0)
  const total = entries.reduce((sum, e) => sum + e.value, 0)
  if (total <= 0) return []
  let angle = -Math.PI / 2
  return entries.map((entry, index) => {
    const share = entry.value / total
    const start = angle
    const end = angle + share * 2 * Math.PI
    angle = end
    const middle = (start + end) / 2
    const point = (a: number, r: number) => `${round(cx + r * Math.cos(a))},${round(cy + r * Math.sin(a))}`
    const path =
      entries.length === 1
        ? `M${round(cx - radius)},${round(cy)} A${radius},${radius} 0 1 1 ${round(cx + radius)},${round(cy)} A${radius},${radius} 0 1 1 ${round(cx - radius)},${round(cy)} Z`
        : `M${round(cx)},${round(cy)} L${point(start, radius)} A${radius},${radius} 0 ${end - start > Math.PI ? 1 : 0} 1 ${point(end, radius)} Z`
    return {
      label: entry.label,
      value: entry.value,
      share,
      color: seriesColor(index),
      path,
      // a whole circle carries its label in the middle
      labelX: entries.length === 1 ? cx : cx + radius * 0.68 * Math.cos(middle),
      labelY: entries.length === 1 ? cy : cy + radius * 0.68 * Math.sin(middle),
    }
  })
}

function round(value: number): number {
  return Math.round(value * 100) / 100
}

// ---- analytics ----------------------------------------------------------------------------------

export interface SeriesStats {
  name: string
  count: number
  total: number
  mean: number
  min: number
  max: number
  /** last value against the first, as a fraction; null without two values or from zero */
  change: number | null
  /** compound growth per step from the first value to the last; null unless both are positive */
  growthPerStep: number | null
}

/** Figures of each series of a chart: count, total, mean, range, change and compound growth. */
export function seriesStats(data: ChartData): SeriesStats[] {
  return data.series.map((series) => {
    const indexed = series.values.map((value, index) => ({ value, index })).filter((e): e is { value: number; index: number } => e.value !== null && Number.isFinite(e.value))
    const values = indexed.map((e) => e.value)
    const total = values.reduce((sum, value) => sum + value, 0)
    const first = indexed[0]
    const last = indexed[indexed.length - 1]
    const steps = first && last ? last.index - first.index : 0
    return {
      name: series.name,
      count: values.length,
      total,
      mean: values.length ? total / values.length : 0,
      min: values.length ? smallest(values) : 0,
      max: values.length ? largest(values) : 0,
      change: first && last && steps > 0 && first.value !== 0 ? (last.value - first.value) / Math.abs(first.value) : null,
      growthPerStep: first && last && steps > 0 && first.value > 0 && last.value > 0 ? (last.value / first.value) ** (1 / steps) - 1 : null,
    }
  })
}

/** Financial models run periods across columns: a wide range has its series in rows. */
export function seriesInColumnsFor(range: { width: number; height: number }): boolean {
  return range.height >= range.width
}

/** The least and greatest of many values, without spreading them into a call (a long series would not fit on the stack). */
function smallest(values: readonly number[]): number {
  return values.reduce((least, value) => (value < least ? value : least), Infinity)
}

function largest(values: readonly number[]): number {
  return values.reduce((most, value) => (value > most ? value : most), -Infinity)
}

// ---- waterfall and combo ------------------------------------------------------------------------

/** Waterfall colours: totals, increases and decreases. */
export const WATERFALL_COLORS = { total: '#2f6fd6', increase: '#1e7d5a', decrease: '#d64545' } as const

export interface WaterfallLayoutBar extends Bar {
  kind: WaterfallBar['kind']
  color: string
  /** where the connector to the next bar leaves, at the running total after this bar */
  connectorY: number
}

export interface WaterfallLayout {
  scale: Scale
  ticks: { y: number; value: number }[]
  categories: { x: number; label: string }[]
  zeroY: number
  bars: WaterfallLayoutBar[]
}

/**
 * A waterfall in the plot area: each bar spans its start and end on the value axis, as stacked bars
 * with an invisible base would draw it; a thin connector joins each bar's end to the next bar.
 */
export function waterfallLayout(data: ChartData, totals: readonly number[] | undefined, plot: PlotArea): WaterfallLayout {
  const steps = waterfallBars(data, totals)
  const ends = steps.flatMap((bar) => [bar.start, bar.end])
  const scale = niceScale(ends.length ? smallest(ends) : 0, ends.length ? largest(ends) : 1)
  const y = (value: number) => plot.top + plot.height - ((value - scale.min) / (scale.max - scale.min)) * plot.height
  const band = plot.width / Math.max(1, steps.length)
  const width = Math.max(1, band * 0.64)
  const bars = steps.map((step, index): WaterfallLayoutBar => {
    const top = Math.min(y(step.start), y(step.end))
    return {
      x: plot.left + band * index + (band - width) / 2,
      y: top,
      width,
      height: Math.abs(y(step.end) - y(step.start)),
      value: step.value,
      label: step.label,
      kind: step.kind,
      color: WATERFALL_COLORS[step.kind],
      connectorY: y(step.end),
    }
  })
  return {
    scale,
    ticks: scale.ticks.map((value) => ({ y: y(value), value })),
    categories: steps.map((step, index) => ({ x: plot.left + band * (index + 0.5), label: step.label })),
    zeroY: y(0),
    bars,
  }
}

export interface ComboLayout {
  /** the left axis, read by the bars */
  primary: CartesianLayout
  /** the right axis, read by the lines; null when every series is a bar */
  secondary: { scale: Scale; ticks: { y: number; value: number }[] } | null
  /** each series as drawn, in order, with its kind */
  series: (CartesianSeries & { kind: ChartSeriesKind })[]
}

/** Bars on the left axis and lines on a secondary axis on the right, each series as its kind says. */
export function comboLayout(data: ChartData, kinds: readonly ChartSeriesKind[] | undefined, plot: PlotArea): ComboLayout {
  const kindOf = data.series.map((_, index) => comboSeriesKind(kinds, index))
  const pick = (kind: ChartSeriesKind): ChartData => ({ labels: data.labels, series: data.series.filter((_, index) => kindOf[index] === kind) })
  const barData = pick('bar')
  const lineData = pick('line')
  const primary = cartesianLayout(barData.series.length > 0 ? barData : lineData, barData.series.length > 0 ? 'bar' : 'line', plot)
  const lines = lineData.series.length > 0 ? cartesianLayout(lineData, 'line', plot) : null
  const secondary = lines && barData.series.length > 0 ? { scale: lines.scale, ticks: lines.ticks } : null
  let bar = 0
  let line = 0
  const series = data.series.map((_, index) => {
    const kind = kindOf[index]
    const drawn = kind === 'bar' ? primary.series[bar++] : (lines ?? primary).series[line++]
    return { ...drawn, color: seriesColor(index), kind }
  })
  return { primary, secondary, series }
}

/**
 * What a chart shows, in words, for screen readers and tests: its type and title, then each series
 * with its values (a waterfall's bars with their kind and running total).
 */
export function describeChart(type: ChartType, title: string, data: ChartData, totals?: readonly number[]): string {
  const name = `${type[0].toUpperCase()}${type.slice(1)} chart${title ? ` ${title}` : ''}`
  if (type === 'waterfall') {
    const bars = waterfallBars(data, totals)
    return `${name}: ${bars.map((bar) => (bar.kind === 'total' ? `${bar.label} ${formatChartNumber(bar.value)} (total)` : `${bar.label} ${bar.value < 0 ? '' : '+'}${formatChartNumber(bar.value)}`)).join('; ')}`
  }
  const series = data.series.map((s) => `${s.name}: ${s.values.map((value, index) => `${data.labels[index] ?? index + 1} ${value === null ? 'blank' : formatChartNumber(value)}`).join(', ')}`)
  return `${name}. ${series.join('. ')}`
}
