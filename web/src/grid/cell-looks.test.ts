import { describe, expect, it } from 'vitest'
import { firstLineY, wrapLines } from './cell-looks'

/** Every character 7 pixels wide. */
const measure = (text: string) => text.length * 7

describe('wrapLines', () => {
  it('breaks at spaces within the width, and inside a word only when the word alone is wider', () => {
    expect(wrapLines('Revenue growth assumption', 70, measure)).toEqual(['Revenue', 'growth', 'assumption'])
    expect(wrapLines('a bb ccc dddd', 42, measure)).toEqual(['a bb', 'ccc', 'dddd'])
    expect(wrapLines('EBITDAMARGINS', 35, measure)).toEqual(['EBITD', 'AMARG', 'INS'])
    expect(wrapLines('first\nsecond line', 100, measure)).toEqual(['first', 'second line'])
    expect(wrapLines('', 50, measure)).toEqual([''])
  })
})

describe('firstLineY', () => {
  it('puts the block of lines at the top, middle or bottom of the cell', () => {
    expect(firstLineY('top', 100, 60, 2, 14)).toBe(109)
    expect(firstLineY('bottom', 100, 60, 2, 14)).toBe(137)
    expect(firstLineY('middle', 100, 60, 2, 14)).toBe(124)
  })
})
