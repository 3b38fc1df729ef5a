import type { CellRange } from '../grid/address'
import { parseRangeAddress } from '../grid/address'

/**
 * Reads a Go To or name-box reference: 'B4', 'a1:c3', 'Sheet2!B4' or "'My Sheet'!A1:B2".
 * Returns the sheet (null for the current one) and the range, or an error text.
 */
export function parseGoToReference(text: string, sheets: readonly string[]): { sheet: string | null; range: CellRange } | { error: string } {
  const trimmed = text.trim()
  if (trimmed === '') return { error: 'Enter a cell reference such as B12' }
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
  const range = parseRangeAddress(body)
  if (!range) return { error: `${body} is not a cell reference` }
  return { sheet, range }
}
