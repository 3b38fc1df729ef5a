/**
 * fill_formula: a formula (or a block of cells holding formulas) copied over a target range as
 * Excel's fill does: relative references shift with each cell, absolute ones stay, and the source
 * repeats when the target is larger. Source cells inside the target stay as they are; other target
 * cells that hold something are only replaced with overwrite: true.
 */
import { MAX_UPDATES_PER_CHANGE, type CellEdit } from '@finsheet/contracts'
import { translateFormula } from '@finsheet/formula'
import { formatAddress, formatRange, rangeSize } from '@finsheet/workbook'
import { resolveRange } from '../targets.js'
import { ToolError } from '../tool-error.js'
import { count, defineTool, echo } from '../tool-kit.js'
import { newErrors, readBack, recordNetworkRisks, refuseOverwrites } from './write-cells.js'

/** Filled cells read back in a result (the first and the last few). */
const READ_BACK = 6

const modulo = (n: number, m: number) => ((n % m) + m) % m

export const fillFormula = defineTool({
  name: 'fill_formula',
  writes: true,
  attempt: (args) => `Filling ${echo(args.source)} into ${echo(args.target)} on ${args.sheet}`,
  run(args, context) {
    const { state, session } = context
    const source = resolveRange(context, args.sheet, args.source)
    const target = resolveRange(context, args.sheet, args.target)
    if (target.sheet.id !== source.sheet.id) throw new ToolError(`Fill copies within one sheet: the source is on ${source.sheet.name} and the target on ${target.sheet.name}. Use write_cells for the other sheet.`)
    if (rangeSize(source.range) > 10_000) throw new ToolError(`The source ${source.ref} is too large to fill from; give the cell or row of formulas to copy.`)
    const size = rangeSize(target.range)
    if (size > MAX_UPDATES_PER_CHANGE) throw new ToolError(`The target ${target.ref} has ${count(size, 'cell')}; a fill can write at most ${MAX_UPDATES_PER_CHANGE.toLocaleString('en-US')}.`)
    const sheet = source.sheet
    const height = source.range.bottom - source.range.top + 1
    const width = source.range.right - source.range.left + 1
    const inputs: { input: string; format: string | undefined }[] = []
    let formulas = 0
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        const row = source.range.top + r
        const col = source.range.left + c
        const input = state.engine.getInputAt(sheet.name, row, col)
        if (input.startsWith('=')) formulas++
        inputs.push({ input, format: state.formatAtPosition(sheet.id, row, col) })
      }
    }
    if (formulas === 0) throw new ToolError(`${source.ref} holds no formula to fill. Write the formula first (write_cells), then fill it.`)
    const inSource = (row: number, col: number) => row >= source.range.top && row <= source.range.bottom && col >= source.range.left && col <= source.range.right
    const cells: { sheet: typeof sheet; row: number; col: number; address: string; ref: string; range: typeof source.range }[] = []
    const edits: CellEdit[] = []
    for (let row = target.range.top; row <= target.range.bottom; row++) {
      for (let col = target.range.left; col <= target.range.right; col++) {
        if (inSource(row, col)) continue
        const from = inputs[modulo(row - source.range.top, height) * width + modulo(col - source.range.left, width)]
        const fromAddress = formatAddress(source.range.top + modulo(row - source.range.top, height), source.range.left + modulo(col - source.range.left, width))
        const address = formatAddress(row, col)
        let input = from.input
        if (input.startsWith('=')) {
          try {
            input = translateFormula(input, fromAddress, address)
          } catch {
            // A formula that does not parse is copied as written, as the grid copies it.
          }
        }
        const edit: CellEdit = { address, input }
        if (from.format !== undefined) edit.format = from.format
        edits.push(edit)
        cells.push({ sheet, row, col, address, ref: `${sheet.name}!${address}`, range: { top: row, left: col, bottom: row, right: col } })
      }
    }
    if (edits.length === 0) throw new ToolError(`The target ${target.ref} lies inside the source ${source.ref}: there is nothing to fill. Give the cells to fill into.`)
    refuseOverwrites(context, cells, args.overwrite, 'Call fill_formula again')
    recordNetworkRisks(context.record, sheet, edits)
    const result = session.write([{ type: 'set-cells', sheet: sheet.name, cells: edits }])
    const errors = newErrors(state, result)
    const shownCells = cells.length <= READ_BACK ? cells : [...cells.slice(0, READ_BACK / 2), ...cells.slice(-READ_BACK / 2)]
    return {
      summary: `Filling ${source.ref} into ${formatRange(target.range)} (${count(edits.length, 'cell')})`,
      content: {
        source: source.ref,
        target: target.ref,
        ...(source.via || target.via ? { via: [source.via, target.via].filter(Boolean) } : {}),
        filled: edits.length,
        sample: readBack(state, shownCells),
        newErrors: errors.list,
        ...(errors.count > errors.list.length ? { moreErrors: errors.count - errors.list.length } : {}),
        ...(errors.count > 0 ? { check: 'Some cells show errors after this fill; fix them or explain them before finishing.' } : {}),
      },
    }
  },
})
