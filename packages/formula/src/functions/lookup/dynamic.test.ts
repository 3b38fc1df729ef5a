import { describe, expect, it } from 'vitest'
import { ArrayValue, CellError } from '../../values.js'
import type { Value } from '../../values.js'
import { MISSING } from '../types.js'
import { functions } from './index.js'
import { arr, caller, makeSheet, ref } from './test-harness.js'

const fn = caller(functions)
const rows = (value: Value) => (value instanceof ArrayValue ? value.toRows() : value)

describe('FILTER', () => {
  const sheet = makeSheet([
    ['a', 'Finance', 'HR', 1],
    ['b', 'Calc', 'HR', 2],
    ['c', 'Finance', 'Calc', 3],
    ['d', 'Calc', 'Calc', 4],
  ])
  it('keeps the rows whose include value is true', () => {
    expect(rows(fn('FILTER', ref(sheet, 'A1:A4'), arr([[1], [0], [1], [0]])))).toEqual([['a'], ['c']])
    expect(rows(fn('FILTER', ref(sheet, 'A1:D4'), arr([[false], [true], [false], [false]])))).toEqual([['b', 'Calc', 'HR', 2]])
    expect(rows(fn('FILTER', arr([[1, 2, 3]]), arr([[true, false, true]])))).toEqual([[1, 3]])
  })

  it('answers if_empty, #CALC! or an error of the include values', () => {
    expect(fn('FILTER', ref(sheet, 'A1:A4'), arr([[0], [0], [0], [0]]))).toBe(CellError.CALC)
    expect(fn('FILTER', ref(sheet, 'A1:A4'), arr([[0], [0], [0], [0]]), 'none')).toBe('none')
    expect(fn('FILTER', ref(sheet, 'A1:A4'), arr([[0], [0], [0], [0]]), MISSING)).toBe(0)
    expect(fn('FILTER', ref(sheet, 'A1:A3'), arr([['yes'], [1], [1]]))).toBe(CellError.VALUE)
    expect(fn('FILTER', ref(sheet, 'A1:A3'), arr([[1], [CellError.DIV0], [1]]))).toBe(CellError.DIV0)
    expect(fn('FILTER', ref(sheet, 'A1:A4'), arr([[1], [1]]))).toBe(CellError.VALUE)
  })
})

describe('SORT and SORTBY', () => {
  it('sorts rows by a column, in either order, numbers before text before booleans', () => {
    expect(rows(fn('SORT', arr([[30], [10], [20]])))).toEqual([[10], [20], [30]])
    expect(rows(fn('SORT', arr([['b'], [true], ['A'], [2]])))).toEqual([[2], ['A'], ['b'], [true]])
    const table = arr([['cherry', 3], ['apple', 1], ['banana', 2]])
    expect(rows(fn('SORT', table, 2, -1))).toEqual([['cherry', 3], ['banana', 2], ['apple', 1]])
    expect(rows(fn('SORT', arr([[30, 10, 20], [3, 1, 2]]), 1, 1, true))).toEqual([[10, 20, 30], [1, 2, 3]])
    expect(rows(fn('SORT', arr([[1, 'b'], [1, 'a'], [0, 'c']]), arr([[1, 2]]), arr([[1, -1]])))).toEqual([
      [0, 'c'],
      [1, 'b'],
      [1, 'a'],
    ])
    expect(fn('SORT', table, 3)).toBe(CellError.VALUE)
    expect(fn('SORT', table, 1, 2)).toBe(CellError.VALUE)
  })

  it('sorts by other arrays', () => {
    const names = arr([['Tom'], ['Fred'], ['Amy']])
    expect(rows(fn('SORTBY', names, arr([[52], [65], [30]])))).toEqual([['Amy'], ['Tom'], ['Fred']])
    expect(rows(fn('SORTBY', names, arr([[1], [2], [1]]), -1, arr([['b'], ['x'], ['a']]), 1))).toEqual([
      ['Fred'],
      ['Amy'],
      ['Tom'],
    ])
    expect(fn('SORTBY', names, arr([[1], [2]]))).toBe(CellError.VALUE)
  })
})

describe('UNIQUE', () => {
  it('keeps distinct rows in order of appearance, case-insensitively', () => {
    expect(rows(fn('UNIQUE', arr([['apple'], ['banana'], ['Apple'], ['cherry']])))).toEqual([['apple'], ['banana'], ['cherry']])
    expect(rows(fn('UNIQUE', arr([[1], [2], [2], [3]]), false, true))).toEqual([[1], [3]])
    expect(rows(fn('UNIQUE', arr([[1, 1, 2]]), true))).toEqual([[1, 2]])
    expect(rows(fn('UNIQUE', arr([[1, 'a'], [1, 'a'], [1, 'b']])))).toEqual([[1, 'a'], [1, 'b']])
    expect(fn('UNIQUE', arr([[1], [1]]), false, true)).toBe(CellError.CALC)
  })
})
