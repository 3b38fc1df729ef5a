import { describe, expect, it } from 'vitest'
import { firstLineY, rotatedTextPlacement, wrapLines } from './cell-looks'

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

describe('rotatedTextPlacement', () => {
  const cell = { x: 100, y: 50, width: 80, height: 120 }

  it('stands text turned 90 degrees upright in the cell, at the bottom and left by default, turning the canvas anticlockwise', () => {
    const placed = rotatedTextPlacement(90, 'left', undefined, cell, 60, 14, 4)
    // the turned box is 14 wide and 60 tall
    expect(placed.centerX).toBeCloseTo(100 + 4 + 7)
    expect(placed.centerY).toBeCloseTo(50 + 120 - 2 - 30)
    expect(placed.angle).toBeCloseTo(-Math.PI / 2)
  })

  it('places a turned box by the alignments as an upright line would be', () => {
    expect(rotatedTextPlacement(-90, 'right', 'top', cell, 60, 14, 4)).toMatchObject({ centerX: expect.closeTo(180 - 4 - 7), centerY: expect.closeTo(50 + 2 + 30) })
    expect(rotatedTextPlacement(90, 'center', 'middle', cell, 60, 14, 4)).toMatchObject({ centerX: expect.closeTo(140), centerY: expect.closeTo(110) })
    // at 45 degrees the box is as wide as it is tall: (60 + 14) / √2
    const side = 74 / Math.SQRT2
    expect(rotatedTextPlacement(45, 'left', 'top', cell, 60, 14, 4)).toMatchObject({ centerX: expect.closeTo(104 + side / 2), centerY: expect.closeTo(52 + side / 2), angle: expect.closeTo(-Math.PI / 4) })
  })
})
