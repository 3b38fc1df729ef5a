/**
 * SUBTOTAL and AGGREGATE over rows hidden by the user and by a filter, by Excel's rules: SUBTOTAL 1–11
 * skips filtered rows and counts the ones the user hid, 101–111 skip both, AGGREGATE's options 1, 3, 5
 * and 7 skip both and the others neither; nested SUBTOTAL and AGGREGATE results are skipped by SUBTOTAL
 * always and by AGGREGATE's options 0 to 3.
 */
import { describe, expect, it } from 'vitest'
import { Engine } from '../../engine/engine.js'
import type { CellInputValue } from '../../engine/engine.js'
import { CellError } from '../../values.js'
import type { Scalar } from '../../values.js'

const plain = (value: Scalar) => (value instanceof CellError ? value.code : value)

/** Sheet1 with the cells, its rows (1-based) hidden by the user and by a filter. */
function sheet(cells: Record<string, CellInputValue>, hidden: number[], filtered: number[]): Engine {
  const engine = new Engine()
  engine.addSheet('Sheet1')
  engine.setCells(Object.entries(cells).map(([address, input]) => ({ sheet: 'Sheet1', address, input })))
  engine.setHiddenRows('Sheet1', { hidden: hidden.map((row) => row - 1), filtered: filtered.map((row) => row - 1) })
  return engine
}

function value(engine: Engine, formula: string, sheetName = 'Sheet1'): Scalar {
  engine.setCell(sheetName, 'ZZ1', '=' + formula)
  return plain(engine.getValue(sheetName, 'ZZ1'))
}

// Powers of two, so that a sum names the rows it took; text in row 11 tells COUNT from COUNTA.
const POWERS: Record<string, CellInputValue> = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`A${i + 1}`, 2 ** i]))
const DATA = { ...POWERS, A11: 'x' }
// Rows 2 and 3 hidden by the user, 5 and 6 by the filter, 8 by both.
const USER_HIDDEN = [2, 3, 8]
const FILTERED = [5, 6, 8]

const FUNCTIONS: Record<number, string> = {
  1: 'AVERAGE',
  2: 'COUNT',
  3: 'COUNTA',
  4: 'MAX',
  5: 'MIN',
  6: 'PRODUCT',
  7: 'STDEV',
  8: 'STDEVP',
  9: 'SUM',
  10: 'VAR',
  11: 'VARP',
}

describe('SUBTOTAL over hidden rows', () => {
  it('1 to 11 skip the rows a filter hid and count the rows the user hid', () => {
    const engine = sheet(DATA, USER_HIDDEN, FILTERED)
    const shown = 'A1,A2,A3,A4,A7,A9,A10,A11'
    for (const [number, name] of Object.entries(FUNCTIONS)) {
      expect(value(engine, `SUBTOTAL(${number},A1:A11)`), name).toBe(value(engine, `${name}(${shown})`))
    }
    expect(value(engine, 'SUBTOTAL(9,A1:A11)')).toBe(1023 - 16 - 32 - 128)
    expect(value(engine, 'SUBTOTAL(3,A1:A11)')).toBe(8)
  })

  it('101 to 111 skip the rows the user hid as well', () => {
    const engine = sheet(DATA, USER_HIDDEN, FILTERED)
    const shown = 'A1,A4,A7,A9,A10,A11'
    for (const [number, name] of Object.entries(FUNCTIONS)) {
      expect(value(engine, `SUBTOTAL(${100 + Number(number)},A1:A11)`), name).toBe(value(engine, `${name}(${shown})`))
    }
    expect(value(engine, 'SUBTOTAL(109,A1:A11)')).toBe(1 + 8 + 64 + 256 + 512)
    expect(value(engine, 'SUBTOTAL(102,A1:A11)')).toBe(5)
  })

  it('count every row once nothing is hidden again', () => {
    const engine = sheet(DATA, USER_HIDDEN, FILTERED)
    engine.setHiddenRows('Sheet1', { hidden: [], filtered: [] })
    expect(value(engine, 'SUBTOTAL(9,A1:A11)')).toBe(1023)
    expect(value(engine, 'SUBTOTAL(109,A1:A11)')).toBe(1023)
  })

  it('skip nested SUBTOTAL and AGGREGATE results, hidden or not', () => {
    const engine = sheet({ A1: 1, A2: 2, A3: '=SUBTOTAL(9,A1:A2)', A4: 4, A5: '=AGGREGATE(9,4,A4)', A6: 8 }, [], [4])
    expect(value(engine, 'SUBTOTAL(9,A1:A6)')).toBe(11)
    expect(value(engine, 'SUBTOTAL(109,A1:A6)')).toBe(11)
  })

  it('skip a hidden row across a horizontal range, and read the hidden rows of the sheet referred to', () => {
    const engine = sheet({ A2: 1, B2: 2, C2: 4, A3: 8, B3: 16 }, [2], [])
    expect(value(engine, 'SUBTOTAL(109,A2:C3)')).toBe(24)
    expect(value(engine, 'SUBTOTAL(9,A2:C3)')).toBe(31)
    engine.addSheet('Sheet2')
    engine.setHiddenRows('Sheet2', { hidden: [], filtered: [0, 1, 2] })
    expect(value(engine, 'SUBTOTAL(109,Sheet1!A2:C3)', 'Sheet2')).toBe(24)
    expect(value(engine, 'SUBTOTAL(9,Sheet1!A2:C3,Sheet1!A3)', 'Sheet2')).toBe(39)
  })

  it('skips filtered rows of whole-column references and several areas', () => {
    const engine = sheet(POWERS, [], [1, 2])
    expect(value(engine, 'SUBTOTAL(9,A:A)')).toBe(1020)
    expect(value(engine, 'SUBTOTAL(9,(A1:A2,A4))')).toBe(8)
  })

  it('still refuses function numbers outside 1–11 and 101–111', () => {
    const engine = sheet(POWERS, [2], [3])
    for (const number of [0, 12, 100, 112, 200]) expect(value(engine, `SUBTOTAL(${number},A1:A3)`)).toBe('#VALUE!')
  })
})

describe('AGGREGATE over hidden rows', () => {
  // B2 is hidden by the user and holds an error, B3 is filtered, B4 a nested SUBTOTAL.
  const cells = { B1: 10, B2: '=NA()', B3: 5, B4: '=SUBTOTAL(9,B1)', B5: 100 }
  const expected: Record<number, Scalar> = {
    0: '#N/A', // nested
    1: 110, // hidden rows, nested
    2: 115, // errors, nested
    3: 110, // hidden rows, errors, nested
    4: '#N/A', // nothing
    5: 120, // hidden rows
    6: 125, // errors
    7: 120, // hidden rows, errors
  }

  it('options 0 to 7 choose among hidden rows, error values and nested results', () => {
    const engine = sheet(cells, [2], [3])
    for (const [option, result] of Object.entries(expected)) {
      expect(value(engine, `AGGREGATE(9,${option},B1:B5)`), `option ${option}`).toBe(result)
    }
  })

  it('an error in a shown row stays an error unless errors are ignored', () => {
    const engine = sheet({ ...cells, B6: '=1/0' }, [2], [3])
    expect(value(engine, 'AGGREGATE(9,1,B1:B6)')).toBe('#DIV/0!')
    expect(value(engine, 'AGGREGATE(9,5,B1:B6)')).toBe('#DIV/0!')
    expect(value(engine, 'AGGREGATE(9,7,B1:B6)')).toBe(120)
  })

  it('skips hidden rows in the array form when given a reference, not in a computed array', () => {
    const engine = sheet(POWERS, [8], [4, 7])
    expect(value(engine, 'AGGREGATE(14,5,A1:A8,1)')).toBe(32)
    expect(value(engine, 'AGGREGATE(14,4,A1:A8,1)')).toBe(128)
    expect(value(engine, 'AGGREGATE(15,1,A1:A8,4)')).toBe(16)
    expect(value(engine, 'AGGREGATE(15,4,A1:A8,4)')).toBe(8)
    expect(value(engine, 'AGGREGATE(14,5,A1:A8*1,1)')).toBe(128)
  })

  it('counts a filtered row when the option keeps hidden rows', () => {
    const engine = sheet(POWERS, [], [2])
    expect(value(engine, 'AGGREGATE(9,4,A1:A3)')).toBe(7)
    expect(value(engine, 'AGGREGATE(9,5,A1:A3)')).toBe(5)
    expect(value(engine, 'AGGREGATE(2,7,A1:A3)')).toBe(2)
    expect(value(engine, 'AGGREGATE(3,3,A1:A3)')).toBe(2)
  })
})
