/**
 * Formula parser with Excel's precedence, from highest to lowest: the reference operators (`:`, space
 * for intersection, `,` for union inside parentheses), negation, `%`, `^` (left-associative, so
 * `2^3^2` is 64), `* /`, `+ -`, `&`, comparisons. Negation binding tighter than `^` makes `-3^2` 9.
 */
import { MAX_COL, MAX_ROW, errorFromText } from '../values.js'
import type { ErrorCode } from '../values.js'
import type { BinaryOperator, Node, RefCorner } from './ast.js'
import { TokenType, tokenize } from './lexer.js'
import type { Token } from './lexer.js'
import { StructuredSyntaxError, parseStructured } from './structured.js'

export class FormulaSyntaxError extends Error {
  override readonly name = 'FormulaSyntaxError'
  constructor(
    message: string,
    /** Offset in the formula text (without '=') where parsing failed. */
    readonly position: number,
  ) {
    super(message)
  }
}

/**
 * Parses formula text (with or without the leading '=') for the cell at (row, col); relative references
 * are stored as offsets from that cell. Throws FormulaSyntaxError.
 */
export function parseFormula(text: string, row = 0, col = 0): Node {
  return parseTokens(tokenize(stripEquals(text)), row, col)
}

function stripEquals(text: string): string {
  return text.charCodeAt(0) === 61 ? text.slice(1) : text
}

/**
 * A text that identifies the tree a token list parses to, without parsing: references are written
 * relative to the cell (R1C1-like), so `=A1*2` in B1 and `=A2*2` in B2 have the same key.
 */
export function shapeKey(tokens: readonly Token[], row: number, col: number): string {
  let key = ''
  let previous: TokenType = TokenType.End
  for (const token of tokens) {
    // A space matters only where it can be the intersection operator.
    if (token.spaceBefore && mayEndReference(previous) && mayStartReference(token.type)) key += ' '
    previous = token.type
    switch (token.type) {
      case TokenType.Cell:
        key +=
          (token.rowAbs1 ? 'R' + token.row1 : 'R[' + (token.row1 - row) + ']') +
          (token.colAbs1 ? 'C' + token.col1 : 'C[' + (token.col1 - col) + ']')
        break
      case TokenType.Columns:
        key +=
          (token.colAbs1 ? 'C' + token.col1 : 'C[' + (token.col1 - col) + ']') +
          ':' +
          (token.colAbs2 ? 'C' + token.col2 : 'C[' + (token.col2 - col) + ']')
        break
      case TokenType.Rows:
        key +=
          (token.rowAbs1 ? 'R' + token.row1 : 'R[' + (token.row1 - row) + ']') +
          ':' +
          (token.rowAbs2 ? 'R' + token.row2 : 'R[' + (token.row2 - row) + ']')
        break
      case TokenType.String:
        key += '"' + token.text.replace(/"/g, '""') + '"'
        break
      case TokenType.Sheet:
        key += "'" + token.text.toUpperCase().replace(/'/g, "''") + "'!"
        break
      case TokenType.Name:
      case TokenType.Function:
        key += '\u0001' + token.text.toUpperCase()
        break
      case TokenType.Structured:
        // Table and column names compare case-insensitively.
        key += '\u0002' + token.text.toUpperCase()
        break
      default:
        key += token.text
    }
  }
  return key
}

function mayEndReference(type: TokenType): boolean {
  return (
    type === TokenType.Cell ||
    type === TokenType.Columns ||
    type === TokenType.Rows ||
    type === TokenType.Name ||
    type === TokenType.Structured ||
    type === TokenType.CloseParen ||
    type === TokenType.Spill ||
    type === TokenType.Error
  )
}

function mayStartReference(type: TokenType): boolean {
  return (
    type === TokenType.Cell ||
    type === TokenType.Columns ||
    type === TokenType.Rows ||
    type === TokenType.Sheet ||
    type === TokenType.Name ||
    type === TokenType.Structured ||
    type === TokenType.Function ||
    type === TokenType.OpenParen
  )
}

/** Parses tokens from `tokenize` for the cell at (row, col). Throws FormulaSyntaxError. */
export function parseTokens(tokens: Token[], row: number, col: number): Node {
  const last = tokens[tokens.length - 1]
  if (last.type === TokenType.Invalid) {
    throw new FormulaSyntaxError(`Unexpected text: ${last.text.slice(0, 20)}`, last.start)
  }
  const parser = new Parser(tokens, row, col)
  return parser.parseFormula()
}

const COMPARISON = new Set(['=', '<>', '<', '>', '<=', '>='])

/** Deepest nesting of parentheses, calls and unary operators accepted (Excel allows 64 levels of calls). */
const MAX_DEPTH = 200
/** Most binary operators in one formula: each nests the tree one level deeper (`1+1+...`). */
const MAX_OPERATORS = 1000

class Parser {
  private index = 0
  private depth = 0
  private operators = 0

  constructor(
    private readonly tokens: Token[],
    private readonly baseRow: number,
    private readonly baseCol: number,
  ) {}

  parseFormula(): Node {
    if (this.peek().type === TokenType.End) throw this.error('The formula is empty')
    const node = this.parseExpression()
    if (this.peek().type !== TokenType.End) throw this.error(`Unexpected ${describe(this.peek())}`)
    return node
  }

  private peek(): Token {
    return this.tokens[this.index]
  }

  private next(): Token {
    return this.tokens[this.index++]
  }

  private isOperator(text: string): boolean {
    const token = this.peek()
    return token.type === TokenType.Operator && token.text === text
  }

  private error(message: string): FormulaSyntaxError {
    return new FormulaSyntaxError(message, this.peek().start)
  }

  private expect(type: TokenType, what: string): Token {
    const token = this.peek()
    if (token.type !== type) throw this.error(`Expected ${what} but found ${describe(token)}`)
    return this.next()
  }

  parseExpression(): Node {
    if (++this.depth > MAX_DEPTH) throw this.error('The formula is nested too deeply')
    try {
      return this.parseComparison()
    } finally {
      this.depth--
    }
  }

  private binaryNode(node: Node): Node {
    if (++this.operators > MAX_OPERATORS) throw this.error('The formula has too many operators')
    return node
  }

  private parseComparison(): Node {
    let left = this.parseConcat()
    while (this.peek().type === TokenType.Operator && COMPARISON.has(this.peek().text)) {
      const operator = this.next().text as BinaryOperator
      left = this.binaryNode({ type: 'binary', operator, left, right: this.parseConcat() })
    }
    return left
  }

  private parseConcat(): Node {
    let left = this.parseAdditive()
    while (this.isOperator('&')) {
      this.next()
      left = this.binaryNode({ type: 'binary', operator: '&', left, right: this.parseAdditive() })
    }
    return left
  }

  private parseAdditive(): Node {
    let left = this.parseMultiplicative()
    while (this.isOperator('+') || this.isOperator('-')) {
      const operator = this.next().text as BinaryOperator
      left = this.binaryNode({ type: 'binary', operator, left, right: this.parseMultiplicative() })
    }
    return left
  }

  private parseMultiplicative(): Node {
    let left = this.parsePower()
    while (this.isOperator('*') || this.isOperator('/')) {
      const operator = this.next().text as BinaryOperator
      left = this.binaryNode({ type: 'binary', operator, left, right: this.parsePower() })
    }
    return left
  }

  private parsePower(): Node {
    let left = this.parsePercent()
    while (this.isOperator('^')) {
      this.next()
      left = this.binaryNode({ type: 'binary', operator: '^', left, right: this.parsePercent() })
    }
    return left
  }

  private parsePercent(): Node {
    let operand = this.parseUnary()
    while (this.isOperator('%')) {
      this.next()
      operand = { type: 'percent', operand }
    }
    return operand
  }

  private parseUnary(): Node {
    if (this.isOperator('-') || this.isOperator('+') || this.isOperator('@')) {
      const operator = this.next().text as '-' | '+' | '@'
      if (++this.depth > MAX_DEPTH) throw this.error('The formula is nested too deeply')
      try {
        return { type: 'unary', operator, operand: this.parseUnary() }
      } finally {
        this.depth--
      }
    }
    return this.parseIntersection()
  }

  private startsReference(token: Token): boolean {
    switch (token.type) {
      case TokenType.Cell:
      case TokenType.Columns:
      case TokenType.Rows:
      case TokenType.Sheet:
      case TokenType.Name:
      case TokenType.Structured:
      case TokenType.Function:
      case TokenType.OpenParen:
        return true
      default:
        return false
    }
  }

  private parseIntersection(): Node {
    let left = this.parseRange()
    while (this.peek().spaceBefore && this.startsReference(this.peek()) && isReferenceLike(left)) {
      left = { type: 'intersection', left, right: this.parseRange() }
    }
    return left
  }

  private parseRange(): Node {
    let left = this.parsePostfix()
    while (this.isOperator(':')) {
      this.next()
      const right = this.parsePostfix()
      if (!isReferenceLike(left) || !isReferenceLike(right)) {
        throw new FormulaSyntaxError('The range operator needs references on both sides', this.peek().start)
      }
      left = combineRange(left, right) ?? { type: 'rangeOp', left, right }
    }
    return left
  }

  private parsePostfix(): Node {
    let node = this.parsePrimary()
    // A function value called directly: `LAMBDA(x, x+1)(5)`.
    while (
      this.peek().type === TokenType.OpenParen &&
      !this.peek().spaceBefore &&
      (node.type === 'call' || node.type === 'group' || node.type === 'invoke')
    ) {
      this.next()
      node = { type: 'invoke', callee: node, args: this.parseArguments() }
    }
    if (this.peek().type === TokenType.Spill && !this.peek().spaceBefore) {
      this.next()
      return { type: 'spill', operand: node }
    }
    return node
  }

  private corner(row: number, col: number, rowAbsolute: boolean, colAbsolute: boolean): RefCorner {
    return {
      row: rowAbsolute ? row : row - this.baseRow,
      col: colAbsolute ? col : col - this.baseCol,
      rowAbsolute,
      colAbsolute,
    }
  }

  private referenceFromToken(token: Token, sheet: string | undefined): Node {
    switch (token.type) {
      case TokenType.Cell:
        return withSheet({ type: 'cell', ref: this.corner(token.row1, token.col1, token.rowAbs1, token.colAbs1) }, sheet)
      case TokenType.Columns:
        return withSheet(
          {
            type: 'range',
            kind: 'columns',
            start: this.corner(0, token.col1, true, token.colAbs1),
            end: this.corner(MAX_ROW, token.col2, true, token.colAbs2),
          },
          sheet,
        )
      default:
        return withSheet(
          {
            type: 'range',
            kind: 'rows',
            start: this.corner(token.row1, 0, token.rowAbs1, true),
            end: this.corner(token.row2, MAX_COL, token.rowAbs2, true),
          },
          sheet,
        )
    }
  }

  private parsePrimary(): Node {
    const token = this.next()
    switch (token.type) {
      case TokenType.Number: {
        const value = Number(token.text)
        if (!Number.isFinite(value)) throw new FormulaSyntaxError('Number out of range', token.start)
        return { type: 'number', value }
      }
      case TokenType.String:
        return { type: 'string', value: token.text }
      case TokenType.Error:
        return { type: 'error', code: (errorFromText(token.text)?.code ?? '#N/A') as ErrorCode }
      case TokenType.Cell:
      case TokenType.Columns:
      case TokenType.Rows:
        return this.referenceFromToken(token, undefined)
      case TokenType.Sheet: {
        const target = this.next()
        if (target.spaceBefore) throw new FormulaSyntaxError('Expected a reference after the sheet name', target.start)
        if (target.type === TokenType.Cell || target.type === TokenType.Columns || target.type === TokenType.Rows) {
          const first = this.referenceFromToken(target, token.text)
          // `Sheet1!A1:B2`: the second corner belongs to the same sheet.
          if (first.type === 'cell' && this.isOperator(':')) {
            const after = this.tokens[this.index + 1]
            if (after.type === TokenType.Cell && !after.spaceBefore) {
              this.next()
              this.next()
              const second = this.referenceFromToken(after, token.text)
              return combineRange(first, second) as Node
            }
          }
          return first
        }
        if (target.type === TokenType.Name) return { type: 'name', name: target.text, sheet: token.text }
        if (target.type === TokenType.Error && target.text === '#REF!') return { type: 'error', code: '#REF!' }
        throw new FormulaSyntaxError('Expected a reference after the sheet name', target.start)
      }
      case TokenType.Name: {
        const upper = token.text.toUpperCase()
        if (upper === 'TRUE') return { type: 'boolean', value: true }
        if (upper === 'FALSE') return { type: 'boolean', value: false }
        return { type: 'name', name: token.text }
      }
      case TokenType.Structured:
        try {
          return { type: 'structured', ...parseStructured(token.text) }
        } catch (error) {
          if (error instanceof StructuredSyntaxError) throw new FormulaSyntaxError(error.message, token.start)
          throw error
        }
      case TokenType.Function:
        return this.parseCall(token)
      case TokenType.OpenParen: {
        const first = this.parseExpression()
        if (this.peek().type === TokenType.Comma) {
          const items = [first]
          while (this.peek().type === TokenType.Comma) {
            this.next()
            items.push(this.parseExpression())
          }
          this.expect(TokenType.CloseParen, "')'")
          return { type: 'union', items }
        }
        this.expect(TokenType.CloseParen, "')'")
        return { type: 'group', expression: first }
      }
      case TokenType.OpenBrace:
        return this.parseArray()
      case TokenType.End:
        this.index--
        throw this.error('The formula ends too early')
      default:
        this.index--
        throw this.error(`Unexpected ${describe(token)}`)
    }
  }

  private parseCall(token: Token): Node {
    let name = token.text.toUpperCase()
    if (name.startsWith('_XLFN.')) name = name.slice(6)
    if (name.startsWith('_XLWS.')) name = name.slice(6)
    this.expect(TokenType.OpenParen, "'('")
    if ((name === 'ANCHORARRAY' || name === 'SINGLE') && this.peek().type !== TokenType.CloseParen) {
      // How files store `A1#` and `@A1`: read them as the operators they stand for.
      const operand = this.parseExpression()
      this.expect(TokenType.CloseParen, "')'")
      return name === 'ANCHORARRAY' ? { type: 'spill', operand } : { type: 'unary', operator: '@', operand }
    }
    return { type: 'call', name, args: this.parseArguments() }
  }

  /** Arguments after an opening parenthesis, up to and including the closing one. */
  private parseArguments(): Node[] {
    const args: Node[] = []
    if (this.peek().type === TokenType.CloseParen) {
      this.next()
      return args
    }
    while (true) {
      const token = this.peek()
      if (token.type === TokenType.Comma || token.type === TokenType.CloseParen) args.push({ type: 'missing' })
      else args.push(this.parseExpression())
      const separator = this.next()
      if (separator.type === TokenType.CloseParen) break
      if (separator.type !== TokenType.Comma) {
        this.index--
        throw this.error(`Expected ',' or ')' but found ${describe(separator)}`)
      }
    }
    return args
  }

  private parseArray(): Node {
    const rows: Node[][] = [[]]
    while (true) {
      rows[rows.length - 1].push(this.parseArrayItem())
      const separator = this.next()
      if (separator.type === TokenType.CloseBrace) break
      if (separator.type === TokenType.Semicolon) rows.push([])
      else if (separator.type !== TokenType.Comma) {
        this.index--
        throw this.error(`Expected ',', ';' or '}' but found ${describe(separator)}`)
      }
    }
    const width = rows[0].length
    if (rows.some((row) => row.length !== width)) {
      throw new FormulaSyntaxError('Every row of an array constant needs the same number of items', this.peek().start)
    }
    return { type: 'array', rows }
  }

  private parseArrayItem(): Node {
    const token = this.next()
    if (token.type === TokenType.Operator && (token.text === '-' || token.text === '+')) {
      const number = this.next()
      if (number.type !== TokenType.Number) {
        this.index--
        throw this.error('Array constants hold only numbers, text, booleans and errors')
      }
      const value = Number(number.text)
      return { type: 'number', value: token.text === '-' ? -value : value }
    }
    switch (token.type) {
      case TokenType.Number:
        return { type: 'number', value: Number(token.text) }
      case TokenType.String:
        return { type: 'string', value: token.text }
      case TokenType.Error:
        return { type: 'error', code: (errorFromText(token.text)?.code ?? '#N/A') as ErrorCode }
      case TokenType.Name: {
        const upper = token.text.toUpperCase()
        if (upper === 'TRUE' || upper === 'FALSE') return { type: 'boolean', value: upper === 'TRUE' }
        break
      }
      default:
        break
    }
    this.index--
    throw this.error('Array constants hold only numbers, text, booleans and errors')
  }
}

function withSheet<T extends Node & { sheet?: string }>(node: T, sheet: string | undefined): T {
  if (sheet !== undefined) node.sheet = sheet
  return node
}

/** Whether a node can evaluate to a reference (and so take part in `:`, intersection, `#`). */
export function isReferenceLike(node: Node): boolean {
  switch (node.type) {
    case 'cell':
    case 'range':
    case 'name':
    case 'structured':
    case 'call':
    case 'rangeOp':
    case 'union':
    case 'intersection':
    case 'spill':
      return true
    case 'group':
      return isReferenceLike(node.expression)
    case 'invoke':
      return true
    case 'error':
      return node.code === '#REF!'
    default:
      return false
  }
}

/** `A1:B2` from two cells of the same sheet becomes one range node. */
function combineRange(left: Node, right: Node): Node | undefined {
  if (left.type !== 'cell' || right.type !== 'cell') return undefined
  if (right.sheet !== undefined && right.sheet.toUpperCase() !== (left.sheet ?? '').toUpperCase()) return undefined
  return withSheet({ type: 'range', kind: 'cells', start: left.ref, end: right.ref }, left.sheet)
}

function describe(token: Token): string {
  switch (token.type) {
    case TokenType.End:
      return 'the end of the formula'
    case TokenType.String:
      return `"${token.text}"`
    default:
      return `'${token.text}'`
  }
}
