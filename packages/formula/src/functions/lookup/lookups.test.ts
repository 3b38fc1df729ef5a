import { describe, expect, it } from 'vitest'
import { CellError, RangeRef } from '../../values.js'
import type { Scalar } from '../../values.js'
import { MISSING } from '../types.js'
import { functions } from './index.js'
import { arr, caller, makeSheet, ref } from './test-harness.js'

const fn = caller(functions)

describe('MATCH', () => {
  const sheet = makeSheet([
    ['Alpha', 1, 9],
    ['Beta', 2, 8],
    ['Delta', 3, 7],
    ['Delta', 4, 6],
    ['Gamma', 5, 5],
    ['Omega', 6, 4],
  ])
  const texts = ref(sheet, 'A1:A6')
  const ascending = ref(sheet, 'B1:B6')
  const descending = ref(sheet, 'C1:C6')

  it('finds the largest value at most the lookup value in ascending data', () => {
    expect(fn('MATCH', 'alpha', texts)).toBe(1)
    expect(fn('MATCH', 'a', texts)).toBe(CellError.NA)
    expect(fn('MATCH', 'delta', texts)).toBe(4) // the last of equal values
    expect(fn('MATCH', 'zeta', texts)).toBe(6)
    expect(fn('MATCH', 0, texts)).toBe(CellError.NA) // numbers are never compared with text
    expect(fn('MATCH', 1.3, ascending)).toBe(1)
    expect(fn('MATCH', 0.8, ascending)).toBe(CellError.NA)
    expect(fn('MATCH', 7, ascending, 1)).toBe(6)
    expect(fn('MATCH', null, ascending)).toBe(CellError.NA)
  })

  it('finds the smallest value at least the lookup value in descending data', () => {
    expect(fn('MATCH', 5.312, descending, -1)).toBe(4)
    expect(fn('MATCH', 2.818, arr([[9], [8], [7], [6], [5], [4], [3], [2], [1]]), -1)).toBe(7)
    expect(fn('MATCH', 9.049, descending, -1)).toBe(CellError.NA)
  })

  it('matches exactly by type, case-insensitively, with wildcards', () => {
    const words = arr([['Patata'], ['ata'], ['Mulata'], ['Question?'], [''], [null], [0]])
    expect(fn('MATCH', 'delta', texts, 0)).toBe(3)
    expect(fn('MATCH', '*a*', words, 0)).toBe(1)
    expect(fn('MATCH', 'a*', words, 0)).toBe(2)
    expect(fn('MATCH', '??l*', words, 0)).toBe(3)
    expect(fn('MATCH', '*~?', words, 0)).toBe(4)
    expect(fn('MATCH', 'Q*', words, 0)).toBe(4)
    expect(fn('MATCH', '', words, 0)).toBe(5)
    expect(fn('MATCH', 0, words, 0)).toBe(7)
    expect(fn('MATCH', 13, arr([['13'], [1]]), 0)).toBe(CellError.NA)
    expect(fn('MATCH', '13', arr([[13], [1]]), 0)).toBe(CellError.NA)
    expect(fn('MATCH', 'TRUE', arr([[true], [1]]), 0)).toBe(CellError.NA)
    expect(fn('MATCH', false, arr([['FALSE'], [0]]), 0)).toBe(CellError.NA)
    expect(fn('MATCH', 5, arr([[1, 3, 5, 7, 9]]), 0)).toBe(3)
  })

  it('steps over errors and other types in a binary search (the LOOKUP(2,1/(...)) idiom)', () => {
    const mixed = arr([[1], [CellError.DIV0], [1], ['x'], [1], [CellError.DIV0]])
    expect(fn('MATCH', 2, mixed)).toBe(5)
  })

  it('rejects two-dimensional lookup arrays', () => {
    expect(fn('MATCH', 1, ref(sheet, 'B1:C6'), 0)).toBe(CellError.NA)
    expect(fn('MATCH', 1, CellError.REF, 0)).toBe(CellError.REF)
  })

  it('broadcasts over an array of lookup values', () => {
    const result = fn('MATCH', arr([[2, 5]]), ascending, 0) as { data: Scalar[] }
    expect(result.data).toEqual([2, 5])
  })
})

describe('XMATCH', () => {
  const countries = arr([['Albania'], ['Indonesia'], ['India'], ['Germany'], ['Spain'], ['Venezuela'], ['Italy'], ['Francialy']])
  it('matches exactly, with wildcards and with regular expressions, in both directions', () => {
    expect(fn('XMATCH', 'Spain', countries)).toBe(5)
    expect(fn('XMATCH', 'Ind*', countries, 2)).toBe(2)
    expect(fn('XMATCH', 'Ind*', countries, 2, -1)).toBe(3)
    expect(fn('XMATCH', '[A-Z][a-z]+y', countries, 3, 1)).toBe(4)
    expect(fn('XMATCH', '[A-Z][a-z]+y', countries, 3, -1)).toBe(8)
    expect(fn('XMATCH', 42, arr([['apple'], ['bannana']]), 3)).toBe(CellError.NA)
    expect(fn('XMATCH', 'Ind*', countries)).toBe(CellError.NA) // no wildcards in exact mode
  })

  it('finds the next smaller or larger value, linearly or by binary search', () => {
    const row = arr([[10, 20, 30, 40, 50]])
    expect(fn('XMATCH', 30, row)).toBe(3)
    expect(fn('XMATCH', 35, row, 1)).toBe(4)
    expect(fn('XMATCH', 35, row, -1)).toBe(3)
    expect(fn('XMATCH', 20, arr([[10, 20, 20, 30]]), 0, -1)).toBe(3)
    expect(fn('XMATCH', 25, row, 1, 2)).toBe(3)
    expect(fn('XMATCH', 25, row, -1, 2)).toBe(2)
    expect(fn('XMATCH', 30, row, 0, 2)).toBe(3)
    expect(fn('XMATCH', 25, arr([[50, 40, 30, 20, 10]]), -1, -2)).toBe(4)
    expect(fn('XMATCH', 25, arr([[50, 40, 30, 20, 10]]), 1, -2)).toBe(3)
    expect(fn('XMATCH', 99, arr([[10, 20, 30]]))).toBe(CellError.NA)
    expect(fn('XMATCH', 60, row, 1)).toBe(CellError.NA)
  })

  it('rejects two-dimensional arrays and unknown modes', () => {
    expect(fn('XMATCH', 2, arr([[1, 2], [3, 4]]))).toBe(CellError.VALUE)
    expect(fn('XMATCH', 2, arr([[1, 2]]), 4)).toBe(CellError.VALUE)
    expect(fn('XMATCH', 2, arr([[1, 2]]), 0, 3)).toBe(CellError.VALUE)
    expect(fn('XMATCH', '(', arr([['a']]), 3)).toBe(CellError.VALUE)
  })
})

describe('XLOOKUP', () => {
  const sheet = makeSheet([
    ['id', 'name', 'price'],
    [101, 'Pen', 1.5],
    [102, 'Book', 12],
    [103, 'Lamp', 30],
  ])
  it('returns the matching cell as a reference, or a whole row of the return array', () => {
    const cell = fn('XLOOKUP', 102, ref(sheet, 'A2:A4'), ref(sheet, 'C2:C4')) as RangeRef
    expect(cell).toBeInstanceOf(RangeRef)
    expect([cell.top, cell.left, cell.get(0, 0)]).toEqual([2, 2, 12])
    const row = fn('XLOOKUP', 'lamp', ref(sheet, 'B2:B4'), ref(sheet, 'A2:C4')) as RangeRef
    expect([row.top, row.left, row.right]).toEqual([3, 0, 2])
    const column = fn('XLOOKUP', 'price', ref(sheet, 'A1:C1'), ref(sheet, 'A2:C4')) as RangeRef
    expect([column.left, column.top, column.bottom]).toEqual([2, 1, 3])
    expect(fn('XLOOKUP', 2, arr([[1, 2, 3]]), arr([['a', 'b', 'c']]))).toBe('b')
  })

  it('answers if_not_found or #N/A, and finds approximate matches', () => {
    expect(fn('XLOOKUP', 999, ref(sheet, 'A2:A4'), ref(sheet, 'B2:B4'))).toBe(CellError.NA)
    expect(fn('XLOOKUP', 999, ref(sheet, 'A2:A4'), ref(sheet, 'B2:B4'), 'none')).toBe('none')
    expect(fn('XLOOKUP', 999, ref(sheet, 'A2:A4'), ref(sheet, 'B2:B4'), MISSING)).toBe(CellError.NA)
    const next = fn('XLOOKUP', 102.5, ref(sheet, 'A2:A4'), ref(sheet, 'B2:B4'), MISSING, 1) as RangeRef
    expect(next.get(0, 0)).toBe('Lamp')
    const previous = fn('XLOOKUP', 102.5, ref(sheet, 'A2:A4'), ref(sheet, 'B2:B4'), MISSING, -1) as RangeRef
    expect(previous.get(0, 0)).toBe('Book')
  })

  it('requires the return array to match the lookup array', () => {
    expect(fn('XLOOKUP', 102, ref(sheet, 'A2:A4'), ref(sheet, 'C2:C3'))).toBe(CellError.VALUE)
    expect(fn('XLOOKUP', 102, ref(sheet, 'A2:B4'), ref(sheet, 'C2:C4'))).toBe(CellError.VALUE)
  })
})

describe('VLOOKUP, HLOOKUP, LOOKUP', () => {
  const sheet = makeSheet([
    [4.14, 'red'],
    [4.19, 'orange'],
    [5.17, 'yellow'],
    [5.77, 'green'],
    [6.39, 'blue'],
    [7, null],
  ])
  const table = ref(sheet, 'A1:B6')
  it('looks up approximately by default and exactly on request', () => {
    expect(fn('VLOOKUP', 4.19, table, 2)).toBe('orange')
    expect(fn('VLOOKUP', 5, table, 2)).toBe('orange')
    expect(fn('VLOOKUP', 5, table, 2, false)).toBe(CellError.NA)
    expect(fn('VLOOKUP', 5.77, table, 2, 0)).toBe('green')
    expect(fn('VLOOKUP', 1, table, 2)).toBe(CellError.NA)
    expect(fn('VLOOKUP', 7, table, 2)).toBe(null)
    expect(fn('VLOOKUP', 'b', arr([[1, 'a'], [2, 'b'], ['banana', 3]]), 2, false)).toBe(CellError.NA)
    expect(fn('VLOOKUP', 'b*', arr([[1, 'a'], [2, 'b'], ['banana', 3]]), 2, false)).toBe(3)
  })

  it('checks the column index', () => {
    expect(fn('VLOOKUP', 5, table, 0)).toBe(CellError.VALUE)
    expect(fn('VLOOKUP', 5, table, 3)).toBe(CellError.REF)
    expect(fn('VLOOKUP', 5, table, 'x')).toBe(CellError.VALUE)
  })

  it('looks along the first row with HLOOKUP', () => {
    const wide = arr([[1, 2, 3], ['a', 'b', 'c']])
    expect(fn('HLOOKUP', 2, wide, 2, false)).toBe('b')
    expect(fn('HLOOKUP', 2.5, wide, 2)).toBe('b')
    expect(fn('HLOOKUP', 2, wide, 3)).toBe(CellError.REF)
  })

  it('looks up in vector and array forms', () => {
    expect(fn('LOOKUP', 4.19, ref(sheet, 'A1:A5'), ref(sheet, 'B1:B5'))).toBe('orange')
    expect(fn('LOOKUP', 5, ref(sheet, 'A1:A5'), ref(sheet, 'B1:B5'))).toBe('orange')
    expect(fn('LOOKUP', 7.66, ref(sheet, 'A1:A5'), ref(sheet, 'B1:B5'))).toBe('blue')
    expect(fn('LOOKUP', 0, ref(sheet, 'A1:A5'), ref(sheet, 'B1:B5'))).toBe(CellError.NA)
    expect(fn('LOOKUP', 3, arr([[1, 2, 3, 4, 5]]), arr([[10, 20, 30, 40, 50]]))).toBe(30)
    expect(fn('LOOKUP', 'b', arr([['a', 'b', 'c'], [1, 2, 3]]))).toBe(2)
    expect(fn('LOOKUP', 'C', arr([['a', 1], ['b', 2], ['c', 3]]))).toBe(3)
    expect(fn('LOOKUP', 6, ref(sheet, 'A1:A5'), ref(sheet, 'B1:B2'))).toBe('green')
  })
})
