/** Plans for the look of cells (format_range) and for charts (create_chart). */
import type { StylePatch } from '@finsheet/contracts'
import type { RangeAddress } from '@finsheet/workbook'
import type { FormatSpec, PlannerCommand } from '../command-language.js'
import { readAs } from '../answers.js'
import { stop, useTool, type PlanAnswer, type PlanContext, type Step } from '../plan-kit.js'
import { rangeText, resolveTarget } from '../targets.js'
import { lookOver } from '../tool-steps.js'
import { refText } from '../workbook-view.js'

type Command<T extends PlannerCommand['type']> = Extract<PlannerCommand, { type: T }>

const zeros = (decimals: number) => (decimals > 0 ? `.${'0'.repeat(decimals)}` : '')

/** The Excel number format code or style a format names, and how the answer says it. */
export function formatOf(spec: FormatSpec): { numberFormat?: string; style?: StylePatch; words: string } {
  const decimals = (fallback: number) => Math.min(Math.max(('decimals' in spec ? spec.decimals : undefined) ?? fallback, 0), 10)
  const places = (n: number) => `${n} decimal${n === 1 ? '' : 's'}`
  switch (spec.kind) {
    case 'currency': {
      const n = decimals(2)
      return { numberFormat: `${spec.symbol}#,##0${zeros(n)}`, words: `currency (${spec.symbol}, ${places(n)})` }
    }
    case 'percent': {
      const n = decimals(1)
      return { numberFormat: `0${zeros(n)}%`, words: `a percentage with ${places(n)}` }
    }
    case 'number': {
      const n = decimals(0)
      return { numberFormat: `#,##0${zeros(n)}`, words: `a number with thousands separators and ${places(n)}` }
    }
    case 'multiple': {
      const n = decimals(1)
      return { numberFormat: `0${zeros(n)}"x"`, words: `a multiple (8.5x) with ${places(n)}` }
    }
    case 'date':
      return { numberFormat: 'yyyy-mm-dd', words: 'a date (yyyy-mm-dd)' }
    case 'general':
      return { numberFormat: 'General', words: 'General (no number format)' }
    case 'decimals':
      return { numberFormat: `#,##0${zeros(Math.min(spec.decimals, 10))}`, words: places(spec.decimals) }
    case 'style':
      return { style: spec.style, words: spec.words }
    case 'code':
      return { numberFormat: spec.code, words: `the number format ${spec.code}` }
    case 'outline':
      return { words: 'outlined (a thin line around the outside)' }
  }
}

/** The four sides of a range, each with the edge it takes, for a line around the outside. */
function outlineSides(range: RangeAddress): { range: RangeAddress; style: StylePatch }[] {
  const thin = { line: 'thin' as const }
  return [
    { range: { ...range, bottom: range.top }, style: { borders: { top: thin } } },
    { range: { ...range, top: range.bottom }, style: { borders: { bottom: thin } } },
    { range: { ...range, right: range.left }, style: { borders: { left: thin } } },
    { range: { ...range, left: range.right }, style: { borders: { right: thin } } },
  ]
}

export function* planFormat(command: Command<'format'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const found = yield* resolveTarget(view, command.target, context)
  const format = formatOf(command.spec)
  const paraphrase = `format ${found.described} as ${format.words}`
  if (command.spec.kind === 'outline') {
    for (const side of outlineSides(found.range)) {
      const drawn = yield* useTool('format_range', { sheet: found.sheet.name, range: rangeText(side.range), style: side.style })
      if (!drawn.ok) stop(`${readAs(paraphrase)}\n\nThe format did not go through: ${drawn.error}`)
    }
    return { text: readAs(paraphrase, 'Done.') }
  }
  const result = yield* useTool('format_range', {
    sheet: found.sheet.name,
    range: rangeText(found.range),
    ...(format.style ? { style: format.style } : {}),
    ...(format.numberFormat ? { numberFormat: format.numberFormat } : {}),
  })
  if (!result.ok) stop(`${readAs(paraphrase)}\n\nThe format did not go through: ${result.error}`)
  return { text: readAs(paraphrase, `Done${format.numberFormat ? ` (number format ${format.numberFormat})` : ''}.`) }
}

export function* planChart(command: Command<'chart'>, context: PlanContext): Step<PlanAnswer> {
  if (typeof command.chartType === 'object') {
    const kind = command.chartType.unsupported
    return { text: readAs(`a ${kind} chart`, 'Charts here are bar, line, pie, area, combo (bars and lines) or waterfall (a bridge), so I changed nothing. Ask for one of those, for example “bar chart of A1:B12”.') }
  }
  const view = yield* lookOver()
  const found = yield* resolveTarget(view, command.source, context)
  let range = found.range
  // A labelled row is drawn against the header row right above it, when there is one.
  if (found.label && !found.label.column) {
    const header = found.sheet.headerRows.filter((row) => row.row < found.range.top).pop()
    if (header && header.row === found.range.top - 1) range = { ...range, top: header.row }
  }
  const title = command.title ?? (found.label ? found.label.label.text : undefined)
  const paraphrase = `add a ${command.chartType} chart of ${refText(found.sheet.name, range)}${found.label ? ` (${found.label.label.text})` : ''}${title ? ` titled “${title}”` : ''}`
  const result = yield* useTool('create_chart', { sheet: found.sheet.name, range: rangeText(range), type: command.chartType, ...(title ? { title } : {}) })
  if (!result.ok) stop(`${readAs(paraphrase)}\n\nThe chart was not added: ${result.error}`)
  const series = ((result.content?.preview?.series ?? []) as { name: string }[]).map((entry) => entry.name).filter(Boolean)
  return { text: readAs(paraphrase, `The chart is added when the changeset is applied${series.length > 0 ? `; it draws ${series.slice(0, 5).join(', ')}` : ''}.`) }
}
