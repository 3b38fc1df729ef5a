import type { ChartData, ChartSeriesKind, ChartType } from '@finsheet/contracts'
import type { PlotArea } from '@finsheet/workbook/model'
import { cartesianLayout, comboLayout, describeChart, formatChartNumber, pieLayout, seriesColor, WATERFALL_COLORS, waterfallLayout } from '@finsheet/workbook/model'

const WIDTH = 520
const HEIGHT = 280
const MAX_CATEGORY_LABELS = 12

/** The plot area of a chart of a size: room for the value axis on the left (and right), labels below. */
function plotArea(width: number, height: number, rightAxis = false): PlotArea {
  return { left: 54, top: 12, width: Math.max(10, width - 54 - (rightAxis ? 54 : 12)), height: Math.max(10, height - 12 - 34) }
}

function Legend({ items }: { items: { name: string; color: string }[] }) {
  return (
    <ul className="chart-legend">
      {items.map((item) => (
        <li key={item.name}>
          <span className="legend-swatch" style={{ background: item.color }} aria-hidden="true" />
          {item.name}
        </li>
      ))}
    </ul>
  )
}

/** The value axis's grid lines and numbers, and the category labels under the plot. */
function Axes({ plot, ticks, categories, secondary }: { plot: PlotArea; ticks: { y: number; value: number }[]; categories: { x: number; label: string }[]; secondary?: { y: number; value: number }[] }) {
  const every = Math.ceil(categories.length / MAX_CATEGORY_LABELS)
  const longest = Math.max(4, Math.floor(plot.width / Math.max(1, categories.length) / 7.2))
  return (
    <g className="chart-axes">
      {ticks.map((tick) => (
        <g key={tick.value}>
          <line x1={plot.left} x2={plot.left + plot.width} y1={tick.y} y2={tick.y} className={tick.value === 0 ? 'zero-line' : undefined} />
          <text x={plot.left - 8} y={tick.y} dy="0.32em" textAnchor="end">
            {formatChartNumber(tick.value)}
          </text>
        </g>
      ))}
      {secondary?.map((tick) => (
        <text key={tick.value} x={plot.left + plot.width + 8} y={tick.y} dy="0.32em" textAnchor="start" className="secondary-axis">
          {formatChartNumber(tick.value)}
        </text>
      ))}
      {categories.map((category, index) =>
        index % every === 0 ? (
          <text key={index} x={category.x} y={plot.top + plot.height + 20} textAnchor="middle">
            {category.label.length > longest ? `${category.label.slice(0, longest - 1)}…` : category.label}
          </text>
        ) : null,
      )}
    </g>
  )
}

function Cartesian({ data, type, plot }: { data: ChartData; type: 'bar' | 'line' | 'area'; plot: PlotArea }) {
  const layout = cartesianLayout(data, type, plot)
  return (
    <>
      <Axes plot={plot} ticks={layout.ticks} categories={layout.categories} />
      {layout.series.map((series) => (
        <g key={series.name} className="chart-series">
          {type === 'bar' &&
            series.bars.map((bar, index) => (
              <rect key={index} x={bar.x} y={bar.y} width={bar.width} height={Math.max(bar.height, 0.5)} fill={series.color} rx={2}>
                <title>{`${series.name}, ${bar.label}: ${formatChartNumber(bar.value)}`}</title>
              </rect>
            ))}
          {type === 'area' && <path d={series.area} fill={series.color} fillOpacity={0.18} stroke="none" />}
          {type !== 'bar' && <Line series={series} />}
        </g>
      ))}
    </>
  )
}

function Line({ series }: { series: { name: string; color: string; line: string; points: { x: number; y: number; value: number; label: string }[] } }) {
  return (
    <>
      <path d={series.line} fill="none" stroke={series.color} strokeWidth={2.2} strokeLinejoin="round" />
      {series.points.map((point, index) => (
        <circle key={index} cx={point.x} cy={point.y} r={3} fill={series.color}>
          <title>{`${series.name}, ${point.label}: ${formatChartNumber(point.value)}`}</title>
        </circle>
      ))}
    </>
  )
}

/** Bars on the left axis, lines on the right one. */
function Combo({ data, kinds, plot }: { data: ChartData; kinds: readonly ChartSeriesKind[] | undefined; plot: PlotArea }) {
  const layout = comboLayout(data, kinds, plot)
  return (
    <>
      <Axes plot={plot} ticks={layout.primary.ticks} categories={layout.primary.categories} secondary={layout.secondary?.ticks} />
      {layout.series.map((series) => (
        <g key={series.name} className="chart-series">
          {series.kind === 'bar'
            ? series.bars.map((bar, index) => (
                <rect key={index} x={bar.x} y={bar.y} width={bar.width} height={Math.max(bar.height, 0.5)} fill={series.color} rx={2}>
                  <title>{`${series.name}, ${bar.label}: ${formatChartNumber(bar.value)}`}</title>
                </rect>
              ))
            : <Line series={series} />}
        </g>
      ))}
    </>
  )
}

/** Totals from zero, steps floating from the running total, joined by connectors. */
function Waterfall({ data, totals, plot }: { data: ChartData; totals: readonly number[] | undefined; plot: PlotArea }) {
  const layout = waterfallLayout(data, totals, plot)
  return (
    <>
      <Axes plot={plot} ticks={layout.ticks} categories={layout.categories} />
      <g className="chart-series">
        {layout.bars.map((bar, index) => (
          <g key={index}>
            <rect x={bar.x} y={bar.y} width={bar.width} height={Math.max(bar.height, 0.5)} fill={bar.color} rx={2} data-kind={bar.kind}>
              <title>{`${bar.label}: ${formatChartNumber(bar.value)}${bar.kind === 'total' ? ' (total)' : ''}`}</title>
            </rect>
            {index + 1 < layout.bars.length && (
              <line className="waterfall-connector" x1={bar.x + bar.width} x2={layout.bars[index + 1].x} y1={bar.connectorY} y2={bar.connectorY} />
            )}
          </g>
        ))}
      </g>
    </>
  )
}

export interface ChartViewProps {
  type: ChartType
  data: ChartData
  title: string
  /** combo: each series' kind */
  seriesKinds?: readonly ChartSeriesKind[]
  /** waterfall: points flagged as totals */
  totals?: readonly number[]
  /** the drawing's size; the chart scales to its box either way */
  width?: number
  height?: number
}

/** A chart drawn from its data as SVG: bars, lines, areas, pie slices, combos or a waterfall, with axes and a legend. */
export function ChartView({ type, data, title, seriesKinds, totals, width = WIDTH, height = HEIGHT }: ChartViewProps) {
  const hasNumbers = data.series.some((series) => series.values.some((value) => value !== null))
  if (!hasNumbers) return <p className="chart-empty">The range holds no numbers to draw.</p>
  const slices = type === 'pie' ? pieLayout(data, width / 2, height / 2, Math.max(4, Math.min(width, height) / 2 - 16)) : []
  const legend =
    type === 'pie'
      ? slices.map((slice) => ({ name: `${slice.label} (${Math.round(slice.share * 100)}%)`, color: slice.color }))
      : type === 'waterfall'
        ? [
            { name: 'Increase', color: WATERFALL_COLORS.increase },
            { name: 'Decrease', color: WATERFALL_COLORS.decrease },
            { name: 'Total', color: WATERFALL_COLORS.total },
          ]
        : data.series.map((series, index) => ({ name: series.name, color: seriesColor(index) }))
  const plot = plotArea(width, height, type === 'combo' && data.series.length > 1)
  return (
    <figure className="chart-figure">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${type} chart: ${title}`} aria-description={describeChart(type, title, data, totals)} className="chart-svg">
        {type === 'pie' ? (
          slices.length > 0 ? (
            slices.map((slice) => (
              <g key={slice.label}>
                <path d={slice.path} fill={slice.color} stroke="#fff" strokeWidth={1.5}>
                  <title>{`${slice.label}: ${formatChartNumber(slice.value)} (${(slice.share * 100).toFixed(1)}%)`}</title>
                </path>
                {slice.share >= 0.06 && (
                  <text x={slice.labelX} y={slice.labelY} dy="0.32em" textAnchor="middle" className="pie-label">
                    {Math.round(slice.share * 100)}%
                  </text>
                )}
              </g>
            ))
          ) : (
            <text x={width / 2} y={height / 2} textAnchor="middle" className="chart-note">
              A pie needs positive values
            </text>
          )
        ) : type === 'waterfall' ? (
          <Waterfall data={data} totals={totals} plot={plot} />
        ) : type === 'combo' ? (
          <Combo data={data} kinds={seriesKinds} plot={plot} />
        ) : (
          <Cartesian data={data} type={type} plot={plot} />
        )}
      </svg>
      {(legend.length > 1 || type === 'pie') && <Legend items={legend} />}
    </figure>
  )
}
