import type { DefinedNameRecord } from '@finsheet/workbook/model'
import type { CellRange } from '../grid/address'
import { parseRangeAddress } from '../grid/address'
import { findName, nameReference } from './defined-names'

/**
 * Reads a Go To or name-box reference: 'B4', 'a1:c3', 'Sheet2!B4', "'My Sheet'!A1:B2" or a defined
 * name that refers to a range (the active sheet's own name before the workbook's).
 * Returns the sheet (null for the current one) and the range, or an error text.
 */
export function parseGoToReference(
  text: string,
  sheets: readonly string[],
  names: { defined: readonly DefinedNameRecord[]; activeSheet: string } = { defined: [], activeSheet: '' },
): { sheet: string | null; range: CellRange } | { error: string } {
  const trimmed = text.trim()
  if (trimmed === '') return { error: 'Enter a cell reference such as B12' }
  const named = findName(names.defined, trimmed, names.activeSheet)
  if (named) {
    const reference = nameReference(named.formula, sheets)
    if (!reference) return { error: `${named.name} does not refer to a range of cells` }
    return { sheet: reference.sheet ?? named.sheet ?? null, range: reference.range }
  }
  let sheet: string | null = null
  let body = trimmed
  const bang = trimmed.lastIndexOf('!')
  if (bang >= 0) {
    let name = trimmed.slice(0, bang)
    if (name.startsWith("'") && name.endsWith("'") && name.length >= 2) name = name.slice(1, -1).replace(/''/g, "'")
    const found = sheets.find((s) => s.toLowerCase() === name.toLowerCase())
    if (!found) return { error: `There is no sheet named ${name}` }
    sheet = found
    body = trimmed.slice(bang + 1)
  }
  const range = parseRangeAddress(body.replace(/\$/g, ''))
  if (!range) return { error: `${body} is not a cell reference` }
  return { sheet, range }
}
