/**
 * read_range: cells of a range, row by row with each row's label, in pages. A page holds at most the
 * read budget of non-empty cells and stays under the result size limit; nextOffset says where the next
 * page starts (positions counted row by row across the range). Empty cells are left out.
 */
import { AGENT_READ_CELL_BUDGET, AGENT_RESULT_MAX_BYTES } from '@finsheet/contracts'
import { formatAddress, formatRange, rangeSize } from '@finsheet/workbook'
import { rowLabelAt } from '../cell-labels.js'
import { resolveRange } from '../targets.js'
import { count, defineTool, echo, formatOf, meaningfulDisplay, modelValue, TextFlags } from '../tool-kit.js'

/** A page's content stays under this, leaving room for the rest of the result. */
const PAGE_BYTES = AGENT_RESULT_MAX_BYTES - 4_000
/** Positions one page looks at when the range is mostly empty. */
const MAX_POSITIONS_PER_PAGE = 250_000

export const readRange = defineTool({
  name: 'read_range',
  writes: false,
  attempt: (args) => `Reading ${echo(args.range)} on ${args.sheet}`,
  run(args, context) {
    const { state } = context
    const target = resolveRange(context, args.sheet, args.range)
    const { sheet, range } = target
    const include = args.include ?? 'both'
    const limit = Math.min(args.limit ?? AGENT_READ_CELL_BUDGET, AGENT_READ_CELL_BUDGET)
    const width = range.right - range.left + 1
    const area = rangeSize(range)
    const offset = Math.min(args.offset ?? 0, area)
    const flags = new TextFlags()
    const rows: { row: number; label?: string; cells: Record<string, unknown> }[] = []
    let current: (typeof rows)[number] | undefined
    let returned = 0
    let bytes = 0
    let position = offset
    const end = Math.min(area, offset + MAX_POSITIONS_PER_PAGE)
    const engine = state.engine
    for (; position < end; position++) {
      const row = range.top + Math.floor(position / width)
      const col = range.left + (position % width)
      const value = engine.getValueAt(sheet.name, row, col)
      const shape = engine.getFormulaShapeAt(sheet.name, row, col)
      if (value === null && shape === undefined) continue
      if (returned >= limit || bytes >= PAGE_BYTES) break
      const address = formatAddress(row, col)
      const input = engine.getInputAt(sheet.name, row, col)
      const isFormula = input.startsWith('=')
      const json = modelValue(value)
      const display = meaningfulDisplay(value, formatOf(state, sheet, row, col, address))
      let cell: unknown
      if (include === 'formulas') cell = input === '' ? json : input
      else if (include === 'both' && isFormula) cell = { value: json, formula: input, ...(display !== undefined ? { shown: display } : {}) }
      else cell = display !== undefined ? { value: json, shown: display } : json
      if (typeof value === 'string') flags.check(`${sheet.name}!${address}`, value)
      if (!current || current.row !== row + 1) {
        const label = rowLabelAt(state, sheet, row)
        current = { row: row + 1, ...(label !== undefined ? { label } : {}), cells: {} }
        rows.push(current)
        bytes += 24 + (label?.length ?? 0)
      }
      current.cells[address] = cell
      bytes += address.length + 4 + JSON.stringify(cell).length
      returned++
    }
    const nextOffset = position < area ? position : null
    const summaryRange = `${target.ref}`
    return {
      summary: `Reading ${summaryRange}${nextOffset !== null ? ` (${count(returned, 'cell')}, more to read)` : ''}`,
      content: {
        resolved: target.ref,
        ...(target.via ? { via: target.via } : {}),
        range: formatRange(range),
        include,
        cellsInRange: area,
        offset,
        returned,
        nextOffset,
        ...(nextOffset !== null ? { more: `Not all of the range was read: call read_range again with offset ${nextOffset}.` } : {}),
        rows,
        ...flags.fields(),
      },
    }
  },
})
