import { describe, expect, it } from 'vitest'
import { ArrayValue, CellError } from '../../values.js'
import type { Value , RangeRef } from '../../values.js'
import { MISSING } from '../types.js'
import { functions } from './index.js'
import { arr, caller, makeSheet, ref } from './test-harness.js'

const fn = caller(functions)
const rows = (value: Value) => (value instanceof ArrayValue ? value.toRows() : value)

const days = makeSheet([['Mon'], ['Tue'], ['Wed'], ['Thu'], ['Fri'], ['Sat'], ['Sun']])
const week = ref(days, 'A1:A7')

describe('TAKE, DROP, EXPAND', () => {
  it('takes and drops from either end', () => {
    expect(rows(fn('TAKE', week, 2))).toEqual([['Mon'], ['Tue']])
    expect(rows(fn('TAKE', week, -3))).toEqual([['Fri'], ['Sat'], ['Sun']])
    expect(rows(fn('DROP', week, 5))).toEqual([['Sat'], ['Sun']])
    expect(rows(fn('DROP', week, 6.2))).toEqual([['Sun']])
    expect(rows(fn('DROP', week, -5))).toEqual([['Mon'], ['Tue']])
    expect(rows(fn('TAKE', arr([[1, 2, 3], [4, 5, 6]]), MISSING, 2))).toEqual([[1, 2], [4, 5]])
    expect(rows(fn('DROP', arr([[1, 2, 3], [4, 5, 6]]), 1, -1))).toEqual([[4, 5]])
  })

  it('returns #CALC! for an empty result', () => {
    expect(fn('TAKE', week, 0)).toBe(CellError.CALC)
    expect(fn('DROP', week, 7)).toBe(CellError.CALC)
    expect(fn('DROP', week, -1200)).toBe(CellError.CALC)
    expect(fn('DROP', week, 1, 1)).toBe(CellError.CALC)
  })

  it('expands with padding', () => {
    expect(rows(fn('EXPAND', arr([[1, 2], [3, 4]]), 3))).toEqual([[1, 2], [3, 4], [CellError.NA, CellError.NA]])
    expect(rows(fn('EXPAND', arr([[1]]), 2, 2, 'x'))).toEqual([[1, 'x'], ['x', 'x']])
    expect(fn('EXPAND', arr([[1, 2], [3, 4]]), 1)).toBe(CellError.VALUE)
  })
})

describe('HSTACK, VSTACK, TOCOL, TOROW, WRAPCOLS, WRAPROWS', () => {
  const grid = makeSheet([
    ['a', 1, 'c'],
    ['b', null, CellError.NA],
  ])
  it('stacks arrays and pads with #N/A', () => {
    expect(rows(fn('HSTACK', arr([[1], [2], [3]]), arr([[5], [6]])))).toEqual([[1, 5], [2, 6], [3, CellError.NA]])
    expect(rows(fn('VSTACK', arr([[1, 2]]), 3))).toEqual([[1, 2], [3, CellError.NA]])
    expect(rows(fn('HSTACK', ref(grid, 'B1:B2'), CellError.DIV0))).toEqual([[1, CellError.DIV0], [0, CellError.NA]])
  })

  it('flattens by row or by column and skips blanks or errors', () => {
    const block = ref(grid, 'A1:C2')
    expect(rows(fn('TOCOL', block))).toEqual([['a'], [1], ['c'], ['b'], [0], [CellError.NA]])
    expect(rows(fn('TOCOL', block, 0, true))).toEqual([['a'], ['b'], [1], [0], ['c'], [CellError.NA]])
    expect(rows(fn('TOROW', block, 3))).toEqual([['a', 1, 'c', 'b']])
    expect(rows(fn('TOROW', block, 2))).toEqual([['a', 1, 'c', 'b', 0]])
    expect(fn('TOCOL', block, 4)).toBe(CellError.VALUE)
  })

  it('wraps a vector into columns or rows', () => {
    const vector = arr([[1, 2, 3, 4, 5]])
    expect(rows(fn('WRAPCOLS', vector, 2))).toEqual([[1, 3, 5], [2, 4, CellError.NA]])
    expect(rows(fn('WRAPROWS', vector, 2, 0))).toEqual([[1, 2], [3, 4], [5, 0]])
    expect(rows(fn('WRAPCOLS', false, 2))).toEqual([[false]])
    expect(fn('WRAPROWS', vector, 0)).toBe(CellError.NUM)
    expect(fn('WRAPROWS', arr([[1, 2], [3, 4]]), 2)).toBe(CellError.VALUE)
  })
})

describe('CHOOSECOLS, CHOOSEROWS, TRIMRANGE', () => {
  const table = arr([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
  it('picks columns and rows, counting from the end when negative', () => {
    expect(rows(fn('CHOOSECOLS', table, 3, 1))).toEqual([[3, 1], [6, 4], [9, 7]])
    expect(rows(fn('CHOOSEROWS', table, -1, arr([[1, 1]])))).toEqual([[7, 8, 9], [1, 2, 3], [1, 2, 3]])
    expect(fn('CHOOSECOLS', table, 4)).toBe(CellError.VALUE)
    expect(fn('CHOOSEROWS', table, 0)).toBe(CellError.VALUE)
  })

  it('trims empty outer rows and columns of a range', () => {
    const sheet = makeSheet([[], [null, 1, 2], [null, null, null, 3], []])
    const trimmed = fn('TRIMRANGE', ref(sheet, 'A1:F4')) as RangeRef
    expect([trimmed.top, trimmed.left, trimmed.bottom, trimmed.right]).toEqual([1, 1, 2, 3])
    const leading = fn('TRIMRANGE', ref(sheet, 'A1:F4'), 1, 0) as RangeRef
    expect([leading.top, leading.left, leading.bottom, leading.right]).toEqual([1, 0, 3, 5])
  })
})
