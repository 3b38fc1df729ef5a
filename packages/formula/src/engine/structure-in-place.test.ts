import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Engine } from './engine.js'
import { CellError } from '../values.js'
import type { Value } from '../values.js'
import { columnToLetters, formatAddress } from '../address/a1.js'
import { shiftFormula } from '../parser/translate.js'
import { FormulaSyntaxError } from '../parser/parser.js'
import { movePosition } from './structure.js'
import type { StructuralChange } from './structure.js'
import { RANGE_EDGE_LIMITS } from '../graph/dependency-graph.js'
import { createBuiltinRegistry } from '../functions/index.js'
import type { FunctionDefinition } from '../functions/types.js'

/**
 * Inserting and deleting rows and columns keeps the dependency graph (formulas that only move are not
 * compiled or calculated again): after any sequence of such edits, the workbook must hold the formulas
 * and values of a fresh load of the shifted cells, and later edits must reach the same cells.
 */

const ROWS = 8
const COLS = 6
const SHEETS = ['S', 'T'] as const

const rowIndex = fc.integer({ min: 0, max: ROWS - 1 })
const colIndex = fc.integer({ min: 0, max: COLS - 1 })
const dollar = fc.boolean().map((absolute) => (absolute ? '$' : ''))
const cellRef = fc.tuple(dollar, colIndex, dollar, rowIndex).map(([a, col, b, row]) => `${a}${columnToLetters(col)}${b}${row + 1}`)
const block = fc.tuple(dollar, colIndex, colIndex, dollar, rowIndex, rowIndex).map(([a, c1, c2, b, r1, r2]) =>
  `${a}${columnToLetters(Math.min(c1, c2))}${b}${Math.min(r1, r2) + 1}:${columnToLetters(Math.max(c1, c2))}${Math.max(r1, r2) + 1}`,
)
const formula = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(cellRef, fc.constantFrom('+', '-', '*'), cellRef).map(([a, op, b]) => `=${a}${op}${b}`) },
  { weight: 3, arbitrary: block.map((range) => `=SUM(${range})`) },
  { weight: 1, arbitrary: fc.tuple(colIndex, rowIndex).map(([col, row]) => `=SUM($${columnToLetters(col)}$1:${columnToLetters(col)}${row + 1})`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('S', 'T'), cellRef).map(([sheet, ref]) => `=${sheet}!${ref}*2`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('S', 'T'), block).map(([sheet, range]) => `=COUNT(${sheet}!${range})`) },
  { weight: 1, arbitrary: colIndex.map((col) => `=SUM(${columnToLetters(col)}:${columnToLetters(col)})`) },
  { weight: 1, arbitrary: rowIndex.map((row) => `=SUM(${row + 1}:${row + 1})`) },
  { weight: 1, arbitrary: cellRef.map((ref) => `=Rate*${ref}`) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: -3, max: 9 }), colIndex).map(([value, col]) => `=MATCH(${value},${columnToLetters(col)}:${columnToLetters(col)},0)`) },
  { weight: 1, arbitrary: block.map((range) => `=COUNTBLANK(${range})+MAX(${range})`) },
  { weight: 1, arbitrary: fc.constant('=A1+') },
)
const input = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: -3, max: 9 }) }, { weight: 2, arbitrary: formula })
const sheetCells = fc.array(fc.tuple(rowIndex, colIndex, input), { maxLength: 30 })

const change = fc.record({
  sheet: fc.constantFrom(...SHEETS),
  axis: fc.constantFrom<StructuralChange['axis']>('rows', 'columns'),
  kind: fc.constantFrom<StructuralChange['kind']>('insert', 'delete'),
  index: fc.integer({ min: 0, max: ROWS - 1 }),
  count: fc.integer({ min: 1, max: 3 }),
})
const valueEdit = fc.tuple(fc.constantFrom(...SHEETS), rowIndex, colIndex, fc.integer({ min: -3, max: 9 }))

function build(cells: Record<string, [number, number, string | number][]>, rate = '=T!$B$2'): Engine {
  const engine = new Engine()
  for (const sheet of SHEETS) engine.addSheet(sheet)
  engine.defineName('Rate', rate)
  engine.setCells(
    SHEETS.flatMap((sheet) => (cells[sheet] ?? []).map(([row, col, value]) => ({ sheet, address: formatAddress(row, col), input: value }))),
  )
  return engine
}

function apply(engine: Engine, { sheet, axis, kind, index, count }: StructuralChange & { sheet: string }): void {
  if (axis === 'rows' && kind === 'insert') engine.insertRows(sheet, index, count)
  else if (axis === 'rows') engine.deleteRows(sheet, index, count)
  else if (kind === 'insert') engine.insertColumns(sheet, index, count)
  else engine.deleteColumns(sheet, index, count)
}

/** A formula's text after the change; one that does not parse keeps its text wherever it goes. */
function shiftedText(formula: string, sheet: string, address: string, target: string, change: StructuralChange): string {
  try {
    return shiftFormula(formula, sheet, address, target, change)!.formula
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return formula
    throw error
  }
}

/** The cells of every sheet after the change, as text a fresh engine loads. */
function shiftedCells(engine: Engine, target: string, change: StructuralChange): Record<string, [number, number, string | number][]> {
  const result: Record<string, [number, number, string | number][]> = {}
  for (const sheet of SHEETS) {
    const list: [number, number, string | number][] = []
    for (const cell of engine.cells(sheet)) {
      if (cell.formula !== undefined) {
        const moved = sheet === target ? movePosition(cell.row, cell.col, change) : cell
        if (moved === undefined) continue
        list.push([moved.row, moved.col, shiftedText(cell.formula, sheet, cell.address, target, change)])
        continue
      }
      const moved = sheet === target ? movePosition(cell.row, cell.col, change) : cell
      if (moved !== undefined) list.push([moved.row, moved.col, cell.input])
    }
    result[sheet] = list
  }
  return result
}

function snapshot(engine: Engine): unknown[] {
  const cells: unknown[] = []
  for (const sheet of SHEETS) {
    for (let row = 0; row < ROWS + 4; row++) {
      for (let col = 0; col < COLS + 4; col++) {
        const address = formatAddress(row, col)
        const value = engine.getValue(sheet, address)
        cells.push(`${sheet}!${address}`, engine.getFormula(sheet, address), value instanceof CellError ? value.code : Object.is(value, -0) ? 0 : value)
      }
    }
  }
  return cells
}

const circular = (...engines: Engine[]) => engines.some((engine) => engine.getCircularReferences().length > 0)

/** After any sequence of structural edits and value edits, the engine holds what a fresh load of the shifted cells holds. */
function assertSameAsFreshLoad(): void {
    fc.assert(
      fc.property(sheetCells, sheetCells, fc.array(fc.tuple(change, valueEdit), { minLength: 1, maxLength: 4 }), (s, t, steps) => {
        const engine = build({ S: s.map(([r, c, v]) => [r, c, v]), T: t.map(([r, c, v]) => [r, c, v]) })
        for (const [structural, [editSheet, row, col, value]] of steps) {
          // A workbook name's references are all qualified: it stands on no sheet.
          const rate = shiftFormula(engine.getNames()[0].formula, 'no sheet', 'A1', structural.sheet, structural)
          const expected = build(shiftedCells(engine, structural.sheet, structural), rate!.formula)
          apply(engine, structural)
          if (circular(engine, expected)) return
          expect(snapshot(engine)).toEqual(snapshot(expected))
          engine.setCell(editSheet, formatAddress(row, col), value)
          expected.setCell(editSheet, formatAddress(row, col), value)
          if (circular(engine, expected)) return
          expect(snapshot(engine)).toEqual(snapshot(expected))
        }
      }),
      { numRuns: 100 },
    )
}

describe('rows and columns inserted and deleted in place', () => {
  it('leave the formulas and values of a fresh load of the shifted cells, and later edits reach the same cells', () => {
    assertSameAsFreshLoad()
  }, 120_000)

  it('do so too where ranges are listed by their columns or rows instead of holding an edge per cell', () => {
    // Small limits make most ranges of this grid tall (3 own rows or more) or broad (2 columns or more).
    const limits = { ...RANGE_EDGE_LIMITS }
    Object.assign(RANGE_EDGE_LIMITS, { tallRows: 3, broadColumns: 2 })
    try {
      assertSameAsFreshLoad()
    } finally {
      Object.assign(RANGE_EDGE_LIMITS, limits)
    }
  }, 120_000)

  it('keep a column total over 300 rows, listed by its column, reached by edits in rows inserted under it', () => {
    const engine = new Engine()
    engine.addSheet('S')
    engine.loadSheet('S', [[1, '=SUM(A1:A300)', '=B1*2'], ...Array.from({ length: 299 }, () => [1])])
    expect(engine.getValue('S', 'C1')).toBe(600)
    engine.insertRows('S', 100, 2)
    expect(engine.getFormula('S', 'B1')).toBe('=SUM(A1:A302)')
    expect(engine.setCell('S', 'A101', 5).map((change) => change.address)).toEqual(['A101', 'B1', 'C1'])
    expect(engine.getValue('S', 'C1')).toBe(610)
    engine.deleteRows('S', 50, 10)
    expect(engine.getFormula('S', 'B1')).toBe('=SUM(A1:A292)')
    expect(engine.getValue('S', 'C1')).toBe(590)
    engine.setCell('S', 'A200', 0)
    expect(engine.getValue('S', 'B1')).toBe(294)
    engine.insertColumns('S', 0, 1)
    expect(engine.getFormula('S', 'C1')).toBe('=SUM(B1:B292)')
    engine.setCell('S', 'B292', 11)
    expect(engine.getValue('S', 'C1')).toBe(304)
  })

  it('keep a row total across 20 columns, listed by its rows, reached by edits in columns and rows inserted inside it', () => {
    const engine = new Engine()
    engine.addSheet('S')
    engine.loadSheet('S', [Array.from({ length: 20 }, () => 1), Array.from({ length: 20 }, () => 2)])
    engine.setCells([
      { sheet: 'S', address: 'W4', input: '=SUM(A1:T2)' },
      { sheet: 'S', address: 'X4', input: '=W4+1' },
    ])
    expect(engine.getValue('S', 'X4')).toBe(61)
    engine.insertColumns('S', 5, 1)
    expect(engine.getFormula('S', 'X4')).toBe('=SUM(A1:U2)')
    engine.setCell('S', 'F2', 7)
    expect(engine.getValue('S', 'Y4')).toBe(68)
    engine.insertRows('S', 1, 1)
    expect(engine.getFormula('S', 'X5')).toBe('=SUM(A1:U3)')
    expect(engine.setCell('S', 'K2', 100).map((change) => change.address)).toEqual(['K2', 'X5', 'Y5'])
    expect(engine.getValue('S', 'Y5')).toBe(168)
    engine.deleteColumns('S', 0, 3)
    expect(engine.getFormula('S', 'U5')).toBe('=SUM(A1:R3)')
    expect(engine.getValue('S', 'V5')).toBe(159)
    engine.setCell('S', 'R1', 0)
    expect(engine.getValue('S', 'V5')).toBe(158)
  })

  it('keeps without calculating a SUM whose range grew by inserted cells; calculates what counts empty cells', () => {
    // TALLY(x) is x, counting its calculations: a formula calculated again calls it again.
    let calls = 0
    const tally: FunctionDefinition = {
      name: 'TALLY',
      category: 'math',
      minArgs: 1,
      maxArgs: 1,
      args: ['any'],
      syntax: 'TALLY(value)',
      description: 'Returns value and counts its calculations.',
      example: 'TALLY(1)',
      impl: ([value]) => {
        calls++
        return value as Value
      },
    }
    const functions = createBuiltinRegistry()
    functions.register(tally)
    const engine = new Engine({ functions })
    engine.addSheet('S')
    engine.loadSheet('S', [
      [1, '=TALLY(SUM(A1:A3))', '=TALLY(COUNTBLANK(A1:A3))', '=TALLY(A2*2)', '=TALLY(MAX(A1:B1))'],
      [2],
      [3],
    ])
    expect(calls).toBe(4)
    const rows = engine.insertRows('S', 1, 2)
    expect(engine.getFormula('S', 'B1')).toBe('=TALLY(SUM(A1:A5))')
    expect(engine.getFormula('S', 'D1')).toBe('=TALLY(A4*2)')
    // Only the COUNTBLANK was calculated again, and it alone changed.
    expect(calls).toBe(5)
    expect(rows.map((change) => [change.address, change.value])).toEqual([['C1', 2]])
    const columns = engine.insertColumns('S', 1, 1)
    expect(engine.getFormula('S', 'F1')).toBe('=TALLY(MAX(A1:C1))')
    expect(columns).toEqual([])
    expect(calls).toBe(5)
    expect(engine.getValue('S', 'C1')).toBe(6)
    expect(engine.getValue('S', 'F1')).toBe(6)
    // The kept formulas still answer to their cells.
    engine.setCell('S', 'A3', 10)
    expect([engine.getValue('S', 'C1'), engine.getValue('S', 'D1'), engine.getValue('S', 'F1')]).toEqual([16, 1, 16])
  })

  it('calculates a lookup in whole columns again when rows are inserted above what it finds', () => {
    const engine = new Engine()
    engine.addSheet('S')
    engine.loadSheet('S', [[1, '=MATCH(5,A:A,0)', '=SUM(A:A)'], [2], [5]])
    expect(engine.getValue('S', 'B1')).toBe(3)
    engine.insertRows('S', 1, 2)
    expect(engine.getValue('S', 'B1')).toBe(5)
    expect(engine.getValue('S', 'C1')).toBe(8)
    engine.insertColumns('S', 0, 1)
    engine.deleteRows('S', 1, 1)
    expect(engine.getFormula('S', 'C1')).toBe('=MATCH(5,B:B,0)')
    expect(engine.getValue('S', 'C1')).toBe(4)
  })

  it('finds the formulas to change in a column of more shapes than it lists', () => {
    // Twenty shapes down one column, each reading the cell 1 to 20 rows above it, under twenty numbers.
    const inputs: (number | string)[][] = Array.from({ length: 20 }, (_, i) => [i + 1])
    for (let i = 0; i < 20; i++) inputs.push([`=A${20 + i + 1 - (i + 1)}*2`])
    const engine = new Engine()
    engine.addSheet('S')
    engine.loadSheet('S', inputs)
    const expected = new Engine()
    expected.addSheet('S')
    engine.insertRows('S', 10, 3)
    const shifted: (number | string)[][] = Array.from({ length: 23 }, (_, i) => (i >= 10 && i < 13 ? [] : [i < 10 ? i + 1 : i - 2]))
    for (let i = 0; i < 20; i++) {
      const read = 20 + i + 1 - (i + 1)
      shifted.push([`=A${read > 10 ? read + 3 : read}*2`])
    }
    expected.loadSheet('S', shifted)
    for (let row = 1; row <= 43; row++) {
      expect(engine.getFormula('S', `A${row}`)).toBe(expected.getFormula('S', `A${row}`))
      expect(engine.getValue('S', `A${row}`)).toBe(expected.getValue('S', `A${row}`))
    }
    // Every formula reads the number that was in A20, now in A23.
    engine.setCell('S', 'A23', 100)
    for (let row = 24; row <= 43; row++) expect(engine.getValue('S', `A${row}`)).toBe(200)
  })

  it('recalculates a SUM whose range grew or shrank, and what reads it', () => {
    const engine = new Engine()
    engine.addSheet('S')
    engine.loadSheet('S', [[1, '=A1*2'], [2, '=A2*2'], [3, '=A3*2'], ['=SUM(A1:A3)', '=SUM(B1:B3)'], ['=A4+B4']])
    expect(engine.getValue('S', 'A5')).toBe(18)
    engine.insertRows('S', 1)
    expect(engine.getFormula('S', 'A5')).toBe('=SUM(A1:A4)')
    expect(engine.getFormula('S', 'B3')).toBe('=A3*2')
    engine.setCell('S', 'A2', 10)
    expect(engine.getValue('S', 'A5')).toBe(16)
    expect(engine.getValue('S', 'B5')).toBe(12)
    expect(engine.getValue('S', 'A6')).toBe(28)
    const changes = engine.deleteRows('S', 0, 2)
    expect(engine.getFormula('S', 'A3')).toBe('=SUM(A1:A2)')
    expect(engine.getValue('S', 'A3')).toBe(5)
    expect(engine.getValue('S', 'A4')).toBe(15)
    expect(changes.map((change) => change.address).sort()).toEqual(['A3', 'A4', 'B3'])
  })
})
