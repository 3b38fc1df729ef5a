/**
 * CELL: information about a cell of a reference.
 */
import { columnToLetters, formatSheetPrefix } from '../../address/a1.js'
import { CellError, RangeRef, ReferenceList } from '../../values.js'
import { MISSING } from '../types.js'
import type { FunctionDefinition } from '../types.js'

export const CELL: FunctionDefinition = {
  name: 'CELL',
  category: 'information',
  minArgs: 1,
  maxArgs: 2,
  args: ['scalar', 'any'],
  syntax: 'CELL(info_type, [reference])',
  description:
    'Returns information about the top-left cell of a reference: "address", "col", "row", "contents", "type" (b blank, l text, v value) or "protect".',
  example: 'CELL("address", B7)',
  impl: (args, ctx) => {
    const info = args[0]
    if (typeof info !== 'string') return CellError.VALUE
    let reference: RangeRef
    const arg = args[1]
    if (arg === undefined || arg === MISSING) reference = new RangeRef(ctx.sheet, ctx.row, ctx.col, ctx.row, ctx.col)
    else if (arg instanceof RangeRef) reference = arg
    else if (arg instanceof ReferenceList) {
      if (arg.areas.length !== 1) return CellError.VALUE
      reference = arg.areas[0]
    } else if (arg instanceof CellError) return arg
    else return CellError.VALUE
    const row = reference.top
    const col = reference.left
    switch (info.toLowerCase()) {
      case 'address': {
        const address = `$${columnToLetters(col)}$${row + 1}`
        return reference.sheet === ctx.sheet ? address : `${formatSheetPrefix(reference.sheet.name)}!${address}`
      }
      case 'col':
        return col + 1
      case 'row':
        return row + 1
      case 'contents': {
        const value = reference.sheet.read(row, col)
        return value === null ? 0 : value
      }
      case 'type': {
        const value = reference.sheet.read(row, col)
        return value === null ? 'b' : typeof value === 'string' ? 'l' : 'v'
      }
      case 'protect':
        // Every cell is locked until a sheet says otherwise, as in a new Excel workbook.
        return 1
      default:
        return CellError.VALUE
    }
  },
}

export const functions: readonly FunctionDefinition[] = [CELL]
