import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatAddress } from '../address/a1.js'
import { CellError } from '../values.js'
import { Engine } from './engine.js'

/** A workbook of the given sheets, each with its cells. */
function workbook(sheets: Record<string, Record<string, string | number>>): Engine {
  const engine = new Engine()
  for (const name of Object.keys(sheets)) engine.addSheet(name)
  engine.setCells(Object.entries(sheets).flatMap(([sheet, cells]) => Object.entries(cells).map(([address, input]) => ({ sheet, address, input }))))
  return engine
}

function value(engine: Engine, address: string, sheet = 'Sheet1') {
  const result = engine.getValue(sheet, address)
  return result instanceof CellError ? result.code : result
}

const input = (engine: Engine, address: string, sheet = 'Sheet1') => engine.getInput(sheet, address)

describe('moveRange: one cell', () => {
  it('re-points formulas to the moved cell and clears the source (a cut A1 pasted on C1)', () => {
    const engine = workbook({ Sheet1: { A1: 5, B1: '=A1*2' } })
    engine.moveRange('Sheet1', 'A1', 'Sheet1', 'C1')
    expect(input(engine, 'A1')).toBe('')
    expect(input(engine, 'C1')).toBe('5')
    expect(input(engine, 'B1')).toBe('=C1*2')
    expect(value(engine, 'B1')).toBe(10)
    engine.setCell('Sheet1', 'C1', 7)
    expect(value(engine, 'B1')).toBe(14)
    engine.setCell('Sheet1', 'A1', 100)
    expect(value(engine, 'B1')).toBe(14)
  })

  it('keeps a moved formula pointing at the cells it read outside the block', () => {
    const engine = workbook({ Sheet1: { A1: 10, B1: '=A1*2' } })
    engine.moveRange('Sheet1', 'B1', 'Sheet1', 'D5')
    expect(input(engine, 'D5')).toBe('=A1*2')
    expect(value(engine, 'D5')).toBe(20)
    expect(input(engine, 'B1')).toBe('')
  })

  it('returns the cells whose value changed', () => {
    const engine = workbook({ Sheet1: { A1: 5, B1: '=A1*2' } })
    const changes = engine.moveRange('Sheet1', 'A1', 'Sheet1', 'C1')
    const addresses = changes.map((change) => `${change.sheet}!${change.address}`).sort()
    expect(addresses).toEqual(expect.arrayContaining(['Sheet1!A1', 'Sheet1!C1']))
  })

  it('does nothing when the block lands where it is', () => {
    const engine = workbook({ Sheet1: { A1: 5, B1: '=A1*2' } })
    expect(engine.moveRange('Sheet1', 'A1:A2', 'Sheet1', 'A1')).toEqual([])
    expect(input(engine, 'B1')).toBe('=A1*2')
  })

  it('keeps what was typed and the number format it implied', () => {
    const engine = workbook({ Sheet1: { A1: '15%', B1: '=A1*2' } })
    engine.moveRange('Sheet1', 'A1', 'Sheet1', 'A3')
    expect(input(engine, 'A3')).toBe('15%')
    expect(engine.getDisplay('Sheet1', 'A3')).toBe('15%')
    expect(engine.getDisplay('Sheet1', 'A1')).toBe('')
    expect(value(engine, 'B1')).toBe(0.3)
  })
})

describe('moveRange: blocks', () => {
  it('moves a block: references inside it move with it, references to it follow it', () => {
    const engine = workbook({
      Sheet1: { A1: 1, A2: 2, B1: '=A1+A2', B2: '=$A$1*10', D1: '=SUM(A1:A2)', D2: '=B1', D3: '=SUM(A1:B2)' },
    })
    engine.moveRange('Sheet1', 'A1:B2', 'Sheet1', 'F5')
    expect([input(engine, 'F5'), input(engine, 'F6'), input(engine, 'G5'), input(engine, 'G6')]).toEqual(['1', '2', '=F5+F6', '=$F$5*10'])
    expect(input(engine, 'D1')).toBe('=SUM(F5:F6)')
    expect(input(engine, 'D2')).toBe('=G5')
    expect(input(engine, 'D3')).toBe('=SUM(F5:G6)')
    expect([value(engine, 'G5'), value(engine, 'G6'), value(engine, 'D1'), value(engine, 'D3')]).toEqual([3, 10, 3, 16])
    for (const address of ['A1', 'A2', 'B1', 'B2']) expect(input(engine, address)).toBe('')
  })

  it('re-points a range only when it lies wholly inside the moved block', () => {
    const engine = workbook({
      Sheet1: { A1: 1, A2: 2, A3: 3, A4: 4, A5: 5, C1: '=SUM(A1:A3)', C2: '=SUM(A1:A5)', C3: '=SUM(A2:A5)', C4: '=SUM(A1:A2)', C5: '=SUM(A:A)' },
    })
    engine.moveRange('Sheet1', 'A1:A3', 'Sheet1', 'E1')
    expect(input(engine, 'C1')).toBe('=SUM(E1:E3)')
    expect(input(engine, 'C4')).toBe('=SUM(E1:E2)')
    // ranges reaching outside the block stay, even when they contain the whole block
    expect(input(engine, 'C2')).toBe('=SUM(A1:A5)')
    expect(input(engine, 'C3')).toBe('=SUM(A2:A5)')
    expect(input(engine, 'C5')).toBe('=SUM(A:A)')
    expect([value(engine, 'C1'), value(engine, 'C2'), value(engine, 'C3'), value(engine, 'C4')]).toEqual([6, 9, 9, 3])
  })

  it('keeps a moved formula on ranges that reach outside the block', () => {
    const engine = workbook({ Sheet1: { A1: 1, A2: 2, A3: 3, B1: '=SUM(A1:A3)' } })
    engine.moveRange('Sheet1', 'A1:B2', 'Sheet1', 'D1')
    expect(input(engine, 'E1')).toBe('=SUM(A1:A3)')
    expect(value(engine, 'E1')).toBe(3)
  })

  it('moves a block onto part of itself (down one row)', () => {
    const engine = workbook({ Sheet1: { A1: 1, A2: 2, A3: '=A2*10', B1: '=A1', B2: '=A2', B3: '=A3', B4: '=A4', C1: '=SUM(A1:A3)' } })
    engine.moveRange('Sheet1', 'A1:A3', 'Sheet1', 'A2')
    expect([input(engine, 'A1'), input(engine, 'A2'), input(engine, 'A3'), input(engine, 'A4')]).toEqual(['', '1', '2', '=A3*10'])
    expect([input(engine, 'B1'), input(engine, 'B2'), input(engine, 'B3')]).toEqual(['=A2', '=A3', '=A4'])
    // A4 was overwritten by the block without being part of it
    expect(input(engine, 'B4')).toBe('=#REF!')
    expect(value(engine, 'B4')).toBe('#REF!')
    expect(input(engine, 'C1')).toBe('=SUM(A2:A4)')
    expect([value(engine, 'B3'), value(engine, 'C1')]).toEqual([20, 23])
  })

  it('moves a block up and left over part of itself', () => {
    const engine = workbook({ Sheet1: { B2: 1, C2: 2, B3: '=B2+C2', E1: '=B3' } })
    engine.moveRange('Sheet1', 'B2:C3', 'Sheet1', 'A1')
    expect([input(engine, 'A1'), input(engine, 'B1'), input(engine, 'A2')]).toEqual(['1', '2', '=A1+B1'])
    expect([input(engine, 'B2'), input(engine, 'C2'), input(engine, 'B3'), input(engine, 'C3')]).toEqual(['', '', '', ''])
    expect(input(engine, 'E1')).toBe('=A2')
    expect(value(engine, 'E1')).toBe(3)
  })
})

describe('moveRange: absolute and relative references', () => {
  it('keeps every $ of a re-pointed reference', () => {
    const engine = workbook({ Sheet1: { A1: 2, B5: '=$A$1+A$1+$A1+A1' } })
    engine.moveRange('Sheet1', 'A1', 'Sheet1', 'C3')
    expect(input(engine, 'B5')).toBe('=$C$3+C$3+$C3+C3')
    expect(value(engine, 'B5')).toBe(8)
  })

  it('keeps the $ of a moved formula’s references to outside cells, and their targets', () => {
    const engine = workbook({ Sheet1: { A1: 3, B1: '=$A$1+A1+A$1' } })
    engine.moveRange('Sheet1', 'B1', 'Sheet1', 'C4')
    expect(input(engine, 'C4')).toBe('=$A$1+A1+A$1')
    expect(value(engine, 'C4')).toBe(9)
  })

  it('re-points a mixed range wholly inside the block', () => {
    const engine = workbook({ Sheet1: { A1: 1, A2: 2, D1: '=SUM($A1:A$2)' } })
    engine.moveRange('Sheet1', 'A1:A2', 'Sheet1', 'B3')
    expect(input(engine, 'D1')).toBe('=SUM($B3:B$4)')
    expect(value(engine, 'D1')).toBe(3)
  })
})

describe('moveRange: across sheets', () => {
  it('moves a cell to another sheet; formulas on both sheets follow it', () => {
    const engine = workbook({ Sheet1: { A1: 7, B1: '=A1+1' }, Sheet2: { A1: '=Sheet1!A1*2' } })
    engine.moveRange('Sheet1', 'A1', 'Sheet2', 'C3')
    expect(input(engine, 'A1')).toBe('')
    expect(input(engine, 'C3', 'Sheet2')).toBe('7')
    expect(input(engine, 'B1')).toBe('=Sheet2!C3+1')
    expect(input(engine, 'A1', 'Sheet2')).toBe('=Sheet2!C3*2')
    expect([value(engine, 'B1'), value(engine, 'A1', 'Sheet2')]).toEqual([8, 14])
  })

  it('qualifies a moved formula’s references to the sheet it left', () => {
    const engine = workbook({ Sheet1: { A1: 3, B1: '=A1*2', C1: 4, D1: '=B1+C1' }, Sheet2: {} })
    engine.moveRange('Sheet1', 'B1:D1', 'Sheet2', 'A5')
    // B1 and D1 moved along; A1 stayed behind on Sheet1
    expect(input(engine, 'A5', 'Sheet2')).toBe('=Sheet1!A1*2')
    expect(input(engine, 'C5', 'Sheet2')).toBe('=A5+B5')
    expect(value(engine, 'C5', 'Sheet2')).toBe(10)
  })

  it('names the sheet a qualified reference was re-pointed to', () => {
    const engine = workbook({ Sheet1: { A1: 5 }, Sheet2: { B2: '=Sheet1!A1+1' } })
    engine.moveRange('Sheet1', 'A1', 'Sheet2', 'A1')
    expect(input(engine, 'B2', 'Sheet2')).toBe('=Sheet2!A1+1')
    expect(value(engine, 'B2', 'Sheet2')).toBe(6)
  })

  it('leaves references to the same address on another sheet alone', () => {
    const engine = workbook({ Sheet1: { A1: 1 }, Sheet2: { A1: 2, B1: '=A1' } })
    engine.moveRange('Sheet1', 'A1', 'Sheet1', 'C1')
    expect(input(engine, 'B1', 'Sheet2')).toBe('=A1')
    expect(value(engine, 'B1', 'Sheet2')).toBe(2)
  })

  it('turns references to the cells it lands on, on the other sheet, into #REF!', () => {
    const engine = workbook({ Sheet1: { A1: 1, B1: '=Sheet2!C1' }, Sheet2: { C1: 9, D1: '=C1' } })
    engine.moveRange('Sheet1', 'A1', 'Sheet2', 'C1')
    expect(input(engine, 'D1', 'Sheet2')).toBe('=#REF!')
    expect(input(engine, 'B1')).toBe('=#REF!')
    expect(value(engine, 'B1')).toBe('#REF!')
  })
})

describe('moveRange: cells it lands on', () => {
  it('turns references to overwritten cells into #REF!, and leaves ranges only partly overwritten', () => {
    const engine = workbook({ Sheet1: { A1: 1, C1: 5, C2: 6, D1: '=C1', D2: '=SUM(C1:C1)', D3: '=SUM(C1:C2)' } })
    engine.moveRange('Sheet1', 'A1', 'Sheet1', 'C1')
    expect(input(engine, 'D1')).toBe('=#REF!')
    expect(input(engine, 'D2')).toBe('=SUM(#REF!)')
    expect(input(engine, 'D3')).toBe('=SUM(C1:C2)')
    expect(value(engine, 'D3')).toBe(7)
    expect(value(engine, 'D1')).toBe('#REF!')
  })

  it('overwrites formulas it lands on with the block', () => {
    const engine = workbook({ Sheet1: { A1: 2, C1: '=A1*100' } })
    engine.moveRange('Sheet1', 'A1', 'Sheet1', 'C1')
    expect(input(engine, 'C1')).toBe('2')
    expect(value(engine, 'C1')).toBe(2)
  })

  it('lands empty cells of the block on filled ones, as a cut and paste does', () => {
    const engine = workbook({ Sheet1: { A1: 1, C1: 'x', C2: 'y' } })
    engine.moveRange('Sheet1', 'A1:A2', 'Sheet1', 'C1')
    expect([input(engine, 'C1'), input(engine, 'C2')]).toEqual(['1', ''])
  })
})

describe('moveRange: defined names', () => {
  it('re-points a name to the moved cells and recalculates the formulas using it', () => {
    const engine = workbook({ Sheet1: { A1: 0.1, B1: 100, C1: '=B1*Rate' } })
    engine.defineName('Rate', '=Sheet1!$A$1')
    engine.defineName('Wide', '=Sheet1!$A$1:$A$5')
    engine.moveRange('Sheet1', 'A1', 'Sheet1', 'F2')
    const names = Object.fromEntries(engine.getNames().map((name) => [name.name, name.formula]))
    expect(names.Rate).toBe('=Sheet1!$F$2')
    expect(names.Wide).toBe('=Sheet1!$A$1:$A$5')
    expect(value(engine, 'C1')).toBeCloseTo(10)
    engine.setCell('Sheet1', 'F2', 0.2)
    expect(value(engine, 'C1')).toBeCloseTo(20)
  })

  it('re-points a sheet-scoped name with unqualified references only on its own sheet', () => {
    const engine = workbook({ Sheet1: { A1: 3 }, Sheet2: { A1: 4 } })
    engine.defineName('Local', '=Sheet1!$A$1', 'Sheet1')
    engine.moveRange('Sheet1', 'A1', 'Sheet2', 'B1')
    expect(engine.getNames().find((name) => name.name === 'Local')?.formula).toBe('=Sheet2!$B$1')
  })
})

describe('moveRange: arrays and limits', () => {
  it('moves a spilling formula with its spill', () => {
    const engine = workbook({ Sheet1: { A1: '=SEQUENCE(3)', B1: '=SUM(A1#)' } })
    engine.moveRange('Sheet1', 'A1', 'Sheet1', 'D1')
    expect([value(engine, 'D1'), value(engine, 'D3'), value(engine, 'A2')]).toEqual([1, 3, null])
    expect(input(engine, 'B1')).toBe('=SUM(D1#)')
    expect(value(engine, 'B1')).toBe(6)
  })

  it('refuses to move part of a legacy array formula, and moves a whole one', () => {
    const engine = workbook({ Sheet1: { A1: 1, A2: 2 } })
    engine.setArrayFormula('Sheet1', 'B1:B2', '=A1:A2*10')
    expect(() => engine.moveRange('Sheet1', 'B2', 'Sheet1', 'D2')).toThrow("You can't change part of an array")
    expect(() => engine.moveRange('Sheet1', 'A1', 'Sheet1', 'B2')).toThrow("You can't change part of an array")
    engine.moveRange('Sheet1', 'B1:B2', 'Sheet1', 'D1')
    expect([value(engine, 'D1'), value(engine, 'D2'), value(engine, 'B1')]).toEqual([10, 20, null])
  })

  it('refuses a block that would leave the sheet, changing nothing', () => {
    const engine = workbook({ Sheet1: { A1: 1, A2: 2 } })
    expect(() => engine.moveRange('Sheet1', 'A1:A2', 'Sheet1', 'A1048576')).toThrow(/Invalid cell address/)
    expect(input(engine, 'A1')).toBe('1')
  })

  it('names a missing sheet', () => {
    const engine = workbook({ Sheet1: { A1: 1 } })
    expect(() => engine.moveRange('Sheet1', 'A1', 'Nope', 'A1')).toThrow(/Nope/)
  })
})

describe('moveRange: any block, anywhere', () => {
  const SIZE = 6
  const cell = fc.record({ row: fc.integer({ min: 0, max: SIZE - 1 }), col: fc.integer({ min: 0, max: SIZE - 1 }) })

  it('keeps every formula’s value, except those reading cells the block landed on, which show #REF!', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(cell, fc.integer({ min: 1, max: 99 })), { minLength: 4, maxLength: 20 }),
        fc.array(fc.tuple(cell, cell, cell), { minLength: 1, maxLength: 12 }),
        cell,
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 3 }),
        cell,
        (numbers, formulas, corner, height, width, landing) => {
          const cells: Record<string, string | number> = {}
          for (const [at, n] of numbers) cells[formatAddress(at.row, at.col)] = n
          // formulas read only cells before them (row by row), so that none is circular
          const index = (at: { row: number; col: number }) => at.row * SIZE + at.col
          formulas = formulas.filter(([at, a, b]) => index(a) < index(at) && index(b) < index(at))
          for (const [at, a, b] of formulas) cells[formatAddress(at.row, at.col)] = `=${formatAddress(a.row, a.col)}+2*${formatAddress(b.row, b.col)}`
          const engine = workbook({ Sheet1: cells })
          const from = { top: corner.row, left: corner.col, bottom: corner.row + height - 1, right: corner.col + width - 1 }
          const to = { top: landing.row, left: landing.col, bottom: landing.row + height - 1, right: landing.col + width - 1 }
          const inside = (block: typeof from, row: number, col: number) => row >= block.top && row <= block.bottom && col >= block.left && col <= block.right
          const before = new Map<string, unknown>()
          for (let row = 0; row < SIZE + 4; row++) for (let col = 0; col < SIZE + 4; col++) before.set(formatAddress(row, col), value(engine, formatAddress(row, col)))
          engine.moveRange('Sheet1', `${formatAddress(from.top, from.left)}:${formatAddress(from.bottom, from.right)}`, 'Sheet1', formatAddress(to.top, to.left))
          // a formula reading a cell the block landed on shows #REF!, and so does every formula reading it
          const tainted = new Set<string>()
          const live = formulas.filter(([at, a, b]) => cells[formatAddress(at.row, at.col)] === `=${formatAddress(a.row, a.col)}+2*${formatAddress(b.row, b.col)}`)
          for (const [at, a, b] of [...live].sort((x, y) => index(x[0]) - index(y[0]))) {
            const landed = (ref: { row: number; col: number }) => inside(to, ref.row, ref.col) && !inside(from, ref.row, ref.col)
            if ([a, b].some((ref) => landed(ref) || tainted.has(formatAddress(ref.row, ref.col)))) tainted.add(formatAddress(at.row, at.col))
          }
          for (const [at] of live) {
            // where the formula is now: it moved with the block, was overwritten, or stayed
            const moved = inside(from, at.row, at.col)
            if (!moved && inside(to, at.row, at.col)) continue
            const now = moved ? formatAddress(at.row + to.top - from.top, at.col + to.left - from.left) : formatAddress(at.row, at.col)
            if (tainted.has(formatAddress(at.row, at.col))) expect(value(engine, now)).toBe('#REF!')
            else expect(value(engine, now)).toEqual(before.get(formatAddress(at.row, at.col)))
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})
