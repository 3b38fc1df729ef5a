import type { CSSProperties } from 'react'
import { createPortal } from 'react-dom'
import { DEFAULT_FONT_FAMILY, DEFAULT_FONT_SIZE } from '../grid/types'
import { placePage } from './page-cells'
import type { PrintJob } from './print-job'
import { MARGINS, POINTS_PER_PIXEL } from './print-layout'
import './print.css'

const BORDER_CSS: Record<string, string> = { thin: '1px solid', hair: '0.5px solid', medium: '2px solid', thick: '3px solid', double: '3px double', dashed: '1px dashed', dotted: '1px dotted' }

function borderOf(edge: { line: string; color?: string } | undefined): string | undefined {
  if (!edge) return undefined
  return `${BORDER_CSS[edge.line] ?? (edge.line.startsWith('medium') ? '2px dashed' : '1px dashed')} ${edge.color ?? '#000'}`
}

/**
 * The pages of a print job as the browser prints them: one sheet of paper each, in points, with the
 * same cells, looks, merges and page breaks as Export PDF. Shown only when printing (and in the print
 * preview the browser opens).
 */
export function PrintView({ job }: { job: PrintJob }) {
  const first = job.pages[0]
  return createPortal(
    <div className="print-pages" data-testid="print-view">
      {first && <style>{`@page { size: ${first.width}pt ${first.height}pt; margin: 0; }`}</style>}
      {job.pages.map((page, index) => {
        const source = job.sources.get(page.sheet)
        if (!source) return null
        const placed = placePage(page, source)
        const unit = POINTS_PER_PIXEL * page.scale
        return (
          <section key={index} className="print-page" aria-label={`Page ${index + 1} of ${job.pages.length}: ${page.sheet}`} style={{ width: `${page.width}pt`, height: `${page.height}pt` }}>
            <div className="print-block" style={{ left: `${MARGINS.left}pt`, top: `${MARGINS.top}pt`, width: `${placed.width * unit}pt`, height: `${placed.height * unit}pt` }}>
              {placed.headings.map((heading, i) => (
                <div key={`h${i}`} className="print-heading" style={{ left: `${heading.x * unit}pt`, top: `${heading.y * unit}pt`, width: `${heading.width * unit}pt`, height: `${heading.height * unit}pt`, fontSize: `${10 * unit}pt` }}>
                  {heading.text}
                </div>
              ))}
              {placed.cells.map((placedCell) => {
                const style = placedCell.cell?.style
                const css: CSSProperties = {
                  left: `${placedCell.x * unit}pt`,
                  top: `${placedCell.y * unit}pt`,
                  width: `${placedCell.width * unit}pt`,
                  height: `${placedCell.height * unit}pt`,
                  fontSize: `${(style?.fontSize ?? DEFAULT_FONT_SIZE) * unit}pt`,
                  fontFamily: `${style?.fontFamily ?? DEFAULT_FONT_FAMILY}, Arial, sans-serif`,
                  fontWeight: style?.bold ? 700 : undefined,
                  fontStyle: style?.italic ? 'italic' : undefined,
                  textDecoration: [style?.underline ? 'underline' : '', style?.strike ? 'line-through' : ''].join(' ').trim() || undefined,
                  color: style?.color ?? (placedCell.cell?.error ? '#b00000' : undefined),
                  background: style?.fill,
                  textAlign: style?.align ?? placedCell.cell?.align,
                  alignItems: style?.verticalAlign === 'top' ? 'flex-start' : style?.verticalAlign === 'middle' ? 'center' : 'flex-end',
                  whiteSpace: style?.wrap ? 'normal' : 'nowrap',
                  borderTop: borderOf(style?.borders?.top),
                  borderRight: borderOf(style?.borders?.right),
                  borderBottom: borderOf(style?.borders?.bottom),
                  borderLeft: borderOf(style?.borders?.left),
                }
                return (
                  <div key={`${placedCell.row}:${placedCell.col}`} className={`print-cell${page.gridlines ? ' gridlines' : ''}`} style={css}>
                    <span>{placedCell.cell?.text ?? ''}</span>
                  </div>
                )
              })}
            </div>
          </section>
        )
      })}
    </div>,
    document.body,
  )
}
