/**
 * move_cells: a range cut and pasted elsewhere, through the grid's own move command, so that it is
 * one command and one undo: formulas anywhere that read the moved cells are re-pointed to where they
 * went, formulas inside the range keep reading what they read, and the range is left empty. Cells of
 * the destination outside the range that hold something are only replaced with overwrite: true.
 */
import { formatAddress, formatRange, MAX_COL, MAX_ROW } from '@finsheet/workbook'
import { resolveCell, resolveRange } from '../targets.js'
import { ToolError } from '../tool-error.js'
import { count, defineTool, echo } from '../tool-kit.js'
import { isOccupied, newErrors, readBack, refuseOverwrites } from './write-cells.js'

/** Moved cells read back in a result (the first few). */
const READ_BACK = 6

export const moveCells = defineTool({
  name: 'move_cells',
  writes: true,
  attempt: (args) => `Moving ${echo(args.range)} on ${args.sheet} to ${echo(args.to)}`,
  run(args, context) {
    const { state, session } = context
    const source = resolveRange(context, args.sheet, args.range)
    const to = resolveCell(context, source.sheet.name, args.to)
    const height = source.range.bottom - source.range.top
    const width = source.range.right - source.range.left
    const destination = { top: to.row, left: to.col, bottom: to.row + height, right: to.col + width }
    if (destination.bottom > MAX_ROW || destination.right > MAX_COL) throw new ToolError(`${source.ref} moved to ${to.ref} would run off the sheet.`)
    const sameSheet = to.sheet.id === source.sheet.id
    if (sameSheet && destination.top === source.range.top && destination.left === source.range.left) throw new ToolError(`${source.ref} is already at ${to.ref}: there is nothing to move.`)
    const inSource = (row: number, col: number) => sameSheet && row >= source.range.top && row <= source.range.bottom && col >= source.range.left && col <= source.range.right
    const landing: { sheet: typeof to.sheet; row: number; col: number; address: string; ref: string; range: typeof destination }[] = []
    let moving = 0
    for (let r = 0; r <= height; r++) {
      for (let c = 0; c <= width; c++) {
        if (isOccupied(state, source.sheet, source.range.top + r, source.range.left + c)) moving++
        const row = destination.top + r
        const col = destination.left + c
        const address = formatAddress(row, col)
        landing.push({ sheet: to.sheet, row, col, address, ref: `${to.sheet.name}!${address}`, range: { top: row, left: col, bottom: row, right: col } })
      }
    }
    if (moving === 0) throw new ToolError(`${source.ref} is empty: there is nothing to move.`)
    refuseOverwrites(
      context,
      landing.filter((cell) => !inSource(cell.row, cell.col)),
      args.overwrite,
      'Call move_cells again',
    )
    const result = session.write([
      { type: 'move-cells', sheet: source.sheet.name, range: formatRange(source.range), target: formatAddress(destination.top, destination.left), ...(sameSheet ? {} : { targetSheet: to.sheet.name }) },
    ])
    const errors = newErrors(state, result)
    const moved = `${source.ref} to ${to.sheet.name}!${formatRange(destination)}`
    // The review lists the move beside the cells it changed: a cut and paste reads better as one step.
    context.record.structural.push({ action: 'move_cells', sheet: source.sheet.name, at: formatAddress(destination.top, destination.left), description: `Move ${moved}` })
    return {
      summary: `Moving ${moved} (${count(moving, 'cell')})`,
      content: {
        moved,
        cells: moving,
        ...(source.via ? { via: source.via } : {}),
        sample: readBack(state, landing.filter((cell) => isOccupied(state, cell.sheet, cell.row, cell.col)).slice(0, READ_BACK)),
        newErrors: errors.list,
        ...(errors.count > errors.list.length ? { moreErrors: errors.count - errors.list.length } : {}),
        ...(errors.count > 0 ? { check: 'Some cells show errors after this move; fix them or explain them before finishing.' } : {}),
      },
    }
  },
})
