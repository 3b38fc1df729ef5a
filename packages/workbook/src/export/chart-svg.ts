/**
 * A chart as one SVG document, drawn from the same layouts the app draws with: what an xlsx export
 * turns into the picture it places where the chart sits (exceljs cannot write chart parts).
 */
import type { ChartData, ChartSeriesKind, ChartType } from '@finsheet/contracts'
import { cartesianLayout, comboLayout, formatChartNumber, pieLayout, seriesColor, WATERFALL_COLORS, waterfallLayout, type PlotArea } from '../model/chart-geometry.js'

export interface ChartLook {
  type: ChartType
  title: string
  seriesKinds?: readonly ChartSeriesKind[]
  totals?: readonly number[]
}

const FONT = 'DejaVu Sans, Liberation Sans, Arial, sans-serif'
const TITLE_HEIGHT = 26
const LEGEND_HEIGHT = 22
const AXIS_COLOR = '#d6dae0'
const TEXT_COLOR = '#4b5563'

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const n = (value: number) => String(Math.round(value * 100) / 100)

function text(x: number, y: number, content: string, attributes = ''): string {
  return `<text x="${n(x)}" y="${n(y)}" ${attributes}>${escape(content)}</text>`
}

function axes(plot: PlotArea, ticks: { y: number; value: number }[], categories: { x: number; label: string }[], secondary?: { y: number; value: number }[]): string {
  const parts: string[] = []
  for (const tick of ticks) {
    parts.push(`<line x1="${n(plot.left)}" x2="${n(plot.left + plot.width)}" y1="${n(tick.y)}" y2="${n(tick.y)}" stroke="${tick.value === 0 ? '#9aa3ad' : AXIS_COLOR}" stroke-width="1"/>`)
    parts.push(text(plot.left - 6, tick.y + 4, formatChartNumber(tick.value), 'text-anchor="end"'))
  }
  for (const tick of secondary ?? []) parts.push(text(plot.left + plot.width + 6, tick.y + 4, formatChartNumber(tick.value), 'text-anchor="start"'))
  const every = Math.ceil(categories.length / 12)
  const longest = Math.max(4, Math.floor(plot.width / Math.max(1, categories.length) / 7.2))
  categories.forEach((category, index) => {
    if (index % every !== 0) return
    const label = category.label.length > longest ? `${category.label.slice(0, longest - 1)}…` : category.label
    parts.push(text(category.x, plot.top + plot.height + 16, label, 'text-anchor="middle"'))
  })
  return parts.join('')
}

function bar(x: number, y: number, width: number, height: number, color: string): string {
  return `<rect x="${n(x)}" y="${n(y)}" width="${n(width)}" height="${n(Math.max(height, 0.5))}" fill="${color}" rx="2"/>`
}

function line(path: string, points: { x: number; y: number }[], color: string): string {
  return `<path d="${path}" fill="none" stroke="${color}" stroke-width="2.2" stroke-linejoin="round"/>${points.map((p) => `<circle cx="${n(p.x)}" cy="${n(p.y)}" r="3" fill="${color}"/>`).join('')}`
}

function legend(items: { name: string; color: string }[], width: number, y: number): string {
  let x = 10
  const parts: string[] = []
  for (const item of items) {
    if (x > width - 40) break
    parts.push(`<rect x="${n(x)}" y="${n(y - 9)}" width="10" height="10" fill="${item.color}" rx="2"/>`)
    parts.push(text(x + 14, y, item.name))
    x += 14 + item.name.length * 6.5 + 14
  }
  return parts.join('')
}

/** The chart drawn at `width` by `height` pixels, with its title above and its legend below. */
export function chartSvg(look: ChartLook, data: ChartData, width: number, height: number): string {
  const w = Math.max(60, width)
  const h = Math.max(60, height)
  const plotHeight = h - TITLE_HEIGHT - LEGEND_HEIGHT
  const rightAxis = look.type === 'combo' && data.series.length > 1
  const plot: PlotArea = { left: 54, top: TITLE_HEIGHT + 8, width: Math.max(10, w - 54 - (rightAxis ? 54 : 12)), height: Math.max(10, plotHeight - 8 - 26) }
  const body: string[] = []
  let items = data.series.map((series, index) => ({ name: series.name, color: seriesColor(index) }))
  const hasNumbers = data.series.some((series) => series.values.some((value) => value !== null))
  if (!hasNumbers) {
    body.push(text(w / 2, TITLE_HEIGHT + plotHeight / 2, 'The range holds no numbers to draw.', 'text-anchor="middle"'))
    items = []
  } else if (look.type === 'pie') {
    const slices = pieLayout(data, w / 2, TITLE_HEIGHT + plotHeight / 2, Math.max(4, Math.min(w, plotHeight) / 2 - 12))
    for (const slice of slices) body.push(`<path d="${slice.path}" fill="${slice.color}" stroke="#fff" stroke-width="1.5"/>`)
    items = slices.map((slice) => ({ name: `${slice.label} (${Math.round(slice.share * 100)}%)`, color: slice.color }))
  } else if (look.type === 'waterfall') {
    const layout = waterfallLayout(data, look.totals, plot)
    body.push(axes(plot, layout.ticks, layout.categories))
    layout.bars.forEach((step, index) => {
      body.push(bar(step.x, step.y, step.width, step.height, step.color))
      const next = layout.bars[index + 1]
      if (next) body.push(`<line x1="${n(step.x + step.width)}" x2="${n(next.x)}" y1="${n(step.connectorY)}" y2="${n(step.connectorY)}" stroke="#9aa3ad" stroke-dasharray="3 2"/>`)
    })
    items = [
      { name: 'Increase', color: WATERFALL_COLORS.increase },
      { name: 'Decrease', color: WATERFALL_COLORS.decrease },
      { name: 'Total', color: WATERFALL_COLORS.total },
    ]
  } else if (look.type === 'combo') {
    const layout = comboLayout(data, look.seriesKinds, plot)
    body.push(axes(plot, layout.primary.ticks, layout.primary.categories, layout.secondary?.ticks))
    for (const series of layout.series) body.push(series.kind === 'bar' ? series.bars.map((b) => bar(b.x, b.y, b.width, b.height, series.color)).join('') : line(series.line, series.points, series.color))
  } else {
    const layout = cartesianLayout(data, look.type, plot)
    body.push(axes(plot, layout.ticks, layout.categories))
    for (const series of layout.series) {
      if (look.type === 'bar') body.push(series.bars.map((b) => bar(b.x, b.y, b.width, b.height, series.color)).join(''))
      else {
        if (look.type === 'area') body.push(`<path d="${series.area}" fill="${series.color}" fill-opacity="0.18"/>`)
        body.push(line(series.line, series.points, series.color))
      }
    }
  }
  const showLegend = items.length > 1 || look.type === 'pie'
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${n(w)}" height="${n(h)}" viewBox="0 0 ${n(w)} ${n(h)}" font-family="${FONT}" font-size="11" fill="${TEXT_COLOR}">`,
    `<rect x="0.5" y="0.5" width="${n(w - 1)}" height="${n(h - 1)}" fill="#ffffff" stroke="#c8ccd2"/>`,
    text(10, 18, look.title, 'font-size="13" font-weight="bold" fill="#1f2937"'),
    ...body,
    showLegend ? legend(items, w, h - 7) : '',
    '</svg>',
  ].join('')
}
