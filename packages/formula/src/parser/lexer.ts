/**
 * Splits formula text (without the leading '=') into tokens. It recognises references itself, because
 * whether `A1`, `A:A`, `1:3` or `LOG10(` is a reference depends on the characters around it.
 */
import { lettersToColumn } from '../address/a1.js'
import { MAX_ROW } from '../values.js'
import { scanBrackets } from './structured.js'

export const enum TokenType {
  Number,
  String,
  Error,
  /** A cell reference: `A1`, `$A$1`. */
  Cell,
  /** Whole columns: `A:C`. */
  Columns,
  /** Whole rows: `2:5`. */
  Rows,
  /**
   * A sheet prefix including its `!`: `Sheet1!`, `'My Sheet'!`. `text` holds the unquoted name, with the
   * other workbook's prefix for an external reference: `[1]Sheet1` (see address/external.ts).
   */
  Sheet,
  /** An identifier not followed by `(`: a defined name, TRUE/FALSE, a LET variable. */
  Name,
  /** An identifier followed by `(` (the parenthesis is not part of the token). */
  Function,
  Operator,
  OpenParen,
  CloseParen,
  OpenBrace,
  CloseBrace,
  Comma,
  Semicolon,
  /**
   * A structured reference to a table, brackets included: `Table1[Col]`, `Table1[[#Headers],[Col]]`,
   * or `[@Col]` / `[#Totals]` / `[[...]]` at the start of an operand.
   */
  Structured,
  /** `#` right after a reference: the spill operator. */
  Spill,
  End,
  Invalid,
}

export class Token {
  /** Row and column of the first (or only) corner; 0-based. */
  row1 = 0
  col1 = 0
  rowAbs1 = false
  colAbs1 = false
  /** Second corner of Columns and Rows tokens. */
  row2 = 0
  col2 = 0
  rowAbs2 = false
  colAbs2 = false

  constructor(
    readonly type: TokenType,
    /** The token's text; strings are unescaped and unquoted, sheet names unquoted. */
    readonly text: string,
    /** Offset in the formula text, for error messages and editor highlighting. */
    readonly start: number,
    /** Whether whitespace preceded the token (the intersection operator is a space). */
    readonly spaceBefore: boolean,
    /** Offset just past the token. */
    readonly end: number,
  ) {}
}

const enum Ch {
  Tab = 9,
  LineFeed = 10,
  CarriageReturn = 13,
  Space = 32,
  Bang = 33,
  Quote = 34,
  Hash = 35,
  Dollar = 36,
  Percent = 37,
  Ampersand = 38,
  Apostrophe = 39,
  OpenParen = 40,
  CloseParen = 41,
  Star = 42,
  Plus = 43,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Slash = 47,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  Semicolon = 59,
  Less = 60,
  Equals = 61,
  Greater = 62,
  Question = 63,
  At = 64,
  UpperA = 65,
  UpperE = 69,
  UpperZ = 90,
  OpenBracket = 91,
  Backslash = 92,
  Caret = 94,
  Underscore = 95,
  LowerA = 97,
  LowerE = 101,
  LowerZ = 122,
  OpenBrace = 123,
  CloseBrace = 125,
  NonBreakingSpace = 160,
}

function isDigit(code: number): boolean {
  return code >= Ch.Zero && code <= Ch.Nine
}

function isLetter(code: number): boolean {
  return (code >= Ch.UpperA && code <= Ch.UpperZ) || (code >= Ch.LowerA && code <= Ch.LowerZ)
}

function isNameStart(code: number): boolean {
  return isLetter(code) || code === Ch.Underscore || code === Ch.Backslash || code > 127
}

function isNameChar(code: number): boolean {
  return isNameStart(code) || isDigit(code) || code === Ch.Dot || code === Ch.Question
}

function isSpace(code: number): boolean {
  return (
    code === Ch.Space ||
    code === Ch.Tab ||
    code === Ch.LineFeed ||
    code === Ch.CarriageReturn ||
    code === Ch.NonBreakingSpace
  )
}

const ERROR_LITERALS = ['#NULL!', '#DIV/0!', '#VALUE!', '#REF!', '#NAME?', '#NUM!', '#N/A', '#ERROR!', '#CIRC!', '#SPILL!', '#CALC!', '#GETTING_DATA']

/** A column reference `$AB` at `pos`: returns [end, col, absolute] or undefined. */
function scanColumn(text: string, pos: number): [number, number, boolean] | undefined {
  let i = pos
  const absolute = text.charCodeAt(i) === Ch.Dollar
  if (absolute) i++
  const start = i
  while (i < text.length && i - start < 4 && isLetter(text.charCodeAt(i))) i++
  const length = i - start
  if (length === 0 || length > 3) return undefined
  const col = lettersToColumn(text.slice(start, i))
  if (col < 0) return undefined
  return [i, col, absolute]
}

/** A row reference `$12` at `pos`: returns [end, row, absolute] or undefined. */
function scanRow(text: string, pos: number): [number, number, boolean] | undefined {
  let i = pos
  const absolute = text.charCodeAt(i) === Ch.Dollar
  if (absolute) i++
  const start = i
  while (i < text.length && isDigit(text.charCodeAt(i))) i++
  if (i === start || i - start > 7) return undefined
  // Leading zeros are allowed, as Excel reads `A01` as A1; row 0 does not exist.
  const row = Number(text.slice(start, i)) - 1
  if (row < 0 || row > MAX_ROW) return undefined
  return [i, row, absolute]
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  const length = text.length
  let pos = 0
  let space = false
  while (pos < length) {
    const code = text.charCodeAt(pos)
    if (isSpace(code)) {
      space = true
      pos++
      continue
    }
    const previous = tokens.length > 0 ? tokens[tokens.length - 1] : undefined
    // A reference-like token right after a sheet prefix may not be anything else.
    const token = scanReference(text, pos, space) ?? scanOther(text, pos, space, previous)
    tokens.push(token)
    if (token.type === TokenType.Invalid) return tokens
    pos = token.end
    space = false
  }
  tokens.push(new Token(TokenType.End, '', length, space, length))
  return tokens
}

function make(type: TokenType, text: string, start: number, end: number, space: boolean): Token {
  return new Token(type, text, start, space, end)
}

function scanReference(text: string, pos: number, space: boolean): Token | undefined {
  const code = text.charCodeAt(pos)
  if (code !== Ch.Dollar && !isLetter(code) && !isDigit(code)) return undefined
  if (isDigit(code) || code === Ch.Dollar) {
    // Rows `2:5` (before numbers, which they start like).
    const first = scanRow(text, pos)
    if (first && text.charCodeAt(first[0]) === Ch.Colon) {
      const second = scanRow(text, first[0] + 1)
      if (second && !isNameChar(text.charCodeAt(second[0])) && text.charCodeAt(second[0]) !== Ch.OpenParen) {
        const token = make(TokenType.Rows, text.slice(pos, second[0]), pos, second[0], space)
        token.row1 = first[1]
        token.rowAbs1 = first[2]
        token.row2 = second[1]
        token.rowAbs2 = second[2]
        return token
      }
    }
    if (isDigit(code)) return undefined
  }
  const column = scanColumn(text, pos)
  if (!column) return undefined
  const [afterColumn, col, colAbs] = column
  const next = text.charCodeAt(afterColumn)
  if (next === Ch.Colon) {
    // Columns `A:C`
    const second = scanColumn(text, afterColumn + 1)
    if (second) {
      const after = text.charCodeAt(second[0])
      if (!isNameChar(after) && after !== Ch.Dollar && after !== Ch.OpenParen && !isDigit(after)) {
        const token = make(TokenType.Columns, text.slice(pos, second[0]), pos, second[0], space)
        token.col1 = col
        token.colAbs1 = colAbs
        token.col2 = second[1]
        token.colAbs2 = second[2]
        return token
      }
    }
  }
  if (next === Ch.Dollar || isDigit(next)) {
    const row = scanRow(text, afterColumn)
    if (row) {
      const after = text.charCodeAt(row[0])
      if (!isNameChar(after) && after !== Ch.OpenParen && after !== Ch.Bang) {
        const token = make(TokenType.Cell, text.slice(pos, row[0]), pos, row[0], space)
        token.row1 = row[1]
        token.col1 = col
        token.rowAbs1 = row[2]
        token.colAbs1 = colAbs
        return token
      }
    }
  }
  return undefined
}

/**
 * Another workbook's sheet written unquoted: `[1]Sheet1!`, `[Budget.xlsx]Q1!`, or `[1]!` before a name
 * of that workbook. Undefined for any other text starting with `[`.
 */
function scanExternalSheet(text: string, pos: number, space: boolean): Token | undefined {
  const close = text.indexOf(']', pos + 1)
  if (close <= pos + 1) return undefined
  for (let i = pos + 1; i < close; i++) if (text.charCodeAt(i) === Ch.OpenBracket) return undefined
  let i = close + 1
  while (i < text.length && isNameChar(text.charCodeAt(i))) i++
  if (text.charCodeAt(i) !== Ch.Bang) return undefined
  return make(TokenType.Sheet, text.slice(pos, i), pos, i + 1, space)
}

function scanOther(text: string, pos: number, space: boolean, previous: Token | undefined): Token {
  const code = text.charCodeAt(pos)
  const length = text.length
  if (code === Ch.OpenBracket) {
    const external = scanExternalSheet(text, pos, space)
    if (external !== undefined) return external
  }
  if (isDigit(code) || (code === Ch.Dot && isDigit(text.charCodeAt(pos + 1)))) {
    let i = pos
    while (isDigit(text.charCodeAt(i))) i++
    if (text.charCodeAt(i) === Ch.Dot) {
      i++
      while (isDigit(text.charCodeAt(i))) i++
    }
    const e = text.charCodeAt(i)
    if (e === Ch.UpperE || e === Ch.LowerE) {
      let j = i + 1
      const sign = text.charCodeAt(j)
      if (sign === Ch.Plus || sign === Ch.Minus) j++
      if (isDigit(text.charCodeAt(j))) {
        while (isDigit(text.charCodeAt(j))) j++
        i = j
      }
    }
    // A sheet named like a number (`'2024'!A1` is always quoted), so digits followed by letters are invalid.
    if (isNameStart(text.charCodeAt(i)) && text.charCodeAt(i) !== Ch.Backslash) {
      return make(TokenType.Invalid, text.slice(pos), pos, length, space)
    }
    return make(TokenType.Number, text.slice(pos, i), pos, i, space)
  }
  switch (code) {
    case Ch.Quote: {
      let i = pos + 1
      let value = ''
      while (true) {
        const end = text.indexOf('"', i)
        if (end < 0) return make(TokenType.Invalid, text.slice(pos), pos, length, space)
        value += text.slice(i, end)
        if (text.charCodeAt(end + 1) === Ch.Quote) {
          value += '"'
          i = end + 2
          continue
        }
        return make(TokenType.String, value, pos, end + 1, space)
      }
    }
    case Ch.Apostrophe: {
      // Quoted sheet name: 'My Sheet'!  (an apostrophe inside is doubled)
      let i = pos + 1
      let name = ''
      while (true) {
        const end = text.indexOf("'", i)
        if (end < 0) return make(TokenType.Invalid, text.slice(pos), pos, length, space)
        name += text.slice(i, end)
        if (text.charCodeAt(end + 1) === Ch.Apostrophe) {
          name += "'"
          i = end + 2
          continue
        }
        if (text.charCodeAt(end + 1) !== Ch.Bang || name === '') {
          return make(TokenType.Invalid, text.slice(pos), pos, length, space)
        }
        return make(TokenType.Sheet, name, pos, end + 2, space)
      }
    }
    case Ch.Hash: {
      if (
        previous &&
        !space &&
        (previous.type === TokenType.Cell || previous.type === TokenType.Name || previous.type === TokenType.CloseParen)
      ) {
        return make(TokenType.Spill, '#', pos, pos + 1, space)
      }
      const upper = text.slice(pos, pos + 14).toUpperCase()
      for (const literal of ERROR_LITERALS) {
        if (upper.startsWith(literal)) return make(TokenType.Error, literal, pos, pos + literal.length, space)
      }
      return make(TokenType.Invalid, text.slice(pos), pos, length, space)
    }
    case Ch.OpenBracket: {
      // A table reference without a table name (`[@Col]`, `[#Totals]`, `[[#This Row],[Col]]`) where an
      // operand starts; other bracketed text is not a table reference.
      const next = text.charCodeAt(pos + 1)
      if ((next === Ch.At || next === Ch.Hash || next === Ch.OpenBracket) && startsOperand(previous)) {
        return structuredToken(text, pos, pos, space)
      }
      break
    }
    case Ch.OpenParen:
      return make(TokenType.OpenParen, '(', pos, pos + 1, space)
    case Ch.CloseParen:
      return make(TokenType.CloseParen, ')', pos, pos + 1, space)
    case Ch.OpenBrace:
      return make(TokenType.OpenBrace, '{', pos, pos + 1, space)
    case Ch.CloseBrace:
      return make(TokenType.CloseBrace, '}', pos, pos + 1, space)
    case Ch.Comma:
      return make(TokenType.Comma, ',', pos, pos + 1, space)
    case Ch.Semicolon:
      return make(TokenType.Semicolon, ';', pos, pos + 1, space)
    case Ch.Less: {
      const next = text.charCodeAt(pos + 1)
      if (next === Ch.Equals) return make(TokenType.Operator, '<=', pos, pos + 2, space)
      if (next === Ch.Greater) return make(TokenType.Operator, '<>', pos, pos + 2, space)
      return make(TokenType.Operator, '<', pos, pos + 1, space)
    }
    case Ch.Greater:
      if (text.charCodeAt(pos + 1) === Ch.Equals) return make(TokenType.Operator, '>=', pos, pos + 2, space)
      return make(TokenType.Operator, '>', pos, pos + 1, space)
    case Ch.Plus:
    case Ch.Minus:
    case Ch.Star:
    case Ch.Slash:
    case Ch.Caret:
    case Ch.Ampersand:
    case Ch.Equals:
    case Ch.Percent:
    case Ch.Colon:
    case Ch.At:
      return make(TokenType.Operator, text[pos], pos, pos + 1, space)
    default:
      break
  }
  if (isNameStart(code)) {
    let i = pos + 1
    while (i < length && isNameChar(text.charCodeAt(i))) i++
    const name = text.slice(pos, i)
    const after = text.charCodeAt(i)
    if (after === Ch.Bang) return make(TokenType.Sheet, name, pos, i + 1, space)
    if (after === Ch.OpenParen) return make(TokenType.Function, name, pos, i, space)
    if (after === Ch.OpenBracket) return structuredToken(text, pos, i, space)
    return make(TokenType.Name, name, pos, i, space)
  }
  return make(TokenType.Invalid, text.slice(pos), pos, length, space)
}

/** Whether a token may be followed by the start of an operand (or there is none: the formula's start). */
function startsOperand(previous: Token | undefined): boolean {
  if (previous === undefined) return true
  switch (previous.type) {
    case TokenType.Operator:
    case TokenType.OpenParen:
    case TokenType.OpenBrace:
    case TokenType.Comma:
    case TokenType.Semicolon:
      return true
    default:
      return false
  }
}

/** The structured reference whose table name spans `pos`..`open` and whose brackets open at `open`. */
function structuredToken(text: string, pos: number, open: number, space: boolean): Token {
  const end = scanBrackets(text, open)
  if (end < 0) return make(TokenType.Invalid, text.slice(pos), pos, text.length, space)
  return make(TokenType.Structured, text.slice(pos, end), pos, end, space)
}
