/**
 * Structured references to Excel tables: `Table1[Col]`, `Table1[[#Headers],[Col]]`, `Table1[#All]`,
 * `Table1[@Col]`, `Table1[[Col1]:[Col2]]`, `[@Col]`. The lexer takes the whole bracketed text as one
 * token; this module reads it into its parts and writes it back.
 *
 * Excel's syntax: inside the brackets, `[`, `]`, `#` and `'` that belong to a column name are escaped
 * with a `'`; a list of items is `[item],[item]` where an item is a special item (`#All`, `#Data`,
 * `#Headers`, `#Totals`, `#This Row`), a column `[Name]` or a span of columns `[A]:[B]`; `@` stands for
 * `[#This Row],` and may be followed by a column name, bracketed or not.
 */
import type { TableArea } from './ast.js'

export interface StructuredParts {
  /** The table's name as written; '' when the reference names no table (`[@Col]` inside a table). */
  table: string
  /** The special items, in canonical order; empty means the data rows (the same as `#Data`). */
  areas: TableArea[]
  firstColumn?: string
  /** The second column of a span `[A]:[B]`. */
  lastColumn?: string
}

export class StructuredSyntaxError extends Error {
  override readonly name = 'StructuredSyntaxError'
}

const SPECIAL_ITEMS: Record<string, TableArea> = {
  '#ALL': 'all',
  '#DATA': 'data',
  '#HEADERS': 'headers',
  '#TOTALS': 'totals',
  '#THIS ROW': 'thisRow',
}

const AREA_TEXT: Record<TableArea, string> = {
  all: '#All',
  data: '#Data',
  headers: '#Headers',
  totals: '#Totals',
  thisRow: '#This Row',
}

const AREA_ORDER: TableArea[] = ['all', 'headers', 'data', 'totals', 'thisRow']

/**
 * Where the bracketed part starting at `open` (a `[`) ends: the offset just past its matching `]`,
 * or -1 when it is not closed. A `'` escapes the character after it.
 */
export function scanBrackets(text: string, open: number): number {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (ch === 39 /* ' */) {
      i++
      continue
    }
    if (ch === 91 /* [ */) depth++
    else if (ch === 93 /* ] */) {
      depth--
      if (depth === 0) return i + 1
    }
  }
  return -1
}

function unescape(text: string): string {
  return text.replace(/'(.)/gs, '$1')
}

/** Excel escapes `[`, `]`, `#`, `'` and `@` in a column name with a `'`. */
function escapeName(name: string): string {
  return name.replace(/['[\]#@]/g, "'$&")
}

/** Whether text holds a bracket not escaped by a `'`. */
function hasBareBracket(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (ch === 39) i++
    else if (ch === 91 || ch === 93) return true
  }
  return false
}

/** Splits a list at commas outside brackets. */
function splitItems(text: string): string[] {
  const items: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (ch === 39) {
      i++
      continue
    }
    if (ch === 91) depth++
    else if (ch === 93) depth--
    else if (ch === 44 /* , */ && depth === 0) {
      items.push(text.slice(start, i))
      start = i + 1
    }
  }
  items.push(text.slice(start))
  return items.map((item) => item.trim())
}

/** `[A]` or `[A]:[B]` → the column names; undefined when the text is neither. */
function columnSpan(text: string): [string, string | undefined] | undefined {
  if (!text.startsWith('[')) return undefined
  const end = scanBrackets(text, 0)
  if (end < 0) return undefined
  const first = unescape(text.slice(1, end - 1))
  if (end === text.length) return [first, undefined]
  const rest = text.slice(end).trim()
  if (!rest.startsWith(':')) return undefined
  const second = rest.slice(1).trim()
  if (!second.startsWith('[') || scanBrackets(second, 0) !== second.length) return undefined
  return [first, unescape(second.slice(1, -1))]
}

/**
 * Excel accepts a special item alone, `#Headers` with `#Data`, and `#Data` with `#Totals`; `#This Row`
 * and `#All` combine with nothing but columns.
 */
function checkAreas(areas: TableArea[]): void {
  if (areas.length <= 1) return
  const set = new Set(areas)
  if (set.size === 2 && set.has('data') && (set.has('headers') || set.has('totals'))) return
  throw new StructuredSyntaxError('These table items cannot be combined')
}

/** Reads the text of a structured reference token (`Table1[...]` or `[...]`). */
export function parseStructured(text: string): StructuredParts {
  const open = text.indexOf('[')
  const table = text.slice(0, open)
  if (scanBrackets(text, open) !== text.length) throw new StructuredSyntaxError('Unclosed bracket in a table reference')
  const inner = text.slice(open + 1, -1)
  const parts: StructuredParts = { table, areas: [] }
  if (inner.trim() === '') return parts
  if (inner.startsWith('@')) {
    parts.areas = ['thisRow']
    const rest = inner.slice(1).trim()
    if (rest === '') return parts
    const span = columnSpan(rest)
    if (span !== undefined) {
      parts.firstColumn = span[0]
      if (span[1] !== undefined) parts.lastColumn = span[1]
    } else if (hasBareBracket(rest)) {
      throw new StructuredSyntaxError('Unexpected bracket in a table reference')
    } else {
      parts.firstColumn = unescape(rest)
    }
    return parts
  }
  if (inner.startsWith('#')) {
    const area = SPECIAL_ITEMS[inner.toUpperCase()]
    if (area === undefined) throw new StructuredSyntaxError(`Unknown table item ${inner}`)
    parts.areas = [area]
    return parts
  }
  if (inner.trimStart().startsWith('[')) {
    for (const item of splitItems(inner)) {
      if (!item.startsWith('[')) throw new StructuredSyntaxError('Expected [ in a table reference')
      const end = scanBrackets(item, 0)
      const body = item.slice(1, end - 1)
      if (end === item.length && body.startsWith('#')) {
        const area = SPECIAL_ITEMS[body.toUpperCase()]
        if (area === undefined) throw new StructuredSyntaxError(`Unknown table item ${body}`)
        if (!parts.areas.includes(area)) parts.areas.push(area)
        continue
      }
      const span = columnSpan(item)
      if (span === undefined || parts.firstColumn !== undefined) {
        throw new StructuredSyntaxError('A table reference names one column or one span of columns')
      }
      parts.firstColumn = span[0]
      if (span[1] !== undefined) parts.lastColumn = span[1]
    }
    checkAreas(parts.areas)
    parts.areas.sort((a, b) => AREA_ORDER.indexOf(a) - AREA_ORDER.indexOf(b))
    return parts
  }
  if (hasBareBracket(inner)) throw new StructuredSyntaxError('Unexpected bracket in a table reference')
  parts.firstColumn = unescape(inner)
  return parts
}

/** A column name needs brackets after `@` unless it is letters, digits, `_` and `.` only. */
function plainName(name: string): boolean {
  return /^[A-Za-z0-9_.\u00C0-\uFFFF]+$/.test(name)
}

function columnsText(parts: StructuredParts): string {
  if (parts.firstColumn === undefined) return ''
  const first = `[${escapeName(parts.firstColumn)}]`
  return parts.lastColumn === undefined ? first : `${first}:[${escapeName(parts.lastColumn)}]`
}

/**
 * Writes a structured reference as Excel shows it (`Table1[@Col]`). With `fileForm`, `@` is written as
 * `[#This Row],` as Excel stores formulas in files.
 */
export function printStructured(parts: StructuredParts, fileForm = false): string {
  const { table, areas, firstColumn, lastColumn } = parts
  const columns = columnsText(parts)
  let inner: string
  if (areas.length === 1 && areas[0] === 'thisRow' && !fileForm) {
    if (firstColumn === undefined) inner = '@'
    else if (lastColumn === undefined && plainName(firstColumn)) inner = '@' + escapeName(firstColumn)
    else inner = '@' + columns
  } else if (areas.length === 0) {
    if (firstColumn === undefined) inner = ''
    else if (lastColumn === undefined) inner = escapeName(firstColumn)
    else inner = columns
  } else if (firstColumn === undefined && areas.length === 1) {
    inner = AREA_TEXT[areas[0]]
  } else {
    const items = areas.map((area) => `[${AREA_TEXT[area]}]`)
    if (columns !== '') items.push(columns)
    inner = items.join(',')
  }
  return `${table}[${inner}]`
}
