/**
 * The Page setup dialog's fields as typed, read into a sheet's page setup: the print area as a range
 * ('B2:F40', '$A$1:$F$40'), the rows to repeat as Excel writes them ('1:2', '$1:$1', '3').
 */
import { MAX_PRINT_SCALE, MIN_PRINT_SCALE, type PageSetup, type PaperSize } from '@finsheet/contracts'
import { parseRangeAddress, rangeAddress } from '../grid/address'

export interface PageSetupFields {
  orientation: 'portrait' | 'landscape'
  paperSize: PaperSize
  fit: 'width' | 'scale'
  scale: string
  printArea: string
  titleRows: string
  gridlines: boolean
  headings: boolean
}

export function fieldsOf(setup: PageSetup): PageSetupFields {
  return {
    orientation: setup.orientation ?? 'portrait',
    paperSize: setup.paperSize ?? 'letter',
    fit: setup.fitToWidth ? 'width' : 'scale',
    scale: String(setup.scale ?? 100),
    printArea: setup.printArea ?? '',
    titleRows: setup.titleRows ? `$${setup.titleRows.first + 1}:$${setup.titleRows.last + 1}` : '',
    gridlines: setup.gridlines ?? false,
    headings: setup.headings ?? false,
  }
}

/** The rows '1:2' names, 0-based; null when the text names none. */
export function parseTitleRows(text: string): { first: number; last: number } | null {
  const match = /^\$?(\d+)(?::\$?(\d+))?$/.exec(text.replace(/\s+/g, ''))
  if (!match) return null
  const a = Number(match[1])
  const b = Number(match[2] ?? match[1])
  if (a < 1 || b < 1) return null
  return { first: Math.min(a, b) - 1, last: Math.max(a, b) - 1 }
}

/** A range as the page setup keeps it ('B2:F40'); null when the text is no range. */
export function parsePrintArea(text: string): string | null {
  const cleaned = text.replace(/[\s$]/g, '').toUpperCase()
  const range = parseRangeAddress(cleaned.includes(':') ? cleaned : `${cleaned}:${cleaned}`)
  if (!range) return null
  const address = rangeAddress(range)
  return address.includes(':') ? address : `${address}:${address}`
}

/** The page setup the fields describe, or the first problem with them, naming the field. */
export function readFields(fields: PageSetupFields): { setup: PageSetup } | { problem: string } {
  const setup: PageSetup = { orientation: fields.orientation, paperSize: fields.paperSize }
  if (fields.fit === 'width') setup.fitToWidth = true
  else {
    const scale = Number(fields.scale)
    if (!Number.isInteger(scale) || scale < MIN_PRINT_SCALE || scale > MAX_PRINT_SCALE) return { problem: `Scale: enter a whole percent from ${MIN_PRINT_SCALE} to ${MAX_PRINT_SCALE}.` }
    if (scale !== 100) setup.scale = scale
  }
  if (fields.printArea.trim() !== '') {
    const area = parsePrintArea(fields.printArea)
    if (!area) return { problem: 'Print area: enter a range such as A1:F40, or leave it empty to print the used cells.' }
    setup.printArea = area
  }
  if (fields.titleRows.trim() !== '') {
    const rows = parseTitleRows(fields.titleRows)
    if (!rows) return { problem: 'Rows to repeat at top: enter rows such as $1:$2.' }
    setup.titleRows = rows
  }
  if (fields.gridlines) setup.gridlines = true
  if (fields.headings) setup.headings = true
  return { setup }
}
