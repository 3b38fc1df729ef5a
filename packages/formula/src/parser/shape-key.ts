/**
 * A fast path for recognising the shape of common formulas: one pass over the text writes a canonical
 * form (references relative to the cell, names upper-cased) as integers into a reusable buffer, with
 * its hash. Filling a formula down 100,000 rows parses it once; the other 99,999 are scanned and
 * compared with the first, allocating nothing.
 *
 * The canonical form must determine the syntax tree exactly, so the scanner recognises cell references
 * by the lexer's own rules and gives up (and the caller tokenizes) on anything less common: column and
 * row ranges, error literals, array constants, spill references, unusual characters.
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

/** Markers in the canonical form (characters are written as their non-negative codes). */
const enum Mark {
  Cell = -1,
  Absolute = -2,
  Relative = -3,
  Name = -4,
  NameEnd = -5,
}

/** The canonical form of a formula's shape: `length` integers of `codes`, and their hash. */
export class ShapeScan {
  codes = new Int32Array(256)
  length = 0
  hash = 0

  private push(value: number): void {
    if (this.length === this.codes.length) {
      const grown = new Int32Array(this.codes.length * 2)
      grown.set(this.codes)
      this.codes = grown
    }
    this.codes[this.length++] = value
    this.hash = Math.imul(this.hash ^ value, 16_777_619)
  }

  /** A copy of the canonical form, kept with a compiled formula to compare later scans with. */
  snapshot(): Int32Array {
    return this.codes.slice(0, this.length)
  }

  /** Whether this scan has exactly the canonical form `other`. */
  equals(other: Int32Array): boolean {
    if (other.length !== this.length) return false
    const codes = this.codes
    for (let i = 0; i < other.length; i++) if (codes[i] !== other[i]) return false
    return true
  }

  /**
   * Scans formula text from `start` (past the '=') written in the cell at (row, col). Returns false
   * when the text is not one of the common forms this fast path handles.
   */
  scan(text: string, row: number, col: number, start = 0): boolean {
    this.length = 0
    this.hash = -2_128_831_035
    const length = text.length
    let i = start
    while (i < length) {
      const code = text.charCodeAt(i)
      if (code === Ch.Dollar || isLetter(code)) {
        // A cell reference, by the lexer's rules: $?letters{1,3}$?digits, not followed by a name
        // character, '(' or '!'.
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
          this.push(Mark.Cell)
          this.push(rowAbsolute ? Mark.Absolute : Mark.Relative)
          this.push(rowAbsolute ? r : r - row)
          this.push(colAbsolute ? Mark.Absolute : Mark.Relative)
          this.push(colAbsolute ? c : c - col)
          i = j
          continue
        }
        if (colAbsolute) return false
        // An identifier: a function name, a sheet name before '!', or a defined name.
        j = i
        this.push(Mark.Name)
        while (j < length && continuesName(text.charCodeAt(j))) {
          const part = text.charCodeAt(j)
          if (part === Ch.Question || part === Ch.Backslash || part > 127) return false
          this.push(part >= 97 && part <= 122 ? part - 32 : part)
          j++
        }
        this.push(Mark.NameEnd)
        if (text.charCodeAt(j) === Ch.Colon) return false // whole columns such as A:C
        i = j
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
        if (next === Ch.Colon || continuesName(next)) return false // rows such as 2:5, or invalid text
        for (let k = i; k < j; k++) this.push(text.charCodeAt(k))
        i = j
        continue
      }
      if (code === Ch.Quote) {
        const end = text.indexOf('"', i + 1)
        if (end < 0 || text.charCodeAt(end + 1) === Ch.Quote) return false
        for (let k = i; k <= end; k++) this.push(text.charCodeAt(k))
        i = end + 1
        continue
      }
      if (code === Ch.Apostrophe) {
        const end = text.indexOf("'", i + 1)
        if (end < 0 || text.charCodeAt(end + 1) !== Ch.Bang) return false
        for (let k = i; k <= end; k++) {
          const part = text.charCodeAt(k)
          this.push(part >= 97 && part <= 122 ? part - 32 : part)
        }
        i = end + 1
        continue
      }
      if (code === Ch.Hash || code === Ch.OpenBrace || code > 127 || code === Ch.Backslash || code === 91) {
        return false
      }
      this.push(code)
      i++
    }
    return true
  }
}
