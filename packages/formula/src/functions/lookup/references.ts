import { columnToLetters } from '../../address/a1.js'
import { ArrayValue, CellError, MAX_COL, MAX_ROW, RangeRef, ReferenceList } from '../../values.js'
import type { Scalar } from '../../values.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'

/** The height or width of a range, array or scalar argument. */
function extent(value: Arg, dimension: 'height' | 'width'): number | CellError {
  if (value === MISSING) return CellError.VALUE
  if (value instanceof CellError) return value
  if (value instanceof RangeRef || value instanceof ArrayValue) return value[dimension]
  if (value instanceof ReferenceList) return value.areas.length === 1 ? value.areas[0][dimension] : CellError.REF
  return 1
}

export const ROWS: FunctionDefinition = {
  name: 'ROWS',
  category: 'lookup',
  minArgs: 1,
  maxArgs: 1,
  args: ['any'],
  syntax: 'ROWS(array)',
  description: 'Returns the number of rows of a reference or array.',
  example: 'ROWS(A1:C10)',
  impl: ([value]) => extent(value, 'height'),
}

export const COLUMNS: FunctionDefinition = {
  name: 'COLUMNS',
  category: 'lookup',
  minArgs: 1,
  maxArgs: 1,
  args: ['any'],
  syntax: 'COLUMNS(array)',
  description: 'Returns the number of columns of a reference or array.',
  example: 'COLUMNS(A1:C10)',
  impl: ([value]) => extent(value, 'width'),
}

export const AREAS: FunctionDefinition = {
  name: 'AREAS',
  category: 'lookup',
  minArgs: 1,
  maxArgs: 1,
  args: ['reference'],
  syntax: 'AREAS(reference)',
  description: 'Returns the number of areas of a reference, such as 2 for (A1:B2,D4).',
  example: 'AREAS((A1:B2,D4))',
  impl: ([value]) => (value instanceof ReferenceList ? value.areas.length : 1),
}

/** A sheet name as written before `!`, quoted when it holds anything but letters, digits, `_` and `.`. */
export function sheetPrefix(name: string): string {
  const plain = /^[A-Za-z_\u00C0-\uFFFF][A-Za-z0-9_.\u00C0-\uFFFF]*$/.test(name) && !/^[A-Za-z]{1,3}\d+$/.test(name) && !/^R\d*C\d*$/i.test(name)
  return plain ? `${name}!` : `'${name.replace(/'/g, "''")}'!`
}

export const ADDRESS: FunctionDefinition = {
  name: 'ADDRESS',
  category: 'lookup',
  minArgs: 2,
  maxArgs: 5,
  args: ['number', 'number', 'number', 'boolean', 'text'],
  syntax: 'ADDRESS(row_num, column_num, [abs_num], [a1], [sheet_text])',
  description:
    'Returns a cell address as text: abs_num 1 absolute (default), 2 absolute row, 3 absolute column, 4 relative; a1 FALSE gives R1C1 style.',
  example: 'ADDRESS(2, 3)',
  impl: (args) => {
    const row = Math.trunc(args[0] as number)
    const column = Math.trunc(args[1] as number)
    const absolute = args.length > 2 && args[2] !== MISSING ? Math.trunc(args[2] as number) : 1
    const a1 = args.length > 3 && args[3] !== MISSING ? (args[3] as boolean) : true
    if (row < 1 || row > MAX_ROW + 1 || column < 1 || column > MAX_COL + 1) return CellError.VALUE
    if (absolute < 1 || absolute > 4) return CellError.VALUE
    const absoluteRow = absolute === 1 || absolute === 2
    const absoluteColumn = absolute === 1 || absolute === 3
    const address = a1
      ? `${absoluteColumn ? '$' : ''}${columnToLetters(column - 1)}${absoluteRow ? '$' : ''}${row}`
      : `R${absoluteRow ? row : `[${row}]`}C${absoluteColumn ? column : `[${column}]`}`
    const sheet = args.length > 4 && args[4] !== MISSING ? (args[4] as Scalar) : undefined
    if (typeof sheet !== 'string') return address
    return sheet === '' ? `!${address}` : sheetPrefix(sheet) + address
  },
}

export const FORMULATEXT: FunctionDefinition = {
  name: 'FORMULATEXT',
  category: 'lookup',
  minArgs: 1,
  maxArgs: 1,
  args: ['reference'],
  syntax: 'FORMULATEXT(reference)',
  description: 'Returns the formula of a cell as text, or #N/A when the cell holds no formula.',
  example: 'FORMULATEXT(B2)',
  impl: ([value]) => {
    const area = value instanceof ReferenceList ? value.areas[0] : (value as RangeRef)
    if (area === undefined) return CellError.NA
    return area.sheet.formulaText(area.top, area.left) ?? CellError.NA
  },
}

export const HYPERLINK: FunctionDefinition = {
  name: 'HYPERLINK',
  category: 'lookup',
  minArgs: 1,
  maxArgs: 2,
  args: ['scalar', 'scalar'],
  syntax: 'HYPERLINK(link_location, [friendly_name])',
  description: 'Creates a link; the cell shows friendly_name, or the link location when it is omitted.',
  example: 'HYPERLINK("https://example.com/report", "Report")',
  impl: (args) => {
    const shown = args.length > 1 && args[1] !== MISSING ? args[1] : args[0]
    return shown === null ? 0 : (shown as Scalar)
  },
}

export const functions: readonly FunctionDefinition[] = [ROWS, COLUMNS, AREAS, ADDRESS, FORMULATEXT, HYPERLINK]
