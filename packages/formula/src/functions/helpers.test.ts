import { describe, expect, it } from 'vitest'
import { ArrayValue, CellError } from '../values.js'
import { broadcast, collectNumbers, parseCriteria, wildcardPattern } from './helpers.js'
import { MISSING } from './types.js'

describe('parseCriteria', () => {
  const values = [1, 5, 10, '5', 'apple', 'Banana', '', null, true, CellError.NA]
  const matching = (criteria: Parameters<typeof parseCriteria>[0]) => values.filter(parseCriteria(criteria))

  it('compares numbers with operators', () => {
    expect(matching('>4')).toEqual([5, 10])
    expect(matching('<=5')).toEqual([1, 5])
    expect(matching(5)).toEqual([5, '5'])
    expect(matching('<>5')).toEqual([1, 10, '5', 'apple', 'Banana', '', null, true, CellError.NA])
  })

  it('matches text case-insensitively with wildcards', () => {
    expect(matching('APPLE')).toEqual(['apple'])
    expect(matching('b*')).toEqual(['Banana'])
    expect(matching('?????')).toEqual(['apple'])
    expect(matching('*')).toEqual(['5', 'apple', 'Banana', ''])
    expect(matching('>b')).toEqual(['Banana'])
  })

  it('matches blanks, booleans and errors', () => {
    expect(matching('')).toEqual(['', null])
    expect(matching('=')).toEqual([null])
    expect(matching('<>')).toEqual([1, 5, 10, '5', 'apple', 'Banana', '', true, CellError.NA])
    expect(matching(true)).toEqual([true])
    expect(matching('#N/A')).toEqual([CellError.NA])
  })

  it('escapes wildcards with a tilde', () => {
    expect(wildcardPattern('a~*')?.test('a*')).toBe(true)
    expect(wildcardPattern('a~*')?.test('ab')).toBe(false)
  })
})

describe('collectNumbers', () => {
  it('takes direct text and booleans but skips them inside arrays', () => {
    const array = ArrayValue.fromRows([[1, '2', true, null]])
    expect(collectNumbers(['3', true, array, 4])).toEqual([3, 1, 1, 4])
    expect(collectNumbers(['x'])).toBe(CellError.VALUE)
    expect(collectNumbers([ArrayValue.fromRows([[1, CellError.DIV0]])])).toBe(CellError.DIV0)
    expect(collectNumbers([MISSING, 2], { countEmptyArgs: true })).toEqual([0, 2])
  })
})

describe('broadcast', () => {
  it('repeats single rows and columns and pads with #N/A', () => {
    const column = ArrayValue.fromRows([[1], [2]])
    const row = ArrayValue.fromRows([[10, 20, 30]])
    const sums = broadcast([column, row], ([a, b]) => (a as number) + (b as number))
    expect(sums.toRows()).toEqual([
      [11, 21, 31],
      [12, 22, 32],
    ])
    const uneven = broadcast([ArrayValue.fromRows([[1, 2]]), ArrayValue.fromRows([[1, 2, 3], [4, 5, 6]])], ([a]) => a)
    expect(uneven.toRows()).toEqual([
      [1, 2, CellError.NA],
      [1, 2, CellError.NA],
    ])
  })
})
