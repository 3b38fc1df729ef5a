/**
 * Excel tables as xlsx files store them: each sheet lists its tables in its relationships part
 * (`xl/worksheets/_rels/sheet1.xml.rels`, type `.../table`), and each table is a part of its own
 * (`xl/tables/table1.xml`) holding its name, its range (header and totals rows included), how many
 * header and totals rows it shows, its column names and its style. Both xlsx readers use this.
 */
import { attribute } from './xml-text.js'

/** A table as read from its part. */
export interface XlsxTable {
  /** The name formulas use (`displayName`; `name` when absent). */
  readonly name: string
  readonly sheet: string
  /** The whole table, such as `A1:D6`. */
  readonly range: string
  readonly headerRow: boolean
  readonly totalsRow: boolean
  readonly columns: string[]
  /** The table style, such as `TableStyleMedium2`; absent when the table has none. */
  readonly style?: string
}

const TABLE_RELATIONSHIP = /\/relationships\/table$/

/** Characters XML cannot hold (a line break in a header) are written `_xHHHH_`. */
function decodeEscapes(text: string): string {
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/** The relationships part of a part: `xl/worksheets/sheet1.xml` → `xl/worksheets/_rels/sheet1.xml.rels`. */
export function relationshipsPath(part: string): string {
  const slash = part.lastIndexOf('/')
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`
}

/** Resolves a relationship target against the folder of the part that names it. */
function resolveTarget(part: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1)
  const segments = part.split('/').slice(0, -1)
  for (const segment of target.split('/')) {
    if (segment === '..') segments.pop()
    else if (segment !== '.' && segment !== '') segments.push(segment)
  }
  return segments.join('/')
}

/** The table parts a sheet's relationships part lists. */
export function tablePartsOf(sheetPart: string, relationshipsXml: string): string[] {
  const parts: string[] = []
  for (const match of relationshipsXml.matchAll(/<(?:\w+:)?Relationship\b([^>]*?)\/?>/g)) {
    const type = attribute(match[1], 'Type') ?? ''
    const target = attribute(match[1], 'Target')
    if (target && TABLE_RELATIONSHIP.test(type) && attribute(match[1], 'TargetMode') !== 'External') parts.push(resolveTarget(sheetPart, target))
  }
  return parts
}

/** Reads a table part; undefined when it names no table or range. */
export function parseTablePart(xml: string, sheet: string): XlsxTable | undefined {
  const table = /<(?:\w+:)?table\b([^>]*)>/.exec(xml)
  if (!table) return undefined
  const name = attribute(table[1], 'displayName') ?? attribute(table[1], 'name')
  const range = attribute(table[1], 'ref')
  if (!name || !range) return undefined
  // A table shows one header row unless headerRowCount says 0, and a totals row when totalsRowCount is 1.
  const headerRow = attribute(table[1], 'headerRowCount') !== '0'
  const totalsRow = Number(attribute(table[1], 'totalsRowCount') ?? '0') > 0
  const columns: string[] = []
  for (const column of xml.matchAll(/<(?:\w+:)?tableColumn\b([^>]*?)\/?>/g)) columns.push(decodeEscapes(attribute(column[1], 'name') ?? ''))
  const styleTag = /<(?:\w+:)?tableStyleInfo\b([^>]*?)\/?>/.exec(xml)
  const style = styleTag ? attribute(styleTag[1], 'name') : undefined
  return { name, sheet, range: range.replace(/\$/g, ''), headerRow, totalsRow, columns, ...(style ? { style } : {}) }
}

/**
 * Every table of the given sheets, in sheet order. `read` gives a part's text, or undefined when the
 * file has no such part (a table part that is missing is skipped, as Excel repairs it away).
 */
export async function readTables(sheets: readonly { name: string; part: string }[], read: (part: string) => Promise<string | undefined>): Promise<XlsxTable[]> {
  const tables: XlsxTable[] = []
  for (const sheet of sheets) {
    const relationships = await read(relationshipsPath(sheet.part))
    if (relationships === undefined) continue
    for (const part of tablePartsOf(sheet.part, relationships)) {
      const xml = await read(part)
      const table = xml === undefined ? undefined : parseTablePart(xml, sheet.name)
      if (table) tables.push(table)
    }
  }
  return tables
}
