import { describe, expect, it } from 'vitest'
import { rangeAddress } from './address'
import {
  canInsertReference,
  closeParentheses,
  completeFunctionName,
  formulaReferences,
  functionPrefixAt,
  matchFunctions,
  sheetPrefix,
  translateFormula,
  writePointedReference,
} from './formula-editing'

describe('reference insertion points', () => {
  it('accepts the caret after =, (, comma and operators', () => {
    for (const text of ['=', '=SUM(', '=A1+', '=SUM(A1,', '=2*', '=A1:', '=1 + ']) {
      expect(canInsertReference(text, text.length), text).toBe(true)
    }
  })

  it('refuses plain text, strings, and the middle of a word', () => {
    expect(canInsertReference('abc', 3)).toBe(false)
    expect(canInsertReference('=A1', 3)).toBe(false)
    expect(canInsertReference('="a+', 4)).toBe(false)
    expect(canInsertReference('=SU', 3)).toBe(false)
    expect(canInsertReference('=+B1', 2)).toBe(false)
  })

  it('accepts the caret before a closing parenthesis', () => {
    expect(canInsertReference('=SUM()', 5)).toBe(true)
  })

  it('writes and then rewrites the pointed reference, extending it to a range', () => {
    const first = writePointedReference('=SUM(', { start: 5, end: 5 }, { col: 0, row: 0 }, { col: 0, row: 0 })
    expect(first.text).toBe('=SUM(A1')
    const extended = writePointedReference(first.text, first.pointing.span, { col: 0, row: 0 }, { col: 1, row: 2 })
    expect(extended.text).toBe('=SUM(A1:B3')
    expect(extended.caret).toBe(extended.text.length)
    const other = writePointedReference('=', { start: 1, end: 1 }, { col: 2, row: 1 }, { col: 2, row: 1 }, sheetPrefix('My Sheet'))
    expect(other.text).toBe("='My Sheet'!C2")
    expect(sheetPrefix('Sheet2')).toBe('Sheet2!')
    expect(sheetPrefix('A1')).toBe("'A1'!")
  })
})

describe('committing', () => {
  it('closes unclosed parentheses outside strings', () => {
    expect(closeParentheses('=SUM(A1:A3')).toBe('=SUM(A1:A3)')
    expect(closeParentheses('=ROUND(SUM(A1,2')).toBe('=ROUND(SUM(A1,2))')
    expect(closeParentheses('=LEN("(((")')).toBe('=LEN("(((")')
    expect(closeParentheses('=(1+2)')).toBe('=(1+2)')
    expect(closeParentheses('(not a formula')).toBe('(not a formula')
  })
})

describe('function autocomplete', () => {
  const catalogue = ['SUM', 'SUMIF', 'SUMIFS', 'SUMPRODUCT', 'SQRT', 'AVERAGE'].map((name) => ({ name }))

  it('finds the prefix being typed', () => {
    expect(functionPrefixAt('=SU', 3)).toEqual({ start: 1, prefix: 'SU' })
    expect(functionPrefixAt('=A1+su', 6)).toEqual({ start: 4, prefix: 'su' })
    expect(functionPrefixAt('=SUM(A', 6)).toEqual({ start: 5, prefix: 'A' })
    expect(functionPrefixAt('SU', 2)).toBeNull()
    expect(functionPrefixAt('="SU', 4)).toBeNull()
    expect(functionPrefixAt('=1', 2)).toBeNull()
    expect(functionPrefixAt('=SUM(', 5)).toBeNull()
  })

  it('lists matching functions, shortest first', () => {
    expect(matchFunctions(catalogue, 'su').map((f) => f.name)).toEqual(['SUM', 'SUMIF', 'SUMIFS', 'SUMPRODUCT'])
    expect(matchFunctions(catalogue, 'x')).toEqual([])
  })

  it('completes to NAME( with the caret inside', () => {
    expect(completeFunctionName('=su', 3, 'SUM')).toEqual({ text: '=SUM(', caret: 5 })
    expect(completeFunctionName('=A1+AV', 6, 'AVERAGE')).toEqual({ text: '=A1+AVERAGE(', caret: 12 })
  })
})

describe('references in formulas', () => {
  it('finds references with their sheets, skipping strings and function names', () => {
    const refs = formulaReferences("=SUM(A1:B2)+LOG10(C3)+\"D4\"+Sheet2!E5+'My Sheet'!$F$6:G7")
    expect(refs.map((r) => [r.sheet, rangeAddress(r.range)])).toEqual([
      [null, 'A1:B2'],
      [null, 'C3'],
      ['Sheet2', 'E5'],
      ['My Sheet', 'F6:G7'],
    ])
  })

  it('moves relative references and keeps anchored ones when copying', () => {
    expect(translateFormula('=A1+$B$1+C$1+$D1', 2, 1)).toBe('=B3+$B$1+D$1+$D3')
    expect(translateFormula("=SUM(Sheet2!A1:A3)*'My Sheet'!B2", 1, 0)).toBe("=SUM(Sheet2!A2:A4)*'My Sheet'!B3")
    expect(translateFormula('=A1&"A1"', 1, 0)).toBe('=A2&"A1"')
    expect(translateFormula('=A2', -2, 0)).toBe('=#REF!')
    expect(translateFormula('plain A1', 1, 0)).toBe('plain A1')
  })
})

describe('function hints', () => {
  it('finds the call and the argument at the caret', async () => {
    const { enclosingFunction } = await import('./formula-editing')
    expect(enclosingFunction('=ROUND(', 7)).toEqual({ name: 'ROUND', argument: 0 })
    expect(enclosingFunction('=ROUND(A1, ', 11)).toEqual({ name: 'ROUND', argument: 1 })
    expect(enclosingFunction('=IF(SUM(A1:A3)>1, ', 18)).toEqual({ name: 'IF', argument: 1 })
    expect(enclosingFunction('=IF(SUM(A1, ', 12)).toEqual({ name: 'SUM', argument: 1 })
    expect(enclosingFunction('=SUM({1,2', 9)).toEqual({ name: 'SUM', argument: 0 })
    expect(enclosingFunction('=CONCAT("a,(", ', 15)).toEqual({ name: 'CONCAT', argument: 1 })
    expect(enclosingFunction('=SUM(A1)', 8)).toBeNull()
    expect(enclosingFunction('=(1+2', 5)).toBeNull()
    expect(enclosingFunction('plain(', 6)).toBeNull()
  })

  it('splits a syntax into its arguments, optional ones included', async () => {
    const { syntaxParts } = await import('./formula-editing')
    expect(syntaxParts('ROUND(number, num_digits)')).toEqual({ name: 'ROUND', args: ['number', 'num_digits'] })
    expect(syntaxParts('SUM(number1, [number2], ...)')).toEqual({ name: 'SUM', args: ['number1', '[number2]', '...'] })
    expect(syntaxParts('PI()')).toEqual({ name: 'PI', args: [] })
  })
})

describe('a function described in words', () => {
  it('finds the words typed where a function belongs, and completes over all of them', async () => {
    const { describedPhraseAt, completeFunctionName } = await import('./formula-editing')
    expect(describedPhraseAt('=monthly payment', 16)).toEqual({ start: 1, phrase: 'monthly payment' })
    expect(describedPhraseAt('=A1+ net present value', 22)).toEqual({ start: 5, phrase: 'net present value' })
    expect(describedPhraseAt('=SU', 3)).toBeNull()
    expect(describedPhraseAt('=A1 SU', 6)).toBeNull()
    expect(describedPhraseAt('="monthly payment', 17)).toBeNull()
    expect(describedPhraseAt('monthly payment', 15)).toBeNull()
    expect(completeFunctionName('=monthly payment', 16, 'PMT')).toEqual({ text: '=PMT(', caret: 5 })
    expect(completeFunctionName('=A1+ net present value', 22, 'NPV')).toEqual({ text: '=A1+ NPV(', caret: 9 })
    expect(completeFunctionName('=SU', 3, 'SUM')).toEqual({ text: '=SUM(', caret: 5 })
  })
})
