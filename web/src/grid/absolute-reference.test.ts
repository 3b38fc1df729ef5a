import { describe, expect, it } from 'vitest'
import { cycleReferenceAnchoring } from './absolute-reference'

/** Presses F4 `times` times with the caret at `caret`, following the caret it leaves. */
function pressF4(text: string, caret: number, times: number): { text: string; caret: number } {
  let state = { text, caret }
  for (let i = 0; i < times; i++) {
    const next = cycleReferenceAnchoring(state.text, state.caret)
    if (!next) throw new Error(`no reference at ${state.caret} in ${state.text}`)
    state = next
  }
  return state
}

describe('cycleReferenceAnchoring (F4)', () => {
  it('cycles A1 through $A$1, A$1, $A1 and back to A1', () => {
    const texts = [1, 2, 3, 4].map((n) => pressF4('=A1', 3, n).text)
    expect(texts).toEqual(['=$A$1', '=A$1', '=$A1', '=A1'])
  })

  it('acts on the reference the caret is inside, leaving the others', () => {
    // caret between B and 2 of B2
    expect(cycleReferenceAnchoring('=A1+B2*C3', 5)).toEqual({ text: '=A1+$B$2*C3', caret: 8 })
  })

  it('acts on the reference just before the caret', () => {
    expect(cycleReferenceAnchoring('=SUM(A1', 7)).toEqual({ text: '=SUM($A$1', caret: 9 })
  })

  it('moves both ends of a range together', () => {
    expect(pressF4('=SUM(A1:B5)', 10, 1).text).toBe('=SUM($A$1:$B$5)')
    expect(pressF4('=SUM(A1:B5)', 10, 2).text).toBe('=SUM(A$1:B$5)')
    expect(pressF4('=SUM(A1:B5)', 10, 3).text).toBe('=SUM($A1:$B5)')
    expect(pressF4('=SUM(A1:B5)', 10, 4).text).toBe('=SUM(A1:B5)')
  })

  it('keeps a sheet prefix, quoted or not', () => {
    expect(cycleReferenceAnchoring("='My Sheet'!C3*2", 13)?.text).toBe("='My Sheet'!$C$3*2")
    expect(cycleReferenceAnchoring('=Inputs!B1', 10)?.text).toBe('=Inputs!$B$1')
  })

  it('starts from the anchoring already written', () => {
    expect(cycleReferenceAnchoring('=$A1', 4)?.text).toBe('=A1')
    expect(cycleReferenceAnchoring('=A$1', 4)?.text).toBe('=$A1')
  })

  it('does nothing away from any reference, inside a string, or outside a formula', () => {
    expect(cycleReferenceAnchoring('=A1 + 10', 8)).toBeNull()
    expect(cycleReferenceAnchoring('="A1"', 3)).toBeNull()
    expect(cycleReferenceAnchoring('A1', 2)).toBeNull()
    // a function name that looks like a cell is no reference
    expect(cycleReferenceAnchoring('=LOG10(2)', 6)).toBeNull()
  })
})
