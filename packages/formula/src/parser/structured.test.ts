import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TokenType, tokenize } from './lexer.js'
import { FormulaSyntaxError, parseFormula } from './parser.js'
import { printFormula } from './printer.js'
import { parseStructured, printStructured } from './structured.js'
import type { StructuredParts } from './structured.js'

function roundTrip(text: string): string {
  return printFormula(parseFormula(text))
}

describe('structured reference tokens', () => {
  it('takes a table name with its brackets as one token', () => {
    const tokens = tokenize('SUM(Sales[Unit Price])+1')
    expect(tokens.map((token) => token.type)).toEqual([
      TokenType.Function,
      TokenType.OpenParen,
      TokenType.Structured,
      TokenType.CloseParen,
      TokenType.Operator,
      TokenType.Number,
      TokenType.End,
    ])
    expect(tokens[2].text).toBe('Sales[Unit Price]')
  })

  it('reads nested brackets and escaped brackets inside a column name', () => {
    const tokens = tokenize("T[[#Headers],[a']b]]*2")
    expect(tokens[0].type).toBe(TokenType.Structured)
    expect(tokens[0].text).toBe("T[[#Headers],[a']b]]")
  })

  it('reads [@Col], [#Totals] and [[...]] where an operand starts', () => {
    expect(tokenize('[@Units]*2')[0].type).toBe(TokenType.Structured)
    expect(tokenize('1+[#Totals]')[2].type).toBe(TokenType.Structured)
    expect(tokenize('SUM([[#This Row],[A]:[B]])')[2].type).toBe(TokenType.Structured)
  })

  it('leaves other bracketed text alone (external workbook references are not table references)', () => {
    expect(tokenize('[1]Sheet1!A1')[0].type).not.toBe(TokenType.Structured)
  })

  it('is invalid when the brackets do not close', () => {
    expect(tokenize('Sales[Units')[0].type).toBe(TokenType.Invalid)
  })
})

describe('parseStructured', () => {
  it.each([
    ['Sales[Units]', { table: 'Sales', areas: [], firstColumn: 'Units' }],
    ['Sales[]', { table: 'Sales', areas: [] }],
    ['Sales[#All]', { table: 'Sales', areas: ['all'] }],
    ['Sales[#data]', { table: 'Sales', areas: ['data'] }],
    ['Sales[[#Headers],[Units]]', { table: 'Sales', areas: ['headers'], firstColumn: 'Units' }],
    ['Sales[[#Totals],[#Data],[Units]]', { table: 'Sales', areas: ['data', 'totals'], firstColumn: 'Units' }],
    ['Sales[@Units]', { table: 'Sales', areas: ['thisRow'], firstColumn: 'Units' }],
    ['Sales[@[Unit Price]]', { table: 'Sales', areas: ['thisRow'], firstColumn: 'Unit Price' }],
    ['Sales[@]', { table: 'Sales', areas: ['thisRow'] }],
    ['Sales[[#This Row],[Units]]', { table: 'Sales', areas: ['thisRow'], firstColumn: 'Units' }],
    ['Sales[[Units]:[Price]]', { table: 'Sales', areas: [], firstColumn: 'Units', lastColumn: 'Price' }],
    ['Sales[ [#Headers], [Units]:[Price] ]', { table: 'Sales', areas: ['headers'], firstColumn: 'Units', lastColumn: 'Price' }],
    ["Sales[Total '# and a''t]", { table: 'Sales', areas: [], firstColumn: "Total # and a't" }],
    ['[@Units]', { table: '', areas: ['thisRow'], firstColumn: 'Units' }],
  ])('%s', (text, parts) => {
    expect(parseStructured(text)).toEqual(parts)
  })

  it.each(['Sales[[#Headers],[#Totals]]', 'Sales[[#All],[#Data]]', 'Sales[[#This Row],[#Data]]', 'Sales[#Nothing]', 'Sales[[A],[B]]'])(
    'refuses %s as Excel does',
    (text) => {
      expect(() => parseFormula('=' + text)).toThrow(FormulaSyntaxError)
    },
  )
})

describe('printing', () => {
  it.each([
    ['=SUM(Sales[Units])', '=SUM(Sales[Units])'],
    ['=sales[#ALL]', '=sales[#All]'],
    ['=Sales[[#Headers],[Units]]', '=Sales[[#Headers],[Units]]'],
    ['=Sales[[#This Row],[Units]]*2', '=Sales[@Units]*2'],
    ['=Sales[@[Unit Price]]', '=Sales[@[Unit Price]]'],
    ['=SUM(Sales[[Units]:[Price]])', '=SUM(Sales[[Units]:[Price]])'],
    ["=Sales[a'#b]", "=Sales[a'#b]"],
    ['=Sales[]', '=Sales[]'],
    ['=Sales[@]', '=Sales[@]'],
  ])('%s prints as %s', (text, printed) => {
    expect(roundTrip(text)).toBe(printed)
  })

  it('reads back every reference it prints, whatever the column names hold', () => {
    const name = fc.string({ unit: fc.constantFrom('a', 'B', ' ', "'", '[', ']', '#', '@', ',', ':', '.', '1', 'é'), minLength: 1, maxLength: 8 })
    const areas = fc.constantFrom<StructuredParts['areas']>([], ['all'], ['data'], ['headers'], ['totals'], ['thisRow'], ['headers', 'data'], ['data', 'totals'])
    const parts = fc.record({ table: fc.constantFrom('T', 'Sales_2024', ''), areas, first: fc.option(name, { nil: undefined }), last: fc.option(name, { nil: undefined }) })
    fc.assert(
      fc.property(parts, ({ table, areas, first, last }) => {
        const written: StructuredParts = { table, areas, ...(first !== undefined ? { firstColumn: first } : {}), ...(first !== undefined && last !== undefined ? { lastColumn: last } : {}) }
        // A name of spaces alone reads as no column at all in the simple form, as in Excel.
        fc.pre(!(areas.length === 0 && last === undefined && first !== undefined && first.trim() === ''))
        for (const fileForm of [false, true]) expect(parseStructured(printStructured(written, fileForm))).toEqual(written)
      }),
    )
  })

  it('writes #This Row in full in the file form', () => {
    expect(printStructured(parseStructured('Sales[@Units]'), true)).toBe('Sales[[#This Row],[Units]]')
    expect(printStructured(parseStructured('Sales[@]'), true)).toBe('Sales[#This Row]')
  })
})
