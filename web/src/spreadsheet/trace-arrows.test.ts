import { describe, expect, it } from 'vitest'
import type { CellPosition } from '../grid/address'
import { cellAddress, parseCellAddress } from '../grid/address'
import type { TraceSource, TraceState } from './trace-arrows'
import { describeArrow, traceArrows, traceDependents, tracePrecedents } from './trace-arrows'

/** A workbook of inputs by address; cells whose input starts with '#' hold an error. */
function workbook(sheets: Record<string, Record<string, string>>): TraceSource {
  const input = (sheet: string, pos: CellPosition) => sheets[sheet]?.[cellAddress(pos)] ?? ''
  return {
    sheetNames: Object.keys(sheets),
    names: [],
    forEachFormula(sheet, visit) {
      for (const [address, text] of Object.entries(sheets[sheet] ?? {})) if (text.startsWith('=')) visit(parseCellAddress(address)!, text)
    },
    formulaAt: (sheet, pos) => (input(sheet, pos).startsWith('=') ? input(sheet, pos) : ''),
    isError: (sheet, pos) => input(sheet, pos).startsWith('#'),
  }
}

const at = (address: string) => parseCellAddress(address)!
const drawn = (state: TraceState, source: TraceSource) => traceArrows(state, source).map(describeArrow)

// A small valuation: revenue and margin feed EBITDA, EBITDA and a multiple feed EV, EV feeds equity.
const model = workbook({
  Model: { B1: '100', B2: '0.3', B3: '=B1*B2', B4: '=B3*Inputs!B1', B5: '=B4-B6', B6: '#DIV/0!', B7: '=SUM(B1:B2)' },
  Inputs: { B1: '8', C1: '=Model!B5' },
})

describe('Trace Precedents', () => {
  it('draws the arrows into the active formula first, then one level further on each click', () => {
    const first = tracePrecedents(null, 'Model', at('B4'), model)
    expect(first.added).toBe(1)
    expect(drawn(first.state, model)).toEqual(['B3 → B4', 'Inputs (another sheet) → B4'])
    const second = tracePrecedents(first.state, 'Model', at('B4'), model)
    expect(second.added).toBe(1)
    expect(drawn(second.state, model)).toEqual(['B3 → B4', 'Inputs (another sheet) → B4', 'B1 → B3', 'B2 → B3'])
    // B1 and B2 hold numbers: nothing further to trace
    expect(tracePrecedents(second.state, 'Model', at('B4'), model).added).toBe(0)
  })

  it('draws a range read as one arrow, and an arrow from an error cell as an error', () => {
    const sum = tracePrecedents(null, 'Model', at('B7'), model)
    expect(drawn(sum.state, model)).toEqual(['B1:B2 → B7'])
    const withError = tracePrecedents(sum.state, 'Model', at('B5'), model)
    expect(drawn(withError.state, model)).toEqual(['B1:B2 → B7', 'B4 → B5', 'B6 → B5 (error)'])
  })

  it('traces nothing for a cell without a formula, and starts over on another sheet', () => {
    expect(tracePrecedents(null, 'Model', at('B1'), model).added).toBe(0)
    const model4 = tracePrecedents(null, 'Model', at('B4'), model).state
    const inputs = tracePrecedents(model4, 'Inputs', at('C1'), model)
    expect(inputs.state.sheet).toBe('Inputs')
    expect(drawn(inputs.state, model)).toEqual(['Model (another sheet) → C1'])
  })

  it('follows formula edits: the arrows are read from the formulas as they are now', () => {
    const state = tracePrecedents(null, 'Model', at('B3'), model).state
    const edited = workbook({ Model: { B1: '100', B2: '0.3', B3: '=B1*B2+B9' }, Inputs: {} })
    expect(drawn(state, edited)).toEqual(['B1 → B3', 'B2 → B3', 'B9 → B3'])
  })
})

describe('Trace Dependents', () => {
  it('draws arrows from the active cell to the formulas that read it, then to theirs', () => {
    const first = traceDependents(null, 'Model', at('B1'), model)
    expect(first.added).toBe(1)
    expect(drawn(first.state, model)).toEqual(['B1 → B3', 'B1 → B7'])
    const second = traceDependents(first.state, 'Model', at('B1'), model)
    expect(drawn(second.state, model)).toEqual(['B1 → B3', 'B1 → B7', 'B3 → B4'])
  })

  it('points to another sheet when a formula there reads the cell', () => {
    const state = traceDependents(null, 'Model', at('B5'), model).state
    expect(drawn(state, model)).toEqual(['B5 → Inputs (another sheet)'])
  })

  it('adds nothing for a cell no formula reads', () => {
    expect(traceDependents(null, 'Model', at('B7'), model).added).toBe(0)
  })
})
