import { describe, expect, it } from 'vitest'
import { CellError } from '../values.js'
import { Engine } from './engine.js'

function sheet(cells: Record<string, string | number>): Engine {
  const engine = new Engine()
  engine.addSheet('S')
  engine.setCells(Object.entries(cells).map(([address, input]) => ({ sheet: 'S', address, input })))
  return engine
}

function v(engine: Engine, address: string) {
  const value = engine.getValue('S', address)
  return value instanceof CellError ? value.code : value
}

/** Rows 17 to 24 of column E: each a formula spilling three values to the right, from the inputs in B. */
function block(): Engine {
  const cells: Record<string, string | number> = {}
  for (let row = 17; row <= 24; row++) {
    cells[`B${row}`] = row
    cells[`E${row}`] = `=B${row}*SEQUENCE(1,3)`
  }
  cells.A1 = '=SUM(E17#:E24#)'
  cells.A2 = '=BYCOL(E17#:E24#,LAMBDA(c,SUM(c)))'
  cells.A3 = '=ROWS(E17#:E24#)*10+COLUMNS(E17#:E24#)'
  return sheet(cells)
}

describe('ranges between spill references', () => {
  it('cover every cell between the two spill ranges', () => {
    const engine = block()
    const total = (17 + 18 + 19 + 20 + 21 + 22 + 23 + 24) * 6
    expect(v(engine, 'A1')).toBe(total)
    expect([v(engine, 'A2'), v(engine, 'B2'), v(engine, 'C2')]).toEqual([total / 6, (total / 6) * 2, (total / 6) * 3])
    expect(v(engine, 'A3')).toBe(83)
  })

  it('recalculate when a row between the two spill references changes', () => {
    const engine = block()
    const before = v(engine, 'A1') as number
    // E20 is neither end of the range: only the range between the ends reads it.
    engine.setCell('S', 'B20', 120)
    expect(v(engine, 'A1')).toBe(before + 100 * 6)
    expect(v(engine, 'B2')).toBe(((before + 600) / 6) * 2)
  })

  it('recalculate when a constant inside the range, outside either spill, changes', () => {
    const engine = sheet({ A1: '=SEQUENCE(1,3)', C5: 7, D1: '=SUM(A1#:C5)' })
    expect(v(engine, 'D1')).toBe(13)
    engine.setCell('S', 'B3', 100)
    expect(v(engine, 'D1')).toBe(113)
    engine.setCell('S', 'B3', '')
    expect(v(engine, 'D1')).toBe(13)
  })

  it('follow a spill that grows or shrinks, and stop reading the cells it left', () => {
    const engine = sheet({ F1: 2, A1: '=SEQUENCE(F1)', D1: 10, D2: 20, D3: 30, E1: '=SUM(A1#:D1)' })
    // A1:D2 while A1 spills two rows.
    expect(v(engine, 'E1')).toBe(1 + 2 + 10 + 20)
    engine.setCell('S', 'F1', 3)
    expect(v(engine, 'E1')).toBe(1 + 2 + 3 + 10 + 20 + 30)
    engine.setCell('S', 'F1', 1)
    expect(v(engine, 'E1')).toBe(1 + 10)
    // D3 is outside the range now: changing it recalculates nothing that reads the range.
    const changed = engine.setCell('S', 'D3', 300).map((change) => change.address)
    expect(changed).toEqual(['D3'])
    engine.setCell('S', 'D1', 11)
    expect(v(engine, 'E1')).toBe(1 + 11)
  })

  it('read a formula inside the range that is calculated after the reader', () => {
    // Z9 is calculated first (it was entered first) and meets E18, not yet calculated, inside its range.
    const engine = sheet({ Z9: '=SUM(E17#:E19#)', E17: '=SEQUENCE(1,2)', E18: '=E17*10', E19: '=SEQUENCE(1,2)*100' })
    expect(v(engine, 'Z9')).toBe(3 + 10 + 300)
  })

  it('are a circular reference when the reader sits inside the range', () => {
    const engine = sheet({ A1: '=SEQUENCE(2)', A3: 5, B2: '=SUM(A1#:B3)' })
    expect(v(engine, 'B2')).toBe(0)
    expect(engine.getCircularReferences()).toEqual([[{ sheet: 'S', address: 'B2' }]])
  })
})

describe('spill references', () => {
  it('to a formula that does not spill, are that cell', () => {
    const engine = sheet({ A1: '=2+3', B1: '=A1#*2', C1: '=SUM(A1#:A2)', A2: 4 })
    expect([v(engine, 'B1'), v(engine, 'C1')]).toEqual([10, 9])
    engine.setCell('S', 'A1', '=SEQUENCE(2)')
    // A2 blocks the spill: the reference is the #SPILL! error.
    expect([v(engine, 'A1'), v(engine, 'B1'), v(engine, 'C1')]).toEqual(['#SPILL!', '#SPILL!', '#SPILL!'])
    engine.setCell('S', 'A2', '')
    expect([v(engine, 'B1'), v(engine, 'B2'), v(engine, 'C1')]).toEqual([2, 4, 3])
  })

  it('to a constant, an empty cell or a cell inside another spill, are #REF! as in Excel', () => {
    const engine = sheet({ A1: 5, B1: '=SEQUENCE(3)', C1: '=SUM(A1#)', C2: '=SUM(B2#)', C3: '=SUM(Z99#)' })
    expect([v(engine, 'C1'), v(engine, 'C2'), v(engine, 'C3')]).toEqual(['#REF!', '#REF!', '#REF!'])
  })
})
