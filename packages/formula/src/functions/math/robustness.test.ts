import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Engine } from '../../engine/engine.js'
import { CellError } from '../../values.js'
import type { FunctionDefinition } from '../types.js'
import { functions as information } from '../information/index.js'
import { functions as logical } from '../logical/index.js'
import { functions as statistical } from '../statistical/index.js'
import { functions as text } from '../text/index.js'
import { functions as math } from './index.js'

/**
 * Arguments of every sort: extremes, text, logical values, errors, ranges, arrays, empties. (Whole
 * columns are left out only because broadcasting over a million rows makes the test slow.)
 */
const ARGUMENT = fc.constantFrom(
  '1',
  '-2.5',
  '0',
  '0.5',
  '1E300',
  '-1E300',
  '1E-300',
  '"x"',
  '""',
  '"12"',
  'TRUE',
  'FALSE',
  '1/0',
  'NA()',
  'A1:A4',
  'B1:B2',
  'A1:B4',
  '{1,2;3,4}',
  '',
  'C9',
)

function makeEngine(): Engine {
  const engine = new Engine()
  engine.addSheet('S')
  engine.setCells([
    { sheet: 'S', address: 'A1', input: 1 },
    { sheet: 'S', address: 'A2', input: 'x' },
    { sheet: 'S', address: 'A3', input: true },
    { sheet: 'S', address: 'A4', input: '=1/0' },
    { sheet: 'S', address: 'B1', input: -2.5 },
    { sheet: 'S', address: 'B2', input: 0 },
  ])
  return engine
}

describe('every math, statistical, logical, information and text function', () => {
  const definitions: FunctionDefinition[] = [...math, ...statistical, ...logical, ...information, ...text]

  it('gives a value or an error value for any arguments, never a failure or an endless loop', () => {
    const engine = makeEngine()
    const failures: string[] = []
    for (const definition of definitions) {
      const most = Math.min(definition.maxArgs, definition.minArgs + 3, 6)
      fc.assert(
        fc.property(fc.integer({ min: definition.minArgs, max: Math.max(definition.minArgs, most) }).chain((count) =>
          fc.array(ARGUMENT, { minLength: count, maxLength: count }),
        ), (args) => {
          const formula = `=${definition.name}(${args.join(',')})`
          engine.setCell('S', 'Z1', formula)
          const value = engine.getValue('S', 'Z1')
          const failed = value instanceof CellError && value.code === '#ERROR!' && !/takes .* argument/.test(value.message ?? '')
          if (failed || (typeof value === 'number' && !Number.isFinite(value))) failures.push(`${formula} → ${String(value)} ${value instanceof CellError ? (value.message ?? '') : ''}`)
        }),
        { numRuns: 40, seed: 20_261_122 },
      )
    }
    expect(failures).toEqual([])
  }, 60_000)
})
