import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { parseFormula } from '../parser/parser.js'
import { columnToLetters } from '../address/a1.js'
import { keptPositions, shapeReach } from './shape-reach.js'
import { movePosition, shiftTree } from './structure.js'
import type { StructuralChange } from './structure.js'

const index = fc.integer({ min: 0, max: 30 })
const dollar = fc.boolean().map((absolute) => (absolute ? '$' : ''))
const ref = fc.tuple(dollar, index, dollar, index).map(([a, col, b, row]) => `${a}${columnToLetters(col)}${b}${row + 1}`)
const formula = fc.oneof(
  fc.tuple(ref, ref).map(([a, b]) => `=${a}+${b}`),
  // Ranges top-left first (shifting a tree writes a reversed range the right way round, an equal range).
  fc.tuple(dollar, index, index, dollar, index, index).map(([a, c1, c2, b, r1, r2]) =>
    `=SUM(${a}${columnToLetters(Math.min(c1, c2))}${b}${Math.min(r1, r2) + 1}:${a}${columnToLetters(Math.max(c1, c2))}${b}${Math.max(r1, r2) + 1})`,
  ),
  // Each end absolute or relative on its own (`$A$1:A5`, running totals).
  fc.tuple(fc.tuple(dollar, dollar, dollar, dollar), index, index, index, index).map(([[a, b, c, d], c1, c2, r1, r2]) =>
    `=SUM(${a}${columnToLetters(Math.min(c1, c2))}${b}${Math.min(r1, r2) + 1}:${c}${columnToLetters(Math.max(c1, c2))}${d}${Math.max(r1, r2) + 1})`,
  ),
  ref.map((a) => `=Sheet2!${a}*2`),
  fc.constantFrom('=SUM(B:B)', '=SUM(3:4)', '=1+2'),
)
const change = fc.record({
  axis: fc.constantFrom<StructuralChange['axis']>('rows', 'columns'),
  kind: fc.constantFrom<StructuralChange['kind']>('insert', 'delete'),
  index,
  count: fc.integer({ min: 1, max: 4 }),
})

describe('positions where a formula keeps its tree', () => {
  it('are positions where shifting the tree changes nothing', () => {
    fc.assert(
      fc.property(formula, index, index, change, (text, row, col, structural) => {
        const ast = parseFormula(text, row, col)
        const kept = keptPositions(shapeReach(ast), structural)
        const position = structural.axis === 'rows' ? row : col
        const keeps = position >= kept.keptFrom ? position <= kept.keptTo : position < kept.keptBelow && position >= kept.keptAbove
        const moved = movePosition(row, col, structural)
        if (!keeps || moved === undefined) return
        const result = shiftTree(ast, { row, col }, moved, true, 'SHEET1', structural)
        expect(result.changed).toBe(false)
        expect(result.retargeted).toBe(false)
      }),
      { numRuns: 2000 },
    )
  })

  it('include formulas filled down beside the change, and exclude a SUM across it', () => {
    const insertRow: StructuralChange = { axis: 'rows', kind: 'insert', index: 10, count: 1 }
    const filled = keptPositions(shapeReach(parseFormula('=(A5+B4)/2', 4, 1)), insertRow)
    expect([filled.keptAbove, filled.keptBelow, filled.keptFrom]).toEqual([1, 10, 11])
    const total = keptPositions(shapeReach(parseFormula('=SUM(A1:A20)', 20, 0)), insertRow)
    const position = 20
    expect(position >= total.keptFrom || (position < total.keptBelow && position >= total.keptAbove)).toBe(false)
  })
})
