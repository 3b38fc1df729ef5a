import type { ChartData, ChartType } from '@finsheet/contracts'
import { cartesianLayout, formatNumber, pieLayout, seriesColor } from './chart-geometry'

const WIDTH = 520
const HEIGHT = 280
const PLOT = { left: 54, top: 12, width: WIDTH - 54 - 12, height: HEIGHT - 12 - 34 }
const MAX_CATEGORY_LABELS = 12

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

function Cartesian({ data, type }: { data: ChartData; type: Exclude<ChartType, 'pie'> }) {
  const layout = cartesianLayout(data, type, PLOT)
  const every = Math.ceil(layout.categories.length / MAX_CATEGORY_LABELS)
  return (
    <>
      <g className="chart-axes">
        {layout.ticks.map((tick) => (
          <g key={tick.value}>
            <line x1={PLOT.left} x2={PLOT.left + PLOT.width} y1={tick.y} y2={tick.y} className={tick.value === 0 ? 'zero-line' : undefined} />
            <text x={PLOT.left - 8} y={tick.y} dy="0.32em" textAnchor="end">
              {formatNumber(tick.value)}
            </text>
          </g>
        ))}
        {layout.categories.map((category, index) =>
          index % every === 0 ? (
            <text key={index} x={category.x} y={PLOT.top + PLOT.height + 20} textAnchor="middle">
              {category.label.length > 14 ? `${category.label.slice(0, 13)}…` : category.label}
            </text>
          ) : null,
        )}
      </g>
      {layout.series.map((series) => (
        <g key={series.name} className="chart-series">
          {type === 'bar' &&
            series.bars.map((bar, index) => (
              <rect key={index} x={bar.x} y={bar.y} width={bar.width} height={Math.max(bar.height, 0.5)} fill={series.color} rx={2}>
                <title>{`${series.name}, ${bar.label}: ${formatNumber(bar.value)}`}</title>
              </rect>
            ))}
          {type === 'area' && <path d={series.area} fill={series.color} fillOpacity={0.18} stroke="none" />}
          {type !== 'bar' && <path d={series.line} fill="none" stroke={series.color} strokeWidth={2.2} strokeLinejoin="round" />}
          {type !== 'bar' &&
            series.points.map((point, index) => (
              <circle key={index} cx={point.x} cy={point.y} r={3} fill={series.color}>
                <title>{`${series.name}, ${point.label}: ${formatNumber(point.value)}`}</title>
              </circle>
            ))}
        </g>
      ))}
    </>
  )
}

/** A chart drawn from its data as SVG: bars, lines, areas or pie slices with an axis and a legend. */
export function ChartView({ type, data, title }: { type: ChartType; data: ChartData; title: string }) {
  const hasNumbers = data.series.some((series) => series.values.some((value) => value !== null))
  if (!hasNumbers) return <p className="chart-empty">The range holds no numbers to draw.</p>
  const slices = type === 'pie' ? pieLayout(data, WIDTH / 2, HEIGHT / 2, HEIGHT / 2 - 16) : []
  const legend =
    type === 'pie' ? slices.map((slice) => ({ name: `${slice.label} (${Math.round(slice.share * 100)}%)`, color: slice.color })) : data.series.map((series, index) => ({ name: series.name, color: seriesColor(index) }))
  return (
    <figure className="chart-figure">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${type} chart: ${title}`} className="chart-svg">
        {type === 'pie' ? (
          slices.length > 0 ? (
            slices.map((slice) => (
              <g key={slice.label}>
                <path d={slice.path} fill={slice.color} stroke="#fff" strokeWidth={1.5}>
                  <title>{`${slice.label}: ${formatNumber(slice.value)} (${(slice.share * 100).toFixed(1)}%)`}</title>
                </path>
                {slice.share >= 0.06 && (
                  <text x={slice.labelX} y={slice.labelY} dy="0.32em" textAnchor="middle" className="pie-label">
                    {Math.round(slice.share * 100)}%
                  </text>
                )}
              </g>
            ))
          ) : (
            <text x={WIDTH / 2} y={HEIGHT / 2} textAnchor="middle" className="chart-note">
              A pie needs positive values
            </text>
          )
        ) : (
          <Cartesian data={data} type={type} />
        )}
      </svg>
      {(legend.length > 1 || type === 'pie') && <Legend items={legend} />}
    </figure>
  )
}
