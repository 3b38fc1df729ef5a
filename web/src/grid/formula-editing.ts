import type { CellPosition, CellRange } from './address'
import { columnLabel, MAX_COLUMNS, MAX_ROWS, parseColumnLabel, rangeAddress } from './address'

export function isFormulaText(text: string): boolean {
  return text.startsWith('=')
}

/** A span of the formula text, [start, end) in UTF-16 units. */
export interface TextSpan {
  start: number
  end: number
}

/** What a formula's text is made of, as far as editing cares: string literals, references, the rest. */
export interface FormulaReference {
  span: TextSpan
  /** the sheet name as written, without quotes; null for the edited sheet */
  sheet: string | null
  range: CellRange
}

const REF_PART = /\$?([A-Za-z]{1,3})\$?([0-9]{1,7})/y

/**
 * The cell and range references in a formula with their positions, skipping string literals and
 * function names (LOG10( is a function, LOG10 alone a cell). Used to colour references while editing.
 */
export function formulaReferences(text: string): FormulaReference[] {
  const refs: FormulaReference[] = []
  let i = text.startsWith('=') ? 1 : 0
  while (i < text.length) {
    const ch = text[i]
    if (ch === '"') {
      i = skipString(text, i)
      continue
    }
    if (isIdentifierChar(ch) || ch === '$' || ch === "'") {
      const prev = i > 0 ? text[i - 1] : ''
      const match = matchReferenceAt(text, i)
      if (match && !isIdentifierChar(prev) && prev !== '.') {
        refs.push(match.ref)
        i = match.end
        continue
      }
      // skip the whole word so a reference-looking tail of it is not taken
      if (ch === "'") {
        const close = text.indexOf("'", i + 1)
        i = close < 0 ? text.length : close + 1
      } else {
        while (i < text.length && (isIdentifierChar(text[i]) || text[i] === '$')) i++
      }
      continue
    }
    i++
  }
  return refs
}

function isIdentifierChar(ch: string): boolean {
  return /[A-Za-z0-9_.]/.test(ch)
}

function skipString(text: string, start: number): number {
  let i = start + 1
  while (i < text.length) {
    if (text[i] === '"') {
      if (text[i + 1] === '"') i += 2
      else return i + 1
    } else i++
  }
  return i
}

function matchCell(text: string, at: number): { pos: CellPosition; end: number } | null {
  REF_PART.lastIndex = at
  const m = REF_PART.exec(text)
  if (!m) return null
  const col = parseColumnLabel(m[1])
  const row = Number(m[2]) - 1
  if (col < 0 || row < 0 || row >= MAX_ROWS) return null
  return { pos: { col, row }, end: at + m[0].length }
}

function matchReferenceAt(text: string, start: number): { ref: FormulaReference; end: number } | null {
  let i = start
  let sheet: string | null = null
  // an optional sheet prefix: Sheet2! or 'My Sheet'!
  const quoted = /^'((?:[^']|'')+)'!/.exec(text.slice(i))
  const plain = /^([A-Za-z_][A-Za-z0-9_.]*)!/.exec(text.slice(i))
  if (quoted) {
    sheet = quoted[1].replace(/''/g, "'")
    i += quoted[0].length
  } else if (plain) {
    sheet = plain[1]
    i += plain[0].length
  }
  const first = matchCell(text, i)
  if (!first) return null
  let end = first.end
  let range: CellRange = { startCol: first.pos.col, startRow: first.pos.row, endCol: first.pos.col, endRow: first.pos.row }
  if (text[end] === ':') {
    const second = matchCell(text, end + 1)
    if (second) {
      end = second.end
      range = {
        startCol: Math.min(first.pos.col, second.pos.col),
        startRow: Math.min(first.pos.row, second.pos.row),
        endCol: Math.max(first.pos.col, second.pos.col),
        endRow: Math.max(first.pos.row, second.pos.row),
      }
    }
  }
  const next = text[end] ?? ''
  if (isIdentifierChar(next) || next === '(' || next === '!') return null
  return { ref: { span: { start, end }, sheet, range }, end }
}

/** Whether the caret sits inside a string literal of the formula. */
function insideString(text: string, caret: number): boolean {
  let inside = false
  for (let i = 0; i < caret; i++) if (text[i] === '"') inside = !inside
  return inside
}

const BEFORE_REFERENCE = new Set(['=', '(', ',', ';', '+', '-', '*', '/', '^', '&', '<', '>', ':'])
const AFTER_REFERENCE = new Set(['', ')', ',', ';', '+', '-', '*', '/', '^', '&', '<', '>', '=', ' '])

/**
 * Whether an arrow key or a click should insert a reference at the caret, as in Excel's point mode:
 * the text is a formula, the caret is not in a string, the text before it ends in an operator,
 * an opening parenthesis, a comma or the leading '=', and nothing but an operator or a closing
 * parenthesis follows it.
 */
export function canInsertReference(text: string, caret: number): boolean {
  if (!isFormulaText(text) || caret < 1 || insideString(text, caret)) return false
  let before = caret - 1
  while (before > 0 && text[before] === ' ') before--
  if (!BEFORE_REFERENCE.has(text[before])) return false
  let after = caret
  while (after < text.length && text[after] === ' ') after++
  return AFTER_REFERENCE.has(text[after] ?? '')
}

/** A reference being pointed at: where it sits in the text and the two corners it spans. */
export interface PointingState {
  span: TextSpan
  anchor: CellPosition
  focus: CellPosition
}

export interface EditText {
  text: string
  caret: number
}

/** The reference text for the pointed-at corners, prefixed with the sheet when pointing at another sheet. */
export function pointedReferenceText(anchor: CellPosition, focus: CellPosition, sheetPrefix = ''): string {
  const range: CellRange = {
    startCol: Math.min(anchor.col, focus.col),
    startRow: Math.min(anchor.row, focus.row),
    endCol: Math.max(anchor.col, focus.col),
    endRow: Math.max(anchor.row, focus.row),
  }
  return sheetPrefix + rangeAddress(range)
}

/** Writes the reference for `anchor`…`focus` over `span` (an empty span inserts) and puts the caret after it. */
export function writePointedReference(
  text: string,
  span: TextSpan,
  anchor: CellPosition,
  focus: CellPosition,
  sheetPrefix = '',
): EditText & { pointing: PointingState } {
  const reference = pointedReferenceText(anchor, focus, sheetPrefix)
  const next = text.slice(0, span.start) + reference + text.slice(span.end)
  const end = span.start + reference.length
  return { text: next, caret: end, pointing: { span: { start: span.start, end }, anchor, focus } }
}

/** The quoted sheet prefix of a reference to another sheet: Sheet2! or 'My Sheet'!. */
export function sheetPrefix(sheetName: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(sheetName) && !/^[A-Za-z]{1,3}[0-9]+$/.test(sheetName)
    ? `${sheetName}!`
    : `'${sheetName.replace(/'/g, "''")}'!`
}

/**
 * The formula as it is committed: unclosed parentheses (outside strings) are closed, as the
 * spec asks; anything that is not a formula is returned as typed.
 */
export function closeParentheses(text: string): string {
  if (!isFormulaText(text)) return text
  let depth = 0
  let inString = false
  for (const ch of text) {
    if (ch === '"') inString = !inString
    else if (!inString && ch === '(') depth++
    else if (!inString && ch === ')' && depth > 0) depth--
  }
  return depth > 0 ? text + ')'.repeat(depth) : text
}

/**
 * The function-name prefix being typed at the caret ('=SU' → 'SU'), or null. A prefix starts
 * after an operator, a parenthesis, a comma or the leading '=', begins with a letter, and is
 * not inside a string.
 */
export function functionPrefixAt(text: string, caret: number): { start: number; prefix: string } | null {
  if (!isFormulaText(text) || insideString(text, caret)) return null
  let start = caret
  while (start > 1 && /[A-Za-z0-9_.]/.test(text[start - 1])) start--
  if (start === caret) return null
  const prefix = text.slice(start, caret)
  if (!/^[A-Za-z]/.test(prefix)) return null
  const before = text[start - 1]
  if (!BEFORE_REFERENCE.has(before) && before !== ' ') return null
  if (before === ':') return null
  if (/[A-Za-z0-9_.(]/.test(text[caret] ?? '')) return null
  return { start, prefix }
}

/**
 * Words typed where a function belongs that describe it rather than name it ('=monthly payment'):
 * two words or more of letters only, from the formula's start, an operator, a parenthesis or a
 * comma up to the caret. Null for anything else, such as '=A1 SU' or a single word.
 */
export function describedPhraseAt(text: string, caret: number): { start: number; phrase: string } | null {
  if (!isFormulaText(text) || insideString(text, caret)) return null
  if (/[A-Za-z0-9_.(]/.test(text[caret] ?? '')) return null
  let start = caret
  while (start > 1 && /[A-Za-z' ]/.test(text[start - 1])) start--
  if (!BEFORE_REFERENCE.has(text[start - 1]) || text[start - 1] === ':') return null
  const phrase = text.slice(start, caret).trim()
  if (!/^[A-Za-z']+( +[A-Za-z']+)+$/.test(phrase)) return null
  while (text[start] === ' ') start++
  return { start, phrase }
}

/** Replaces the typed prefix (or a describing phrase) with 'NAME(' and puts the caret inside the parenthesis. */
export function completeFunctionName(text: string, caret: number, name: string): EditText {
  const found = describedPhraseAt(text, caret) ?? functionPrefixAt(text, caret)
  const start = found ? found.start : caret
  const inserted = `${name}(`
  return { text: text.slice(0, start) + inserted + text.slice(caret), caret: start + inserted.length }
}

/** Catalogue names that start with the prefix, case-insensitively, exact-length matches first. */
export function matchFunctions<T extends { name: string }>(catalogue: readonly T[], prefix: string, limit = 8): T[] {
  const upper = prefix.toUpperCase()
  return catalogue
    .filter((f) => f.name.startsWith(upper))
    .sort((a, b) => a.name.length - b.name.length || a.name.localeCompare(b.name))
    .slice(0, limit)
}

/**
 * The formula as if copied `rows` down and `cols` right: relative parts of references move,
 * `$`-anchored parts stay, and a reference pushed off the grid becomes #REF!.
 */
export function translateFormula(formula: string, rows: number, cols: number): string {
  if (!isFormulaText(formula) || (rows === 0 && cols === 0)) return formula
  let out = ''
  let last = 0
  for (const ref of formulaReferences(formula)) {
    const original = formula.slice(ref.span.start, ref.span.end)
    const bang = original.lastIndexOf('!')
    const prefix = bang >= 0 ? original.slice(0, bang + 1) : ''
    const body = bang >= 0 ? original.slice(bang + 1) : original
    const moved = body.split(':').map((part) => moveCellText(part, rows, cols))
    out += formula.slice(last, ref.span.start)
    out += moved.some((m) => m === null) ? '#REF!' : prefix + moved.join(':')
    last = ref.span.end
  }
  return out + formula.slice(last)
}

function moveCellText(part: string, rows: number, cols: number): string | null {
  const m = /^(\$?)([A-Za-z]{1,3})(\$?)([0-9]+)$/.exec(part)
  if (!m) return part
  const col = m[1] ? parseColumnLabel(m[2]) : parseColumnLabel(m[2]) + cols
  const row = m[3] ? Number(m[4]) - 1 : Number(m[4]) - 1 + rows
  if (col < 0 || row < 0 || col >= MAX_COLUMNS || row >= MAX_ROWS) return null
  return `${m[1]}${columnLabel(col)}${m[3]}${row + 1}`
}

/**
 * The function call the caret is inside and which argument it is on ('=ROUND(A1, |' → ROUND, 1),
 * for the syntax hint under the editor; null outside any call or inside a string.
 */
export function enclosingFunction(text: string, caret: number): { name: string; argument: number } | null {
  if (!isFormulaText(text) || insideString(text, caret)) return null
  const stack: { name: string; argument: number }[] = []
  let inString = false
  for (let i = 1; i < caret; i++) {
    const ch = text[i]
    if (ch === '"') inString = !inString
    if (inString) continue
    if (ch === '(') {
      const name = /([A-Za-z_][A-Za-z0-9_.]*)$/.exec(text.slice(0, i))?.[1] ?? ''
      stack.push({ name: name.toUpperCase(), argument: 0 })
    } else if (ch === ')') stack.pop()
    else if ((ch === ',' || ch === ';') && stack.length > 0) stack[stack.length - 1].argument++
    else if (ch === '{') stack.push({ name: '', argument: 0 })
    else if (ch === '}') stack.pop()
  }
  for (let i = stack.length - 1; i >= 0; i--) if (stack[i].name !== '') return stack[i]
  return null
}

/** Splits a catalogue syntax such as 'ROUND(number, num_digits)' into its name and arguments. */
export function syntaxParts(syntax: string): { name: string; args: string[] } {
  const open = syntax.indexOf('(')
  if (open < 0) return { name: syntax, args: [] }
  const inner = syntax.slice(open + 1, syntax.lastIndexOf(')') > open ? syntax.lastIndexOf(')') : undefined)
  const args: string[] = []
  let depth = 0
  let current = ''
  for (const ch of inner) {
    if (ch === '[' || ch === '(') depth++
    if (ch === ']' || ch === ')') depth--
    if (ch === ',' && depth === 0) {
      args.push(current.trim())
      current = ''
    } else current += ch
  }
  if (current.trim() !== '') args.push(current.trim())
  return { name: syntax.slice(0, open), args }
}
