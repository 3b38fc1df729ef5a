import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { PositionSet } from './position-set.js'
import { Engine } from './engine.js'

describe('PositionSet', () => {
  it('holds exactly the positions added, like a set of their keys', () => {
    const position = fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 1_048_575 }), fc.integer({ min: 0, max: 16_383 }))
    fc.assert(
      fc.property(fc.array(position, { maxLength: 200 }), fc.array(position, { maxLength: 50 }), (added, probes) => {
        const set = new PositionSet(added.length)
        const reference = new Set<string>()
        for (const [sheet, row, col] of added) {
          const key = `${sheet}:${row}:${col}`
          expect(set.add(sheet, row, col)).toBe(!reference.has(key))
          reference.add(key)
        }
        for (const [sheet, row, col] of [...added, ...probes]) expect(set.has(sheet, row, col)).toBe(reference.has(`${sheet}:${row}:${col}`))
      }),
    )
  })
})

describe('a batch that edits a cell twice', () => {
  it('reports the cell once, with its last value, in the place of its last edit', () => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    const changes = engine.setCells([
      { sheet: 'Sheet1', address: 'A1', input: 1 },
      { sheet: 'Sheet1', address: 'B1', input: '=A1*2' },
      { sheet: 'Sheet1', address: 'A2', input: 5 },
      { sheet: 'Sheet1', address: 'A1', input: 3 },
    ])
    expect(changes.map((change) => [change.address, change.value])).toEqual([['B1', 6], ['A2', 5], ['A1', 3]])
  })
})
