/**
 * format_range: a style patch and/or a number format over a range, as the toolbar applies them
 * (fields set win, null removes one, fields left out stay).
 */
import { MAX_FORMATTED_CELLS, type StylePatch } from '@finsheet/contracts'
import { formatRange, rangeSize } from '@finsheet/workbook'
import { resolveRange } from '../targets.js'
import { ToolError } from '../tool-error.js'
import { count, defineTool, echo } from '../tool-kit.js'

/** "bold, fill #FFF2CC, number format 0.0%". */
function describeFormat(style: StylePatch | undefined, numberFormat: string | undefined): string {
  const parts: string[] = []
  for (const [field, value] of Object.entries(style ?? {})) {
    if (value === undefined) continue
    if (value === null || value === false) parts.push(`no ${field}`)
    else if (value === true) parts.push(field)
    else parts.push(`${field} ${value}`)
  }
  if (numberFormat !== undefined) parts.push(`number format ${numberFormat}`)
  return parts.join(', ')
}

export const formatRangeTool = defineTool({
  name: 'format_range',
  writes: true,
  attempt: (args) => `Formatting ${echo(args.range)} on ${args.sheet}`,
  run(args, context) {
    const style = args.style && Object.keys(args.style).length > 0 ? args.style : undefined
    if (style === undefined && args.numberFormat === undefined) throw new ToolError('Give a style, a numberFormat, or both.')
    const target = resolveRange(context, args.sheet, args.range)
    const size = rangeSize(target.range)
    if (size > MAX_FORMATTED_CELLS) throw new ToolError(`${target.ref} has ${count(size, 'cell')}; a format can cover at most ${MAX_FORMATTED_CELLS.toLocaleString('en-US')} at once.`)
    const numberFormat = args.numberFormat === undefined ? undefined : args.numberFormat.trim() === '' || args.numberFormat.trim().toLowerCase() === 'general' ? null : args.numberFormat
    const range = formatRange(target.range)
    context.session.write([
      {
        type: 'format-cells',
        sheet: target.sheet.name,
        ranges: [range],
        ...(style ? { style } : {}),
        ...(numberFormat !== undefined ? { format: numberFormat } : {}),
      },
    ])
    context.record.formats.push({
      sheet: target.sheet.name,
      range,
      ...(style ? { style } : {}),
      ...(args.numberFormat !== undefined ? { numberFormat: args.numberFormat } : {}),
    })
    const what = describeFormat(style, args.numberFormat)
    return {
      summary: `Formatting ${target.ref} (${what})`,
      content: { formatted: target.ref, ...(target.via ? { via: target.via } : {}), cells: size, applied: what },
    }
  },
})
