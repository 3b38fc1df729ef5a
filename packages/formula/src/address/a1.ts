/**
 * A1 addresses: column letters, cell addresses and ranges. Rows and columns are 0-based in code and
 * 1-based in text (`A1` is row 0, column 0).
 */
import { InvalidAddressError } from '../errors.js'
import { MAX_COL, MAX_ROW } from '../values.js'

export interface CellAddress {
  row: number
  col: number
}

export interface RangeAddress {
  top: number
  left: number
  bottom: number
  right: number
}

const LETTERS_CACHE: string[] = []

/** `0` → `A`, `25` → `Z`, `26` → `AA`. */
export function columnToLetters(col: number): string {
  const cached = LETTERS_CACHE[col]
  if (cached !== undefined) return cached
  let letters = ''
  let n = col + 1
  while (n > 0) {
    const remainder = (n - 1) % 26
    letters = String.fromCharCode(65 + remainder) + letters
    n = Math.floor((n - 1) / 26)
  }
  if (col >= 0 && col < 1024) LETTERS_CACHE[col] = letters
  return letters
}

/** `A` → `0`, `AA` → `26`, case-insensitive; -1 for anything that is not 1–3 letters within XFD. */
export function lettersToColumn(letters: string): number {
  if (letters.length === 0 || letters.length > 3) return -1
  let col = 0
  for (let i = 0; i < letters.length; i++) {
    const code = letters.charCodeAt(i) | 0x20
    if (code < 97 || code > 122) return -1
    col = col * 26 + (code - 96)
  }
  return col - 1 <= MAX_COL ? col - 1 : -1
}

const ROW_TEXT_CACHE: string[] = []

/** `{ row: 0, col: 0 }` → `A1`. */
export function formatAddress(row: number, col: number): string {
  // Change lists format tens of thousands of addresses; the row texts are kept for the first rows.
  let rowText = ROW_TEXT_CACHE[row]
  if (rowText === undefined) {
    rowText = String(row + 1)
    if (row < 65_536) ROW_TEXT_CACHE[row] = rowText
  }
  return columnToLetters(col) + rowText
}

/**
 * Parses `B3` or `$B$3` (surrounding spaces allowed) into a 0-based position; undefined when it is not
 * a valid address. Written out by hand because loads parse hundreds of thousands of addresses.
 */
export function tryParseAddress(text: string): CellAddress | undefined {
  let i = 0
  let end = text.length
  while (i < end && text.charCodeAt(i) === 32) i++
  while (end > i && text.charCodeAt(end - 1) === 32) end--
  if (i < end && text.charCodeAt(i) === 36 /* $ */) i++
  let col = 0
  const lettersStart = i
  while (i < end) {
    const code = text.charCodeAt(i) | 0x20
    if (code < 97 || code > 122) break
    col = col * 26 + (code - 96)
    i++
  }
  const letters = i - lettersStart
  if (letters < 1 || letters > 3) return undefined
  if (i < end && text.charCodeAt(i) === 36) i++
  let row = 0
  const digitsStart = i
  while (i < end) {
    const code = text.charCodeAt(i)
    if (code < 48 || code > 57) break
    row = row * 10 + (code - 48)
    i++
  }
  const digits = i - digitsStart
  if (i !== end || digits < 1 || digits > 7 || text.charCodeAt(digitsStart) === 48) return undefined
  if (col - 1 > MAX_COL || row - 1 > MAX_ROW) return undefined
  return { row: row - 1, col: col - 1 }
}

/** Parses `B3`; throws InvalidAddressError for anything else. */
export function parseAddress(text: string): CellAddress {
  const address = tryParseAddress(text)
  if (!address) throw new InvalidAddressError(text)
  return address
}

/**
 * Parses `A1:C3`, a single cell `B2`, whole columns `A:C` or whole rows `2:5` into 0-based inclusive
 * bounds (corners in any order); undefined when invalid.
 */
export function tryParseRange(text: string): RangeAddress | undefined {
  const parts = text.trim().split(':')
  if (parts.length === 1) {
    const cell = tryParseAddress(parts[0])
    return cell && { top: cell.row, left: cell.col, bottom: cell.row, right: cell.col }
  }
  if (parts.length !== 2) return undefined
  const [first, second] = parts.map((part) => part.trim().replace(/\$/g, ''))
  const a = tryParseAddress(first)
  const b = tryParseAddress(second)
  if (a && b) return normalizeRange(a.row, a.col, b.row, b.col)
  if (/^[A-Za-z]{1,3}$/.test(first) && /^[A-Za-z]{1,3}$/.test(second)) {
    const left = lettersToColumn(first)
    const right = lettersToColumn(second)
    if (left < 0 || right < 0) return undefined
    return normalizeRange(0, left, MAX_ROW, right)
  }
  if (/^[1-9][0-9]{0,6}$/.test(first) && /^[1-9][0-9]{0,6}$/.test(second)) {
    const top = Number(first) - 1
    const bottom = Number(second) - 1
    if (top > MAX_ROW || bottom > MAX_ROW) return undefined
    return normalizeRange(top, 0, bottom, MAX_COL)
  }
  return undefined
}

export function parseRange(text: string): RangeAddress {
  const range = tryParseRange(text)
  if (!range) throw new InvalidAddressError(text)
  return range
}

function normalizeRange(r1: number, c1: number, r2: number, c2: number): RangeAddress {
  return { top: Math.min(r1, r2), left: Math.min(c1, c2), bottom: Math.max(r1, r2), right: Math.max(c1, c2) }
}

/** `A1:C3`; a single cell as `B2`; whole columns as `A:C`, whole rows as `2:5`. */
export function formatRange(range: RangeAddress): string {
  const { top, left, bottom, right } = range
  if (top === 0 && bottom === MAX_ROW && !(left === 0 && right === MAX_COL)) {
    return `${columnToLetters(left)}:${columnToLetters(right)}`
  }
  if (left === 0 && right === MAX_COL && !(top === 0 && bottom === MAX_ROW)) return `${top + 1}:${bottom + 1}`
  if (top === bottom && left === right) return formatAddress(top, left)
  return `${formatAddress(top, left)}:${formatAddress(bottom, right)}`
}

/** Whether a sheet name must be quoted in a reference (`'My Sheet'!A1`). */
export function sheetNameNeedsQuotes(name: string): boolean {
  if (!/^[A-Za-z_\u00C0-\uFFFF][A-Za-z0-9_.\u00C0-\uFFFF]*$/.test(name)) return true
  // Names that read as a cell address or an R1C1 reference would be ambiguous.
  if (/^[A-Za-z]{1,3}[0-9]+$/.test(name)) return true
  if (/^(R|C|R[0-9]+|C[0-9]+|R[0-9]*C[0-9]*)$/i.test(name)) return true
  return /^(TRUE|FALSE)$/i.test(name)
}

/** A sheet name as written before `!`, quoted when needed (`'Q1 2024'`, `Sheet1`). */
export function formatSheetPrefix(name: string): string {
  return sheetNameNeedsQuotes(name) ? `'${name.replace(/'/g, "''")}'` : name
}
