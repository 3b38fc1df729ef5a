import { describe, expect, it } from 'vitest'
import type { NavigationContext, NavigationKey } from './navigation'
import { beginEdit, committedInput, dragPointTo, editText, hasChanged, isPointable, pointAtCell, pointWithKey } from './editor-state'

const ctx: NavigationContext = {
  bounds: { columnCount: 50, rowCount: 100 },
  pageRows: 10,
  isFilled: () => false,
  lastUsedCell: () => ({ col: 0, row: 0 }),
}
const key = (k: string, shift = false): NavigationKey => ({ key: k, shift, ctrl: false, alt: false })
const B5 = { col: 1, row: 4 }

describe('pointing with the keyboard', () => {
  it('starts from the edited cell and moves the reference with each arrow', () => {
    let state = beginEdit(B5, '', '=', 'enter')
    state = pointWithKey(state, key('ArrowUp'), ctx)!
    expect(state.text).toBe('=B4')
    state = pointWithKey(state, key('ArrowLeft'), ctx)!
    expect(state.text).toBe('=A4')
    expect(state.caret).toBe(3)
  })

  it('stretches the reference into a range with Shift', () => {
    let state = beginEdit(B5, '', '=SUM(', 'enter')
    state = pointWithKey(state, key('ArrowUp'), ctx)!
    state = pointWithKey(state, key('ArrowUp', true), ctx)!
    state = pointWithKey(state, key('ArrowUp', true), ctx)!
    expect(state.text).toBe('=SUM(B2:B4')
    expect(committedInput(state)).toBe('=SUM(B2:B4)')
  })

  it('starts a new reference after an operator is typed', () => {
    let state = beginEdit(B5, '', '=', 'enter')
    state = pointWithKey(state, key('ArrowUp'), ctx)!
    state = editText(state, '=B4+', 4)
    expect(state.pointing).toBeNull()
    state = pointWithKey(state, key('ArrowUp'), ctx)!
    expect(state.text).toBe('=B4+B4')
    state = pointWithKey(state, key('ArrowDown'), ctx)!
    expect(state.text).toBe('=B4+B5')
  })

  it('does not point in plain text, in F2 edit mode, or mid-word', () => {
    expect(pointWithKey(beginEdit(B5, '', 'abc', 'enter'), key('ArrowUp'), ctx)).toBeNull()
    expect(pointWithKey(beginEdit(B5, '=', '=', 'edit'), key('ArrowUp'), ctx)).toBeNull()
    expect(pointWithKey(beginEdit(B5, '', '=SU', 'enter'), key('ArrowUp'), ctx)).toBeNull()
    expect(isPointable(beginEdit(B5, '', '=A1', 'enter'))).toBe(false)
  })
})

describe('pointing with the mouse', () => {
  it('writes the clicked cell, replaces it on another click, and stretches with Shift or a drag', () => {
    let state = beginEdit(B5, '', '=SUM(', 'enter')
    state = pointAtCell(state, { col: 0, row: 0 }, false)!
    expect(state.text).toBe('=SUM(A1')
    state = pointAtCell(state, { col: 0, row: 1 }, false)!
    expect(state.text).toBe('=SUM(A2')
    state = pointAtCell(state, { col: 2, row: 2 }, true)!
    expect(state.text).toBe('=SUM(A2:C3')
    state = dragPointTo(state, { col: 0, row: 9 })
    expect(state.text).toBe('=SUM(A2:A10')
  })

  it('clicks into other sheets write the sheet name', () => {
    const state = pointAtCell(beginEdit(B5, '', '=', 'enter'), { col: 0, row: 0 }, false, "'Cash Flow'!")!
    expect(state.text).toBe("='Cash Flow'!A1")
  })

  it('does not point when the formula cannot take a reference at the caret', () => {
    expect(pointAtCell(beginEdit(B5, '', '=A1', 'enter'), { col: 0, row: 0 }, false)).toBeNull()
    expect(pointAtCell(beginEdit(B5, '', 'text', 'enter'), { col: 0, row: 0 }, false)).toBeNull()
  })
})

describe('committing', () => {
  it('closes parentheses and tells whether the input changed', () => {
    expect(committedInput(beginEdit(B5, '', '=ROUND(SUM(A1:A3', 'enter'))).toBe('=ROUND(SUM(A1:A3))')
    expect(hasChanged(beginEdit(B5, '=SUM(A1)', '=SUM(A1', 'edit'))).toBe(false)
    expect(hasChanged(beginEdit(B5, '5', '6', 'enter'))).toBe(true)
  })
})
