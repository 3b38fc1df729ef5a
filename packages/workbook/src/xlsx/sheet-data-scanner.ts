/**
 * The cells of a sheet part read without a general XML parser. An import's second pass over a sheet
 * wants only what its `sheetData` holds: rows and cells, each cell's attributes, value, formula and
 * inline text. A general parser makes an event and an attribute object for every tag of a million
 * cells; this scanner finds the tags of a cell with indexOf and reads the five attributes a cell may
 * carry by hand, which makes the pass several times quicker. Everything outside `sheetData` was read
 * (and checked) by the general parser in the layout pass, and is skipped here.
 *
 * What it hands over is what the general parser's events give the sheet reader: element names without
 * their namespace prefix, text with entities decoded and line ends normalised, CDATA taken as text.
 * A cell is handed over once its closing tag has arrived: a cell cut by a chunk's end waits for the
 * next chunk. Malformed XML inside `sheetData` (a cell left open, closing tags that do not match, an
 * entity XML does not define) is refused with an Error naming what was wrong.
 */

/** A cell's parts as its XML states them. */
export interface ScannedCell {
  /** The attributes of `<c>`: reference, type, style, value metadata, cell metadata. */
  r: string | undefined
  t: string | undefined
  s: string | undefined
  vm: string | undefined
  cm: string | undefined
  /** The text of its last `<v>`, '' for an empty one; null without one. */
  value: string | null
  /** Its `<t>` texts (outside phonetic runs) joined; null without any. */
  inline: string | null
  /** The text of its `<f>`, '' for an empty one; null without one. */
  formula: string | null
  /** The attributes of its `<f>`, when it has one. */
  formulaAttributes: Record<string, string> | null
}

export interface SheetDataHandler {
  /** A `<row>` opened, with its `r` attribute if it has one. */
  row(r: string | undefined): void
  cell(cell: ScannedCell): void
}

const LT = 60 // <
const GT = 62 // >
const SLASH = 47 // /
const BANG = 33 // !
const QUESTION = 63 // ?
const QUOTE = 34 // "
const APOSTROPHE = 39 // '
const EQUALS = 61 // =
const COLON = 58 // :

const isSpace = (code: number) => code === 32 || code === 10 || code === 9 || code === 13

/** Thrown inside a scan when the buffer ends before what is being read does: read again with more. */
const INCOMPLETE = Symbol('incomplete')

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** Line ends as XML reads them: \r\n and a lone \r become \n. */
const normalizeLineEnds = (text: string) => (text.indexOf('\r') < 0 ? text : text.replace(/\r\n?/g, '\n'))

/** Text as XML means it: line ends normalised to \n, the predefined entities and character references decoded. */
export function decodeXmlText(raw: string): string {
  if (raw.indexOf('&') < 0 && raw.indexOf('\r') < 0) return raw
  const text = normalizeLineEnds(raw)
  return text.replace(/&([^;&<]*);|&/g, (whole, body: string | undefined) => {
    if (body === undefined) throw new Error('a bare & in text')
    const named = NAMED_ENTITIES[body]
    if (named !== undefined) return named
    const code = body.startsWith('#x') ? parseInt(body.slice(2), 16) : body.startsWith('#') && /^#\d+$/.test(body) ? parseInt(body.slice(1), 10) : NaN
    if (body.startsWith('#x') && !/^#x[0-9A-Fa-f]+$/.test(body)) throw new Error(`a malformed character reference ${whole}`)
    if (Number.isNaN(code)) throw new Error(`undefined entity ${whole}`)
    if (!isXmlChar(code)) throw new Error(`a character reference to a character XML cannot hold: ${whole}`)
    return String.fromCodePoint(code)
  })
}

function isXmlChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff)
}

/** Attribute values are normalised as XML says: each whitespace character becomes a space. */
function decodeAttribute(raw: string): string {
  let plain = true
  for (let i = 0; i < raw.length && plain; i++) {
    const code = raw.charCodeAt(i)
    if (code === 38 /* & */ || code === 9 || code === 10 || code === 13) plain = false
  }
  if (plain) return raw
  return decodeXmlText(raw.replace(/\r\n?/g, ' ').replace(/[\t\n]/g, ' '))
}

export class SheetDataScanner {
  private state: 'before' | 'inside' | 'after' = 'before'
  private buffer = ''
  private at = 0

  constructor(private readonly handler: SheetDataHandler) {}

  write(chunk: string): void {
    if (this.state === 'after') return
    this.buffer = this.at < this.buffer.length ? this.buffer.slice(this.at) + chunk : chunk
    this.at = 0
    if (this.state === 'before') this.findSheetData()
    if (this.state === 'inside') this.scanInside()
  }

  /** The part has ended: anything of `sheetData` left unread is a damaged part. */
  end(): void {
    if (this.state === 'inside') {
      const rest = this.buffer.slice(this.at).trim()
      throw new Error(rest === '' ? 'the sheet data is not closed' : `the sheet data ends inside ${JSON.stringify(rest.slice(0, 40))}`)
    }
  }

  private findSheetData(): void {
    const text = this.buffer
    for (;;) {
      const open = text.indexOf('<', this.at)
      if (open < 0) {
        this.at = text.length
        return
      }
      const close = text.indexOf('>', open)
      if (close < 0) {
        this.at = open
        return
      }
      const name = localNameAt(text, open + 1, close)
      this.at = close + 1
      if (name === 'sheetData') {
        this.state = text.charCodeAt(close - 1) === SLASH ? 'after' : 'inside'
        return
      }
    }
  }

  private scanInside(): void {
    const text = this.buffer
    const length = text.length
    while (this.at < length) {
      const open = text.indexOf('<', this.at)
      if (open < 0) {
        this.at = length
        return
      }
      try {
        const next = this.readItem(text, open)
        if (next < 0) {
          this.state = 'after'
          this.at = length
          return
        }
        this.at = next
      } catch (error) {
        if (error !== INCOMPLETE) throw error
        this.at = open
        return
      }
    }
  }

  /** Reads what starts at `open` (a '<' inside sheetData); answers where the next item starts, or -1 at the end of sheetData. */
  private readItem(text: string, open: number): number {
    const first = text.charCodeAt(open + 1)
    if (Number.isNaN(first)) throw INCOMPLETE
    if (first === BANG || first === QUESTION) return skipMarkup(text, open)
    const close = tagEnd(text, open)
    if (first === SLASH) {
      const name = localNameAt(text, open + 2, close)
      if (name === 'sheetData') return -1
      if (name === 'row') return close + 1
      throw new Error(`an unexpected closing tag </${name}> in the sheet data`)
    }
    const selfClosing = text.charCodeAt(close - 1) === SLASH
    const nameEnd = nameEndAt(text, open + 1, close)
    const name = localName(text, open + 1, nameEnd)
    if (name === 'row') {
      this.handler.row(attributeOf(text, nameEnd, close - (selfClosing ? 1 : 0), 'r'))
      return close + 1
    }
    if (name === 'c') return this.readCell(text, nameEnd, close, selfClosing)
    // Anything else a writer puts in sheetData (an extension element) is passed over whole.
    return selfClosing ? close + 1 : skipElement(text, close + 1, name)
  }

  /** Reads a cell whose start tag's attributes run from `from` to `close` (its '>'); answers the index after it. */
  private readCell(text: string, from: number, close: number, selfClosing: boolean): number {
    const cell: ScannedCell = { r: undefined, t: undefined, s: undefined, vm: undefined, cm: undefined, value: null, inline: null, formula: null, formulaAttributes: null }
    readCellAttributes(text, from, close - (selfClosing ? 1 : 0), cell)
    if (selfClosing) {
      this.handler.cell(cell)
      return close + 1
    }
    const quick = readPlainContent(text, close + 1, cell)
    if (quick >= 0) {
      this.handler.cell(cell)
      return quick
    }
    // The cell's content, tag by tag, as the sheet reader takes a general parser's events: <v>, <f>
    // and <t> (outside phonetic runs) collect the text up to their closing tag; other elements only nest.
    const open: string[] = []
    let collecting: 'v' | 'f' | 't' | null = null
    let collected = ''
    let phonetic = 0
    let at = close + 1
    for (;;) {
      const tag = text.indexOf('<', at)
      if (tag < 0) throw INCOMPLETE
      if (collecting !== null && tag > at) collected += decodeXmlText(text.slice(at, tag))
      const first = text.charCodeAt(tag + 1)
      if (Number.isNaN(first)) throw INCOMPLETE
      if (first === BANG && text.startsWith('<![CDATA[', tag)) {
        const end = text.indexOf(']]>', tag + 9)
        if (end < 0) throw INCOMPLETE
        if (collecting !== null) collected += normalizeLineEnds(text.slice(tag + 9, end))
        at = end + 3
        continue
      }
      if (first === BANG || first === QUESTION) {
        at = skipMarkup(text, tag)
        continue
      }
      const end = tagEnd(text, tag)
      at = end + 1
      if (first === SLASH) {
        const name = localNameAt(text, tag + 2, end)
        if (open.length === 0) {
          if (name !== 'c') throw new Error(`a closing tag </${name}> where the cell ${cell.r ?? ''} should close`)
          this.handler.cell(cell)
          return at
        }
        const expected = open.pop()
        if (name !== expected) throw new Error(`a closing tag </${name}> where </${expected}> should be`)
        if (name === 'v' || name === 'f' || name === 't') {
          if (collecting === name) {
            if (name === 'v') cell.value = collected
            else if (name === 'f') cell.formula = collected
            else cell.inline = (cell.inline ?? '') + collected
          }
          collecting = null
        } else if (name === 'rPh') phonetic--
        continue
      }
      const selfClosed = text.charCodeAt(end - 1) === SLASH
      const nameEnd = nameEndAt(text, tag + 1, end)
      const name = localName(text, tag + 1, nameEnd)
      if (name === 'f') cell.formulaAttributes = allAttributes(text, nameEnd, end - (selfClosed ? 1 : 0))
      if (name === 'v' || name === 'f' || (name === 't' && phonetic === 0)) {
        if (selfClosed) {
          if (name === 'v') cell.value = ''
          else if (name === 'f') cell.formula = ''
          else cell.inline = cell.inline ?? ''
          continue
        }
        collecting = name
        collected = ''
      } else if (name === 'rPh' && !selfClosed) phonetic++
      if (!selfClosed) open.push(name)
    }
  }
}

/**
 * The content most cells have, read without the general loop: an optional `<f>` (with or without
 * attributes, or empty), an optional `<v>`, then `</c>`, all without prefixes or markup between. Fills
 * the cell and answers the index after `</c>`; -1 (the cell untouched) for anything else, which the
 * general loop then reads.
 */
function readPlainContent(text: string, from: number, cell: ScannedCell): number {
  let at = from
  let formula: string | null = null
  let formulaAttributes: Record<string, string> | null = null
  if (text.startsWith('<f', at)) {
    const next = text.charCodeAt(at + 2)
    if (next !== GT && next !== SLASH && !isSpace(next)) return -1
    const end = text.indexOf('>', at + 2)
    if (end < 0) return -1
    const attributesEnd = text.charCodeAt(end - 1) === SLASH ? end - 1 : end
    // A '>' inside an attribute's quotes, or a '<' before the '>', is the general loop's to read.
    for (let i = at + 2; i < attributesEnd; i++) {
      const code = text.charCodeAt(i)
      if (code === LT || code === QUOTE || code === APOSTROPHE) {
        if (code === LT) return -1
        const close = text.indexOf(code === QUOTE ? '"' : "'", i + 1)
        if (close < 0 || close > end) return -1
        i = close
      }
    }
    formulaAttributes = allAttributes(text, at + 2, attributesEnd)
    if (attributesEnd === end - 1) {
      formula = ''
      at = end + 1
    } else {
      const closing = text.indexOf('<', end + 1)
      if (closing < 0 || !text.startsWith('</f>', closing)) return -1
      formula = decodeXmlText(text.slice(end + 1, closing))
      at = closing + 4
    }
  }
  let value: string | null = null
  if (text.startsWith('<v>', at)) {
    const closing = text.indexOf('<', at + 3)
    if (closing < 0 || !text.startsWith('</v>', closing)) return -1
    value = decodeXmlText(text.slice(at + 3, closing))
    at = closing + 4
  } else if (text.startsWith('<v/>', at)) {
    value = ''
    at += 4
  }
  if (!text.startsWith('</c>', at)) return -1
  cell.formula = formula
  cell.formulaAttributes = formulaAttributes
  cell.value = value
  return at + 4
}

/** The index of the '>' that ends the tag opening at `open`, quotes respected (attribute values may hold '>'). */
function tagEnd(text: string, open: number): number {
  let at = open + 1
  for (;;) {
    const close = text.indexOf('>', at)
    if (close < 0) throw INCOMPLETE
    let quote = -1
    for (let i = at; i < close; i++) {
      const code = text.charCodeAt(i)
      if (code === QUOTE || code === APOSTROPHE) {
        quote = i
        break
      }
      if (code === LT) throw new Error('a tag is not closed')
    }
    if (quote < 0) return close
    const end = text.indexOf(text.charCodeAt(quote) === QUOTE ? '"' : "'", quote + 1)
    if (end < 0) throw INCOMPLETE
    at = end + 1
  }
}

/** Skips a comment, processing instruction or CDATA section at `open`; answers the index after it. */
function skipMarkup(text: string, open: number): number {
  const [terminator, start] = text.startsWith('<!--', open) ? ['-->', 4] : text.startsWith('<![CDATA[', open) ? [']]>', 9] : text.startsWith('<?', open) ? ['?>', 2] : [null, 0]
  if (terminator === null) {
    if (text.length - open < 9) throw INCOMPLETE
    throw new Error(`unexpected markup ${JSON.stringify(text.slice(open, open + 12))} in the sheet data`)
  }
  const end = text.indexOf(terminator, open + start)
  if (end < 0) throw INCOMPLETE
  return end + terminator.length
}

/** Skips an element (its start tag read) up to its closing tag, nested elements of the same name counted. */
function skipElement(text: string, from: number, name: string): number {
  let depth = 1
  let at = from
  while (depth > 0) {
    const tag = text.indexOf('<', at)
    if (tag < 0) throw INCOMPLETE
    const first = text.charCodeAt(tag + 1)
    if (Number.isNaN(first)) throw INCOMPLETE
    if (first === BANG || first === QUESTION) {
      at = skipMarkup(text, tag)
      continue
    }
    const end = tagEnd(text, tag)
    at = end + 1
    if (first === SLASH) {
      if (localNameAt(text, tag + 2, end) === name) depth--
    } else if (text.charCodeAt(end - 1) !== SLASH && localName(text, tag + 1, nameEndAt(text, tag + 1, end)) === name) depth++
  }
  return at
}

function nameEndAt(text: string, from: number, close: number): number {
  let at = from
  while (at < close) {
    const code = text.charCodeAt(at)
    if (isSpace(code) || code === SLASH) break
    at++
  }
  return at
}

/** The element name between `from` and `to` without its namespace prefix. */
function localName(text: string, from: number, to: number): string {
  // The common names, without making a string: c, v, f, t, row.
  if (to - from === 1) {
    const code = text.charCodeAt(from)
    if (code === 99) return 'c'
    if (code === 118) return 'v'
    if (code === 102) return 'f'
    if (code === 116) return 't'
  }
  let start = from
  for (let at = from; at < to; at++) if (text.charCodeAt(at) === COLON) start = at + 1
  return text.slice(start, to)
}

function localNameAt(text: string, from: number, close: number): string {
  let end = from
  while (end < close && !isSpace(text.charCodeAt(end)) && text.charCodeAt(end) !== SLASH) end++
  return localName(text, from, end)
}

// The attribute nextAttribute last read: its name's bounds and its value's (inside the quotes).
let attributeNameFrom = 0
let attributeNameTo = 0
let attributeValueFrom = 0
let attributeValueTo = 0

/**
 * Reads the attribute starting at or after `at` in a start tag's text that ends at `to`, into the
 * attribute… variables; answers the index after it, or -1 when no attribute is left.
 */
function nextAttribute(text: string, at: number, to: number): number {
  while (at < to && isSpace(text.charCodeAt(at))) at++
  if (at >= to) return -1
  attributeNameFrom = at
  while (at < to && text.charCodeAt(at) !== EQUALS && !isSpace(text.charCodeAt(at))) at++
  attributeNameTo = at
  while (at < to && isSpace(text.charCodeAt(at))) at++
  if (text.charCodeAt(at) !== EQUALS) throw new Error(`an attribute without a value: ${text.slice(attributeNameFrom, attributeNameTo)}`)
  at++
  while (at < to && isSpace(text.charCodeAt(at))) at++
  const quote = text.charCodeAt(at)
  if (quote !== QUOTE && quote !== APOSTROPHE) throw new Error(`an unquoted attribute value: ${text.slice(attributeNameFrom, attributeNameTo)}`)
  const end = text.indexOf(quote === QUOTE ? '"' : "'", at + 1)
  if (end < 0 || end >= to) throw new Error('an attribute value is not closed')
  attributeValueFrom = at + 1
  attributeValueTo = end
  return end + 1
}

const attributeValue = (text: string) => decodeAttribute(text.slice(attributeValueFrom, attributeValueTo))

function attributeOf(text: string, from: number, to: number, wanted: string): string | undefined {
  let found: string | undefined
  for (let at = nextAttribute(text, from, to); at >= 0; at = nextAttribute(text, at, to)) {
    if (attributeNameTo - attributeNameFrom === wanted.length && text.startsWith(wanted, attributeNameFrom)) found = attributeValue(text)
  }
  return found
}

function allAttributes(text: string, from: number, to: number): Record<string, string> {
  const attributes: Record<string, string> = {}
  for (let at = nextAttribute(text, from, to); at >= 0; at = nextAttribute(text, at, to)) {
    attributes[text.slice(attributeNameFrom, attributeNameTo)] = attributeValue(text)
  }
  return attributes
}

function readCellAttributes(text: string, from: number, to: number, cell: ScannedCell): void {
  for (let at = nextAttribute(text, from, to); at >= 0; at = nextAttribute(text, at, to)) {
    const length = attributeNameTo - attributeNameFrom
    const first = text.charCodeAt(attributeNameFrom)
    if (length === 1) {
      if (first === 114) cell.r = attributeValue(text) // r
      else if (first === 116) cell.t = attributeValue(text) // t
      else if (first === 115) cell.s = attributeValue(text) // s
    } else if (length === 2 && text.charCodeAt(attributeNameFrom + 1) === 109) {
      if (first === 118) cell.vm = attributeValue(text) // vm
      else if (first === 99) cell.cm = attributeValue(text) // cm
    }
  }
}
