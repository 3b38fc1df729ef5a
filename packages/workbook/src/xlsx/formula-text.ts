/**
 * Formulas as stored in xlsx files differ from what Excel displays: functions newer than Excel 2007 are
 * written `_xlfn.XLOOKUP`, dynamic-array ones `_xlfn._xlws.SORT`, LAMBDA parameters `_xlpm.x`, and the
 * implicit intersection operator `@` is stored as the function `_xlfn.SINGLE`. This turns the stored
 * text into the displayed one.
 */

const PREFIX = /^_xl(?:fn|ws|pm)\./i
const SINGLE = /^_xlfn\.SINGLE\(/i

/** The formula as Excel displays it, without a leading '='. String literals and sheet names are left as they are. */
export function normalizeFormula(stored: string): string {
  const text = stored.startsWith('=') ? stored.slice(1) : stored
  let out = ''
  let i = 0
  while (i < text.length) {
    const ch = text[i]
    if (ch === '"' || ch === "'") {
      const end = closingQuote(text, i)
      out += text.slice(i, end)
      i = end
      continue
    }
    if (ch === '_' && !isNameChar(out[out.length - 1])) {
      const rest = text.slice(i, i + 40)
      if (SINGLE.test(rest)) {
        out += '@('
        i += '_xlfn.SINGLE('.length
        continue
      }
      const prefix = PREFIX.exec(rest)
      if (prefix) {
        i += prefix[0].length
        continue
      }
    }
    out += ch
    i++
  }
  return out
}

/** The index just past the quote that closes the one at `start` (a doubled quote is an escaped one). */
function closingQuote(text: string, start: number): number {
  const quote = text[start]
  let i = start + 1
  while (i < text.length) {
    if (text[i] === quote) {
      if (text[i + 1] === quote) {
        i += 2
        continue
      }
      return i + 1
    }
    i++
  }
  return text.length
}

function isNameChar(ch: string | undefined): boolean {
  return ch !== undefined && /[\p{L}\p{N}_.\\]/u.test(ch)
}
