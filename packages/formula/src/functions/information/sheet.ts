/**
 * SHEET and SHEETS: the position of a sheet among the tabs, and how many sheets a reference spans.
 * Both are volatile, since adding, removing or moving a sheet changes them without touching a cell.
 * INFO: what Excel tells about its environment, as far as a workbook in the browser has one.
 */
import { CellError, RangeRef, ReferenceList } from '../../values.js'
import type { SheetView } from '../../values.js'
import { MISSING } from '../types.js'
import type { FunctionContext, FunctionDefinition } from '../types.js'

function sheetNumber(ctx: FunctionContext, sheet: SheetView): number | CellError {
  const index = ctx.sheets().indexOf(sheet)
  return index < 0 ? CellError.REF : index + 1
}

export const SHEET: FunctionDefinition = {
  name: 'SHEET',
  category: 'information',
  minArgs: 0,
  maxArgs: 1,
  args: ['any'],
  volatile: true,
  syntax: 'SHEET([value])',
  description: 'Returns the number of a sheet among the tabs: of the formula\'s sheet, of a reference, or of a sheet named by text.',
  example: 'SHEET("Assumptions")',
  impl: (args, ctx) => {
    const value = args[0]
    if (value === undefined || value === MISSING) return sheetNumber(ctx, ctx.sheet)
    if (value instanceof RangeRef) return sheetNumber(ctx, value.sheet)
    if (value instanceof ReferenceList) return sheetNumber(ctx, value.areas[0].sheet)
    if (value instanceof CellError) return value
    if (typeof value !== 'string') return CellError.NA
    const sheet = ctx.sheetByName(value)
    return sheet === undefined ? CellError.NA : sheetNumber(ctx, sheet)
  },
}

export const SHEETS: FunctionDefinition = {
  name: 'SHEETS',
  category: 'information',
  minArgs: 0,
  maxArgs: 1,
  args: ['any'],
  volatile: true,
  syntax: 'SHEETS([reference])',
  description: 'Returns the number of sheets in a reference, or in the workbook when it is omitted.',
  example: 'SHEETS()',
  impl: (args, ctx) => {
    const value = args[0]
    if (value === undefined || value === MISSING) return ctx.sheets().length
    if (value instanceof RangeRef) return 1
    if (value instanceof ReferenceList) return new Set(value.areas.map((area) => area.sheet)).size
    if (value instanceof CellError) return value
    return CellError.VALUE
  },
}

export const INFO: FunctionDefinition = {
  name: 'INFO',
  category: 'information',
  minArgs: 1,
  maxArgs: 1,
  args: ['text'],
  volatile: true,
  syntax: 'INFO(type_text)',
  description:
    'Returns information about the operating environment: "numfile" (sheets in the workbook), "recalc", "release", "system" or "origin"; "directory" and "osversion" have no answer in the browser (#N/A).',
  example: 'INFO("numfile")',
  impl: (args, ctx) => {
    const type = args[0]
    if (typeof type !== 'string') return type instanceof CellError ? type : CellError.VALUE
    switch (type.toLowerCase()) {
      case 'numfile':
        return ctx.sheets().length
      case 'recalc':
        return 'Automatic'
      case 'release':
        return '16.0'
      case 'system':
        return 'pcdos'
      case 'origin':
        // The top-left cell of the window, with Lotus's "$A:" prefix; the engine has no window.
        return '$A:$A$1'
      case 'directory':
      case 'osversion':
        return CellError.NA
      default:
        return CellError.VALUE
    }
  },
}

export const functions: readonly FunctionDefinition[] = [SHEET, SHEETS, INFO]
