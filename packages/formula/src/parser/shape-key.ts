/**
 * A fast path for the shape key of common formulas: one pass over the text, no tokens allocated.
 * Filling a formula down 100,000 rows parses it once and only scans the other 99,999.
 *
 * The key must determine the syntax tree exactly, so the scanner recognises cell references by the
 * lexer's own rules and gives up (returns undefined, and the caller tokenizes) on anything less common:
 * column and row ranges, error literals, array constants, spill references, unusual characters.
 */
import { MAX_COL, MAX_ROW } from '../values.js'

const enum Ch {
  Quote = 34,
  Hash = 35,
  Dollar = 36,
  Apostrophe = 39,
  OpenParen = 40,
  Dot = 46,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  Question = 63,
  UpperA = 65,
  UpperE = 69,
  UpperZ = 90,
  Backslash = 92,
  Underscore = 95,
  LowerA = 97,
  LowerE = 101,
  LowerZ = 122,
  OpenBrace = 123,
  Bang = 33,
  Plus = 43,
  Minus = 45,
}

function isDigit(code: number): boolean {
  return code >= Ch.Zero && code <= Ch.Nine
}

function isLetter(code: number): boolean {
  return (code >= Ch.UpperA && code <= Ch.UpperZ) || (code >= Ch.LowerA && code <= Ch.LowerZ)
}

/** Characters that continue an identifier for the lexer (so a reference cannot end before them). */
function continuesName(code: number): boolean {
  return (
    isLetter(code) ||
    isDigit(code) ||
    code === Ch.Underscore ||
    code === Ch.Dot ||
    code === Ch.Question ||
    code === Ch.Backslash ||
    code > 127
  )
}

const FAST_PREFIX = '\u0003'

/** The shape key of formula text (without '=') at (row, col), or undefined when the text is unusual. */
export function fastShapeKey(text: string, row: number, col: number): string | undefined {
  let key = FAST_PREFIX
  const length = text.length
  let i = 0
  let segmentStart = 0
  while (i < length) {
    const code = text.charCodeAt(i)
    if (code === Ch.Dollar || isLetter(code)) {
      // A cell reference, by the lexer's rules: $?letters{1,3}$?digits, not followed by a name character,
      // '(' or '!'.
      let j = i
      const colAbsolute = code === Ch.Dollar
      if (colAbsolute) j++
      const lettersStart = j
      let column = 0
      while (j < length && j - lettersStart < 4 && isLetter(text.charCodeAt(j))) {
        column = column * 26 + ((text.charCodeAt(j) | 0x20) - 96)
        j++
      }
      const letterCount = j - lettersStart
      let isCell = false
      let rowAbsolute = false
      let rowNumber = 0
      if (letterCount >= 1 && letterCount <= 3) {
        rowAbsolute = text.charCodeAt(j) === Ch.Dollar
        if (rowAbsolute) j++
        const digitsStart = j
        while (j < length && isDigit(text.charCodeAt(j))) {
          rowNumber = rowNumber * 10 + (text.charCodeAt(j) - Ch.Zero)
          j++
        }
        const digitCount = j - digitsStart
        const next = text.charCodeAt(j)
        isCell =
          digitCount > 0 &&
          digitCount <= 7 &&
          rowNumber >= 1 &&
          rowNumber - 1 <= MAX_ROW &&
          column - 1 <= MAX_COL &&
          !continuesName(next) &&
          next !== Ch.OpenParen &&
          next !== Ch.Bang
      }
      if (isCell) {
        const r = rowNumber - 1
        const c = column - 1
        key +=
          text.slice(segmentStart, i) +
          (rowAbsolute ? '\u0002R' + r : '\u0002r' + (r - row)) +
          (colAbsolute ? 'C' + c : 'c' + (c - col))
        i = j
        segmentStart = i
        continue
      }
      if (colAbsolute) return undefined
      // An identifier: a function name, a sheet name before '!', or a defined name.
      j = i
      while (j < length && continuesName(text.charCodeAt(j))) {
        const part = text.charCodeAt(j)
        if (part === Ch.Question || part === Ch.Backslash || part > 127) return undefined
        j++
      }
      const next = text.charCodeAt(j)
      if (next === Ch.Colon) return undefined // whole columns such as A:C
      key += text.slice(segmentStart, i) + '\u0001' + text.slice(i, j).toUpperCase()
      i = j
      segmentStart = i
      continue
    }
    if (isDigit(code) || (code === Ch.Dot && isDigit(text.charCodeAt(i + 1)))) {
      let j = i
      while (isDigit(text.charCodeAt(j))) j++
      if (text.charCodeAt(j) === Ch.Dot) {
        j++
        while (isDigit(text.charCodeAt(j))) j++
      }
      const e = text.charCodeAt(j)
      if (e === Ch.UpperE || e === Ch.LowerE) {
        let k = j + 1
        const sign = text.charCodeAt(k)
        if (sign === Ch.Plus || sign === Ch.Minus) k++
        if (isDigit(text.charCodeAt(k))) {
          while (isDigit(text.charCodeAt(k))) k++
          j = k
        }
      }
      const next = text.charCodeAt(j)
      if (next === Ch.Colon || continuesName(next)) return undefined // rows such as 2:5, or invalid text
      i = j
      continue
    }
    if (code === Ch.Quote) {
      const end = text.indexOf('"', i + 1)
      if (end < 0 || text.charCodeAt(end + 1) === Ch.Quote) return undefined
      i = end + 1
      continue
    }
    if (code === Ch.Apostrophe) {
      const end = text.indexOf("'", i + 1)
      if (end < 0 || text.charCodeAt(end + 1) !== Ch.Bang) return undefined
      key += text.slice(segmentStart, i) + text.slice(i, end + 1).toUpperCase()
      i = end + 1
      segmentStart = i
      continue
    }
    if (code === Ch.Hash || code === Ch.OpenBrace || code > 127 || code === Ch.Backslash || code === 91) {
      return undefined
    }
    i++
  }
  return key + text.slice(segmentStart)
}
